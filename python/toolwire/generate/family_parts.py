"""Worst-case families of inputs held as parts: boxes whose names
interleave, so that a class wired to several of them holds them apart
rather than uniting them word by word, and the ways such parts meet
(families 49 to 52, found by the second attack of issue 20), and rings
of such boxes (59; 64 to 67, found by the attack of session 28, past
what build.rs ``paired`` pairs)."""

from __future__ import annotations

import functools
from itertools import combinations, islice
from typing import Dict, List, Set, Tuple

from .family_base import Generated, agent_record, box_record, document, edge_record, family_expected, tool_record

_Records = Tuple[List[str], List[str]]


def _pair_boxes(boxes: int, pairs: int) -> _Records:
    """``boxes`` boxes ``B{j}`` of ``pairs`` clashing pairs each, names
    interleaved across the boxes in name order: pair ``k`` of box ``j`` is
    ``p{j}_{k}_0`` "t{k} x{j}" and ``p{j}_{k}_1`` "T{k}-X{j}" (name
    ``t{k}_x{j}``)."""
    nodes: List[str] = []
    edges: List[str] = []
    for j in range(boxes):
        nodes.append(box_record(f"B{j:02}"))
        for k in range(pairs):
            for side, label in ((0, f"t{k:05} x{j:02}"), (1, f"T{k:05}-X{j:02}")):
                nodes.append(tool_record(f"p{j:02}_{k:05}_{side}", label))
                edges.append(edge_record(f"p{j:02}_{k:05}_{side}", f"B{j:02}"))
    return nodes, edges


def _own_pair(i: int, into: str) -> _Records:
    """A clashing pair ``o{i}a`` "own i", ``o{i}b`` "Own i" wired into ``into``."""
    return (
        [tool_record(f"o{i:05}a", f"own {i:05}"), tool_record(f"o{i:05}b", f"Own {i:05}")],
        [edge_record(f"o{i:05}a", into), edge_record(f"o{i:05}b", into)],
    )


def dozen_own(n: int) -> Generated:
    """Family 49: 12 boxes of ``n // 4`` interleaved clashing pairs; ``n``
    agents ``a{i}``, each wired to all 12 and to a box ``P{i}`` of its own
    holding a clashing pair of its own. Each agent sees every pair and its
    own: ``n * (12 * n // 4 + 1)`` violations, ``12 * n // 4 + n`` clashes.

    The 12 boxes are held as parts, and each agent joins its 13 inputs at
    once: 78 pairs of parts, more than are compared pair by pair, so where
    the parts meet was found by walking every word of all 12 for every
    agent (build.rs ``meeting_words``): ``n * n / 64``."""
    pairs = n // 4
    nodes, edges = _pair_boxes(12, pairs)
    for i in range(n):
        a, p = f"a{i:05}", f"P{i:05}"
        nodes += [agent_record(a), box_record(p)]
        edges += [edge_record(f"B{j:02}", a) for j in range(12)] + [edge_record(p, a)]
        own_nodes, own_edges = _own_pair(i, p)
        nodes += own_nodes
        edges += own_edges
    expected = family_expected(
        n * (12 * pairs + 1),
        12 * pairs + n,
        ("a00000", "own_00000", ("o00000a", "o00000b")),
        12 + 24 * pairs + 4 * n,
        24 * pairs + 15 * n,
        n,
        12 + n,
    )
    return Generated(document(nodes, edges), expected)


ALL_TENS = list(combinations(range(20), 10))
"""Every 10-subset of 20 boxes, in order; agent ``i`` of ``shared-word``
takes number ``i * 7919`` modulo their count (7919 is prime to it, so no
two agents take the same, and neighbours differ in most boxes)."""


def shared_word(n: int) -> Generated:
    """Family 50: 20 boxes of ``n // 4`` interleaved clashing pairs, each
    also holding a tool ``s{j}`` "Shared"; ``n`` agents, each wired to a
    different 10-subset of the boxes (``ALL_TENS``). Each agent sees its
    boxes' pairs and a clash of its 10 "Shared" tools: ``n * (10 * n // 4 +
    1)`` violations; clashes: the pairs of the boxes used, and one "shared"
    clash per agent (each a different set of tools).

    The 10 boxes are held as parts, compared pair by pair (45 pairs): every
    pair meets at the one word of "Shared", which was counted once per pair
    (45, more than 4 for each of 10 parts), so the parts were taken to meet
    at many words and every agent united its 10 inputs word by word
    (build.rs ``meeting_words``): ``n * n / 64``."""
    pairs = n // 4
    nodes, edges = _pair_boxes(20, pairs)
    for j in range(20):
        nodes.append(tool_record(f"s{j:02}", "Shared"))
        edges.append(edge_record(f"s{j:02}", f"B{j:02}"))
    used: Set[int] = set()
    first: Tuple[int, ...] = ()
    for i in range(n):
        subset = ALL_TENS[i * 7919 % len(ALL_TENS)]
        first = first or subset
        used.update(subset)
        nodes.append(agent_record(f"a{i:05}"))
        edges += [edge_record(f"B{j:02}", f"a{i:05}") for j in subset]
    expected = family_expected(
        n * (10 * pairs + 1),
        len(used) * pairs + n,
        ("a00000", "shared", tuple(f"s{j:02}" for j in first)),
        20 + 20 * (2 * pairs + 1) + n,
        20 * (2 * pairs + 1) + 10 * n,
        n,
        20,
    )
    return Generated(document(nodes, edges), expected)


