"""Deterministic synthetic FlowDrop workflows, realistic and adversarial.

``generate(out, options, seed=...)`` writes one workflow (a JSON object with
``nodes`` and ``edges``) in any of the three dialects of SEMANTICS section 9
and returns :class:`Expected`: the CMP-9 violations toolwire must report and
the statistics it must count. The expectation is known *by construction*: the
generator decides every collision, it never runs a checker on its output.

How the names stay collision-free by construction
-------------------------------------------------
Every tool gets a *name index* ``i``. Its sanitised name (SEMANTICS section 5)
is a function of ``i`` alone and distinct indices always give distinct names:
``<verb>_<noun>[_<k>]`` (or ``<verb><noun>[_<k>]`` for camel-case labels),
where ``k = i // (verbs * nouns)`` is written out only when non-zero and no
word contains a digit or an underscore, so the name spells ``i`` back. Labels
differ from names only by ASCII case, separator runs, and decorations placed
where a separator already is (so they merge into it): that is the whole of
what sanitising removes, so every label of index ``i`` has the same name.

Non-injected tools get indices that are unique in the whole workflow, except
with ``name_pool`` where the agents' own tools draw from a few shared indices
(distinct within each agent). Agents used as tools get ``<role>_agent[_<k>]``
names, whose first word is never a verb. So the only collisions are the ones
the generator injects, each recorded with every consumer that sees it.

Findings larger than the file
-----------------------------
``clash_pairs``, ``chain_depth``, ``chain_pairs``, ``chain_levels`` and
``clash_fanout`` build workflows whose report dwarfs them (the presets
``clash-fanout``, ``clash-fanout-small``, ``deep-fanout``,
``deep-fanout-100k``, ``clash-deep``): a clash box of pairs labelled ``Tool p``
and ``tool-p`` and a chain of boxes with such pairs at its far end and along
it, both wired into the same ``clash_fanout`` agents. Every one of those
agents sees every pair, so the violations are a product, consumers times
names, and :class:`Expected` keeps them as one (:class:`ViolationGrid`):
ten million expected violations cost a few hundred kilobytes, not gigabytes.

Speed: a 1M-node file takes a few seconds. The graph is regular (agent ``a``
owns tools ``a*T .. a*T+T-1``; stack ``s`` owns a fixed block of boxes and
tools), so nodes and edges are computed arithmetically when written; only the
irregular extras (injected tools, diamonds, cycles, agents as tools) are kept
in lists. Each record is one call of an f-string function compiled once from
a template, over pre-escaped pieces, and records are written in chunks of a
few megabytes; ``json.dumps`` runs once per cached label head or noise
snippet, never per record.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import json
import os
import random
import string
import sys
from dataclasses import dataclass, fields, replace
from typing import IO, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union, overload

from ._progress import Progress

__all__ = ["PRESETS", "Expected", "ExpectedViolations", "Options", "ViolationGrid", "generate", "register", "run"]

DIALECTS = ("spec", "editor", "drupal")
LABEL_STYLES = ("snake", "mixed", "unicode")
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
    """``spec``, ``editor`` or ``drupal`` (SEMANTICS section 9)."""

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


# ---------------------------------------------------------------------------
# The expected verdict
# ---------------------------------------------------------------------------

ExpectedViolation = Tuple[str, str, Tuple[str, ...]]


@dataclass(frozen=True)
class ViolationGrid:
    """Violations at every consumer of ``consumers`` for every name of
    ``names``: a product kept as one, since it can be far larger than the
    workflow (``clash-fanout``: 10,000 consumers times 1,000 names)."""

    consumers: Tuple[str, ...]
    """Consumer ids, sorted."""
    names: Tuple[Tuple[str, Tuple[str, ...]], ...]
    """``(name, sorted tool ids)`` pairs, sorted by name; the tools of a name
    are the same at every consumer."""

    def __len__(self) -> int:
        return len(self.consumers) * len(self.names)

    def __iter__(self) -> Iterator[ExpectedViolation]:
        names = self.names
        for consumer in self.consumers:
            for name, tools in names:
                yield consumer, name, tools

    def __getitem__(self, i: int) -> ExpectedViolation:
        c, k = divmod(i, len(self.names))
        name, tools = self.names[k]
        return self.consumers[c], name, tools

    def to_dict(self) -> Dict[str, Any]:
        return {"consumers": list(self.consumers), "names": [{"name": n, "tools": list(t)} for n, t in self.names]}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> ViolationGrid:
        return cls(tuple(data["consumers"]), tuple((n["name"], tuple(n["tools"])) for n in data["names"]))


class ExpectedViolations(Sequence[ExpectedViolation]):
    """Sorted violations, held compactly: a list of some, plus grids of the
    rest (:class:`ViolationGrid`), merged in order when iterated. It equals
    any sequence with the same items in the same order (a list included), so
    ``found(report) == expected.violations`` works either way; iterating it
    never builds the whole list."""

    __slots__ = ("listed", "grids", "_len")

    def __init__(self, listed: Sequence[ExpectedViolation], grids: Sequence[ViolationGrid]) -> None:
        self.listed = list(listed)
        self.grids = [g for g in grids if len(g)]
        self._len = len(self.listed) + sum(len(g) for g in self.grids)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[ExpectedViolation]:
        parts: List[Iterable[ExpectedViolation]] = list(self.grids)
        if self.listed:
            parts.insert(0, self.listed)
        if len(parts) == 1:
            return iter(parts[0])
        # Keys (consumer, name) are unique across the parts, so the merge
        # never compares tool tuples.
        return heapq.merge(*parts)

    @overload
    def __getitem__(self, i: int) -> ExpectedViolation: ...

    @overload
    def __getitem__(self, i: slice) -> List[ExpectedViolation]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[ExpectedViolation, List[ExpectedViolation]]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("violation index out of range")
        if not self.grids:
            return self.listed[i]
        if not self.listed and len(self.grids) == 1:
            return self.grids[0][i]
        return next(itertools.islice(iter(self), i, None))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ExpectedViolations) and (self.listed, self.grids) == (other.listed, other.grids):
            return True
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)) or len(other) != self._len:
            return False
        return all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<ExpectedViolations: {self._len} ({len(self.listed)} listed, {len(self.grids)} grids)>"


@dataclass(frozen=True)
class Expected:
    """What toolwire must report on the generated workflow."""

    violations: Sequence[ExpectedViolation]
    """CMP-9 only, as ``(consumer id, name, sorted tool ids)``, sorted by
    consumer then name. The generator writes no EDGE-5 violation. A list,
    or, when the workflow has a clash box or chain (``clash_pairs``,
    ``chain_depth``), an :class:`ExpectedViolations`: millions of violations
    are then known without being listed."""
    nodes: int
    """Declared nodes."""
    edges: int
    """All edges."""
    tool_edges: int
    """Edges classified as tool wiring."""
    consumers: int
    """Non-passthrough nodes receiving at least one tool edge."""
    passthroughs: int
    """Declared passthrough nodes."""

    @property
    def violation_count(self) -> int:
        return len(self.violations)

    def stats(self) -> Dict[str, int]:
        """The counts, shaped like ``toolwire.Stats.to_dict()``."""
        return {
            "nodes": self.nodes,
            "edges": self.edges,
            "tool_edges": self.tool_edges,
            "consumers": self.consumers,
            "passthroughs": self.passthroughs,
        }

    def to_dict(self) -> Dict[str, Any]:
        """JSON-ready. ``violations`` lists violations one by one; when there
        are grids, ``violation_grids`` holds the rest (each: every consumer
        of ``consumers`` has a violation for every entry of ``names``), and
        ``violation_count`` is always the total."""
        if isinstance(self.violations, ExpectedViolations):
            listed, grids = self.violations.listed, self.violations.grids
        else:
            listed, grids = list(self.violations), []
        data: Dict[str, Any] = {"violations": [{"consumer": c, "name": n, "tools": list(t)} for c, n, t in listed]}
        if grids:
            data["violation_grids"] = [g.to_dict() for g in grids]
        data["violation_count"] = len(self.violations)
        data["stats"] = self.stats()
        return data

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Expected:
        violations: Sequence[ExpectedViolation] = [(v["consumer"], v["name"], tuple(v["tools"])) for v in data["violations"]]
        grids = [ViolationGrid.from_dict(g) for g in data.get("violation_grids", [])]
        if grids:
            violations = ExpectedViolations(violations, grids)
        return cls(violations=violations, **data["stats"])


# ---------------------------------------------------------------------------
# Names and labels
# ---------------------------------------------------------------------------

# No word contains a digit or an underscore, no verb is a role, and no
# verb+noun concatenation is a verb, a role or another concatenation: that is
# what makes names spell their index back (checked by _check_vocabulary).
VERBS = (
    "get", "fetch", "search", "create", "update", "delete", "list", "send",
    "parse", "summarize", "translate", "classify", "extract", "validate", "render", "schedule",
    "lookup", "convert", "compute", "notify", "upload", "download", "query", "rank",
)  # fmt: skip
NOUNS = (
    "user", "page", "weather", "invoice", "order", "ticket", "email", "calendar",
    "document", "image", "product", "price", "stock", "map", "route", "news",
    "contact", "report", "file", "record", "message", "event", "review", "comment",
    "payment", "account", "task", "note", "recipe", "flight", "hotel", "book",
    "song", "video", "repo", "issue", "lead", "quote", "policy", "asset",
)  # fmt: skip
# Unicode style only: words whose last letter is non-ASCII. Sanitising drops
# it ("Café" -> "caf"), which is safe only at the end of a word, where a
# separator follows anyway.
ACCENT_NOUNS = (
    ("caf", "café"), ("ros", "rosé"), ("souffl", "soufflé"), ("fianc", "fiancé"),
    ("clich", "cliché"), ("canap", "canapé"), ("blas", "blasé"), ("frapp", "frappé"),
    ("saut", "sauté"), ("attach", "attaché"),
)  # fmt: skip
ROLES = (
    "planner", "researcher", "writer", "reviewer", "router", "analyst", "support",
    "concierge", "coder", "critic", "tutor", "scout", "curator", "auditor", "triage",
)  # fmt: skip
# Labels with no ASCII letter or digit at all: each is named `unnamed_tool`.
# The Kelvin sign and Angstrom sign lower-case to ASCII under str.lower().
FOREIGN_LABELS = ("検索", "日本語", "Поиск", "بحث", "🔍🔎", "Ωμέγα", "ウェブ検索", "\u212a\u212b")
UNNAMED_TOOL = "unnamed_tool"

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _sanitise(label: str) -> str:
    """SEMANTICS section 5, for the vocabulary self-check (and the tests):
    expected names are built, never computed from labels."""
    out: List[str] = []
    gap = False
    for ch in label.translate(_ASCII_LOWER):
        if "a" <= ch <= "z" or "0" <= ch <= "9":
            if gap and out:
                out.append("_")
            gap = False
            out.append(ch)
        else:
            gap = True
    return "".join(out) or UNNAMED_TOOL


def _check_vocabulary() -> None:
    """The claims the module docstring's argument rests on (cheap: at import)."""
    residues = [r for r, _ in ACCENT_NOUNS]
    for word in (*VERBS, *NOUNS, *ROLES, *residues, "agent"):
        if not (word.isascii() and word.isalpha() and word.islower()):
            raise AssertionError(f"vocabulary word {word!r} must be lowercase ASCII letters")
    for residue, accented in ACCENT_NOUNS:
        if not accented[:-1].isascii() or accented[-1].isascii() or _sanitise(accented) != residue:
            raise AssertionError(f"{accented!r}: only its last letter may be non-ASCII, and it must sanitise to {residue!r}")
    nouns = [*NOUNS, *residues]
    if len(set(nouns)) != len(nouns) or len(set(VERBS)) != len(VERBS) or len(set(ROLES)) != len(ROLES):
        raise AssertionError("verbs, nouns and roles must be distinct")
    glued = [v + n for v in VERBS for n in nouns]
    if len(set(glued)) != len(glued):
        raise AssertionError("verb+noun concatenations must be distinct")
    # The first word of a name tells its family apart: a verb (tool), a
    # glued verb+noun (camel-case tool), a role (agent), `unnamed`, or `tool`
    # (the clashing pairs of the clash box and the chain, `tool_<p>`).
    families = [set(VERBS), set(glued), set(ROLES), {"unnamed"}, {"tool"}]
    if sum(map(len, families)) != len(set().union(*families)):
        raise AssertionError("verbs, verb+noun concatenations and roles must not overlap")


