"""The worst-case families built on cycles of boxes: every box of a cycle
sees what every other one does. A path inside one was read off the tree of
the root it ends at; now it is an arc of the cycle, or of the ring a cycle
fed both ways round is (families 55, 56 and 61; paths/arcs.rs). Families 62
and 69 to 72, found by the attack of session 28, are ``cycle-far`` with
what an arc does not take: their paths are still read off trees.

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


def cycle_renames(n: int) -> Generated:
    """Family 62: ``cycle-far`` with a chain box ``D{i}`` between ``C{i}``
    and ``C{i + 1}``, and each agent's twin one box further off: agent
    ``a{k}`` fed by ``C{k}`` and by a box ``Q2{k}``, fed by ``Q{k}``, which
    holds the twin ``u{t}`` of ``U{t}`` (``t = (k + n / 2) mod n``) and is
    also fed by ``D{k - 1}``. ``Q{k}`` carries every ``U`` too, but is off
    ``U{t}``'s path (``C{k}`` is nearer): ``n`` violations, ``n`` clashes,
    as in ``cycle-far``; ``8 * n`` nodes, ``9 * n`` edges.

    Choosing the rename of ``u{t}`` asks whether ``Q{k}`` is on the path of
    ``U{t}``; ``Q{k}`` is not wired into the agent, so the few probes
    (read.rs ``on_path_told``) cannot tell, and the kept tool's path is
    found in the check (fixes.rs ``Renamer::settle``). With a box between
    each two roots the cycle is no arc (paths.rs ``Cycle``), so each path
    is read off the tree of ``C{k}``, ``n`` boxes half round the cycle:
    ``n * n`` in the check, for a file of ``5 * n`` boxes."""
    return _cycle_far(n, chained=True, renames=True)


def cycle_chained(n: int) -> Generated:
    """Family 69: ``cycle-far`` with a chain box ``D{i}`` between ``C{i}``
    and ``C{i + 1}``: the same ``n`` violations and ``n`` clashes; ``7 * n``
    nodes and edges.

    The check holds (renames are told by the agents' own boxes), but the
    cycle is no arc, and reading the kept tool's path reads it off the tree
    of ``C{k}``, grown half round the cycle and not shared between roots:
    ``n * n`` boxes read for ``n`` clashes."""
    return _cycle_far(n, chained=True)


def cycle_fed_sides(n: int) -> Generated:
    """Family 70: ``cycle-far`` with each side box ``S{i}`` fed by a box
    ``R{i}`` of its own holding ``U{i}`` (a member of the cycle fed by a box
    with providers of its own): the same ``n`` violations and ``n``
    clashes; ``7 * n`` nodes and edges.

    No arc takes such a cycle, so reading the kept tool's path reads it off
    the tree of ``C{k}``, half round the cycle: ``n * n`` boxes read for
    ``n`` clashes; the check holds."""
    return _cycle_far(n, fed_sides=True)


def cycle_skip(n: int) -> Generated:
    """Family 71: ``cycle-far`` with each box of the cycle also feeding the
    one two after it (``C{i} -> C{i + 2}``; from ``n = 3`` on, so that no box
    feeds itself): the same ``n`` violations and ``n`` clashes; ``6 * n``
    nodes, ``7 * n`` edges.

    Every member is fed by two members, one way round: no arc, and each
    kept tool's path, some ``n / 4`` boxes long, is read off the tree of
    ``C{k}``, grown out to the tool over ways that cross and not shared
    between roots: some ``100 * n * n`` steps to read ``n`` clashes at ``n =
    250``, 4x for twice ``n`` (the check holds)."""
    return _cycle_far(n, skip=True)


FANOUT = 17
"""Dead boxes per tool in ``cycle-fanout``: one more receiver than an arc
places (arcs.rs ``FEW_RECEIVERS``)."""


def cycle_fanout(n: int) -> Generated:
    """Family 72: ``cycle-far`` with every tool ``U{i}`` also wired into 17
    boxes ``X{i}-{j}`` that feed nothing: the same ``n`` violations and
    ``n`` clashes; ``23 * n`` nodes and edges.

    An arc is not taken for a leaf of more than 16 receivers (arcs.rs
    ``arc``, ``FEW_RECEIVERS``), so each kept tool's path is read off the
    tree of ``C{k}``, half round the cycle: ``n * n / 2`` boxes read for
    ``n`` clashes (the check holds)."""
    return _cycle_far(n, dead=FANOUT)


def _cycle_far(
    n: int,
    both_ways: bool = False,
    chained: bool = False,
    fed_sides: bool = False,
    skip: bool = False,
    renames: bool = False,
    dead: int = 0,
) -> Generated:
    """``cycle-far`` (see there), and the families built on it: with
    ``both_ways`` ``two-way-cycle``; ``chained``, a box ``D{i}`` between
    ``C{i}`` and ``C{i + 1}``; ``fed_sides``, ``U{i}`` into ``S{i}`` through a
    box ``R{i}``; ``skip``, ``C{i}`` also into ``C{i + 2}``; ``renames``
    (with ``chained``), each agent's twin in ``Q{k}``, fed by ``D{k - 1}``
    too, into ``Q2{k}`` into the agent; ``dead`` boxes ``X{i}-{j}`` fed by
    ``U{i}`` alone. Every variant keeps ``cycle-far``'s answer: agent
    ``k`` sees every ``U`` and one twin."""
    w = id_width(n)
    nodes = []
    edges = []
    for i in range(n):
        s, after = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        nodes += [box_record(f"C{s}"), box_record(f"S{s}"), tool_record(f"U{s}", f"U {s}")]
        if chained:
            nodes.append(box_record(f"D{s}"))
            edges += [edge_record(f"C{s}", f"D{s}"), edge_record(f"D{s}", f"C{after}")]
        else:
            edges.append(edge_record(f"C{s}", f"C{after}"))
        if skip:
            edges.append(edge_record(f"C{s}", f"C{(i + 2) % n:0{w}}"))
        edges.append(edge_record(f"S{s}", f"C{s}"))
        if fed_sides:
            nodes.append(box_record(f"R{s}"))
            edges += [edge_record(f"U{s}", f"R{s}"), edge_record(f"R{s}", f"S{s}")]
        else:
            edges.append(edge_record(f"U{s}", f"S{s}"))
        if both_ways:
            edges.append(edge_record(f"C{after}", f"C{s}"))
        nodes += [box_record(f"X{s}-{j:02}") for j in range(dead)]
        edges += [edge_record(f"U{s}", f"X{s}-{j:02}") for j in range(dead)]
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) % n:0{w}}"
        nodes += [agent_record(f"a{s}"), box_record(f"Q{s}"), tool_record(f"u{t}", f"u {t}")]
        if renames:
            nodes.append(box_record(f"Q2{s}"))
            before = f"{(k - 1) % n:0{w}}"
            edges += [edge_record(f"C{s}", f"a{s}"), edge_record(f"Q2{s}", f"a{s}"), edge_record(f"Q{s}", f"Q2{s}")]
            edges.append(edge_record(f"D{before}", f"Q{s}"))
        else:
            edges += [edge_record(f"C{s}", f"a{s}"), edge_record(f"Q{s}", f"a{s}")]
        edges.append(edge_record(f"u{t}", f"Q{s}"))
    # Per box of the cycle: C, S, U and the agent's a, Q, u; C -> next, S ->
    # C, U -> S, C -> a, u -> Q, Q -> a; and what each variant adds.
    extra_boxes = chained + fed_sides + renames + dead
    edge_count = (6 + both_ways + chained + fed_sides + skip + 2 * renames + dead) * n
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", f"u_{half}", (f"U{half}", f"u{half}")), (6 + extra_boxes) * n, edge_count, n,
        (3 + extra_boxes) * n,
    )  # fmt: skip
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