LINKS = 5
"""Clashing pairs per box in ``linked-boxes``, one in each of 5 blocks of names."""


def linked_boxes(n: int) -> Generated:
    """Family 51: one agent ``agent`` wired to ``n`` boxes ``b{j}``. Box
    ``j`` holds 5 clashing pairs, ``p{j}_{q}`` "t{q} b{j}" and ``P{j}_{q}``
    "T{q}-B{j}", one in each of 5 blocks of names (the boxes' names
    interleave, so they are held as parts), and a tool ``l{j}`` "t{j % 5}
    b{j} z", whose twin ``m{j}`` "T{j % 5}-B{j}-Z" is in box ``j + 1``: the
    parts meet, each with its neighbour, at some ``n / 5`` words. The agent
    sees ``5 * n + n - 1`` violations, each its own clash.

    Joining the one class combined every word where parts meet over every
    part and took every such word out of every part (build.rs ``join``):
    ``n * n / 5``."""
    w = len(str(max(n - 1, 0)))
    nodes: List[str] = []
    edges: List[str] = []
    for j in range(n):
        s = f"{j:0{w}}"
        nodes.append(box_record(f"b{s}"))
        for q in range(LINKS):
            nodes += [tool_record(f"p{s}_{q}", f"t{q} b{s}"), tool_record(f"P{s}_{q}", f"T{q}-B{s}")]
            edges += [edge_record(f"p{s}_{q}", f"b{s}"), edge_record(f"P{s}_{q}", f"b{s}")]
        nodes.append(tool_record(f"l{s}", f"t{j % LINKS} b{s} z"))
        edges.append(edge_record(f"l{s}", f"b{s}"))
        if j:
            before = f"{j - 1:0{w}}"
            nodes.append(tool_record(f"m{before}", f"T{(j - 1) % LINKS}-B{before}-Z"))
            edges.append(edge_record(f"m{before}", f"b{s}"))
    nodes.append(agent_record("agent"))
    edges += [edge_record(f"b{j:0{w}}", "agent") for j in range(n)]
    zero = f"{0:0{w}}"
    expected = family_expected(
        6 * n - 1, 6 * n - 1, ("agent", f"t0_b{zero}", (f"P{zero}_0", f"p{zero}_0")), 13 * n, 13 * n - 1, 1, n
    )
    return Generated(document(nodes, edges), expected)


def parts_read(n: int) -> Generated:
    """Family 52: 16 boxes ``B{j}`` of ``n // 16`` tools ``u{j}_{k}`` "u{k}
    x{j}" each (names interleaved), their twins ``v{j}_{k}`` "U{k}-X{j}" in a
    box ``Z``; agent ``zz`` wired to ``Z`` and to all 16 (a clash of each
    name there); a hub ``H`` fed by 15 of the boxes; ``n`` agents ``a{i}``,
    each wired to ``H``, to a box ``C`` of a clashing pair all share, and to
    a box ``P{i}`` of its own holding a clashing pair of its own: ``16 *
    (n // 16) + 2 * n`` violations, ``16 * (n // 16) + 1 + n`` clashes.

    Every agent is a class held as parts (``H``'s 15 boxes interleave); the
    check counts them linearly, but reading every violation combined each
    agent's parts' words to find its clashes (read.rs ``part_words``):
    ``n * n / 64``."""
    per = n // 16
    nodes = [box_record(f"B{j:02}") for j in range(16)] + [box_record(b) for b in ("Z", "H", "C")]
    nodes += [agent_record("zz"), tool_record("c0", "Common"), tool_record("c1", "common")]
    edges = [edge_record("c0", "C"), edge_record("c1", "C"), edge_record("Z", "zz")]
    for j in range(16):
        edges.append(edge_record(f"B{j:02}", "zz"))
        if j < 15:
            edges.append(edge_record(f"B{j:02}", "H"))
        for k in range(per):
            u, v = f"u{j:02}_{k:05}", f"v{j:02}_{k:05}"
            nodes += [tool_record(u, f"u{k:05} x{j:02}"), tool_record(v, f"U{k:05}-X{j:02}")]
            edges += [edge_record(u, f"B{j:02}"), edge_record(v, "Z")]
    for i in range(n):
        a, p = f"a{i:05}", f"P{i:05}"
        nodes += [agent_record(a), box_record(p)]
        edges += [edge_record("H", a), edge_record("C", a), edge_record(p, a)]
        own_nodes, own_edges = _own_pair(i, p)
        nodes += own_nodes
        edges += own_edges
    expected = family_expected(
        16 * per + 2 * n,
        16 * per + 1 + n,
        ("a00000", "common", ("c0", "c1")),
        22 + 32 * per + 4 * n,
        34 + 32 * per + 5 * n,
        n + 1,
        19 + n,
    )
    return Generated(document(nodes, edges), expected)


