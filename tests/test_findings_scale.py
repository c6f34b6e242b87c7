"""Findings that cost what they say (issue 9): workflows whose violations
far outnumber their bytes are checked in the time and memory of their
input, and every violation is still there, exact, when it is read."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

import pytest

import toolwire
from toolwire import reference
from support import without_places, work_done

Workflow = Dict[str, Any]


def wire(source: str, target: str) -> Dict[str, Any]:
    return {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}


def clash_box(pairs: int, agents: int) -> Workflow:
    """One toolbox of `pairs` clashing pairs ("Tool i" / "tool-i") wired
    into `agents` agents: pairs * agents CMP-9 violations."""
    nodes: List[Dict[str, Any]] = [{"id": "box", "type": "toolbox", "data": {"label": "Kit"}}]
    edges = []
    for i in range(pairs):
        nodes += [{"id": f"a{i}", "data": {"label": f"Tool {i}"}}, {"id": f"b{i}", "data": {"label": f"tool-{i}"}}]
        edges += [wire(f"a{i}", "box"), wire(f"b{i}", "box")]
    edges += [wire("box", f"agent{c}") for c in range(agents)]
    return {"nodes": nodes, "edges": edges}


def deep_chain(depth: int, agents: int) -> Workflow:
    """A chain of `depth` toolboxes whose head feeds `agents` agents, with
    one clashing pair entering at the far end and one half way."""
    nodes: List[Dict[str, Any]] = [{"id": f"c{i}", "type": "toolbox"} for i in range(depth)]
    edges = [wire(f"c{i + 1}", f"c{i}") for i in range(depth - 1)]
    nodes += [{"id": "far", "data": {"label": "Deep"}}, {"id": "mid", "data": {"label": "deep"}}]
    edges += [wire("far", f"c{depth - 1}"), wire("mid", f"c{depth // 2}")]
    edges += [wire("c0", f"agent{c}") for c in range(agents)]
    return {"nodes": nodes, "edges": edges}


@pytest.fixture(scope="module")
def ten_million(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("scale") / "clash-box.json"
    path.write_text(json.dumps(clash_box(1000, 10_000)), encoding="utf-8")
    return path


def test_cmp9_ten_million_violations_from_one_shared_box_are_counted_exactly(ten_million: Path) -> None:
    report = toolwire.check_file(ten_million)
    assert not report.ok
    assert len(report.violations) == report.violation_count == 10_000_000
    assert report.stats is not None and report.stats.consumers == 10_000


def test_cmp9_any_violation_of_ten_million_is_the_right_consumer_name_tools_and_paths(ten_million: Path) -> None:
    violations = toolwire.check_file(ten_million).violations
    agents = sorted(f"agent{c}" for c in range(10_000))
    names = sorted(f"tool_{i}" for i in range(1000))
    rng = random.Random(9)
    for index in [0, 1, 999, 1000, 9_999_999, -1, *rng.sample(range(10_000_000), 50)]:
        v = violations[index]
        at = index % 10_000_000
        consumer, name = agents[at // 1000], names[at % 1000]
        i = name.removeprefix("tool_")
        assert (v.rule, v.consumer, v.name) == ("CMP-9", consumer, name)
        assert [t.id for t in v.tools] == [f"a{i}", f"b{i}"]
        assert [list(t.path) for t in v.tools] == [[f"a{i}", "box", consumer], [f"b{i}", "box", consumer]]
        assert v.box_labels == {"box": "Kit"}
        assert [r.node for r in v.fix] == [f"b{i}"]
    with pytest.raises(IndexError):
        violations[10_000_000]


def reading_work(report: toolwire.Report, read: Callable[[Sequence[toolwire.Violation]], Any]) -> int:
    """The core's work (``work_done``) for ``read(report.violations)``."""
    before = work_done(report)
    read(report.violations)
    return work_done(report) - before


def first_three(violations: Sequence[toolwire.Violation]) -> List[str]:
    first = []
    for v in violations:
        first.append(v.name)
        if len(first) == 3:
            break
    return first


