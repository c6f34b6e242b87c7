"""The generator's knobs (:class:`Options`) and its named starting points
(:data:`PRESETS`): plain data, with no part in writing a workflow."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Dict, Optional, Tuple

DIALECTS = ("spec", "editor", "drupal")
LABEL_STYLES = ("snake", "mixed", "unicode")
LAYOUTS = ("json", "drupal-yaml")
COLLISION_KINDS = ("direct", "shared_box", "deep")

# ---------------------------------------------------------------------------
# Options and presets
# ---------------------------------------------------------------------------

# Fields that count things, scaled by Options.scaled(); per-entity sizes that
# are already small (tools_per_agent, tools_per_level, name_pool) are not.
_SCALED_FIELDS = (
    "agents",
    "toolboxes",
    "box_depth",
    "tools_per_box",
    "fanout",
    "box_cycles",
    "diamonds",
    "agents_as_tools",
    "non_tool_edges",
    "orphan_boxes",
    "collisions",
    "clash_pairs",
    "chain_depth",
    "clash_fanout",
)


@dataclass(frozen=True)
class Options:
    """Every knob of the generator. The defaults make a small, plain workflow;
    the presets (:data:`PRESETS`) turn the adversarial knobs on."""

    agents: int = 50
    """Agents: the consumers."""
    tools_per_agent: int = 4
    """Tools wired straight into each agent."""
    toolboxes: int = 10
    """Toolbox stacks. A stack is a chain of ``box_depth`` boxes; its top box
    is wired into ``fanout`` agents."""
    box_depth: int = 1
    """Boxes per stack (nesting: each box is wired into the one above it)."""
    tools_per_box: int = 6
    """Tools in the innermost box of each stack (its far end)."""
    tools_per_level: int = 1
    """Tools in each of the other boxes of a stack."""
    fanout: int = 3
    """Agents sharing each stack (consecutive agents from a random start)."""
    box_cycles: int = 0
    """Tool-edge cycles among boxes: a back edge from a stack's top box to its
    innermost box, or, in a one-box stack, a mirror box wired both ways."""
    diamonds: int = 0
    """Second routes for a tool to the same agents (innermost tool wired also
    into its stack's top box, or straight into one of its agents)."""
    agents_as_tools: int = 0
    """Tool edges from an agent into another agent (a leaf for the receiver,
    whose own tools are not forwarded). Outside ``name_pool`` mode the receiver
    also gets a tool named like one of the sender's, which is no collision."""
    non_tool_edges: int = 0
    """Data and trigger edges, a quarter of them decoys: a look-alike of one of
    the target's tools wired through a ``-input-tools``-style handle or with a
    recognised non-tool ``edgeType`` on a ``-input-tool`` handle."""
    orphan_boxes: int = 0
    """Boxes holding two same-named tools that reach no consumer (no violation)."""
    collision_share: float = 0.1
    """Share of agents at which a collision is injected (at least one when
    positive). A collision injected in a shared box is seen by every agent of
    that box, so more agents may end up with violations."""
    collisions: Optional[int] = None
    """Exact number of injected collisions; overrides ``collision_share``."""
    collision_kinds: Tuple[str, ...] = COLLISION_KINDS
    """Kinds of injected collisions, used in turn: ``direct`` (two tools wired
    straight into one agent), ``shared_box`` (two tools in a stack's top box:
    a violation at each of its agents), ``deep`` (a tool at a stack's far end
    and its twin wired straight into one agent of that stack)."""
    name_pool: int = 0
    """0: every tool name is unique in the workflow. N > 0: the agents' own
    tools draw distinct names from N shared ones, so names are globally
    frequent but collide only where injected."""
    clash_pairs: int = 0
    """Findings far larger than the file: pairs of tools labelled ``Tool i``
    and ``tool-i`` (both named ``tool_i``) in one clash box wired into the
    ``clash_fanout`` agents, so ``clash_pairs * clash_fanout`` violations
    from a file of about 180 bytes per pair and per agent."""
    chain_depth: int = 0
    """A chain of this many boxes (apart from the stacks) whose head is wired
    into the ``clash_fanout`` agents: the path of a tool at its far end is
    ``chain_depth + 2`` ids long, at every one of those agents."""
    chain_pairs: int = 0
    """Clashing pairs (named like ``clash_pairs``') wired into the chain's
    far end: ``chain_pairs * clash_fanout`` violations."""
    chain_levels: int = 0
    """Further clashing pairs, one wired into each of this many boxes spread
    evenly along the chain: ``chain_levels * clash_fanout`` violations."""
    clash_fanout: int = 0
    """Agents receiving the clash box and the chain head (consecutive agents
    from a seeded start); every one sees every ``tool_i`` pair."""
    label_style: str = "snake"
    """``snake`` (``get_user_3``), ``mixed`` (case, punctuation, quotes and
    backslashes, camel case) or ``unicode`` (non-ASCII letters, digits and
    symbols that sanitising drops, escaped or raw)."""
    noise: bool = False
    """Realistic payload the check must skip: positions, config, port
    metadata, styling, look-alike keys nested in config, escapes."""
    dialect: str = "spec"
    """``spec``, ``editor`` or ``drupal`` (docs/SEMANTICS.md section 9)."""
    layout: str = "json"
    """``json`` (one JSON object) or ``drupal-yaml`` (the config entity
    ``drush config:export`` writes, docs/SEMANTICS.md section 10). The same
    records either way, with the same expectation: only how they are
    written changes, never a drawn number."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(f.default, int) and not isinstance(f.default, bool):
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise ValueError(f"{f.name} must be a non-negative integer, got {value!r}")
        if self.collisions is not None and (not isinstance(self.collisions, int) or self.collisions < 0):
            raise ValueError(f"collisions must be a non-negative integer or None, got {self.collisions!r}")
        if not 0.0 <= self.collision_share <= 1.0:
            raise ValueError(f"collision_share must be within [0, 1], got {self.collision_share!r}")
        if self.dialect not in DIALECTS:
            raise ValueError(f"dialect must be one of {DIALECTS}, got {self.dialect!r}")
        if self.layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {LAYOUTS}, got {self.layout!r}")
        if self.label_style not in LABEL_STYLES:
            raise ValueError(f"label_style must be one of {LABEL_STYLES}, got {self.label_style!r}")
        kinds = tuple(self.collision_kinds)
        if not kinds or any(k not in COLLISION_KINDS for k in kinds):
            raise ValueError(f"collision_kinds must be a non-empty tuple of {COLLISION_KINDS}, got {kinds!r}")
        object.__setattr__(self, "collision_kinds", kinds)
        if self.toolboxes and self.box_depth < 1:
            raise ValueError("box_depth must be at least 1 when there are toolboxes")
        if self.toolboxes and self.fanout > self.agents:
            raise ValueError(f"fanout ({self.fanout}) cannot exceed agents ({self.agents})")
        if self.name_pool and self.name_pool < self.tools_per_agent:
            raise ValueError("name_pool must be 0 or at least tools_per_agent (an agent's names are distinct)")
        if self.agents_as_tools and self.agents < 2:
            raise ValueError("agents_as_tools needs at least two agents")
        if (self.clash_pairs or self.chain_depth) and self.clash_fanout > self.agents:
            raise ValueError(f"clash_fanout ({self.clash_fanout}) cannot exceed agents ({self.agents})")
        if (self.chain_pairs or self.chain_levels) and not self.chain_depth:
            raise ValueError("chain_pairs and chain_levels need a chain (chain_depth of at least 1)")

    @property
    def collision_count(self) -> int:
        """How many collisions are injected."""
        if self.collisions is not None:
            return self.collisions
        if self.collision_share <= 0 or self.agents == 0:
            return 0
        return max(1, round(self.collision_share * self.agents))

    def scaled(self, factor: float) -> Options:
        """The same shape, with every count multiplied by ``factor`` (a count
        that was positive stays at least 1; ``fanout`` stays within ``agents``)."""
        if factor <= 0:
            raise ValueError("factor must be positive")
        changes: Dict[str, Any] = {}
        for name in _SCALED_FIELDS:
            value = getattr(self, name)
            if value:
                changes[name] = max(1, round(value * factor))
        if self.collisions is None and self.collision_count:
            # Keep the number of injected collisions proportional, even where
            # collision_share's "at least one" floor was what produced it.
            changes["collisions"] = max(1, round(self.collision_count * factor))
        scaled = replace(self, **changes)
        if scaled.fanout > scaled.agents:
            scaled = replace(scaled, fanout=scaled.agents)
        if scaled.clash_fanout > scaled.agents:
            scaled = replace(scaled, clash_fanout=scaled.agents)
        return scaled


def _large(dialect: str = "spec", label_style: str = "mixed", noise: bool = True) -> Options:
    # ~1.0M nodes and ~2.0M edges: agents with their own tools, 24k two-box
    # stacks of 24 tools each shared by 20 agents, and the irregular extras.
    return Options(
        agents=40_000,
        tools_per_agent=5,
        toolboxes=24_000,
        box_depth=2,
        tools_per_box=22,
        tools_per_level=2,
        fanout=20,
        box_cycles=1_000,
        diamonds=10_000,
        agents_as_tools=20_000,
        non_tool_edges=640_000,
        orphan_boxes=100,
        collision_share=0.05,
        label_style=label_style,
        noise=noise,
        dialect=dialect,
    )


def _hostile(agents: int, **changes: Any) -> Options:
    # Only the clash box and the chain: no tools of the agents' own, no
    # stacks, no injected collisions; every agent receives both structures.
    base = Options(agents=agents, tools_per_agent=0, toolboxes=0, collisions=0, clash_fanout=agents)
    return replace(base, **changes)


PRESETS: Dict[str, Options] = {
    # Every feature at once, ~1k nodes: the workhorse of the tests.
    "small": Options(
        agents=100,
        tools_per_agent=4,
        toolboxes=30,
        box_depth=2,
        tools_per_box=12,
        tools_per_level=2,
        fanout=4,
        box_cycles=4,
        diamonds=8,
        agents_as_tools=12,
        non_tool_edges=160,
        orphan_boxes=2,
        collision_share=0.15,
        label_style="mixed",
        noise=True,
        dialect="spec",
    ),
    # The shape of `large`, a tenth of its counts (~100k nodes).
    "medium": replace(
        _large(dialect="drupal", label_style="unicode"),
        agents=4_000,
        toolboxes=2_400,
        box_cycles=100,
        diamonds=1_000,
        agents_as_tools=2_000,
        non_tool_edges=64_000,
        orphan_boxes=10,
    ),
    "large": _large(),
    # A chain of 1M boxes with four tools at its far end and one agent; the
    # collision is between a far-end tool and its twin wired into the agent.
    "deep": Options(
        agents=1,
        tools_per_agent=2,
        toolboxes=1,
        box_depth=1_000_000,
        tools_per_box=4,
        tools_per_level=0,
        fanout=1,
        collisions=1,
        collision_kinds=("deep",),
    ),
    # One box of 50k tools shared by all 20k agents, one collision inside it:
    # exactly 20k violations.
    "fanout": Options(
        agents=20_000,
        tools_per_agent=1,
        toolboxes=1,
        box_depth=1,
        tools_per_box=50_000,
        tools_per_level=0,
        fanout=20_000,
        collisions=1,
        collision_kinds=("shared_box",),
    ),
    # 100k agents whose five tools each come from the same eight names: every
    # name is everywhere, yet only 100 agents see a collision.
    "flat-names": Options(
        agents=100_000,
        tools_per_agent=5,
        toolboxes=0,
        name_pool=8,
        collisions=100,
        collision_kinds=("direct",),
    ),
    # Findings far larger than the file (issue "Findings that cost what they
    # say"): nothing but agents, a clash box and/or a chain. One box of 1,000
    # clashing pairs shared by 10,000 agents: 10M violations from ~2 MB.
    "clash-fanout": _hostile(agents=10_000, clash_pairs=1_000),
    # The same shape, a hundredth of the violations: 100k from ~0.2 MB.
    "clash-fanout-small": _hostile(agents=1_000, clash_pairs=100),
    # A chain of 10k boxes with one clashing pair at its far end, its head
    # shared by 20k agents: 20k violations, each with two paths of 10,002 ids.
    "deep-fanout": _hostile(agents=20_000, chain_depth=10_000, chain_pairs=1, dialect="drupal", noise=True),
    # The same with a chain of 100k boxes.
    "deep-fanout-100k": _hostile(agents=20_000, chain_depth=100_000, chain_pairs=1, dialect="drupal", noise=True),
    # Both at once, moderate: 2k agents each get a box of 100 clashing pairs
    # and the head of a 5k-box chain with one pair at its far end and four
    # more along it (105 names, 210k violations).
    "clash-deep": _hostile(
        agents=2_000, clash_pairs=100, chain_depth=5_000, chain_pairs=1, chain_levels=4, dialect="editor", noise=True
    ),
}

