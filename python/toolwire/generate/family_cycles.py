"""The worst-case families built on cycles of boxes: every box of a cycle
sees what every other one does. A path inside one was read off the tree of
the root it ends at; now it is an arc of the cycle, or of the ring a cycle
fed both ways round is (families 55, 56 and 61; paths/arcs.rs). Families 62
and 69 to 72, found by the attack of session 28, are ``cycle-far`` with
what an arc took only later (62, 69, 72; and since session 30, 70, its
members fed down chains below sources, and 71, whose members are each fed
by the two before, a skip cycle). Families 74 to 77, found by its second
attack, add a hub whose providers outran the walk that told a renamed
twin's way (74, 77), receivers of every tool that are path nodes (75, 77),
and a ring whose members are joined by boxes (76). Families 78 to 80, from
session 29's attack on the search that replaced that walk, spend its budget
in three ways; 81 and 82 are two more ways past arcs that session's fix to
them answered (a twin wired straight into its agent below a ring; a box of
many receivers fed by every tool). Family 83, from session 30, is a fourth
way past that search's budget: a long chain every agent is fed by, and
each agent's own box as far from it as that chain's top. Families 86 and
87, from its last attack, are a skip cycle (71) and a ring (61) with one
fed side: member 0 alone fed down a chain below its source; 88 and 89,
from session 31's attack, the same with every tool of many receivers, and
90 family 70's fed sides so; 91 to 93, from its next attack, rings whose
every member is fed down a fed side, with one tool into every source (91),
one tool into the sources of ``n`` rings (92), or each tool into 17 (93);
94 to 98, from session 31's fifth attack, sources with more than 16 fed
sides below them: a skip cycle (94) and a ring (95) whose every eighth
side box feeds 18 members through boxes of its own, the same with every
tool of many receivers (96, 97), and a ring of such tops, each tool into
17 of them (98); 99 to 101, from session 32's attack, a ring (99), a cycle
(100) and a skip cycle (101) each of whose tools is also wired into 17
boxes, each into a member and 17 agents of their own; 102 to 104, from its
second attack, one tool above a chain of tops beside fed sides of a ring
the walk enters after the chain (102), above one fed side into many rings
(103), or into many boxes of 17 receivers beside a box into many rings
(104); 105, a ring (61) with one edge one way missing; 106 to 108, from
session 33, ways into a cycle (55) as short, each tool also wired into
the member before its own (106), into the next source, which also feeds
a member two on down a fed side (107), or, every source so fed, into
17 sources and the member before (108); 111 to 113, from its attack's
finding 7, a ring (61), a ring joined by chains (76) and a ring with one
edge missing (105), each with every box split in two in series, so that
the two chains below a member, on to the member after and back to the
one before, share their top box; 114 and 116, from the same finding, a
skip cycle (71) and one with tools of many receivers (101) so split, and
115, from its finding 9, ``renames-hub`` (74) with a box on every edge
between boxes: skip cycles whose members are joined by chains; 119 to
121, from its transform ``para``, a cycle (55), a ring (61) and a skip
cycle (71) with every box twinned, a box of the same providers and
receivers beside it, so that every step of every way is a tie; 122, from
session 35's transform ``near``, the ring so twinned with each twin also
into an agent of its own.

The registry, and the conventions every family follows, are in :mod:`.families`.
"""

from __future__ import annotations

from typing import List

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


def _agent_with_twin(s: str, twin: str, label: str) -> tuple[list[str], list[str]]:
    """Agent ``a{s}`` fed by box ``C{s}`` and, through a box ``Q{s}`` of its
    own, by a tool ``twin`` labelled ``label``: its nodes and edges."""
    nodes = [agent_record(f"a{s}"), box_record(f"Q{s}"), tool_record(twin, label)]
    edges = [edge_record(f"C{s}", f"a{s}"), edge_record(twin, f"Q{s}"), edge_record(f"Q{s}", f"a{s}")]
    return nodes, edges


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
    (renames.rs ``on_path_told``) cannot tell, and the kept tool's path is
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

    No arc took such a cycle until session 30, so reading the kept tool's
    path read it off the tree of ``C{k}``, half round the cycle: ``n * n``
    boxes read for ``n`` clashes (the check held). Now ``S{i}`` is a *fed
    side* of the cycle (paths/arcs.rs), and the way in down ``R{i}``,
    ``S{i}`` one chain piece of the arc."""
    return _cycle_far(n, fed_sides=True)


def cycle_skip(n: int) -> Generated:
    """Family 71: ``cycle-far`` with each box of the cycle also feeding the
    one two after it (``C{i} -> C{i + 2}``; from ``n = 3`` on, so that no box
    feeds itself): the same ``n`` violations and ``n`` clashes; ``6 * n``
    nodes, ``7 * n`` edges.

    Every member is fed by two members, one way round: no arc until
    session 30, and each kept tool's path, some ``n / 4`` boxes long, was
    read off the tree of ``C{k}``, grown out to the tool over ways that
    cross and not shared between roots: some ``100 * n * n`` steps to read
    ``n`` clashes at ``n = 250``, 4x for twice ``n`` (the check holds). Now
    it is an arc of a *skip cycle* (paths/arcs.rs): steps of two up to the
    one place where ids turn the walk by one."""
    return _cycle_far(n, skip=True)


FANOUT = 17
"""Dead boxes per tool in ``cycle-fanout``, and boxes into agent ``Z`` per
tool in ``cycle-fan-paths`` and ``renames-fan-hub``: one more receiver than
an arc places (arcs.rs ``FEW_RECEIVERS``)."""


def cycle_fanout(n: int) -> Generated:
    """Family 72: ``cycle-far`` with every tool ``U{i}`` also wired into 17
    boxes ``X{i}-{j}`` that feed nothing: the same ``n`` violations and
    ``n`` clashes; ``23 * n`` nodes and edges.

    An arc is not taken for a leaf of more than 16 receivers (arcs.rs
    ``arc``, ``FEW_RECEIVERS``), so each kept tool's path is read off the
    tree of ``C{k}``, half round the cycle: ``n * n / 2`` boxes read for
    ``n`` clashes (the check holds)."""
    return _cycle_far(n, dead=FANOUT)


HUB_EMPTIES = 260
"""Empty boxes into the hub of ``renames-hub`` and ``renames-fan-hub``:
with the box of the cycle that feeds it, more providers than the walk for
a renamed twin's way reads (renames.rs ``off_every_shortest_way``, 256
adjacency entries)."""


def renames_hub(n: int) -> Generated:
    """Family 74: ``cycle-skip`` with ``cycle-renames``' twins and a hub
    (found by the second attack of session 28). Agent ``a{k}`` is fed by
    ``C{k}`` and by a box ``Q2{k}``, fed by ``Q{k}``, which holds the twin
    ``u{t}`` of ``U{t}`` (``t = (k + n / 2) mod n``) and is also fed by
    ``C{k - 1}``, the box before ``C{k}``; and by a box ``H``, fed by ``C0``
    and by 260 empty boxes ``E000`` to ``E259``. ``Q{k}`` and ``H`` carry
    every ``U`` too: ``Q{k}`` is off ``U{t}``'s path (``C{k}`` is nearer),
    ``H`` on it for ``3 <= k <= (n + 1) // 2`` (through ``C0``, the shorter
    way). ``n`` violations, ``n`` clashes, as in ``cycle-far``; ``7 * n +
    261`` nodes (``4 * n + 261`` boxes), ``10 * n + 261`` edges; from ``n =
    3`` on, as ``cycle-skip``.

    Choosing the rename of ``u{t}`` asks whether ``Q{k}`` is on the path of
    ``U{t}``, which the few probes cannot tell; the walk that looks for it
    from the agent (renames.rs ``off_every_shortest_way``) meets ``H``'s 261
    providers in its first layer and runs out of its 256 adjacency entries
    there, so the kept tool's path was found in the check, read off the tree
    of ``C{k}``, a cycle no arc took (members each fed by two members):
    some ``100 * n * n`` steps in the check itself (107 million at ``n =
    1,000``, 3.8x to 4.4x for twice ``n``), and as many again to read the
    clashes' paths, until session 29's search (the check) and session 30's
    skip cycles (reading)."""
    return _cycle_far(n, skip=True, renames=True, hub=HUB_EMPTIES)


def cycle_fan_paths(n: int) -> Generated:
    """Family 75: ``cycle-far`` with every tool ``U{i}`` also wired into 17
    boxes ``X{i}-{j}``, each feeding one more agent ``Z`` (found by the
    second attack of session 28). ``Z`` sees every ``U``, no two of them
    named alike: it has no violation, and ``a{k}`` still has one, ``n``
    violations in ``n`` clashes; ``23 * n + 1`` nodes (``20 * n`` boxes, ``n +
    1`` agents), ``40 * n`` edges.

    Unlike ``cycle-fanout``'s dead boxes, the 17 receivers of each tool are
    path nodes (on ``U{i}``'s way to ``Z``), and an arc does not place
    more than 16 receivers (arcs.rs ``Paths::entrances``,
    ``FEW_RECEIVERS``): each kept tool's path is read off the tree of
    ``C{k}``, half round the cycle: some ``7 * n * n`` steps to read ``n``
    clashes, 3.9x to 4.0x for twice ``n`` (the check holds)."""
    return _cycle_far(n, fan=FANOUT)


def ring_chained(n: int) -> Generated:
    """Family 76: ``two-way-cycle`` with a box each way between neighbours:
    ``C{i} -> D{i} -> C{i + 1}`` and ``C{i + 1} -> B{i} -> C{i}`` (found by
    the second attack of session 28). The same ``n`` violations and ``n``
    clashes; ``8 * n`` nodes (``5 * n`` boxes), ``9 * n`` edges.

    A ring is a cycle of roots each fed by both neighbours (arcs.rs
    ``Ring``); here the neighbours are joined by boxes, which are no
    roots, so the cycle is no ring, and each kept tool's path is read off
    the tree of ``C{k}``, grown half round the cycle both ways: some ``400
    * n * n`` steps to read ``n`` clashes (412 million at ``n = 1,000``),
    4.2x to 4.9x for twice ``n`` (the check holds)."""
    return _cycle_far(n, both_ways=True, chained=True, back_chained=True)


def renames_fan_hub(n: int) -> Generated:
    """Family 77: ``cycle-renames`` with ``cycle-fan-paths``' 17 boxes
    ``X{i}-{j}`` for every tool ``U{i}``, each into agent ``Z``, and
    ``renames-hub``'s hub ``H`` (fed by ``C0`` and 260 empty boxes, into
    every ``a{k}``), found by the second attack of session 28. ``Q{k}`` is
    off ``U{t}``'s path, ``H`` on it for ``0 < k <= (n + 1) // 2`` (through
    ``C0``, the shorter way); ``Z`` sees every ``U`` and no twin: no
    violation of its own. ``n`` violations, ``n`` clashes; ``25 * n + 262``
    nodes (``22 * n + 261`` boxes, ``n + 1`` agents), ``44 * n + 261``
    edges; ``cycle-renames``' are ``8 * n`` nodes, ``9 * n`` edges.

    As in ``renames-hub``, the walk for a renamed twin's way runs out at
    ``H``'s providers, and the kept tool's path is found in the check, read
    off the tree of ``C{k}``: a cycle with a box between each two roots and
    17 receivers of every tool that are path nodes, past what an arc takes:
    some ``9 * n * n`` steps in the check (3.7x to 3.9x for twice ``n``),
    and as many again to read the clashes' paths."""
    return _cycle_far(n, chained=True, renames=True, fan=FANOUT, hub=HUB_EMPTIES)


SIDE_BOXES = 260
"""Boxes on either side of the attack's constructions of session 29 (the
boxes ``W`` and ``F`` of ``renames-thrice``, ``P`` of ``renames-twice``):
more providers, or receivers, than the walk for a renamed twin's way reads
(renames.rs ``off_every_shortest_way``, 256 adjacency entries)."""

ASIDES = 300
"""Boxes ``G{k}-{j}`` into each agent of ``renames-aside``, two steps from
the tool they carry, each put aside by the search for a renamed twin's way
(renames.rs ``within``) for one unit of its budget."""


