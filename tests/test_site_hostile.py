"""Issue 22, attacked: sites built to break the site check (SEMANTICS 12).

Two kinds of attack:

- **answers**: hand-made sites at the corners of section 4 and 12 (a call
  node or a consumer inside wired to itself, directly or through boxes; a
  passthrough whose type runs a workflow; ports naming undeclared nodes or
  boxes in a cycle; the same workflow called twice; non-ASCII labels; YAML
  and JSON files in one site), and random sites of all of these at once,
  each judged against the inlining reference (``reference.site_calls``)
  with the harness of tests/test_site.py;
- **cost**: small sites on which the site check once took far more than
  checking each file alone (a chain of boxes between many tools and many
  endpoints; many calls fed by one box). Each is timed against
  ``check_file`` of each file in the same run, as a ratio, at a size where
  the broken shape was 15 to 60 times slower: the margin is wide. The work
  counters of these shapes are asserted exactly in src/site/tests.rs
  (``cmp9_site_cost_*``).

A shape that still breaks is a strict ``xfail`` naming why.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolwire
from toolwire import reference
from toolwire.generate import sites
from toolwire.generate.drupal_yaml import TOOLBOX_EXECUTOR
from toolwire.generate.sites import BOX_TYPE, Site, node, runner_type, tool_edge, workflow

from test_site import agent, call, check_site_against_reference, tool

WORKFLOWS = ("p", "w", "v", "x")


def hand_made(*workflows: Dict[str, Any], types: Sequence[Dict[str, Any]] = ()) -> Site:
    """A site of ``workflows``, with the base types, a runner for each of
    p, w, v and x, and ``types`` (replacing a base type of the same id)."""
    extra = {t["id"]: t for t in types}
    base = [t for t in (*sites.base_types(), *(sites.runner(w) for w in WORKFLOWS)) if t["id"] not in extra]
    return Site(list(workflows), [*base, *extra.values()])


class MixedSite(Site):
    """A site whose workflows named in ``as_json`` are written as JSON files
    (``<id>.json``) beside the YAML ones: a directory holds both."""

    as_json: frozenset[str] = frozenset()
    passthrough_ids: frozenset[str] = frozenset()

    def write(self, directory: Any) -> Dict[str, str]:
        files = super().write(directory)
        for entity in self.workflows:
            if entity["id"] in self.as_json:
                Path(files[entity["id"]]).unlink()
                path = Path(directory) / f"{entity['id']}.json"
                path.write_text(json.dumps(entity, ensure_ascii=False, indent=1), encoding="utf-8")
                files[entity["id"]] = str(path)
        self.files = files
        return dict(files)

    def catalogue(self) -> Dict[str, Dict[str, Any]]:
        # A type whose id is a default passthrough id forwards whatever its
        # executor (SEMANTICS 11), which the entity alone does not say.
        found = super().catalogue()
        for type_id in self.passthrough_ids:
            found[type_id]["passthrough"] = True
        return found


def mixed(site: Site, as_json: Sequence[str] = (), passthrough_ids: Sequence[str] = ()) -> MixedSite:
    out = MixedSite(site.workflows, site.node_types)
    out.as_json = frozenset(as_json)
    out.passthrough_ids = frozenset(passthrough_ids)
    return out


def judged(tmp_path: Path, site: Site) -> reference.SiteCalls:
    """The site check against the reference, and the reference's answer."""
    check_site_against_reference(tmp_path, site)
    return reference.site_calls(site.workflows, site.catalogue())


def found_keys(found: reference.SiteCalls, top: str = "p") -> List[Any]:
    return sorted((w, n, name, sorted(leaves)) for (w, n, name, leaves) in found.calls[top])


W_SEARCH = workflow("w", [agent(), tool("tool.1", "Search")], [tool_edge("tool.1", "agent.1")],
                    [("tool", "agent.1", "tool")])  # fmt: skip
P_SEARCH = workflow("p", [call("call.1", "w"), tool("tool.1", "search")], [tool_edge("tool.1", "call.1")])
TOOLBOX_RUNS_V = sites.node_type("toolbox", sites.WORKFLOW_EXECUTOR.format("v"), True)


# --- Answers: hand-made corners -------------------------------------------------


