"""The worst-case families whose cost is in their width: boxes fanned out to many agents, or
many boxes or tools into one (families 1, 2, 3, 5, 6 and 7 of the issue, and 9, 14, 15, 17,
24, 29, 31, 37 and 42 found since; family 1's chain only carries its one pair to the fan).

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


def private_roots_chain(n: int) -> Generated:
    """Family 1: boxes ``c0..c{n-1}`` chained ``c{i+1} -> c{i}``; tools ``t0``
    "Tool X" and ``t1`` "tool-x" wired into ``c{n-1}``; ``n`` agents ``a{k}``,
    each behind a private box ``o{k}``: ``c0 -> o{k} -> a{k}``. Every agent
    sees the pair down the whole chain: ``n`` violations, one clash."""
    w = id_width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    agents = [f"a{k:0{w}}" for k in range(n)]
    private = [f"o{k:0{w}}" for k in range(n)]
    nodes = [tool_record("t0", "Tool X"), tool_record("t1", "tool-x")]
    nodes += [box_record(c) for c in chain]
    nodes += [box_record(o) for o in private]
    nodes += [agent_record(a) for a in agents]
    edges = [edge_record("t0", chain[-1]), edge_record("t1", chain[-1])]
    edges += [edge_record(chain[i + 1], chain[i]) for i in range(n - 1)]
    edges += [edge_record(chain[0], o) for o in private]
    edges += [edge_record(o, a) for o, a in zip(private, agents)]
    expected = family_expected(n, 1, (agents[0], "tool_x", ("t0", "t1")), 3 * n + 2, 3 * n + 1, n, 2 * n)
    return Generated(document(nodes, edges), expected)


def _private_agents(n: int, root: str, nodes: List[str], edges: List[str]) -> str:
    """``n`` agents ``a{k}``, each behind a private box ``o{k}`` fed by box
    ``root``: ``root -> o{k} -> a{k}``. Returns the first agent's id."""
    w = id_width(n)
    agents = [f"a{k:0{w}}" for k in range(n)]
    private = [f"o{k:0{w}}" for k in range(n)]
    nodes += [box_record(o) for o in private]
    nodes += [agent_record(a) for a in agents]
    edges += [edge_record(root, o) for o in private]
    edges += [edge_record(o, a) for o, a in zip(private, agents)]
    return agents[0]


def private_roots_box(n: int) -> Generated:
    """Family 2: box ``x`` holds ``n // 2`` clashing pairs (tools ``t{p}a``
    "Tool p" and ``t{p}b`` "tool-p", both named ``tool_p``); ``n`` agents,
    each behind a private box fed by ``x``. Every agent sees every pair:
    ``n * (n // 2)`` violations, ``n // 2`` clashes."""
    pairs = n // 2
    w = id_width(pairs)
    nodes: List[str] = []
    edges: List[str] = []
    for p in range(pairs):
        nodes += [tool_record(f"t{p:0{w}}a", f"Tool {p:0{w}}"), tool_record(f"t{p:0{w}}b", f"tool-{p:0{w}}")]
        edges += [edge_record(f"t{p:0{w}}a", "x"), edge_record(f"t{p:0{w}}b", "x")]
    nodes.append(box_record("x"))
    first = _private_agents(n, "x", nodes, edges)
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * pairs, pairs, (first, f"tool_{zero}", (f"t{zero}a", f"t{zero}b")), 2 * pairs + 1 + 2 * n, 2 * pairs + 2 * n,
        n, 1 + n,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


def private_roots_few(n: int) -> Generated:
    """Family 3: box ``x`` holds ``n`` tools ``t{i}`` of distinct names
    ("Tool i"), each with a same-named twin ``u{i}`` ("tool-i") in box ``y``
    that reaches no consumer, and one clashing pair ``p0`` "Clash", ``p1``
    "clash"; ``n`` agents, each behind a private box fed by ``x``. Every
    agent sees the one pair: ``n`` violations, one clash."""
    w = id_width(n)
    nodes = [tool_record(f"t{i:0{w}}", f"Tool {i:0{w}}") for i in range(n)]
    nodes += [tool_record(f"u{i:0{w}}", f"tool-{i:0{w}}") for i in range(n)]
    nodes += [tool_record("p0", "Clash"), tool_record("p1", "clash"), box_record("x"), box_record("y")]
    edges = [edge_record(f"t{i:0{w}}", "x") for i in range(n)]
    edges += [edge_record(f"u{i:0{w}}", "y") for i in range(n)]
    edges += [edge_record("p0", "x"), edge_record("p1", "x")]
    first = _private_agents(n, "x", nodes, edges)
    expected = family_expected(n, 1, (first, "clash", ("p0", "p1")), 4 * n + 4, 4 * n + 2, n, 2 + n)
    return Generated(document(nodes, edges), expected)