def renames_thrice(n: int) -> Generated:
    """Family 78: ``cycle-skip`` with ``cycle-renames``' twins three times
    over, both ends of the way wide (found by the attack of session 29 on
    renames). Box ``S{i}`` holds three tools ``A{i}``, ``B{i}``, ``D{i}``
    ("A i", "B i", "D i") and feeds ``C{i}`` directly and through 260 boxes
    ``F{i}-{j}``; ``C{i}`` feeds 260 boxes ``W{i}-{j}``, each into one agent
    ``Z``. For each letter ``L`` of ``a``, ``b``, ``d``, agent ``L{k}`` is fed
    by ``C{k}`` and by ``Q2L{k}``, fed by ``QL{k}``, which holds the twin
    ``Lt{t}`` ("l t", ``t = (k + n / 2) mod n``) and is fed by ``C{k - 1}``
    too. Each agent sees every tool and one twin, ``Z`` every tool and no
    twin: ``3 * n`` violations, ``3 * n`` clashes, the first ``a0``'s;
    ``537 * n + 1`` nodes (``528 * n`` boxes, ``3 * n + 1`` agents), ``1061 *
    n`` edges; from ``n = 3`` on, as ``cycle-skip``.

    Each ``C{k - 1}`` is asked about three times, once per consumer, whether
    it is on the kept tool's way; the searches after the first read its
    receivers and ``C{k}``'s providers, both wide, charged (3.2x to 4.0x
    the work for twice ``n`` before session 29's fix)."""
    w = id_width(n)
    letters = "abd"
    nodes = [agent_record("Z")]
    edges = []
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [box_record(f"C{s}"), box_record(f"S{s}")]
        edges += [edge_record(f"C{s}", f"C{(i + 1) % n:0{w}}"), edge_record(f"S{s}", f"C{s}")]
        edges.append(edge_record(f"C{s}", f"C{(i + 2) % n:0{w}}"))
        for letter in letters:
            tool = f"{letter.upper()}{s}"
            nodes.append(tool_record(tool, f"{letter.upper()} {s}"))
            edges.append(edge_record(tool, f"S{s}"))
        for j in range(SIDE_BOXES):
            x = f"W{s}-{j:03}"
            nodes.append(box_record(x))
            edges += [edge_record(f"C{s}", x), edge_record(x, "Z")]
        for j in range(SIDE_BOXES):
            x = f"F{s}-{j:03}"
            nodes.append(box_record(x))
            edges += [edge_record(f"S{s}", x), edge_record(x, f"C{s}")]
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) % n:0{w}}"
        before = f"C{(k - 1) % n:0{w}}"
        for letter in letters:
            a, q, q2, twin = f"{letter}{s}", f"Q{letter}{s}", f"Q2{letter}{s}", f"{letter}t{t}"
            nodes += [agent_record(a), box_record(q), box_record(q2), tool_record(twin, f"{letter} {t}")]
            edges += [edge_record(f"C{s}", a), edge_record(q2, a), edge_record(q, q2)]
            edges += [edge_record(before, q), edge_record(twin, q)]
    # Per box of the cycle: C, S, the three tools, 2 * 260 side boxes; per
    # agent: itself, Q, Q2, the twin: 9 * n nodes that are no box, and Z. Edges: 3 of the cycle (next, skip,
    # S -> C), 3 tools, 2 per side box, 5 per agent. Z sorts before every
    # agent and has no violation: the first is a0's ("a_t" for t = n / 2).
    boxes = (2 + 2 * SIDE_BOXES + 3 * 2) * n
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    expected = family_expected(
        3 * n, 3 * n, (f"a{zero}", f"a_{half}", (f"A{half}", f"at{half}")), boxes + 9 * n + 1,
        (6 + 4 * SIDE_BOXES + 15) * n, 3 * n + 1, boxes,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


def renames_aside(n: int) -> Generated:
    """Family 79: ``cycle-skip`` with ``cycle-renames``' twins (``Q{k}`` fed
    by ``C{k - 1}``), and 300 boxes ``G{k}-{j}`` into each agent ``a{k}``,
    each fed by a box ``H{k}-{j}`` of its own, fed by ``S{k}`` (found by the
    attack of session 29 on renames). The boxes carry ``U{k}``, which
    ``a{k}`` sees anyway: ``n`` violations, ``n`` clashes, as in
    ``cycle-far``; ``607 * n`` nodes (``604 * n`` boxes), ``909 * n`` edges;
    from ``n = 3`` on.

    The search for a renamed twin's way (renames.rs ``within``) meets, at the
    agent's end, 300 boxes two steps away, each put aside for one unit of
    its budget, which runs out before the way is told (3.2x to 4.0x the
    work for twice ``n`` before session 29's fix)."""
    return _cycle_far(n, skip=True, renames=True, asides=ASIDES)


def renames_twice(n: int) -> Generated:
    """Family 80: ``cycle-skip`` with ``cycle-renames``' twins asked about
    twice (found by the attack of session 29 on renames): ``S{i}`` holds
    ``U{i}`` and ``V{i}`` ("V i"), ``Q{k}`` (fed by ``C{k - 1}``) both twins
    ``u{t}`` and ``v{t}`` ("v t"), and 260 boxes ``P{k}-{j}``, each fed by
    ``C{k - 1}``, feed ``Q{k}`` and ``a{k}``. Each agent has two clashes:
    ``2 * n`` violations, ``2 * n`` clashes, the first ``a0``'s on ``u_t``;
    ``269 * n`` nodes (``264 * n`` boxes), ``791 * n`` edges; from ``n = 3``
    on.

    ``Q{k}``'s 261 providers are read free for the first clash and charged,
    past the budget, for the second (3.2x to 4.0x the work for twice ``n``
    before session 29's fix)."""
    return _cycle_far(n, skip=True, renames=True, asked=SIDE_BOXES)



def ring_direct(n: int) -> Generated:
    """Family 81: ``two-way-cycle`` with each agent's twin ``u{t}`` wired
    straight into agent ``a{k}`` (``t = (k + n / 2) mod n``), no box
    ``Q{k}`` (found in session 29, on arcs). The same ``n`` violations and
    ``n`` clashes; ``5 * n`` nodes (``2 * n`` boxes), ``6 * n`` edges.

    Reading the clashes' paths read 3.9x the work for twice ``n`` before
    session 29's fix to arcs."""
    return _cycle_far(n, both_ways=True, twin_direct=True)


def cycle_wide_source(n: int) -> Generated:
    """Family 82: ``cycle-far`` with each tool ``U{i}`` also wired into a box
    ``X{i}`` that feeds 17 agents ``Z00`` to ``Z16`` (found in session 29,
    on arcs). Each ``Z{j}`` sees every ``U``, no two of them named alike: no
    violation of its own; ``n`` violations, ``n`` clashes, as in
    ``cycle-far``; ``7 * n + 17`` nodes (``4 * n`` boxes, ``n + 17`` agents),
    ``24 * n`` edges.

    Reading the clashes' paths read 3.9x the work for twice ``n`` before
    session 29's fix to arcs."""
    return _cycle_far(n, wide_source=FANOUT)


def skip_one_fed_side(n: int) -> Generated:
    """Family 86: ``cycle-skip`` with one fed side: ``U0`` into ``S0``
    through a box ``R0`` of its own, every other ``U{i}`` straight into
    ``S{i}`` (found by the last attack of session 30). The same ``n``
    violations and ``n`` clashes; ``6 * n + 1`` nodes, ``7 * n + 1``
    edges; from ``n = 3`` on, as ``cycle-skip``.

    Each kind alone is an arc (paths/arcs.rs: a skip cycle, and a cycle of
    fed sides), but the one member fed down a chain below its source made
    the cycle neither: each kept tool's path was read off the tree of
    ``C{k}``, grown over ways that cross, as ``cycle-skip``'s were before
    session 30: 84.6 million steps to read ``n`` clashes at ``n = 1,000``
    (a 0.78 MB file), 5.3x for twice ``n`` (the check holds, 2.2x)."""
    return _cycle_far(n, skip=True, one_fed_side=True)


def ring_one_fed_side(n: int) -> Generated:
    """Family 87: ``two-way-cycle`` with one fed side, as ``skip-one-fed-side``
    (``U0`` into ``S0`` through a box ``R0`` of its own; found by the last
    attack of session 30). The same ``n`` violations and ``n`` clashes; ``6
    * n + 1`` nodes, ``7 * n + 1`` edges.

    The one member fed down a chain below its source made the cycle no
    ring (paths/arcs.rs ``Ring``): each kept tool's path was read off the
    tree of ``C{k}``, grown half round the cycle both ways: 461 million
    steps to read ``n`` clashes at ``n = 1,000``, 4.3x to 5.1x for twice
    ``n`` (the check holds)."""
    return _cycle_far(n, both_ways=True, one_fed_side=True)


def skip_fanned_fed_side(n: int) -> Generated:
    """Family 88: ``skip-one-fed-side`` with ``cycle-fan-paths``' fan:
    every tool ``U{i}`` also wired into 17 boxes ``X{i}-{j}``, each into
    one more agent ``Z`` (found by the attack of session 31). ``Z`` sees
    every ``U`` and no twin: ``n`` violations, ``n`` clashes; ``23 * n + 2``
    nodes (``20 * n + 1`` boxes, ``n + 1`` agents), ``41 * n + 1`` edges;
    from ``n = 3`` on, as ``cycle-skip``.

    Each ``U{i}`` has 18 receivers (its side box, or ``R0``, and the
    fan), more than paths.rs ``FEW_RECEIVERS``: a tool of few is placed
    on a skip cycle with a fed side one receiver at a time (arcs.rs, from
    session 31), one of many needs its ways in down the fed sides picked
    out for it (arcs.rs ``Entrances::tops``). Before session 31 each kept
    tool's path was read off the tree of ``C{k}``: 167 million steps to
    read ``n`` clashes at ``n = 1,000`` (a 3.96 MB file), 4.2x to 6.1x for
    twice ``n`` (the check holds, 2.0x). ``cycle-fanout``'s boxes that
    feed nothing, for the fan, read as much."""
    return _cycle_far(n, skip=True, one_fed_side=True, fan=FANOUT)


def ring_fanned_fed_side(n: int) -> Generated:
    """Family 89: ``ring-one-fed-side`` with ``cycle-fan-paths``' fan, as
    ``skip-fanned-fed-side`` (found by the attack of session 31). ``n``
    violations, ``n`` clashes; ``23 * n + 2`` nodes, ``41 * n + 1`` edges.

    As in ``skip-fanned-fed-side``, each tool's 18 receivers are more
    than paths.rs ``FEW_RECEIVERS``. Before session 31 each kept tool's
    path was read off the tree of ``C{k}``, grown half round the cycle
    both ways: 349 million steps to read ``n`` clashes at ``n = 1,000``,
    4.1x to 4.8x for twice ``n`` (the check holds)."""
    return _cycle_far(n, both_ways=True, one_fed_side=True, fan=FANOUT)


def fed_sides_fanned(n: int) -> Generated:
    """Family 90: ``cycle-fed-sides`` with ``cycle-fan-paths``' fan, as
    ``skip-fanned-fed-side`` (found in session 31): every tool ``U{i}``
    into ``R{i}``, the box of its own feeding its side box, and into 17
    boxes ``X{i}-{j}``, each into one more agent ``Z``. ``n`` violations,
    ``n`` clashes; ``24 * n + 1`` nodes (``21 * n`` boxes, ``n + 1``
    agents), ``41 * n`` edges; from ``n = 3`` on, as ``cycle-fed-sides``.

    Each tool's 18 receivers are more than paths.rs ``FEW_RECEIVERS``,
    and the cycle has fed sides: until session 31 a tool of many
    receivers took no arc into such a cycle, and each kept tool's path
    was read off the tree of ``C{k}``: 3.4x to 3.9x the work for twice
    ``n`` from 250 (the check holds, 2.0x)."""
    return _cycle_far(n, fed_sides=True, fan=FANOUT)


def sources_one_tool(n: int) -> Generated:
    """Family 91: a ring of ``n`` boxes ``C{i}`` (``C{i} -> C{i + 1}`` and
    back, ``C{n - 1}`` next to ``C0``), each member fed down a fed side of
    its own, ``S{i} -> F{i} -> C{i}``; one tool ``U`` "U" wired into every
    source ``S{i}``; agent ``a{k}`` fed by ``C{k}`` and, through a box
    ``Q{k}`` of its own, by a twin ``u{k}`` "u" of ``U`` (found by the
    attack of session 31). Every agent sees ``U`` and its own twin: ``n``
    violations, ``n`` clashes (``U`` with each ``u{k}``); ``6 * n + 1``
    nodes (``4 * n`` boxes), ``8 * n`` edges; from ``n = 3`` on, as
    ``two-way-cycle``.

    ``U`` has ``n`` receivers, more than paths.rs ``FEW_RECEIVERS``, each
    the top of a fed side of the ring. From e440efb (session 31) a tool of
    many receivers entered a ring with fed sides down them, its ways in
    picked out once, but every such top below it tried again for each of
    its paths (until 1f83df3): ``n`` paths of ``n`` tops, 23 million steps
    to read ``n`` clashes at ``n = 1,000``, 4.3x for twice ``n`` (the
    check holds, 2.0x)."""
    w = id_width(n)
    nodes = [tool_record("U", "U")]
    edges = []
    for i in range(n):
        s, after = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        nodes += [box_record(f"C{s}"), box_record(f"S{s}"), box_record(f"F{s}")]
        edges += [edge_record(f"C{s}", f"C{after}"), edge_record(f"C{after}", f"C{s}")]
        edges += [edge_record("U", f"S{s}"), edge_record(f"S{s}", f"F{s}"), edge_record(f"F{s}", f"C{s}")]
    for k in range(n):
        s = f"{k:0{w}}"
        agent_nodes, agent_edges = _agent_with_twin(s, f"u{s}", "u")
        nodes += agent_nodes
        edges += agent_edges
    # Per member: C, S, F and the agent's a, Q, u; two edges of the ring,
    # U -> S, S -> F, F -> C, C -> a, u -> Q, Q -> a. Tool ids sort "U"
    # before every "u{k}", and every clash is named u: the first violation
    # is a0's, U with u0.
    zero = f"{0:0{w}}"
    expected = family_expected(n, n, (f"a{zero}", "u", ("U", f"u{zero}")), 6 * n + 1, 8 * n, n, 4 * n)
    return Generated(document(nodes, edges), expected)


RING_MEMBERS = 6
"""Members of each of ``rings-one-tool``'s rings."""

FED_MEMBERS = (2, 3, 4)
"""The members of each of ``rings-one-tool``'s rings fed down a fed side:
three of six, none of them the member its agent is below."""


def rings_one_tool(n: int) -> Generated:
    """Family 92: ``n`` rings of 6 boxes ``C{j}-{i}`` (``C{j}-{i} ->
    C{j}-{i + 1}`` and back), members 2, 3 and 4 of each fed down a fed
    side ``S{j}-{i} -> F{j}-{i} -> C{j}-{i}``; one tool ``U`` "U" wired
    into all ``3 * n`` sources; agent ``a{j}`` fed by ``C{j}-0`` and,
    through a box ``Q{j}`` of its own, by a twin ``u{j}`` "u" of ``U``
    (found by the attack of session 31). ``n`` violations, ``n`` clashes;
    ``15 * n + 1`` nodes (``13 * n`` boxes), ``24 * n`` edges; from ``n =
    1`` on.

    ``U`` has ``3 * n`` receivers, more than paths.rs ``FEW_RECEIVERS``.
    From e440efb (session 31) its ways into a cycle were picked out once
    per tool and cycle, but from every top with fed sides below the tool,
    two binary searches each (until 1f83df3): ``3 * n`` tops for each of
    ``n`` rings, 9.7 million steps to read ``n`` clashes at ``n = 800``,
    3.9x for twice ``n`` (the check holds, 2.0x)."""
    w = id_width(n)
    nodes = [tool_record("U", "U")]
    edges = []
    for j in range(n):
        r = f"{j:0{w}}"
        for i in range(RING_MEMBERS):
            c, after = f"C{r}-{i}", f"C{r}-{(i + 1) % RING_MEMBERS}"
            nodes.append(box_record(c))
            edges += [edge_record(c, after), edge_record(after, c)]
            if i in FED_MEMBERS:
                nodes += [box_record(f"S{r}-{i}"), box_record(f"F{r}-{i}")]
                edges += [edge_record("U", f"S{r}-{i}"), edge_record(f"S{r}-{i}", f"F{r}-{i}")]
                edges.append(edge_record(f"F{r}-{i}", c))
        nodes += [agent_record(f"a{r}"), box_record(f"Q{r}"), tool_record(f"u{r}", "u")]
        edges += [edge_record(f"C{r}-0", f"a{r}"), edge_record(f"u{r}", f"Q{r}"), edge_record(f"Q{r}", f"a{r}")]
    # Per ring: its members and two edges each (C{j}-5 next to C{j}-0);
    # per fed member S, F and U -> S, S -> F, F -> C; the agent's a, Q, u
    # and C -> a, u -> Q, Q -> a. Agent j sees U (down any fed side of its
    # own ring) and its twin: one clash each, U with u{j}, named u; "U"
    # sorts before every "u{j}": the first violation is a0's, U with u0.
    fed = len(FED_MEMBERS)
    zero = f"{0:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", "u", ("U", f"u{zero}")), (RING_MEMBERS + 2 * fed + 3) * n + 1,
        (2 * RING_MEMBERS + 3 * fed + 3) * n, n, (RING_MEMBERS + 2 * fed + 1) * n,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


