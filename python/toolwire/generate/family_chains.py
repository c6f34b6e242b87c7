"""The worst-case families built on a long chain of boxes, tools or clashes entering at its top
or along it (families 11, 12, 13, 16, 18, 20, 23, 28, 30, 32, 34, 36, 39 and 43).

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
from .family_subsets import PARTS, interleaved_boxes


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
    w = id_width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    tools = [f"t{i:0{w}}" for i in range(n)]
    nodes = [agent_record("agent")] + [box_record(c) for c in chain] + [tool_record(t, "X") for t in tools]
    edges = [edge_record(t, c) for t, c in zip(tools, chain)]
    edges += [edge_record(chain[i], chain[i + 1]) for i in range(n - 1)]
    edges.append(edge_record(chain[-1], "agent"))
    expected = family_expected(1, 1, ("agent", "x", tuple(tools)), 2 * n + 1, 2 * n, 1, n)
    return Generated(document(nodes, edges), expected)


def deep_roots(n: int) -> Generated:
    """Family 12: boxes ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``; ``n``
    agents ``a{g}``, each fed by ``c{n-1}``; tool ``s{g}`` "Tool g" wired into
    ``c0`` and its twin ``u{g}`` "tool-g" straight into ``a{g}``. Every agent
    sees every ``s``, but only ``a{g}`` sees two tools named ``tool_g``:
    ``n`` violations, ``n`` clashes, one per agent.

    Each agent has a leaf of its own, so each is a path root (paths.rs), and
    ``s{g}``'s path to it climbs the whole chain: the root's tree is grown
    breadth first over all ``n`` boxes, for each of the ``n`` roots, once
    when the check chooses renames (renames.rs ``settle_renames`` reads every
    clash's first violation) and again when the clashes are read."""
    w = id_width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    agents = [f"a{g:0{w}}" for g in range(n)]
    nodes = [box_record(c) for c in chain] + [agent_record(a) for a in agents]
    nodes += [tool_record(f"s{g:0{w}}", f"Tool {g:0{w}}") for g in range(n)]
    nodes += [tool_record(f"u{g:0{w}}", f"tool-{g:0{w}}") for g in range(n)]
    edges = [edge_record(chain[i], chain[i + 1]) for i in range(n - 1)]
    edges += [edge_record(chain[-1], a) for a in agents]
    edges += [edge_record(f"s{g:0{w}}", chain[0]) for g in range(n)]
    edges += [edge_record(f"u{g:0{w}}", a) for g, a in enumerate(agents)]
    zero = f"{0:0{w}}"
    expected = family_expected(n, n, (agents[0], f"tool_{zero}", (f"s{zero}", f"u{zero}")), 4 * n, 4 * n - 1, n, n)
    return Generated(document(nodes, edges), expected)


def chain_of_pairs(n: int) -> Generated:
    """Family 13: boxes ``c0..c{n-1}`` chained ``c{i} -> c{i+1}``, ``c{n-1}``
    wired into one agent ``agent``; ``n`` clashing pairs (``p{g}`` "Tool g",
    ``q{g}`` "tool-g") wired into ``c0``. ``n`` violations, ``n`` clashes,
    every path ``n + 2`` nodes long.

    Choosing renames (renames.rs ``settle_renames``, during the check) asks for
    each clash whether the renamed tool's box is on the kept tool's path,
    and answers by reading the kept tool's whole path (``path_nodes``), one
    ancestor lookup per node (paths.rs ``Paths::nodes``): ``n`` paths of
    ``n`` nodes, ``n * n * log n`` steps, from a file of ``n`` boxes and
    ``n`` pairs."""
    w = id_width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    nodes = [agent_record("agent")] + [box_record(c) for c in chain]
    edges = [edge_record(chain[i], chain[i + 1]) for i in range(n - 1)] + [edge_record(chain[-1], "agent")]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [tool_record(f"p{s}", f"Tool {s}"), tool_record(f"q{s}", f"tool-{s}")]
        edges += [edge_record(f"p{s}", chain[0]), edge_record(f"q{s}", chain[0])]
    zero = f"{0:0{w}}"
    expected = family_expected(n, n, ("agent", f"tool_{zero}", (f"p{zero}", f"q{zero}")), 3 * n + 1, 3 * n, 1, n)
    return Generated(document(nodes, edges), expected)


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
    check chooses renames (renames.rs ``settle_renames`` reads every clash's
    first violation) and again on reading. Trees are per root, so nothing
    one root's tree found serves the next."""
    w = id_width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    agents = [f"a{g:0{w}}" for g in range(n)]
    own = [f"y{g:0{w}}" for g in range(n)]
    nodes = [box_record(c) for c in chain] + [box_record(y) for y in own] + [agent_record(a) for a in agents]
    nodes += [tool_record(f"s{g:0{w}}", f"Tool {g:0{w}}") for g in range(n)]
    nodes += [tool_record(f"u{g:0{w}}", f"tool-{g:0{w}}") for g in range(n)]
    edges = [edge_record(chain[i], chain[i + 1]) for i in range(n - 1)]
    edges += [edge_record(chain[-1], a) for a in agents]
    edges += [edge_record(y, a) for y, a in zip(own, agents)]
    edges += [edge_record(f"s{g:0{w}}", chain[0]) for g in range(n)]
    edges += [edge_record(f"u{g:0{w}}", y) for g, y in enumerate(own)]
    zero = f"{0:0{w}}"
    expected = family_expected(n, n, (agents[0], f"tool_{zero}", (f"s{zero}", f"u{zero}")), 5 * n, 5 * n - 1, n, 2 * n)
    return Generated(document(nodes, edges), expected)


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
    check chooses renames (renames.rs ``settle_renames``) and again each time
    a path is read."""
    w = id_width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    dead = [f"d{k}" for k in range(ENTRY_WALK_DEAD)]
    xs = [f"x{i:0{w}}" for i in range(n)]
    nodes = (
        [agent_record("agent")] + [box_record(c) for c in chain] + [box_record(d) for d in dead]
        + [tool_record(x, "X") for x in xs]
    )
    edges = [edge_record(chain[i], chain[i + 1]) for i in range(n - 1)] + [edge_record(chain[-1], "agent")]
    edges += [edge_record(x, c) for x, c in zip(xs, chain)]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [tool_record(f"p{s}", f"Tool {s}"), tool_record(f"q{s}", f"tool-{s}")]
        for tool in (f"p{s}", f"q{s}"):
            edges += [edge_record(tool, chain[0])] + [edge_record(tool, d) for d in dead]
    zero = f"{0:0{w}}"
    per_tool = 1 + ENTRY_WALK_DEAD
    expected = family_expected(
        n + 1, n + 1, ("agent", f"tool_{zero}", (f"p{zero}", f"q{zero}")), 4 * n + 1 + ENTRY_WALK_DEAD,
        2 * n + 2 * n * per_tool, 1, n + ENTRY_WALK_DEAD,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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
    boxes = interleaved_boxes(PARTS, n, nodes, edges)
    w = id_width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    nodes += [box_record(c) for c in chain] + [agent_record("z")]
    edges += [edge_record(b, chain[0]) for b in boxes]
    edges += [edge_record(chain[i], chain[i + 1]) for i in range(n - 1)] + [edge_record(chain[-1], "z")]
    for i, c in enumerate(chain):
        s = f"{i:0{w}}"
        nodes += [tool_record(f"u{s}", f"Link {s}"), tool_record(f"v{s}", f"link-{s}")]
        edges += [edge_record(f"u{s}", c), edge_record(f"v{s}", c)]
    zero = f"{0:0{w}}"
    expected = family_expected(
        18 * n, 18 * n, ("z", f"link_{zero}", (f"u{zero}", f"v{zero}")), 37 * n + 18, 37 * n + 17, 1, PARTS + n
    )
    return Generated(document(nodes, edges), expected)


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
    choosing renames (renames.rs ``settle_renames``) builds the path of every
    tool of every clash's first violation (``Collision::tools``), though
    each clash has one tool to rename, the one not seen before. Reading
    the clashes costs little per tool; the check costs ``n * n`` paths from
    a file of ``n`` boxes.

    The paths are no longer built, but the clashes' tools are still made
    and kept, and renames still look at each: the size of the distinct
    clashes is a term of the cost model of its own (src/collisions/mod.rs),
    so the size given is 2,000 (two million tools in the clashes; at
    10,000, fifty million, some 430 MB for a 3.5 MB file)."""
    w = id_width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    tools = [f"t{i:0{w}}" for i in range(n)]
    agents = [f"a{i:0{w}}" for i in range(n)]
    nodes = [box_record(c) for c in chain] + [tool_record(t, "X") for t in tools] + [agent_record(a) for a in agents]
    edges = [edge_record(t, c) for t, c in zip(tools, chain)]
    edges += [edge_record(chain[i], chain[i + 1]) for i in range(n - 1)]
    edges += [edge_record(c, a) for c, a in zip(chain, agents)]
    expected = family_expected(n - 1, n - 1, (agents[1], "x", (tools[0], tools[1])), 3 * n, 3 * n - 1, n, n)
    return Generated(document(nodes, edges), expected)


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
    chosen (renames.rs ``settle_renames``), then again on reading (8 trees are
    kept, one per agent): ``n * m`` steps from a file of ``n`` agents and
    ``m`` boxes."""
    m = 10 * n
    wm, w = id_width(m), id_width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    sides = [f"S{j:02}" for j in range(SIDES)]
    nodes = (
        [box_record(c) for c in chain] + [box_record("Q"), tool_record("k0", "Key"), tool_record("k1", "key")]
        + [box_record(x) for x in sides]
    )
    edges = (
        [edge_record(chain[i], chain[i + 1]) for i in range(m - 1)]
        + [edge_record("k0", "Q"), edge_record("k1", "Q")]
    )
    edges += [edge_record("Q", x) for x in sides]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"t{s}", f"Tool {s}"), tool_record(f"e{s}", f"tool-{s}")]
        edges += [edge_record(f"t{s}", chain[0]), edge_record(f"e{s}", f"a{s}"), edge_record(chain[-1], f"a{s}")]
        edges += [edge_record(x, f"a{s}") for x in sides]
    expected = family_expected(
        2 * n, n + 1, (f"a{0:0{w}}", "key", ("k0", "k1")), m + 3 + SIDES + 3 * n, m + 1 + SIDES + (3 + SIDES) * n, n,
        m + 1 + SIDES,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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
    (renames.rs ``settle_renames``), then again when the first violation of
    each clash is read (``clash_groups()``) and on every read of its path:
    ``n * m`` steps from a file of ``n`` agents and ``m`` boxes."""
    m = 10 * n
    wm, w = id_width(m), id_width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    nodes = [box_record(c) for c in chain] + [box_record("X"), box_record("Y")]
    nodes += [tool_record("x0", "Xk"), tool_record("x1", "xk"), tool_record("y0", "Yk"), tool_record("y1", "yk")]
    edges = (
        [edge_record(chain[i], chain[i + 1]) for i in range(m - 1)]
        + [edge_record(chain[-1], "X"), edge_record(chain[-1], "Y")]
    )
    edges += [edge_record("x0", "X"), edge_record("x1", "X"), edge_record("y0", "Y"), edge_record("y1", "Y")]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"t{s}", f"Tool {s}"), tool_record(f"e{s}", f"tool-{s}")]
        edges += [
            edge_record(f"t{s}", chain[0]),
            edge_record(f"e{s}", f"a{s}"),
            edge_record("X", f"a{s}"),
            edge_record("Y", f"a{s}"),
        ]
    zero = f"{0:0{w}}"
    expected = family_expected(
        3 * n, n + 2, (f"a{zero}", f"tool_{zero}", (f"e{zero}", f"t{zero}")), m + 6 + 3 * n, m + 5 + 4 * n, n, m + 2
    )
    return Generated(document(nodes, edges), expected)


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
    w = id_width(n)
    chain = [f"c{i:0{w}}" for i in range(n)]
    nodes = [box_record(c) for c in chain] + [tool_record("t", "Key"), agent_record("O")]
    edges = [edge_record(chain[i], chain[i + 1]) for i in range(n - 1)] + [edge_record("t", chain[0])]
    for i in range(n):
        s = f"{i:0{w}}"
        nodes += [box_record(f"d{s}"), tool_record(f"y{s}", f"Y {s}"), tool_record(f"z{s}", f"y-{s}")]
        edges += [edge_record("t", f"d{s}"), edge_record(f"y{s}", chain[i]), edge_record(f"z{s}", "O")]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"e{s}", "key")]
        edges += [edge_record(chain[-1], f"a{s}"), edge_record(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(n, n, (f"a{zero}", "key", (f"e{zero}", "t")), 6 * n + 2, 6 * n, n + 1, 2 * n)
    return Generated(document(nodes, edges), expected)


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
    dropped), and both choosing renames (renames.rs ``settle_renames``, in the
    order of the clashes' first violations: ``t{g}`` sorts after ``e{g}``,
    so it is renamed and given a path) and reading in report order go
    round the nine roots by agent id, so every path grows its root's tree
    afresh: ``n * m`` steps in the check, again when the clashes' first
    violations are read (``clash_groups()``) and again for their tools'
    paths, from a file of ``n`` agents and ``m`` boxes. With eight roots:
    linear."""
    m = 10 * n
    wm, w = id_width(m), id_width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    nodes = [box_record(c) for c in chain]
    edges = [edge_record(chain[i], chain[i + 1]) for i in range(m - 1)]
    for r in range(NINE):
        for side in "XY":
            b = f"{side}{r}"
            nodes += [box_record(b), tool_record(f"{b}p", f"{side} {r} k"), tool_record(f"{b}q", f"{side} {r}-k")]
            edges += [
                edge_record(chain[-1], b),
                edge_record(f"{b}p", b),
                edge_record(f"{b}q", b),
                edge_record(b, f"R{r}"),
            ]
        nodes.append(box_record(f"R{r}"))
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"e{s}", f"tool-{s}"), tool_record(f"t{s}", f"Tool {s}")]
        edges += [edge_record(f"R{g % NINE}", f"a{s}"), edge_record(f"e{s}", f"a{s}"), edge_record(f"t{s}", chain[0])]
    zero = f"{0:0{w}}"
    expected = family_expected(
        3 * n, n + 2 * min(n, NINE), (f"a{zero}", f"tool_{zero}", (f"e{zero}", f"t{zero}")), m + 7 * NINE + 3 * n,
        m - 1 + 8 * NINE + 3 * n, n, m + 3 * NINE,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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
    wm, w = id_width(m), id_width(n)
    chain = [f"c{i:0{wm}}" for i in range(m)]
    sides = [f"S{j:02}" for j in range(SIDES)]
    nodes = [box_record(c) for c in chain] + [box_record(x) for x in sides]
    edges = [edge_record(chain[i], chain[i + 1]) for i in range(m - 1)]
    for j, x in enumerate(sides):
        nodes += [tool_record(f"{x}p", f"S {j:02} k"), tool_record(f"{x}q", f"S {j:02}-k")]
        edges += [edge_record(f"{x}p", x), edge_record(f"{x}q", x)]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [agent_record(f"a{s}"), tool_record(f"t{s}", f"Tool {s}"), tool_record(f"e{s}", f"tool-{s}")]
        edges += [edge_record(f"t{s}", chain[0]), edge_record(f"e{s}", f"a{s}"), edge_record(chain[-1], f"a{s}")]
        edges += [edge_record(x, f"a{s}") for x in sides]
    zero = f"{0:0{w}}"
    expected = family_expected(
        (SIDES + 1) * n, n + SIDES, (f"a{zero}", "s_00_k", ("S00p", "S00q")), m + 3 * SIDES + 3 * n,
        m - 1 + 2 * SIDES + (3 + SIDES) * n, n, m + SIDES,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)


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
    wm, w = id_width(m), id_width(n)
    first, second = [f"ca{i:0{wm}}" for i in range(m)], [f"cb{i:0{wm}}" for i in range(m)]
    nodes = [box_record(c) for c in first + second] + [tool_record("t", "Key")]
    edges = [edge_record(c[i], c[i + 1]) for c in (first, second) for i in range(m - 1)]
    edges += [edge_record("t", first[0]), edge_record("t", second[0])]
    for g in range(n):
        s = f"{g:0{w}}"
        nodes += [box_record(f"x{s}"), box_record(f"y{s}"), agent_record(f"a{s}"), tool_record(f"e{s}", "key")]
        edges += [edge_record(first[-1], f"x{s}"), edge_record(second[-1], f"y{s}")]
        edges += [edge_record(f"x{s}", f"a{s}"), edge_record(f"y{s}", f"a{s}"), edge_record(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    expected = family_expected(
        n, n, (f"a{zero}", "key", (f"e{zero}", "t")), 2 * m + 1 + 4 * n, 2 * m + 5 * n, n, 2 * m + 2 * n
    )
    return Generated(document(nodes, edges), expected)


STRANDS = 33
"""Family 43: one more provider bringing a tool from a chain of its own
than paths of carrying providers a path found (paths.rs, before
``CARRIER_SEARCHES``)."""

WIDER_STRANDS = 65
"""Family 44: one more provider bringing a tool from a chain of its own
than a root's search for the carrying providers' paths looks at for free
(paths.rs ``PROVIDERS_LOOKED_AT``)."""


def wide_splits(n: int) -> Generated:
    """Family 43: 33 chains of ``n`` boxes each, ``c{j}-0..``, tool ``t``
    "Key" wired into every chain's top; ``n`` agents ``a{g}``, each fed by
    33 boxes ``x{g}-{j}`` of its own, box ``x{g}-{j}`` below chain
    ``j``'s end, and by its tool ``e{g}`` "key": ``n`` violations, ``n``
    clashes.

    Each agent is a root whose 33 providers all bring ``t`` from different
    boxes above. A path found at most 32 carrying providers' paths, so the
    agent's tree decided, grown breadth first up all 33 chains: ``33 * n``
    steps for each agent, ``33 * n * n`` from a file of ``66 * n`` boxes.
    Now a path searches the carrying providers' paths at up to 32 roots
    (paths.rs ``CARRIER_SEARCHES``), each of up to 64 providers, and a
    root searched whole is remembered with the path above it, so each
    agent finds 33 paths, one jump up a chain each. (Found while attacking
    ``nearest_carrier``.)"""
    return _splits(n, STRANDS)


def wider_splits(n: int) -> Generated:
    """Family 44: family 43 with 65 chains: each agent is a root of more
    providers than a root's search looks at for free (paths.rs
    ``PROVIDERS_LOOKED_AT``), so its tree decided, grown breadth first up
    all 65 chains: ``65 * n * n`` to read the paths, from a file of ``130
    * n`` boxes. Such a root is now searched for rent (the search's work
    grows the root's tree, which decides once whole), so each agent finds
    65 paths and grows its tree by about as much. (Found while fixing
    family 43.)"""
    return _splits(n, WIDER_STRANDS)


def _splits(n: int, strands: int) -> Generated:
    """Families 43 and 44: ``strands`` chains of ``n`` boxes, a tool atop
    each; ``n`` agents, each fed by a box of its own below each chain's
    end, and by the tool's twin."""
    w = id_width(n)
    nodes = [tool_record("t", "Key")]
    edges: List[str] = []
    for j in range(strands):
        chain = [f"c{j:02}-{i:0{w}}" for i in range(n)]
        nodes += [box_record(b) for b in chain]
        edges += [edge_record(a, b) for a, b in zip(chain, chain[1:])] + [edge_record("t", chain[0])]
    for g in range(n):
        s = f"{g:0{w}}"
        own = [f"x{s}-{j:02}" for j in range(strands)]
        nodes += [agent_record(f"a{s}"), tool_record(f"e{s}", "key")] + [box_record(x) for x in own]
        edges += [edge_record(f"c{j:02}-{n - 1:0{w}}", x) for j, x in enumerate(own)]
        edges += [edge_record(x, f"a{s}") for x in own] + [edge_record(f"e{s}", f"a{s}")]
    zero = f"{0:0{w}}"
    k = strands
    expected = family_expected(
        n, n, (f"a{zero}", "key", (f"e{zero}", "t")), 1 + k * n + (2 + k) * n, k * (n - 1) + k + (2 * k + 1) * n, n,
        k * n + k * n,
    )  # fmt: skip
    return Generated(document(nodes, edges), expected)
