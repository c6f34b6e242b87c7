"""Worst-case families around a hub: a box ``I1`` of ``n`` tools fanned out
through team boxes (each holding a clashing pair of its own) that all feed
one hub box ``F``, so that ``F`` has more inputs than a short walk reads and
more carrying providers than a search looks at for free (families 45 to 47).
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


def _hub(n: int, teams: int, twins_into_hub: bool, via: bool = False) -> tuple[List[str], List[str], int]:
    """``I1`` of ``n`` tools ``p{j}`` "K j"; ``teams`` team boxes ``X{t}``, each
    fed by ``I1``, holding a clashing pair ``u{t}`` "T t", ``v{t}`` "t-t",
    and feeding the hub ``F`` (with ``via``, through a box ``Y{t}`` of its
    own); with ``twins_into_hub``, a box ``I3`` of the twins ``q{j}`` "k-j"
    into ``F`` as well. Returns the records and the id width."""
    w = id_width(max(n, teams))
    nodes = [box_record("I1"), box_record("F")]
    edges: List[str] = []
    if twins_into_hub:
        nodes.append(box_record("I3"))
        edges.append(edge_record("I3", "F"))
    for j in range(n):
        s = f"{j:0{w}}"
        nodes.append(tool_record(f"p{s}", f"K {s}"))
        edges.append(edge_record(f"p{s}", "I1"))
        if twins_into_hub:
            nodes.append(tool_record(f"q{s}", f"k-{s}"))
            edges.append(edge_record(f"q{s}", "I3"))
    for t in range(teams):
        s = f"{t:0{w}}"
        nodes += [box_record(f"X{s}"), tool_record(f"u{s}", f"T {s}"), tool_record(f"v{s}", f"t-{s}")]
        if via:
            nodes.append(box_record(f"Y{s}"))
            edges += [edge_record("I1", f"X{s}"), edge_record(f"X{s}", f"Y{s}"), edge_record(f"Y{s}", "F")]
        else:
            edges += [edge_record("I1", f"X{s}"), edge_record(f"X{s}", "F")]
        edges += [edge_record(f"u{s}", f"X{s}"), edge_record(f"v{s}", f"X{s}")]
    return nodes, edges, w


TEAM = 16
"""Agents per team box in ``hub-teams``: with ``n`` at its size given, far
more team boxes than a walk up from an agent's box reads past ``F``, all
used alike."""


def hub_teams(n: int) -> Generated:
    """Family 45: the hub (``_hub``) with ``ceil(n / 16)`` team boxes and the
    twins into ``F``; ``n`` agents ``a{k}``, each wired to its team box
    ``X{k // 16}`` and to a box ``R{k}`` of its own, fed by ``F`` and holding
    a clashing pair ``x{k}`` "Z k", ``y{k}`` "z-k". ``F`` forms the ``n``
    clashes "K j" / "k-j" and holds every team pair; each agent sees them
    all and its own pair: ``n * (n + teams + 1)`` violations,
    ``2 * n + teams`` clashes.

    The team box is held whole by ``R{k}`` (through ``F``), so it adds
    nothing to the agent's set; joined anyway, it costs ``n / 64`` words
    per agent. Found by a walk up from ``R{k}``, it is one of ``F``'s
    ``teams`` inputs, more than the walk reads and more, all used alike,
    than what is known above ``R{k}`` keeps (upstream.rs ``WALK``,
    ``KNOWN``)."""
    nodes, edges, w, teams = _teams(n)
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (n + teams + 1),
        2 * n + teams,
        (f"a{zero}", f"k_{zero}", (f"p{zero}", f"q{zero}")),
        3 + 2 * n + 3 * teams + 4 * n,
        1 + 2 * n + 4 * teams + 5 * n,
        n,
        3 + teams + n,
    )
    return Generated(document(nodes, edges), expected)


def _teams(n: int, via: bool = False) -> tuple[List[str], List[str], int, int]:
    """``hub-teams``'s records (see there; ``via``: see ``_hub``), with the
    id width and the number of team boxes."""
    teams = -(-n // TEAM)
    nodes, edges, w = _hub(n, teams, twins_into_hub=True, via=via)
    for k in range(n):
        s, t = f"{k:0{w}}", f"{k // TEAM:0{w}}"
        nodes += [agent_record(f"a{s}"), box_record(f"R{s}")]
        nodes += [tool_record(f"x{s}", f"Z {s}"), tool_record(f"y{s}", f"z-{s}")]
        edges += [edge_record(f"X{t}", f"a{s}"), edge_record(f"R{s}", f"a{s}"), edge_record("F", f"R{s}")]
        edges += [edge_record(f"x{s}", f"R{s}"), edge_record(f"y{s}", f"R{s}")]
    return nodes, edges, w, teams


DECOYS = 40
"""Boxes passing their sets on to one sink agent in ``decoy-teams`` and
``shared-cut``: more than a walk down reads (upstream.rs ``WALK``)."""


def _decoys(feeders: List[str], deep: bool = False) -> tuple[List[str], List[str]]:
    """``DECOYS`` boxes ``D{d}``, each fed by every box of ``feeders``,
    holding a clashing pair ``d{d}a`` "Decoy d", ``d{d}b`` "decoy-d" and
    wired into one agent ``sink`` (with ``deep``, through a box ``E{d}`` of
    its own)."""
    nodes = [agent_record("sink")]
    edges: List[str] = []
    for d in range(DECOYS):
        box = f"D{d:02}"
        nodes += [box_record(box), tool_record(f"d{d:02}a", f"Decoy {d:02}"), tool_record(f"d{d:02}b", f"decoy-{d:02}")]
        edges += [edge_record(f"d{d:02}a", box), edge_record(f"d{d:02}b", box)]
        if deep:
            nodes.append(box_record(f"E{d:02}"))
            edges += [edge_record(box, f"E{d:02}"), edge_record(f"E{d:02}", "sink")]
        else:
            edges.append(edge_record(box, "sink"))
        edges += [edge_record(feeder, box) for feeder in feeders]
    return nodes, edges


def decoy_teams(n: int) -> Generated:
    """Family 57: ``hub-teams`` whose team boxes all also feed the same 40
    boxes ``D{d}`` (``_decoys``), each holding a clashing pair and wired
    into one agent ``sink``. The agents see what they see in ``hub-teams``;
    ``sink`` sees the team pairs, the decoys' pairs and the tools of ``I1``
    without their twins: ``n * (n + teams + 1) + teams + 40`` violations,
    ``2 * n + teams + 40`` clashes.

    Each team box passes its set on to more classes than a walk down from
    it reads, so the walk ran out before it met ``F``, and each agent
    joined its team box word by word again (family 45's limit)."""
    nodes, edges, w, teams = _teams(n)
    decoy_nodes, decoy_edges = _decoys([f"X{t:0{w}}" for t in range(teams)])
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (n + teams + 1) + teams + DECOYS,
        2 * n + teams + DECOYS,
        (f"a{zero}", f"k_{zero}", (f"p{zero}", f"q{zero}")),
        3 + 2 * n + 3 * teams + 4 * n + 1 + 3 * DECOYS,
        1 + 2 * n + 4 * teams + 5 * n + (3 + teams) * DECOYS,
        n + 1,
        3 + teams + n + DECOYS,
    )
    return Generated(document(nodes + decoy_nodes, edges + decoy_edges), expected)


def shared_cut(n: int) -> Generated:
    """Family 58: ``hub-teams`` with a box ``P`` of a clashing pair
    ``s0`` "Shared", ``s1`` "shared" wired to every agent, ``P`` also
    feeding 40 boxes ``D{d}`` (``_decoys``), each holding a clashing pair
    and wired into one agent ``sink``: ``n * (n + teams + 2) + 41``
    violations, ``2 * n + teams + 41`` clashes.

    ``P``'s walk down runs out before it has read every class it passes
    its set on to, so it is not proved held by none, and what the team
    boxes' walks down found was put back beside it (all or none): each
    agent joined its team box word by word again (family 53's limit)."""
    nodes, edges, w, teams = _teams(n)
    nodes += [box_record("P"), tool_record("s0", "Shared"), tool_record("s1", "shared")]
    edges += [edge_record("s0", "P"), edge_record("s1", "P")]
    edges += [edge_record("P", f"a{k:0{w}}") for k in range(n)]
    decoy_nodes, decoy_edges = _decoys(["P"])
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (n + teams + 2) + 1 + DECOYS,
        2 * n + teams + 1 + DECOYS,
        (f"a{zero}", f"k_{zero}", (f"p{zero}", f"q{zero}")),
        3 + 2 * n + 3 * teams + 4 * n + 3 + 1 + 3 * DECOYS,
        1 + 2 * n + 4 * teams + 5 * n + 2 + n + 4 * DECOYS,
        n + 1,
        3 + teams + n + 1 + DECOYS,
    )
    return Generated(document(nodes + decoy_nodes, edges + decoy_edges), expected)