SOURCES_PER_TOOL = 17
"""Side boxes each tool of ``ring-wide-sources`` is wired into: one more
receiver than paths.rs ``FEW_RECEIVERS``."""


def ring_wide_sources(n: int) -> Generated:
    """Family 93: a ring of ``n`` boxes ``C{i}`` (``C{i} -> C{i + 1}`` and
    back), each member fed down a fed side of its own, ``S{i} -> F{i} ->
    C{i}``, as ``sources-one-tool``; a tool ``U{i}`` "U i" per member,
    wired into the 17 sources ``S{i}`` to ``S{i + 16}`` (mod ``n``; all
    ``n`` below 17 members); agent ``a{k}`` fed by ``C{k}`` and, through a box ``Q{k}`` of
    its own, by a twin ``u{t}`` "u t" of ``U{t}``, ``t = (k + n / 2) mod n``
    (found by the attack of session 31). Every agent sees every ``U`` and
    one twin: ``n`` violations, ``n`` clashes; ``7 * n`` nodes (``4 * n``
    boxes), ``(7 + min(n, 17)) * n`` edges; from ``n = 3`` on, as
    ``two-way-cycle``.

    Each tool's 17 receivers are more than paths.rs ``FEW_RECEIVERS``,
    each the top of a fed side of the ring. Until e440efb (session 31) a
    tool of many receivers took no arc into a ring with fed sides, and
    each kept tool's path was read off the tree of ``C{k}``, half round the
    ring both ways: 218 million steps to read the violations at ``n =
    500`` (a 1.0 MB file), 6.1x and 4.8x for twice ``n`` from 125 (the
    check holds, 2.0x)."""
    w = id_width(n)
    wide = min(n, SOURCES_PER_TOOL)
    nodes = []
    edges = []
    for i in range(n):
        s, after = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        nodes += [box_record(f"C{s}"), box_record(f"S{s}"), box_record(f"F{s}"), tool_record(f"U{s}", f"U {s}")]
        edges += [edge_record(f"C{s}", f"C{after}"), edge_record(f"C{after}", f"C{s}")]
        edges += [edge_record(f"S{s}", f"F{s}"), edge_record(f"F{s}", f"C{s}")]
        edges += [edge_record(f"U{s}", f"S{(i + j) % n:0{w}}") for j in range(wide)]
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) % n:0{w}}"
        agent_nodes, agent_edges = _agent_with_twin(s, f"u{t}", f"u {t}")
        nodes += agent_nodes
        edges += agent_edges
    # Per member: C, S, F, U and the agent's a, Q, u; two edges of the
    # ring, S -> F, F -> C, U -> each of its sources, C -> a, u -> Q, Q -> a.
    # Agent k's one clash is U{t} with u{t}: the first violation is a0's.
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", f"u_{half}", (f"U{half}", f"u{half}")), 7 * n, (7 + wide) * n, n, 4 * n
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


MANY_SIDES = 18
"""Boxes below each of ``skip-many-fed-sides``' sources so fed, each a fed
side into its own member: more than paths.rs ``FEW_ENTRIES`` (16), past
which paths/arcs.rs took no arc from the source until 8ea52e9."""

MANY_SIDES_APART = 8
"""Members from one source with many fed sides to the next: ``n / 8``
such sources, each with its own stretch of the cycle."""


def skip_many_fed_sides(n: int) -> Generated:
    """Family 94: ``cycle-skip`` with 18 fed sides below every eighth
    side box: for ``i`` a multiple of 8, boxes ``F{i}-{j}`` (``j`` from 0
    to 17), ``S{i} -> F{i}-{j} -> C{i + j}``, box 0 in place of ``S{i} ->
    C{i}`` (found by the fifth attack of session 31). The cycle joins
    every member anyway: the same ``n`` violations and ``n`` clashes, the
    first a0's; ``6 * n + 18 * ceil(n / 8)`` nodes (``3 * n + 18 *
    ceil(n / 8)`` boxes), ``7 * n + 35 * ceil(n / 8)`` edges; from ``n =
    3`` on, as ``cycle-skip``.

    Each of those sources has more fed sides below it than paths.rs
    ``FEW_ENTRIES``, none shadowed (each into its own member), and
    paths/arcs.rs took no arc from it: until 8ea52e9 (session 32) each
    kept tool's path round the cycle from such a source was read off the
    tree of ``C{k}``: 14.8 million steps to read ``n`` clashes at
    ``n = 1,000`` (a 1.18 MB file), 4.8x to 5.7x for twice ``n`` from 250
    (the check holds, 2.0x to 2.2x); 0.26 million, 2.1x, since."""
    return _cycle_far(n, skip=True, many_sides=MANY_SIDES)


def ring_many_fed_sides(n: int) -> Generated:
    """Family 95: ``two-way-cycle`` with ``skip-many-fed-sides``' 18 fed
    sides below every eighth side box (found by the fifth attack of
    session 31). The same ``n`` violations and ``n`` clashes; ``6 * n + 18
    * ceil(n / 8)`` nodes, ``7 * n + 35 * ceil(n / 8)`` edges; from ``n =
    3`` on, as ``two-way-cycle``.

    As in ``skip-many-fed-sides``, until 8ea52e9 (session 32) each kept
    tool's path from a source of many fed sides was read off the tree of
    ``C{k}``, grown half round the ring both ways: 128 million steps to
    read ``n`` clashes at ``n = 1,000``, 4.6x to 5.4x for twice ``n`` from
    250 (the check holds); 0.34 million, 2.1x, since."""
    return _cycle_far(n, both_ways=True, many_sides=MANY_SIDES)


def skip_many_fed_sides_fanned(n: int) -> Generated:
    """Family 96: ``skip-many-fed-sides`` with ``cycle-fan-paths``' fan, as
    ``skip-fanned-fed-side`` adds it to ``skip-one-fed-side``: every tool
    ``U{i}`` also wired into 17 boxes ``X{i}-{j}``, each into one more agent
    ``Z`` (found by the fifth attack of session 31). ``Z`` sees every ``U``
    and no twin: ``n`` violations, ``n`` clashes; ``23 * n + 1 + 18 *
    ceil(n / 8)`` nodes (``20 * n + 18 * ceil(n / 8)`` boxes, ``n + 1``
    agents), ``41 * n + 35 * ceil(n / 8)`` edges; from ``n = 3`` on.

    Each tool's 18 receivers are more than paths.rs ``FEW_RECEIVERS``, and
    every eighth is the top of more than ``FEW_ENTRIES`` fed sides. Until
    8ea52e9 (session 32) such a top's ways down were left to trees: 44.9
    million steps to read ``n`` clashes at ``n = 1,000`` (a 4.38 MB file),
    4.4x to 6.9x for twice ``n`` from 125 (the check holds, 2.0x); 0.33
    million, 2.1x, since."""
    return _cycle_far(n, skip=True, fan=FANOUT, many_sides=MANY_SIDES)


def ring_many_fed_sides_fanned(n: int) -> Generated:
    """Family 97: ``ring-many-fed-sides`` with ``cycle-fan-paths``' fan, as
    ``skip-many-fed-sides-fanned`` (found by the fifth attack of session
    31). ``n`` violations, ``n`` clashes; ``23 * n + 1 + 18 * ceil(n /
    8)`` nodes, ``41 * n + 35 * ceil(n / 8)`` edges; from ``n = 3`` on.

    As in ``skip-many-fed-sides-fanned``: until 8ea52e9 (session 32) 92.9
    million steps to read ``n`` clashes at ``n = 1,000``, 4.3x to 6.0x for
    twice ``n`` from 125 (the check holds, 2.0x); 0.43 million, 2.1x,
    since."""
    return _cycle_far(n, both_ways=True, fan=FANOUT, many_sides=MANY_SIDES)


TOP_SIDES = 17
"""Fed sides below each top of ``ring-many-tops``: more than paths.rs
``FEW_ENTRIES``."""