def test_cmp9_slices_and_iteration_read_only_what_they_return(ten_million: Path) -> None:
    report = toolwire.check_file(ten_million)
    violations = report.violations
    window = violations[4_999_998:5_000_002]
    assert [(v.consumer, v.name) for v in window] == [(v.consumer, v.name) for v in map(violations.__getitem__, range(4_999_998, 5_000_002))]
    assert first_three(violations) == ["tool_0", "tool_1", "tool_10"]
    # What reading them costs the core, counted: no more than reading as
    # many violations one by one, and no more than the same reads of the
    # same box at 10 agents, a thousand times fewer violations. A read that
    # built more than it returned (a read-ahead, a whole chunk for one item)
    # would cost more, in proportion to what it built.
    one = reading_work(report, lambda vs: vs[1_234_567])
    small = toolwire.check_json(json.dumps(clash_box(1000, 10)))
    reads: List[Tuple[int, Callable[[Sequence[toolwire.Violation]], Any]]] = [
        (4, lambda vs: vs[len(vs) // 2 - 2 : len(vs) // 2 + 2]),
        (1, lambda vs: vs[-1:]),
        (3, first_three),
    ]
    for returned, read in reads:
        work = reading_work(report, read)
        assert 0 < work <= returned * one, f"{work} steps to read {returned} violations, {one} to read one"
        assert work <= reading_work(small, read)


def test_cmp9_a_shared_clash_is_one_group_naming_all_its_consumers(ten_million: Path) -> None:
    groups = list(toolwire.check_file(ten_million).clash_groups())
    assert len(groups) == 1000
    assert sum(g.count for g in groups) == 10_000_000
    first = groups[0]
    assert (first.name, first.through, first.count) == ("tool_0", "box", 10_000)
    assert first.consumers[:3] == ["agent0", "agent1", "agent10"]
    assert first.consumers[-1] == "agent9999"
    assert (first.first.consumer, first.first.name) == ("agent0", "tool_0")


def test_cmp9_paths_of_a_deep_chain_are_exact_and_read_from_either_end(tmp_path: Path) -> None:
    depth = 50_000
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(deep_chain(depth, 2_000)), encoding="utf-8")
    violations = toolwire.check_file(path).violations
    assert len(violations) == 2_000
    far, mid = violations[1234].tools
    assert (far.id, mid.id) == ("far", "mid")
    consumer = violations[1234].consumer
    assert len(far.path) == depth + 2
    assert far.path[:3] == ["far", f"c{depth - 1}", f"c{depth - 2}"]
    assert far.path[-3:] == ["c1", "c0", consumer]
    assert far.path[depth // 2] == f"c{depth - depth // 2}"
    assert list(mid.path) == ["mid", *(f"c{i}" for i in range(depth // 2, -1, -1)), consumer]
    assert violations[1234].box_labels == {}, "labels are kept for readable paths only"


def mixed(seed: int) -> Workflow:
    """Consumers wired to several clashing boxes, nested boxes and tools of
    their own: every way a class of consumers gets an overlay."""
    rng = random.Random(seed)
    labels = ["Search", "search", "SEARCH!", "Fetch", "fetch", "Mail", "mail", "Plan"]
    nodes: List[Dict[str, Any]] = []
    edges = []
    tools = [f"t{i}" for i in range(24)]
    for t in tools:
        nodes.append({"id": t, "data": {"label": rng.choice(labels)}})
    boxes = [f"box{i}" for i in range(6)]
    nodes += [{"id": b, "type": "toolbox"} for b in boxes]
    for t in tools:
        for b in rng.sample(boxes, rng.randint(0, 2)):
            edges.append(wire(t, b))
    for a, b in zip(boxes, boxes[1:]):
        if rng.random() < 0.4:
            edges.append(wire(a, b))
    for c in range(30):
        for b in rng.sample(boxes, rng.randint(0, 3)):
            edges.append(wire(b, f"agent{c:02}"))
        for t in rng.sample(tools, rng.randint(0, 2)):
            edges.append(wire(t, f"agent{c:02}"))
        if rng.random() < 0.5:  # a box of its own, beside the shared ones
            nodes.append({"id": f"own{c:02}", "type": "toolbox"})
            edges.append(wire(f"own{c:02}", f"agent{c:02}"))
            for t in rng.sample(tools, rng.randint(1, 3)):
                edges.append(wire(t, f"own{c:02}"))
    return {"nodes": nodes, "edges": edges}


@pytest.mark.parametrize("seed", range(40))
def test_cmp9_violations_shared_by_cause_equal_the_reference_one_by_one(seed: int) -> None:
    workflow = mixed(seed)
    report = toolwire.check(workflow)
    assert without_places(report) == without_places(reference.check(workflow))
    grouped = sorted((v, g.name) for g in report.clash_groups() for v in g.consumers)
    assert grouped == sorted((v.consumer, v.name) for v in report.violations if v.consumer and v.name)


def test_cmp9_consumers_whose_own_box_adds_to_a_shared_clash_leave_its_group_exactly() -> None:
    # Every agent gets the shared box of 20 clashing pairs, and a box of its
    # own holding a third tool of one of those names: each agent is wired
    # its own way, and that one clash grows by a tool for it alone.
    pairs, agents = 20, 300
    workflow = clash_box(pairs, 0)
    for c in range(agents):
        workflow["nodes"] += [{"id": f"own{c}", "type": "toolbox"}, {"id": f"x{c}", "data": {"label": f"TOOL {c % pairs}"}}]
        workflow["edges"] += [wire(f"x{c}", f"own{c}"), wire(f"own{c}", f"agent{c}"), wire("box", f"agent{c}")]
    report = toolwire.check(workflow)
    assert len(report.violations) == pairs * agents
    assert without_places(report) == without_places(reference.check(workflow))
    groups = list(report.clash_groups())
    shared = [g for g in groups if len(g.tools) == 2]
    assert len(shared) == pairs and len(groups) == pairs + agents
    assert all(g.through == "box" and g.count == agents - agents // pairs for g in shared)
    tool_0 = next(g for g in shared if g.name == "tool_0")
    assert "agent0" not in tool_0.consumers[:] and tool_0.consumers[:2] == ["agent1", "agent10"]
    assert sum(g.count for g in groups) == pairs * agents


def chain_and_own_boxes(depth: int, agents: int, also_into: int = 0) -> Workflow:
    """A chain of `depth` toolboxes ending in a clashing pair, whose head
    feeds every agent; each agent also has a box of its own (so each is
    wired its own way) and, with `also_into`, is wired to chain box
    `also_into` too (so its roots overlap)."""
    workflow = deep_chain(depth, 0)
    for a in range(agents):
        workflow["nodes"] += [{"id": f"own{a}", "type": "toolbox"}, {"id": f"t{a}", "data": {"label": f"own {a}"}}]
        workflow["edges"] += [wire(f"t{a}", f"own{a}"), wire(f"own{a}", f"agent{a}"), wire("c0", f"agent{a}")]
        if also_into:
            workflow["edges"].append(wire(f"c{also_into}", f"agent{a}"))
    return workflow


@pytest.mark.parametrize("also_into", [0, 3], ids=["separate roots", "overlapping roots"])
def test_cmp9_consumers_wired_each_their_own_way_get_the_reference_paths(also_into: int) -> None:
    workflow = chain_and_own_boxes(60, 40, also_into)
    report = toolwire.check(workflow)
    assert len(report.violations) == 40
    assert without_places(report) == without_places(reference.check(workflow))


READ_EVERY_PATH = """
import json, resource, sys
sys.path.insert(0, sys.argv[1])
from test_findings_scale import chain_and_own_boxes
import toolwire
# The whole process may not map more than 2 GiB: each agent's own tree of
# the chain (10,000 toolboxes) would take some 7 GB.
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
report = toolwire.check_json(json.dumps(chain_and_own_boxes(10_000, 20_000, int(sys.argv[2]))))
ends = [tuple(tool.path[-2:]) for v in report.violations for tool in v.tools]
print(len(report.violations), len(ends))
"""


@pytest.mark.parametrize("also_into", [0, 3], ids=["separate roots", "overlapping roots"])
def test_cmp9_reading_every_path_of_consumers_wired_each_their_own_way_stays_small(also_into: int) -> None:
    # 20,000 agents, each wired its own way to a 10,000-box chain: their
    # paths follow the chain's one shared tree (separate roots) or a few
    # class trees made in turn (overlapping roots), never one tree each.
    tests = str(Path(__file__).parent)
    done = subprocess.run(
        [sys.executable, "-c", READ_EVERY_PATH, tests, str(also_into)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["20000", "40000"]


def two_kits_and_own_boxes(pairs: int, agents: int) -> Workflow:
    """Two toolboxes of `pairs` clashing pairs each, wired into every
    agent, and a box of its own per agent: each agent is wired its own
    way, and sees both kits' clashes."""
    nodes: List[Dict[str, Any]] = []
    edges = []
    for kit in ("k1", "k2"):
        nodes.append({"id": kit, "type": "toolbox"})
        for i in range(pairs):
            nodes += [{"id": f"{kit}a{i}", "data": {"label": f"{kit} Tool {i}"}}]
            nodes += [{"id": f"{kit}b{i}", "data": {"label": f"{kit} tool-{i}"}}]
            edges += [wire(f"{kit}a{i}", kit), wire(f"{kit}b{i}", kit)]
    for a in range(agents):
        nodes += [{"id": f"own{a}", "type": "toolbox"}, {"id": f"t{a}", "data": {"label": f"k1 TOOL {a % pairs}" if a % 3 == 0 else f"own {a}"}}]
        edges += [wire(f"t{a}", f"own{a}"), wire(f"own{a}", f"agent{a}"), wire("k1", f"agent{a}"), wire("k2", f"agent{a}")]
    return {"nodes": nodes, "edges": edges}


def test_cmp9_agents_with_two_shared_kits_and_a_box_of_their_own_match_the_reference() -> None:
    workflow = two_kits_and_own_boxes(15, 60)
    report = toolwire.check(workflow)
    assert len(report.violations) == 60 * 30
    assert without_places(report) == without_places(reference.check(workflow))
    assert sum(g.count for g in report.clash_groups()) == 60 * 30


TWO_KITS = """
import json, resource, sys
sys.path.insert(0, sys.argv[1])
from test_findings_scale import two_kits_and_own_boxes
import toolwire
# At most 1 GiB mapped: a copy of the second kit's 2,000 clashes for each of
# the 10,000 agents would take about 2 GB.
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
report = toolwire.check_json(json.dumps(two_kits_and_own_boxes(2_000, 10_000)))
print(len(report.violations), sum(g.count for g in report.clash_groups()))
"""


def test_cmp9_two_shared_kits_are_not_copied_for_agents_wired_each_their_own_way() -> None:
    tests = str(Path(__file__).parent)
    done = subprocess.run([sys.executable, "-c", TWO_KITS, tests], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["40000000", "40000000"]


def test_warnings_are_read_from_the_core_as_asked_and_equal_the_reference() -> None:
    # A lossy label on each of 30,000 tools: as many NAME-LOSSY warnings,
    # a `Warnings` sequence whose ends and middle read what the reference
    # computes, and which equals the list of itself.
    tools = 30_000
    nodes = [{"id": f"t{i}", "data": {"label": f"Outil n°{i}"}} for i in range(tools)]
    workflow = {"nodes": nodes + [{"id": "agent"}], "edges": [wire(f"t{i}", "agent") for i in range(tools)]}
    report = toolwire.check(workflow)
    expected = reference.check(workflow).warnings
    assert type(report.warnings).__name__ == "Warnings"
    assert len(report.warnings) == len(expected) == tools
    for i in (0, 1, tools // 2, tools - 1, -1):
        assert report.warnings[i]._replace(location=None) == expected[i]._replace(location=None)
    assert [w.node for w in report.warnings[100:103]] == [w.node for w in expected[100:103]]
    assert report.warnings == list(report.warnings) and report.warnings != list(report.warnings)[1:]
