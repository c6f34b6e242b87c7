"""CMP-9 on workflows shaped to make the engine use each of its ways of
sharing (src/collisions/mod.rs): classes held as parts (big boxes whose
tokens interleave, combined differently by many agents), the words where
parts meet united apart (a name in every box), more parts than are kept,
giants (a name of more than 64 groups of tools), inputs that many agents
share joined once as a base, roots that pass a tool on
to the one provider bringing it, and path trees. Whatever the engine
shares, the report must be exactly the pure-Python reference's, paths
included: these are random workflows of each shape, checked both ways.
Where a clash forms (a group's ``through``), which the reference does not
say, is checked against its definition, worked out node by node."""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

import pytest

import toolwire
from toolwire import reference

from support import without_places

Json = Dict[str, Any]


def _tool(node: str, label: str) -> Json:
    return {"id": node, "type": "tool", "data": {"label": label}}


def _box(node: str) -> Json:
    return {"id": node, "type": "toolbox"}


def _agent(node: str) -> Json:
    return {"id": node, "type": "agent"}


def _edge(source: str, target: str) -> Json:
    return {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}


def shaped(seed: int) -> Json:
    """Boxes of many clashing pairs whose names interleave from box to box
    (so a union of a few boxes touches every word), some names in every box
    (the parts meet there), a name of more than 64 tools each in a box of
    its own along a chain (a giant), hubs of boxes, private boxes, direct
    tools, and agents wired to random handfuls of all of them."""
    rng = random.Random(seed)
    nodes: List[Json] = []
    edges: List[Json] = []
    boxes = [f"b{j}" for j in range(rng.randint(6, 10))]
    pairs = rng.randint(60, 120)
    for j, box in enumerate(boxes):
        nodes.append(_box(box))
        for p in range(pairs):
            if rng.random() < 0.8:  # a clashing pair inside the box
                for side, label in (("a", f"Tool {p:03} {j}"), ("b", f"tool-{p:03}-{j}")):
                    nodes.append(_tool(f"t{j}_{p}{side}", label))
                    edges.append(_edge(f"t{j}_{p}{side}", box))
            else:  # a name shared with the other boxes: they meet there
                nodes.append(_tool(f"s{j}_{p}", f"Shared {p % 7}"))
                edges.append(_edge(f"s{j}_{p}", box))
    # A chain of boxes, each with one tool of one name: a giant.
    chain = [f"c{i}" for i in range(rng.randint(66, 90))]
    for i, box in enumerate(chain):
        nodes += [_box(box), _tool(f"g{i}", "Giant")]
        edges.append(_edge(f"g{i}", box))
        if i:
            edges.append(_edge(chain[i - 1], box))
    # Hubs of a few boxes each.
    hubs = [f"h{k}" for k in range(3)]
    for hub in hubs:
        nodes.append(_box(hub))
        for box in rng.sample(boxes, 3):
            edges.append(_edge(box, hub))
    sources = boxes + hubs + [chain[rng.randrange(len(chain))], chain[-1]]
    for a in range(rng.randint(25, 40)):
        agent = f"agent{a:02}"
        nodes.append(_agent(agent))
        for source in rng.sample(sources, rng.randint(1, 5)):
            if rng.random() < 0.3:  # behind a private box
                private = f"o{a}_{source}"
                nodes.append(_box(private))
                edges += [_edge(source, private), _edge(private, agent)]
            else:
                edges.append(_edge(source, agent))
        if rng.random() < 0.5:  # a tool of its own, clashing with a box's
            own = f"own{a}"
            nodes.append(_tool(own, f"TOOL {rng.randrange(pairs):03} {rng.randrange(len(boxes))}"))
            edges.append(_edge(own, agent))
        if rng.random() < 0.3:  # and one with the giant
            nodes.append(_tool(f"gx{a}", "giant"))
            edges.append(_edge(f"gx{a}", agent))
    rng.shuffle(nodes)
    rng.shuffle(edges)
    return {"nodes": nodes, "edges": edges}


