"""The worst-case families of issue "Every shape costs what its file costs".

Each family is a small, regular workflow on which a check that walks every
consumer's flattened set, or words every finding, costs far more than the
file: a function of one size parameter ``n`` returning the workflow's JSON
bytes and what toolwire must report on it (:class:`FamilyExpected`), worked
out from the construction, never by running a checker.

Every family is written in the spec's own dialect (docs/SEMANTICS.md section 9):
tools ``"type": "tool"`` with their label in ``data.label``, toolboxes
``"type": "toolbox"``, agents ``"type": "agent"``, every edge a tool edge
declared by ``"data": {"edgeType": "tool_availability"}``. Only tools carry
a label: a box's label never counts and an agent's is never read, so
leaving them out keeps the file about the wiring. One record a line, no
other whitespace.

Ids are a letter and a number zero-padded to the width of the largest one,
so code-point order (the report's order, docs/SEMANTICS.md section 6) is numeric
order, and each family's first violation is easy to state. Clashing pairs
are labelled ``"Tool X"`` and ``"tool-x"`` (both named ``tool_x``), with
zero-padded numbers in the labels where there are many pairs, so that name
order is numeric order too.

What is counted (:class:`FamilyExpected`):

- ``violations``: CMP-9 violations, one per (consumer, name);
- ``clashes``: distinct clashes, a name and the set of tools sharing it at
  some consumer, counted once however many consumers see it (in the new
  core, the number of ``Report.clash_groups()``);
- ``first``: the first violation in report order, as ``(consumer id, name,
  tool ids sorted)``;
- the statistics ``toolwire.Stats`` counts.

Family 8 of the issue is not a workflow but a measurement of family 2 (the
report formats on it): :data:`FORMAT_MEASUREMENT`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Tuple

from .expected import ExpectedViolation, stats_of

__all__ = [
    "FAMILIES",
    "FORMAT_MEASUREMENT",
    "Family",
    "FamilyExpected",
    "FormatMeasurement",
    "Generated",
]


@dataclass(frozen=True)
class FamilyExpected:
    """What toolwire must report on a family's workflow, from its construction."""

    violations: int
    """CMP-9 violations: one per (consumer, name)."""
    clashes: int
    """Distinct clashes: a name and the set of tools that share it at some
    consumer, however many consumers see it."""
    first: ExpectedViolation
    """The first violation in report order: ``(consumer id, name, tool ids)``,
    the tool ids sorted."""
    nodes: int
    edges: int
    tool_edges: int
    consumers: int
    passthroughs: int

    def stats(self) -> Dict[str, int]:
        """The counts, shaped like ``toolwire.Stats.to_dict()``."""
        return stats_of(self)

    def to_dict(self) -> Dict[str, Any]:
        consumer, name, tools = self.first
        return {
            "violation_count": self.violations,
            "clash_count": self.clashes,
            "first": {"consumer": consumer, "name": name, "tools": list(tools)},
            "stats": self.stats(),
        }

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> FamilyExpected:
        first = data["first"]
        return cls(
            violations=data["violation_count"],
            clashes=data["clash_count"],
            first=(first["consumer"], first["name"], tuple(first["tools"])),
            **data["stats"],
        )


class Generated(NamedTuple):
    """A family's workflow at one size, with what toolwire must report on it."""

    data: bytes
    expected: FamilyExpected


@dataclass(frozen=True)
class Family:
    """One family of the issue: ``build(n)`` makes its workflow at size ``n``."""

    name: str
    number: int
    """The family's number in the issue's table."""
    description: str
    """One line: the construction, in terms of ``n``."""
    sizes: Tuple[int, ...]
    """The sizes the issue gives (two for some families), the first being
    "the size given"."""
    small: int
    """A size at which the workflow checks in milliseconds: the benchmarks'
    smoke pass."""
    minimum: int
    """The smallest ``n`` at which the family has a violation."""
    construction: Callable[[int], Generated]

    @property
    def size(self) -> int:
        """The size the issue gives (its first, where it gives two)."""
        return self.sizes[0]

    def build(self, n: int) -> Generated:
        """The workflow at size ``n``, with its expectation."""
        if not isinstance(n, int) or isinstance(n, bool) or n < self.minimum:
            raise ValueError(f"family {self.name} needs a whole size of at least {self.minimum}, not {n!r}")
        return self.construction(n)


# -- writing -------------------------------------------------------------------

# Every id and label written here is made of ASCII letters, digits, spaces,
# dots and hyphens, so records are formatted without JSON escaping.
_EDGE_TAIL = '","data":{"edgeType":"tool_availability"}}'


def _tool(node: str, label: str) -> str:
    return f'{{"id":"{node}","type":"tool","data":{{"label":"{label}"}}}}'


def _box(node: str) -> str:
    return f'{{"id":"{node}","type":"toolbox"}}'


def _agent(node: str) -> str:
    return f'{{"id":"{node}","type":"agent"}}'


def _edge(source: str, target: str) -> str:
    return f'{{"source":"{source}","target":"{target}{_EDGE_TAIL}'


def _document(nodes: Iterable[str], edges: Iterable[str]) -> bytes:
    # One join per array: the records are built by comprehensions over
    # f-strings, which is what makes a 10 MB file take a fraction of a second.
    return ('{"nodes":[\n' + ",\n".join(nodes) + '\n],\n"edges":[\n' + ",\n".join(edges) + "\n]}\n").encode()


def _width(count: int) -> int:
    """Digits of the largest of ``count`` numbers from 0: the zero-padded width."""
    return len(str(max(count - 1, 0)))


def _expected(
    violations: int, clashes: int, first: ExpectedViolation, nodes: int, edges: int, consumers: int, passthroughs: int
) -> FamilyExpected:
    # Every edge a family writes is a tool edge.
    return FamilyExpected(violations, clashes, first, nodes, edges, edges, consumers, passthroughs)


# -- the families ----------------------------------------------------------------


def private_roots_chain(n: int) -> Generated:
    """Family 1: boxes ``c0..c{n-1}`` chained ``c{i+1} -> c{i}``; tools ``t0``
    "Tool X" and ``t1`` "tool-x" wired into ``c{n-1}``; ``n`` agents ``a{k}``,
    each behind a private box ``o{k}``: ``c0 -> o{k} -> a{k}``. Every agent
    sees the pair down the whole chain: ``n`` violations, one clash."""
    w = _width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    agents = [f"a{k:0{w}}" for k in range(n)]
    private = [f"o{k:0{w}}" for k in range(n)]
    nodes = [_tool("t0", "Tool X"), _tool("t1", "tool-x")]
    nodes += [_box(c) for c in chain]
    nodes += [_box(o) for o in private]
    nodes += [_agent(a) for a in agents]
    edges = [_edge("t0", chain[-1]), _edge("t1", chain[-1])]
    edges += [_edge(chain[i + 1], chain[i]) for i in range(n - 1)]
    edges += [_edge(chain[0], o) for o in private]
    edges += [_edge(o, a) for o, a in zip(private, agents)]
    expected = _expected(n, 1, (agents[0], "tool_x", ("t0", "t1")), 3 * n + 2, 3 * n + 1, n, 2 * n)
    return Generated(_document(nodes, edges), expected)


def _private_agents(n: int, root: str, nodes: List[str], edges: List[str]) -> str:
    """``n`` agents ``a{k}``, each behind a private box ``o{k}`` fed by box
    ``root``: ``root -> o{k} -> a{k}``. Returns the first agent's id."""
    w = _width(n)
    agents = [f"a{k:0{w}}" for k in range(n)]
    private = [f"o{k:0{w}}" for k in range(n)]
    nodes += [_box(o) for o in private]
    nodes += [_agent(a) for a in agents]
    edges += [_edge(root, o) for o in private]
    edges += [_edge(o, a) for o, a in zip(private, agents)]
    return agents[0]