@pytest.mark.parametrize("loop", [["call.1"], ["box.1", "call.1"]], ids=["self-loop", "through-a-box"])
def test_cmp9_site_hostile_a_call_node_fed_back_to_itself_is_a_tool_it_hands_on(
    tmp_path: Path, loop: List[str]
) -> None:
    # SEMANTICS 4: a node fed back to itself is in its own flattened set;
    # the call node labelled "Search" meets W's "Search" inside.
    nodes = [node("call.1", runner_type("w"), "Search"), node("box.1", BOX_TYPE, "Box")]
    edges = [tool_edge(a, b) for a, b in zip(["call.1", *loop], loop)]
    found = judged(tmp_path, hand_made(workflow("p", nodes, edges), W_SEARCH))
    assert found_keys(found) == [("w", "agent.1", "search", [("p", "call.1"), ("w", "tool.1")])]


@pytest.mark.parametrize("loop", [["agent.1"], ["box.1", "agent.1"]], ids=["self-loop", "through-a-box"])
def test_cmp9_site_hostile_a_consumer_inside_fed_back_to_itself_is_one_of_its_tools(
    tmp_path: Path, loop: List[str]
) -> None:
    nodes = [node("agent.1", sites.AGENT_TYPE, "Search"), node("box.1", BOX_TYPE, "Box")]
    edges = [tool_edge(a, b) for a, b in zip(["agent.1", *loop], loop)]
    w = workflow("w", nodes, edges, [("tool", "agent.1", "tool")])
    found = judged(tmp_path, hand_made(P_SEARCH, w))
    assert found_keys(found) == [("w", "agent.1", "search", [("p", "tool.1"), ("w", "agent.1")])]


def test_cmp9_site_hostile_a_passthrough_that_runs_a_workflow_hands_tools_on_from_a_port(tmp_path: Path) -> None:
    # Type id "toolbox" is a default passthrough, and this site's "toolbox"
    # runs V: named by W's port, it hands P's tools on into V.
    v = workflow("v", [agent(), tool("tool.1", "SEARCH")], [tool_edge("tool.1", "agent.1")],
                 [("tool", "agent.1", "tool")])  # fmt: skip
    w = workflow("w", [node("kit.1", "toolbox", "Kit")], [], [("tool", "kit.1", "tool")])
    site = mixed(hand_made(P_SEARCH, w, v, types=[TOOLBOX_RUNS_V]), passthrough_ids=["toolbox"])
    found = judged(tmp_path, site)
    assert found_keys(found) == [("v", "agent.1", "search", [("p", "tool.1"), ("v", "tool.1")])]


def test_cmp9_site_hostile_ports_naming_an_undeclared_node_and_boxes_in_a_cycle(tmp_path: Path) -> None:
    # W's first port names "ghost", declared by no node but the source of a
    # tool edge (SEMANTICS 2: a node with no type); its second names a box
    # in a cycle of boxes that feeds the agent; its third names no node.
    w = workflow(
        "w",
        [agent(), node("box.1", BOX_TYPE, "Box"), node("box.2", BOX_TYPE, "Box"), tool("tool.1", "Search")],
        [tool_edge("ghost", "agent.1"), tool_edge("box.1", "box.2"), tool_edge("box.2", "box.1"),
         tool_edge("box.2", "agent.1"), tool_edge("tool.1", "box.1")],  # fmt: skip
        [("tool", "ghost", "tool"), ("tool", "box.1", "tool"), ("tool", "nowhere", "tool")],
    )
    found = judged(tmp_path, hand_made(P_SEARCH, w))
    assert found_keys(found) == [("w", "agent.1", "search", [("p", "tool.1"), ("w", "tool.1")])]