def violations_as_the_reference_reports_them(workflow: Json) -> int:
    """Checks ``workflow`` both ways: the same report, places aside; how
    many violations it has."""
    ours = toolwire.check_json(json.dumps(workflow))
    theirs = reference.check(workflow)
    assert without_places(ours) == without_places(theirs)
    return len(theirs.violations)


@pytest.mark.parametrize("seed", range(6))
def test_cmp9_shared_sets_give_the_reference_s_report(seed: int) -> None:
    assert violations_as_the_reference_reports_them(shaped(seed)) > 1_000


Clash = Tuple[str, Tuple[str, ...]]


def consumers_by_clash(report: toolwire.Report) -> Dict[Clash, List[str]]:
    """The consumers of each clash (a name and its tools), from the
    violations one by one, in report order."""
    by_clash: Dict[Clash, List[str]] = {}
    for v in report.violations:
        by_clash.setdefault((v.name or "", tuple(t.id for t in v.tools)), []).append(v.consumer or "")
    return by_clash


@pytest.mark.parametrize("seed", range(6))
def test_cmp9_clash_groups_are_the_violations_grouped(seed: int) -> None:
    # Each clash once, with its consumers counted and listed exactly: the
    # groups the core keeps are those the violations make.
    report = toolwire.check_json(json.dumps(shaped(seed)))
    by_clash = consumers_by_clash(report)
    groups = report.clash_groups()
    assert len(groups) == len(by_clash)
    for group in groups:
        consumers = by_clash[(group.name, tuple(t.id for t in group.tools))]
        assert list(group.consumers) == sorted(consumers) and group.count == len(consumers)
        assert group.first.consumer == consumers[0]


def spread(seed: int) -> Json:
    """Many agents, each with a clashing pair of its own (so every agent
    has a violation), and boxes of clashing pairs each wired to agents far
    apart: a clash's consumers past its first ten are rare among the
    consumers with a violation, so the core lists them from its sets (the
    first 128 of every clash at once) instead of looking at each consumer
    in between; a few boxes reach more than 128 agents, so the listing
    goes on past those. Some boxes are wired through hubs and private
    boxes, and some names are in several boxes, so clashes are held as
    parts and meet."""
    rng = random.Random(seed)
    nodes: List[Json] = []
    edges: List[Json] = []
    agents = [f"a{k:04}" for k in range(rng.randint(1_200, 1_600))]
    for k, agent in enumerate(agents):
        nodes += [_agent(agent), _tool(f"p{k}", f"Own {k}"), _tool(f"q{k}", f"own-{k}")]
        edges += [_edge(f"p{k}", agent), _edge(f"q{k}", agent)]
    boxes = [f"b{j:02}" for j in range(rng.randint(20, 30))]
    for j, box in enumerate(boxes):
        nodes.append(_box(box))
        for p in range(rng.randint(1, 6)):
            for side, label in (("a", f"Tool {j} {p}"), ("b", f"tool-{j}-{p}")):
                nodes.append(_tool(f"t{j}_{p}{side}", label))
                edges.append(_edge(f"t{j}_{p}{side}", box))
        if rng.random() < 0.3:  # a name in several boxes
            nodes.append(_tool(f"s{j}", "Shared"))
            edges.append(_edge(f"s{j}", box))
        wide = rng.random() < 0.2
        reached = rng.sample(agents, rng.randint(140, 220) if wide else rng.randint(11, 40))
        via = box
        if rng.random() < 0.3:  # through a hub
            via = f"h{j}"
            nodes.append(_box(via))
            edges.append(_edge(box, via))
        for agent in reached:
            if rng.random() < 0.2:  # behind a private box
                private = f"o{j}_{agent}"
                nodes.append(_box(private))
                edges += [_edge(via, private), _edge(private, agent)]
            else:
                edges.append(_edge(via, agent))
    rng.shuffle(nodes)
    rng.shuffle(edges)
    return {"nodes": nodes, "edges": edges}


