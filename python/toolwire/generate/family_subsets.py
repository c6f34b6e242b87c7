"""The worst-case families of many boxes of clashing pairs seen by many agents, each agent's
set differing from the others' by the subset of the boxes it joins or by a tool or pair of
its own (families 4, 10, 19, 21, 22, 25, 26 and 33); most label the pairs so that the boxes'
pairs interleave in name order.

The registry, and the conventions every family follows, are in :mod:`.families`.
"""

from __future__ import annotations

import itertools
import math
from typing import List, Tuple

from .family_base import (
    Generated,
    agent_record,
    box_record,
    document,
    edge_record,
    family_expected,
    id_width,
    tool_record,
)


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
    wb, wp, wa = id_width(boxes), id_width(pairs), id_width(n)
    box_ids = [f"b{j:0{wb}}" for j in range(boxes)]
    nodes = [box_record(b) for b in box_ids]
    edges = []
    for j in range(boxes):
        for p in range(pairs):
            one, two = f"t{j:0{wb}}-{p:0{wp}}a", f"t{j:0{wb}}-{p:0{wp}}b"
            if interleaved:
                labels = f"Tool {p:0{wp}} {j:0{wb}}", f"tool-{p:0{wp}}-{j:0{wb}}"
            else:
                labels = f"Tool {j:0{wb}} {p:0{wp}}", f"tool-{j:0{wb}}-{p:0{wp}}"
            nodes += [tool_record(one, labels[0]), tool_record(two, labels[1])]
            edges += [edge_record(one, box_ids[j]), edge_record(two, box_ids[j])]
    if shared:
        nodes += [tool_record(f"s{j:0{wb}}", "Shared") for j in range(boxes)]
        edges += [edge_record(f"s{j:0{wb}}", b) for j, b in enumerate(box_ids)]
    agents = [f"a{k:0{wa}}" for k in range(n)]
    nodes += [agent_record(a) for a in agents]
    for agent, subset in zip(agents, itertools.combinations(box_ids, SUBSET)):
        edges += [edge_record(b, agent) for b in subset]
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
    expected = family_expected(
        SUBSET * n * pairs + clashes, used * pairs + clashes, first, boxes + 2 * boxes * pairs + n + tools,
        2 * boxes * pairs + SUBSET * n + tools, n, boxes,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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


def interleaved_boxes(boxes: int, pairs: int, nodes: List[str], edges: List[str]) -> List[str]:
    """Boxes ``b{j}``, each of ``pairs`` clashing pairs ``t{j}-{p}a`` "Tool
    p j" and ``t{j}-{p}b`` "tool-p-j" (family 10's), so that in name order
    the boxes' pairs interleave; their ids."""
    wb, wp = id_width(boxes), id_width(pairs)
    box_ids = [f"b{j:0{wb}}" for j in range(boxes)]
    nodes += [box_record(b) for b in box_ids]
    for j, b in enumerate(box_ids):
        for p in range(pairs):
            one, two = f"t{j:0{wb}}-{p:0{wp}}a", f"t{j:0{wb}}-{p:0{wp}}b"
            nodes += [tool_record(one, f"Tool {p:0{wp}} {j:0{wb}}"), tool_record(two, f"tool-{p:0{wp}}-{j:0{wb}}")]
            edges += [edge_record(one, b), edge_record(two, b)]
    return box_ids


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
    boxes = interleaved_boxes(PARTS, n, nodes, edges)
    nodes.append(box_record("h"))
    edges += [edge_record(b, "h") for b in boxes]
    w = id_width(n)
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"u{s}", f"Own {s}"), tool_record(f"v{s}", f"own-{s}")]
        edges += [edge_record("h", f"a{s}"), edge_record(f"u{s}", f"a{s}"), edge_record(f"v{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (PARTS * n + 1), (PARTS + 1) * n, (f"a{zero}", f"own_{zero}", (f"u{zero}", f"v{zero}")), 37 * n + 18,
        37 * n + 17, n, PARTS + 1,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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
    box_ids = interleaved_boxes(boxes, boxes, nodes, edges)
    wa = id_width(n)
    agents = [f"a{i:0{wa}}" for i in range(n)]
    nodes += [agent_record(a) for a in agents]
    for agent, (x, y) in zip(agents, itertools.combinations(box_ids, 2)):
        edges += [edge_record(x, agent), edge_record(y, agent)]
    wb = id_width(boxes)
    zb, zp = f"{0:0{wb}}", f"{0:0{wb}}"
    used = min(boxes, n + 1)
    expected = family_expected(
        2 * boxes * n, used * boxes, (agents[0], f"tool_{zp}_{zb}", (f"t{zb}-{zp}a", f"t{zb}-{zp}b")),
        boxes + 2 * boxes * boxes + n, 2 * boxes * boxes + 2 * n, n, boxes,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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
    boxes = interleaved_boxes(DOZEN, n, nodes, edges)
    w = id_width(n)
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"s{s}", "Solo")]
        edges += [edge_record(b, f"a{s}") for b in boxes] + [edge_record(f"s{s}", f"a{s}")]
    zb, zp = f"{0:0{id_width(DOZEN)}}", f"{0:0{w}}"
    expected = family_expected(
        DOZEN * n * n, DOZEN * n, (f"a{zp}", f"tool_{zp}_{zb}", (f"t{zb}-{zp}a", f"t{zb}-{zp}b")),
        DOZEN + 2 * DOZEN * n + 2 * n, 2 * DOZEN * n + (DOZEN + 1) * n, n, DOZEN,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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
    boxes = interleaved_boxes(PARTS, p, nodes, edges)
    nodes.append(box_record("h"))
    edges += [edge_record(b, "h") for b in boxes[:-1]]
    w = id_width(n)
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"s{s}", "Solo")]
        edges += [edge_record("h", f"a{s}"), edge_record(boxes[-1], f"a{s}"), edge_record(f"s{s}", f"a{s}")]
    zb, zp = f"{0:0{id_width(PARTS)}}", f"{0:0{id_width(p)}}"
    expected = family_expected(
        PARTS * p * n, PARTS * p, (f"a{0:0{w}}", f"tool_{zp}_{zb}", (f"t{zb}-{zp}a", f"t{zb}-{zp}b")),
        PARTS + 2 * PARTS * p + 1 + 2 * n, 2 * PARTS * p + PARTS - 1 + 3 * n, n, PARTS + 1,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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
    w, wb = id_width(n), id_width(k)
    nodes = [box_record("H"), box_record("Z"), agent_record("O")]
    edges = [edge_record("Z", "O")]
    for j in range(k):
        b = f"b{j:0{wb}}"
        nodes.append(box_record(b))
        edges.append(edge_record(b, "H"))
        for p in range(n):
            one, two = f"t{j:0{wb}}-{p:0{w}}a", f"t{j:0{wb}}-{p:0{w}}b"
            nodes += [tool_record(one, f"Tool {p:0{w}} {j:0{wb}}"), tool_record(two, f"tool-{p:0{w}}-{j:0{wb}}")]
            edges += [edge_record(one, b), edge_record(two, "Z")]
    for a in range(n):
        s = f"{a:0{w}}"
        nodes += [
            agent_record(f"a{s}"),
            box_record(f"s{s}"),
            tool_record(f"u{s}", f"Solo {s}"),
            tool_record(f"v{s}", f"solo-{s}"),
        ]
        edges += [
            edge_record("H", f"a{s}"),
            edge_record(f"s{s}", f"a{s}"),
            edge_record(f"u{s}", f"s{s}"),
            edge_record(f"v{s}", f"s{s}"),
        ]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", f"solo_{zero}", (f"u{zero}", f"v{zero}")), 3 + k + 2 * k * n + 4 * n,
        1 + k + 2 * k * n + 4 * n, n + 1, 2 + k + n,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)
