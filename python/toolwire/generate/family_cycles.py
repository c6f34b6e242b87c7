"""The worst-case families built on cycles of boxes: every box of a cycle
sees what every other one does, and a path inside it was read off the
tree of the root it ends at (families 55, 56 and 61; now an arc of the
cycle, or of the ring a cycle fed both ways round is, paths/arcs.rs).

The registry, and the conventions every family follows, are in :mod:`.families`.
"""

from __future__ import annotations

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


def cycle_far(n: int) -> Generated:
    """Family 55: a cycle of ``n`` boxes ``C{i} -> C{i + 1}`` (``C{n - 1} ->
    C0``), box ``C{i}`` fed by a box ``S{i}`` holding a tool ``U{i}`` "U i";
    agent ``a{k}`` fed by ``C{k}`` and, through a box ``Q{k}`` of its own, by
    a twin ``u{i}`` "u i" of ``U{i}``, ``i = (k + n / 2) mod n``. Each
    clash is seen by one agent only, and its kept tool's path runs half
    round the cycle: ``n`` violations, ``n`` clashes.

    Choosing the rename of ``u{i}`` asks whether ``Q{k}``, the box it comes
    through, is on the path of ``U{i}``, the tool that keeps its name
    (fixes.rs ``Renamer::settle``); read off the tree of ``C{k}``, that path
    is ``n / 2`` boxes long, so the check itself read ``n * n / 2`` path
    nodes for a file of ``n`` boxes."""
    return _cycle_far(n, both_ways=False)


def two_way_cycle(n: int) -> Generated:
    """Family 61: ``cycle-far`` with each box of the cycle also feeding the
    one before it (``C{i + 1} -> C{i}``): the same violations and clashes.

    Every box of the cycle is a root of two providers that carry every
    tool, and the kept tool's path half round is as short both ways: the
    tie is decided by ids, at the box the path enters the cycle at. A
    path inside the cycle is no arc of a cycle fed one way round (paths.rs
    ``Cycle``), so until session 28 each was read off the tree of the root
    it ends at, ``n / 2`` boxes for each of ``n`` clashes; now the cycle is
    a ring of roots (paths/arcs.rs ``Ring``) and each path an arc of it,
    one way round or the other."""
    return _cycle_far(n, both_ways=True)


def _cycle_far(n: int, both_ways: bool) -> Generated:
    """``cycle-far`` (see there), and with ``both_ways`` ``two-way-cycle``."""
    w = id_width(n)
    nodes = []
    edges = []
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [box_record(f"C{s}"), box_record(f"S{s}"), tool_record(f"U{s}", f"U {s}")]
        edges += [edge_record(f"C{s}", f"C{(i + 1) % n:0{w}}"), edge_record(f"S{s}", f"C{s}")]
        edges.append(edge_record(f"U{s}", f"S{s}"))
        if both_ways:
            edges.append(edge_record(f"C{(i + 1) % n:0{w}}", f"C{s}"))
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) % n:0{w}}"
        nodes += [agent_record(f"a{s}"), box_record(f"Q{s}"), tool_record(f"u{t}", f"u {t}")]
        edges += [edge_record(f"C{s}", f"a{s}"), edge_record(f"Q{s}", f"a{s}"), edge_record(f"u{t}", f"Q{s}")]
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    edge_count = 7 * n if both_ways else 6 * n
    expected = family_expected(n, n, (f"a{zero}", f"u_{half}", (f"U{half}", f"u{half}")), 6 * n, edge_count, n, 3 * n)
    return Generated(document(nodes, edges), expected)


def cycle_sides(n: int) -> Generated:
    """Family 56: a cycle of ``n`` boxes ``C{i} -> C{i + 1}`` (``C{n - 1} ->
    C0``), box ``C{i}`` also fed by a box ``S{i}`` holding a clashing pair
    ``y{i}a`` "Side i", ``y{i}b`` "side-i"; a tool ``T`` "Top" wired into
    ``C0``; agent ``a{k}`` fed by ``C{k}`` and by a twin ``t{k}`` "top" of
    ``T``. Every box of the cycle sees every pair: ``n * (n + 1)``
    violations, ``2 * n`` clashes.

    Every ``C{i}`` is a root of two providers inside one cycle, where a
    root's tree decides the paths: agent ``k``'s tree reaches back round
    the cycle, so reading one violation at each agent read ``n * n / 2``
    boxes of trees for paths of ``n * n / 2`` nodes, each path a tree of
    its own (RELIABILITY, "Known limits")."""
    w = id_width(n)
    nodes = [tool_record("T", "Top")]
    edges = [edge_record("T", f"C{0:0{w}}")]
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [box_record(f"C{s}"), box_record(f"S{s}")]
        nodes += [tool_record(f"y{s}a", f"Side {s}"), tool_record(f"y{s}b", f"side-{s}")]
        edges += [edge_record(f"C{s}", f"C{(i + 1) % n:0{w}}"), edge_record(f"S{s}", f"C{s}")]
        edges += [edge_record(f"y{s}a", f"S{s}"), edge_record(f"y{s}b", f"S{s}")]
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"t{s}", "top")]
        edges += [edge_record(f"C{s}", f"a{s}"), edge_record(f"t{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (n + 1), 2 * n, (f"a{zero}", f"side_{zero}", (f"y{zero}a", f"y{zero}b")), 6 * n + 1, 6 * n + 1, n, 2 * n
    )
    return Generated(document(nodes, edges), expected)