@pytest.mark.parametrize("seed", range(4))
def test_cmp9_consumers_past_the_tenth_are_the_violations_grouped(seed: int) -> None:
    # Read as the json format reads them (each clash's first 100, in
    # report order), then again in stretches and whole: every way of
    # reading gives the consumers the violations make, in id order.
    report = toolwire.check_json(json.dumps(spread(seed)))
    by_clash = consumers_by_clash(report)
    groups = list(report.clash_groups())
    assert len(groups) == len(by_clash)
    expected = [sorted(by_clash[(g.name, tuple(t.id for t in g.tools))]) for g in groups]
    assert max(len(e) for e in expected) > 128
    for group, consumers in zip(groups, expected):
        assert list(group.consumers[:100]) == consumers[:100]
    for group, consumers in zip(groups, expected):
        assert list(group.consumers[50:150]) == consumers[50:150]
        assert list(group.consumers[120:]) == consumers[120:]
        assert list(group.consumers) == consumers and group.count == len(consumers)


def based(seed: int) -> Json:
    """Agents wired to the same few big boxes in a handful of patterns,
    each also to small boxes of its own: the big boxes' leading run of
    inputs is joined once and each agent adds its own (build.rs
    ``SharedBases``). The big boxes' names clash across them (the base
    forms clashes), and a small box may hold such a clash whole (then it
    does not form at the agent), add a third tool to it, or clash with a
    big box; hubs and boxes on top of a pattern join big boxes and a small
    one of their own, so a clash may form in one box alone (agents that
    take the box on top too hold whole what it formed); some agents have
    tools of their own. With
    an odd seed, each big box also holds pairs of its own whose names
    interleave with the other boxes', so the base is held as parts."""
    rng = random.Random(seed)
    nodes: List[Json] = []
    edges: List[Json] = []
    names = rng.randint(40, 90)
    variants = ("Key {}", "key-{}", "KEY {}")
    big = [f"B{j}" for j in range(rng.randint(3, 5))]
    for j, box in enumerate(big):
        nodes.append(_box(box))
        for i in rng.sample(range(names), rng.randint(names // 3, names - 1)):
            tool = f"B{j}t{i}"
            nodes.append(_tool(tool, rng.choice(variants).format(i)))
            edges.append(_edge(tool, box))
        if seed % 2:  # pairs of its own, interleaved with the others': held as parts
            for p in range(rng.randint(60, 120)):
                for side, label in (("a", f"Pair {p:03} {j}"), ("b", f"pair-{p:03}-{j}")):
                    nodes.append(_tool(f"B{j}p{p}{side}", label))
                    edges.append(_edge(f"B{j}p{p}{side}", box))
    small_count = 0

    def small_box(consumer: str) -> None:
        nonlocal small_count
        box = f"s{small_count}"
        small_count += 1
        nodes.append(_box(box))
        picked = [rng.randrange(names) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.3:  # a name twice: a clash held whole
            picked.append(picked[0])
        for t, i in enumerate(picked):
            tool = f"{box}t{t}"
            nodes.append(_tool(tool, rng.choice(variants).format(i)))
            edges.append(_edge(tool, box))
        edges.append(_edge(box, consumer))

    patterns = [rng.sample(big, rng.randint(2, len(big))) for _ in range(rng.randint(2, 4))]
    hubs = [f"H{h}" for h in range(rng.randint(1, 3))]
    for hub in hubs:
        nodes.append(_box(hub))
        edges += [_edge(box, hub) for box in rng.choice(patterns)]
        small_box(hub)
    # A box on top of a pattern, with a small box of its own: agents that
    # take it too hold whole what the pattern forms, so that forms there.
    tops: Dict[int, str] = {}
    for t, pattern in enumerate(patterns):
        if rng.random() < 0.9:
            tops[t] = f"T{t}"
            nodes.append(_box(tops[t]))
            edges += [_edge(box, tops[t]) for box in pattern]
            small_box(tops[t])
    for k in range(rng.randint(30, 60)):
        agent = f"a{k:02}"
        nodes.append(_agent(agent))
        t = rng.randrange(len(patterns))
        sources = list(patterns[t])
        if t in tops and rng.random() < 0.7:
            sources.append(tops[t])
        if rng.random() < 0.2:
            sources.append(rng.choice(hubs))
        rng.shuffle(sources)
        edges += [_edge(box, agent) for box in sources]
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            small_box(agent)
        if rng.random() < 0.3:
            i = rng.randrange(names)
            nodes.append(_tool(f"{agent}own", rng.choice(variants).format(i)))
            edges.append(_edge(f"{agent}own", agent))
    return {"nodes": nodes, "edges": edges}


@pytest.mark.parametrize("seed", range(20))
def test_cmp9_inputs_shared_as_a_base_give_the_reference_s_report(seed: int) -> None:
    assert violations_as_the_reference_reports_them(based(seed)) > 0


def interleaved_combinations(seed: int) -> Json:
    """Boxes ``S0..`` of many names, each held by two or three neighbours
    (their parts meet in every word), each into a box ``H{j}`` with a pair
    of its own; some with covers (fed alike, with a pair more); agents
    each wired to most ``H``, one cover of each, and a box or pair of its
    own, the pairs' labels often one name ("Pair", "pair", "PAIR!") or a
    box's name, so that a name gains a holder with each agent (session
    40's `basefuzz`)."""
    rng = random.Random(seed)
    k = rng.randint(2, 4)
    d, covers = rng.randint(0, k), rng.randint(2, 6)
    n, share = rng.choice([150, 250, 400]), rng.choice([2, 2, 3])
    nodes: List[Json] = [_box(f"S{j}") for j in range(k)]
    edges: List[Json] = []
    for row in range(max(1, n // k)):
        for c in range(k):
            for s in range(share):
                nodes.append(_tool(f"u{row}_{c}_{s}", f"Ring {row * k + c:06d}"))
                edges.append(_edge(f"u{row}_{c}_{s}", f"S{(c - s) % k}"))
    labels = ["Pair", "pair", "PAIR!", "Ring 000001", "ring-000002"]

    def pair(tag: str, target: str) -> None:
        for side, label in (("p", f"Pair {tag}"), ("q", f"pair- {tag}")):
            nodes.append(_tool(f"{tag}-{side}", rng.choice(labels) if rng.random() < 0.3 else label))
            edges.append(_edge(f"{tag}-{side}", target))

    for j in range(k):
        nodes.append(_box(f"H{j}"))
        edges.append(_edge(f"S{j}", f"H{j}"))
        pair(f"h{j}", f"H{j}")
    for j in range(d):
        for g in range(covers):
            cover = f"Y{j}_{g}"
            nodes.append(_box(cover))
            edges += [_edge(f"S{j}", cover), _edge(f"h{j}-p", cover), _edge(f"h{j}-q", cover)]
            if rng.random() < 0.8:
                pair(f"y{j}_{g}", cover)
    for i in range(rng.randint(20, 120)):
        agent = f"a{i:04d}"
        nodes.append(_agent(agent))
        edges += [_edge(f"H{j}", agent) for j in range(k) if rng.random() < 0.9]
        pick = i if rng.random() < 0.8 else rng.randint(0, 10**6)
        for j in range(d):
            edges.append(_edge(f"Y{j}_{pick % covers}", agent))
            pick //= covers
        place = rng.random()
        if place < 0.6:
            own = f"s{i:04d}"
            nodes.append(_box(own))
            pair(f"s{i}", own)
            edges.append(_edge(own, agent))
            if rng.random() < 0.1:
                edges.append(_edge(f"S{rng.randrange(k)}", own))
        elif place < 0.8:
            pair(f"s{i}", agent)
    return {"nodes": nodes, "edges": edges}


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 10])
def test_cmp9_combinations_of_interleaved_boxes_give_the_reference_s_report(seed: int) -> None:
    # Seed 10: the agent whose box of its own is the 17th holder of
    # "pair" walked H3 first, then its box, which crowded the name and
    # marked H3 crowded too, after H3 was counted: one crowded part, so
    # the class was held as parts with "pair" in two of them, a clash no
    # part held and no count said. Reading its violations panicked
    # ("every clash a word holds is a clash") until session 40.
    assert violations_as_the_reference_reports_them(interleaved_combinations(seed)) > 0


def covers_named_like_their_box(seed: int) -> Json:
    """Ring boxes ``S0..`` (each name held by two neighbours, so they meet
    in every word) and covers of them, some of covers: each adds a few
    tools of its own to the one box it is fed by, often named like that
    box's tools, sometimes a tool of the box itself. Agents are wired to a
    cover or two and to some ring boxes, so a clash a cover formed may
    reach an agent whole, or grow there. Agents hold covers as their box
    and own tools (build.rs, `pieces`); an own tool named like its box's
    takes the box's tools of that name with it (session 42), and what the
    cover formed must still form at the cover."""
    rng = random.Random(seed)
    k, rows = rng.randint(3, 5), rng.randint(30, 90)
    nodes: List[Json] = [_box(f"S{j}") for j in range(k)]
    edges: List[Json] = []
    for row in range(rows):
        for c in range(k):
            for s in range(2):
                nodes.append(_tool(f"u{row}_{c}_{s}", f"Ring {row * k + c:06d}"))
                edges.append(_edge(f"u{row}_{c}_{s}", f"S{(c - s) % k}"))
    covers: List[Tuple[str, int]] = []
    for y in range(rng.randint(4, 12)):
        j = rng.randrange(k)
        fed_by = f"S{j}"
        for depth in range(rng.choice([1, 1, 2, 3])):
            cover = f"Y{y}_{depth}"
            nodes.append(_box(cover))
            edges.append(_edge(fed_by, cover))
            for t in range(rng.randint(1, 3)):
                tool = f"{cover}t{t}"
                kind = rng.random()
                if kind < 0.5:  # named like a tool of the box
                    label = f"ring-{rng.randrange(rows) * k + rng.choice([j, (j + 1) % k]):06d}"
                elif kind < 0.7:
                    label = f"Own {cover} {t // 2}"
                else:
                    label = f"Cover {y}"
                nodes.append(_tool(tool, label))
                edges.append(_edge(tool, cover))
            if rng.random() < 0.2:  # a tool of the box wired in again
                edges.append(_edge(f"u{rng.randrange(rows)}_{j}_0", cover))
            covers.append((cover, j))
            fed_by = cover
    for i in range(rng.randint(20, 60)):
        agent = f"a{i:03d}"
        nodes.append(_agent(agent))
        for cover, _ in rng.sample(covers, rng.randint(1, 2)):
            edges.append(_edge(cover, agent))
        for j in rng.sample(range(k), rng.randint(0, 2)):
            edges.append(_edge(f"S{j}", agent))
    return {"nodes": nodes, "edges": edges}


@pytest.mark.parametrize("seed", range(20))
def test_cmp9_covers_named_like_their_box_give_the_reference_s_report(seed: int) -> None:
    assert violations_as_the_reference_reports_them(covers_named_like_their_box(seed)) > 0


def test_cmp9_a_clash_held_whole_by_a_box_on_top_forms_in_that_box_alone() -> None:
    # T0 joins B3 and B4, whose "Key 86" tools clash there. The agents take
    # B3 and B4 too, and T0, which holds the clash whole: it forms in T0
    # alone, although the agents' other inputs would form it again (joined
    # once for both agents, and equal, as sets, to what T0 holds).
    nodes = [_box("B3"), _box("B4"), _box("T0"), _agent("a35"), _agent("a36")]
    nodes += [_tool("B3t86", "KEY 86"), _tool("B4t86", "KEY 86"), _tool("B4t32", "Key 32"), _tool("own", "key-32")]
    edges = [_edge("B3t86", "B3"), _edge("B4t86", "B4"), _edge("B4t32", "B4"), _edge("own", "a35")]
    edges += [_edge(box, "T0") for box in ("B3", "B4")]
    edges += [_edge(box, agent) for agent in ("a35", "a36") for box in ("T0", "B4", "B3")]
    groups = {group.name: group for group in toolwire.check({"nodes": nodes, "edges": edges}).clash_groups()}
    assert groups["key_86"].through == "T0" and groups["key_86"].count == 2
    assert groups["key_32"].through is None and groups["key_32"].count == 1


def tangled(seed: int) -> Json:
    """Boxes wired into each other at random (cycles, self-loops, boxes
    that feed several), tools of a few names wired into boxes and agents,
    agents fed by a few boxes each: clashes that form in one box, in
    several, in a cycle, at the agents themselves."""
    rng = random.Random(seed)
    boxes = [f"b{j:02}" for j in range(rng.randint(8, 16))]
    agents = [f"a{k}" for k in range(rng.randint(4, 8))]
    nodes: List[Json] = [_box(b) for b in boxes] + [_agent(a) for a in agents]
    edges: List[Json] = []
    for _ in range(rng.randint(len(boxes), 2 * len(boxes))):
        edges.append(_edge(rng.choice(boxes), rng.choice(boxes)))
    for t in range(rng.randint(6, 14)):
        label = rng.choice(["Search", "search", "Fetch", "fetch!", "Read", "READ"])
        nodes.append(_tool(f"t{t:02}", label))
        for target in rng.sample(boxes + agents, rng.randint(1, 3)):
            edges.append(_edge(f"t{t:02}", target))
    for agent in agents:
        for box in rng.sample(boxes, rng.randint(1, 3)):
            edges.append(_edge(box, agent))
    return {"nodes": nodes, "edges": edges}


def braided(seed: int) -> Json:
    """Strands of boxes (chains of single-provider boxes) of random
    lengths that split, merge and feed agents two or three at a time, with
    tools wired at their tops and part way down, and ids shuffled so that
    which of two equally near boxes comes first by id is a coin toss: roots
    that several providers bring one tool into from different boxes above,
    whose paths are each provider's own, the shortest and first by ids
    kept (paths.rs ``Paths::nearest_carrier``)."""
    rng = random.Random(seed)
    names = [f"n{i:03}" for i in range(400)]
    rng.shuffle(names)
    fresh = iter(names)
    nodes: List[Json] = []
    edges: List[Json] = []
    strands: List[List[str]] = []
    for _ in range(rng.randint(3, 6)):
        strand = [next(fresh) for _ in range(rng.randint(1, 6))]
        nodes += [_box(b) for b in strand]
        edges += [_edge(a, b) for a, b in zip(strand, strand[1:])]
        if strands and rng.random() < 0.5:  # a split: hangs below a box of another strand
            edges.append(_edge(rng.choice(rng.choice(strands)), strand[0]))
        strands.append(strand)
    for _ in range(rng.randint(0, 3)):  # merges: one strand's box into another's
        a, b = rng.sample(strands, 2)
        edges.append(_edge(rng.choice(a), rng.choice(b)))
    boxes = [b for strand in strands for b in strand]
    for t in range(rng.randint(3, 7)):
        tool = next(fresh)
        nodes.append(_tool(tool, rng.choice(["Search", "search", "SEARCH!"])))
        for _ in range(rng.randint(1, 3)):
            strand = rng.choice(strands)
            edges.append(_edge(tool, strand[0] if rng.random() < 0.6 else rng.choice(strand)))
    for _ in range(rng.randint(2, 5)):
        agent = next(fresh)
        nodes.append(_agent(agent))
        for strand in rng.sample(strands, min(len(strands), rng.randint(2, 3))):
            edges.append(_edge(strand[-1], agent))
        if rng.random() < 0.3:
            edges.append(_edge(rng.choice(boxes), agent))
    return {"nodes": nodes, "edges": edges}


@pytest.mark.parametrize("seed", range(80))
def test_cmp9_roots_fed_one_tool_from_several_strands_give_the_reference_s_paths(seed: int) -> None:
    violations_as_the_reference_reports_them(braided(seed))


class Formation:
    """Where clashes form, from the definition, for one workflow: a clash
    (a name and its tools) is held by the nodes whose flattened tools of
    that name are exactly its tools (consumers, and boxes that forward to
    one); it forms at those into which, or into whose cycle of boxes, no
    box that holds it is wired."""

    def __init__(self, workflow: Json) -> None:
        graph = reference._build_graph(
            reference._read(workflow, set(reference.DEFAULT_PASSTHROUGH_TYPES), set(reference.DEFAULT_EDGE_TYPES))
        )
        self.graph, self.boxes = graph, graph.passthroughs
        self.below = {node: self._downstream(node) for node in graph.labels}
        consumers = {n for n in graph.providers if n not in self.boxes}
        self.named: Dict[str, Dict[str, Tuple[str, ...]]] = {}
        for node in graph.labels:
            if node in self.boxes and not self.below[node] & consumers:
                continue  # forwards to no consumer
            if node in self.boxes or node in consumers:
                by_name: Dict[str, List[str]] = {}
                for leaf in reference._upstream(graph, node)[1]:
                    by_name.setdefault(reference.normalize_name(graph.labels[leaf]), []).append(leaf)
                self.named[node] = {name: tuple(sorted(leaves)) for name, leaves in by_name.items()}

    def _downstream(self, node: str) -> Set[str]:
        seen, todo = {node}, [node]
        while todo:
            for r in self.graph.receivers.get(todo.pop(), ()):
                if r not in seen:
                    seen.add(r)
                    if r in self.boxes:
                        todo.append(r)
        return seen

    def through(self, name: str, tools: Tuple[str, ...]) -> Optional[str]:
        """The box where the clash forms, when that is one box alone."""
        holders = {node for node, by_name in self.named.items() if by_name.get(name) == tools}

        def held_upstream(node: str) -> bool:
            cycle = {m for m in self.below[node] if node in self.below[m]} if node in self.boxes else {node}
            providers = {p for m in cycle for p in self.graph.providers.get(m, ())}
            return any(p in holders and p in self.boxes and p not in cycle for p in providers)

        forming = [node for node in sorted(holders) if not held_upstream(node)]
        return forming[0] if len(forming) == 1 and forming[0] in self.boxes else None


WORKFLOWS = [("tangled", tangled, seed) for seed in range(40)] + [("shaped", shaped, seed) for seed in range(3)]
WORKFLOWS += [("spread", spread, seed) for seed in range(2)] + [("based", based, seed) for seed in range(20)]
WORKFLOWS += [("braided", braided, seed) for seed in range(20)]
WORKFLOWS += [("covers", covers_named_like_their_box, seed) for seed in range(20)]


@pytest.mark.parametrize(("shape", "make", "seed"), WORKFLOWS, ids=[f"{w[0]}-{w[2]}" for w in WORKFLOWS])
def test_cmp9_through_is_the_one_box_where_the_clash_forms(shape: str, make: Callable[[int], Json], seed: int) -> None:
    workflow = make(seed)
    formation = Formation(workflow)
    for group in toolwire.check(workflow).clash_groups():
        tools = tuple(t.id for t in group.tools)
        assert group.through == formation.through(group.name, tools), (group.name, tools)
