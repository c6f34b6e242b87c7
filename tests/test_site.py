"""Issue 22: CMP-9 across the workflows of a site (docs/SEMANTICS.md section 12).

Three kinds of tests:

- the reference (``toolwire.reference.site_calls``, which builds each
  workflow's expansion literally) on hand-made sites, one per sentence of
  section 12, and against the generator's site families
  (``toolwire.generate.sites``), whose expectations come from their
  construction: two independent answers that must agree;
- the site check (``toolwire.check_files`` of a site's directory) against
  the reference on hundreds of random sites, some with cycles of calls
  (every call finding, its exact chain count and shortest chain, each
  tool's path across the boundaries, the site errors, the warnings),
  and against the families at the issue's sizes (10,000 calls; 2**20
  chains; a cycle);
- a small site around a real workflow (``reason``, whose tool port hands a
  parent's tools to its agent step), refused once a parent's tool is renamed
  to clash with one inside, located at the calling node.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

import pytest

import toolwire
import toolwire.cli
from toolwire import reference
from toolwire.generate import sites
from toolwire.generate.sites import BOX_TYPE, Site, node, runner_type, tool_edge, workflow
from toolwire.reference import CallKey

from support import SHARED, need_shared

PASSTHROUGHS = (*reference.DEFAULT_PASSTHROUGH_TYPES, BOX_TYPE)

# A catalogue as the reference takes it: the types the hand-made sites use.
CATALOGUE: Dict[str, Dict[str, Any]] = {
    sites.AGENT_TYPE: {"accepts_tools": True, "passthrough": False, "runs": None},
    sites.TOOL_TYPE: {"accepts_tools": False, "passthrough": False, "runs": None},
    BOX_TYPE: {"accepts_tools": True, "passthrough": True, "runs": None},
    **{runner_type(w): {"accepts_tools": True, "passthrough": False, "runs": w} for w in ("w", "v", "x", "p")},
}


def agent(node_id: str = "agent.1") -> Dict[str, Any]:
    return node(node_id, sites.AGENT_TYPE, "Agent")


def tool(node_id: str, label: str) -> Dict[str, Any]:
    return node(node_id, sites.TOOL_TYPE, label)


def call(node_id: str, runs: str) -> Dict[str, Any]:
    return node(node_id, runner_type(runs), f"Run {runs}")


def calls_of(workflows: Sequence[Dict[str, Any]], top: str = "p") -> Dict[CallKey, int]:
    return reference.site_calls(workflows, CATALOGUE).calls[top]


def leaves(*pairs: str) -> FrozenSet[Tuple[str, str]]:
    """``"w:tool.1"`` -> ``("w", "tool.1")``, as a set."""
    return frozenset(tuple(p.split(":", 1)) for p in pairs)  # type: ignore[misc]


# A called workflow W: its agent receives its tool port, and has its own
# tool "Search".
W_SEARCH = workflow("w", [agent(), tool("tool.1", "Search")], [tool_edge("tool.1", "agent.1")],
                    [("tool", "agent.1", "tool")])  # fmt: skip


# --- The reference, sentence by sentence (SEMANTICS 12) ------------------------


def test_cmp9_site_reference_a_parent_tool_clashing_inside_is_the_parents_call_finding() -> None:
    p = workflow("p", [call("call.1", "w"), tool("tool.1", "SEARCH")], [tool_edge("tool.1", "call.1")])
    assert calls_of([p, W_SEARCH]) == {("w", "agent.1", "search", leaves("p:tool.1", "w:tool.1")): 1}
    # W's own report has no call finding: nothing it calls.
    assert reference.site_calls([p, W_SEARCH], CATALOGUE).calls["w"] == {}


def test_cmp9_site_reference_each_call_gets_a_fresh_copy() -> None:
    # Two calls of W from one parent: the tools of one call never meet the
    # other's inside W, so "Fetch" and "fetch" do not clash...
    w = workflow("w", [agent()], [], [("tool", "agent.1", "tool")])
    nodes = [call("call.1", "w"), call("call.2", "w"), tool("tool.1", "Fetch"), tool("tool.2", "fetch")]
    p = workflow("p", nodes, [tool_edge("tool.1", "call.1"), tool_edge("tool.2", "call.2")])
    assert calls_of([p, w]) == {}
    # ...and with W's own "Search", each call's "search" is a finding of its own.
    nodes = [call("call.1", "w"), call("call.2", "w"), tool("tool.1", "search"), tool("tool.2", "search!")]
    p = workflow("p", nodes, [tool_edge("tool.1", "call.1"), tool_edge("tool.2", "call.2")])
    assert calls_of([p, W_SEARCH]) == {
        ("w", "agent.1", "search", leaves("p:tool.1", "w:tool.1")): 1,
        ("w", "agent.1", "search", leaves("p:tool.2", "w:tool.1")): 1,
    }


def test_cmp9_site_reference_chains_bringing_the_same_clash_are_one_finding_counted() -> None:
    # One tool wired into three calls of W: the same leaves meet at the
    # same consumer three times: one finding, three chains, the shortest
    # and smallest shown.
    nodes = [call("call.3", "w"), call("call.1", "w"), call("call.2", "w"), tool("tool.1", "Search")]
    p = workflow("p", nodes, [tool_edge("tool.1", c) for c in ("call.1", "call.2", "call.3")])
    found = reference.site_calls([p, W_SEARCH], CATALOGUE)
    key = ("w", "agent.1", "search", leaves("p:tool.1", "w:tool.1"))
    assert found.calls["p"] == {key: 3}
    assert found.chains["p"][key] == (("p", "call.1"),)


def test_cmp9_site_reference_a_leaf_by_two_routes_is_one_leaf() -> None:
    # W's ports hand the tools both to a box and to the agent the box feeds:
    # the parent's tool reaches the agent twice, and is still one leaf.
    w = workflow(
        "w",
        [agent(), node("box.1", BOX_TYPE, "Tool Box"), tool("tool.1", "Other")],
        [tool_edge("box.1", "agent.1"), tool_edge("tool.1", "agent.1")],
        [("tool", "box.1", "tool"), ("tool", "agent.1", "tool")],
    )
    p = workflow("p", [call("call.1", "w"), tool("tool.1", "Search")], [tool_edge("tool.1", "call.1")])
    assert calls_of([p, w]) == {}
    # The same node id in two workflows is two leaves: a real clash.
    w["nodes"][2]["data"]["label"] = "search"
    assert calls_of([p, w]) == {("w", "agent.1", "search", leaves("p:tool.1", "w:tool.1")): 1}


def test_cmp9_site_reference_a_clash_among_the_called_workflows_own_leaves_is_its_own() -> None:
    w = workflow(
        "w",
        [agent(), tool("tool.1", "Search"), tool("tool.2", "search")],
        [tool_edge("tool.1", "agent.1"), tool_edge("tool.2", "agent.1")],
        [("tool", "agent.1", "tool")],
    )
    p = workflow("p", [call("call.1", "w"), tool("tool.1", "Fetch")], [tool_edge("tool.1", "call.1")])
    assert calls_of([p, w]) == {}
    assert [v.consumer for v in reference.check(w, passthrough_types=PASSTHROUGHS).violations] == ["agent.1"]
    # A parent tool of the same name joins it: the parent's finding lists all three.
    p["nodes"][1]["data"]["label"] = "SEARCH"
    assert calls_of([p, w]) == {("w", "agent.1", "search", leaves("p:tool.1", "w:tool.1", "w:tool.2")): 1}


def test_cmp9_site_reference_a_clash_among_the_parents_own_leaves_is_its_own_at_the_call_node() -> None:
    w = workflow("w", [agent(), tool("tool.1", "Fetch")], [tool_edge("tool.1", "agent.1")],
                 [("tool", "agent.1", "tool")])  # fmt: skip
    nodes = [call("call.1", "w"), tool("tool.1", "Search"), tool("tool.2", "search")]
    p = workflow("p", nodes, [tool_edge("tool.1", "call.1"), tool_edge("tool.2", "call.1")])
    assert calls_of([p, w]) == {}
    own = reference.check(p, passthrough_types=PASSTHROUGHS).violations
    assert [(v.consumer, v.name) for v in own] == [("call.1", "search")]


def test_cmp9_site_reference_a_call_to_a_workflow_not_in_the_site_is_unknown() -> None:
    p = workflow("p", [call("call.1", "x"), tool("tool.1", "Search")], [tool_edge("tool.1", "call.1")])
    found = reference.site_calls([p, W_SEARCH], CATALOGUE)
    assert found.calls["p"] == {}
    assert found.unknown["p"] == [("call.1", "x")]


@pytest.mark.parametrize("port", ["messages", "tools", None, 1])
def test_cmp9_site_reference_a_port_that_is_not_tool_passes_nothing(port: Any) -> None:
    w = copy.deepcopy(W_SEARCH)
    w["input_ports"] = [{"name": "tool", "node_id": "agent.1", "port": port}]
    p = workflow("p", [call("call.1", "w"), tool("tool.1", "search")], [tool_edge("tool.1", "call.1")])
    assert calls_of([p, w]) == {}
    # A tool port naming no node passes nothing either.
    w["input_ports"] = [{"name": "tool", "node_id": "nowhere", "port": "tool"}]
    assert calls_of([p, w]) == {}


def test_cmp9_site_reference_calls_nest_and_each_clash_belongs_to_the_workflow_with_a_leaf_and_another() -> None:
    # P -> W -> V. W's port feeds its call node of V; V's port its agent.
    v = workflow(
        "v",
        [agent(), tool("tool.1", "Search"), tool("tool.2", "Fetch")],
        [tool_edge("tool.1", "agent.1"), tool_edge("tool.2", "agent.1")],
        [("tool", "agent.1", "tool")],
    )
    w = workflow("w", [call("call.9", "v"), tool("tool.1", "fetch")], [tool_edge("tool.1", "call.9")],
                 [("tool", "call.9", "tool")])  # fmt: skip
    p = workflow("p", [call("call.1", "w"), tool("tool.1", "search")], [tool_edge("tool.1", "call.1")])
    catalogue = {**CATALOGUE, runner_type("v"): {"accepts_tools": True, "passthrough": False, "runs": "v"}}
    found = reference.site_calls([p, w, v], catalogue)
    search = ("v", "agent.1", "search", leaves("p:tool.1", "v:tool.1"))
    fetch = ("v", "agent.1", "fetch", leaves("w:tool.1", "v:tool.2"))
    # P's tool meets V's two calls down; W's "fetch" meets V's in P's
    # expansion too, but neither leaf is P's: it is W's finding alone.
    assert found.calls == {"p": {search: 1}, "w": {fetch: 1}, "v": {}}
    assert found.chains["p"][search] == (("p", "call.1"), ("w", "call.9"))


def test_cmp9_site_reference_calls_within_a_cycle_are_not_followed_calls_into_it_are() -> None:
    w = workflow(
        "w",
        [agent(), call("call.1", "v"), tool("tool.1", "Search")],
        [tool_edge("tool.1", "call.1"), tool_edge("tool.1", "agent.1")],
        [("tool", "agent.1", "tool")],
    )
    v = workflow("v", [call("call.1", "w"), tool("tool.1", "search")], [tool_edge("tool.1", "call.1")],
                 [("tool", "call.1", "tool")])  # fmt: skip
    p = workflow("p", [call("call.1", "w"), tool("tool.1", "search")], [tool_edge("tool.1", "call.1")], [])
    catalogue = {**CATALOGUE, runner_type("v"): {"accepts_tools": True, "passthrough": False, "runs": "v"}}
    found = reference.site_calls([w, v, p], catalogue)
    assert found.cycles == {frozenset({"w", "v"})}
    # Decision 22: w runs v runs w is one cycle group, an error of the site;
    # neither call between them is followed, so neither brings a finding.
    assert found.calls["v"] == {} and found.calls["w"] == {}
    # p's call into the group is followed: p's tool meets w's at w's agent.
    assert found.calls["p"] == {("w", "agent.1", "search", leaves("p:tool.1", "w:tool.1")): 1}


def test_cmp9_site_reference_groups_cycles_that_share_a_workflow() -> None:
    cycles = [frozenset("wv"), frozenset("wu"), frozenset("ab"), frozenset("s"), frozenset("bc")]
    assert reference.cycle_groups(cycles) == {frozenset("wvu"), frozenset("abc"), frozenset("s")}


def test_cmp9_site_reference_refuses_a_workflow_id_defined_twice() -> None:
    with pytest.raises(toolwire.WorkflowError, match='"w" is defined twice'):
        reference.site_calls([W_SEARCH, W_SEARCH], CATALOGUE)


# --- The generator's families against the reference ---------------------------


def reference_of(site: Site) -> reference.SiteCalls:
    return reference.site_calls(site.workflows, site.catalogue())


def own_violations(site: Site) -> Dict[str, int]:
    passthrough = [*reference.DEFAULT_PASSTHROUGH_TYPES, *(t for t, e in site.catalogue().items() if e["passthrough"])]
    return {w["id"]: len(reference.check(w, passthrough_types=passthrough).violations) for w in site.workflows}


@pytest.mark.parametrize(
    ("family", "n"), [("fan-in", 1), ("fan-in", 7), ("fan-in-calls", 7), ("chain", 1), ("chain", 6), ("cycle", 2)]
)
def test_cmp9_site_families_expect_what_the_reference_finds(family: str, n: int) -> None:
    site = sites.SITES[family].build(n)
    assert site.expected is not None
    found = reference_of(site)
    assert found.calls == site.expected.calls
    assert frozenset(found.cycles) == site.expected.cycles
    assert own_violations(site) == site.expected.violations


def test_cmp9_site_chain_expects_one_finding_per_level_with_halving_chain_counts() -> None:
    expected = sites.chain(20).expected
    assert expected is not None
    assert expected.call_count == 20
    assert [list(expected.calls[f"l{i}"].values()) for i in range(21)] == [[2 ** (20 - i)] for i in range(20)] + [[]]


def test_cmp9_site_random_sites_hold_every_kind_of_call_finding() -> None:
    # The differential tests below are only as good as what the random
    # sites hold: nested chains, several chains, three leaves, unknown calls.
    seen = {"findings": 0, "nested": 0, "several chains": 0, "three leaves": 0, "unknown": 0, "own": 0}
    for seed in range(RANDOM_SITES):
        site = sites.random_site(seed)
        found = reference_of(site)
        for top, calls in found.calls.items():
            seen["findings"] += len(calls)
            seen["several chains"] += sum(count > 1 for count in calls.values())
            seen["three leaves"] += sum(len(key[3]) > 2 for key in calls)
            seen["nested"] += sum(len(chain) > 1 for chain in found.chains[top].values())
        seen["unknown"] += sum(map(len, found.unknown.values()))
        seen["own"] += sum(own_violations(site).values())
    assert min(seen.values()) >= 10, seen


def test_cmp9_site_random_sites_are_deterministic() -> None:
    assert sites.random_site(7).workflows == sites.random_site(7).workflows
    assert sites.random_site(7).workflows != sites.random_site(8).workflows


def test_generate_site_writes_a_site_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert toolwire.cli.main(["generate", "--site", "chain", "--size", "3", str(tmp_path / "chain")]) == 0
    assert "4 workflows" in capsys.readouterr().err
    written = sorted(p.name for p in (tmp_path / "chain").iterdir())
    assert [n for n in written if n.startswith("flowdrop_workflow.")] == [
        f"flowdrop_workflow.flowdrop_workflow.l{i}.yml" for i in range(4)
    ]
    assert "flowdrop_node_type.flowdrop_node_type.flowdrop_workflow_executor_flowdrop_workflow_l3.yml" in written
    # The same site as in Python, byte for byte; random takes its seed.
    sites.chain(3).write(tmp_path / "again")
    for name in written:
        assert (tmp_path / "chain" / name).read_bytes() == (tmp_path / "again" / name).read_bytes()
    assert toolwire.cli.main(["generate", "--site", "random", "--seed", "5", str(tmp_path / "r")]) == 0
    sites.random_site(5).write(tmp_path / "r5")
    assert sorted(p.read_bytes() for p in (tmp_path / "r").iterdir()) == sorted(
        p.read_bytes() for p in (tmp_path / "r5").iterdir()
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--site", "chain", "--seed", "1"],
        ["--site", "cycle", "--agents", "3"],
        ["--site", "chain", "--family", "hub-tool"],
        ["--site", "chain", "--size", "0"],
    ],
)
def test_generate_site_refuses_what_it_cannot_honour(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: List[str]
) -> None:
    assert toolwire.cli.main(["generate", *argv, str(tmp_path / "out")]) == 2
    assert "toolwire generate: error:" in capsys.readouterr().err


# --- The site check against the reference --------------------------------------

RANDOM_SITES = 320
CHUNK = 20


def site_reports(directory: Path, files: Mapping[str, str]) -> Tuple[Dict[str, toolwire.Report], List[toolwire.Report]]:
    """The site check of ``directory``: each workflow's report by its id,
    and the reports of site errors."""
    by_path = {str(Path(p)): w for w, p in files.items()}
    reports: Dict[str, toolwire.Report] = {}
    errors = []
    for report in toolwire.check_files([directory]):
        if isinstance(report.error, toolwire.SiteError):
            errors.append(report)
            continue
        assert report.error is None, f"{report.path}: {report.error}"
        reports[by_path[str(Path(report.path or ""))]] = report
    assert sorted(reports) == sorted(files)
    return reports, errors


def call_keys(report: toolwire.Report) -> Dict[CallKey, int]:
    found: Dict[CallKey, int] = {}
    for c in report.calls:
        key = (c.consumer.workflow, c.consumer.node, c.name, frozenset((t.workflow, t.id) for t in c.tools))
        assert key not in found, f"{report.path}: two call findings for {key}"
        found[key] = c.chains
    return found


def tool_edges(site: Site) -> Dict[str, Set[Tuple[str, str]]]:
    return {w["id"]: {(e["source"], e["target"]) for e in w["edges"]} for w in site.workflows}


def check_call_finding(site: Site, top: str, finding: Any, shortest: Tuple[Tuple[str, str], ...]) -> None:
    """Everything a call finding says, checked against the site: its chain
    (the reference's shortest), its place, and each tool's path across the
    boundaries (every step a tool edge of that workflow, through boxes)."""
    files = site.files
    catalogue = site.catalogue()
    by_id = {w["id"]: w for w in site.workflows}
    types = {(w["id"], n["id"]): n["data"]["metadata"]["node_type_id"] for w in site.workflows for n in w["nodes"]}
    ports = {w["id"]: {e["node_id"] for e in w["input_ports"] if e["port"] == "tool"} for w in site.workflows}
    edges = tool_edges(site)
    assert finding.rule == "CMP-9"
    assert tuple((s.workflow, s.node) for s in finding.chain) == shortest
    assert finding.location == finding.chain[0].location
    route = [s.workflow for s in finding.chain] + [finding.consumer.workflow]
    assert route[0] == top
    for step, runs in zip(finding.chain, route[1:]):
        assert step.runs == runs and catalogue[types[(step.workflow, step.node)]]["runs"] == runs
        assert step.file == files[step.workflow]
        assert step.location is not None
    assert finding.consumer.file == files[finding.consumer.workflow]
    # Declared, or named only by a tool edge (SEMANTICS 2: still a node).
    declared = {n["id"] for n in by_id[finding.consumer.workflow]["nodes"]}
    assert finding.consumer.node in declared | {t for _, t in edges[finding.consumer.workflow]}
    assert [(t.workflow, t.id) for t in finding.tools] == sorted((t.workflow, t.id) for t in finding.tools)
    for t in finding.tools:
        start = route.index(t.workflow)
        assert [part.workflow for part in t.path] == route[start:]
        assert t.path[0].nodes[0] == t.id and t.file == files[t.workflow]
        for k, part in enumerate(t.path):
            assert part.file == files[part.workflow] and len(part.locations) == len(part.nodes)
            if k > 0:
                assert part.nodes[0] in ports[part.workflow], f"{part.nodes[0]} is no tool port of {part.workflow}"
            end = finding.consumer.node if start + k == len(route) - 1 else finding.chain[start + k].node
            assert part.nodes[-1] == end
            for a, b in zip(part.nodes, part.nodes[1:]):
                assert (a, b) in edges[part.workflow], f"{a} -> {b} is no tool edge of {part.workflow}"
            for middle in part.nodes[1:-1]:
                assert catalogue[types[(part.workflow, middle)]]["passthrough"]


def nested_site() -> Site:
    """P -> W -> V; P's "search" meets V's "Search" at V's agent."""
    v = workflow("v", [agent(), tool("tool.1", "Search")], [tool_edge("tool.1", "agent.1")])
    v["input_ports"] = [{"name": "tool", "node_id": "agent.1", "port": "tool"}]
    w = workflow("w", [call("call.9", "v")], [], [("tool", "call.9", "tool")])
    p = workflow("p", [call("call.1", "w"), tool("tool.1", "search")], [tool_edge("tool.1", "call.1")])
    return Site([p, w, v], [*sites.base_types(), *(sites.runner(x) for x in ("w", "v"))])


def test_cmp9_site_harness_accepts_the_contracts_shape_and_nothing_else(tmp_path: Path) -> None:
    # check_call_finding judges the core's records: it must pass a finding
    # shaped as the contract says and fail one that is not, before it can
    # be trusted with the core's.
    from types import SimpleNamespace as Record

    site = nested_site()
    files = site.write(tmp_path)
    at = Record(line=1, column=1)

    def part(workflow_id: str, nodes: List[str]) -> Any:
        return Record(workflow=workflow_id, file=files[workflow_id], nodes=nodes, locations=[at] * len(nodes))

    def finding(p_path: List[Any]) -> Any:
        chain = [Record(workflow="p", file=files["p"], node="call.1", location=at, runs="w"),
                 Record(workflow="w", file=files["w"], node="call.9", location=at, runs="v")]  # fmt: skip
        tools = [
            Record(workflow="p", file=files["p"], id="tool.1", label="search", location=at, path=p_path),
            Record(workflow="v", file=files["v"], id="tool.1", label="Search", location=at,
                   path=[part("v", ["tool.1", "agent.1"])]),
        ]  # fmt: skip
        consumer = Record(workflow="v", file=files["v"], node="agent.1", location=at)
        return Record(rule="CMP-9", name="search", chain=chain, consumer=consumer, tools=tools, chains=1, location=at)

    (key,) = reference_of(site).calls["p"]
    shortest = reference_of(site).chains["p"][key]
    good = [part("p", ["tool.1", "call.1"]), part("w", ["call.9"]), part("v", ["agent.1"])]
    check_call_finding(site, "p", finding(good), shortest)
    wrong_paths = [
        good[:2],  # stops short of the consumer's workflow
        [part("p", ["tool.1"]), *good[1:]],  # the part does not reach the call node
        [good[0], part("w", ["call.9", "call.9"]), good[2]],  # a step that is no tool edge
        [good[0], part("v", ["call.9"]), good[2]],  # a part in the wrong workflow
    ]
    for wrong in wrong_paths:
        with pytest.raises(AssertionError):
            check_call_finding(site, "p", finding(wrong), shortest)
    with pytest.raises(AssertionError):
        check_call_finding(site, "p", finding(good), (("p", "call.1"),))


def check_site_against_reference(tmp_path: Path, site: Site) -> None:
    files = site.write(tmp_path)
    found = reference_of(site)
    reports, errors = site_reports(tmp_path, files)
    # The site names each group of cycles that share a workflow once (the
    # reference finds every elementary cycle: W -> V -> W and W -> U -> W are
    # two to it, one group of three workflows to the site).
    groups = reference.cycle_groups(found.cycles)
    assert sorted(sorted(e.error.workflows) for e in errors) == sorted(sorted(c) for c in groups)
    for top, report in reports.items():
        assert call_keys(report) == found.calls[top], f"workflow {top} ({report.path})"
        for finding in report.calls:
            key = (finding.consumer.workflow, finding.consumer.node, finding.name,
                   frozenset((t.workflow, t.id) for t in finding.tools))  # fmt: skip
            check_call_finding(site, top, finding, found.chains[top][key])
        order = [(c.chain[0].node, c.consumer.workflow, c.consumer.node, c.name, [(t.workflow, t.id) for t in c.tools])
                 for c in report.calls]  # fmt: skip
        assert order == sorted(order)
        assert report.ok is (not report.violations and not report.calls)
        # The workflow's own report, exactly as when checked alone.
        alone = toolwire.check_file(files[top], node_types=tmp_path)
        assert report.to_dict()["violations"] == alone.to_dict()["violations"]
        site_codes = {"CMP-9-CALL-UNKNOWN", "CMP-9-PORT", "CMP-9-ID"}
        assert [w for w in report.warnings if w.code not in site_codes] == list(alone.warnings)
        unknown = sorted(w.node for w in report.warnings if w.code == "CMP-9-CALL-UNKNOWN")
        assert unknown == [node_id for node_id, _ in found.unknown[top]]


@pytest.mark.parametrize("first", range(0, RANDOM_SITES, CHUNK), ids=lambda s: f"seeds{s}-{s + CHUNK - 1}")
def test_cmp9_site_check_matches_the_reference_on_random_sites(tmp_path: Path, first: int) -> None:
    for seed in range(first, first + CHUNK):
        try:
            check_site_against_reference(tmp_path / str(seed), sites.random_site(seed))
        except AssertionError as e:
            raise AssertionError(f"random site {seed} (toolwire generate --site random --seed {seed}): {e}") from e


CYCLIC_SITES = 100


@pytest.mark.parametrize("first", range(0, CYCLIC_SITES, CHUNK), ids=lambda s: f"seeds{s}-{s + CHUNK - 1}")
def test_cmp9_site_check_matches_the_reference_on_random_sites_with_cycles(tmp_path: Path, first: int) -> None:
    # Each cycle group one site error naming its workflows; calls between
    # the workflows of a group not followed, every other call followed
    # (decision 22).
    for seed in range(first, first + CHUNK):
        try:
            check_site_against_reference(tmp_path / str(seed), sites.random_site(seed, cycles=True))
        except AssertionError as e:
            where = f"toolwire generate --site random-cycles --seed {seed}"
            raise AssertionError(f"random site {seed} with cycles ({where}): {e}") from e


@pytest.mark.parametrize(("family", "n"), [("fan-in", 10), ("fan-in-calls", 10), ("chain", 5), ("cycle", 2)])
def test_cmp9_site_check_matches_the_reference_on_small_families(tmp_path: Path, family: str, n: int) -> None:
    check_site_against_reference(tmp_path, sites.SITES[family].build(n))


def check_site_against_expected(tmp_path: Path, site: Site) -> Dict[str, toolwire.Report]:
    """The families at any size: the site check against the construction
    (the reference would take as long as the chains are many)."""
    assert site.expected is not None
    files = site.write(tmp_path)
    reports, errors = site_reports(tmp_path, files)
    assert {frozenset(e.error.workflows) for e in errors} == set(site.expected.cycles)
    for top, report in reports.items():
        assert call_keys(report) == site.expected.calls[top], top
        assert len(report.violations) == site.expected.violations[top], top
    return reports


@pytest.mark.parametrize("family", ["fan-in", "fan-in-calls"])
def test_cmp9_site_check_a_workflow_called_from_ten_thousand_places_has_one_finding(
    tmp_path: Path, family: str
) -> None:
    reports = check_site_against_expected(tmp_path, sites.SITES[family].build(10_000))
    refused = [top for top, r in reports.items() if r.calls]
    assert refused == (["p5000"] if family == "fan-in" else ["p"])
    (finding,) = reports[refused[0]].calls
    assert finding.chains == 1 and finding.chain[0].node == "run_agent.5000"


def test_cmp9_site_check_a_million_chains_are_counted_exactly(tmp_path: Path) -> None:
    reports = check_site_against_expected(tmp_path, sites.chain(20))
    (finding,) = reports["l0"].calls
    assert finding.chains == 2**20
    # The shortest chain: twenty calls, through the first call node each time.
    assert [(s.workflow, s.node) for s in finding.chain] == [(f"l{i}", "call.1") for i in range(20)]
    assert sum(len(r.calls) for r in reports.values()) == 20


def test_cmp9_site_check_counts_beyond_64_bits(tmp_path: Path) -> None:
    reports = check_site_against_expected(tmp_path, sites.chain(70))
    assert reports["l0"].calls[0].chains == 2**70


def test_cmp9_site_check_a_cycle_is_one_site_error_and_the_rest_is_still_checked(tmp_path: Path) -> None:
    site = sites.cycle()
    reports = check_site_against_expected(tmp_path, site)
    errors = [r for r in toolwire.check_files([tmp_path]) if isinstance(r.error, toolwire.SiteError)]
    assert len(errors) == 1
    error = errors[0].error
    assert list(error.workflows) == ["v", "w"]
    assert sorted(Path(f).name for f in error.files) == sorted(Path(site.files[w]).name for w in ("v", "w"))
    assert "v" in str(error) and "w" in str(error)
    assert not errors[0].ok
    # u is refused for both its own clash and the one it brings into s.
    assert len(reports["u"].violations) == 1 and len(reports["u"].calls) == 1
    assert reports["w"].ok and reports["v"].ok and reports["s"].ok


def test_cmp9_site_a_workflow_checked_alone_never_crosses_a_call(tmp_path: Path) -> None:
    site = sites.fan_in(3)
    files = site.write(tmp_path)
    alone = toolwire.check_file(files["p1"], node_types=tmp_path)
    assert alone.ok and list(alone.calls) == []
    # Files without node types are no site either: nothing runs a workflow.
    assert all(not r.calls for r in toolwire.check_files([files["p1"], files["agent"]]))


# --- A real workflow in a site -------------------------------------------------

REAL = SHARED / "real-workflows"
REAL_PARENT = "brand_studio"
CALL_NODE = "aincient_reason.2"
INSIDE_TOOL = ("aincient_flows_aincient_capability_policy_lookup.1", "Capability: Look up policy")
RENAMED = "aincient_flows_aincient_capability_preview_brand.1"


def real(name: str) -> Dict[str, Any]:
    loaded: Dict[str, Any] = json.loads(need_shared(REAL / f"atelier__{name}.json").read_text(encoding="utf-8"))
    return loaded


def real_site(rename: bool) -> Site:
    """``reason`` (real: its tool port hands what is wired to the node that
    runs it to its agent step, ``aincient_reason.1``) given one capability
    of its own, and ``brand_studio`` (real) whose agent step runs ``reason``,
    wired its Tool Box of capabilities, with the three specialist
    workflows it calls as tools (real). With ``rename``, one of
    brand_studio's capabilities is labelled like reason's own."""
    reason = real("reason")
    assert any(p["port"] == "tool" and p["node_id"] == "aincient_reason.1" for p in reason["input_ports"])
    reason["nodes"].append(node(INSIDE_TOOL[0], "aincient_flows_aincient_capability_policy_lookup", INSIDE_TOOL[1]))
    # Drupal writes reason's empty edge list as an empty mapping.
    reason["edges"] = [*(reason["edges"] or []), tool_edge(INSIDE_TOOL[0], "aincient_reason.1")]
    parent = real(REAL_PARENT)
    (step,) = [n for n in parent["nodes"] if n["id"] == CALL_NODE]
    step["data"]["metadata"]["node_type_id"] = runner_type("reason")
    if rename:
        (renamed,) = [n for n in parent["nodes"] if n["id"] == RENAMED]
        renamed["data"]["label"] = INSIDE_TOOL[1].upper()
    specialists = [real(f"aincient_brand_specialist_{s}") for s in ("colour", "shape", "typography")]
    types = [
        sites.node_type("flowdrop_node_processor_toolbox", "flowdrop_node_processor:toolbox", True),
        sites.node_type("aincient_flows_aincient_invoke", "aincient_flows_aincient_invoke", True),
        sites.node_type("aincient_reason", "aincient_reason", True),
        sites.runner("reason"),
        *(sites.runner(w["id"]) for w in specialists),
    ]
    return Site([parent, reason, *specialists], types)


def node_place(path: str, node_id: str) -> Tuple[int, int]:
    """Where the YAML names a node (its ``id:`` key), as locations say it."""
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() == f"id: {node_id}":
            return number, line.index("id:") + 1
    raise AssertionError(f"{node_id} is not in {path}")


def test_cmp9_site_real_reason_accepts_its_parent_until_a_tool_is_renamed_to_clash(tmp_path: Path) -> None:
    site = real_site(rename=False)
    assert reference_of(site).calls[REAL_PARENT] == {}
    reports, _ = site_reports(tmp_path / "before", site.write(tmp_path / "before"))
    assert not reports[REAL_PARENT].calls and not reports["reason"].calls

    site = real_site(rename=True)
    files = site.write(tmp_path / "after")
    expected = {("reason", "aincient_reason.1", "capability_look_up_policy",
                 frozenset({(REAL_PARENT, RENAMED), ("reason", INSIDE_TOOL[0])})): 1}  # fmt: skip
    assert reference_of(site).calls[REAL_PARENT] == expected
    reports, errors = site_reports(tmp_path / "after", files)
    assert errors == []
    parent = reports[REAL_PARENT]
    assert not parent.ok and call_keys(parent) == expected
    (finding,) = parent.calls
    # Located at the calling node, in the parent's file; the consumer is
    # the agent step inside reason, in reason's.
    step = finding.chain[0]
    assert (step.workflow, step.node, step.runs) == (REAL_PARENT, CALL_NODE, "reason")
    assert (finding.location.line, finding.location.column) == node_place(files[REAL_PARENT], CALL_NODE)
    assert (finding.consumer.workflow, finding.consumer.node) == ("reason", "aincient_reason.1")
    assert (finding.consumer.location.line, finding.consumer.location.column) == node_place(
        files["reason"], "aincient_reason.1"
    )
    # Each tool's path, with a file, line and column on each side.
    paths = {t.id: [(part.workflow, list(part.nodes)) for part in t.path] for t in finding.tools}
    assert paths == {
        RENAMED: [(REAL_PARENT, [RENAMED, "flowdrop_node_processor_toolbox.1", CALL_NODE]),
                  ("reason", ["aincient_reason.1"])],
        INSIDE_TOOL[0]: [("reason", [INSIDE_TOOL[0], "aincient_reason.1"])],
    }  # fmt: skip
    for t in finding.tools:
        for part in t.path:
            places = [(loc.line, loc.column) for loc in part.locations]
            assert places == [node_place(files[part.workflow], n) for n in part.nodes]
    check_call_finding(site, REAL_PARENT, finding, ((REAL_PARENT, CALL_NODE),))
    # Nothing else changed: the parent's own findings are those of it alone.
    alone = toolwire.check_file(files[REAL_PARENT], node_types=tmp_path / "after")
    assert parent.to_dict()["violations"] == alone.to_dict()["violations"]


# --- Site warnings and errors --------------------------------------------------


def hand_made_site(*workflows: Dict[str, Any]) -> Site:
    types = [*sites.base_types(), *(sites.runner(w) for w in ("w", "x"))]
    return Site(list(workflows), types)


def test_cmp9_site_check_warns_of_a_tool_port_naming_no_node_and_of_an_unknown_call(tmp_path: Path) -> None:
    w = copy.deepcopy(W_SEARCH)
    w["input_ports"].append({"name": "more", "node_id": "nowhere", "port": "tool"})
    p = workflow("p", [call("call.1", "w"), call("call.2", "x"), tool("tool.1", "search")],
                 [tool_edge("tool.1", "call.1"), tool_edge("tool.1", "call.2")])  # fmt: skip
    site = hand_made_site(p, w)
    reports, errors = site_reports(tmp_path, site.write(tmp_path))
    assert errors == []
    assert [(x.code, x.node) for x in reports["w"].warnings] == [("CMP-9-PORT", "nowhere")]
    assert [(x.code, x.node) for x in reports["p"].warnings] == [("CMP-9-CALL-UNKNOWN", "call.2")]
    # The port that names a node still hands the tools on.
    assert call_keys(reports["p"]) == reference_of(site).calls["p"] != {}


def test_cmp9_site_check_a_workflow_id_in_two_files_is_a_site_error(tmp_path: Path) -> None:
    site = hand_made_site(W_SEARCH)
    files = site.write(tmp_path)
    twin = tmp_path / "flowdrop_workflow.flowdrop_workflow.w_copy.yml"
    twin.write_bytes(Path(files["w"]).read_bytes())
    errors = [r for r in toolwire.check_files([tmp_path]) if isinstance(r.error, toolwire.SiteError)]
    assert len(errors) == 1 and list(errors[0].error.workflows) == ["w"]
    assert sorted(Path(f).name for f in errors[0].error.files) == sorted([Path(files["w"]).name, twin.name])


def every_real_workflow_as_one_site() -> Site:
    """Every real workflow with an id, as one site: each node type a
    workflow names is catalogued as accepting tools, and a type named for a
    workflow of the set (``flowdrop_workflow_executor_flowdrop_workflow_<id>``
    or ``flowdrop_workflow_<id>``, as the exports name them) runs it. The
    real calls of the set (brand_studio's specialists, bench_5's agent)
    become calls of the site."""
    workflows: Dict[str, Dict[str, Any]] = {}
    for path in sorted(need_shared(REAL).glob("*.json")):
        loaded = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(loaded.get("id"), str) and loaded["id"] not in workflows:
            workflows[loaded["id"]] = loaded
    types: Set[str] = set()
    for w in workflows.values():
        for n in w.get("nodes") or []:
            metadata = (n.get("data") or {}).get("metadata") or {}
            types.update(t for t in (n.get("type"), metadata.get("node_type_id"), metadata.get("id")) if isinstance(t, str))
    entities = []
    for t in sorted(types):
        runs = next((t[len(p) :] for p in ("flowdrop_workflow_executor_flowdrop_workflow_", "flowdrop_workflow_")
                     if t.startswith(p) and t[len(p) :] in workflows), None)  # fmt: skip
        executor = sites.WORKFLOW_EXECUTOR.format(runs) if runs else "flowdrop_node_processor:real"
        entities.append(sites.node_type(t, executor, True))
    return Site(list(workflows.values()), entities)


def test_cmp9_site_every_real_workflow_as_one_site_matches_the_reference(tmp_path: Path) -> None:
    site = every_real_workflow_as_one_site()
    runs = {e["id"] for e in site.node_types if e["executor_plugin"].startswith(sites.WORKFLOW_EXECUTOR.format(""))}
    assert len(runs) >= 4, runs  # the real calls are there to follow
    check_site_against_reference(tmp_path, site)


def test_cmp9_site_fix_renames_within_the_file_and_keeps_the_clash_across_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A JSON site (--fix rewrites JSON only): p has a clash of its own at its
    # agent, and its "search" meets w's inside w. --fix renames p's own
    # clash; the clash across the call stays reported (decision 21), so
    # the run still fails.
    p = workflow(
        "p",
        [agent(), tool("a.1", "Lookup"), tool("a.2", "lookup"), tool("s.1", "search"), call("call.1", "w")],
        [tool_edge("a.1", "agent.1"), tool_edge("a.2", "agent.1"), tool_edge("s.1", "call.1")],
    )
    site = Site([p, W_SEARCH], [])
    types = tmp_path / "types"
    entities = [
        sites.node_type(sites.AGENT_TYPE, "flowdrop_node_processor:agent", True),
        sites.node_type(sites.TOOL_TYPE, "flowdrop_node_processor:http", False),
        sites.runner("w"),
    ]
    Site([], entities).write(types)
    for w in site.workflows:
        (tmp_path / f"{w['id']}.json").write_text(json.dumps(w), encoding="utf-8")
    files = [str(tmp_path / "p.json"), str(tmp_path / "w.json")]
    argv = ["check", "--format", "json", "--node-types", str(types), *files]
    before = json.loads((capture(capsys, argv, 1)))
    assert [f["violation_count"] for f in before["files"]] == [1, 0]
    assert [f["call_count"] for f in before["files"]] == [1, 0]
    after = json.loads(capture(capsys, [*argv[:1], "--fix", *argv[1:]], 1))
    assert [f["violation_count"] for f in after["files"]] == [0, 0]
    assert [f["call_count"] for f in after["files"]] == [1, 0]
    fixed = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    assert sorted(n["data"]["label"] for n in fixed["nodes"] if n["id"].startswith("a."))[0] != "lookup"
    assert json.loads(capture(capsys, argv, 1))["files"][0]["call_count"] == 1


def capture(capsys: pytest.CaptureFixture[str], argv: List[str], status: int) -> str:
    assert toolwire.cli.main(argv) == status
    return capsys.readouterr().out


def test_cmp9_site_a_cycle_is_counted_as_a_site_error_not_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sites.SITES["cycle"].build(2).write(tmp_path)
    out = capture(capsys, ["check", str(tmp_path)], 2)
    summary = out.rstrip("\n").split("\n")[-1]
    assert summary.startswith("checked 4 files (")
    assert summary.endswith("; 1 site error (calls not followed)")
    assert 'calls form a cycle through workflows "v", "w"' in out