def test_cmp9_site_hostile_one_workflow_called_twice_from_one_call_route(tmp_path: Path) -> None:
    # P calls W from two nodes fed by one box, and W calls V twice: four
    # chains bring one clash; each call's copy is fresh, yet the leaves
    # are the same, so it is one finding counted four times.
    v = workflow("v", [agent(), tool("tool.1", "Search")], [tool_edge("tool.1", "agent.1")],
                 [("tool", "agent.1", "tool")])  # fmt: skip
    w = workflow("w", [node("box.1", BOX_TYPE, "Box"), call("call.1", "v"), call("call.2", "v")],
                 [tool_edge("box.1", "call.1"), tool_edge("box.1", "call.2")], [("tool", "box.1", "tool")])  # fmt: skip
    p = workflow(
        "p",
        [tool("tool.1", "search"), node("box.1", BOX_TYPE, "Box"), call("call.1", "w"), call("call.2", "w")],
        [tool_edge("tool.1", "box.1"), tool_edge("box.1", "call.1"), tool_edge("box.1", "call.2")],
    )
    found = judged(tmp_path, hand_made(p, w, v))
    (key,) = found.calls["p"]
    assert found.calls["p"][key] == 4 and key[:3] == ("v", "agent.1", "search")


def test_cmp9_site_hostile_non_ascii_labels_and_json_beside_yaml(tmp_path: Path) -> None:
    # "Café Search" and "caf search" are one name (SEMANTICS 5); "日本語"
    # and "???" are both unnamed_tool. W is a JSON file, P a YAML one.
    w = workflow("w", [agent(), tool("tool.1", "caf search"), tool("tool.2", "???")],
                 [tool_edge("tool.1", "agent.1"), tool_edge("tool.2", "agent.1")], [("tool", "agent.1", "tool")])  # fmt: skip
    p = workflow("p", [call("call.1", "w"), tool("tool.1", "Café Search"), tool("tool.2", "日本語")],
                 [tool_edge("tool.1", "call.1"), tool_edge("tool.2", "call.1")])  # fmt: skip
    found = judged(tmp_path, mixed(hand_made(p, w), as_json=["w"]))
    assert found_keys(found) == [
        ("w", "agent.1", "caf_search", [("p", "tool.1"), ("w", "tool.1")]),
        ("w", "agent.1", "unnamed_tool", [("p", "tool.2"), ("w", "tool.2")]),
    ]


# --- Answers: random hostile sites ----------------------------------------------

LABELS = ("Search", "search", "SEARCH!", "Café Search", "caf search", "日本語", "???", "Fetch", "fetch", "Agent")


def hostile_site(seed: int) -> MixedSite:
    """2 to 4 workflows wired at random: any node to any other or to itself
    (boxes in cycles, tools into tools), edges from and to undeclared nodes,
    calls to later workflows, to earlier ones or the same one (cycles) and
    to one not in the site, ports naming any node, an undeclared one or
    none; boxes of the site's type, of the two default ids, and sometimes
    the default id ``toolbox`` given a workflow executor (a passthrough
    that runs a workflow); some workflows written as JSON."""
    rng = random.Random(seed)
    ids = [f"w{i}" for i in range(rng.randint(2, 4))]
    workflows = []
    for i, me in enumerate(ids):
        nodes: List[Dict[str, Any]] = []
        counts: Dict[str, int] = {}

        def add(kind: str, node_type: str, label: str) -> str:
            counts[kind] = counts.get(kind, 0) + 1
            nodes.append(node(f"{kind}.{counts[kind]}", node_type, label))
            return f"{kind}.{counts[kind]}"

        for _ in range(rng.randint(1, 4)):
            add("tool", sites.TOOL_TYPE, rng.choice(LABELS))
        for _ in range(rng.randint(0, 2)):
            add("agent", sites.AGENT_TYPE, rng.choice(LABELS))
        for _ in range(rng.randint(0, 3)):
            add("box", rng.choice((BOX_TYPE, "flowdrop_node_processor_toolbox", "toolbox")), "Tool Box")
        for _ in range(rng.randint(0, 3)):
            later = ids[i + 1 :]
            called = rng.choice(later) if later and rng.random() < 0.85 else "missing"
            if rng.random() < 0.2:
                called = rng.choice(ids[: i + 1])
            add("call", runner_type(called), rng.choice((f"Run {called}", *LABELS)))
        named = [n["id"] for n in nodes] + [f"ghost.{k}" for k in range(rng.randint(0, 2))]
        pairs = {(rng.choice(named), rng.choice(named)) for _ in range(rng.randint(1, 3 * len(nodes)))}
        edges = [tool_edge(s, t) for s, t in sorted(pairs)]
        ports = [("tool", rng.choice([*named, "nowhere.1"]), "tool") for _ in range(rng.choice((0, 1, 1, 2, 3)))]
        if rng.random() < 0.3:
            ports.append(("messages", rng.choice(named), "messages"))
        workflows.append(workflow(me, nodes, edges, ports))
    box_runs = rng.choice(ids) if rng.random() < 0.3 else None
    types = [
        *sites.base_types(),
        *(sites.runner(w) for w in (*ids, "missing")),
        sites.node_type("flowdrop_node_processor_toolbox", TOOLBOX_EXECUTOR, True),
        sites.node_type("toolbox", sites.WORKFLOW_EXECUTOR.format(box_runs) if box_runs else TOOLBOX_EXECUTOR, True),
    ]
    return mixed(
        Site(workflows, types),
        as_json=[w for w in ids if rng.random() < 0.3],
        passthrough_ids=["toolbox"] if box_runs else [],
    )