_check_vocabulary()


@dataclass(frozen=True)
class _Variant:
    """How one label is dressed: ASCII case and separators, decorations that
    merge into separators, accent, and how the JSON string escapes it."""

    case: int  # 0 lower, 1 Title, 2 UPPER, 3 first word Title
    sep: str  # between words; never empty, never alphanumeric
    num_sep: str  # between the last word and the number; same
    prefix: str  # before everything; never alphanumeric
    suffix: str  # after everything; never alphanumeric
    accent: bool  # accent nouns as "café" rather than "caf"
    ascii: bool  # escape non-ASCII as \\uXXXX in JSON

    def esc(self, text: str) -> str:
        return json.dumps(text, ensure_ascii=self.ascii)[1:-1]

    def word(self, word: str, first: bool) -> str:
        if self.case == 1 or (self.case == 3 and first):
            return word[:1].upper() + word[1:]
        if self.case == 2:
            return word.upper()
        return word


_MIXED = {
    "sep": (" ", " ", " ", "-", ".", " - ", "/", ": ", "_", " & ", "\t", " \\ ", " | ", "__", "  ", ", "),
    "num_sep": (" ", " ", " #", " (", "-", "_", " / ", ", ", " \"", "\\"),
    "prefix": ("", "", "", "", '"', "* ", "[", "> ", "'", "@", "\\"),
    "suffix": ("", "", "", "", "!", ")", '"', "?", " ]", "...", " *", "\n"),
}
_UNICODE = {
    # Kelvin sign, dotted capital I, long s, the fi ligature, Arabic-Indic and
    # fullwidth digits, combining marks, zero-width and no-break spaces: all
    # outside ASCII, all dropped by the sanitiser, and all changed by a
    # careless str.lower()/casefold()/NFKC/isalnum() implementation.
    "sep": (" ", " · ", " → ", "、", " — ", "：", "\u00a0", " \u212a ", "\u200b", " ١٢ ", "／", " ß ", "\u3000", " ＿ "),
    "num_sep": (" ", " №", " ＃", "\u00a0", " · ", "-", " \u0130 ", " ３"),
    "prefix": ("", "", "", "🔍 ", "\u0130", "« ", "\u017f ", "ﬁ ", "\u212a"),
    "suffix": ("", "", "", " ✓", " »", "™", " \u212a", "\u0301", " ２", "…"),
}
_VARIANTS_PER_STYLE = 48


def _variants(style: str, rng: random.Random) -> List[_Variant]:
    if style == "snake":
        return [_Variant(0, "_", "_", "", "", False, False)]
    pools = _MIXED if style == "mixed" else _UNICODE
    unicode = style == "unicode"
    return [
        _Variant(
            case=rng.randrange(4),
            sep=rng.choice(pools["sep"]),
            num_sep=rng.choice(pools["num_sep"]),
            prefix=rng.choice(pools["prefix"]),
            suffix=rng.choice(pools["suffix"]),
            # Half with, half without, so the accent-driven twins below
            # always find one of each.
            accent=unicode and k % 2 == 0,
            ascii=unicode and rng.random() < 0.5,
        )
        for k in range(_VARIANTS_PER_STYLE)
    ]