def private_roots_box(n: int) -> Generated:
    """Family 2: box ``x`` holds ``n // 2`` clashing pairs (tools ``t{p}a``
    "Tool p" and ``t{p}b`` "tool-p", both named ``tool_p``); ``n`` agents,
    each behind a private box fed by ``x``. Every agent sees every pair:
    ``n * (n // 2)`` violations, ``n // 2`` clashes."""
    pairs = n // 2
    w = _width(pairs)
    nodes: List[str] = []
    edges: List[str] = []
    for p in range(pairs):
        nodes += [_tool(f"t{p:0{w}}a", f"Tool {p:0{w}}"), _tool(f"t{p:0{w}}b", f"tool-{p:0{w}}")]
        edges += [_edge(f"t{p:0{w}}a", "x"), _edge(f"t{p:0{w}}b", "x")]
    nodes.append(_box("x"))
    first = _private_agents(n, "x", nodes, edges)
    zero = f"{0:0{w}}"
    expected = _expected(
        n * pairs, pairs, (first, f"tool_{zero}", (f"t{zero}a", f"t{zero}b")), 2 * pairs + 1 + 2 * n, 2 * pairs + 2 * n,
        n, 1 + n,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def private_roots_few(n: int) -> Generated:
    """Family 3: box ``x`` holds ``n`` tools ``t{i}`` of distinct names
    ("Tool i"), each with a same-named twin ``u{i}`` ("tool-i") in box ``y``
    that reaches no consumer, and one clashing pair ``p0`` "Clash", ``p1``
    "clash"; ``n`` agents, each behind a private box fed by ``x``. Every
    agent sees the one pair: ``n`` violations, one clash."""
    w = _width(n)
    nodes = [_tool(f"t{i:0{w}}", f"Tool {i:0{w}}") for i in range(n)]
    nodes += [_tool(f"u{i:0{w}}", f"tool-{i:0{w}}") for i in range(n)]
    nodes += [_tool("p0", "Clash"), _tool("p1", "clash"), _box("x"), _box("y")]
    edges = [_edge(f"t{i:0{w}}", "x") for i in range(n)]
    edges += [_edge(f"u{i:0{w}}", "y") for i in range(n)]
    edges += [_edge("p0", "x"), _edge("p1", "x")]
    first = _private_agents(n, "x", nodes, edges)
    expected = _expected(n, 1, (first, "clash", ("p0", "p1")), 4 * n + 4, 4 * n + 2, n, 2 + n)
    return Generated(_document(nodes, edges), expected)


SUBSET = 5
"""Family 4: boxes per agent."""
SUBSET_BOXES = 20
"""Family 4: boxes, at least (more only when ``n`` exceeds C(20, 5))."""
SUBSET_AGENTS_PER_PAIR = 31
"""Family 4: agents per clashing pair of each box (the issue's 15,504 agents
and 500 pairs a box: 15,504 // 31 = 500)."""


def subset_boxes(n: int) -> int:
    """Family 4's box count at size ``n``: 20, or the fewest whose 5-subsets
    number at least ``n``."""
    boxes = SUBSET_BOXES
    while math.comb(boxes, SUBSET) < n:
        boxes += 1
    return boxes


def distinct_subsets(n: int) -> Generated:
    """Family 4: 20 boxes ``b{j}``, each of ``n // 31`` clashing pairs
    ("Tool j p", "tool-j-p": names distinct across boxes); ``n`` agents, the
    k-th wired to the k-th 5-box subset in lexicographic order (n = 15,504
    is all C(20, 5)). No two agents see the same boxes; each sees five boxes
    of pairs: ``5 * n * (n // 31)`` violations; a box's pairs are clashes
    once some agent sees it, which the first ``n`` subsets do for
    ``min(20, n + 4)`` boxes."""
    return _subsets(n, interleaved=False)


def subsets_interleaved(n: int) -> Generated:
    """Family 10: family 4 with each pair's label naming the pair before the
    box ("Tool p j", "tool-p-j"): the same wiring, the same ids, the same
    counts, but in name order the boxes' pairs interleave, so every word of
    tokens holds pairs of every box.

    Each agent joins a different 5-subset of boxes, so each agent's set
    differs from every other's in every word: its unions make a new trie
    leaf per word (sets.rs), and counting the consumers down the tries to
    their leaves (build.rs, ``push_down`` and the count of each leaf's
    clashes) looks at every clash of every agent's own leaves: one probe per
    violation, ``5 * n * (n // 31)``, from a file of ``n`` agents."""
    return _subsets(n, interleaved=True)


def _subsets(n: int, interleaved: bool, shared: bool = False) -> Generated:
    boxes = subset_boxes(n)
    pairs = max(1, n // SUBSET_AGENTS_PER_PAIR)
    wb, wp, wa = _width(boxes), _width(pairs), _width(n)
    box_ids = [f"b{j:0{wb}}" for j in range(boxes)]
    nodes = [_box(b) for b in box_ids]
    edges = []
    for j in range(boxes):
        for p in range(pairs):
            one, two = f"t{j:0{wb}}-{p:0{wp}}a", f"t{j:0{wb}}-{p:0{wp}}b"
            if interleaved:
                labels = f"Tool {p:0{wp}} {j:0{wb}}", f"tool-{p:0{wp}}-{j:0{wb}}"
            else:
                labels = f"Tool {j:0{wb}} {p:0{wp}}", f"tool-{j:0{wb}}-{p:0{wp}}"
            nodes += [_tool(one, labels[0]), _tool(two, labels[1])]
            edges += [_edge(one, box_ids[j]), _edge(two, box_ids[j])]
    if shared:
        nodes += [_tool(f"s{j:0{wb}}", "Shared") for j in range(boxes)]
        edges += [_edge(f"s{j:0{wb}}", b) for j, b in enumerate(box_ids)]
    agents = [f"a{k:0{wa}}" for k in range(n)]
    nodes += [_agent(a) for a in agents]
    for agent, subset in zip(agents, itertools.combinations(box_ids, SUBSET)):
        edges += [_edge(b, agent) for b in subset]
    # Lexicographic order starts (0,1,2,3,4), (0,1,2,3,5), ..., (0,1,2,3,B-1):
    # the first n subsets touch boxes 0..n+3, every box once n >= B - 4.
    used = min(boxes, n + SUBSET - 1)
    zb, zp = f"{0:0{wb}}", f"{0:0{wp}}"
    # The first agent sees boxes 0..4; its first name is pair 0 of box 0
    # either way round.
    name = f"tool_{zp}_{zb}" if interleaved else f"tool_{zb}_{zp}"
    first: Tuple[str, str, Tuple[str, ...]] = (agents[0], name, (f"t{zb}-{zp}a", f"t{zb}-{zp}b"))
    if shared:
        # Each agent's first name is "shared": its five boxes' tools of it.
        first = (agents[0], "shared", tuple(f"s{j:0{wb}}" for j in range(SUBSET)))
    # With "Shared": a tool and an edge more per box, a clash more per agent.
    tools, clashes = (boxes, n) if shared else (0, 0)
    expected = _expected(
        SUBSET * n * pairs + clashes, used * pairs + clashes, first, boxes + 2 * boxes * pairs + n + tools,
        2 * boxes * pairs + SUBSET * n + tools, n, boxes,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def hub_pair(n: int) -> Generated:
    """Family 5: tools ``t0`` "Tool X" and ``t1`` "tool-x", each wired into
    ``n`` boxes ``b{j}``; ``b{j} -> p{j} -> a{j}`` (a private box, one
    deeper). ``n`` violations, one clash."""
    w = _width(n)
    boxes = [f"b{j:0{w}}" for j in range(n)]
    private = [f"p{j:0{w}}" for j in range(n)]
    agents = [f"a{j:0{w}}" for j in range(n)]
    nodes = [_tool("t0", "Tool X"), _tool("t1", "tool-x")]
    nodes += [_box(b) for b in boxes]
    nodes += [_box(p) for p in private]
    nodes += [_agent(a) for a in agents]
    edges = [_edge("t0", b) for b in boxes]
    edges += [_edge("t1", b) for b in boxes]
    edges += [_edge(b, p) for b, p in zip(boxes, private)]
    edges += [_edge(p, a) for p, a in zip(private, agents)]
    expected = _expected(n, 1, (agents[0], "tool_x", ("t0", "t1")), 3 * n + 2, 4 * n, n, 2 * n)
    return Generated(_document(nodes, edges), expected)


LONG_PREFIX = ("long-tool-id-" * 7)[:80]
"""Family 6: the prefix every tool id shares, 80 characters: longer than the
64 a suggested label may name, so renames built from ids cannot tell the
tools apart and must be numbered."""


def long_ids(n: int) -> Generated:
    """Family 6: one agent ``agent``; ``n`` tools wired straight into it, all
    labelled "X", ids ``LONG_PREFIX + i``. One violation of ``n`` tools,
    one clash."""
    w = _width(n)
    tools = [f"{LONG_PREFIX}{i:0{w}}" for i in range(n)]
    nodes = [_agent("agent")] + [_tool(t, "X") for t in tools]
    edges = [_edge(t, "agent") for t in tools]
    expected = _expected(1, 1, ("agent", "x", tuple(tools)), n + 1, n, 1, 0)
    return Generated(_document(nodes, edges), expected)


def many_small_boxes(n: int) -> Generated:
    """Family 7: ``n`` boxes ``b{s}``, each holding one uniquely named tool
    ``t{s}`` ("Tool s"); box ``b0`` also holds a clashing pair ``p0``
    "Clash", ``p1`` "clash"; every box wired into one agent ``agent``. One
    violation, one clash."""
    w = _width(n)
    boxes = [f"b{s:0{w}}" for s in range(n)]
    nodes = [_agent("agent"), _tool("p0", "Clash"), _tool("p1", "clash")]
    nodes += [_box(b) for b in boxes]
    nodes += [_tool(f"t{s:0{w}}", f"Tool {s:0{w}}") for s in range(n)]
    edges = [_edge("p0", boxes[0]), _edge("p1", boxes[0])]
    edges += [_edge(f"t{s:0{w}}", b) for s, b in enumerate(boxes)]
    edges += [_edge(b, "agent") for b in boxes]
    expected = _expected(1, 1, ("agent", "clash", ("p0", "p1")), 2 * n + 3, 2 * n + 2, 1, n)
    return Generated(_document(nodes, edges), expected)


# -- families found since the rewrite (issue numbers 9 on; 8 is the formats') --------


def roaming_ring(n: int) -> Generated:
    """Family 9: ``n`` boxes ``b{i}``, all wired into one agent ``agent``; box
    ``b{i}`` holds ``p{i}`` "Tool i" and ``q{i}`` "tool-(i+1 mod n)", so each
    name ``tool_i`` has one tool in each of two neighbouring boxes, and every
    name clashes only at the agent. ``n`` violations, ``n`` clashes (each
    pair ``p{i}``, ``q{i-1}``).

    Every name is *roaming* (its two leaves enter at two classes that
    forward), so each clash forms fresh at the agent's class, which has
    ``n`` inputs; ``collisions`` (build.rs) then asks, for each of the ``n``
    fresh clashes, whether any of the ``n`` inputs already held it: ``n * (n
    + 1)`` set lookups for a file of ``n`` boxes."""
    w = _width(n)
    boxes = [f"b{i:0{w}}" for i in range(n)]
    nodes = [_agent("agent")] + [_box(b) for b in boxes]
    edges = []
    for i in range(n):
        s, t = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        nodes += [_tool(f"p{s}", f"Tool {s}"), _tool(f"q{s}", f"tool-{t}")]
        edges += [_edge(f"p{s}", boxes[i]), _edge(f"q{s}", boxes[i])]
    edges += [_edge(b, "agent") for b in boxes]
    zero, last = f"{0:0{w}}", f"{n - 1:0{w}}"
    expected = _expected(n, n, ("agent", f"tool_{zero}", (f"p{zero}", f"q{last}")), 3 * n + 1, 3 * n, 1, n)
    return Generated(_document(nodes, edges), expected)


def giant_chain(n: int) -> Generated:
    """Family 11: boxes ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``, ``c{n-1}``
    wired into one agent ``agent``; tool ``t{i}``, labelled "X", wired into
    ``c{i}``. One violation of ``n`` tools, one clash.

    Name ``x`` enters at ``n`` classes that forward: a *giant* of ``n``
    groups (tokens.rs), whose every set holds a dense bitset of ``n / 64``
    words. Each box is a class with its own content (one bit, ``n / 64``
    words, made in ``Layout::of``) and a new union with the chain above it
    (``Words::union`` for a giant word, then ``content``): ``n * n / 32``
    words made, each content kept twice (``Contents::items`` and the
    ``ids`` map's key), from a file of ``n`` boxes."""
    w = _width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    tools = [f"t{i:0{w}}" for i in range(n)]
    nodes = [_agent("agent")] + [_box(c) for c in chain] + [_tool(t, "X") for t in tools]
    edges = [_edge(t, c) for t, c in zip(tools, chain)]
    edges += [_edge(chain[i], chain[i + 1]) for i in range(n - 1)]
    edges.append(_edge(chain[-1], "agent"))
    expected = _expected(1, 1, ("agent", "x", tuple(tools)), 2 * n + 1, 2 * n, 1, n)
    return Generated(_document(nodes, edges), expected)


def deep_roots(n: int) -> Generated:
    """Family 12: boxes ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``; ``n``
    agents ``a{g}``, each fed by ``c{n-1}``; tool ``s{g}`` "Tool g" wired into
    ``c0`` and its twin ``u{g}`` "tool-g" straight into ``a{g}``. Every agent
    sees every ``s``, but only ``a{g}`` sees two tools named ``tool_g``:
    ``n`` violations, ``n`` clashes, one per agent.

    Each agent has a leaf of its own, so each is a path root (paths.rs), and
    ``s{g}``'s path to it climbs the whole chain: the root's tree is grown
    breadth first over all ``n`` boxes, for each of the ``n`` roots, once
    when the check chooses renames (read.rs ``settle_renames`` reads every
    clash's first violation) and again when the clashes are read."""
    w = _width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    agents = [f"a{g:0{w}}" for g in range(n)]
    nodes = [_box(c) for c in chain] + [_agent(a) for a in agents]
    nodes += [_tool(f"s{g:0{w}}", f"Tool {g:0{w}}") for g in range(n)]
    nodes += [_tool(f"u{g:0{w}}", f"tool-{g:0{w}}") for g in range(n)]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(n - 1)]
    edges += [_edge(chain[-1], a) for a in agents]
    edges += [_edge(f"s{g:0{w}}", chain[0]) for g in range(n)]
    edges += [_edge(f"u{g:0{w}}", a) for g, a in enumerate(agents)]
    zero = f"{0:0{w}}"
    expected = _expected(n, n, (agents[0], f"tool_{zero}", (f"s{zero}", f"u{zero}")), 4 * n, 4 * n - 1, n, n)
    return Generated(_document(nodes, edges), expected)


def chain_of_pairs(n: int) -> Generated:
    """Family 13: boxes ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``, ``c{n-1}``
    wired into one agent ``agent``; ``n`` clashing pairs (``p{g}`` "Tool g",
    ``q{g}`` "tool-g") wired into ``c0``. ``n`` violations, ``n`` clashes,
    every path ``n + 2`` nodes long.

    Choosing renames (read.rs ``settle_renames``, during the check) asks for
    each clash whether the renamed tool's box is on the kept tool's path,
    and answers by reading the kept tool's whole path (``path_nodes``), one
    ancestor lookup per node (paths.rs ``Paths::nodes``): ``n`` paths of
    ``n`` nodes, ``n * n * log n`` steps, from a file of ``n`` boxes and
    ``n`` pairs."""
    w = _width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    nodes = [_agent("agent")] + [_box(c) for c in chain]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(n - 1)] + [_edge(chain[-1], "agent")]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_tool(f"p{s}", f"Tool {s}"), _tool(f"q{s}", f"tool-{s}")]
        edges += [_edge(f"p{s}", chain[0]), _edge(f"q{s}", chain[0])]
    zero = f"{0:0{w}}"
    expected = _expected(n, n, ("agent", f"tool_{zero}", (f"p{zero}", f"q{zero}")), 3 * n + 1, 3 * n, 1, n)
    return Generated(_document(nodes, edges), expected)