def hub_taps(n: int) -> Generated:
    """Family 46: the hub (``_hub``) with ``n`` team boxes and no twins in
    it; agent ``a{k}`` wired to its team box ``X{k}``, to ``F`` and to a
    twin ``q{k}`` "k-k" of its own. Each agent sees every team pair and its
    own clash "K k" / "k-k": ``n * (n + 1)`` violations, ``2 * n`` clashes,
    each "K k" at one agent only.

    The path of ``p{k}`` to ``a{k}`` is ``I1``, ``X{k}``: through ``F`` it
    is one box longer, but finding that asks where the tool enters ``F``,
    whose ``n`` providers all carry it: a search among them for each tool
    read is ``n * n`` in all (paths.rs ``PROVIDERS_LOOKED_AT``)."""
    nodes, edges, w = _hub(n, n, twins_into_hub=False)
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"q{s}", f"k-{s}")]
        edges += [edge_record(f"X{s}", f"a{s}"), edge_record("F", f"a{s}"), edge_record(f"q{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (n + 1), 2 * n, (f"a{zero}", f"k_{zero}", (f"p{zero}", f"q{zero}")), 2 + 6 * n, 8 * n, n, 2 + n
    )
    return Generated(document(nodes, edges), expected)


def hub_direct(n: int) -> Generated:
    """Family 47: the hub (``_hub``) with ``n`` team boxes and the twins
    into ``F``; agent ``a{k}`` wired to its team box ``X{k}`` and straight
    to ``F``. Every agent sees every clash: ``2 * n * n`` violations,
    ``2 * n`` clashes.

    Both limits of families 45 and 46 at once: ``X{k}`` is held whole by
    ``F``, one of its ``n`` inputs used alike (joined: ``n / 64`` words per
    agent), and reading one violation per agent, each of a different tool,
    searches ``F``'s ``n`` providers for each."""
    return _hub_agents(n, shared=False)


def hub_shared(n: int) -> Generated:
    """Family 53: ``hub-direct`` with a box ``P`` of a clashing pair
    ``s0`` "Shared", ``s1`` "shared" wired to every agent too: ``n * (2 * n
    + 1)`` violations, ``2 * n + 1`` clashes.

    ``P``, used by every agent and held by none of its other inputs, is
    not found held whole by any walk; were the team box ``X{k}``, which a
    walk down finds held whole by ``F``, kept because ``P`` was not found,
    each agent would join it again: ``n / 64`` words per agent."""
    return _hub_agents(n, shared=True)


def _hub_agents(n: int, shared: bool) -> Generated:
    nodes, edges, w = _hub(n, n, twins_into_hub=True)
    if shared:
        nodes += [box_record("P"), tool_record("s0", "Shared"), tool_record("s1", "shared")]
        edges += [edge_record("s0", "P"), edge_record("s1", "P")]
    for k in range(n):
        s = f"{k:0{w}}"
        nodes.append(agent_record(f"a{s}"))
        edges += [edge_record(f"X{s}", f"a{s}"), edge_record("F", f"a{s}")]
        if shared:
            edges.append(edge_record("P", f"a{s}"))
    zero = f"{0:0{w}}"
    extra = 1 if shared else 0
    expected = family_expected(
        n * (2 * n + extra),
        2 * n + extra,
        (f"a{zero}", f"k_{zero}", (f"p{zero}", f"q{zero}")),
        3 + 6 * n + 3 * extra,
        1 + 8 * n + (2 + n) * extra,
        n,
        3 + n + extra,
    )
    return Generated(document(nodes, edges), expected)


CHAIN = 70
"""Boxes above the hub in ``tied-taps``: the two tied paths agree on more
nodes than two paths are compared one by one (paths.rs)."""


def tied_taps(n: int) -> Generated:
    """Family 48: a chain of 70 boxes ``C{c}`` (``C0`` at the top) with
    ``n`` tools ``p{j}`` "K j" wired into ``C0``; the chain's end feeds
    ``n`` team boxes ``X{t}`` (a clashing pair "T t", "t-t" each), which all
    feed a hub ``F``; agent ``a{k}`` is fed by ``F``, by a box ``Y{k}`` fed
    by a box ``Z{k}`` that the chain's end feeds, and by a twin ``q{k}``
    "k-k" of its own. Each agent sees every team pair and its own clash:
    ``n * (n + 1)`` violations, ``2 * n`` clashes.

    ``p{k}``'s two paths to ``a{k}`` are as long, through ``Z{k}``, ``Y{k}``
    and through ``X{0}``, ``F``, and agree for the tool and the 70 boxes of
    the chain; the first by ids (``X`` before ``Z``) is through ``F``.
    Comparing them one node at a time for a fixed number of nodes, and then
    letting ``a{k}``'s own tree decide, grows that tree through all of
    ``F``'s ``n`` providers for each agent: ``n * n``."""
    w = id_width(max(n, CHAIN))
    nodes = [box_record("F")] + [box_record(f"C{c:0{w}}") for c in range(CHAIN)]
    edges = [edge_record(f"C{c:0{w}}", f"C{c + 1:0{w}}") for c in range(CHAIN - 1)]
    top, end = f"C{0:0{w}}", f"C{CHAIN - 1:0{w}}"
    for j in range(n):
        s = f"{j:0{w}}"
        nodes.append(tool_record(f"p{s}", f"K {s}"))
        edges.append(edge_record(f"p{s}", top))
    for t in range(n):
        s = f"{t:0{w}}"
        nodes += [box_record(f"X{s}"), tool_record(f"u{s}", f"T {s}"), tool_record(f"v{s}", f"t-{s}")]
        edges += [edge_record(end, f"X{s}"), edge_record(f"X{s}", "F")]
        edges += [edge_record(f"u{s}", f"X{s}"), edge_record(f"v{s}", f"X{s}")]
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [agent_record(f"a{s}"), box_record(f"Y{s}"), box_record(f"Z{s}"), tool_record(f"q{s}", f"k-{s}")]
        edges += [edge_record(end, f"Z{s}"), edge_record(f"Z{s}", f"Y{s}"), edge_record(f"Y{s}", f"a{s}")]
        edges += [edge_record("F", f"a{s}"), edge_record(f"q{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (n + 1),
        2 * n,
        (f"a{zero}", f"k_{zero}", (f"p{zero}", f"q{zero}")),
        1 + CHAIN + 8 * n,
        CHAIN - 1 + 10 * n,
        n,
        1 + CHAIN + 3 * n,
    )
    return Generated(document(nodes, edges), expected)


def deep_decoys(n: int) -> Generated:
    """Family 60: ``decoy-teams`` with each team box ``X{t}`` feeding ``F``
    through a box ``Y{t}`` of its own holding a clashing pair ``g{t}a``
    "Via t", ``g{t}b`` "via-t", and each decoy ``D{d}`` feeding ``sink``
    through a box ``E{d}`` of its own holding a clashing pair ``e{d}a``
    "Deep d", ``e{d}b`` "deep-d": ``n * (n + 2 * teams + 1) + teams + 80``
    violations, ``2 * n + 2 * teams + 80`` clashes.

    A walk down from a team box reads the decoys, which pass its set on to
    classes that pass it on in turn, before the boxes of its own that lead
    to ``F``, more than the walk reads; and ``X{t}`` is not among ``F``'s
    inputs, where an input whose walk down is cut short is looked up
    (upstream.rs), but one class above them: each agent joins its team box
    word by word, ``n / 64`` words."""
    nodes, edges, w, teams = _teams(n, via=True)
    for t in range(teams):
        s = f"{t:0{w}}"
        nodes += [tool_record(f"g{s}a", f"Via {s}"), tool_record(f"g{s}b", f"via-{s}")]
        edges += [edge_record(f"g{s}a", f"Y{s}"), edge_record(f"g{s}b", f"Y{s}")]
    decoy_nodes, decoy_edges = _decoys([f"X{t:0{w}}" for t in range(teams)], deep=True)
    for d in range(DECOYS):
        decoy_nodes += [tool_record(f"e{d:02}a", f"Deep {d:02}"), tool_record(f"e{d:02}b", f"deep-{d:02}")]
        decoy_edges += [edge_record(f"e{d:02}a", f"E{d:02}"), edge_record(f"e{d:02}b", f"E{d:02}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (n + 2 * teams + 1) + teams + 2 * DECOYS,
        2 * n + 2 * teams + 2 * DECOYS,
        (f"a{zero}", f"k_{zero}", (f"p{zero}", f"q{zero}")),
        3 + 2 * n + 6 * teams + 4 * n + 1 + 6 * DECOYS,
        1 + 2 * n + 7 * teams + 5 * n + (6 + teams) * DECOYS,
        n + 1,
        3 + 2 * teams + n + 2 * DECOYS,
    )
    return Generated(document(nodes + decoy_nodes, edges + decoy_edges), expected)