def ring_many_tops(n: int) -> Generated:
    """Family 98: a ring of ``n`` boxes ``C{i}`` (``C{i} -> C{i + 1}`` and
    back); ``m = n / 8`` (rounded down) sources ``S{j}``, each above a box
    ``M{j}`` of its own and 17 fed sides below that, ``M{j} -> F{j}-{s} ->
    C{8 j + s}`` (``s`` from 0 to 16, members mod ``n``); a tool ``U{j}``
    "U j" per source, wired into the 17 sources ``S{j}`` to ``S{j + 16}``
    (mod ``m``; all ``m`` below 17); agent ``a{k}`` fed by ``C{k}`` and,
    through a box ``Q{k}`` of its own, by a twin ``u{k}`` "u t" of
    ``U{t}``, ``t = (k + n / 2) / 8 mod m`` (found by the fifth attack of
    session 31). Every agent sees every ``U`` and its own twin: ``n``
    violations, ``n`` clashes (some eight twins of each ``U``, each at one
    agent), the first a0's, ``U{t}`` with ``u0`` for ``t = n / 16``
    (rounded down); with ``r = min(m, 17)``, ``4 * n + 20 * m`` nodes (``2
    * n + 19 * m`` boxes), ``5 * n + (35 + r) * m`` edges; from ``n = 8``
    on.

    A tool of more than 16 receivers (paths.rs ``FEW_RECEIVERS``) with
    more than 16 tops of more than 16 fed sides each, all below one box of
    the top's own. Until 8ea52e9 (session 32), which asks up to 16 such
    tops apart and past that holds a way down each side from its deepest
    top (paths/arcs.rs ``downs_of``), each kept tool's path was read off the
    tree of ``C{k}``: 75 million steps to read ``n`` clashes at ``n =
    1,000`` (a 1.11 MB file), 4.4x to 7.4x for twice ``n`` from 500 (the
    check holds, 2.0x to 2.2x); 0.95 million, 2.1x, since. Smaller rings
    read more, not less (0.91 million steps at ``n = 128``, 0.46 million
    at 512, with main's extension of 8ea52e9), hence its doubling test
    from 1,000."""
    w = id_width(n)
    tops = n // MANY_SIDES_APART
    wide = min(tops, SOURCES_PER_TOOL)
    nodes = []
    edges = []
    for i in range(n):
        s, after = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        nodes.append(box_record(f"C{s}"))
        edges += [edge_record(f"C{s}", f"C{after}"), edge_record(f"C{after}", f"C{s}")]
    for j in range(tops):
        s = f"{j:0{w}}"
        nodes += [box_record(f"S{s}"), box_record(f"M{s}"), tool_record(f"U{s}", f"U {s}")]
        edges += [edge_record(f"U{s}", f"S{(j + r) % tops:0{w}}") for r in range(wide)]
        edges.append(edge_record(f"S{s}", f"M{s}"))
        for side in range(TOP_SIDES):
            f, member = f"F{s}-{side:02}", f"C{(j * MANY_SIDES_APART + side) % n:0{w}}"
            nodes.append(box_record(f))
            edges += [edge_record(f"M{s}", f), edge_record(f, member)]
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) // MANY_SIDES_APART % tops:0{w}}"
        agent_nodes, agent_edges = _agent_with_twin(s, f"u{s}", f"u {t}")
        nodes += agent_nodes
        edges += agent_edges
    # Per member: C and the agent's a, Q, u; two edges of the ring, C -> a,
    # u -> Q, Q -> a. Per top: S, M, U and its sides' F; U -> each of its
    # sources, S -> M, M -> F and F -> C per side. Agent k's one clash is
    # U{t} with u{k}, named u_{t}: the first violation is a0's.
    zero, first = f"{0:0{w}}", f"{n // 2 // MANY_SIDES_APART % tops:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", f"u_{first}", (f"U{first}", f"u{zero}")), 4 * n + (3 + TOP_SIDES) * tops,
        5 * n + (1 + 2 * TOP_SIDES + wide) * tops, n, 2 * n + (2 + TOP_SIDES) * tops,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


WIDE_TOOLS = 17
"""Agents ``Y`` every box ``W{i}`` of ``ring-wide-tools`` feeds, and boxes
each tool is wired into: one more than paths.rs ``FEW_RECEIVERS`` either
way, so that each tool has more than 16 sources of more than 16 receivers
each."""


def ring_wide_tools(n: int) -> Generated:
    """Family 99: ``two-way-cycle`` with a box ``W{i}`` per member, into
    ``C{i + 1}`` (mod ``n``) and into 17 more agents ``Y00`` to ``Y16``;
    each tool ``U{i}`` also wired into the 17 boxes ``W{i}`` to ``W{i +
    16}`` (mod ``n``; all ``n`` below 17), so that it enters the cycle at
    ``C{i}`` and at the 17 members after it (found by the attack of
    session 32). The ``Y`` see every ``U`` and no twin, and sort before
    every ``a{k}``: the same ``n`` violations and ``n`` clashes as
    ``two-way-cycle``, the first a0's; with ``r = min(n, 17)``, ``7 * n +
    17`` nodes (``4 * n`` boxes, ``n + 17`` agents), ``(25 + r) * n``
    edges; from ``n = 3`` on.

    Each tool has more than 16 receivers (paths.rs ``FEW_RECEIVERS``), 17
    of them sources of more than 16 receivers each (paths.rs
    ``FEW_ENTRIES``), each feeding a member. Until 75d9723 (session 32),
    which takes the members such sources feed as the tool's places fed
    past 16 of them (paths/arcs.rs ``ways_in``), the tool had no arc, and
    each kept tool's path, some ``n / 2`` boxes round the ring, was read
    off the tree of ``C{k}``: 137 million steps to read ``n`` clashes at
    ``n = 400`` (a 1.36 MB file), 7.8x, 5.1x and 4.5x for twice ``n``
    from 100 (the check holds, 2.0x to 2.1x); 0.14 million, 2.0x, since.
    Had each ``W{i}`` fed ``C{i + n / 2}``, the twin's own member would be
    fed straight from its tool, and its path short either way."""
    return _cycle_far(n, both_ways=True, wide_tools=WIDE_TOOLS)


def cycle_wide_tools(n: int) -> Generated:
    """Family 100: ``cycle-far`` (one way round) with ``ring-wide-tools``'
    boxes ``W{i}`` (found by the attack of session 32). The same ``n``
    violations and ``n`` clashes, the first a0's; with ``r = min(n, 17)``,
    ``7 * n + 17`` nodes, ``(24 + r) * n`` edges; from ``n = 3`` on.

    As in ``ring-wide-tools``, until 75d9723 (session 32) each kept tool's
    path was read off the tree of ``C{k}``: 1.45 million steps to read
    ``n`` clashes at ``n = 400`` (a 1.33 MB file), 4.2x for twice ``n``
    from 100 and from 200 (the check holds); 0.19 million, 2.0x, since.
    ``W{i}`` feeds ``C{i + 1}``, not ``C{i}``: two ways in as short to one
    member of a one-way cycle are left to the search (paths/arcs.rs)."""
    return _cycle_far(n, wide_tools=WIDE_TOOLS)


def skip_wide_tools(n: int) -> Generated:
    """Family 101: ``cycle-skip`` with ``ring-wide-tools``' boxes ``W{i}``
    (found by the attack of session 32). The same ``n`` violations and
    ``n`` clashes, the first a0's; with ``r = min(n, 17)``, ``7 * n + 17``
    nodes, ``(25 + r) * n`` edges; from ``n = 3`` on, as ``cycle-skip``.

    As in ``ring-wide-tools``, until 75d9723 (session 32) each kept tool's
    path was read off the tree of ``C{k}``: 60.9 million steps to read
    ``n`` clashes at ``n = 400`` (a 1.36 MB file), 30.7x, 6.3x and 4.7x
    for twice ``n`` from 100 (the check holds); 0.11 million, 1.7x to 2.0x
    from 200, since."""
    return _cycle_far(n, skip=True, wide_tools=WIDE_TOOLS)


TOPS_PAST_FEW = 17
"""Tops of ``chain-tops`` and ``nested-tops`` beyond those that grow with
``n``: one more receiver than paths.rs ``FEW_RECEIVERS`` at any ``n``."""


def chain_tops(n: int) -> Generated:
    """Family 102: a ring of ``m = max(6, n + 2)`` boxes ``C{i}`` (``C{i} ->
    C{i + 1}`` and back); a source ``S`` with a chain of ``k = 2 * n + 17``
    boxes ``S -> B0 -> ... -> B{k - 1} -> C0`` and ``n`` fed sides ``S ->
    Y{j} -> C{1 + j mod (m - 1)}``; one tool ``U`` "U" wired into ``S`` and
    every ``B{i}``; agent ``a0`` fed by ``C{m / 2}`` and by a twin ``u0``
    "u" of ``U`` (the attack of session 32, its ``ring-late-u``). One
    violation, one clash (``U`` with ``u0``, named u, at ``a0``); ``n + m
    + k + 4`` nodes (``n + m + k + 1`` boxes), ``2 * (n + m + k) + 4``
    edges; from ``n = 1`` on.

    The file lists the fed sides' boxes first and ``U -> S`` as its first
    edge, so that the forest walk enters the sides after the chain (in the
    other order the same workflow was linear). ``U``'s ``k`` receivers
    are more tops than the ring has fed sides: until 1423080 (session 32)
    each side climbed from the last top entered before it past every top
    already left (paths/arcs.rs ``tops_down``), ``n * k`` steps for the
    one violation's path: 4.2 million steps to read it at ``n = 1,000`` (a
    0.74 MB file), 3.7x and 3.9x for twice ``n`` from 250 (the check holds,
    2.0x); 0.14 million, 1.9x, since."""
    m = max(RING_MEMBERS, n + 2)
    k = 2 * n + TOPS_PAST_FEW
    w = id_width(k)
    nodes = [box_record(f"Y{j:0{w}}") for j in range(n)]
    nodes += [box_record(f"C{i:0{w}}") for i in range(m)]
    nodes.append(box_record("S"))
    nodes += [box_record(f"B{i:0{w}}") for i in range(k)]
    nodes += [tool_record("U", "U"), agent_record(f"a{0:0{w}}"), tool_record(f"u{0:0{w}}", "u")]
    # The order of edges in the file is the forest walk's order of
    # children: U -> S first, then S's sides, then the chain.
    edges = [edge_record("U", "S")]
    edges += [edge_record("S", f"Y{j:0{w}}") for j in range(n)]
    for i in range(m):
        s, after = f"C{i:0{w}}", f"C{(i + 1) % m:0{w}}"
        edges += [edge_record(s, after), edge_record(after, s)]
    chain = ["S"] + [f"B{i:0{w}}" for i in range(k)] + [f"C{0:0{w}}"]
    edges += [edge_record(chain[i], chain[i + 1]) for i in range(k + 1)]
    edges += [edge_record(f"Y{j:0{w}}", f"C{1 + j % (m - 1):0{w}}") for j in range(n)]
    edges += [edge_record("U", f"B{i:0{w}}") for i in range(k)]
    edges += [edge_record(f"C{m // 2:0{w}}", f"a{0:0{w}}"), edge_record(f"u{0:0{w}}", f"a{0:0{w}}")]
    # Per side Y and S -> Y, Y -> C; per member C and two edges of the
    # ring; per top B, its chain edge and U -> B; S, the chain's last edge
    # into C0, U -> S; a0, u0 and their two edges. a0 alone is a consumer.
    zero = f"{0:0{w}}"
    expected = family_expected(
        1, 1, (f"a{zero}", "u", ("U", f"u{zero}")), n + m + k + 4, 2 * (n + m + k) + 4, 1, n + m + k + 1
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


def nested_tops(n: int) -> Generated:
    """Family 103: a chain ``S -> T0 -> ... -> T{k - 1} -> F`` of ``k = n +
    17`` boxes below a source ``S``, box ``F`` feeding member 0 of each of
    ``n`` rings of 6 boxes ``C{j}-{i}`` (``C{j}-{i} -> C{j}-{i + 1}`` and
    back); one tool ``U`` "U" wired into every ``T{i}``; agent ``a{j}`` fed
    by ``C{j}-3`` and by a twin ``u{j}`` "u" of ``U`` (the attack of session
    32, its ``nested``). ``n`` violations, ``n`` clashes (``U`` with each
    ``u{j}``, named u); ``9 * n + 20`` nodes (``7 * n + 19`` boxes), ``17 *
    n + 35`` edges; from ``n = 1`` on.

    Every ring has one fed side, ``F``, below all ``k`` tops of ``U``.
    Until 1423080 (session 32) ``U``'s ways into each ring were taken from
    every top above ``F`` (paths/arcs.rs ``tops_down``, ``downs_of``), not
    only from the deepest: ``n * k`` for ``n`` rings, 12.5 million steps
    to read the violations at ``n = 1,000`` (a 1.68 MB file), 3.7x and
    3.9x for twice ``n`` from 250 (the check holds, 2.0x); 0.26 million,
    2.0x, since."""
    k = n + TOPS_PAST_FEW
    w = id_width(k)
    nodes = [box_record("S"), tool_record("U", "U")]
    edges = []
    above = "S"
    for i in range(k):
        t = f"T{i:0{w}}"
        nodes.append(box_record(t))
        edges += [edge_record(above, t), edge_record("U", t)]
        above = t
    nodes.append(box_record("F"))
    edges.append(edge_record(above, "F"))
    _rings_of_six_below(n, w, "F", nodes, edges)
    # S, U, F; per top T and S -> T (or the top above), U -> T; the last
    # top into F; per ring its 6 members and two edges each, a, u, C3 -> a,
    # u -> a, F -> C0. "U" sorts before every "u{j}": the first is a0's.
    zero = f"{0:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", "u", ("U", f"u{zero}")), (RING_MEMBERS + 2) * n + k + 3,
        (2 * RING_MEMBERS + 3) * n + 2 * k + 1, n, RING_MEMBERS * n + k + 2,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


def _rings_of_six_below(n: int, w: int, entry: str, nodes: List[str], edges: List[str]) -> None:
    """Appends ``n`` rings of 6 boxes ``C{j}-{i}`` (``C{j}-{i} -> C{j}-{i +
    1}`` and back), box ``entry`` into member 0 of each, and per ring an
    agent ``a{j}`` fed by ``C{j}-3`` and by a twin ``u{j}`` "u" of tool
    ``U`` (``nested-tops``, ``wide-cycles``)."""
    for j in range(n):
        r = f"{j:0{w}}"
        for i in range(RING_MEMBERS):
            c, after = f"C{r}-{i}", f"C{r}-{(i + 1) % RING_MEMBERS}"
            nodes.append(box_record(c))
            edges += [edge_record(c, after), edge_record(after, c)]
        nodes += [agent_record(f"a{r}"), tool_record(f"u{r}", "u")]
        edges += [edge_record(f"C{r}-3", f"a{r}"), edge_record(f"u{r}", f"a{r}"), edge_record(entry, f"C{r}-0")]