class _Namer:
    """Name indices to canonical names and to JSON-escaped labels.

    A label is ``head + str(k) + tail``: the head (opening quote, prefix, the
    two words, number separator, escaped) depends on the word pair, the shape
    and the variant; the tail (suffix, closing quote) on the variant. A
    regular tool's shape and variant are functions of its index modulo
    ``period`` (eight times the number of word pairs), so its label is one
    cached head, ``k`` and one cached tail: built once per slot, on first
    use, a label then costs a list lookup and an f-string. Twins and other
    extras choose their own variant through :meth:`tool_label`.
    """

    def __init__(self, style: str, rng: random.Random) -> None:
        self.style = style
        # (residue, surface with accent) per noun; ASCII nouns are their own residue.
        self.nouns: List[Tuple[str, str]] = [(n, n) for n in NOUNS]
        if style == "unicode":
            self.nouns += list(ACCENT_NOUNS)
        self.width = len(VERBS) * len(self.nouns)
        self.period = period = self.width * 8
        self.variants = _variants(style, rng)
        nv = len(self.variants)
        self.accented = [k for k, v in enumerate(self.variants) if v.accent]
        self.plain = [k for k, v in enumerate(self.variants) if not v.accent]
        self._vtable = rng.choices(range(nv), k=period)
        # One label in eight is camel case (``GetUser``). The shape is a
        # function of the index, so that every label of an index has one name.
        self._camel = bytes(rng.random() < 0.125 and style != "snake" for _ in range(period))
        self._tails = [v.esc(v.suffix) + '"' for v in self.variants]
        self._nums = [v.esc(v.num_sep) for v in self.variants]
        self._heads: Dict[Tuple[int, int, int], str] = {}
        self._slot_k: List[Optional[str]] = [None] * period  # head ending with the number separator
        self._slot_0: List[Optional[str]] = [None] * period  # head for k == 0
        self._slot_tail: List[Optional[str]] = [None] * period

    def var(self, i: int) -> int:
        """The variant that dresses the regular tool of name index ``i``."""
        return self._vtable[i % self.period]

    def accent_noun(self, i: int) -> bool:
        return (i % self.width) // len(VERBS) >= len(NOUNS)

    def tool_name(self, i: int) -> str:
        k, pair = divmod(i, self.width)
        verb = VERBS[pair % len(VERBS)]
        noun = self.nouns[pair // len(VERBS)][0]
        name = verb + noun if self._camel[i % self.period] else f"{verb}_{noun}"
        return f"{name}_{k}" if k else name

    def _head(self, pair: int, camel: int, var: int) -> str:
        key = (pair, camel, var)
        head = self._heads.get(key)
        if head is None:
            v = self.variants[var]
            residue, accented = self.nouns[pair // len(VERBS)]
            verb = v.word(VERBS[pair % len(VERBS)], True)
            noun = v.word(accented if v.accent else residue, False)
            head = self._heads[key] = '"' + v.esc(v.prefix + verb + ("" if camel else v.sep) + noun)
        return head

    def tool_label(self, i: int, var: int) -> str:
        """The label (a JSON string) of name index ``i`` dressed by ``var``."""
        k, pair = divmod(i, self.width)
        head = self._head(pair, self._camel[i % self.period], var)
        return f"{head}{self._nums[var]}{k}{self._tails[var]}" if k else f"{head}{self._tails[var]}"

    def _fill(self, j: int) -> None:
        var = self._vtable[j]
        head = self._head(j % self.width, self._camel[j], var)
        self._slot_0[j] = head
        self._slot_tail[j] = self._tails[var]
        self._slot_k[j] = head + self._nums[var]

    def tool_labels(self, indices: Iterable[int]) -> List[str]:
        """The labels of regular tools with name ``indices``."""
        width, period = self.width, self.period
        heads, heads_0, tails, fill = self._slot_k, self._slot_0, self._slot_tail, self._fill
        labels: List[str] = []
        append = labels.append
        for i in indices:
            j = i % period
            if heads[j] is None:
                fill(j)
            if i >= width:
                append(f"{heads[j]}{i // width}{tails[j]}")
            else:
                append(f"{heads_0[j]}{tails[j]}")
        return labels

    @staticmethod
    def agent_name(a: int) -> str:
        k, r = divmod(a, len(ROLES))
        return f"{ROLES[r]}_agent_{k}" if k else f"{ROLES[r]}_agent"

    def agent_label(self, a: int) -> str:
        k, r = divmod(a, len(ROLES))
        var = self._vtable[a % self.period]
        key = (-1, r, var)  # pair -1: agents
        head = self._heads.get(key)
        if head is None:
            v = self.variants[var]
            head = self._heads[key] = '"' + v.esc(v.prefix + v.word(ROLES[r], True) + v.sep + v.word("agent", False))
        return f"{head}{self._nums[var]}{k}{self._tails[var]}" if k else f"{head}{self._tails[var]}"


# ---------------------------------------------------------------------------
# Dialects: how nodes and edges are written
# ---------------------------------------------------------------------------

TOOL_TYPES = (
    "http_request", "web_search", "calculator", "sql_query", "code_interpreter", "send_mail",
    "calendar_lookup", "vector_search", "file_reader", "weather_api", "translator", "image_gen",
    "workflow_executor",
)  # fmt: skip
_PASSTHROUGH = {"spec": "toolbox", "editor": "toolbox", "drupal": "flowdrop_node_processor_toolbox"}
_AGENT = {"spec": "ai_agent", "editor": "ai_agent", "drupal": "flowdrop_node_processor_reason"}
# Id prefixes. The spec's examples write `tool_a`, `box_1`; the editor's
# `t.1`, `box.1`; Drupal exports `<node type>.<n>`.
_ID_SEP = {"spec": "_", "editor": ".", "drupal": "."}

# Records pick their noise from seeded tables of this many entries, indexed
# by a multiplicative hash of the record number: one lookup per record.
_TABLE = 256


def _noise_snippets() -> Dict[str, List[str]]:
    """Pre-escaped ``config`` payloads the check must skip, per node kind. Some
    hide look-alikes of the fields the check reads (nested ``nodes``/``edges``,
    ``type: toolbox``, ``edgeType``, ``-input-tool`` handles, labels) and every
    JSON escape, so a scanner that is not strict about nesting fails."""

    def ports(outputs: Sequence[str], inputs: Sequence[str]) -> Dict[str, Any]:
        return {
            "outputs": [{"id": p, "exposed": p == "tool"} for p in outputs],
            "inputs": [{"id": p} for p in inputs],
        }

    tool_configs: List[Dict[str, Any]] = [
        {"url": "", "method": "GET", "timeout": 30, "ports": ports(["body", "tool"], ["url"])},
        {"query": "", "top_k": 5, "threshold": 0.75},
        {"maxRetries": 0, "requiresConfirmation": "waive"},
        {"expression": "a * (b + 1)", "precision": -0.0, "scale": 1e300, "big": 12345678901234567890},
        {"nested": {"id": "decoy", "type": "toolbox", "data": {"label": "Web Search", "edgeType": "tool_availability"}}},
        {"targetHandle": "agent.1-input-tool", "edges": [], "nodes": [{"id": "x"}]},
        {"prompt": 'He said "hi" \\ then left.\n\tTab, é, 😀, \u2028, \x00.'},
        {"headers": {}, "empty": [], "deep": [[[[[[{"a": [None, True, False]}]]]]]]},
    ]
    agent_configs: List[Dict[str, Any]] = [
        {"model": "claude-haiku-4-5", "temperature": 0, "maxTokens": 200000},
        {"systemPrompt": "You are a careful agent.\nUse the tools; cite \"sources\" \\ never guess. ✓"},
        {"subworkflow": {"nodes": [{"id": "ghost", "type": "toolbox", "data": {"label": "Get User"}}],
                         "edges": [{"source": "ghost", "target": "x", "data": {"edgeType": "tool_availability"}}]}},
        {"loop": {"max_iterations": 8, "stop_on": ["final_answer", "error"]}},
    ]  # fmt: skip
    box_configs: List[Dict[str, Any]] = [{"mode": "all"}, {"tools": [], "expose": True}]

    def dump(objs: Sequence[Dict[str, Any]], ascii: bool) -> List[str]:
        return [',"config":' + json.dumps(o, ensure_ascii=ascii, separators=(",", ":")) for o in objs]

    return {
        "tool": dump(tool_configs, False) + dump(tool_configs, True),
        "agent": dump(agent_configs, False) + dump(agent_configs, True),
        "box": dump(box_configs, False),
        "other": [',"config":{"nodeType":"default"}'],
    }


_EDGE_NOISE = (
    ',"style":"stroke: var(--fd-edge-tool); stroke-dasharray: 5 3;","markerEnd":{"type":"arrowclosed","width":16}',
    ',"class":"flowdrop--edge--data"',
    ',"animated":false,"selected":false',
)


def _compile(template: str, params: str) -> Callable[..., str]:
    """Turns a ``str.format`` template over ``{0}``, ``{1}``... into a
    function of ``params`` built on an f-string. ``str.format`` parses its
    template on every call, which is most of the cost of a record; an
    f-string is parsed once. (The same technique as ``dataclasses``: source
    generated from our own constant templates, never from input.)"""
    names = params.split(", ")
    pieces = []
    for literal, field, _, _ in string.Formatter().parse(template):
        pieces.append(_braces(literal))
        if field is not None:
            pieces.append("{" + names[int(field)] + "}")
    function: Callable[..., str] = eval(f"lambda {params}: f{''.join(pieces)!r}")
    return function


def _braces(text: str) -> str:
    """``text`` made literal inside a ``str.format`` template."""
    return text.replace("{", "{{").replace("}", "}}")


def _node_template(dialect: str, swapped: bool) -> str:
    """A node record as a ``str.format`` template over (id, type, label JSON,
    config noise, position noise), for :func:`_compile`."""
    if dialect == "spec":
        head, data = '"id":"{0}","type":"{1}"', '"data":{{"label":{2}{3}}}'
    elif dialect == "editor":
        head, data = '"id":"{0}","type":"universalNode"', '"data":{{"label":{2},"metadata":{{"id":"{1}"}}{3}}}'
    else:
        head, data = '"id":"{0}"', '"data":{{"label":{2}{3},"metadata":{{"node_type_id":"{1}"}}}}'
    if swapped:  # key order must not matter
        return "{{" + data + "{4}," + head + "}}"
    return "{{" + head + "{4}," + data + "}}"


def _edge_template(eid: str, handles: Optional[Tuple[str, str]], data: str, swapped: bool) -> str:
    """An edge record as a template over (number, source, target, noise), for
    :func:`_compile`. Handles repeat the endpoints, as every editor export does."""
    h = f',"sourceHandle":"{{1}}-output-{handles[0]}","targetHandle":"{{2}}-input-{handles[1]}"' if handles else ""
    d = _braces(data)
    if swapped:
        return '{{"data":' + d + ',"target":"{2}","source":"{1}"' + h + ',"id":"' + eid + '{0}"{3}}}'
    return '{{"id":"' + eid + '{0}","source":"{1}","target":"{2}"' + h + ',"data":' + d + "{3}}}"


Renderer = Callable[..., str]
NodeEntry = Tuple[Renderer, str, str]  # (render, config noise, position noise)
EdgeEntry = Tuple[Renderer, str]  # (render, noise)


class _Format:
    """How one dialect writes ids, nodes and edges, with or without noise.

    ``nodes[kind]`` and ``edges[form]`` are tables of ``_TABLE`` entries;
    record ``n`` uses entry ``(n * 40503) & mask`` (the writers inline it).
    Edge forms: ``tool`` (tool wiring, in the dialect's usual
    way and its variants), ``data``, ``trigger`` and ``output`` (non-tool),
    ``decoy-handle`` (a tool-looking handle that is not ``-input-tool``:
    ``-input-tools``, ``-input-tool_calls``...) and ``decoy-declared`` (a
    recognised non-tool ``edgeType`` on a ``-input-tool`` handle)."""

    def __init__(self, dialect: str, noise: bool, rng: random.Random) -> None:
        self.dialect = dialect
        self.noise = noise
        self.box_type = _PASSTHROUGH[dialect]
        self.agent_type = _AGENT[dialect]
        sep = _ID_SEP[dialect]
        if dialect == "drupal":
            self.tool_prefix = [t + sep for t in TOOL_TYPES]
            self.agent_prefix, self.box_prefix = self.agent_type + sep, self.box_type + sep
        else:
            self.tool_prefix = ["tool" + sep] * len(TOOL_TYPES)
            self.agent_prefix, self.box_prefix = "agent" + sep, "box" + sep
        self.sep = sep
        self.nodes = self._node_tables(rng)
        self.edges = self._edge_tables(rng)
        self.mask = _TABLE - 1

    def tool_id(self, n: int) -> str:
        return f"{self.tool_prefix[n % len(TOOL_TYPES)]}{n}"

    def agent_id(self, a: int) -> str:
        return f"{self.agent_prefix}{a}"

    def box_id(self, b: int) -> str:
        return f"{self.box_prefix}{b}"

    def data_id(self, kind: str, k: int) -> str:
        return f"{kind}{self.sep}{k}"

    def _node_tables(self, rng: random.Random) -> Dict[str, List[NodeEntry]]:
        plain = _compile(_node_template(self.dialect, False), "nid, ntype, label, config, where")
        if not self.noise:
            return {kind: [(plain, "", "")] * _TABLE for kind in ("agent", "tool", "box", "other")}
        swapped = _compile(_node_template(self.dialect, True), "nid, ntype, label, config, where")
        tables: Dict[str, List[NodeEntry]] = {}
        for kind, configs in _noise_snippets().items():
            table: List[NodeEntry] = []
            for _ in range(_TABLE):
                # Light on average (about 60 bytes a node), as large exports
                # are: everyone has a position, some have a size or a config.
                where = f',"position":{{"x":{rng.randrange(-2000, 2000)},"y":{rng.randrange(-1500, 1500)}}}'
                if rng.random() < 0.2:
                    where += f',"measured":{{"width":280,"height":{rng.randrange(200, 400)}}}'
                config = rng.choice(configs) if rng.random() < 0.2 else ""
                table.append((swapped if rng.random() < 0.2 else plain, config, where))
            tables[kind] = table
        return tables

    def _edge_tables(self, rng: random.Random) -> Dict[str, List[EdgeEntry]]:
        spec, noise = self.dialect == "spec", self.noise
        eid = "xy-edge__" if self.dialect == "drupal" else "e"
        tool_handles = ("tool", "tool")

        def styled(tag: str) -> str:
            return f'{{"metadata":{{"edgeType":"{tag}"}}}}'

        compiled: Dict[str, Renderer] = {}
        tables: Dict[str, List[EdgeEntry]] = {}
        for form in ("tool", "data", "trigger", "output", "decoy-handle", "decoy-declared"):
            table: List[EdgeEntry] = []
            for _ in range(_TABLE):
                r = rng.random()
                handles: Optional[Tuple[str, str]] = tool_handles
                if form == "tool":
                    if spec:
                        data = '{"edgeType":"tool_availability"}'
                        handles = tool_handles if noise and r < 0.5 else None
                    elif self.dialect == "editor" and r < 1 / 16:
                        # The declaration wins over a handle that is not a tool handle (EDGE-5 rule 1).
                        handles = ("tool", "tools")
                        data = '{"edgeType":"tool_availability","metadata":{"edgeType":"tool"}}'
                    else:
                        # Real exports sometimes style a tool edge as data: the styling tag is never read.
                        data = styled("data" if r > 15 / 16 else "tool")
                elif form in ("data", "trigger", "output"):
                    tag = "trigger" if form == "trigger" else "data"
                    handles = (tag, "trigger" if form == "trigger" else "prompt")
                    data = f'{{"edgeType":"{tag}"}}' if spec else styled(tag)
                    if spec and not noise:
                        handles = None
                elif form == "decoy-handle":
                    handles = ("tool", rng.choice(("tools", "tool_calls", "tool-2", "toolbox", "tool ", "TOOL")))
                    data = styled("tool")
                else:
                    decl = rng.choice(("data", "trigger", "loopback", "error"))
                    data = f'{{"edgeType":"{decl}","metadata":{{"edgeType":"tool"}}}}'
                swapped = noise and rng.random() < 0.2
                extra = rng.choice(_EDGE_NOISE) if noise and rng.random() < 0.15 else ""
                template = _edge_template(eid, handles, data, swapped)
                if template not in compiled:
                    compiled[template] = _compile(template, "k, src, dst, extra")
                table.append((compiled[template], extra))
            tables[form] = table
        return tables



# ---------------------------------------------------------------------------
# The plan: the regular graph, plus the irregular extras, decided up front
# ---------------------------------------------------------------------------


_NON_TOOL_FORMS = ("data", "data", "data", "data", "trigger", "output", "decoy-handle", "decoy-declared")


class _Plan:
    """Everything decided from the options and the seed, before any writing.

    Tool numbers (``n``, in node ids) run: agents' tools ``[0, A*T)``, then
    stack tools ``[A*T, A*T + S*per_stack)`` (stack ``s``'s block holds its
    level tools first, level by level, then its innermost tools), then extras,
    then the look-alikes of decoy edges. Box numbers run: stack boxes
    ``s*D + level`` (level 0 is the top, wired into agents), then mirrors and
    orphans. Agent ``a`` and tool ``n`` have unique ids whatever the dialect.
    """

    def __init__(self, options: Options, seed: int) -> None:
        o = self.o = options
        rng = self.rng = random.Random(seed)
        self.namer = _Namer(o.label_style, rng)
        self.fmt = _Format(o.dialect, o.noise, rng)

        A, T, S, D = o.agents, o.tools_per_agent, o.toolboxes, o.box_depth
        self.level_tools = o.tools_per_level if D > 1 else 0
        self.per_stack = self.level_tools * (D - 1) + o.tools_per_box
        self.stack_base = A * T
        self.n_struct = self.stack_base + S * self.per_stack
        self.stack_start = [rng.randrange(A) for _ in range(S)] if A and o.fanout else [0] * S
        self.pool_start = [rng.randrange(o.name_pool) for _ in range(A)] if o.name_pool else []
        self.edges_first = o.noise and rng.random() < 0.5

        # Extras: (node id, type, label JSON, n) and tool edges (src, dst).
        self.extra_tools: List[Tuple[str, str, str, int]] = []
        self.extra_boxes: List[Tuple[str, str, int]] = []
        self.extra_edges: List[Tuple[str, str]] = []
        # The hostile structures (clash box, chain) come right after the
        # stacks: their boxes are numbered from S*D (the clash box first, then
        # the chain from its head), pair p's two tools are n_struct + 2p and
        # n_struct + 2p + 1. Pairs run: clash box, chain far end, chain levels.
        self.pairs = o.clash_pairs + o.chain_pairs + o.chain_levels
        self.clash_box = S * D if o.clash_pairs else -1
        self.chain_base = S * D + (1 if o.clash_pairs else 0)
        self.hostile_boxes = (1 if o.clash_pairs else 0) + o.chain_depth
        self.hostile_receivers: List[int] = []
        self.next_tool = self.n_struct + 2 * self.pairs
        self.next_box = S * D + self.hostile_boxes
        # Indices for fresh colliding pairs, above every index any tool uses.
        # (Extras reuse the index of the tool they copy; only these are new.)
        self._fresh = o.name_pool + self.n_struct
        # (consumer id, name) -> ids of the tools of that name it sees.
        self.found: Dict[Tuple[str, str], Set[str]] = {}
        # Agents receiving a tool edge: with tools of their own, all of them.
        self.consumer_agents = bytearray(b"\x01" * A if T else A)
        if not T:
            for s in range(S):
                for a in self.receivers(s):
                    self.consumer_agents[a] = 1

        self._inject_collisions()
        self._orphans()
        self._cycles()
        self._diamonds()
        self._agents_as_tools()
        self.look_base = self.next_tool
        # Drawn last, and only when asked for: every other preset's bytes stay
        # what they were before the hostile structures existed.
        if self.hostile_boxes and o.clash_fanout:
            start = rng.randrange(A)
            self.hostile_receivers = [(start + j) % A for j in range(o.clash_fanout)]
            for a in self.hostile_receivers:
                self.consumer_agents[a] = 1

    # -- the regular part, computed on demand -------------------------------

    def other_var(self, var: int, accent: Optional[bool] = None) -> int:
        """A variant other than ``var`` (when there is one), with or without
        the accent when asked: twins should look different."""
        namer = self.namer
        if accent is None:
            candidates = list(range(len(namer.variants)))
        else:
            candidates = namer.accented if accent else namer.plain
        return self.rng.choice([v for v in candidates if v != var] or candidates)

    def direct_index(self, a: int, j: int) -> int:
        o = self.o
        if o.name_pool:
            return (self.pool_start[a] + j) % o.name_pool
        return a * o.tools_per_agent + j

    def stack_index(self, n: int) -> int:
        return self.o.name_pool + n

    def receivers(self, s: int) -> List[int]:
        A, start = self.o.agents, self.stack_start[s]
        return [(start + j) % A for j in range(self.o.fanout)]

    def stack_tool(self, s: int, t: int) -> int:
        return self.stack_base + s * self.per_stack + t

    def box_of_tool(self, t: int) -> int:
        """Level of the box holding stack tool ``t`` (innermost: D - 1)."""
        if t < self.level_tools * (self.o.box_depth - 1):
            return t // self.level_tools
        return self.o.box_depth - 1

    # -- the hostile structures: clash box and chain --------------------------

    def pair_box(self, p: int) -> int:
        """Number of the box pair ``p``'s two tools are wired into."""
        o = self.o
        if p < o.clash_pairs:
            return self.clash_box
        p -= o.clash_pairs
        if p < o.chain_pairs:
            return self.chain_base + o.chain_depth - 1  # the far end
        level = p - o.chain_pairs
        return self.chain_base + (level + 1) * o.chain_depth // (o.chain_levels + 1)

    def hostile_heads(self) -> List[int]:
        """Numbers of the boxes wired into the hostile receivers."""
        heads = [self.clash_box] if self.o.clash_pairs else []
        if self.o.chain_depth:
            heads.append(self.chain_base)
        return heads

    def grid(self) -> Optional[ViolationGrid]:
        """The hostile violations: every receiver sees every pair's name."""
        if not (self.pairs and self.hostile_receivers):
            return None
        tool_id, base = self.fmt.tool_id, self.n_struct
        names = sorted(
            (f"tool_{p}", tuple(sorted((tool_id(base + 2 * p), tool_id(base + 2 * p + 1))))) for p in range(self.pairs)
        )
        consumers = sorted(self.fmt.agent_id(a) for a in self.hostile_receivers)
        return ViolationGrid(tuple(consumers), tuple(names))

    def violations(self) -> Sequence[ExpectedViolation]:
        """Every expected CMP-9 violation, decided without writing a byte."""
        listed = sorted((c, n, tuple(sorted(ids))) for (c, n), ids in self.found.items())
        grid = self.grid()
        return ExpectedViolations(listed, [grid]) if grid else listed

    # -- the extras ----------------------------------------------------------

    def _new_tool(self, label: str, target: str) -> str:
        """A tool with ``label`` (JSON) wired into ``target``; returns its id."""
        n = self.next_tool
        self.next_tool += 1
        nid = self.fmt.tool_id(n)
        self.extra_tools.append((nid, TOOL_TYPES[n % len(TOOL_TYPES)], label, n))
        self.extra_edges.append((nid, target))
        return nid

    def _twin(self, index: int, target: str, accent: Optional[bool] = None) -> str:
        """Another tool of name ``index``, dressed unlike the regular one."""
        var = self.other_var(self.namer.var(index), accent)
        return self._new_tool(self.namer.tool_label(index, var), target)

    def _new_box(self, label: str) -> str:
        b = self.next_box
        self.next_box += 1
        bid = self.fmt.box_id(b)
        self.extra_boxes.append((bid, label, b))
        return bid

    def _fresh_index(self, accent: bool = False) -> int:
        while accent and not self.namer.accent_noun(self._fresh):
            self._fresh += 1
        index = self._fresh
        self._fresh += 1
        return index

    def _record(self, consumers: Sequence[int], name: str, tool_ids: Sequence[str]) -> None:
        for a in consumers:
            self.found.setdefault((self.fmt.agent_id(a), name), set()).update(tool_ids)

    def _fresh_pair(self, target: str, other_target: Optional[str] = None) -> Tuple[str, List[str]]:
        """Two tools of a new name, into ``target`` (and ``other_target``)."""
        index = self._fresh_index()
        first = self._new_tool(self.namer.tool_label(index, self.namer.var(index)), target)
        second = self._twin(index, other_target or target)
        return self.namer.tool_name(index), [first, second]

    def _inject_collisions(self) -> None:
        o, rng = self.o, self.rng
        if not o.agents:
            return
        for c in range(o.collision_count):
            kind = o.collision_kinds[c % len(o.collision_kinds)]
            if kind != "direct" and not (o.toolboxes and (kind == "shared_box" or o.fanout)):
                kind = "direct"
            if kind == "direct":
                self._inject_direct(c, rng.randrange(o.agents))
            elif kind == "shared_box":
                self._inject_shared_box(rng.randrange(o.toolboxes))
            else:
                self._inject_deep(rng.randrange(o.toolboxes))

    def _inject_direct(self, c: int, a: int) -> None:
        o, rng, namer = self.o, self.rng, self.namer
        agent = self.fmt.agent_id(a)
        self.consumer_agents[a] = 1
        flavour = c // len(o.collision_kinds) % 3 if o.label_style == "unicode" else 0
        if flavour == 1:
            # No ASCII letter or digit at all: both are `unnamed_tool`.
            first, second = rng.sample(FOREIGN_LABELS, 2)
            ids = [
                self._new_tool(json.dumps(first, ensure_ascii=rng.random() < 0.5), agent),
                self._new_tool(json.dumps(second, ensure_ascii=rng.random() < 0.5), agent),
            ]
            self._record([a], UNNAMED_TOOL, ids)
            return
        if flavour == 2:
            # "Café" and "caf": the accent is dropped, the names meet.
            index = self._fresh_index(accent=True)
            ids = [self._twin(index, agent, accent=True), self._twin(index, agent, accent=False)]
            self._record([a], namer.tool_name(index), ids)
            return
        if not o.tools_per_agent:
            name, ids = self._fresh_pair(agent)
            self._record([a], name, ids)
            return
        j = rng.randrange(o.tools_per_agent)
        n = a * o.tools_per_agent + j
        index = self.direct_index(a, j)
        ids = [self.fmt.tool_id(n)]
        for _ in range(2 if rng.random() < 0.25 else 1):  # sometimes three of a name
            ids.append(self._twin(index, agent))
        self._record([a], namer.tool_name(index), ids)

    def _inject_shared_box(self, s: int) -> None:
        o, rng = self.o, self.rng
        top = self.fmt.box_id(s * o.box_depth)
        top_tools = self.level_tools if o.box_depth > 1 else o.tools_per_box
        if top_tools:
            n = self.stack_tool(s, rng.randrange(top_tools))
            index = self.stack_index(n)
            twin = self._twin(index, top)
            name, ids = self.namer.tool_name(index), [self.fmt.tool_id(n), twin]
        else:
            name, ids = self._fresh_pair(top)
        self._record(self.receivers(s), name, ids)

    def _inject_deep(self, s: int) -> None:
        o, rng = self.o, self.rng
        a = self.receivers(s)[rng.randrange(o.fanout)]
        agent = self.fmt.agent_id(a)
        if o.tools_per_box:
            t = self.level_tools * (o.box_depth - 1) + rng.randrange(o.tools_per_box)
            n = self.stack_tool(s, t)
            index = self.stack_index(n)
            twin = self._twin(index, agent)
            name, ids = self.namer.tool_name(index), [self.fmt.tool_id(n), twin]
        else:
            innermost = self.fmt.box_id(s * o.box_depth + o.box_depth - 1)
            name, ids = self._fresh_pair(innermost, agent)
        self._record([a], name, ids)

    def _orphans(self) -> None:
        # A collision inside a box that reaches no consumer is no violation.
        for _ in range(self.o.orphan_boxes):
            index = self._fresh_index()
            box = self._new_box(self.namer.tool_label(index, 0))
            self._new_tool(self.namer.tool_label(index, self.namer.var(index)), box)
            self._twin(index, box)

    def _cycles(self) -> None:
        o, rng = self.o, self.rng
        if not o.toolboxes:
            return
        for _ in range(o.box_cycles):
            s = rng.randrange(o.toolboxes)
            top = self.fmt.box_id(s * o.box_depth)
            if o.box_depth > 1:
                # Back edge: the top box forwards into the far end, which
                # already forwards (through the chain) into the top.
                self.extra_edges.append((top, self.fmt.box_id(s * o.box_depth + o.box_depth - 1)))
            else:
                mirror = self._new_box('"Loop Box"')
                self.extra_edges.append((top, mirror))
                self.extra_edges.append((mirror, top))

    def _diamonds(self) -> None:
        # A far-end tool gets a second route to the agents it already
        # reaches: into its stack's top box, or straight into one of them.
        o, rng = self.o, self.rng
        if not (o.toolboxes and o.tools_per_box):
            return
        for k in range(o.diamonds):
            s = rng.randrange(o.toolboxes)
            t = self.level_tools * (o.box_depth - 1) + rng.randrange(o.tools_per_box)
            tool = self.fmt.tool_id(self.stack_tool(s, t))
            if o.box_depth > 1 and (k % 2 == 0 or not o.fanout):
                self.extra_edges.append((tool, self.fmt.box_id(s * o.box_depth)))
            elif o.fanout:
                self.extra_edges.append((tool, self.fmt.agent_id(self.receivers(s)[rng.randrange(o.fanout)])))

    def _agents_as_tools(self) -> None:
        o, rng = self.o, self.rng
        shadowed = set()
        for _ in range(o.agents_as_tools):
            x = rng.randrange(o.agents)
            b = rng.randrange(o.agents - 1)
            b += b >= x
            self.extra_edges.append((self.fmt.agent_id(x), self.fmt.agent_id(b)))
            self.consumer_agents[b] = 1
            if not o.name_pool and o.tools_per_agent and (x, b) not in shadowed:
                # b gets a tool named like x's first tool. x is a leaf for b,
                # so x's tools never reach b: no collision, unless a checker
                # wrongly forwards them.
                shadowed.add((x, b))
                self._twin(self.direct_index(x, 0), self.fmt.agent_id(b))

    # -- non-tool edges ------------------------------------------------------

    def io_nodes(self) -> int:
        return max(1, self.o.non_tool_edges // 64) if self.o.non_tool_edges else 0

    def non_tool(self, e: int) -> Tuple[str, int]:
        """The form of non-tool edge ``e`` and its agent: half data edges
        between agents, a trigger, an output, and two decoys in every eight."""
        if not self.o.agents:
            return "io", -1
        a = ((e * 2654435761) >> 7) % self.o.agents
        return _NON_TOOL_FORMS[e & 7], a

    def decoys(self) -> Iterator[Tuple[int, int]]:
        """``(edge number, agent)`` of every decoy, in order."""
        if not self.o.agents:
            return
        for e in range(self.o.non_tool_edges):
            if e & 7 >= 6:
                yield e, ((e * 2654435761) >> 7) % self.o.agents

    def records(self) -> int:
        """Nodes plus edges that will be written, counted without writing
        them (the total of ``toolwire generate``'s progress bar)."""
        o = self.o
        A, T, S, D = o.agents, o.tools_per_agent, o.toolboxes, o.box_depth
        full, rest = divmod(o.non_tool_edges, 8)
        decoys = (2 * full + max(0, rest - 6)) if A else 0  # as decoys() yields them
        nodes = A + S * D + self.hostile_boxes + len(self.extra_boxes) + self.look_base + decoys + 2 * self.io_nodes()
        edges = A * T + S * (self.per_stack + D - 1 + o.fanout) + len(self.extra_edges) + o.non_tool_edges
        edges += 2 * self.pairs + max(0, o.chain_depth - 1) + len(self.hostile_heads()) * len(self.hostile_receivers)
        return nodes + edges

    def look_alike(self, a: int, m: int) -> int:
        """Name index of the look-alike that sends decoy ``m`` to agent ``a``:
        one of a's own tool names, so a checker that takes the decoy for tool
        wiring reports a collision that is not there."""
        if self.o.tools_per_agent:
            return self.direct_index(a, m % self.o.tools_per_agent)
        return self._fresh + m


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

_CHUNK_RECORDS = 16384  # ~2-4 MB per write


class _ArrayWriter:
    """Writes one JSON array of records in large chunks, one record a line."""

    def __init__(self, write: Callable[[bytes], Any], advance: Optional[Callable[[int], None]] = None) -> None:
        self._write = write
        self._advance = advance
        self.parts: List[str] = []
        self._first = True
        self.count = 0

    def flush(self) -> None:
        if self.parts:
            text = ",\n".join(self.parts)
            self._write((text if self._first else ",\n" + text).encode())
            self._first = False
            self.count += len(self.parts)
            if self._advance is not None:
                self._advance(len(self.parts))  # once per chunk: nothing per record
            self.parts = []

    def flush_if_full(self) -> None:
        if len(self.parts) >= _CHUNK_RECORDS:
            self.flush()


def _write_nodes(plan: _Plan, out: _ArrayWriter) -> int:
    # The hot loops inline the id and noise lookups and make labels a batch
    # at a time: a method call per record would cost as much as formatting it.
    o, fmt, namer = plan.o, plan.fmt, plan.namer
    A, T, S, D = o.agents, o.tools_per_agent, o.toolboxes, o.box_depth
    tool_labels = namer.tool_labels
    tp, types, ntypes = fmt.tool_prefix, TOOL_TYPES, len(TOOL_TYPES)
    tools, mask = fmt.nodes["tool"], fmt.mask
    pool = o.name_pool
    parts = out.parts
    agents, agent_prefix, agent_type = fmt.nodes["agent"], fmt.agent_prefix, fmt.agent_type
    for a in range(A):
        render, config, where = agents[(a * 40503) & mask]
        parts.append(render(f"{agent_prefix}{a}", agent_type, namer.agent_label(a), config, where))
        numbers = range(a * T, a * T + T)
        indices = [plan.direct_index(a, j) for j in range(T)] if pool else numbers
        for n, label in zip(numbers, tool_labels(indices)):
            render, config, where = tools[(n * 40503) & mask]
            tt = n % ntypes
            parts.append(render(f"{tp[tt]}{n}", types[tt], label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    boxes, box_prefix, box_type = fmt.nodes["box"], fmt.box_prefix, fmt.box_type
    for s in range(S):
        first = plan.stack_tool(s, 0)
        for b in range(s * D, s * D + D):
            render, config, where = boxes[(b * 40503) & mask]
            # A box's own label never counts: some boxes borrow the label of
            # a tool they forward, a trap for a checker that counts it.
            if b % 3 == 0 and plan.per_stack:
                label = namer.tool_label(pool + first, namer.var(b * 7919))
            else:
                label = '"Tool Box"'
            parts.append(render(f"{box_prefix}{b}", box_type, label, config, where))
            if len(parts) >= _CHUNK_RECORDS:
                out.flush()
                parts = out.parts
        numbers = range(first, first + plan.per_stack)
        for n, label in zip(numbers, tool_labels(range(pool + first, pool + first + plan.per_stack))):
            render, config, where = tools[(n * 40503) & mask]
            tt = n % ntypes
            parts.append(render(f"{tp[tt]}{n}", types[tt], label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for b in range(S * D, S * D + plan.hostile_boxes):
        render, config, where = boxes[(b * 40503) & mask]
        label = '"Clash Box"' if b == plan.clash_box else '"Tool Box"'
        parts.append(render(f"{box_prefix}{b}", box_type, label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for p in range(plan.pairs):
        # "Tool 7" and "tool-7": both named tool_7 (a family of names of its
        # own: "tool" is no verb, no role and no verb+noun).
        n = plan.n_struct + 2 * p
        render, config, where = tools[(n * 40503) & mask]
        tt = n % ntypes
        parts.append(render(f"{tp[tt]}{n}", types[tt], f'"Tool {p}"', config, where))
        n += 1
        render, config, where = tools[(n * 40503) & mask]
        tt = n % ntypes
        parts.append(render(f"{tp[tt]}{n}", types[tt], f'"tool-{p}"', config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for bid, label, b in plan.extra_boxes:
        render, config, where = boxes[(b * 40503) & mask]
        parts.append(render(bid, box_type, label, config, where))
    for nid, ntype, label, n in plan.extra_tools:
        render, config, where = tools[(n * 40503) & mask]
        parts.append(render(nid, ntype, label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    decoys = list(plan.decoys())
    numbers = range(plan.look_base, plan.look_base + len(decoys))
    look_alikes = [plan.look_alike(a, m) for m, (_, a) in enumerate(decoys)]
    for n, label in zip(numbers, tool_labels(look_alikes)):
        render, config, where = tools[(n * 40503) & mask]
        tt = n % ntypes
        parts.append(render(f"{tp[tt]}{n}", types[tt], label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    others = fmt.nodes["other"]
    for k in range(plan.io_nodes()):
        render, config, where = others[(k * 40503) & mask]
        parts.append(render(fmt.data_id("chat_input", k), "chat_input", '"Chat Input"', config, where))
        parts.append(render(fmt.data_id("text_output", k), "text_output", '"Text Output"', config, where))
    out.flush()
    return out.count


def _write_edges(plan: _Plan, out: _ArrayWriter) -> Tuple[int, int]:
    """Writes every edge; returns (edges, tool edges)."""
    o, fmt = plan.o, plan.fmt
    A, T, S, D = o.agents, o.tools_per_agent, o.toolboxes, o.box_depth
    tp, ntypes, mask = fmt.tool_prefix, len(TOOL_TYPES), fmt.mask
    tools = fmt.edges["tool"]
    agent_prefix, box_prefix = fmt.agent_prefix, fmt.box_prefix
    parts = out.parts
    k = 0
    for a in range(A):
        agent = f"{agent_prefix}{a}"
        for n in range(a * T, a * T + T):
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, f"{tp[n % ntypes]}{n}", agent, extra))
            k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for s in range(S):
        boxes = [f"{box_prefix}{b}" for b in range(s * D, s * D + D)]
        first = plan.stack_tool(s, 0)
        for t in range(plan.per_stack):
            n = first + t
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, f"{tp[n % ntypes]}{n}", boxes[plan.box_of_tool(t)], extra))
            k += 1
        for level in range(1, D):
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, boxes[level], boxes[level - 1], extra))
            k += 1
            if len(parts) >= _CHUNK_RECORDS:
                out.flush()
                parts = out.parts
        top = boxes[0]
        for a in plan.receivers(s):
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, top, f"{agent_prefix}{a}", extra))
            k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for p in range(plan.pairs):
        box = f"{box_prefix}{plan.pair_box(p)}"
        for n in (plan.n_struct + 2 * p, plan.n_struct + 2 * p + 1):
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, f"{tp[n % ntypes]}{n}", box, extra))
            k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for b in range(plan.chain_base + 1, plan.chain_base + o.chain_depth):
        render, extra = tools[(k * 40503) & mask]
        parts.append(render(k, f"{box_prefix}{b}", f"{box_prefix}{b - 1}", extra))
        k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    receivers = [f"{agent_prefix}{a}" for a in plan.hostile_receivers]
    for head in plan.hostile_heads():
        box = f"{box_prefix}{head}"
        for agent in receivers:
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, box, agent, extra))
            k += 1
            if len(parts) >= _CHUNK_RECORDS:
                out.flush()
                parts = out.parts
    for src, dst in plan.extra_edges:
        render, extra = tools[(k * 40503) & mask]
        parts.append(render(k, src, dst, extra))
        k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    tool_edges = k
    io = plan.io_nodes()
    edges = fmt.edges
    m = 0
    for e in range(o.non_tool_edges):
        form, a = plan.non_tool(e)
        c = e % io
        if form == "io":
            src, dst, form = fmt.data_id("chat_input", c), fmt.data_id("text_output", c), "data"
        elif form == "data":
            src, dst = f"{agent_prefix}{a}", f"{agent_prefix}{(a + 1) % A}"
        elif form == "trigger":
            src, dst = fmt.data_id("chat_input", c), f"{agent_prefix}{a}"
        elif form == "output":
            src, dst = f"{agent_prefix}{a}", fmt.data_id("text_output", c)
        else:
            src, dst = fmt.tool_id(plan.look_base + m), f"{agent_prefix}{a}"
            m += 1
        render, extra = edges[form][(k * 40503) & mask]
        parts.append(render(k, src, dst, extra))
        k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    out.flush()
    return out.count, tool_edges


_HEADER = (
    '{"id":"generated","label":"Generated workflow","uuid":"00000000-0000-4000-8000-000000000000",'
    '"status":true,"dependencies":{"config":["flowdrop_node_type.flowdrop_node_type.toolbox"]},\n'
)
_FOOTER = ',\n"metadata":{"generator":"toolwire.generate","nodes":"ignored","edges":{"x":[1,2]}}'


def _write(plan: _Plan, write: Callable[[bytes], Any], advance: Optional[Callable[[int], None]] = None) -> Expected:
    noise = plan.o.noise
    write(_HEADER.encode() if noise else b"{")
    counts: Dict[str, Any] = {}
    sections = ("edges", "nodes") if plan.edges_first else ("nodes", "edges")
    for i, section in enumerate(sections):
        write(f'{"," if i else ""}\n"{section}":[\n'.encode())
        array = _ArrayWriter(write, advance)
        if section == "nodes":
            counts["nodes"] = _write_nodes(plan, array)
        else:
            counts["edges"], counts["tool_edges"] = _write_edges(plan, array)
        write(b"\n]")
    write((_FOOTER if noise else "").encode() + b"}\n")
    o = plan.o
    return Expected(
        violations=plan.violations(),
        nodes=counts["nodes"],
        edges=counts["edges"],
        tool_edges=counts["tool_edges"],
        consumers=sum(plan.consumer_agents),
        passthroughs=o.toolboxes * o.box_depth + plan.hostile_boxes + len(plan.extra_boxes),
    )


def generate(
    out: Union[str, "os.PathLike[str]", IO[bytes]],
    options: Union[Options, str] = "small",
    *,
    seed: int = 0,
) -> Expected:
    """Writes a workflow to ``out`` (a path, or a binary file object) and
    returns what toolwire must report on it. ``options`` is an
    :class:`Options` or the name of a preset. Same options and seed, same bytes."""
    if isinstance(options, str):
        if options not in PRESETS:
            raise ValueError(f"unknown preset {options!r}; known: {', '.join(PRESETS)}")
        options = PRESETS[options]
    return _generate(out, _Plan(options, seed))


def _generate(
    out: Union[str, "os.PathLike[str]", IO[bytes]], plan: _Plan, advance: Optional[Callable[[int], None]] = None
) -> Expected:
    """:func:`generate` from a plan, calling ``advance(records)`` after each chunk written."""
    if isinstance(out, (str, os.PathLike)):
        with open(out, "wb", buffering=1 << 22) as f:
            return _write(plan, f.write, advance)
    return _write(plan, out.write, advance)


# ---------------------------------------------------------------------------
# Command line: `toolwire generate`
# ---------------------------------------------------------------------------


def _kinds(text: str) -> Tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    bad = [k for k in kinds if k not in COLLISION_KINDS]
    if bad or not kinds:
        raise argparse.ArgumentTypeError(f"collision kinds are a comma-separated list of {', '.join(COLLISION_KINDS)}")
    return kinds


# What each option does, for ``toolwire generate --help`` (the attribute
# docstrings of Options, shortened; a test checks that every field has one).
OPTION_HELP: Dict[str, str] = {
    "agents": "agents, the consumers",
    "tools_per_agent": "tools wired straight into each agent",
    "toolboxes": "toolbox stacks (chains of --box-depth boxes); each stack's top box is wired into --fanout agents",
    "box_depth": "boxes per stack, each wired into the one above it",
    "tools_per_box": "tools in the innermost box of each stack",
    "tools_per_level": "tools in each other box of a stack",
    "fanout": "agents sharing each stack",
    "box_cycles": "tool-edge cycles among boxes",
    "diamonds": "second routes for a stack's tool to the agents it already reaches",
    "agents_as_tools": "tool edges from an agent into another agent",
    "non_tool_edges": "data and trigger edges, a quarter of them decoys that look like tool wiring",
    "orphan_boxes": "boxes holding two same-named tools that reach no consumer (no violation)",
    "collision_share": "share of agents at which a collision is injected (unless --collisions is given)",
    "collisions": "exact number of injected collisions; overrides --collision-share",
    "collision_kinds": "kinds of injected collisions, used in turn: comma-separated " + ", ".join(COLLISION_KINDS),
    "name_pool": "0: every tool name is unique; N: the agents' own tools draw their names from N shared ones",
    "clash_pairs": "pairs of tools labelled 'Tool p' and 'tool-p' in one clash box wired into the --clash-fanout "
    "agents: pairs x agents violations",
    "chain_depth": "a chain of this many boxes whose head is wired into the --clash-fanout agents",
    "chain_pairs": "clashing pairs wired into the chain's far end (their paths run the whole chain)",
    "chain_levels": "further clashing pairs, one into each of this many boxes spread along the chain",
    "clash_fanout": "agents receiving the clash box and the chain head",
    "label_style": "how labels are written: snake, mixed (case, punctuation, escapes) or unicode (characters "
    "that names drop)",
    "noise": "realistic payload the check must skip (positions, config, styling, look-alike keys)",
    "dialect": "which export form: spec, editor or drupal (SEMANTICS section 9)",
}

# One line per preset, for the end of ``toolwire generate --help``.
PRESET_HELP: Dict[str, str] = {
    "small": "every feature at once, ~1k nodes (the tests' workhorse)",
    "medium": "the shape of large at a tenth of its counts (~100k nodes), drupal dialect, unicode labels",
    "large": "~1M nodes and ~2M edges, ~480 MB",
    "deep": "one chain of 1M toolboxes, one agent, one violation",
    "fanout": "one toolbox of 50k tools shared by 20k agents: 20k violations",
    "flat-names": "100k agents whose tools share eight names: 100 violations",
    "clash-fanout": "a clash box of 1,000 pairs shared by 10k agents: 10M violations from ~2 MB",
    "clash-fanout-small": "a clash box of 100 pairs shared by 1,000 agents: 100k violations from ~0.2 MB",
    "deep-fanout": "a chain of 10k boxes, one pair at its far end, its head shared by 20k agents: 20k violations, "
    "~15 MB",
    "deep-fanout-100k": "the same with a chain of 100k boxes, ~59 MB",
    "clash-deep": "2k agents each get a clash box of 100 pairs and a 5k-box chain with five pairs: 210k violations",
}


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)


def _option_help(name: str) -> str:
    """What option ``name`` does, then its value in ``small`` and in every
    preset where it differs; the most common value other than small's says
    ``others`` rather than listing its presets."""
    by_value: Dict[str, List[str]] = {}
    for preset in ("small", *(p for p in PRESETS if p != "small")):
        by_value.setdefault(_shown(getattr(PRESETS[preset], name)), []).append(preset)
    groups = list(by_value.items())
    largest = max(range(len(groups)), key=lambda k: len(groups[k][1]))
    shown = []
    for k, (value, presets) in enumerate(groups):
        if k == largest and len(presets) > 3:
            who = "small and others" if k == 0 else "others"
        else:
            who = ", ".join(presets)
        shown.append(f"{value} ({who})")
    return f"{OPTION_HELP[name]} (default: {'; '.join(shown)})".replace("%", "%%")


def register(subparsers: Any) -> None:
    """Adds the ``generate`` subcommand to an argparse subparsers object."""
    width = max(map(len, PRESETS))
    parser = subparsers.add_parser(
        "generate",
        help="write a synthetic workflow",
        description="Write a deterministic synthetic FlowDrop workflow: a preset, adjusted by the options\n"
        "(each of which takes the preset's value unless given).",
        epilog="presets:\n" + "\n".join(f"  {name:<{width}}  {PRESET_HELP[name]}" for name in PRESETS),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("output", metavar="OUTPUT", help="the file to write ('-' for standard output)")
    parser.add_argument(
        "--preset", choices=sorted(PRESETS), default="small", help="starting point (default: small; listed below)"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    parser.add_argument("--scale", type=float, default=None, help="multiply every count of the preset by this factor")
    parser.add_argument("--expect", metavar="FILE", help="also write the expected verdict as JSON to FILE")
    for f in fields(Options):
        flag = "--" + f.name.replace("_", "-")
        doc = _option_help(f.name)
        if f.name == "collision_kinds":
            parser.add_argument(flag, type=_kinds, default=None, metavar="KINDS", help=doc)
        elif f.name == "dialect":
            parser.add_argument(flag, choices=DIALECTS, default=None, help=doc)
        elif f.name == "label_style":
            parser.add_argument(flag, choices=LABEL_STYLES, default=None, help=doc)
        elif f.name == "noise":
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=None, help=doc)
        elif f.name == "collision_share":
            parser.add_argument(flag, type=float, default=None, metavar="F", help=doc)
        else:
            parser.add_argument(flag, type=int, default=None, metavar="N", help=doc)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """The ``generate`` subcommand: exit 0 on success, 2 on bad options."""
    options = PRESETS[args.preset]
    try:
        if args.scale is not None:
            options = options.scaled(args.scale)
        changes = {f.name: getattr(args, f.name) for f in fields(Options) if getattr(args, f.name) is not None}
        if "collision_share" in changes and "collisions" not in changes:
            changes["collisions"] = None  # a share asked for beats the preset's exact count
        options = replace(options, **changes)
    except ValueError as e:
        sys.stderr.write(f"toolwire generate: error: {e}\n")
        return 2
    plan = _Plan(options, args.seed)
    # On standard error, and only on a terminal: the workflow may be going to
    # standard output, and logs should not fill up with redraws.
    with Progress(plan.records(), "generating", unit="nodes and edges") as bar:
        if args.output == "-":
            expected = _generate(sys.stdout.buffer, plan, bar.advance)
            sys.stdout.buffer.flush()
        else:
            expected = _generate(args.output, plan, bar.advance)
    if args.expect:
        with open(args.expect, "w", encoding="utf-8") as f:
            json.dump(expected.to_dict(), f, ensure_ascii=False, indent=1)
            f.write("\n")
    count = len(expected.violations)
    sys.stderr.write(
        f"{args.output}: {expected.nodes} nodes, {expected.edges} edges ({expected.tool_edges} tool edges), "
        f"{count} expected violation{'' if count == 1 else 's'}\n"
    )
    return 0