def hub_pair(n: int) -> Generated:
    """Family 5: tools ``t0`` "Tool X" and ``t1`` "tool-x", each wired into
    ``n`` boxes ``b{j}``; ``b{j} -> p{j} -> a{j}`` (a private box, one
    deeper). ``n`` violations, one clash."""
    w = id_width(n)
    boxes = [f"b{j:0{w}}" for j in range(n)]
    private = [f"p{j:0{w}}" for j in range(n)]
    agents = [f"a{j:0{w}}" for j in range(n)]
    nodes = [tool_record("t0", "Tool X"), tool_record("t1", "tool-x")]
    nodes += [box_record(b) for b in boxes]
    nodes += [box_record(p) for p in private]
    nodes += [agent_record(a) for a in agents]
    edges = [edge_record("t0", b) for b in boxes]
    edges += [edge_record("t1", b) for b in boxes]
    edges += [edge_record(b, p) for b, p in zip(boxes, private)]
    edges += [edge_record(p, a) for p, a in zip(private, agents)]
    expected = family_expected(n, 1, (agents[0], "tool_x", ("t0", "t1")), 3 * n + 2, 4 * n, n, 2 * n)
    return Generated(document(nodes, edges), expected)


LONG_PREFIX = ("long-tool-id-" * 7)[:80]
"""Family 6: the prefix every tool id shares, 80 characters: longer than the
64 a suggested label may name, so renames built from ids cannot tell the
tools apart and must be numbered."""


def long_ids(n: int) -> Generated:
    """Family 6: one agent ``agent``; ``n`` tools wired straight into it, all
    labelled "X", ids ``LONG_PREFIX + i``. One violation of ``n`` tools,
    one clash."""
    w = id_width(n)
    tools = [f"{LONG_PREFIX}{i:0{w}}" for i in range(n)]
    nodes = [agent_record("agent")] + [tool_record(t, "X") for t in tools]
    edges = [edge_record(t, "agent") for t in tools]
    expected = family_expected(1, 1, ("agent", "x", tuple(tools)), n + 1, n, 1, 0)
    return Generated(document(nodes, edges), expected)


LONG_LABEL_PER_TOOL = 100
"""Characters of ``long-box-label``'s box label per tool in it."""


def long_box_label(n: int) -> Generated:
    """Family 110: one agent ``agent``, fed by box ``K`` (label "Kit") of a
    tool ``k0`` and by box ``B``, labelled ``100 * n`` characters "Q", of
    ``n`` tools ``t{i}``, every tool labelled "X" (the attack of session
    33, its finding 1). One violation of ``n + 1`` tools, one clash; ``n +
    4`` nodes, ``n + 3`` edges.

    Renames qualify a tool by the label of the box it comes through
    (CONFORMANCE 15): each of the ``n`` tools renamed through ``B``
    composed and scanned "X (" and the whole of ``B``'s label before it
    was shortened, ``n`` times ``100 * n`` characters (20 s at 3.5 MB)
    until session 33; the label is cut to the cap first since, composed
    once for the box (the next tool of that label through it goes on to
    its id), and the characters composed are counted as the check's
    steps."""
    w = id_width(n)
    tools = [f"t{i:0{w}}" for i in range(n)]
    label = "Q" * (LONG_LABEL_PER_TOOL * n)
    nodes = [agent_record("agent"), tool_record("k0", "X")]
    nodes += [f'{{"id":"K","type":"toolbox","data":{{"label":"Kit"}}}}']
    nodes += [f'{{"id":"B","type":"toolbox","data":{{"label":"{label}"}}}}']
    nodes += [tool_record(t, "X") for t in tools]
    edges = [edge_record("k0", "K"), edge_record("K", "agent"), edge_record("B", "agent")]
    edges += [edge_record(t, "B") for t in tools]
    expected = family_expected(1, 1, ("agent", "x", ("k0", *tools)), n + 4, n + 3, 1, 2)
    return Generated(document(nodes, edges), expected)


