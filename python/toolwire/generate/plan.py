"""The plan: the regular graph, plus the irregular extras (injected
collisions, cycles, diamonds, agents as tools, the hostile structures),
decided from the options and the seed before a byte is written."""

from __future__ import annotations

import json
import random
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

from .dialects import TOOL_TYPES, Dialect
from .expected import ExpectedViolation, ExpectedViolations, ViolationGrid
from .names import FOREIGN_LABELS, UNNAMED_TOOL, Namer
from .options import Options

_NON_TOOL_FORMS = ("data", "data", "data", "data", "trigger", "output", "decoy-handle", "decoy-declared")


class Plan:
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
        self.namer = Namer(o.label_style, rng)
        self.fmt = Dialect(o.dialect, o.noise, rng)

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