def check_hostile(seed: int, directory: Path) -> None:
    try:
        check_site_against_reference(directory, hostile_site(seed))
    except AssertionError as e:
        raise AssertionError(f"hostile site {seed} (tests/test_site_hostile.py hostile_site({seed})): {e}") from e


def test_cmp9_site_hostile_random_sites_hold_every_corner() -> None:
    # The generator must make the shapes it is for, or the differential
    # tests below prove little.
    seen = {"self-loop": 0, "ghost-port": 0, "toolbox-runs": 0, "json": 0, "cycle": 0}
    for seed in range(60):
        site = hostile_site(seed)
        ids = {w["id"] for w in site.workflows}
        for w in site.workflows:
            seen["self-loop"] += any(e["source"] == e["target"] for e in w["edges"])
            seen["ghost-port"] += any(p["node_id"].startswith("ghost") for p in w["input_ports"])
            runs = [n["data"]["metadata"]["node_type_id"] for n in w["nodes"]]
            seen["cycle"] += any(runner_type(v) in runs for v in ids if v <= w["id"])
        seen["toolbox-runs"] += bool(site.passthrough_ids)
        seen["json"] += bool(site.as_json)
    assert all(count >= 5 for count in seen.values()), seen


@pytest.mark.parametrize("first", range(0, 60, 20), ids=lambda s: f"seeds{s}-{s + 19}")
def test_cmp9_site_hostile_random_sites_match_the_reference(tmp_path: Path, first: int) -> None:
    for seed in range(first, first + 20):
        check_hostile(seed, tmp_path / str(seed))


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=60, max_value=2**32))
def test_cmp9_site_hostile_random_sites_match_the_reference_hypothesis(seed: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        check_hostile(seed, Path(directory))


# --- Cost: against each file alone, as ratios ---------------------------------


def best_of(times: int, run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def site_over_alone(tmp_path: Path, site: Site) -> float:
    """How many times longer the site check of the directory takes than
    ``check_file`` of each of its files with the same catalogue."""
    files = site.write(tmp_path)
    # Both at their best of three, after a first run of each.
    toolwire.check_files([tmp_path])
    alone = best_of(3, lambda: [toolwire.check_file(f, node_types=tmp_path) for f in files.values()])
    whole = best_of(3, lambda: toolwire.check_files([tmp_path]))
    return whole / alone


def box_chain(n: int) -> Site:
    """W: ``n`` tools into a chain of ``n`` boxes feeding ``n`` agents, its
    port naming the first box (each agent once had a path per tool kept,
    ``n**3``: 0.87 s against 0.014 s alone at n = 400)."""
    nodes = [tool(f"t{k}", f"Tool {k}") for k in range(n)] + [node(f"b{k}", BOX_TYPE, "Box") for k in range(n)]
    nodes += [agent(f"a{k}") for k in range(n)]
    edges = [tool_edge(f"t{k}", "b0") for k in range(n)] + [tool_edge(f"b{k - 1}", f"b{k}") for k in range(1, n)]
    edges += [tool_edge(f"b{n - 1}", f"a{k}") for k in range(n)]
    w = workflow("w", nodes, edges, [("tool", "b0", "tool")])
    p = workflow("p", [call("call.1", "w"), tool("x.1", "Unique")], [tool_edge("x.1", "call.1")])
    return hand_made(p, w)


def calls_fed_by_one_box(n: int, own_tools: bool) -> Site:
    """P: ``n`` tools into one box feeding ``n`` calls of W (each call
    once walked the box alone: 1.1 s against 0.07 s alone at n = 2,000);
    with ``own_tools`` each call also gets a tool of its own."""
    nodes = [tool(f"t{k}", f"Tool {k}") for k in range(n)] + [node("box.1", BOX_TYPE, "Box")]
    nodes += [call(f"c{k}", "w") for k in range(n)]
    edges = [tool_edge(f"t{k}", "box.1") for k in range(n)] + [tool_edge("box.1", f"c{k}") for k in range(n)]
    if own_tools:
        nodes += [tool(f"o{k}", f"Own {k}") for k in range(n)]
        edges += [tool_edge(f"o{k}", f"c{k}") for k in range(n)]
    w = workflow("w", [agent()], [], [("tool", "agent.1", "tool")])
    return hand_made(workflow("p", nodes, edges), w)


def test_cmp9_site_cost_a_box_chain_between_many_tools_and_endpoints(tmp_path: Path) -> None:
    assert site_over_alone(tmp_path, box_chain(400)) < 8


def test_cmp9_site_cost_many_calls_fed_by_one_box(tmp_path: Path) -> None:
    assert site_over_alone(tmp_path, calls_fed_by_one_box(2000, own_tools=False)) < 8


@pytest.mark.xfail(
    strict=True,
    reason="each call node with its own list of providers is walked on its own (src/site/facts.rs): n calls "
    "fed by one box of n tools and a tool each are n walks of n tools, n**2 for a file of size n "
    "(1.5 s and 185 MB against 0.22 s and 67 MB alone at n = 4,000). Sharing the box's upstream between "
    "walks needs own sets made of shared pieces, through to the states: a redesign",
)
def test_cmp9_site_cost_many_calls_fed_by_one_box_and_a_tool_each(tmp_path: Path) -> None:
    assert site_over_alone(tmp_path, calls_fed_by_one_box(4000, own_tools=True)) < 3


def calls_along_a_chain(n: int) -> Site:
    """P: a chain of ``n`` boxes, box k holding a tool "Tool k" and feeding
    a call of W of its own (each call with its own list of providers, the
    chain above it); W: one agent behind its port, with eight of the
    names already (found by the attack of session 28)."""
    nodes = [tool(f"x{k}", f"Tool {k}") for k in range(n)] + [node(f"b{k}", BOX_TYPE, "Box") for k in range(n)]
    nodes += [call(f"c{k}", "w") for k in range(n)]
    edges = [tool_edge(f"x{k}", f"b{k}") for k in range(n)] + [tool_edge(f"b{k - 1}", f"b{k}") for k in range(1, n)]
    edges += [tool_edge(f"b{k}", f"c{k}") for k in range(n)]
    step = max(1, n // 8)
    w_nodes = [agent()] + [tool(f"t{k}", f"Tool {k}") for k in range(0, n, step)]
    w_edges = [tool_edge(f"t{k}", "agent.1") for k in range(0, n, step)]
    w = workflow("w", w_nodes, w_edges, [("tool", "agent.1", "tool")])
    return hand_made(workflow("p", nodes, edges), w)


@pytest.mark.xfail(
    strict=True,
    reason="each call node with its own list of providers is walked on its own (src/site/facts.rs): n calls "
    "along a chain of n boxes are n walks up the chain, n**2 / 2 (3.5 s and 215 MB against 0.43 s alone at "
    "n = 4,000); the same redesign as above",
)
def test_cmp9_site_cost_calls_along_a_chain_of_boxes(tmp_path: Path) -> None:
    assert site_over_alone(tmp_path, calls_along_a_chain(3000)) < 3


def test_cmp9_site_cost_baselines_are_what_they_claim(tmp_path: Path) -> None:
    # The cost sites check clean, so their time is the check's, not a
    # report's: no call finding, no own violation.
    for k, site in enumerate([box_chain(20), calls_fed_by_one_box(20, False), calls_fed_by_one_box(20, True)]):
        directory = tmp_path / str(k)
        site.write(directory)
        reports = toolwire.check_files([directory])
        assert len(reports) == 2 and all(r.ok and not r.calls for r in reports)
        assert judged(tmp_path / f"ref{k}", site).calls == {"p": {}, "w": {}}