def many_small_boxes(n: int) -> Generated:
    """Family 7: ``n`` boxes ``b{s}``, each holding one uniquely named tool
    ``t{s}`` ("Tool s"); box ``b0`` also holds a clashing pair ``p0``
    "Clash", ``p1`` "clash"; every box wired into one agent ``agent``. One
    violation, one clash."""
    w = id_width(n)
    boxes = [f"b{s:0{w}}" for s in range(n)]
    nodes = [agent_record("agent"), tool_record("p0", "Clash"), tool_record("p1", "clash")]
    nodes += [box_record(b) for b in boxes]
    nodes += [tool_record(f"t{s:0{w}}", f"Tool {s:0{w}}") for s in range(n)]
    edges = [edge_record("p0", boxes[0]), edge_record("p1", boxes[0])]
    edges += [edge_record(f"t{s:0{w}}", b) for s, b in enumerate(boxes)]
    edges += [edge_record(b, "agent") for b in boxes]
    expected = family_expected(1, 1, ("agent", "clash", ("p0", "p1")), 2 * n + 3, 2 * n + 2, 1, n)
    return Generated(document(nodes, edges), expected)


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
    w = id_width(n)
    boxes = [f"b{i:0{w}}" for i in range(n)]
    nodes = [agent_record("agent")] + [box_record(b) for b in boxes]
    edges = []
    for i in range(n):
        s, t = f"{i:0{w}}", f"{(i + 1) % n:0{w}}"
        nodes += [tool_record(f"p{s}", f"Tool {s}"), tool_record(f"q{s}", f"tool-{t}")]
        edges += [edge_record(f"p{s}", boxes[i]), edge_record(f"q{s}", boxes[i])]
    edges += [edge_record(b, "agent") for b in boxes]
    zero, last = f"{0:0{w}}", f"{n - 1:0{w}}"
    expected = family_expected(n, n, ("agent", f"tool_{zero}", (f"p{zero}", f"q{last}")), 3 * n + 1, 3 * n, 1, n)
    return Generated(document(nodes, edges), expected)


def one_box_wide(n: int) -> Generated:
    """Family 14: ``n`` tools ``t{i}``, all labelled "X", wired into one box
    ``box``, wired into one agent ``agent``. One violation of ``n`` tools,
    one clash: the check is cheap.

    Reading it is not: reading any part of one tool's path
    (``CoreReport.tool_path``, src/python/mod.rs) looks the violation up
    again and builds every one of its tools' paths (read.rs
    ``Collision::tools``) to keep one, so reading each tool's path costs
    the number of tools: ``n * n`` paths made to read ``n``."""
    w = id_width(n)
    tools = [f"t{i:0{w}}" for i in range(n)]
    nodes = [agent_record("agent"), box_record("box")] + [tool_record(t, "X") for t in tools]
    edges = [edge_record(t, "box") for t in tools] + [edge_record("box", "agent")]
    expected = family_expected(1, 1, ("agent", "x", tuple(tools)), n + 2, n + 1, 1, 1)
    return Generated(document(nodes, edges), expected)


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
    w = id_width(n)
    nodes = [agent_record("z")]
    edges = []
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [
            box_record(f"x{s}"),
            agent_record(f"a{s}"),
            tool_record(f"p{s}", f"Tool {s}"),
            tool_record(f"q{s}", f"tool-{s}"),
        ]
        edges += [
            edge_record(f"p{s}", f"x{s}"),
            edge_record(f"q{s}", f"x{s}"),
            edge_record(f"x{s}", f"a{s}"),
            edge_record(f"x{s}", "z"),
        ]
    zero = f"{0:0{w}}"
    expected = family_expected(
        2 * n, n, (f"a{zero}", f"tool_{zero}", (f"p{zero}", f"q{zero}")), 4 * n + 1, 4 * n, n + 1, n
    )
    return Generated(document(nodes, edges), expected)