WIDE_FEEDERS = 17
"""Agents ``b{j}`` each box ``X{i}`` of ``wide-cycles`` feeds: one more
receiver than paths.rs ``FEW_ENTRIES``, so that each box is a wide source."""


def wide_cycles(n: int) -> Generated:
    """Family 104: ``n`` rings of 6 boxes ``C{j}-{i}`` (``C{j}-{i} ->
    C{j}-{i + 1}`` and back), a box ``Z`` into member 0 of each; ``n`` boxes
    ``X{i}``, each into the same 17 agents ``b00`` to ``b16``; one tool
    ``U`` "U" wired into ``Z`` and every ``X{i}``; agent ``a{j}`` fed by
    ``C{j}-3`` and by a twin ``u{j}`` "u" of ``U`` (the attack of session
    32, its ``wide_cycles`` with shared agents). The ``b{j}`` see ``U``
    alone: ``n`` violations, ``n`` clashes (``U`` with each ``u{j}``,
    named u); ``9 * n + 19`` nodes (``7 * n + 1`` boxes), ``33 * n + 1``
    edges; from ``n = 1`` on.

    ``U`` has ``n + 1`` receivers, ``n`` of them sources of more than 16
    receivers that feed nothing of any ring. From 75d9723 until 1423080
    (session 32) ``U``'s ways into each ring asked every such source for
    the members it feeds (paths/arcs.rs ``ways_in``): ``n * n`` for ``n``
    rings, and as many map entries; 24.2 million steps to read the
    violations at ``n = 1,000`` (a 2.82 MB file), 3.9x and 4.0x for twice
    ``n`` from 250 (the check holds, 2.0x); 0.23 million, 2.1x, since.
    Before 75d9723 such a tool had no arc, and each path, 5 boxes long,
    was read off a tree: 2.0x."""
    w = id_width(n)
    nodes = [box_record("Z"), tool_record("U", "U")]
    edges = [edge_record("U", "Z")]
    _rings_of_six_below(n, w, "Z", nodes, edges)
    for i in range(n):
        x = f"X{i:0{w}}"
        nodes.append(box_record(x))
        edges.append(edge_record("U", x))
        edges += [edge_record(x, f"b{b:02}") for b in range(WIDE_FEEDERS)]
    nodes += [agent_record(f"b{b:02}") for b in range(WIDE_FEEDERS)]
    # Z, U, the b's; per ring its 6 members and two edges each, a, u,
    # C3 -> a, u -> a, Z -> C0; per X, U -> X and X -> b per b; U -> Z.
    # The b's see U alone; "U" sorts before every "u{j}": a0's is first.
    zero = f"{0:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", "u", ("U", f"u{zero}")), (RING_MEMBERS + 3) * n + 2 + WIDE_FEEDERS,
        (2 * RING_MEMBERS + 4 + WIDE_FEEDERS) * n + 1, n + WIDE_FEEDERS, (RING_MEMBERS + 1) * n + 1,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


def ring_edge_missing(n: int) -> Generated:
    """Family 105: ``two-way-cycle`` without the edge ``C1 -> C0``, one
    edge one way of the ring (the attack of session 31; paths/arcs.rs's
    ``cmp9_a_ring_with_one_edge_missing_is_read_as_the_walk``, its
    ``src-ring-almost``). The cycle
    one way round still joins every member: the same ``n`` violations and
    ``n`` clashes, the first a0's; ``6 * n`` nodes, ``7 * n - 1`` edges;
    from ``n = 3`` on, as ``two-way-cycle``.

    Its members are roots of two providers but no ring until 7631494
    (session 32), which reads a ring with one edge one way missing as a
    ring whose way round past that edge does not wrap: until then each
    kept tool's path was read off the tree of ``C{k}``, 414 million steps
    to read the violations at ``n = 1,000`` (a 0.76 MB file), 6.8x and 4.6x
    for twice ``n`` from 100, 5.0x and 4.3x from 250 (the check holds, 2.0x
    to 2.2x, as ``two-way-cycle``'s); 0.14 million, 2.0x, since."""
    return _cycle_far(n, both_ways=True, missing_back=True)


def ring_chained_edge_missing(n: int) -> Generated:
    """Family 109: ``ring-chained`` without ``B0``, the box between ``C1``
    and ``C0`` one way (session 31's attack, its ``fed-ring-chained-almost``;
    paths/arcs.rs's ``cmp9_a_ring_with_one_edge_missing_is_read_as_the_walk``).
    The cycle one way round still joins every member: the same ``n``
    violations and ``n`` clashes, the first a0's; ``8 * n - 1`` nodes,
    ``9 * n - 2`` edges; from ``n = 3`` on.

    A ring with an edge missing whose roots are joined by chains was no
    ring until session 33: each kept tool's path was read off the tree of
    ``C{k}``, 6.9x then 4.8x the reading work for twice ``n`` from 100
    (127 million steps at 400). Its way round past the missing edge is
    now held from the member after it, chains included, and a chain box
    whose way round passes that end is reached down its chain (its bottom
    root's way turns back, which the search decides)."""
    return _cycle_far(n, both_ways=True, chained=True, back_chained=True, missing_back=True)


def cycle_ties(n: int) -> Generated:
    """Family 106: ``cycle-far`` with each tool ``U{i}`` also wired straight
    into ``C{i - 1}`` (mod ``n``; found in session 33, its ``ties``
    ``straight``). From ``U{i}`` the way through ``S{i}`` and the way
    through ``C{i - 1}`` are as short to ``C{i}`` and every member after
    it: a tie at the tool's first step, decided by ids (among chains as
    short, the one of smallest ids from the tool end, docs/SEMANTICS.md
    section 6; CMP-9). The same ``n`` violations and ``n`` clashes, the
    first a0's; ``6 * n`` nodes, ``7 * n`` edges; from ``n = 3`` on.

    Until 264d57d (session 33), which finds the walk's way into a one-way
    cycle as into a skip cycle (paths/arcs.rs ``walks_way_in``), two ways
    in as short were left to the search and trees: each kept tool's path,
    half round the cycle, was read off the tree of ``C{k}``, 6.96 million
    steps to read ``n`` clashes at ``n = 1,000`` (a 0.76 MB file), 3.6x,
    3.9x and 4.1x for twice ``n`` from 100 (the check holds, 2.0x to 2.2x);
    0.28 million, 2.0x, since."""
    return _cycle_far(n, straight_ties=True)


def cycle_side_ties(n: int) -> Generated:
    """Family 107: ``cycle-far`` with each tool ``U{i}`` also wired into
    ``S{i + 1}``, which also feeds ``C{i + 2}`` down a box ``F{i}`` of its
    own (``S{i + 1} -> F{i} -> C{i + 2}``, mod ``n``; found in session 33,
    its ``ties`` ``side``). From ``S{i + 1}`` the way straight into ``C{i +
    1}`` and on, and the way down ``F{i}``, are as short to every member
    past ``C{i + 1}``: a tie below a source, which the walk decides where
    the two ways part. The same ``n`` violations and ``n`` clashes, the
    first a0's; ``7 * n`` nodes (``4 * n`` boxes), ``9 * n`` edges; from
    ``n = 3`` on.

    As in ``cycle-ties``, until 264d57d (session 33) each kept tool's path
    was read off the tree of ``C{k}``: 8.52 million steps to read ``n``
    clashes at ``n = 1,000`` (a 0.94 MB file), 3.6x, 3.8x and 3.9x for
    twice ``n`` from 100 (the check holds, 2.0x to 2.2x); 0.36 million,
    2.0x, since."""
    return _cycle_far(n, side_ties=True)


TIED_TOPS = 17
"""Sources each tool of ``cycle-tops-tied`` is wired into: one more than
paths.rs ``FEW_RECEIVERS``, so that each tool has more receivers than
that, every source among them a top above a fed side."""


def cycle_tops_tied(n: int) -> Generated:
    """Family 108: ``cycle-far`` with each source ``S{i}`` also feeding
    ``C{i + 1}`` down a box ``F{i}`` of its own (``S{i} -> F{i} -> C{i +
    1}``), and each tool ``U{i}`` also wired into the sources ``S{i + 1}``
    to ``S{i + 16}`` (17 tops above fed sides with ``S{i}``; all ``n``
    below 17) and straight into ``C{i - 1}`` (mod ``n``; found in session
    33, its ``ties`` ``tops-tied``). From the last of them, ``S{i +
    16}``, the way straight into ``C{i + 16}`` and on, and the way down
    ``F{i + 16}``, are as short to every member past ``C{i + 16}``: a tie
    below one of many tops, decided where the ways part; and into ``C{i}``
    the way through ``S{i}`` and the way through ``C{i - 1}``. The same
    ``n`` violations and ``n`` clashes, the first a0's; with ``r = min(n,
    17)``, ``7 * n`` nodes (``4 * n`` boxes), ``(8 + r) * n`` edges; from
    ``n = 3`` on.

    Each tool has more receivers than paths.rs ``FEW_RECEIVERS``: until
    264d57d (session 33), which gives such a tool's ways down from its
    tops to the one-way cycle's walk (``Downs``), each kept tool's path
    was read off the tree of ``C{k}``: 10.3 million steps to read ``n``
    clashes at ``n = 1,000`` (a 2.14 MB file), 3.3x, 3.5x and 3.8x for
    twice ``n`` from 100 (the check holds, 2.0x to 2.1x); 1.23 million,
    2.1x, since: a log factor (binary searches among the ways down
    held)."""
    return _cycle_far(n, tops_tied=TIED_TOPS)


SPLIT = "~"
"""What a box's id takes to name its second half in the split families
(111 to 114, 116): every box ``b`` is ``b -> b~``, ``b~`` taking over all of
``b``'s receivers, as the attack of session 33 split them. ``~`` sorts
after every letter and digit, so ``b~`` comes right after ``b`` in id
order (ids are zero-padded to one width)."""


def ring_split(n: int) -> Generated:
    """Family 111: ``two-way-cycle`` with every box split in two in series
    (the attack of session 33, its finding 7): ``C{i} -> C{i}~``, ``C{i}~``
    feeding ``C{i + 1}``, ``C{i - 1}`` and agent ``a{i}``; ``S{i} ->
    S{i}~ -> C{i}``; ``Q{k} -> Q{k}~ -> a{k}``. The halves only lengthen
    every way by its boxes' second halves, so the answer is
    ``two-way-cycle``'s: ``n`` violations, ``n`` clashes, the first a0's;
    ``9 * n`` nodes (``6 * n`` boxes), ``10 * n`` edges; from ``n = 3`` on.

    The two chains below a member, on to the member after and back to the
    member before, share their top box ``C{i}~``: no ring took that until
    b61926a (session 34), and each kept tool's path was read off the tree
    of ``C{k}``, half round the ring both ways: 839 million steps to read
    the violations at ``n = 1,000`` (a 1.09 MB file), 7.05x and 5.00x for
    twice ``n`` from 100, 4.89x and 4.51x from 250 (the check holds, 2.1x);
    0.16 million, 2.0x, since. ``C{i}~`` is on both ways round, and a tie
    there is decided where the ways part."""
    return _ring_split(n)


def ring_chained_split(n: int) -> Generated:
    """Family 112: ``ring-chained`` with every box split in two in series,
    as ``ring-split``: ``C{i} -> C{i}~``, then ``C{i}~ -> D{i} -> D{i}~
    -> C{i + 1}`` one way and ``C{i}~ -> B{i - 1} -> B{i - 1}~ -> C{i -
    1}`` the other, so the chains each way start with the shared
    ``C{i}~``. The same ``n`` violations and ``n`` clashes, the first
    a0's; ``13 * n`` nodes (``10 * n`` boxes), ``14 * n`` edges; from
    ``n = 3`` on.

    Until b61926a (session 34) each kept tool's path was read off the tree
    of ``C{k}``: 1,592 million steps to read the violations at ``n =
    1,000`` (a 1.53 MB file), 6.87x and 5.18x for twice ``n`` from 100,
    4.82x and 4.40x from 250 (the check holds, 2.1x); 0.17 million, 2.0x,
    since. Listed as the attack's transform lists it (each ``b -> b~``
    after every other edge) it read 3.9x for twice ``n`` from 100."""
    return _ring_split(n, chained=True)