def one_box_wide(n: int) -> Generated:
    """Family 14: ``n`` tools ``t{i}``, all labelled "X", wired into one box
    ``box``, wired into one agent ``agent``. One violation of ``n`` tools,
    one clash: the check is cheap.

    Reading it is not: reading any part of one tool's path
    (``CoreReport.tool_path``, src/python/mod.rs) looks the violation up
    again and builds every one of its tools' paths (read.rs
    ``Collision::tools``) to keep one, so reading each tool's path costs
    the number of tools: ``n * n`` paths made to read ``n``."""
    w = _width(n)
    tools = [f"t{i:0{w}}" for i in range(n)]
    nodes = [_agent("agent"), _box("box")] + [_tool(t, "X") for t in tools]
    edges = [_edge(t, "box") for t in tools] + [_edge("box", "agent")]
    expected = _expected(1, 1, ("agent", "x", tuple(tools)), n + 2, n + 1, 1, 1)
    return Generated(_document(nodes, edges), expected)


def far_consumers(n: int) -> Generated:
    """Family 15: ``n`` boxes ``x{g}``, each holding a clashing pair
    (``p{g}`` "Tool g", ``q{g}`` "tool-g") and wired into its own agent
    ``a{g}`` and into one agent ``z``, whose id sorts after every ``a``.
    Clash ``g`` is seen by ``a{g}`` and ``z``: ``2 * n`` violations, ``n``
    clashes of two consumers each.

    A clash's consumers are listed (read.rs ``GroupRef::consumers``) by
    looking up, one by one from its first consumer, every consumer with a
    violation until the clash's count is reached: clash ``g``'s second
    consumer ``z`` is ``n - g`` consumers further, so reading each clash's
    first ten consumers costs ``n * n / 2`` set lookups."""
    w = _width(n)
    nodes = [_agent("z")]
    edges = []
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_box(f"x{s}"), _agent(f"a{s}"), _tool(f"p{s}", f"Tool {s}"), _tool(f"q{s}", f"tool-{s}")]
        edges += [_edge(f"p{s}", f"x{s}"), _edge(f"q{s}", f"x{s}"), _edge(f"x{s}", f"a{s}"), _edge(f"x{s}", "z")]
    zero = f"{0:0{w}}"
    expected = _expected(2 * n, n, (f"a{zero}", f"tool_{zero}", (f"p{zero}", f"q{zero}")), 4 * n + 1, 4 * n, n + 1, n)
    return Generated(_document(nodes, edges), expected)


def forked_roots(n: int) -> Generated:
    """Family 16: boxes ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``; ``n``
    agents ``a{g}``, each fed by ``c{n-1}`` and by a box of its own
    ``y{g}``; tool ``s{g}`` "Tool g" wired into ``c0``, its twin ``u{g}``
    "tool-g" into ``y{g}``. Every agent sees every ``s``, but only ``a{g}``
    sees two tools named ``tool_g``: ``n`` violations, ``n`` clashes, one
    per agent.

    Family 12 with each twin behind a box of its own: an agent fed by two
    boxes has no path parent, so each agent is a path root (paths.rs), and
    ``s{g}``'s path to it is found from the root's own tree, grown breadth
    first (``Tree::first_step`` -> ``Tree::grow``) level by level over the
    whole chain, ``n`` levels, for each of the ``n`` roots: once when the
    check chooses renames (read.rs ``settle_renames`` reads every clash's
    first violation) and again on reading. Trees are per root, so nothing
    one root's tree found serves the next."""
    w = _width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    agents = [f"a{g:0{w}}" for g in range(n)]
    own = [f"y{g:0{w}}" for g in range(n)]
    nodes = [_box(c) for c in chain] + [_box(y) for y in own] + [_agent(a) for a in agents]
    nodes += [_tool(f"s{g:0{w}}", f"Tool {g:0{w}}") for g in range(n)]
    nodes += [_tool(f"u{g:0{w}}", f"tool-{g:0{w}}") for g in range(n)]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(n - 1)]
    edges += [_edge(chain[-1], a) for a in agents]
    edges += [_edge(y, a) for y, a in zip(own, agents)]
    edges += [_edge(f"s{g:0{w}}", chain[0]) for g in range(n)]
    edges += [_edge(f"u{g:0{w}}", y) for g, y in enumerate(own)]
    zero = f"{0:0{w}}"
    expected = _expected(n, n, (agents[0], f"tool_{zero}", (f"s{zero}", f"u{zero}")), 5 * n, 5 * n - 1, n, 2 * n)
    return Generated(_document(nodes, edges), expected)


def hub_tool(n: int) -> Generated:
    """Family 17: tool ``t`` "X" wired into ``n`` boxes ``b{j}``; box
    ``b{j}`` and a box of its own ``y{j}`` feed agent ``a{j}``; tool
    ``u{j}`` "x" in ``y{j}``. Each agent sees ``t`` and its own ``u{j}``,
    both named ``x``: ``n`` violations, ``n`` clashes (``t`` and ``u{j}``).

    Each agent, fed by two boxes, is a path root with a tree of two boxes.
    But each time ``t``'s path to an agent is found (paths.rs
    ``Tree::first_step``, from read.rs ``settle_renames`` during the check,
    and again on every read of it), every one of ``t``'s ``n`` receivers is
    looked up in the root's tree, and a map of them made, to find the one
    nearest the root: ``n`` steps per path, ``n`` paths, from a file of
    ``n`` boxes."""
    w = _width(n)
    boxes = [f"b{j:0{w}}" for j in range(n)]
    own = [f"y{j:0{w}}" for j in range(n)]
    agents = [f"a{j:0{w}}" for j in range(n)]
    twins = [f"u{j:0{w}}" for j in range(n)]
    nodes = [_tool("t", "X")] + [_box(b) for b in boxes] + [_box(y) for y in own] + [_agent(a) for a in agents]
    nodes += [_tool(u, "x") for u in twins]
    edges = [_edge("t", b) for b in boxes]
    edges += [_edge(b, a) for b, a in zip(boxes, agents)] + [_edge(y, a) for y, a in zip(own, agents)]
    edges += [_edge(u, y) for u, y in zip(twins, own)]
    expected = _expected(n, n, (agents[0], "x", ("t", twins[0])), 4 * n + 1, 4 * n, n, 2 * n)
    return Generated(_document(nodes, edges), expected)


ENTRY_WALK_DEAD = 8
"""Family 18: boxes that reach no consumer, each clashing tool wired into
all of them: a tool of more receivers than paths.rs ``FEW_RECEIVERS`` (8)."""