def hub_tool(n: int) -> Generated:
    """Family 17: tool ``t`` "X" wired into ``n`` boxes ``b{j}``; box
    ``b{j}`` and a box of its own ``y{j}`` feed agent ``a{j}``; tool
    ``u{j}`` "x" in ``y{j}``. Each agent sees ``t`` and its own ``u{j}``,
    both named ``x``: ``n`` violations, ``n`` clashes (``t`` and ``u{j}``).

    Each agent, fed by two boxes, is a path root with a tree of two boxes.
    But each time ``t``'s path to an agent is found (paths.rs
    ``Tree::first_step``, from renames.rs ``settle_renames`` during the check,
    and again on every read of it), every one of ``t``'s ``n`` receivers is
    looked up in the root's tree, and a map of them made, to find the one
    nearest the root: ``n`` steps per path, ``n`` paths, from a file of
    ``n`` boxes."""
    w = id_width(n)
    boxes = [f"b{j:0{w}}" for j in range(n)]
    own = [f"y{j:0{w}}" for j in range(n)]
    agents = [f"a{j:0{w}}" for j in range(n)]
    twins = [f"u{j:0{w}}" for j in range(n)]
    nodes = (
        [tool_record("t", "X")] + [box_record(b) for b in boxes] + [box_record(y) for y in own]
        + [agent_record(a) for a in agents]
    )
    nodes += [tool_record(u, "x") for u in twins]
    edges = [edge_record("t", b) for b in boxes]
    edges += [edge_record(b, a) for b, a in zip(boxes, agents)] + [edge_record(y, a) for y, a in zip(own, agents)]
    edges += [edge_record(u, y) for u, y in zip(twins, own)]
    expected = family_expected(n, n, (agents[0], "x", ("t", twins[0])), 4 * n + 1, 4 * n, n, 2 * n)
    return Generated(document(nodes, edges), expected)