def ring_edge_missing_split(n: int) -> Generated:
    """Family 113: ``ring-edge-missing`` with every box split in two in
    series, as ``ring-split``: no ``C1~ -> C0``, the one edge one way of
    the ring missing. The cycle one way round still joins every member:
    the same ``n`` violations and ``n`` clashes, the first a0's; ``9 *
    n`` nodes, ``10 * n - 1`` edges; from ``n = 3`` on.

    Until b61926a (session 34) each kept tool's path was read off the tree
    of ``C{k}``: 743 million steps to read the violations at ``n = 1,000``
    (a 1.09 MB file), 6.85x and 4.81x for twice ``n`` from 100, 4.69x and
    4.42x from 250 (the check holds, 2.1x); 0.17 million, 2.0x, since."""
    return _ring_split(n, missing_back=True)


def _split_box(box: str, nodes: List[str], edges: List[str]) -> str:
    """Writes ``box`` and its second half, ``box -> box~``; returns the half
    every receiver of ``box`` is fed by."""
    half = box + SPLIT
    nodes.extend([box_record(box), box_record(half)])
    edges.append(edge_record(box, half))
    return half


def _split_agents(n: int, nodes: List[str], edges: List[str]) -> None:
    """Per member k of a split cycle, agent ``a{k}`` fed by ``C{k}~`` and,
    through a split box ``Q{k}``, by a twin ``u{t}`` of ``U{t}``, t half
    round from k: every agent a clash half round."""
    w = id_width(n)
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) % n:0{w}}"
        nodes.append(agent_record(f"a{s}"))
        own = _split_box(f"Q{s}", nodes, edges)
        nodes.append(tool_record(f"u{t}", f"u {t}"))
        edges += [edge_record(f"C{s}{SPLIT}", f"a{s}"), edge_record(f"u{t}", f"Q{s}"), edge_record(own, f"a{s}")]


def _ring_split(n: int, chained: bool = False, missing_back: bool = False) -> Generated:
    """``two-way-cycle`` with every box ``b`` split into ``b -> b~`` (see
    ``ring-split``); ``chained``, ``ring-chained``'s boxes ``D{i}`` and
    ``B{i}`` between neighbours, split too; ``missing_back``, without the
    way back from ``C1`` to ``C0`` (``C1~ -> C0``, or with ``chained``
    ``B0`` and its half and edges)."""
    w = id_width(n)
    nodes: List[str] = []
    edges: List[str] = []

    def split_box(box: str) -> str:
        return _split_box(box, nodes, edges)

    def way(source: str, middle: str, target: str) -> None:
        """From ``source`` to ``target``, through ``middle`` split, or
        straight without ``chained``."""
        if chained:
            edges.extend([edge_record(source, middle), edge_record(split_box(middle), target)])
        else:
            edges.append(edge_record(source, target))

    for i in range(n):
        s, after = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        member = split_box(f"C{s}")
        side = split_box(f"S{s}")
        nodes.append(tool_record(f"U{s}", f"U {s}"))
        edges += [edge_record(f"U{s}", f"S{s}"), edge_record(side, f"C{s}")]
        way(member, f"D{s}", f"C{after}")
        if not (missing_back and i == 1):
            way(member, f"B{(i - 1) % n:0{w}}", f"C{(i - 1) % n:0{w}}")
    _split_agents(n, nodes, edges)
    # Per member: C, S and their halves, U; C -> C~, S -> S~, U -> S,
    # S~ -> C, C~ -> next and C~ -> the one before (each, chained, through
    # a box and its half: D -> D~ one way, B -> B~ the other, three edges
    # for one). Per agent: a, Q, Q~, u; Q -> Q~, C~ -> a, u -> Q, Q~ -> a.
    # Agent k sees every U and one twin, u{t} named as U{t}: its only
    # clash; a0's is the first violation. The missing way back drops one
    # edge, or with chained B0, B0~ and three edges.
    boxes = (6 + 4 * chained) * n - 2 * (missing_back and chained)
    edge_count = (10 + 4 * chained) * n - (1 + 2 * chained if missing_back else 0)
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", f"u_{half}", (f"U{half}", f"u{half}")), boxes + 3 * n, edge_count, n, boxes
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


def skip_split(n: int) -> Generated:
    """Family 114: ``cycle-skip`` with every box split in two in series,
    as ``ring-split`` (the attack of session 33, its finding 7): ``C{i}
    -> C{i}~``, ``C{i}~`` feeding ``C{i + 1}``, ``C{i + 2}`` and agent
    ``a{i}``; ``S{i} -> S{i}~ -> C{i}``; ``Q{k} -> Q{k}~ -> a{k}``. The
    halves only lengthen every way by its boxes' second halves, so the
    answer is ``cycle-skip``'s: ``n`` violations, ``n`` clashes, the first
    a0's; ``9 * n`` nodes (``6 * n`` boxes), ``10 * n`` edges; from ``n =
    3`` on, as ``cycle-skip``.

    Each member is fed by the two before it down chains of one box each,
    ``C{i - 1}~`` and ``C{i - 2}~``: no skip cycle took members so joined
    until 4355c2c (session 34), and each kept tool's path was read off the
    tree of ``C{k}``, grown out to the tool over ways that cross: 100
    million steps to read the violations at ``n = 1,000`` (a 1.09 MB
    file), 4.90x, 4.94x and 5.44x for twice ``n`` from 125 (the check
    holds, 2.0x to 2.1x); 0.16 million, 2.0x, since. A tie at a member is
    decided where the two chains below it part."""
    return _skip_split(n)


def skip_wide_tools_split(n: int) -> Generated:
    """Family 116: ``skip-wide-tools`` with every box split in two in
    series, as ``skip-split``: ``W{i} -> W{i}~`` too, ``W{i}~`` feeding
    ``C{i + 1}`` and the 17 agents ``Y{j}``, each tool ``U{i}`` still
    wired into ``W{i}`` to ``W{i + 16}``. The same ``n`` violations and
    ``n`` clashes, the first a0's; with ``r = min(n, 17)``, ``11 * n +
    17`` nodes (``8 * n`` boxes), ``(29 + r) * n`` edges; from ``n = 3``
    on.

    Until 4355c2c (session 34) each kept tool's path was read off the tree
    of ``C{k}``: 81 million steps to read the violations at ``n = 400``
    (a 1.54 MB file), 391 million at 800, 5.56x, 6.27x and 4.82x for twice
    ``n`` from 100 (the check holds, 2.0x to 2.1x); 0.40 million at 400,
    2.1x to 2.2x, since."""
    return _skip_split(n, wide_tools=WIDE_TOOLS)


def skip_split_into(n: int) -> Generated:
    """Family 118: ``skip-split`` with each tool ``U{i}`` wired into
    ``C{i}~``, the box below its member, instead of ``S{i}`` (the attack
    of session 34, its finding A): ``S{i} -> S{i}~ -> C{i}`` stay, fed by
    nothing. ``C{i}~`` still feeds ``C{i + 1}``, ``C{i + 2}`` and agent
    ``a{i}``, so every agent still sees every ``U`` and its one twin: the
    same ``n`` violations and ``n`` clashes, the first a0's; ``9 * n``
    nodes (``6 * n`` boxes), ``10 * n`` edges; from ``n = 3`` on.

    A tool wired into a box of a skip cycle's chain got no arc of the
    cycle until faa6797 (session 34), and its path was read off the tree
    of ``C{k}``: 83 million steps to read the clashes' tools at ``n =
    1,000`` (a 1.09 MB file), 1.2 billion at 4,000, 9.07x, 5.20x and 5.43x
    for twice ``n`` from 125 (the check holds, 2.0x to 2.1x); 0.13 million
    at 1,000, 2.0x, since."""
    return _skip_split(n, into_chain=True)


def _skip_split(n: int, wide_tools: int = 0, into_chain: bool = False) -> Generated:
    """``cycle-skip`` with every box ``b`` split into ``b -> b~`` (see
    ``skip-split``); ``wide_tools``, ``skip-wide-tools``' boxes ``W{i}``
    (into ``C{i + 1}`` and as many agents ``Y00``, ``Y01``, ..., each
    tool ``U{i}`` also into ``W{i}``, ``W{i + 1}``, ..., all ``n`` below
    that many), split too; ``into_chain``, each tool ``U{i}`` into
    ``C{i}~`` instead of ``S{i}`` (``skip-split-into``)."""
    w = id_width(n)
    nodes: List[str] = []
    edges: List[str] = []

    def split_box(box: str) -> str:
        return _split_box(box, nodes, edges)

    for i in range(n):
        s, after = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        member = split_box(f"C{s}")
        side = split_box(f"S{s}")
        nodes.append(tool_record(f"U{s}", f"U {s}"))
        # into_chain: U{i} into its member's half, a box of the cycle's
        # chains, rather than above the member; S{i} is then fed by nothing.
        edges += [edge_record(f"U{s}", member if into_chain else f"S{s}"), edge_record(side, f"C{s}")]
        edges += [edge_record(member, f"C{after}"), edge_record(member, f"C{(i + 2) % n:0{w}}")]
        if wide_tools:
            wide = split_box(f"W{s}")
            edges.append(edge_record(wide, f"C{after}"))
            edges += [edge_record(wide, f"Y{z:02}") for z in range(wide_tools)]
            edges += [edge_record(f"U{s}", f"W{(i + j) % n:0{w}}") for j in range(min(n, wide_tools))]
    nodes += [agent_record(f"Y{z:02}") for z in range(wide_tools)]
    _split_agents(n, nodes, edges)
    # Per member: C, S and their halves, U; C -> C~, S -> S~, U -> S,
    # S~ -> C, C~ -> the next two (into_chain: U -> C~ for U -> S, the
    # same count). Per agent: a, Q, Q~, u; Q -> Q~, C~ ->
    # a, u -> Q, Q~ -> a. Wide tools: per member W, W~, W -> W~, W~ -> the
    # next member, W~ -> each Y, U -> W for each W it feeds (17, or n
    # below that); the Y sort before every a and see every U, no twin.
    # Agent k sees every U and one twin, u{t} named as U{t}: its only
    # clash; a0's is the first violation.
    boxes = (6 + 2 * bool(wide_tools)) * n
    edge_count = (10 + (2 + wide_tools + min(n, wide_tools) if wide_tools else 0)) * n
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", f"u_{half}", (f"U{half}", f"u{half}")), boxes + 3 * n + wide_tools, edge_count,
        n + wide_tools, boxes,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


def renames_hub_chained(n: int) -> Generated:
    """Family 115: ``renames-hub`` with a box of its own on every edge from
    a box to a box (the attack of session 33, its finding 9, its
    transform ``chain``): the box on ``x -> y`` is ``x-y``, ``x -> x-y ->
    y``: ``C{i}-C{i + 1}``, ``C{i}-C{i + 2}``, ``S{i}-C{i}``, ``C{k -
    1}-Q{k}``, ``Q{k}-Q2{k}``, ``C0-H`` and ``E{j}-H``. Every way only
    grows by its edges' boxes; ``C{k}`` still feeds ``a{k}`` straight, so
    ``Q{k}`` stays off ``U{t}``'s path: ``renames-hub``'s ``n``
    violations, ``n`` clashes, the first a0's; ``12 * n + 522`` nodes
    (``9 * n + 522`` boxes), ``15 * n + 522`` edges; from ``n = 3`` on.

    The skip cycle's members are joined by chains of one box each way
    (``C{i}-C{i + 1}``, ``C{i}-C{i + 2}``): no skip cycle took them until
    4355c2c (session 34). The walk for a renamed twin's way runs out at
    ``H``'s providers, as in ``renames-hub``, and the kept tool's path was
    found in the check, read off the tree of ``C{k}``: 101 million steps
    in the check at ``n = 1,000`` (a 1.69 MB file), 6.70x, 4.84x and 5.35x
    for twice ``n`` from 125, and as many again to read the violations'
    paths; 0.48 million, 2.0x to 2.1x, since."""
    w = id_width(n)
    nodes: List[str] = []
    edges: List[str] = []

    def way(source: str, target: str) -> None:
        """``source -> target`` through a box of its own, ``source-target``."""
        middle = f"{source}-{target}"
        nodes.append(box_record(middle))
        edges.extend([edge_record(source, middle), edge_record(middle, target)])

    for i in range(n):
        s, after = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        nodes += [box_record(f"C{s}"), box_record(f"S{s}"), tool_record(f"U{s}", f"U {s}")]
        way(f"C{s}", f"C{after}")
        way(f"C{s}", f"C{(i + 2) % n:0{w}}")
        way(f"S{s}", f"C{s}")
        edges.append(edge_record(f"U{s}", f"S{s}"))
    nodes.append(box_record("H"))
    way(f"C{0:0{w}}", "H")
    for j in range(HUB_EMPTIES):
        nodes.append(box_record(f"E{j:03}"))
        way(f"E{j:03}", "H")
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) % n:0{w}}"
        nodes += [agent_record(f"a{s}"), box_record(f"Q{s}"), tool_record(f"u{t}", f"u {t}"), box_record(f"Q2{s}")]
        edges += [edge_record(f"C{s}", f"a{s}"), edge_record(f"Q2{s}", f"a{s}")]
        way(f"Q{s}", f"Q2{s}")
        way(f"C{(k - 1) % n:0{w}}", f"Q{s}")
        edges += [edge_record(f"u{t}", f"Q{s}"), edge_record("H", f"a{s}")]
    # renames-hub's 7 n + 261 nodes (4 n + 261 boxes) and 10 n + 261
    # edges, and per edge from a box to a box one box more and one edge
    # more: per member three (to the next two, from its side), per agent
    # two (C{k - 1} -> Q, Q -> Q2), C0 -> H and each E -> H.
    boxes = 4 * n + HUB_EMPTIES + 1 + 5 * n + HUB_EMPTIES + 1
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", f"u_{half}", (f"U{half}", f"u{half}")), boxes + 3 * n, boxes + 6 * n, n, boxes
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