def entry_walk(n: int) -> Generated:
    """Family 18: boxes ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``,
    ``c{n-1}`` wired into one agent ``agent``; tool ``x{i}`` "X" wired into
    ``c{i}``; ``n`` clashing pairs (``p{g}`` "Tool g", ``q{g}`` "tool-g"),
    each tool wired into ``c0`` and into 8 boxes ``d0..d7`` that reach no
    consumer. ``n + 1`` violations at the agent, ``n + 1`` clashes: the
    ``n`` pairs, and the ``n`` tools named ``x``.

    Every box of the chain has a leaf of its own (an ``x``), and every pair
    tool has 9 receivers, more than paths.rs ``FEW_RECEIVERS``: so where a
    pair tool enters the agent's chain is found (paths.rs ``entry``) by
    walking up the chain's nodes that have leaves of their own
    (``own_up``), from the agent up to ``c0``, asking each whether the tool
    is wired into it: ``n`` steps per path, for ``2 * n`` paths, when the
    check chooses renames (read.rs ``settle_renames``) and again each time
    a path is read."""
    w = _width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    dead = [f"d{k}" for k in range(ENTRY_WALK_DEAD)]
    xs = [f"x{i:0{w}}" for i in range(n)]
    nodes = [_agent("agent")] + [_box(c) for c in chain] + [_box(d) for d in dead] + [_tool(x, "X") for x in xs]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(n - 1)] + [_edge(chain[-1], "agent")]
    edges += [_edge(x, c) for x, c in zip(xs, chain)]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_tool(f"p{s}", f"Tool {s}"), _tool(f"q{s}", f"tool-{s}")]
        for tool in (f"p{s}", f"q{s}"):
            edges += [_edge(tool, chain[0])] + [_edge(tool, d) for d in dead]
    zero = f"{0:0{w}}"
    per_tool = 1 + ENTRY_WALK_DEAD
    expected = _expected(
        n + 1, n + 1, ("agent", f"tool_{zero}", (f"p{zero}", f"q{zero}")), 4 * n + 1 + ENTRY_WALK_DEAD,
        2 * n + 2 * n * per_tool, 1, n + ENTRY_WALK_DEAD,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def subsets_shared(n: int) -> Generated:
    """Family 19: family 10 with one more tool in each box, ``s{j}``, every
    one labelled "Shared". Each agent sees five of them: besides family
    10's ``5 * n * (n // 31)`` violations, one per agent named ``shared``
    (its first), each a clash of its own (no two agents see the same five
    boxes): ``n`` more violations, ``n`` more clashes.

    Family 10's agents are cheap since their classes are held as *parts*
    (build.rs ``join``): five boxes that share no token and no segment are
    never unioned. One name in every box defeats that: every two boxes now
    share the segment of ``shared`` (``apart`` is false), so each agent's
    five boxes are unioned whatever it costs, a new trie leaf for every
    word of every box (the boxes' pairs interleave in name order), and
    those leaves' clashes are counted after ``push_down``: the work of
    family 10 before the parts, one step per violation, from a file of
    ``n`` agents."""
    return _subsets(n, interleaved=True, shared=True)


PARTS = 17
"""Families 20 and 21: boxes of many clashing pairs each, whose names
interleave, wired into one place: one more than build.rs
``PAIRWISE_UP_TO_PARTS`` (16), so that place is held as parts and checked
word by word."""


def _interleaved_boxes(boxes: int, pairs: int, nodes: List[str], edges: List[str]) -> List[str]:
    """Boxes ``b{j}``, each of ``pairs`` clashing pairs ``t{j}-{p}a`` "Tool
    p j" and ``t{j}-{p}b`` "tool-p-j" (family 10's), so that in name order
    the boxes' pairs interleave; their ids."""
    wb, wp = _width(boxes), _width(pairs)
    box_ids = [f"b{j:0{wb}}" for j in range(boxes)]
    nodes += [_box(b) for b in box_ids]
    for j, b in enumerate(box_ids):
        for p in range(pairs):
            one, two = f"t{j:0{wb}}-{p:0{wp}}a", f"t{j:0{wb}}-{p:0{wp}}b"
            nodes += [_tool(one, f"Tool {p:0{wp}} {j:0{wb}}"), _tool(two, f"tool-{p:0{wp}}-{j:0{wb}}")]
            edges += [_edge(one, b), _edge(two, b)]
    return box_ids


def parts_chain(n: int) -> Generated:
    """Family 20: 17 boxes ``b{j}`` of ``n`` clashing pairs each (family
    10's labels: "Tool p j", "tool-p-j", interleaving in name order), all
    wired into ``c0`` of a chain of boxes ``c0..c{n-1}`` (``c{i} ->
    c{i+1}``), ``c{n-1}`` wired into one agent ``z``; box ``c{i}`` also
    holds a clashing pair of its own (``u{i}`` "Link i", ``v{i}``
    "link-i"). ``18 * n`` violations at ``z``, as many clashes.

    ``c0`` holds the 17 boxes as parts (build.rs ``join``: their union
    would make far more leaves than its budget, and they share nothing).
    Parts nest: ``c{i}``'s parts are ``c{i-1}``'s and its own set, so the
    ``i``-th box of the chain holds ``17 + i`` parts, and for each, ``join``
    tries the union again with a budget of 4 leaves per part (made, then
    rolled back, ``Sets::union_within``), then checks that the parts are
    apart again, word by word over all of them (``apart``, more than 16
    parts): ``n`` classes of ``n`` parts and ``17 * n`` pairs' words each,
    from a file of ``18 * n`` pairs."""
    nodes: List[str] = []
    edges: List[str] = []
    boxes = _interleaved_boxes(PARTS, n, nodes, edges)
    w = _width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    nodes += [_box(c) for c in chain] + [_agent("z")]
    edges += [_edge(b, chain[0]) for b in boxes]
    edges += [_edge(chain[i], chain[i + 1]) for i in range(n - 1)] + [_edge(chain[-1], "z")]
    for i, c in enumerate(chain):
        s = f"{i:0{w}}"
        nodes += [_tool(f"u{s}", f"Link {s}"), _tool(f"v{s}", f"link-{s}")]
        edges += [_edge(f"u{s}", c), _edge(f"v{s}", c)]
    zero = f"{0:0{w}}"
    expected = _expected(
        18 * n, 18 * n, ("z", f"link_{zero}", (f"u{zero}", f"v{zero}")), 37 * n + 18, 37 * n + 17, 1, PARTS + n
    )
    return Generated(_document(nodes, edges), expected)


def parts_fan(n: int) -> Generated:
    """Family 21: 17 boxes ``b{j}`` of ``n`` clashing pairs each (family
    10's labels, interleaving in name order), all wired into one box
    ``h``; ``n`` agents ``a{i}``, each fed by ``h`` and holding a clashing
    pair of its own (``u{i}`` "Own i", ``v{i}`` "own-i"). Each agent sees
    ``17 * n + 1`` clashes: ``n * (17 * n + 1)`` violations, ``18 * n``
    clashes.

    ``h`` holds the 17 boxes as parts (build.rs ``join``), and each agent,
    whose class adds its own set to them, is held as parts too. But for
    each agent ``join`` checks again that all 18 parts are apart, word by
    word over every part (``apart``: more than 16 parts, one pass over all
    their words, nothing remembered from ``h``'s check), and first tries
    their union within its budget: ``n`` agents times ``h``'s words, from a
    file of ``n`` agents and ``17 * n`` pairs."""
    nodes: List[str] = []
    edges: List[str] = []
    boxes = _interleaved_boxes(PARTS, n, nodes, edges)
    nodes.append(_box("h"))
    edges += [_edge(b, "h") for b in boxes]
    w = _width(n)
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"u{s}", f"Own {s}"), _tool(f"v{s}", f"own-{s}")]
        edges += [_edge("h", f"a{s}"), _edge(f"u{s}", f"a{s}"), _edge(f"v{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(
        n * (PARTS * n + 1), (PARTS + 1) * n, (f"a{zero}", f"own_{zero}", (f"u{zero}", f"v{zero}")), 37 * n + 18,
        37 * n + 17, n, PARTS + 1,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def pair_boxes(n: int) -> int:
    """Family 22's box count at size ``n``: the fewest whose pairs number at
    least ``n`` (2 at least)."""
    boxes = 2
    while math.comb(boxes, 2) < n:
        boxes += 1
    return boxes


def pair_parts(n: int) -> Generated:
    """Family 22: ``k`` boxes ``b{j}`` (``k`` the fewest with ``C(k, 2) >=
    n``), each of ``k`` clashing pairs (family 10's labels, interleaving in
    name order); ``n`` agents, the ``i``-th wired to the ``i``-th pair of
    boxes in lexicographic order. Each agent sees its two boxes' pairs:
    ``2 * k * n`` violations; a box's pairs are clashes once some agent
    sees it, which the first ``n`` pairs of boxes do for ``min(k, n + 1)``
    boxes.

    Each agent's two boxes share no token and no segment, and their union
    would make more leaves than its budget, so each agent is held as
    parts (build.rs ``join``). Whether two parts are apart is looked at
    pair by pair (``apart``, up to 16 parts) and remembered per pair; but
    here every agent is a different pair, so each agent walks the words its
    two boxes both have (``Sets::interact``), about ``k`` of them: ``n * k``
    steps from a file of ``k * k`` pairs and ``n`` agents, about ``k ** 3 /
    2`` from ``k ** 2``: 2.8x the work when the file doubles."""
    boxes = pair_boxes(n)
    nodes: List[str] = []
    edges: List[str] = []
    box_ids = _interleaved_boxes(boxes, boxes, nodes, edges)
    wa = _width(n)
    agents = [f"a{i:0{wa}}" for i in range(n)]
    nodes += [_agent(a) for a in agents]
    for agent, (x, y) in zip(agents, itertools.combinations(box_ids, 2)):
        edges += [_edge(x, agent), _edge(y, agent)]
    wb = _width(boxes)
    zb, zp = f"{0:0{wb}}", f"{0:0{wb}}"
    used = min(boxes, n + 1)
    expected = _expected(
        2 * boxes * n, used * boxes, (agents[0], f"tool_{zp}_{zb}", (f"t{zb}-{zp}a", f"t{zb}-{zp}b")),
        boxes + 2 * boxes * boxes + n, 2 * boxes * boxes + 2 * n, n, boxes,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def giant_taps(n: int) -> Generated:
    """Family 23: family 11's chain, tapped at every box: boxes
    ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``, tool ``t{i}`` "X" wired into
    ``c{i}``, and box ``c{i}`` wired into agent ``a{i}``. Agent ``a{i}``
    sees ``t0..t{i}``: ``n - 1`` violations (``a0`` sees one tool), each a
    clash of its own, of ``i + 1`` tools.

    The clashes' tools number ``n * n / 2``: what a report that lists every
    violation's tools lists. But a check need not list them, and here it
    does, twice: every clash's tools are made when the clashes are
    (build.rs ``collisions``, ``Layout::leaves_of`` for each clash), and
    choosing renames (read.rs ``settle_renames``) builds the path of every
    tool of every clash's first violation (``Collision::tools``), though
    each clash has one tool to rename, the one not seen before. Reading
    the clashes costs little per tool; the check costs ``n * n`` paths from
    a file of ``n`` boxes.

    The paths are no longer built, but the clashes' tools are still made
    and kept, and renames still look at each: the size of the distinct
    clashes is a term of the cost model of its own (src/collisions/mod.rs),
    so the size given is 2,000 (two million tools in the clashes; at
    10,000, fifty million, some 430 MB for a 3.5 MB file)."""
    w = _width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    tools = [f"t{i:0{w}}" for i in range(n)]
    agents = [f"a{i:0{w}}" for i in range(n)]
    nodes = [_box(c) for c in chain] + [_tool(t, "X") for t in tools] + [_agent(a) for a in agents]
    edges = [_edge(t, c) for t, c in zip(tools, chain)]
    edges += [_edge(chain[i], chain[i + 1]) for i in range(n - 1)]
    edges += [_edge(c, a) for c, a in zip(chain, agents)]
    expected = _expected(n - 1, n - 1, (agents[1], "x", (tools[0], tools[1])), 3 * n, 3 * n - 1, n, n)
    return Generated(_document(nodes, edges), expected)


def _twin_boxes(n: int) -> Tuple[List[str], List[str]]:
    """Boxes ``A`` and ``B`` of ``n`` tools each, ``x{i}a`` "Tool i" in
    ``A`` and ``x{i}b`` "tool-i" in ``B``: tool ``i`` of one and of the
    other share a name (families 24 and 31)."""
    w = _width(n)
    nodes = [_box("A"), _box("B")]
    edges = []
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [_tool(f"x{s}a", f"Tool {s}"), _tool(f"x{s}b", f"tool-{s}")]
        edges += [_edge(f"x{s}a", "A"), _edge(f"x{s}b", "B")]
    return nodes, edges


def solo_union(n: int) -> Generated:
    """Family 24: two boxes ``A`` and ``B`` of ``n`` tools each, ``x{i}a``
    "Tool i" in ``A`` and ``x{i}b`` "tool-i" in ``B``; ``n`` agents
    ``a{k}``, each wired to both boxes and holding a tool of its own,
    ``s{k}``, every one labelled "Solo" (one per agent: no clash). Every agent
    sees every ``tool_i`` from both boxes: ``n * n`` violations, ``n``
    clashes (each pair ``x{i}a``, ``x{i}b``).

    Each name ``tool_i`` enters at two boxes that forward, so it roams, and
    the two boxes meet at every word of their segments (``n / 32`` of them,
    each a token of both names' segments): more than 4 words a part, so each
    agent's class is united whatever it costs (build.rs ``join``: the
    meeting is found once for the pair, but the union ``Sets::union`` is
    made again for every class, and each word it makes a new value of reports
    every one of its 32 segments' clashes as formed there, ``Layout::union``,
    one event and one probe each). The agents are ``n`` classes only because
    each has a Solo tool of its own (a final leaf that adds no token): the
    same union of the same two sets, ``n`` times, ``n * n`` steps from a
    file of ``n`` agents and ``n`` pairs."""
    w = _width(n)
    nodes, edges = _twin_boxes(n)
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"s{s}", "Solo")]
        edges += [_edge("A", f"a{s}"), _edge("B", f"a{s}"), _edge(f"s{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(
        n * n, n, (f"a{zero}", f"tool_{zero}", (f"x{zero}a", f"x{zero}b")), 2 + 4 * n, 5 * n, n, 2
    )
    return Generated(_document(nodes, edges), expected)


DOZEN = 12
"""Family 25: the fewest parts with more than 64 pairs (build.rs
``PAIRS_LOOKED_AT``): 12 parts make 66."""


def solo_dozen(n: int) -> Generated:
    """Family 25: 12 boxes ``b{j}`` of ``n`` clashing pairs each (family 10's
    labels, "Tool p j" and "tool-p-j", interleaving in name order); ``n``
    agents ``a{k}``, each wired to all 12 boxes and holding a tool of its
    own, ``s{k}``, every one labelled "Solo" (one per agent: no clash).
    Every agent sees every pair: ``12 * n * n`` violations, ``12 * n``
    clashes.

    The boxes share no token and no segment but meet at every word (their
    pairs interleave), so each agent's class holds them as parts (build.rs
    ``join``). Whether parts meet is asked pair by pair, and remembered per
    pair, only up to 64 pairs; 12 parts are 66, so ``meeting_words`` walks
    every word of every part instead, remembering nothing: each agent walks
    all 12 boxes' words (``12 * 12 * n / 64``), though every agent asks
    about the same 12 sets. The agents are ``n`` classes only because each
    has a Solo tool of its own (a final leaf that adds no token): ``n * n``
    steps from a file of ``n`` agents and ``12 * n`` pairs."""
    nodes: List[str] = []
    edges: List[str] = []
    boxes = _interleaved_boxes(DOZEN, n, nodes, edges)
    w = _width(n)
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"s{s}", "Solo")]
        edges += [_edge(b, f"a{s}") for b in boxes] + [_edge(f"s{s}", f"a{s}")]
    zb, zp = f"{0:0{_width(DOZEN)}}", f"{0:0{w}}"
    expected = _expected(
        DOZEN * n * n, DOZEN * n, (f"a{zp}", f"tool_{zp}_{zb}", (f"t{zb}-{zp}a", f"t{zb}-{zp}b")),
        DOZEN + 2 * DOZEN * n + 2 * n, 2 * DOZEN * n + (DOZEN + 1) * n, n, DOZEN,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def solo_cap(n: int) -> Generated:
    """Family 26: 17 boxes ``b{j}`` of ``p = max(1, n // 4)`` clashing pairs
    each (family 10's labels, interleaving in name order), ``b00..b15``
    wired into one box ``h``; ``n`` agents ``a{k}``, each fed by ``h`` and
    by ``b16``, and holding a tool of its own, ``s{k}``, every one labelled
    "Solo" (one per agent: no clash). Every agent sees every pair: ``17 * p
    * n`` violations, ``17 * p`` clashes.

    ``h`` holds its 16 boxes as parts (build.rs ``join``: they share no
    token and no segment), so each agent's class has 17 parts, one more
    than ``MAX_PARTS``: whether they meet is known from ``h``'s own check
    (parts of one input never meet; boxes' own sets meet no other), but
    then the two smallest parts are united, for every agent again
    (``Sets::union``: the two boxes meet at every word, their pairs
    interleaving, and each new word reports its clashes, ``Layout::union``),
    though every agent unites the same two sets. The agents are ``n``
    classes only because each has a Solo tool of its own (a final leaf that
    adds no token): ``n * p`` steps from a file of ``n`` agents and ``17 *
    p`` pairs."""
    p = max(1, n // 4)
    nodes: List[str] = []
    edges: List[str] = []
    boxes = _interleaved_boxes(PARTS, p, nodes, edges)
    nodes.append(_box("h"))
    edges += [_edge(b, "h") for b in boxes[:-1]]
    w = _width(n)
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"s{s}", "Solo")]
        edges += [_edge("h", f"a{s}"), _edge(boxes[-1], f"a{s}"), _edge(f"s{s}", f"a{s}")]
    zb, zp = f"{0:0{_width(PARTS)}}", f"{0:0{_width(p)}}"
    expected = _expected(
        PARTS * p * n, PARTS * p, (f"a{0:0{w}}", f"tool_{zp}_{zb}", (f"t{zb}-{zp}a", f"t{zb}-{zp}b")),
        PARTS + 2 * PARTS * p + 1 + 2 * n, 2 * PARTS * p + PARTS - 1 + 3 * n, n, PARTS + 1,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def root_ladder(n: int) -> Generated:
    """Family 27: boxes ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``, ``c{n-1}``
    wired into one agent ``z``; box ``d{i}``, holding a clashing pair of its
    own (``u{i}`` "Link i", ``v{i}`` "link-i"), wired into ``c{i}``. ``n``
    violations at ``z``, ``n`` clashes.

    Every ``c{i}`` but ``c0`` has two provider boxes, so each is a path
    root, and the path of ``u{i}`` to ``z`` crosses ``n - i`` of them. At
    each root, its providers are asked which carries the tool (paths.rs
    ``Paths::path``: one does, so the path is passed through to it, one
    chain per root); each question is remembered per (tool, class)
    (read.rs ``carries``), but no two are alike: ``n * n`` questions, each
    a set lookup in every part of a class (the chain's classes are held as
    up to 16 parts), and as many entries in the remembered map. The path
    is found when renames are chosen (read.rs ``settle_renames``) and again
    on every read, and holds a chain per root, so reading even its ends
    walks them all (``TreePath::len``, ``Paths::nodes``): ``n * n`` steps
    and ``n * n`` map entries from a file of ``n`` boxes."""
    w = _width(n)
    nodes = [_agent("z")]
    edges = []
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [_box(f"c{s}"), _box(f"d{s}"), _tool(f"u{s}", f"Link {s}"), _tool(f"v{s}", f"link-{s}")]
        edges += [_edge(f"u{s}", f"d{s}"), _edge(f"v{s}", f"d{s}"), _edge(f"d{s}", f"c{s}")]
        edges.append(_edge(f"c{s}", f"c{i + 1:0{w}}" if i + 1 < n else "z"))
    zero = f"{0:0{w}}"
    expected = _expected(n, n, ("z", f"link_{zero}", (f"u{zero}", f"v{zero}")), 1 + 4 * n, 4 * n, 1, 2 * n)
    return Generated(_document(nodes, edges), expected)


SIDES = 16
"""Family 28: the most provider boxes of a path root that are each asked
whether they carry a tool (paths.rs ``CARRIERS_LOOKED_UP``); one more, the
chain's end, makes each agent a root whose tree decides."""


def wide_roots(n: int) -> Generated:
    """Family 28: boxes ``c0..c{m-1}`` chained ``c{i} -> c{i+1}``, ``m = 10
    * n``, ``c{m-1}`` wired into ``n`` agents ``a{g}``; a box ``Q`` holding a
    clashing pair (``k0`` "Key", ``k1`` "key") wired into 16 boxes
    ``S00..S15``, each wired into every agent; tool ``t{g}`` "Tool g" wired
    into ``c0`` and its twin ``e{g}`` "tool-g" straight into ``a{g}``. Every
    agent sees the pair ``key`` and its own ``tool_g``: ``2 * n``
    violations, ``n + 1`` clashes.

    Each agent has 17 provider boxes, one more than are each asked whether
    they carry a tool (paths.rs ``Paths::path``), so the path of ``t{g}``
    to ``a{g}`` is read off the agent's tree, grown breadth first from the
    agent (``Tree::first_step``, ``Tree::grow``) until it meets ``c0``: the
    whole chain, ``m`` boxes, for each agent. ``t{g}`` sorts after ``e{g}``,
    so it is the tool renamed, and its path is found when renames are
    chosen (read.rs ``settle_renames``), then again on reading (8 trees are
    kept, one per agent): ``n * m`` steps from a file of ``n`` agents and
    ``m`` boxes."""
    m = 10 * n
    wm, w = _width(m), _width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    sides = [f"S{j:02}" for j in range(SIDES)]
    nodes = [_box(c) for c in chain] + [_box("Q"), _tool("k0", "Key"), _tool("k1", "key")] + [_box(x) for x in sides]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(m - 1)] + [_edge("k0", "Q"), _edge("k1", "Q")]
    edges += [_edge("Q", x) for x in sides]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"t{s}", f"Tool {s}"), _tool(f"e{s}", f"tool-{s}")]
        edges += [_edge(f"t{s}", chain[0]), _edge(f"e{s}", f"a{s}"), _edge(chain[-1], f"a{s}")]
        edges += [_edge(x, f"a{s}") for x in sides]
    expected = _expected(
        2 * n, n + 1, (f"a{0:0{w}}", "key", ("k0", "k1")), m + 3 + SIDES + 3 * n, m + 1 + SIDES + (3 + SIDES) * n, n,
        m + 1 + SIDES,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


NEAR = 10
"""Family 29: the consumers each clash is seen by next to where it forms,
as many as a clash keeps first consumers of (sets.rs ``FIRSTS``)."""


def far_eleventh(n: int) -> Generated:
    """Family 29: family 15 with ten near consumers a clash: box ``b{i}``,
    holding a clashing pair (``p{i}`` "Tool i", ``q{i}`` "tool-i"), wired
    into the ten agents ``a{i}..a{i+9}`` and into one agent ``z``, whose id
    sorts last. Each clash is seen by eleven agents: ``11 * n``
    violations, ``n`` clashes.

    A clash keeps its first ten consumers (build.rs, ``Clash::
    first_consumers``); from the eleventh on, its consumers are found by
    looking up every consumer with a violation after the tenth, one by one
    (read.rs ``GroupRef::consumers`` -> ``sees``, a set lookup in each
    part: each agent holds its ten boxes as parts). The eleventh here is
    ``z``, so listing clash ``i``'s eleven consumers looks up the ``n - i``
    agents between: ``n * n / 2`` lookups to list ``11 * n`` consumers.
    The json report lists the first 100 consumers of every clash by default
    (``--max-consumers``)."""
    w = _width(n + NEAR - 1)
    nodes = [_agent(f"a{k:0{w}}") for k in range(n + NEAR - 1)] + [_agent("z")]
    edges = []
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [_box(f"b{s}"), _tool(f"p{s}", f"Tool {s}"), _tool(f"q{s}", f"tool-{s}")]
        edges += [_edge(f"p{s}", f"b{s}"), _edge(f"q{s}", f"b{s}")]
        edges += [_edge(f"b{s}", f"a{k:0{w}}") for k in range(i, i + NEAR)] + [_edge(f"b{s}", "z")]
    zero = f"{0:0{w}}"
    expected = _expected(
        (NEAR + 1) * n, n, (f"a{zero}", f"tool_{zero}", (f"p{zero}", f"q{zero}")), NEAR + 4 * n,
        (NEAR + 3) * n, n + NEAR, n,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def twin_carriers(n: int) -> Generated:
    """Family 30: boxes ``c0..c{m-1}`` chained ``c{i} -> c{i+1}``, ``m = 10
    * n``, ``c{m-1}`` wired into two boxes ``X`` and ``Y``, each holding a
    clashing pair of its own (``x0`` "Xk", ``x1`` "xk"; ``y0`` "Yk", ``y1``
    "yk"), both wired into ``n`` agents ``a{g}``; tool ``t{g}`` "Tool g"
    wired into ``c0`` and its twin ``e{g}`` "tool-g" straight into
    ``a{g}``. Every agent sees ``tool_g``, ``xk`` and ``yk``: ``3 * n``
    violations, ``n + 2`` clashes.

    Family 28 with the chain's end behind two boxes of two classes (their
    own pairs set them apart), both of which carry every ``t{g}``. Each
    agent has two provider boxes, so it is a path root; its providers'
    classes are few (two), so each is asked whether it carries ``t{g}``
    (paths.rs ``Paths::path``, ``carriers_of``), and both do, so the
    path is read off the agent's own tree, grown breadth first from the
    agent (``Tree::first_step``, ``Tree::grow``) until it meets ``c0``:
    the whole chain, ``m`` boxes, for each agent (8 trees are kept, one
    per agent). ``t{g}`` sorts after ``e{g}``, so it is the tool renamed,
    and its path is found when renames are chosen during the check
    (read.rs ``settle_renames``), then again when the first violation of
    each clash is read (``clash_groups()``) and on every read of its path:
    ``n * m`` steps from a file of ``n`` agents and ``m`` boxes."""
    m = 10 * n
    wm, w = _width(m), _width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    nodes = [_box(c) for c in chain] + [_box("X"), _box("Y")]
    nodes += [_tool("x0", "Xk"), _tool("x1", "xk"), _tool("y0", "Yk"), _tool("y1", "yk")]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(m - 1)] + [_edge(chain[-1], "X"), _edge(chain[-1], "Y")]
    edges += [_edge("x0", "X"), _edge("x1", "X"), _edge("y0", "Y"), _edge("y1", "Y")]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"t{s}", f"Tool {s}"), _tool(f"e{s}", f"tool-{s}")]
        edges += [_edge(f"t{s}", chain[0]), _edge(f"e{s}", f"a{s}"), _edge("X", f"a{s}"), _edge("Y", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(
        3 * n, n + 2, (f"a{zero}", f"tool_{zero}", (f"e{zero}", f"t{zero}")), m + 6 + 3 * n, m + 5 + 4 * n, n, m + 2
    )
    return Generated(_document(nodes, edges), expected)


def solo_boxes(n: int) -> Generated:
    """Family 31: family 24 with each agent's own tool moved into a box of
    its own holding a clashing pair: two boxes ``A`` and ``B`` of ``n``
    tools each, ``x{i}a`` "Tool i" in ``A`` and ``x{i}b`` "tool-i" in
    ``B``; ``n`` agents ``a{k}``, each wired to ``A``, ``B`` and a box
    ``s{k}`` of its own holding ``u{k}`` "Solo k" and ``v{k}`` "solo-k".
    Every agent sees every ``tool_i`` and its own ``solo_k``: ``n * (n +
    1)`` violations, ``2 * n`` clashes.

    The inputs of each agent's class are joined once per distinct
    combination of them (build.rs ``join_inputs``), but every agent's
    combination is distinct (its own box), although all share the big
    sub-combination ``A``, ``B``: the join is made anew for each. ``A`` and
    ``B`` meet at every word (``n / 32`` of them), more than a few a part,
    so the parts are united whatever it costs (``join``); the private box
    holds one clash and ``A`` and ``B`` none, so it is united first and
    the union of ``A`` and ``B`` is never the same twice (``Sets::union``,
    each word of it a new leaf reporting all its segments' clashes as
    formed, ``Layout::union``): ``n * n / 32`` new set nodes and ``n * n``
    events and probes, kept for the report's life, from a file of ``3 *
    n`` tools."""
    w = _width(n)
    nodes, edges = _twin_boxes(n)
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [_agent(f"a{s}"), _box(f"s{s}"), _tool(f"u{s}", f"Solo {s}"), _tool(f"v{s}", f"solo-{s}")]
        edges += [_edge("A", f"a{s}"), _edge("B", f"a{s}"), _edge(f"s{s}", f"a{s}")]
        edges += [_edge(f"u{s}", f"s{s}"), _edge(f"v{s}", f"s{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(
        n * (n + 1), 2 * n, (f"a{zero}", f"solo_{zero}", (f"u{zero}", f"v{zero}")), 2 + 6 * n, 7 * n, n, 2 + n
    )
    return Generated(_document(nodes, edges), expected)


def entry_fan(n: int) -> Generated:
    """Family 32: boxes ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``,
    ``c{n-1}`` wired into ``n`` agents ``a{g}``; tool ``y{i}`` "Y i" wired
    into ``c{i}``, its twin ``z{i}`` "y-i" into one agent ``O`` (no clash:
    it only gives every box of the chain a leaf of its own); tool ``t``
    "Key" wired into ``c0`` and into ``n`` boxes ``d{i}`` that reach no
    consumer; tool ``e{g}`` "key" straight into ``a{g}``. Each agent sees
    ``key`` (``e{g}``, ``t``): ``n`` violations, ``n`` clashes.

    Family 18 turned around: there, many tools of few receivers each went
    to one agent; here one tool of ``n + 1`` receivers goes to ``n``
    agents below a chain of ``n`` boxes with leaves of their own. Where
    ``t`` enters an agent's chain is found (paths.rs ``entry``) by looking
    at the fewer of its receivers and the chain's nodes with leaves of
    their own; both are ``n``, so the walk up ``own_up`` from the agent to
    ``c0`` (``wired_directly`` at each node) costs ``n`` per path, and
    each of the ``n`` clashes has its own path of ``t``: ``n * n`` steps
    when the clashes' first violations are read (``clash_groups()``) and
    again when their tools' paths are (the check itself stays linear)."""
    w = _width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    nodes = [_box(c) for c in chain] + [_tool("t", "Key"), _agent("O")]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(n - 1)] + [_edge("t", chain[0])]
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [_box(f"d{s}"), _tool(f"y{s}", f"Y {s}"), _tool(f"z{s}", f"y-{s}")]
        edges += [_edge("t", f"d{s}"), _edge(f"y{s}", chain[i]), _edge(f"z{s}", "O")]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"e{s}", "key")]
        edges += [_edge(chain[-1], f"a{s}"), _edge(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(n, n, (f"a{zero}", "key", (f"e{zero}", "t")), 6 * n + 2, 6 * n, n + 1, 2 * n)
    return Generated(_document(nodes, edges), expected)


ORPHAN_BOXES = 16
"""Family 33: as many boxes as a class is held as parts at most (build.rs
``MAX_PARTS``): one more input makes one part too many."""


def orphan_parts(n: int) -> Generated:
    """Family 33: 16 boxes ``b{j}`` of ``n`` tools each, ``t{j}-{p}a``
    "Tool p j", interleaving in name order (family 10's labels), all wired
    into one box ``H``; each tool's twin ``t{j}-{p}b`` "tool-p-j" wired
    into one box ``Z``, wired into one agent ``O`` (so no name clashes
    anywhere, yet each is a name that could); ``n`` agents ``a{k}``, each
    fed by ``H`` and by a box ``s{k}`` of its own holding a clashing pair
    (``u{k}`` "Solo k", ``v{k}`` "solo-k"). ``n`` violations, ``n``
    clashes: each agent's own pair.

    The 16 boxes share no token and no segment but meet at every word, so
    ``H``'s class holds them as 16 parts (build.rs ``join``), and each
    agent's class, whose combination of inputs is its own (its box), is
    ``H``'s 16 parts and its box's: one more than ``MAX_PARTS``. The two
    parts with the fewest clashes are then united, and the boxes hold none
    (their names clash nowhere): the same two of them for every agent,
    united again each time (``Sets::union``, visiting every word they
    share, ``16 * n / 64``): ``n * n / 4`` set nodes from a file of ``32 *
    n`` tools. (With 15 boxes, no union: linear.)"""
    k = ORPHAN_BOXES
    w, wb = _width(n), _width(k)
    nodes = [_box("H"), _box("Z"), _agent("O")]
    edges = [_edge("Z", "O")]
    for j in range(k):
        b = f"b{j:0{wb}}"
        nodes.append(_box(b))
        edges.append(_edge(b, "H"))
        for p in range(n):
            one, two = f"t{j:0{wb}}-{p:0{w}}a", f"t{j:0{wb}}-{p:0{w}}b"
            nodes += [_tool(one, f"Tool {p:0{w}} {j:0{wb}}"), _tool(two, f"tool-{p:0{w}}-{j:0{wb}}")]
            edges += [_edge(one, b), _edge(two, "Z")]
    for a in range(n):
        s = f"{a:0{w}}"
        nodes += [_agent(f"a{s}"), _box(f"s{s}"), _tool(f"u{s}", f"Solo {s}"), _tool(f"v{s}", f"solo-{s}")]
        edges += [_edge("H", f"a{s}"), _edge(f"s{s}", f"a{s}"), _edge(f"u{s}", f"s{s}"), _edge(f"v{s}", f"s{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(
        n, n, (f"a{zero}", f"solo_{zero}", (f"u{zero}", f"v{zero}")), 3 + k + 2 * k * n + 4 * n,
        1 + k + 2 * k * n + 4 * n, n + 1, 2 + k + n,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


NINE = 9
"""Family 34: one more path root than trees were kept (paths.rs
``TREES_KEPT``, since gone: every tree made is kept)."""


def nine_roots(n: int) -> Generated:
    """Family 34: boxes ``c0..c{m-1}`` chained ``c{i} -> c{i+1}``, ``m = 10
    * n``; nine boxes ``R{r}``, each fed by two boxes ``X{r}`` and ``Y{r}``
    that ``c{m-1}`` feeds, each holding a clashing pair of its own
    (``X{r}p`` "X r k", ``X{r}q`` "X r-k"; the same for ``Y{r}``); ``n``
    agents ``a{g}``, agent ``g`` fed by ``R{g mod 9}``; tool ``t{g}`` "Tool
    g" wired into ``c0`` and its twin ``e{g}`` "tool-g" straight into
    ``a{g}``. Each agent sees ``tool_g`` (``e{g}``, ``t{g}``) and its
    root's two pairs: ``3 * n`` violations, ``n + 2 * min(n, 9)`` clashes.

    Each ``R{r}`` is a path root whose two provider boxes are of two
    classes and both carry every ``t{g}``, so the path of ``t{g}`` to
    ``a{g}`` is read off ``R{r}``'s tree, grown breadth first up the whole
    chain (paths.rs ``Paths::path``, ``Tree::first_step``,
    ``Tree::grow``): ``m`` steps, but once per root, while its tree is
    kept. Only 8 trees are kept (``Paths::tree``, least recently read
    dropped), and both choosing renames (read.rs ``settle_renames``, in the
    order of the clashes' first violations: ``t{g}`` sorts after ``e{g}``,
    so it is renamed and given a path) and reading in report order go
    round the nine roots by agent id, so every path grows its root's tree
    afresh: ``n * m`` steps in the check, again when the clashes' first
    violations are read (``clash_groups()``) and again for their tools'
    paths, from a file of ``n`` agents and ``m`` boxes. With eight roots:
    linear."""
    m = 10 * n
    wm, w = _width(m), _width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    nodes = [_box(c) for c in chain]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(m - 1)]
    for r in range(NINE):
        for side in "XY":
            b = f"{side}{r}"
            nodes += [_box(b), _tool(f"{b}p", f"{side} {r} k"), _tool(f"{b}q", f"{side} {r}-k")]
            edges += [_edge(chain[-1], b), _edge(f"{b}p", b), _edge(f"{b}q", b), _edge(b, f"R{r}")]
        nodes.append(_box(f"R{r}"))
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"e{s}", f"tool-{s}"), _tool(f"t{s}", f"Tool {s}")]
        edges += [_edge(f"R{g % NINE}", f"a{s}"), _edge(f"e{s}", f"a{s}"), _edge(f"t{s}", chain[0])]
    zero = f"{0:0{w}}"
    expected = _expected(
        3 * n, n + 2 * min(n, NINE), (f"a{zero}", f"tool_{zero}", (f"e{zero}", f"t{zero}")), m + 7 * NINE + 3 * n,
        m - 1 + 8 * NINE + 3 * n, n, m + 3 * NINE,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


RUNGS = 17
"""Family 35: one more path root than a path is passed through to the one
provider carrying its tool (paths.rs ``ROOTS_PASSED``)."""


def rung_ladders(n: int) -> Generated:
    """Family 35: boxes ``c0..c{m-1}`` chained ``c{i} -> c{i+1}``, ``m = 10
    * n``, tool ``t`` "Key" wired into ``c0``; a box ``Q`` holding a
    clashing pair (``k0`` "Q k", ``k1`` "q-k"); ``n`` agents ``a{g}``,
    each below a ladder of its own, 17 boxes ``r{g}-00..r{g}-16`` chained,
    ``c{m-1}`` into the first, the last into ``a{g}``, ``Q`` into every
    rung; tool ``e{g}`` "key" straight into ``a{g}``. Each agent sees
    ``key`` (``e{g}``, ``t``) and ``q_k``: ``2 * n`` violations, ``n + 1``
    clashes.

    Every rung has two provider boxes of two classes, so it is a path
    root, and only one (the rung above, or the chain) carries ``t``: the
    path of ``t`` to ``a{g}`` is passed up from root to carrying provider
    (paths.rs ``Paths::path``), freely 16 times (``ROOTS_PASSED``);
    beyond, a root passes paths on for rent (the work done since, by
    which its tree is grown; once whole, it decides), and the top rung's
    rent is a step or two: the path reaches the chain, whose top is found by jumps.
    (Before, the agent's top rung's tree decided, grown up the whole
    chain: ``n * m``.)"""
    return _ladders(n, [("Key", "key")])


def _ladders(n: int, pairs: List[Tuple[str, str]]) -> Generated:
    """Families 35 and 38: ``rung_ladders`` with a tool atop the chain for
    each of ``pairs`` (its label first) and, at every agent, its twin."""
    m, t = 10 * n, len(pairs)
    wm, w = _width(m), _width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    tops = ["t"] if t == 1 else [f"t{j}" for j in range(t)]
    nodes = [_box(c) for c in chain] + [_tool(top, label) for top, (label, _) in zip(tops, pairs)]
    nodes += [_box("Q"), _tool("k0", "Q k"), _tool("k1", "q-k")]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(m - 1)]
    edges += [_edge(top, chain[0]) for top in tops] + [_edge("k0", "Q"), _edge("k1", "Q")]
    for g in range(n):
        s = f"{g:0{w}}"
        above = chain[-1]
        for k in range(RUNGS):
            rung = f"r{s}-{k:02}"
            nodes.append(_box(rung))
            edges += [_edge(above, rung), _edge("Q", rung)]
            above = rung
        twins = [f"e{s}"] if t == 1 else [f"e{s}-{j}" for j in range(t)]
        nodes += [_agent(f"a{s}")] + [_tool(e, twin) for e, (_, twin) in zip(twins, pairs)]
        edges += [_edge(above, f"a{s}")] + [_edge(e, f"a{s}") for e in twins]
    zero = f"{0:0{w}}"
    first_twin = f"e{zero}" if t == 1 else f"e{zero}-0"
    expected = _expected(
        (t + 1) * n, t * n + 1, (f"a{zero}", "key" if t == 1 else "key_0", (first_twin, tops[0])),
        m + 3 + t + (RUNGS + 1 + t) * n, m + 1 + t + (2 * RUNGS + 1 + t) * n, n, m + 1 + RUNGS * n,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


CROWD = 5
"""Family 38: one more tool than a root passes on the paths of beyond the
free passes (paths.rs ``TOOLS_PASSED_ON``)."""


def crowded_ladders(n: int) -> Generated:
    """Family 38: family 35 with ``CROWD`` tools ``t{j}`` "Key j" atop the
    chain, each with a twin ``e{g}-{j}`` "key-j" at every agent: ``6 * n``
    violations, ``5 * n + 1`` clashes.

    It broke a budget of 4 distinct tools' paths passed on at a root past
    the free passes, after which the root's tree decided: the fifth tool's
    path grew the agent's top rung's tree up the whole chain, ``n * m``
    from a file of ``17 * n`` rungs and ``m`` boxes. A root past the free
    passes now passes paths on for rent instead (paths.rs ``Paths::path``,
    ``pay_rent``: the work done since, by which its tree is grown), so the
    rungs, whose tools
    climb one step past them, never need their trees."""
    return _ladders(n, [(f"Key {j}", f"key-{j}") for j in range(CROWD)])


def distinct_sides(n: int) -> Generated:
    """Family 36: family 28 with its 16 side boxes each a class of its
    own: boxes ``c0..c{m-1}`` chained, ``m = 10 * n``, ``c{m-1}`` wired
    into ``n`` agents ``a{g}``; 16 boxes ``S00..S15``, each holding a
    clashing pair of its own (``S{j}p`` "S j k", ``S{j}q`` "S j-k"), each
    wired into every agent; tool ``t{g}`` "Tool g" wired into ``c0`` and
    its twin ``e{g}`` "tool-g" straight into ``a{g}``. Every agent sees
    the 16 pairs and ``tool_g``: ``17 * n`` violations, ``n + 16``
    clashes.

    Each agent is a path root with 17 provider boxes of 17 distinct
    classes, one more than are asked for free whether they carry a tool
    (paths.rs ``CARRIERS_LOOKED_UP``, ``carriers_of``; family 28's 16 side
    boxes were one class, so only two were asked). Beyond, a root asks
    them for rent (the work done since, by which its tree is grown), which
    the path of ``t{g}``, passed on to the chain, hardly costs. (Before,
    the agent's tree decided, grown breadth first up the whole chain,
    ``m`` steps per agent, when renames were chosen in the check and again
    on reading: ``n * m``.)"""
    m = 10 * n
    wm, w = _width(m), _width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    sides = [f"S{j:02}" for j in range(SIDES)]
    nodes = [_box(c) for c in chain] + [_box(x) for x in sides]
    edges = [_edge(chain[i], chain[i + 1]) for i in range(m - 1)]
    for j, x in enumerate(sides):
        nodes += [_tool(f"{x}p", f"S {j:02} k"), _tool(f"{x}q", f"S {j:02}-k")]
        edges += [_edge(f"{x}p", x), _edge(f"{x}q", x)]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"t{s}", f"Tool {s}"), _tool(f"e{s}", f"tool-{s}")]
        edges += [_edge(f"t{s}", chain[0]), _edge(f"e{s}", f"a{s}"), _edge(chain[-1], f"a{s}")]
        edges += [_edge(x, f"a{s}") for x in sides]
    zero = f"{0:0{w}}"
    expected = _expected(
        (SIDES + 1) * n, n + SIDES, (f"a{zero}", "s_00_k", ("S00p", "S00q")), m + 3 * SIDES + 3 * n,
        m - 1 + 2 * SIDES + (3 + SIDES) * n, n, m + SIDES,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def split_chains(n: int) -> Generated:
    """Family 39: two chains of ``m = 10 * n`` boxes, ``ca0..`` and
    ``cb0..``, tool ``t`` "Key" wired into the top of both; ``n`` agents
    ``a{g}``, each fed by a box ``x{g}`` below the first chain's end and a
    box ``y{g}`` below the second's, and by its tool ``e{g}`` "key". Each
    agent sees ``key`` (``e{g}``, ``t``): ``n`` violations, ``n`` clashes.

    Both of an agent's provider boxes carry ``t``, from different boxes
    above, so no one box decides: the path of ``t`` was read off the
    agent's tree, grown breadth first up both chains to their tops
    (paths.rs ``Tree::first_step``), ``2 * m`` steps for each agent, ``n *
    m`` from a file of ``n`` agents and ``m`` boxes. Now each carrying
    provider's own path is found (by jumps up its chain) and the two
    compared chain by chain (``Paths::nearest_carrier``,
    ``walked_before``): equally long, ``ca0`` comes first by id."""
    m = 10 * n
    wm, w = _width(m), _width(n)
    first, second = [f"ca{i:0{wm}}" for i in range(m)], [f"cb{i:0{wm}}" for i in range(m)]
    nodes = [_box(c) for c in first + second] + [_tool("t", "Key")]
    edges = [_edge(c[i], c[i + 1]) for c in (first, second) for i in range(m - 1)]
    edges += [_edge("t", first[0]), _edge("t", second[0])]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_box(f"x{s}"), _box(f"y{s}"), _agent(f"a{s}"), _tool(f"e{s}", "key")]
        edges += [_edge(first[-1], f"x{s}"), _edge(second[-1], f"y{s}")]
        edges += [_edge(f"x{s}", f"a{s}"), _edge(f"y{s}", f"a{s}"), _edge(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(n, n, (f"a{zero}", "key", (f"e{zero}", "t")), 2 * m + 1 + 4 * n, 2 * m + 5 * n, n, 2 * m + 2 * n)
    return Generated(_document(nodes, edges), expected)


def ladder_taps(n: int) -> Generated:
    """Family 40: a ladder of ``n`` boxes ``r0..r{n-1}`` chained ``r{i-1}
    -> r{i}``, tool ``t`` "Key" wired into ``r0``; a box ``Q`` holding a
    clashing pair (``k0`` "Q k", ``k1`` "q-k") wired into every rung;
    agent ``a{i}`` fed by rung ``r{i}`` alone, with its tool ``e{i}`` "key"
    straight in. Each agent sees ``key`` (``e{i}``, ``t``) and ``q_k``:
    ``2 * n`` violations, ``n + 1`` clashes.

    Every rung but the first is a path root of two classes, and the path
    of ``t`` to ``a{i}`` climbs ``i`` of them, a chain each: past the free
    passes, rent grows the trees of the roots just above each agent's, and
    each tree is read (its jumps made) by the few agents below it before
    another, nearer one is whole: ``n * n / 64`` or so, from a file of
    ``n`` rungs. Paths that share their common part (each agent's the one
    above's plus a step, held as a random-access list) would keep it
    linear; they are not built. (Found by a helper with fresh eyes.)"""
    w = _width(n)
    rungs = [f"r{i:0{w}}" for i in range(n)]
    nodes = [_box("Q"), _tool("k0", "Q k"), _tool("k1", "q-k"), _tool("t", "Key")]
    edges = [_edge("k0", "Q"), _edge("k1", "Q"), _edge("t", rungs[0])]
    for i, rung in enumerate(rungs):
        s = f"{i:0{w}}"
        nodes += [_box(rung), _agent(f"a{s}"), _tool(f"e{s}", "key")]
        edges += [_edge("Q", rung)] + ([_edge(rungs[i - 1], rung)] if i else [])
        edges += [_edge(rung, f"a{s}"), _edge(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(2 * n, n + 1, (f"a{zero}", "key", (f"e{zero}", "t")), 3 * n + 4, 4 * n + 2, n, n + 1)
    return Generated(_document(nodes, edges), expected)


TAKING_TURNS = 5
"""Family 41: ladders whose agents take turns, two trees each, more than
the 8 trees kept (paths.rs ``TREES_KEPT``)."""


def evicted_ladders(n: int) -> Generated:
    """Family 41: ``k = 5`` ladders of ``n`` boxes each, ``r{j}-0..``
    chained, tool ``t`` "Key" wired into each ladder's top; a box ``Q``
    holding a clashing pair (``k0`` "Q k", ``k1`` "q-k") wired into every
    rung; ``n`` agents ``a{g}``, agent ``g`` fed by the bottom rung of
    ladder ``g mod 5``, with its tool ``e{g}`` "key" straight in:
    ``2 * n`` violations, ``n + 1`` clashes.

    Each ladder's agents are read off one tree that rent makes whole, but
    the agents take turns between the ladders, each also reading a tree of
    its own: more trees in turn than are kept, so a whole tree was always
    gone when the ladder's next agent came, which climbed the whole ladder
    again, ``n * n / 5``. Trees that rent made whole are now kept for
    good. (Found by a helper with fresh eyes.)"""
    k, w = TAKING_TURNS, _width(n)
    nodes = [_box("Q"), _tool("k0", "Q k"), _tool("k1", "q-k"), _tool("t", "Key")]
    edges = [_edge("k0", "Q"), _edge("k1", "Q")]
    for j in range(k):
        ladder = [f"r{j}-{i:0{w}}" for i in range(n)]
        nodes += [_box(rung) for rung in ladder]
        edges += [_edge("Q", rung) for rung in ladder] + [_edge(a, b) for a, b in zip(ladder, ladder[1:])]
        edges.append(_edge("t", ladder[0]))
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"e{s}", "key")]
        edges += [_edge(f"r{g % k}-{n - 1:0{w}}", f"a{s}"), _edge(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(
        2 * n, n + 1, (f"a{zero}", "key", (f"e{zero}", "t")), 4 + k * n + 2 * n, 2 + 2 * k * n + 2 * n, n, k * n + 1
    )
    return Generated(_document(nodes, edges), expected)


WIDE_ROOTS = 9
"""Family 42: one more wide root taking turns than trees are kept."""


def wide_thrash(n: int) -> Generated:
    """Family 42: a box ``C`` holding tool ``t`` "Key"; ``n`` side boxes
    ``S{i}``, each holding a tool ``s{i}`` "S i" whose twin ``z{i}`` "s-i"
    goes straight into an agent ``Z`` (so each side box matters and is a
    class of its own); 9 boxes ``R{j}``, each fed by ``C`` and every
    ``S{i}``; ``n`` agents ``a{g}``, agent ``g`` fed by ``R{g mod 9}``,
    with its tool ``e{g}`` "key" straight in: ``n`` violations, ``n``
    clashes.

    Each ``R{j}`` is a root of ``n + 1`` classes, so passing ``t`` on asks
    them all; rent makes its tree whole, but 9 roots in turn through the 8
    trees kept evicted each before its next agent, which asked the ``n +
    1`` classes again: ``n * n``. Trees that rent made whole are now kept
    for good. (Found by a helper with fresh eyes.)"""
    w = _width(n)
    nodes = [_box("C"), _tool("t", "Key"), _agent("Z")]
    edges = [_edge("t", "C")]
    sides = [f"S{i:0{w}}" for i in range(n)]
    for i, side in enumerate(sides):
        s = f"{i:0{w}}"
        nodes += [_box(side), _tool(f"s{s}", f"S {i}"), _tool(f"z{s}", f"s-{i}")]
        edges += [_edge(f"s{s}", side), _edge(f"z{s}", "Z")]
    for j in range(WIDE_ROOTS):
        nodes.append(_box(f"R{j}"))
        edges += [_edge("C", f"R{j}")] + [_edge(side, f"R{j}") for side in sides]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [_agent(f"a{s}"), _tool(f"e{s}", "key")]
        edges += [_edge(f"R{g % WIDE_ROOTS}", f"a{s}"), _edge(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    k = WIDE_ROOTS
    expected = _expected(
        n, n, (f"a{zero}", "key", (f"e{zero}", "t")), 3 + 3 * n + k + 2 * n, 1 + 2 * n + k + k * n + 2 * n, n + 1,
        1 + n + k,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


STRANDS = 33
"""Family 43: one more provider bringing a tool from a chain of its own
than paths of carrying providers a path finds (paths.rs
``CANDIDATE_PATHS``)."""


def wide_splits(n: int) -> Generated:
    """Family 43: 33 chains of ``n`` boxes each, ``c{j}-0..``, tool ``t``
    "Key" wired into every chain's top; ``n`` agents ``a{g}``, each fed by
    33 boxes ``x{g}-{j}`` of its own, box ``x{g}-{j}`` below chain
    ``j``'s end, and by its tool ``e{g}`` "key": ``n`` violations, ``n``
    clashes.

    Each agent is a root whose 33 providers all bring ``t`` from different
    boxes above: one more than the 32 carrying providers' paths a path
    finds (``Paths::nearest_carrier``), so the agent's tree decides, grown
    breadth first up all 33 chains: ``33 * n`` steps for each agent, ``33
    * n * n`` from a file of ``66 * n`` boxes. Trees that cross a chain as
    one step would keep it linear; they are not built. (Found while
    attacking ``nearest_carrier``.)"""
    w = _width(n)
    nodes = [_tool("t", "Key")]
    edges: List[str] = []
    for j in range(STRANDS):
        chain = [f"c{j:02}-{i:0{w}}" for i in range(n)]
        nodes += [_box(b) for b in chain]
        edges += [_edge(a, b) for a, b in zip(chain, chain[1:])] + [_edge("t", chain[0])]
    for g in range(n):
        s = f"{g:0{w}}"
        own = [f"x{s}-{j:02}" for j in range(STRANDS)]
        nodes += [_agent(f"a{s}"), _tool(f"e{s}", "key")] + [_box(x) for x in own]
        edges += [_edge(f"c{j:02}-{n - 1:0{w}}", x) for j, x in enumerate(own)]
        edges += [_edge(x, f"a{s}") for x in own] + [_edge(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    k = STRANDS
    expected = _expected(
        n, n, (f"a{zero}", "key", (f"e{zero}", "t")), 1 + k * n + (2 + k) * n, k * (n - 1) + k + (2 * k + 1) * n, n,
        k * n + k * n,
    )  # fmt: skip
    return Generated(_document(nodes, edges), expected)


def held_bases(n: int) -> Generated:
    """Family 37: boxes ``I1`` and ``I2`` of ``n`` tools each, ``p{j}``
    "K j" in ``I1`` and ``q{j}`` "k-j" in ``I2``; box ``F`` fed by both (the
    clashes form there); ``n`` agents ``a{k}``, each wired to ``I1``, ``I2``
    and a box ``R{k}`` of its own, fed by ``F`` (so it holds every clash
    whole) and holding a clashing pair of its own, ``x{k}`` "Z k" and
    ``y{k}`` "z-k". Every agent sees the ``n`` clashes and its own pair:
    ``n * (n + 1)`` violations, ``2 * n`` clashes.

    Each agent's inputs are a distinct combination, so they are joined
    anew (build.rs ``join_inputs``); ``R{k}`` holds the most clashes, so the
    union starts from it, and ``I1`` and ``I2``, which it holds whole, are
    each unioned into it word by word (``Sets::union``): ``n / 64`` words
    visited per agent, ``n * n / 64`` from a file of ``n`` agents and ``n``
    pairs. Starting from the shared base ``I1``, ``I2`` instead would cost
    each agent one step (``R{k}`` is the base's very nodes where the clashes
    are), but the base's clashes, which form only in ``F``, would stay
    pending and be told again for every agent (``base_affordable`` stops
    that after a few agents)."""
    w = _width(n)
    nodes = [_box("I1"), _box("I2"), _box("F")]
    edges = [_edge("I1", "F"), _edge("I2", "F")]
    for j in range(n):
        s = f"{j:0{w}}"
        nodes += [_tool(f"p{s}", f"K {s}"), _tool(f"q{s}", f"k-{s}")]
        edges += [_edge(f"p{s}", "I1"), _edge(f"q{s}", "I2")]
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [_agent(f"a{s}"), _box(f"R{s}"), _tool(f"x{s}", f"Z {s}"), _tool(f"y{s}", f"z-{s}")]
        edges += [_edge("I1", f"a{s}"), _edge("I2", f"a{s}"), _edge("F", f"R{s}"), _edge(f"R{s}", f"a{s}")]
        edges += [_edge(f"x{s}", f"R{s}"), _edge(f"y{s}", f"R{s}")]
    zero = f"{0:0{w}}"
    expected = _expected(
        n * (n + 1), 2 * n, (f"a{zero}", f"k_{zero}", (f"p{zero}", f"q{zero}")), 3 + 6 * n, 2 + 8 * n, n, 3 + n
    )
    return Generated(_document(nodes, edges), expected)


FAMILIES: Dict[str, Family] = {
    f.name: f
    for f in (
        Family("private-roots-chain", 1, "a chain of n boxes ending in a clashing pair; n agents, each behind a "
               "private box fed by the chain's head", (16_000,), 200, 1, private_roots_chain),
        Family("private-roots-box", 2, "a box of n/2 clashing pairs; n agents, each behind a private box it feeds",
               (8_000,), 100, 2, private_roots_box),
        Family("private-roots-few", 3, "a box of n distinct names, each with a twin in an orphan box, and one "
               "clashing pair; n agents, each behind a private box it feeds", (8_000,), 200, 1, private_roots_few),
        Family("distinct-subsets", 4, "20 boxes of n/31 clashing pairs each; n agents, each wired to a different "
               "5-box subset", (15_504,), 155, 1, distinct_subsets),
        Family("hub-pair", 5, "a clashing pair wired into n boxes; box j -> a private box -> agent j",
               (20_000, 60_000), 200, 1, hub_pair),
        Family("long-ids", 6, "one agent, n tools all labelled X, ids sharing an 80-character prefix",
               (8_000,), 100, 2, long_ids),
        Family("many-small-boxes", 7, "n boxes of one uniquely named tool each, a clashing pair in box 0, every "
               "box wired into one agent", (30_000, 100_000), 300, 1, many_small_boxes),
        Family("roaming-ring", 9, "n boxes into one agent, box i holding a tool named i and one named i+1 (mod n): "
               "n names each clashing only at the agent, each from two boxes", (8_000,), 200, 2, roaming_ring),
        Family("subsets-interleaved", 10, "family 4 with each pair's label naming the pair before the box, so the "
               "boxes' pairs interleave in name order", (7_752, 15_504), 155, 1, subsets_interleaved),
        Family("giant-chain", 11, "a chain of n boxes into one agent, box i holding tool i, every tool labelled X",
               (16_000, 32_000), 200, 2, giant_chain),
        Family("deep-roots", 12, "a chain of n boxes feeding n agents; tool g into the chain's top, its twin "
               "straight into agent g", (8_000,), 100, 1, deep_roots),
        Family("chain-of-pairs", 13, "n clashing pairs atop a chain of n boxes into one agent", (8_000,), 100, 1,
               chain_of_pairs),
        Family("one-box-wide", 14, "n tools all labelled X in one box, wired into one agent", (16_000,), 100, 2,
               one_box_wide),
        Family("far-consumers", 15, "n boxes of one clashing pair, box g wired into agent g and into one agent "
               "whose id sorts last", (8_000,), 100, 1, far_consumers),
        Family("forked-roots", 16, "a chain of n boxes feeding n agents; tool g into the chain's top, its twin into "
               "a box of agent g's own", (4_000,), 100, 1, forked_roots),
        Family("hub-tool", 17, "one tool X wired into n boxes; box j and a box of its own holding a tool x feed "
               "agent j", (8_000,), 100, 1, hub_tool),
        Family("entry-walk", 18, "a chain of n boxes into one agent, box i holding a tool X; n clashing pairs into "
               "the chain's top, each tool also wired into 8 boxes that reach no consumer", (3_000,), 40, 2, entry_walk),
        Family("subsets-shared", 19, "family 10 with one more tool in every box, all of them labelled Shared",
               (7_752,), 155, 1, subsets_shared),
        Family("parts-chain", 20, "17 boxes of n interleaved clashing pairs atop a chain of n boxes into one agent, "
               "each box of the chain with a clashing pair of its own", (1_000,), 20, 1, parts_chain),
        Family("parts-fan", 21, "17 boxes of n interleaved clashing pairs into one box; n agents fed by it, each "
               "with a clashing pair of its own", (1_000,), 20, 1, parts_fan),
        Family("pair-parts", 22, "k boxes of k interleaved clashing pairs, k the fewest with C(k, 2) >= n; n "
               "agents, each wired to a different pair of boxes", (10_000,), 100, 1, pair_parts),
        Family("giant-taps", 23, "a chain of n boxes, box i holding tool i, every tool labelled X, and wired into "
               "agent i", (2_000,), 100, 2, giant_taps),
        Family("solo-union", 24, "two boxes of n tools each, tool i of one and of the other sharing a name; n agents "
               "wired to both, each with a tool Solo of its own", (5_000,), 100, 1, solo_union),
        Family("solo-dozen", 25, "12 boxes of n interleaved clashing pairs; n agents wired to all 12, each with a "
               "tool Solo of its own", (1_000,), 20, 1, solo_dozen),
        Family("solo-cap", 26, "17 boxes of n / 4 interleaved clashing pairs, 16 of them into one box; n agents fed "
               "by it and by the 17th, each with a tool Solo of its own", (2_000,), 40, 1, solo_cap),
        Family("root-ladder", 27, "a chain of n boxes into one agent, box i also fed by a box of its own holding a "
               "clashing pair", (2_000,), 40, 1, root_ladder),
        Family("wide-roots", 28, "a chain of 10n boxes into n agents, each also fed by the same 16 boxes; tool g "
               "atop the chain, its twin straight into agent g", (1_000,), 20, 1, wide_roots),
        Family("far-eleventh", 29, "n boxes of one clashing pair, box i wired into agents i to i + 9 and into one "
               "agent whose id sorts last", (4_000,), 50, 1, far_eleventh),
        Family("twin-carriers", 30, "a chain of 10n boxes into two boxes of a clashing pair each, both into n "
               "agents; tool g atop the chain, its twin straight into agent g", (2_000,), 20, 1, twin_carriers),
        Family("solo-boxes", 31, "two boxes of n tools each, tool i of one and of the other sharing a name; n "
               "agents wired to both, each also fed by a box of its own holding a clashing pair", (5_000,), 20, 1,
               solo_boxes),
        Family("entry-fan", 32, "a chain of n boxes, each with a leaf of its own, into n agents; a tool wired into "
               "the chain's top and into n dead boxes, its twin straight into every agent", (8_000,), 20, 1, entry_fan),
        Family("orphan-parts", 33, "16 boxes of n interleaved tools whose twins reach another agent, into one box; n "
               "agents fed by it and by a box of their own holding a clashing pair", (1_000,), 20, 1, orphan_parts),
        Family("nine-roots", 34, "a chain of 10n boxes into nine roots, each through two boxes of a clashing pair "
               "each; agent g below root g mod 9; tool g atop the chain, its twin straight into agent g", (3_200,),
               20, 1, nine_roots),
        Family("rung-ladders", 35, "a chain of 10n boxes; n agents, each below a ladder of 17 boxes of its own, every "
               "rung also fed by one box of a clashing pair; a tool atop the chain, its twin at every agent",
               (800,), 20, 1, rung_ladders),
        Family("distinct-sides", 36, "a chain of 10n boxes into n agents, each also fed by the same 16 boxes of a "
               "clashing pair each; tool g atop the chain, its twin straight into agent g", (1_000,), 20, 1,
               distinct_sides),
        Family("held-bases", 37, "two boxes of n tools each, tool i of one and of the other sharing a name, both into "
               "a box F; n agents wired to both, each also fed by a box of its own fed by F and holding a clashing "
               "pair", (4_000,), 20, 1, held_bases),
        Family("crowded-ladders", 38, "family 35 with 5 tools atop the chain, each with a twin at every agent",
               (800,), 20, 1, crowded_ladders),
        Family("split-chains", 39, "two chains of 10n boxes, a tool atop both; n agents, each fed by a box below "
               "each chain's end and by the tool's twin", (1_000,), 20, 1, split_chains),
        Family("ladder-taps", 40, "a ladder of n boxes, a tool atop it and a clashing pair's box into every rung; "
               "agent i fed by rung i alone, with the tool's twin", (8_000,), 20, 1, ladder_taps),
        Family("evicted-ladders", 41, "5 ladders of n boxes, a tool atop each, a clashing pair's box into every rung; "
               "n agents, agent g fed by ladder g mod 5's bottom, with the tool's twin", (2_000,), 20, 1,
               evicted_ladders),
        Family("wide-thrash", 42, "a box of a tool and n side boxes of one tool each, all into 9 boxes; n agents, "
               "agent g fed by box g mod 9, with the tool's twin", (2_000,), 20, 1, wide_thrash),
        Family("wide-splits", 43, "33 chains of n boxes, a tool atop each; n agents, each fed by a box of its own "
               "below each chain's end, and by the tool's twin", (300,), 20, 1, wide_splits),
    )
}  # fmt: skip
"""The families, by name, in the issue's order, then those found since (numbered from 9 on)."""


@dataclass(frozen=True)
class FormatMeasurement:
    """Family 8 of the issue: ``toolwire check --format F`` (default options)
    on another family's workflow, timed and its peak memory measured."""

    number: int
    family: str
    size: int
    small: int
    formats: Tuple[str, ...]
    seconds_target: float
    rss_target: int
    """Bytes."""


FORMAT_MEASUREMENT = FormatMeasurement(
    number=8,
    family="private-roots-box",
    size=2_000,  # 2,000,000 violations in 1,000 clashes
    small=40,  # 800 violations in 20 clashes
    formats=("text", "json", "sarif", "github", "junit"),
    seconds_target=10.0,
    rss_target=400_000_000,
)