def _twin_boxes(n: int) -> Tuple[List[str], List[str]]:
    """Boxes ``A`` and ``B`` of ``n`` tools each, ``x{i}a`` "Tool i" in
    ``A`` and ``x{i}b`` "tool-i" in ``B``: tool ``i`` of one and of the
    other share a name (families 24 and 31)."""
    w = id_width(n)
    nodes = [box_record("A"), box_record("B")]
    edges = []
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [tool_record(f"x{s}a", f"Tool {s}"), tool_record(f"x{s}b", f"tool-{s}")]
        edges += [edge_record(f"x{s}a", "A"), edge_record(f"x{s}b", "B")]
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
    w = id_width(n)
    nodes, edges = _twin_boxes(n)
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"s{s}", "Solo")]
        edges += [edge_record("A", f"a{s}"), edge_record("B", f"a{s}"), edge_record(f"s{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * n, n, (f"a{zero}", f"tool_{zero}", (f"x{zero}a", f"x{zero}b")), 2 + 4 * n, 5 * n, n, 2
    )
    return Generated(document(nodes, edges), expected)


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
    w = id_width(n + NEAR - 1)
    nodes = [agent_record(f"a{k:0{w}}") for k in range(n + NEAR - 1)] + [agent_record("z")]
    edges = []
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [box_record(f"b{s}"), tool_record(f"p{s}", f"Tool {s}"), tool_record(f"q{s}", f"tool-{s}")]
        edges += [edge_record(f"p{s}", f"b{s}"), edge_record(f"q{s}", f"b{s}")]
        edges += [edge_record(f"b{s}", f"a{k:0{w}}") for k in range(i, i + NEAR)] + [edge_record(f"b{s}", "z")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        (NEAR + 1) * n, n, (f"a{zero}", f"tool_{zero}", (f"p{zero}", f"q{zero}")), NEAR + 4 * n,
        (NEAR + 3) * n, n + NEAR, n,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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
    w = id_width(n)
    nodes, edges = _twin_boxes(n)
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [
            agent_record(f"a{s}"),
            box_record(f"s{s}"),
            tool_record(f"u{s}", f"Solo {s}"),
            tool_record(f"v{s}", f"solo-{s}"),
        ]
        edges += [edge_record("A", f"a{s}"), edge_record("B", f"a{s}"), edge_record(f"s{s}", f"a{s}")]
        edges += [edge_record(f"u{s}", f"s{s}"), edge_record(f"v{s}", f"s{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (n + 1), 2 * n, (f"a{zero}", f"solo_{zero}", (f"u{zero}", f"v{zero}")), 2 + 6 * n, 7 * n, n, 2 + n
    )
    return Generated(document(nodes, edges), expected)


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
    w = id_width(n)
    nodes = [box_record("C"), tool_record("t", "Key"), agent_record("Z")]
    edges = [edge_record("t", "C")]
    sides = [f"S{i:0{w}}" for i in range(n)]
    for i, side in enumerate(sides):
        s = f"{i:0{w}}"
        nodes += [box_record(side), tool_record(f"s{s}", f"S {i}"), tool_record(f"z{s}", f"s-{i}")]
        edges += [edge_record(f"s{s}", side), edge_record(f"z{s}", "Z")]
    for j in range(WIDE_ROOTS):
        nodes.append(box_record(f"R{j}"))
        edges += [edge_record("C", f"R{j}")] + [edge_record(side, f"R{j}") for side in sides]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"e{s}", "key")]
        edges += [edge_record(f"R{g % WIDE_ROOTS}", f"a{s}"), edge_record(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    k = WIDE_ROOTS
    expected = family_expected(
        n, n, (f"a{zero}", "key", (f"e{zero}", "t")), 3 + 3 * n + k + 2 * n, 1 + 2 * n + k + k * n + 2 * n, n + 1,
        1 + n + k,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


def held_bases(n: int) -> Generated:
    """Family 37: boxes ``I1`` and ``I2`` of ``n`` tools each, ``p{j}``
    "K j" in ``I1`` and ``q{j}`` "k-j" in ``I2``; box ``F`` fed by both (the
    clashes form there); ``n`` agents ``a{k}``, each wired to ``I1``, ``I2``
    and a box ``R{k}`` of its own, fed by ``F`` (so it holds every clash
    whole) and holding a clashing pair of its own, ``x{k}`` "Z k" and
    ``y{k}`` "z-k". Every agent sees the ``n`` clashes and its own pair:
    ``n * (n + 1)`` violations, ``2 * n`` clashes.

    Each agent's inputs are a distinct combination, so they were joined
    anew (build.rs ``join_inputs``); ``R{k}`` holds the most clashes, so the
    union started from it, and ``I1`` and ``I2``, which it holds whole, were
    each unioned into it word by word (``Sets::union``): ``n / 64`` words
    visited per agent, ``n * n / 64`` from a file of ``n`` agents and ``n``
    pairs. Starting from the shared base ``I1``, ``I2`` instead would cost
    each agent one step (``R{k}`` is the base's very nodes where the clashes
    are), but the base's clashes, which form only in ``F``, would stay
    pending and be told again for every agent (``base_affordable`` stops
    that after a few agents). Now an input that another input of the class
    reaches is left out before anything is joined (upstream.rs): a walk
    up from ``R{k}`` meets ``F``, then ``I1`` and ``I2``, so each agent
    holds ``R{k}``'s very set, in a few steps."""
    w = id_width(n)
    nodes = [box_record("I1"), box_record("I2"), box_record("F")]
    edges = [edge_record("I1", "F"), edge_record("I2", "F")]
    for j in range(n):
        s = f"{j:0{w}}"
        nodes += [tool_record(f"p{s}", f"K {s}"), tool_record(f"q{s}", f"k-{s}")]
        edges += [edge_record(f"p{s}", "I1"), edge_record(f"q{s}", "I2")]
    for k in range(n):
        s = f"{k:0{w}}"
        nodes += [
            agent_record(f"a{s}"),
            box_record(f"R{s}"),
            tool_record(f"x{s}", f"Z {s}"),
            tool_record(f"y{s}", f"z-{s}"),
        ]
        edges += [
            edge_record("I1", f"a{s}"),
            edge_record("I2", f"a{s}"),
            edge_record("F", f"R{s}"),
            edge_record(f"R{s}", f"a{s}"),
        ]
        edges += [edge_record(f"x{s}", f"R{s}"), edge_record(f"y{s}", f"R{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n * (n + 1), 2 * n, (f"a{zero}", f"k_{zero}", (f"p{zero}", f"q{zero}")), 3 + 6 * n, 2 + 8 * n, n, 3 + n
    )
    return Generated(document(nodes, edges), expected)