TWIN = "^"
"""What a box's id takes to name its twin in the twinned families (119 to
121): every box ``b`` has a twin ``b^`` fed by ``b``'s providers and
feeding ``b``'s receivers, twins of boxes feeding twins, as the attack of
session 33's ``para`` transform made them. ``b`` is a prefix of ``b^``, so
the original's id is the smaller: the twin a path keeps (the smallest id
among equals, docs/SEMANTICS.md 6) is the original, ``b^`` the one that
vanishes (collisions/twins.rs)."""


def cycle_twins(n: int) -> Generated:
    """Family 119: ``cycle-far`` with every box twinned (the attack of
    session 33, its transform ``para``): ``C{i}``, ``S{i}`` and ``Q{k}``
    each with a twin ``C{i}^``, ``S{i}^``, ``Q{k}^`` of the same providers
    and receivers: ``C{i}`` and ``C{i}^`` both into ``C{i + 1}`` and
    ``C{i + 1}^``, ``S{i}`` and ``S{i}^`` into ``C{i}`` and ``C{i}^``,
    ``U{i}`` into ``S{i}`` and ``S{i}^``; ``C{k}`` and ``C{k}^`` into agent
    ``a{k}``, ``u{t}`` into ``Q{k}`` and ``Q{k}^``, both into ``a{k}``.
    Twins only double every way, so the answer is ``cycle-far``'s: ``n``
    violations, ``n`` clashes, the first a0's; ``9 * n`` nodes (``6 * n``
    boxes), ``16 * n`` edges; from ``n = 2`` on.

    Every member is fed by two members as near, ``C{i - 1}`` and ``C{i -
    1}^``, each fed by both before them: ties at every step, which no arc of
    a cycle reads as one. Until 8da7c4e (session 35), which makes every twin
    but the original vanish from what paths read, reading the clashes' tools
    took 62.6 million steps at ``n = 500`` and 291 million at 1,000 (a 1.55
    MB file), 5.30x, 4.83x and 4.65x for twice ``n`` from 125, the
    violations' listing and readings alike (the check holds, 2.0x to 2.1x);
    0.26 million at 1,000, 2.0x, since: the cycle is read as ``cycle-far``,
    in as many steps. Listed as the attack's transform lists it (each twin's
    edges after every other edge) it read 222 million steps at 500, 5.16x
    and 4.43x for twice ``n`` from 125."""
    return _cycle_twins(n)


def ring_twins(n: int) -> Generated:
    """Family 120: ``two-way-cycle`` with every box twinned, as
    ``cycle-twins``: ``C{i + 1}`` and ``C{i + 1}^`` also into ``C{i}`` and
    ``C{i}^``. The same ``n`` violations and ``n`` clashes, the first
    a0's; ``9 * n`` nodes (``6 * n`` boxes), ``20 * n`` edges; from ``n =
    3`` on, as ``two-way-cycle``.

    Until 8da7c4e (session 35) reading the clashes' tools took 650 million
    steps at ``n = 500`` and 2.86 billion at 1,000 (a 1.85 MB file), 6.35x,
    4.53x and 4.39x for twice ``n`` from 125, the violations' listing and
    readings alike (the check holds, 2.0x to 2.1x); 0.13 million at 1,000,
    2.0x, since: the ring is read as ``two-way-cycle``, in as many steps.
    Listed as the attack's transform lists it, 518 million at 500, 5.10x and
    4.37x from 125."""
    return _cycle_twins(n, both_ways=True)


def skip_twins(n: int) -> Generated:
    """Family 121: ``cycle-skip`` with every box twinned, as
    ``cycle-twins``: ``C{i}`` and ``C{i}^`` also into ``C{i + 2}`` and
    ``C{i + 2}^``. The same ``n`` violations and ``n`` clashes, the first
    a0's; ``9 * n`` nodes (``6 * n`` boxes), ``20 * n`` edges; from ``n =
    3`` on, as ``cycle-skip``.

    Until 8da7c4e (session 35) reading the clashes' tools took 103 million
    steps at ``n = 500`` and 541 million at 1,000 (a 1.85 MB file), 9.13x,
    5.49x and 5.25x for twice ``n`` from 125, the violations' listing and
    readings alike (the check holds, 2.0x to 2.1x); 0.13 million at 1,000,
    2.0x, since: the skip cycle is read as ``cycle-skip``, in as many steps.
    Listed as the attack's transform lists it, 386 million at 500, 5.45x and
    5.09x from 125."""
    return _cycle_twins(n, skip=True)


def ring_near_twins(n: int) -> Generated:
    """Family 122: ``ring-twins`` with every twin ``b^`` also into an agent
    ``b^a`` of its own (the attack of session 35, its transform ``near``):
    ``b^`` is no twin of ``b`` any more, but a *near twin*, fed by the same
    boxes and feeding the same boxes. The twins' agents see no clash (a
    member's twin sees every ``U``, a side's twin one ``U``, ``Q{k}^`` one
    ``u``), so the answer is ``ring-twins``'s: ``n`` violations, ``n``
    clashes, the first a0's; ``12 * n`` nodes (``6 * n`` boxes), ``23 * n``
    edges; from ``n = 3`` on.

    Every member is fed by two members as near each way round, each also
    the way to an agent of its own. Until session 36, which cuts a near
    twin from every box and every consumer its box feeds too
    (collisions/twins.rs), reading the clashes' tools took 143 million
    steps at ``n = 250`` and 648 million at 500 (a 1.1 MB file), 6.32x and
    4.54x for twice ``n`` from 125, the check 2.0x; 76,487 at 500, 2.0x,
    since: the ring is read as ``ring-twins``, each near twin a box below
    it."""
    return _cycle_twins(n, both_ways=True, near=True)