RING = 16
"""Boxes in ``ring-parts``."""

SUBSETS_TAKEN = 20_000
"""The subsets of boxes the ring families' agents choose among: every one,
or the first 20,000 in order where there are more (20,000 is prime to
7919, so no two of up to 20,000 agents take the same)."""


@functools.lru_cache(maxsize=None)
def ring_subsets(boxes: int, pick: int) -> Tuple[Tuple[int, ...], ...]:
    """The ``pick``-subsets of ``boxes`` boxes the agents of a ring choose
    among, in order; agent ``i`` takes number ``i * 7919`` modulo their
    count (12,870 for ``ring-parts``, every 8-subset of 16, prime to 7919)."""
    return tuple(islice(combinations(range(boxes), pick), SUBSETS_TAKEN))


ALL_EIGHTS = list(ring_subsets(RING, RING // 2))
"""Every 8-subset of the 16 boxes of ``ring-parts``, in order."""


def ring_parts(n: int) -> Generated:
    """Family 59: 16 boxes ``B{j}`` in a ring, ``n // 16`` rows of names:
    name ``c`` ("Ring c") is held by a tool in box ``c mod 16`` and one in
    the box before it, so neighbouring boxes share a name in every row and
    the names of all 16 interleave in every word; ``n`` agents, each wired
    to a different 8 of the boxes. An agent sees a row's name wherever it
    holds both boxes of it: violations ``n // 16`` for each pair of
    neighbours among each agent's boxes, one clash per name used.

    No box is a base the others share, and every pair of neighbours meets
    at every word, so each agent's 8 parts were walked word by word where
    they meet: ``n * n / 64`` words for ``n`` clashes (the general bound of
    mod.rs, reached with linearly many clashes)."""
    return _ring(n, RING, 2, RING // 2)


def ring_three(n: int) -> Generated:
    """Family 64: ``ring-parts`` with every name held by three neighbouring
    boxes (box ``c mod 16`` and the two before it): an agent sees a row's
    name wherever it holds two or three of its boxes, a clash for each
    such set of tools.

    A segment of words is held by three parts of a class, which build.rs
    ``paired`` does not pair, so the parts are united per class: ``n * n /
    64`` words for ``n`` clashes."""
    return _ring(n, RING, 3, RING // 2)


def ring_pairs(n: int) -> Generated:
    """Family 65: ``ring-parts`` of 20 boxes, ``n // 20`` rows, each agent
    wired to a different 12 of the first 20,000 12-subsets: 66 pairs of
    parts, more than a class looks up (build.rs ``paired``, 64), within 16
    parts, so the parts are united per class: ``n * n / 64`` words."""
    return _ring(n, 20, 2, 12)


def ring_wide(n: int) -> Generated:
    """Family 66: ``ring-parts`` of 24 boxes, ``n // 24`` rows, each agent
    wired to a different 18 of the first 20,000 18-subsets: more than 16
    parts and 64 pairs (build.rs ``paired``), so the parts are united per
    class: ``n * n / 64`` words."""
    return _ring(n, 24, 2, 18)


def ring_crowd(n: int) -> Generated:
    """Family 73: ``ring-parts`` of 20 boxes, ``n // 20`` rows, every name
    held by 17 neighbouring boxes, each agent wired to a different 10 of
    the first 20,000 10-subsets (found by the second attack of session 28).

    A segment of more than 16 holders (build.rs ``HOLDERS_MOST``) is not
    grouped by its holders, and two parts holding such a segment make the
    class unite its parts; but the distinct clashes grow as ``n * n`` too
    (a row's name is a clash of its own for each set of its holders an
    agent is wired to), and the check's work stays within what the cost
    model allows for them: 3.8x the work for 4.2x the clashes' tools."""
    return _ring(n, 20, 17, 10)


OWN = 24
"""Tools of its own each agent of ``ring-own`` holds."""


def ring_own(n: int) -> Generated:
    """Family 67: ``ring-parts`` with each agent ``a{i}`` also holding 24
    tools ``o{i}_{j}`` of its own, wired straight in, named like ring names
    spread evenly over the rows: tool ``j`` "Ring c", ``c = 16 * (j * rows
    // 24) + (i + j) mod 16``. Where an own tool's name is one the agent
    holds a box of, or another own tool has, it clashes there (a clash of
    that agent's alone).

    The class's own tools meet its inputs at many words, and are joined
    to the inputs' union once per combination (build.rs ``paired``): ``n *
    n / 64`` words."""
    return _ring(n, RING, 2, RING // 2, OWN)


def _ring(n: int, boxes: int, share: int, pick: int, own: int = 0) -> Generated:
    """``ring-parts`` with ``boxes`` boxes ``B{j}`` in a ring and ``n //
    boxes`` rows of names, name ``c`` held by a tool ``r{j}_{c}`` in box
    ``c mod boxes`` and in the ``share - 1`` boxes before it; ``n`` agents,
    agent ``i`` wired to subset ``i * 7919`` of ``ring_subsets(boxes,
    pick)`` and holding ``own`` tools of its own (see ``ring-own``).

    The expectation is counted off the construction, agent by agent: a
    row's name ``c`` is a violation at an agent holding two or more of its
    tools (``held``: the agent's boxes among the ``share`` holding ``c``,
    and its own tools named ``c``); its clash is the name and those tools,
    so clashes without own tools are shared between agents holding the
    same boxes of it, in every row where none of them has an own tool of
    that name."""
    rows = n // boxes
    nodes = [box_record(f"B{j:02}") for j in range(boxes)]
    edges: List[str] = []
    for j in range(boxes):
        for r in range(rows):
            for d in range(share):
                c = r * boxes + (j + d) % boxes
                nodes.append(tool_record(f"r{j:02}_{c:06}", f"Ring {c:06}"))
                edges.append(edge_record(f"r{j:02}_{c:06}", f"B{j:02}"))
    subsets = ring_subsets(boxes, pick)
    violations = 0
    own_clashes = 0
    # (column, boxes held of it) -> the rows, for each agent holding them, of
    # its own tools named in that column (those rows' clashes are its own).
    shared: Dict[Tuple[int, Tuple[int, ...]], List[Set[int]]] = {}
    first: Dict[int, Tuple[str, ...]] = {}
    for i in range(n):
        subset = subsets[i * 7919 % len(subsets)]
        a = f"a{i:05}"
        nodes.append(agent_record(a))
        edges += [edge_record(f"B{j:02}", a) for j in subset]
        named: Dict[int, List[str]] = {}  # name c -> own tools
        for j in range(own):
            c = (j * rows) // own * boxes + (i + j) % boxes
            nodes.append(tool_record(f"o{i:05}_{j:02}", f"Ring {c:06}"))
            edges.append(edge_record(f"o{i:05}_{j:02}", a))
            named.setdefault(c, []).append(f"o{i:05}_{j:02}")
        for m in range(boxes):
            held = tuple(j for j in subset if (m - j) % boxes < share)
            own_rows = {c // boxes for c in named if c % boxes == m}
            for c in (c for c in named if c % boxes == m):
                if len(held) + len(named[c]) >= 2:
                    violations += 1
                    own_clashes += 1
                    if i == 0:
                        first[c] = tuple(sorted(named[c] + [f"r{j:02}_{c:06}" for j in held]))
            if len(held) >= 2:
                violations += rows - len(own_rows)
                shared.setdefault((m, held), []).append(own_rows)
                if i == 0:
                    for r in set(range(rows)) - own_rows:
                        first[r * boxes + m] = tuple(f"r{j:02}_{r * boxes + m:06}" for j in held)
    # A shared clash is in every row but those where every agent holding its
    # boxes has an own tool of its name.
    clashes = own_clashes + sum(rows - len(set.intersection(*own_rows)) for own_rows in shared.values())
    c0 = min(first)
    expected = family_expected(
        violations, clashes, ("a00000", f"ring_{c0:06}", first[c0]), boxes + boxes * share * rows + n + own * n,
        boxes * share * rows + (pick + own) * n, n, boxes,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)
