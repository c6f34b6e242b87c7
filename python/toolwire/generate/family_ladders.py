"""The worst-case families built on ladders: chains whose every rung is also fed from the side
(families 27, 35, 38, 40 and 41), ladders of diamonds (54) and lattices whose levels are no rung
(63 and 68, found by the attack of session 28; 84 and 85, found by the second attack of session
30 on the warm-ups that answered 63 and 68; 117, the attack of session 33, its finding 11: 68's
lattice below clashing pairs whose tools have more receivers than the warm-ups then served).

The registry, and the conventions every family follows, are in :mod:`.families`.
"""

from __future__ import annotations

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
    is found when renames are chosen (renames.rs ``settle_renames``) and again
    on every read, and holds a chain per root, so reading even its ends
    walks them all (``TreePath::len``, ``Paths::nodes``): ``n * n`` steps
    and ``n * n`` map entries from a file of ``n`` boxes."""
    w = id_width(n)
    nodes = [agent_record("z")]
    edges = []
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [
            box_record(f"c{s}"),
            box_record(f"d{s}"),
            tool_record(f"u{s}", f"Link {s}"),
            tool_record(f"v{s}", f"link-{s}"),
        ]
        edges += [edge_record(f"u{s}", f"d{s}"), edge_record(f"v{s}", f"d{s}"), edge_record(f"d{s}", f"c{s}")]
        edges.append(edge_record(f"c{s}", f"c{i + 1:0{w}}" if i + 1 < n else "z"))
    zero = f"{0:0{w}}"
    expected = family_expected(n, n, ("z", f"link_{zero}", (f"u{zero}", f"v{zero}")), 1 + 4 * n, 4 * n, 1, 2 * n)
    return Generated(document(nodes, edges), expected)


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
    wm, w = id_width(m), id_width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    tops = ["t"] if t == 1 else [f"t{j}" for j in range(t)]
    nodes = [box_record(c) for c in chain] + [tool_record(top, label) for top, (label, _) in zip(tops, pairs)]
    nodes += [box_record("Q"), tool_record("k0", "Q k"), tool_record("k1", "q-k")]
    edges = [edge_record(chain[i], chain[i + 1]) for i in range(m - 1)]
    edges += [edge_record(top, chain[0]) for top in tops] + [edge_record("k0", "Q"), edge_record("k1", "Q")]
    for g in range(n):
        s = f"{g:0{w}}"
        above = chain[-1]
        for k in range(RUNGS):
            rung = f"r{s}-{k:02}"
            nodes.append(box_record(rung))
            edges += [edge_record(above, rung), edge_record("Q", rung)]
            above = rung
        twins = [f"e{s}"] if t == 1 else [f"e{s}-{j}" for j in range(t)]
        nodes += [agent_record(f"a{s}")] + [tool_record(e, twin) for e, (_, twin) in zip(twins, pairs)]
        edges += [edge_record(above, f"a{s}")] + [edge_record(e, f"a{s}") for e in twins]
    zero = f"{0:0{w}}"
    first_twin = f"e{zero}" if t == 1 else f"e{zero}-0"
    expected = family_expected(
        (t + 1) * n, t * n + 1, (f"a{zero}", "key" if t == 1 else "key_0", (first_twin, tops[0])),
        m + 3 + t + (RUNGS + 1 + t) * n, m + 1 + t + (2 * RUNGS + 1 + t) * n, n, m + 1 + RUNGS * n,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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


def ladder_taps(n: int) -> Generated:
    """Family 40: a ladder of ``n`` boxes ``r0..r{n-1}`` chained ``r{i-1}
    -> r{i}``, tool ``t`` "Key" wired into ``r0``; a box ``Q`` holding a
    clashing pair (``k0`` "Q k", ``k1`` "q-k") wired into every rung;
    agent ``a{i}`` fed by rung ``r{i}`` alone, with its tool ``e{i}`` "key"
    straight in. Each agent sees ``key`` (``e{i}``, ``t``) and ``q_k``:
    ``2 * n`` violations, ``n + 1`` clashes.

    Every rung but the first is a path root of two classes, and the path
    of ``t`` to ``a{i}`` climbs ``i`` of them, a chain each: ``n * n / 2``
    chains in all, from a file of ``n`` rungs (past the free passes, rent
    grew the trees of the roots just above each agent's, each read by the
    few agents below it before another, nearer one was whole). Paths are
    now persistent lists of chains, and the path of ``t`` up to each rung
    it was passed on at is remembered (paths.rs ``Paths::above``): each
    agent's path is the one above's plus a rung, laid in one step, in any
    order the agents are read. (Found by a helper with fresh eyes.)"""
    w = id_width(n)
    rungs = [f"r{i:0{w}}" for i in range(n)]
    nodes = [box_record("Q"), tool_record("k0", "Q k"), tool_record("k1", "q-k"), tool_record("t", "Key")]
    edges = [edge_record("k0", "Q"), edge_record("k1", "Q"), edge_record("t", rungs[0])]
    for i, rung in enumerate(rungs):
        s = f"{i:0{w}}"
        nodes += [box_record(rung), agent_record(f"a{s}"), tool_record(f"e{s}", "key")]
        edges += [edge_record("Q", rung)] + ([edge_record(rungs[i - 1], rung)] if i else [])
        edges += [edge_record(rung, f"a{s}"), edge_record(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(2 * n, n + 1, (f"a{zero}", "key", (f"e{zero}", "t")), 3 * n + 4, 4 * n + 2, n, n + 1)
    return Generated(document(nodes, edges), expected)


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
    k, w = TAKING_TURNS, id_width(n)
    nodes = [box_record("Q"), tool_record("k0", "Q k"), tool_record("k1", "q-k"), tool_record("t", "Key")]
    edges = [edge_record("k0", "Q"), edge_record("k1", "Q")]
    for j in range(k):
        ladder = [f"r{j}-{i:0{w}}" for i in range(n)]
        nodes += [box_record(rung) for rung in ladder]
        edges += [edge_record("Q", rung) for rung in ladder] + [edge_record(a, b) for a, b in zip(ladder, ladder[1:])]
        edges.append(edge_record("t", ladder[0]))
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"e{s}", "key")]
        edges += [edge_record(f"r{g % k}-{n - 1:0{w}}", f"a{s}"), edge_record(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        2 * n, n + 1, (f"a{zero}", "key", (f"e{zero}", "t")), 4 + k * n + 2 * n, 2 + 2 * k * n + 2 * n, n, k * n + 1
    )
    return Generated(document(nodes, edges), expected)


def diamond_ladder(n: int) -> Generated:
    """Family 54: a tool ``t`` "Top tool" atop a ladder of ``n`` diamonds:
    box ``B{i}`` feeds boxes ``L{i}`` and ``R{i}`` (each holding a clashing
    pair, "L i" / "l-i" and "R i" / "r-i"), which both feed ``B{i + 1}``;
    agent ``a{k}`` is fed by ``B{k + 1}`` and by a twin ``w{k}`` "top-tool"
    of ``t``. Agent ``k`` sees the diamonds' pairs above it and ``t``'s
    clash: ``n * n + 2 * n`` violations, ``3 * n`` clashes.

    Every ``B{i}`` is a root that two providers, as near, bring ``t`` and
    every pair above into: each path down the ladder ties at every rung."""
    width = id_width(n + 1)
    nodes = [tool_record("t", "Top tool")] + [box_record(f"B{i:0{width}}") for i in range(n + 1)]
    edges = [edge_record("t", f"B{0:0{width}}")]
    for i in range(n):
        s, below = f"{i:0{width}}", f"{i + 1:0{width}}"
        for side, upper, lower in (("L", "L", "l"), ("R", "R", "r")):
            box = f"{side}{s}"
            nodes += [box_record(box), tool_record(f"{box}x", f"{upper} {s}"), tool_record(f"{box}y", f"{lower}-{s}")]
            edges += [edge_record(f"B{s}", box), edge_record(box, f"B{below}")]
            edges += [edge_record(f"{box}x", box), edge_record(f"{box}y", box)]
    for k in range(n):
        s, below = f"{k:0{width}}", f"{k + 1:0{width}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"w{s}", "top-tool")]
        edges += [edge_record(f"w{s}", f"a{s}"), edge_record(f"B{below}", f"a{s}")]
    zero = f"{0:0{width}}"
    expected = family_expected(
        n * n + 2 * n, 3 * n, (f"a{zero}", f"l_{zero}", (f"L{zero}x", f"L{zero}y")), 9 * n + 2, 10 * n + 1, n, 3 * n + 1
    )
    return Generated(document(nodes, edges), expected)


def lattice_ladder(n: int) -> Generated:
    """Family 68: a lattice of ``n`` levels of two boxes ``A{j}``, ``B{j}``,
    each fed by both boxes of the level above (no box that both hang below:
    not a rung, paths/rungs.rs); a tool ``T`` "Top" into ``A0`` and ``B0``;
    agent ``a{j}`` fed by ``A{j}`` and by a twin ``t{j}`` "top" of ``T``.
    Each agent sees ``top``: ``n`` violations, ``n`` clashes; ``4 * n + 1``
    nodes, ``6 * n - 2`` edges.

    Every box below the top is a root of two providers that both carry
    ``T``, as near: the kept path to ``a{j}`` is ``j`` boxes long, found past
    the 32 carrier searches a path may make, and read off a tree of the
    root it ends at, not shared with the level below: ``n * n / 2`` boxes
    read for ``n`` clashes (the check holds)."""
    return _lattice(n, renames=False)


def lattice_renames(n: int) -> Generated:
    """Family 63: ``lattice-ladder`` with each agent's twin ``t{j}`` in a box
    ``Q{j}``, also fed by ``B{j - 1}`` (``T`` into ``Q0``), into a box ``Q2{j}``
    into ``a{j}``: ``Q{j}`` carries ``T`` too, but is off its kept path. The
    same ``n`` violations and ``n`` clashes; ``6 * n + 1`` nodes, ``9 * n - 2``
    edges.

    Choosing the rename of ``t{j}`` asks whether ``Q{j}`` is on ``T``'s path;
    ``Q{j}`` is not wired into the agent, so the few probes (renames.rs
    ``on_path_told``) cannot tell, and the check finds ``T``'s kept path to
    every agent (fixes.rs ``Renamer::settle``), past the 32 carrier
    searches off a tree per root: ``n * n / 2`` in the check itself."""
    return _lattice(n, renames=True)


def _lattice(n: int, renames: bool) -> Generated:
    """``lattice-ladder``, and with ``renames`` ``lattice-renames``."""
    w = id_width(n)
    nodes = [tool_record("T", "Top")]
    edges = []
    for j in range(n):
        s = f"{j:0{w}}"
        nodes += [box_record(f"A{s}"), box_record(f"B{s}"), agent_record(f"a{s}"), tool_record(f"t{s}", "top")]
        if j == 0:
            edges += [edge_record("T", f"A{s}"), edge_record("T", f"B{s}")]
        else:
            above = f"{j - 1:0{w}}"
            edges += [edge_record(f"A{above}", f"A{s}"), edge_record(f"B{above}", f"A{s}")]
            edges += [edge_record(f"A{above}", f"B{s}"), edge_record(f"B{above}", f"B{s}")]
        if renames:
            nodes += [box_record(f"Q{s}"), box_record(f"Q2{s}")]
            edges.append(edge_record("T" if j == 0 else f"B{j - 1:0{w}}", f"Q{s}"))
            edges += [edge_record(f"A{s}", f"a{s}"), edge_record(f"t{s}", f"Q{s}")]
            edges += [edge_record(f"Q{s}", f"Q2{s}"), edge_record(f"Q2{s}", f"a{s}")]
        else:
            edges += [edge_record(f"A{s}", f"a{s}"), edge_record(f"t{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    # Per level: A, B, a, t (and Q, Q2); four edges from the level above (two
    # from T at the top), A -> a, t -> a (or B above -> Q, t -> Q, Q -> Q2,
    # Q2 -> a).
    per_level = 3 if renames else 0
    expected = family_expected(
        n, n, (f"a{zero}", "top", ("T", f"t{zero}")), 1 + (4 + 2 * renames) * n, (6 + per_level) * n - 2, n,
        (2 + 2 * renames) * n,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


GADGET_LEVELS = 18
"""Families 84 and 85: levels of two boxes in each consumer's private
lattice, its top level fed by the tool: below it, both boxes of each
level are roots fed by both boxes above, 34 in all, more than the 32
nested carrier searches a path may make (paths.rs ``CARRIER_SEARCHES``),
so the search for the tool's path to the agent runs out there and warms
up the roots above its other providers (``Paths::warm_up``). With 17
levels, 32 roots, nothing is warmed up (before session 30's fix,
``near-roots`` grew 2.2x for twice ``n`` from 100 so, 3.9x with 18)."""

ROOTS_PER_AGENT = 8
"""Family 84: roots below the shared lattice per agent (each also fed by
its tool through two boxes of its own), each warming up on its own."""


def near_roots(n: int) -> Generated:
    """Family 84: ``n`` tools ``t{i}`` "Tool i", all wired into a box ``H``
    atop a lattice ``L`` of ``n`` levels of two boxes ``L{l}-0``, ``L{l}-1``,
    each fed by both boxes of the level above (``H`` feeding level 0). Per
    tool, agent ``a{i}`` is fed by a box ``C{i}``, a root fed by the bottom
    left box of a private lattice ``G{i}`` of ``GADGET_LEVELS`` levels (its
    top fed by ``t{i}``) and by ``ROOTS_PER_AGENT`` roots ``R{i}-{j}``, each
    fed by both boxes of ``L``'s bottom and by ``t{i}`` through boxes
    ``D{i}-{j}`` and ``E{i}-{j}``; its twin ``u{i}`` "tool-i" is in a box
    ``K{i}``, also fed by ``L``'s bottom left box, into ``K2{i}``, into the
    agent (as ``lattice-renames``'). Each agent sees every tool and one
    twin: ``n`` violations, ``n`` clashes; ``68 * n + 1`` nodes (``65 * n +
    1`` boxes), ``129 * n - 2`` edges.

    Choosing the rename of ``u{i}`` finds ``t{i}``'s kept path (``K{i}`` is
    off it), whose search spends its 32 nested searches in ``G{i}`` and
    warms up the roots above each ``R{i}-{j}``: the walk up through carrying
    providers climbed all of ``L`` to ``H`` for every tool, though ``R``'s
    tree stops three boxes up, and each overrun doubled the tool's cap (4x
    the work for twice ``n``, 61x the work before warm-ups at ``n = 800``).
    Since session 30 a warm-up races the root's tree and stops once the
    tree reaches the leaf."""
    return _warm_ups(n, cycle_top=False)


def cycle_top(n: int) -> Generated:
    """Family 85: one tool ``T`` "Top" into a box ``H``, ``H`` and ``H2`` a
    cycle of boxes (``H -> H2 -> H``), ``H`` atop a lattice ``L`` of ``n``
    levels as in ``near-roots``; ``n`` consumers, agent ``a{i}`` fed by a
    box ``C{i}``, a root fed by the bottom left box of a private lattice
    ``G{i}`` of ``GADGET_LEVELS`` levels (its top fed by ``T``) and by one
    root ``R{i}-0``, fed by ``L``'s bottom and by ``T`` through ``D{i}-0``
    and ``E{i}-0``; its twin ``u{i}`` "top" in a box ``K{i}``, also fed by
    ``L``'s bottom left box, into ``K2{i}``, into the agent. ``n``
    violations, ``n`` clashes (``T`` and each twin); ``46 * n + 3`` nodes
    (``44 * n + 2`` boxes), ``86 * n + 1`` edges.

    As in ``near-roots``, every agent's search for ``T``'s path spends its
    searches in ``G{i}`` and warms up the roots above ``R{i}-0``: the walk
    climbed ``L`` to the cycle and gave up there, remembering nothing and
    leaving the cap as it was, so every agent's warm-up climbed ``L`` again
    (2.6x the work for twice ``n`` from 125, 3.0x to 3.6x from 250). Since
    session 30 a provider round a cycle of boxes is passed over, not the
    end of the warm-up, and the warm-up races the root's tree."""
    return _warm_ups(n, cycle_top=True)