def _cycle_twins(n: int, both_ways: bool = False, skip: bool = False, near: bool = False) -> Generated:
    """``cycle-far`` with every box ``b`` twinned, ``b^`` beside it (see
    ``cycle-twins``); ``both_ways``, ``two-way-cycle``'s edges back,
    ``C{i + 1} -> C{i}``; ``skip``, ``cycle-skip``'s ``C{i} -> C{i + 2}``;
    ``near``, each twin also into an agent ``b^a`` of its own, listed after
    the twin. Nodes and edges are listed as ``_cycle_far`` lists them, each
    edge followed by its twins' copies."""
    w = id_width(n)
    nodes: List[str] = []
    edges: List[str] = []

    def twinned(box: str) -> None:
        nodes.extend([box_record(box), box_record(box + TWIN)])
        if near:
            nodes.append(agent_record(box + TWIN + "a"))
            edges.append(edge_record(box + TWIN, box + TWIN + "a"))

    def wire(source: str, target: str, from_box: bool = True, into_box: bool = True) -> None:
        """``source -> target``, and the same edge from and into each end's
        twin (a tool or an agent has none): a twin has its box's
        providers and receivers."""
        sources = [source, source + TWIN] if from_box else [source]
        targets = [target, target + TWIN] if into_box else [target]
        edges.extend(edge_record(x, y) for x in sources for y in targets)

    for i in range(n):
        s, after = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        twinned(f"C{s}")
        twinned(f"S{s}")
        nodes.append(tool_record(f"U{s}", f"U {s}"))
        wire(f"C{s}", f"C{after}")
        if skip:
            wire(f"C{s}", f"C{(i + 2) % n:0{w}}")
        wire(f"S{s}", f"C{s}")
        wire(f"U{s}", f"S{s}", from_box=False)
        if both_ways:
            wire(f"C{after}", f"C{s}")
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) % n:0{w}}"
        nodes.append(agent_record(f"a{s}"))
        twinned(f"Q{s}")
        nodes.append(tool_record(f"u{t}", f"u {t}"))
        wire(f"C{s}", f"a{s}", into_box=False)
        wire(f"Q{s}", f"a{s}", into_box=False)
        wire(f"u{t}", f"Q{s}", from_box=False)
    # Per member: C, S, their twins and U; four edges from C and its twin
    # to the next and its twin (and as many back, or two on), four from S
    # and its twin into C and its twin, two from U. Per agent: a, Q, Q^,
    # u; two edges into a from C and C^, two from Q and Q^, two from u.
    # Agent k sees every U and one twin, u{t} named as U{t}: its only
    # clash; a0's is the first violation.
    # Near, one agent more per twin and an edge into it.
    boxes = 6 * n
    edge_count = (16 + 4 * (both_ways + skip) + 3 * near) * n
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    agents = n + 3 * n * near
    expected = family_expected(
        n, n, (f"a{zero}", f"u_{half}", (f"U{half}", f"u{half}")), boxes + 2 * n + agents, edge_count, agents, boxes
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


def _cycle_far(
    n: int,
    both_ways: bool = False,
    chained: bool = False,
    fed_sides: bool = False,
    skip: bool = False,
    renames: bool = False,
    dead: int = 0,
    back_chained: bool = False,
    fan: int = 0,
    hub: int = 0,
    asides: int = 0,
    asked: int = 0,
    twin_direct: bool = False,
    wide_source: int = 0,
    one_fed_side: bool = False,
    many_sides: int = 0,
    wide_tools: int = 0,
    missing_back: bool = False,
    straight_ties: bool = False,
    side_ties: bool = False,
    tops_tied: int = 0,
) -> Generated:
    """``cycle-far`` (see there), and the families built on it: with
    ``both_ways`` ``two-way-cycle``; ``chained``, a box ``D{i}`` between
    ``C{i}`` and ``C{i + 1}``; ``fed_sides``, ``U{i}`` into ``S{i}`` through a
    box ``R{i}``; ``skip``, ``C{i}`` also into ``C{i + 2}``; ``renames``
    each agent's twin in ``Q{k}``, fed by the box before ``C{k}`` too
    (``D{k - 1}``, or ``C{k - 1}`` unchained), into ``Q2{k}`` into the
    agent; ``dead`` boxes ``X{i}-{j}`` fed by ``U{i}`` alone;
    ``back_chained`` (with ``both_ways`` and ``chained``), a box ``B{i}``
    on the way back from ``C{i + 1}`` to ``C{i}``; ``fan`` boxes
    ``X{i}-{j}`` fed by ``U{i}``, each into one more agent ``Z``; ``hub``
    empty boxes ``E{j}`` into a box ``H``, fed by ``C0`` too, into every
    agent; ``asides`` (with ``renames``) boxes ``G{k}-{j}`` into agent
    ``k``, each fed by a box ``H{k}-{j}`` of its own fed by ``S{k}``;
    ``asked`` (with ``renames``) a second tool ``V{i}`` in ``S{i}``, its twin
    ``v{t}`` in ``Q{k}`` beside ``u{t}``, and boxes ``P{k}-{j}``, each fed
    by the box before ``C{k}``, into ``Q{k}`` and into the agent;
    ``twin_direct`` (without ``renames``) each twin ``u{t}`` wired straight
    into its agent, no box ``Q{k}``; ``wide_source`` a box ``X{i}`` fed by
    ``U{i}``, into as many more agents ``Z00``, ``Z01``, ...;
    ``one_fed_side`` (without ``fed_sides``), ``fed_sides``' box ``R0`` for
    member 0 alone: one fed side; ``many_sides`` boxes ``F{i}-{j}`` below
    every eighth side box ``S{i}``, box ``j`` into ``C{i + j}``, box 0
    in place of ``S{i} -> C{i}``: that many fed sides below one source;
    ``wide_tools`` a box ``W{i}`` per member, into ``C{i + 1}`` and into
    as many more agents ``Y00``, ``Y01``, ..., each tool ``U{i}`` also
    wired into as many boxes ``W{i}``, ``W{i + 1}``, ... (all ``n`` below
    that many); ``missing_back`` (with ``both_ways``) without ``C1 -> C0``
    (with ``back_chained``, without ``B0`` between them);
    ``straight_ties`` each ``U{i}`` also into ``C{i - 1}``; ``side_ties``
    each ``U{i}`` also into ``S{i + 1}``, which feeds ``C{i + 2}`` down a
    box ``F{i}``; ``tops_tied`` each ``S{i}`` also into ``C{i + 1}`` down
    a box ``F{i}``, each ``U{i}`` also into as many sources ``S{i}``,
    ``S{i + 1}``, ... (all ``n`` below that many, ``S{i}`` once) and into
    ``C{i - 1}``. Every variant keeps ``cycle-far``'s answer: agent ``k``
    sees every ``U`` and one twin (``Z``, the ``Z{j}`` and the ``Y{j}``
    every ``U``, no twin; with ``asked`` every ``V`` and its twin too)."""
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
        if many_sides and i % MANY_SIDES_APART == 0:
            for j in range(many_sides):
                f = f"F{s}-{j:02}"
                nodes.append(box_record(f))
                edges += [edge_record(f"S{s}", f), edge_record(f, f"C{(i + j) % n:0{w}}")]
        else:
            edges.append(edge_record(f"S{s}", f"C{s}"))
        if fed_sides or (one_fed_side and i == 0):
            nodes.append(box_record(f"R{s}"))
            edges += [edge_record(f"U{s}", f"R{s}"), edge_record(f"R{s}", f"S{s}")]
        else:
            edges.append(edge_record(f"U{s}", f"S{s}"))
        if asked:
            nodes.append(tool_record(f"V{s}", f"V {s}"))
            edges.append(edge_record(f"V{s}", f"S{s}"))
        if both_ways and back_chained and not (missing_back and i == 0):
            nodes.append(box_record(f"B{s}"))
            edges += [edge_record(f"C{after}", f"B{s}"), edge_record(f"B{s}", f"C{s}")]
        elif both_ways and not (missing_back and i == 0):
            edges.append(edge_record(f"C{after}", f"C{s}"))
        nodes += [box_record(f"X{s}-{j:02}") for j in range(dead)]
        edges += [edge_record(f"U{s}", f"X{s}-{j:02}") for j in range(dead)]
        for j in range(fan):
            nodes.append(box_record(f"X{s}-{j:02}"))
            edges += [edge_record(f"U{s}", f"X{s}-{j:02}"), edge_record(f"X{s}-{j:02}", "Z")]
        if wide_source:
            nodes.append(box_record(f"X{s}"))
            edges.append(edge_record(f"U{s}", f"X{s}"))
            edges += [edge_record(f"X{s}", f"Z{z:02}") for z in range(wide_source)]
        if wide_tools:
            nodes.append(box_record(f"W{s}"))
            edges.append(edge_record(f"W{s}", f"C{after}"))
            edges += [edge_record(f"W{s}", f"Y{z:02}") for z in range(wide_tools)]
            edges += [edge_record(f"U{s}", f"W{(i + j) % n:0{w}}") for j in range(min(n, wide_tools))]
        # Ties: ways into the cycle as short, between which CMP-9's path is
        # the one of smallest ids from the tool end (docs/SEMANTICS.md 6).
        behind = f"C{(i - 1) % n:0{w}}"
        if straight_ties:
            edges.append(edge_record(f"U{s}", behind))
        if side_ties:
            nodes.append(box_record(f"F{s}"))
            source = f"S{(i + 1) % n:0{w}}"
            edges += [edge_record(source, f"F{s}"), edge_record(f"F{s}", f"C{(i + 2) % n:0{w}}")]
            edges.append(edge_record(f"U{s}", source))
        if tops_tied:
            nodes.append(box_record(f"F{s}"))
            edges += [edge_record(f"U{s}", f"S{(i + j) % n:0{w}}") for j in range(1, min(n, tops_tied))]
            edges.append(edge_record(f"U{s}", behind))
    if tops_tied:
        # Every source's fed side, listed after the cycle.
        for i in range(n):
            s, after = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
            edges += [edge_record(f"S{s}", f"F{s}"), edge_record(f"F{s}", f"C{after}")]
    if fan:
        nodes.append(agent_record("Z"))
    nodes += [agent_record(f"Z{z:02}") for z in range(wide_source)]
    nodes += [agent_record(f"Y{z:02}") for z in range(wide_tools)]
    if hub:
        nodes.append(box_record("H"))
        edges.append(edge_record(f"C{0:0{w}}", "H"))
        nodes += [box_record(f"E{j:03}") for j in range(hub)]
        edges += [edge_record(f"E{j:03}", "H") for j in range(hub)]
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) % n:0{w}}"
        if twin_direct:
            nodes += [agent_record(f"a{s}"), tool_record(f"u{t}", f"u {t}")]
            edges.append(edge_record(f"C{s}", f"a{s}"))
        else:
            nodes += [agent_record(f"a{s}"), box_record(f"Q{s}"), tool_record(f"u{t}", f"u {t}")]
        if renames:
            nodes.append(box_record(f"Q2{s}"))
            before = f"{(k - 1) % n:0{w}}"
            edges += [edge_record(f"C{s}", f"a{s}"), edge_record(f"Q2{s}", f"a{s}"), edge_record(f"Q{s}", f"Q2{s}")]
            edges.append(edge_record(f"{'D' if chained else 'C'}{before}", f"Q{s}"))
            for j in range(asides):
                g, h = f"G{s}-{j:03}", f"H{s}-{j:03}"
                nodes += [box_record(g), box_record(h)]
                edges += [edge_record(g, f"a{s}"), edge_record(h, g), edge_record(f"S{s}", h)]
            if asked:
                nodes.append(tool_record(f"v{t}", f"v {t}"))
                edges.append(edge_record(f"v{t}", f"Q{s}"))
            for j in range(asked):
                p = f"P{s}-{j:03}"
                nodes.append(box_record(p))
                edges += [
                    edge_record(f"{'D' if chained else 'C'}{before}", p),
                    edge_record(p, f"Q{s}"),
                    edge_record(p, f"a{s}"),
                ]
        elif not twin_direct:
            edges += [edge_record(f"C{s}", f"a{s}"), edge_record(f"Q{s}", f"a{s}")]
        edges.append(edge_record(f"u{t}", f"a{s}" if twin_direct else f"Q{s}"))
        if hub:
            edges.append(edge_record("H", f"a{s}"))
    # Per box of the cycle: C, S, U and the agent's a, Q, u; C -> next, S ->
    # C, U -> S, C -> a, u -> Q, Q -> a; and what each variant adds. The
    # hub is H and its empty boxes, C0 -> H and theirs into it; Z sees no
    # twin, and sorts before every a{k}: the first violation is a0's. The
    # asides are G and H, G -> a, H -> G, S -> H; the asked V and v, V -> S,
    # v -> Q, and per P three edges: a second clash per agent, whose name
    # v_{t} sorts after u_{t}. A direct twin drops Q and Q -> a (u -> a
    # for u -> Q); a wide source is X, U -> X and X -> Z{j} per Z{j}, the
    # Z{j} sorting before every a{k} and seeing no twin. Wide tools add W,
    # W -> C, W -> Y{j} per Y{j} and U -> W per tool feeding it (17, or n
    # below that), the Y{j} sorting before every a{k} and seeing no twin.
    # The missing back edge is one edge fewer (lone_edges); the cycle one
    # way round still joins every member, so the answer is the same.
    # Ties add edges into boxes that carry every U anyway: straight, U ->
    # C; at a side, F, S -> F, F -> C and U -> S; tied tops, F, S -> F,
    # F -> C, U -> C and U -> S per source but its own (16, or n - 1).
    back = both_ways and back_chained
    extra_boxes = chained + fed_sides + renames + dead + back + fan + 2 * asides + asked + bool(wide_source)
    extra_boxes += bool(wide_tools) + side_ties + bool(tops_tied)
    extra_boxes -= twin_direct
    hub_boxes = hub + 1 if hub else 0
    # Boxes not one per member, each adding a node, an edge and a
    # passthrough: the hub's (H and its empty boxes; C0 -> H and theirs
    # into it), and one fed side's R0 (U0 -> R0 -> S0 for U0 -> S0).
    # Many fed sides: below each of the ceil(n / 8) sources so fed, its
    # boxes, each a node, a passthrough and two edges (S -> F, F -> C),
    # less the S -> C box 0 takes the place of.
    sources = -(-n // MANY_SIDES_APART) if many_sides else 0
    # The missing edge back: C1 -> C0, or B0 and its two edges.
    missing_box = missing_back and back
    lone_boxes = hub_boxes + one_fed_side + sources * many_sides - missing_box
    lone_edges = hub_boxes + one_fed_side + sources * (2 * many_sides - 1) - missing_back - missing_box
    edge_count = (6 + both_ways + chained + fed_sides + skip + 2 * renames + dead + back + 2 * fan + bool(hub)) * n
    edge_count += (3 * asides + 2 * bool(asked) + 3 * asked - twin_direct + bool(wide_source) + wide_source) * n
    edge_count += (bool(wide_tools) + wide_tools + min(n, wide_tools)) * n
    edge_count += (straight_ties + 3 * side_ties + (2 + min(n, tops_tied) if tops_tied else 0)) * n
    clashes = (1 + bool(asked)) * n
    agents = bool(fan) + wide_source + wide_tools
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    expected = family_expected(
        clashes, clashes, (f"a{zero}", f"u_{half}", (f"U{half}", f"u{half}")),
        (6 + extra_boxes + 2 * bool(asked)) * n + agents + lone_boxes, edge_count + lone_edges, n + agents,
        (3 + extra_boxes) * n + lone_boxes,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


SHARED_CHAIN = 300
"""Boxes in ``shared-chain``'s chain into every agent, and in each agent's
own chain: more than the 256 adjacency entries the search for a renamed
twin's way may take (renames.rs ``within``, ``ADJACENCY_LOOKED_AT``), had
it to climb either chain box by box."""


def shared_chain(n: int) -> Generated:
    """Family 83: ``cycle-skip`` with every box of the cycle also feeding
    ``X000``, the top of a chain of 300 boxes ``X000 -> ... -> X299``
    wired into every agent, and no ``C{k} -> a{k}`` (found in session 30,
    on renames). Agent ``a{k}``'s twin ``u{t}`` of ``U{t}`` (``t = (k + n /
    2) mod n``) is in a box ``Q{k}`` of its own, also fed by ``C{k - 1}``,
    that reaches the agent through a chain of 300 boxes of its own,
    ``Y{k}-000`` to ``Y{k}-299``: ``Q{k}`` is as far from ``a{k}`` as
    ``C{k - 1}`` is, so on no shortest way. ``n`` violations, ``n``
    clashes, as in ``cycle-far``; ``306 * n + 300`` nodes (``303 * n +
    300`` boxes), ``309 * n + 299`` edges; from ``n = 3`` on, as
    ``cycle-skip``.

    Choosing the rename of ``u{t}`` asks whether ``Q{k}`` is on the path of
    ``U{t}``; climbed box by box, either chain is longer than the search
    for the way may take (renames.rs ``within``, 256 adjacency entries),
    and the kept tool's path was found in the check for every agent (3.7x
    and 4.3x the work for twice ``n``, from 100 to 400, before session
    30's fix). Reading the clashes' paths read each off a tree, as
    ``cycle-skip``'s did (4.8x for twice ``n`` from 100), until that cycle
    became a skip cycle (session 30)."""
    return _shared_chain(n, SHARED_CHAIN)


def _shared_chain(n: int, length: int) -> Generated:
    """``shared-chain`` with chains of ``length`` boxes (at least 1)."""
    w, lw = id_width(n), id_width(length)
    top, end = f"X{0:0{lw}}", f"X{length - 1:0{lw}}"
    nodes = [box_record(f"X{j:0{lw}}") for j in range(length)]
    edges = [edge_record(f"X{j - 1:0{lw}}", f"X{j:0{lw}}") for j in range(1, length)]
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [box_record(f"C{s}"), box_record(f"S{s}"), tool_record(f"U{s}", f"U {s}")]
        edges += [
            edge_record(f"C{s}", f"C{(i + 1) % n:0{w}}"),
            edge_record(f"C{s}", f"C{(i + 2) % n:0{w}}"),
            edge_record(f"S{s}", f"C{s}"),
            edge_record(f"U{s}", f"S{s}"),
            edge_record(f"C{s}", top),
        ]
    for k in range(n):
        s, t = f"{k:0{w}}", f"{(k + n // 2) % n:0{w}}"
        nodes += [agent_record(f"a{s}"), box_record(f"Q{s}"), tool_record(f"u{t}", f"u {t}")]
        edges += [
            edge_record(end, f"a{s}"),
            edge_record(f"C{(k - 1) % n:0{w}}", f"Q{s}"),
            edge_record(f"u{t}", f"Q{s}"),
        ]
        own = [f"Q{s}"] + [f"Y{s}-{j:0{lw}}" for j in range(length)] + [f"a{s}"]
        nodes += [box_record(y) for y in own[1:-1]]
        edges += [edge_record(before, after) for before, after in zip(own, own[1:])]
    # The shared chain: its boxes and the edges between them. Per box of the
    # cycle: C, S, U; C -> next, C -> the one after, S -> C, U -> S, C ->
    # the chain's top. Per agent: a, Q, u and the boxes of its own chain;
    # the chain's end -> a, C{k - 1} -> Q, u -> Q, and one edge per step from
    # Q to a. Every agent sees every U (over the shared chain, and through
    # Q{k}) and one twin, u{t} named as U{t}: its only clash. No other
    # consumer: the first violation is a0's.
    zero, half = f"{0:0{w}}", f"{n // 2:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", f"u_{half}", (f"U{half}", f"u{half}")), length + (6 + length) * n,
        length - 1 + (9 + length) * n, n, length + (3 + length) * n,
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