def _box_lattice(nodes: List[str], edges: List[str], prefix: str, levels: int, top: str) -> List[str]:
    """Adds a lattice of ``levels`` levels of two boxes ``{prefix}{l}-0``,
    ``{prefix}{l}-1``, each fed by both boxes of the level above, level 0
    by ``top``; returns the bottom level's boxes."""
    w = id_width(levels)
    above = [top]
    for level in range(levels):
        boxes = [f"{prefix}{level:0{w}}-{c}" for c in range(2)]
        nodes += [box_record(b) for b in boxes]
        edges += [edge_record(a, b) for b in boxes for a in above]
        above = boxes
    return above


def _warm_ups(n: int, cycle_top: bool) -> Generated:
    """``near-roots``, and with ``cycle_top`` ``cycle-top``."""
    w = id_width(n)
    ids = [f"{i:0{w}}" for i in range(n)]
    if cycle_top:
        nodes = [tool_record("T", "Top"), box_record("H"), box_record("H2")]
        edges = [edge_record("T", "H"), edge_record("H", "H2"), edge_record("H2", "H")]
    else:
        nodes = [tool_record(f"t{s}", f"Tool {s}") for s in ids] + [box_record("H")]
        edges = [edge_record(f"t{s}", "H") for s in ids]
    bottom = _box_lattice(nodes, edges, "L", n, "H")
    roots = 1 if cycle_top else ROOTS_PER_AGENT
    for s in ids:
        tool = "T" if cycle_top else f"t{s}"
        gadget = _box_lattice(nodes, edges, f"G{s}-", GADGET_LEVELS, tool)
        nodes.append(box_record(f"C{s}"))
        edges.append(edge_record(gadget[0], f"C{s}"))
        for j in range(roots):
            d, e, r = f"D{s}-{j}", f"E{s}-{j}", f"R{s}-{j}"
            nodes += [box_record(d), box_record(e), box_record(r)]
            edges += [edge_record(tool, d), edge_record(d, e), edge_record(e, r), edge_record(r, f"C{s}")]
            edges += [edge_record(b, r) for b in bottom]
        nodes += [agent_record(f"a{s}"), tool_record(f"u{s}", "top" if cycle_top else f"tool-{s}")]
        nodes += [box_record(f"K{s}"), box_record(f"K2{s}")]
        edges += [edge_record(f"C{s}", f"a{s}"), edge_record(f"u{s}", f"K{s}"), edge_record(bottom[0], f"K{s}")]
        edges += [edge_record(f"K{s}", f"K2{s}"), edge_record(f"K2{s}", f"a{s}")]
    # Shared: the top (T into H and H2, a cycle: three edges; or H alone)
    # and the lattice's 2 * n boxes and 4 * n - 2 edges. Per consumer: G's
    # 36 boxes and 70 edges, C and G -> C, 3 boxes and 6 edges per root (R
    # -> C and L's bottom -> R included), the agent, its twin, K and K2 and 5
    # edges (C -> a, u -> K, L's bottom -> K, K -> K2 -> a), and near-roots'
    # tool with its edge into H. Every agent sees every top tool (through L,
    # into each R and K) and its own twin, named as its own tool: its only
    # clash. No other consumer.
    own = 0 if cycle_top else 1
    top_boxes = 2 if cycle_top else 1
    top_nodes, top_edges = top_boxes + (1 - own), 3 * (1 - own)
    boxes = 2 * GADGET_LEVELS + 1 + 3 * roots + 2
    edges_each = 2 + 4 * (GADGET_LEVELS - 1) + 1 + 6 * roots + 5 + own
    zero = ids[0]
    if cycle_top:
        first = (f"a{zero}", "top", ("T", f"u{zero}"))
    else:
        first = (f"a{zero}", f"tool_{zero}", (f"t{zero}", f"u{zero}"))
    expected = family_expected(
        n, n, first, top_nodes + (2 + boxes + 2 + own) * n, top_edges + 4 * n - 2 + edges_each * n, n,
        top_boxes + (2 + boxes) * n,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


DEAD_ENDS = 16
"""Family 117: boxes ``D00`` to ``D15`` that feed nothing, every tool
wired into each: with the lattice's two top boxes, 18 receivers a tool,
more than paths.rs ``FEW_RECEIVERS`` (16)."""


def lattice_wide_tools(n: int) -> Generated:
    """Family 117: ``n`` clashing pairs, ``t{i}`` "Tool i" and ``u{i}``
    "tool-i", every tool wired into both boxes ``A0``, ``B0`` of the top
    level of a lattice of ``n`` levels of two boxes ``A{j}``, ``B{j}``,
    each fed by both boxes of the level above (as ``lattice-ladder``),
    the bottom level's two into one agent ``a``; and every tool also into
    the ``DEAD_ENDS`` boxes ``D00`` to ``D15``, which feed nothing (the
    attack of session 33, its finding 11). The agent sees every pair:
    ``n`` violations, ``n`` clashes, the first ``tool_0``'s; ``4 * n +
    17`` nodes (``2 * n + 16`` boxes), ``40 * n - 2`` edges; from ``n =
    1`` on.

    Every box below the top is a root of two providers that both carry
    every tool, as near, so each tool's path to the agent runs out of the
    32 nested carrier searches a path may make (paths.rs
    ``CARRIER_SEARCHES``) once there are more than 17 levels (34 roots
    below the top, as ``near-roots``' ``GADGET_LEVELS``). A tool of few
    receivers then warms up the roots above where its searches ran out
    (``lattice-ladder``); a tool of more than ``FEW_RECEIVERS`` had no
    warm-up until 5cec48c (session 34), and each tool's path was found by
    the tree of a root low in the lattice, grown up to the tool afresh:
    628 million steps in the check at ``n = 800`` (a 2.5 MB file), 3.9x
    to 4.0x for twice ``n`` from 100, its readings alike. Since, its
    warm-up is told the tree has reached it by the boxes the tree grew,
    each looked for among its receivers: 53 million at 800, 2.17x for
    twice ``n`` from 400 and 2.20x from 800, and 2.75x to 2.86x below 400
    (the tied lattice's 32 nested searches per tool, a constant that
    dominates at small ``n``). The work climbs in steps, not smoothly:
    2.2x to 2.9x for twice ``n`` from other sizes between 250 and 700,
    2.50x from 1,600 and 2.39x from 3,200 (697 million at 6,400)."""
    w = id_width(n)
    ids = [f"{i:0{w}}" for i in range(n)]
    dead = [f"D{k:02}" for k in range(DEAD_ENDS)]
    nodes = [agent_record("a")]
    edges = []
    for j, s in enumerate(ids):
        level = [f"A{s}", f"B{s}"]
        nodes += [box_record(b) for b in level]
        if j:
            edges += [edge_record(above, b) for b in level for above in (f"A{ids[j - 1]}", f"B{ids[j - 1]}")]
    edges += [edge_record(f"A{ids[-1]}", "a"), edge_record(f"B{ids[-1]}", "a")]
    nodes += [box_record(d) for d in dead]
    top = [f"A{ids[0]}", f"B{ids[0]}"]
    for s in ids:
        for tool, label in ((f"t{s}", f"Tool {s}"), (f"u{s}", f"tool-{s}")):
            nodes.append(tool_record(tool, label))
            edges += [edge_record(tool, b) for b in top + dead]
    # Per level: A, B, and four edges from the level above (none at the
    # top); the bottom's two edges into the agent; the agent and the dead
    # ends; per pair two tools, each into 18 boxes. The agent sees every
    # tool, each name held by one pair: its only clashes.
    zero = ids[0]
    expected = family_expected(
        n, n, ("a", f"tool_{zero}", (f"t{zero}", f"u{zero}")), 4 * n + 1 + DEAD_ENDS,
        4 * (n - 1) + 2 + 2 * (2 + DEAD_ENDS) * n, 1, 2 * n + DEAD_ENDS,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)
