"""Issue 22, item 5: what a consumer inside a called workflow sees, per call
(``toolwire.explain_calls`` and ``toolwire explain`` in a site).

Hand-made sites written as Drupal stores them (``toolwire.generate.sites``):
a parent calling a shared agent workflow with a clash, a box behind the
port, two callers, a nested call (one level shown, the rest counted),
``--consumer``, JSON against its schema; and, on random sites, every
clash a view shows across one call is a clash across calls that the
site check reports (and the other way round).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Set, Tuple

import jsonschema
import pytest

import toolwire
import toolwire.cli
from toolwire.generate import sites
from toolwire.generate.sites import Site, node, runner_type, tool_edge, workflow

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "explain.schema.json").read_text(encoding="utf-8"))


def agent(node_id: str = "agent.1") -> Dict[str, Any]:
    return node(node_id, sites.AGENT_TYPE, "Agent")


def tool(node_id: str, label: str) -> Dict[str, Any]:
    return node(node_id, sites.TOOL_TYPE, label)


def box(node_id: str = "box.1") -> Dict[str, Any]:
    return node(node_id, sites.BOX_TYPE, "Tool Box")


def call(node_id: str, runs: str) -> Dict[str, Any]:
    return node(node_id, runner_type(runs), f"Run {runs}")


def write(tmp_path: Path, *workflows: Dict[str, Any], runs: Tuple[str, ...] = ("w",)) -> Dict[str, str]:
    site = Site(list(workflows), [*sites.base_types(), *(sites.runner(w) for w in runs)])
    return site.write(tmp_path)


def node_place(path: str, node_id: str) -> Tuple[int, int]:
    """Where the YAML names a node (its ``id:`` key), as locations say it."""
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() in (f"id: {node_id}", f"- id: {node_id}"):
            return number, line.index("id:") + 1 - (2 if line.strip().startswith("-") else 0)
    raise AssertionError(f"{node_id} is not in {path}")


def shown(view: toolwire.CallView) -> List[str]:
    """Per tool: ``workflow:id name [!]`` and its path, parts joined by ``=>``."""
    lines = []
    for t in view.tools:
        parts = " => ".join(f"{p.workflow}: {' '.join(p.nodes)}" for p in t.path)
        lines.append(f"{t.workflow}:{t.id} {t.name}{' !' if t.collides else ''} via {parts}")
    return lines


# The shared agent workflow: its tool port hands a caller's tools to its
# agent, which has its own tool "Search".
W = workflow("w", [agent(), tool("tool.1", "Search")], [tool_edge("tool.1", "agent.1")],
             [("tools", "agent.1", "tool")])  # fmt: skip
P = workflow("p", [call("call.1", "w"), tool("tool.1", "search"), tool("tool.2", "Fetch")],
             [tool_edge("tool.1", "call.1"), tool_edge("tool.2", "call.1")])  # fmt: skip


def test_cmp9_explain_calls_a_parent_calling_a_shared_agent_shows_the_clash_inside(tmp_path: Path) -> None:
    files = write(tmp_path, P, W)
    views = toolwire.explain_calls(files["w"], tmp_path)
    assert len(views) == 1
    view = views[0]
    assert (view.consumer.workflow, view.consumer.node, view.call.workflow, view.call.node, view.call.runs) == (
        "w", "agent.1", "p", "call.1", "w")  # fmt: skip
    assert view.outer_calls == 0
    assert shown(view) == [
        "p:tool.2 fetch via p: tool.2 call.1 => w: agent.1",
        "p:tool.1 search ! via p: tool.1 call.1 => w: agent.1",
        "w:tool.1 search ! via w: tool.1 agent.1",
    ]
    # Every node is located in its own file, on both sides of the call.
    for t in view.tools:
        assert t.file == files[t.workflow]
        assert t.location is not None and (t.location.line, t.location.column) == node_place(t.file, t.id)
        for part in t.path:
            assert part.file == files[part.workflow]
            assert [(at.line, at.column) for at in part.locations if at] == [
                node_place(part.file, n) for n in part.nodes
            ]
    call_at = view.call.location
    assert call_at is not None and (call_at.line, call_at.column) == node_place(files["p"], "call.1")
    # The clash it marks is the one the site check reports at the call.
    (finding,) = next(r for r in toolwire.check_files([tmp_path]) if r.path == files["p"]).calls
    assert [(t.workflow, t.id, t.path) for t in finding.tools] == [
        (t.workflow, t.id, t.path) for t in view.tools if t.collides
    ]
    # The views of the workflow itself are unchanged by the site.
    assert [v.consumer for v in toolwire.explain_file(files["w"])] == ["agent.1"]
    assert view.to_dict()["tools"][0]["path"][1] == {
        "workflow": "w", "file": files["w"], "nodes": ["agent.1"],
        "locations": [{"line": node_place(files["w"], "agent.1")[0], "column": node_place(files["w"], "agent.1")[1]}],
    }  # fmt: skip


def test_cmp9_explain_calls_a_box_behind_the_port_hands_the_tools_to_each_agent_behind_it(tmp_path: Path) -> None:
    w = workflow("w", [box(), agent("agent.1"), agent("agent.2"), agent("agent.3"), tool("tool.1", "Search")],
                 [tool_edge("box.1", "agent.1"), tool_edge("box.1", "agent.2"), tool_edge("tool.1", "box.1")],
                 [("tools", "box.1", "tool")])  # fmt: skip
    files = write(tmp_path, P, w)
    views = toolwire.explain_calls(files["w"], tmp_path)
    assert [v.consumer.node for v in views] == ["agent.1", "agent.2"], "agent.3 is not behind the port"
    for v in views:
        c = v.consumer.node
        assert shown(v) == [
            f"p:tool.2 fetch via p: tool.2 call.1 => w: box.1 {c}",
            f"p:tool.1 search ! via p: tool.1 call.1 => w: box.1 {c}",
            f"w:tool.1 search ! via w: tool.1 box.1 {c}",
        ]


def test_cmp9_explain_calls_each_call_from_each_caller_is_a_view(tmp_path: Path) -> None:
    p2 = workflow("p2", [call("run.b", "w"), call("run.a", "w"), tool("tool.1", "Other")],
                  [tool_edge("tool.1", "run.a")])  # fmt: skip
    files = write(tmp_path, P, p2, W)
    views = toolwire.explain_calls(files["w"], [files["w"], files["p2"], files["p"]], node_types=tmp_path)
    assert [(v.call.workflow, v.call.node, len(v.tools)) for v in views] == [
        ("p", "call.1", 3), ("p2", "run.a", 2), ("p2", "run.b", 1)]  # fmt: skip
    assert [t.collides for t in views[1].tools] == [False, False]
    # The callers are called by nothing: no view of their own.
    assert toolwire.explain_calls(files["p"], tmp_path) == []


def nested(tmp_path: Path) -> Dict[str, str]:
    """q calls p twice; p's tool port hands q's tools, through a box, to
    its call node, which runs w."""
    p = workflow("p", [box(), call("call.1", "w"), tool("tool.2", "Fetch")],
                 [tool_edge("box.1", "call.1"), tool_edge("tool.2", "box.1")],
                 [("tools", "box.1", "tool")])  # fmt: skip
    q = workflow("q", [call("run.1", "p"), call("run.2", "p"), tool("tool.9", "search")],
                 [tool_edge("tool.9", "run.1")])  # fmt: skip
    return write(tmp_path, p, q, W, runs=("w", "p"))


def test_cmp9_explain_calls_one_level_counts_the_calls_further_out(tmp_path: Path) -> None:
    files = nested(tmp_path)
    (view,) = toolwire.explain_calls(files["w"], tmp_path)
    assert view.outer_calls == 2
    assert shown(view) == [
        "p:tool.2 fetch via p: tool.2 box.1 call.1 => w: agent.1",
        "w:tool.1 search via w: tool.1 agent.1",
    ]
    # One level up: q's search at p's call node, in the call run.1.
    at_p = toolwire.explain_calls(files["p"], tmp_path)
    assert [(v.consumer.node, v.call.node) for v in at_p] == [("call.1", "run.1"), ("call.1", "run.2")]
    assert "q:tool.9 search via q: tool.9 run.1 => p: box.1 call.1" in shown(at_p[0])
    # The site check finds that clash two calls down, at w's agent.
    (finding,) = next(r for r in toolwire.check_files([tmp_path]) if r.path == files["q"]).calls
    assert [s.node for s in finding.chain] == ["run.1", "call.1"]


def test_cmp9_explain_text_in_a_site_shows_each_call_and_the_note_for_the_calls_further_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = nested(tmp_path)
    assert toolwire.cli.main(["explain", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    w_file = files["w"]
    at = ":".join(map(str, node_place(w_file, "agent.1")))
    header = (
        f'{w_file}:{at}: agent.1 gets 2 tools in the call from call.1 of workflow "p" '
        f'({files["p"]}:{":".join(map(str, node_place(files["p"], "call.1")))})'
    )
    assert header + "\n" in out
    block = out[out.index(header):]
    assert 'fetch   tool.2  "Fetch"   of workflow "p"' in block
    assert "path: [tool.2 -> box.1 -> call.1] => w: [agent.1]" in block
    assert (
        '  and whatever the 2 calls into workflow "p" hand to call.1 (one level is shown: '
        'explain workflow "p" to see them)\n'
    ) in block
    # p's own per-call views follow its usual ones, q's tool marked nowhere
    # (no clash at p's call node).
    assert out.count("in the call from") == 3
    assert "<- shared name" not in out


def test_cmp9_explain_text_marks_the_shared_names_and_consumer_limits_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    w = workflow("w", [agent("agent.1"), agent("agent.2"), tool("tool.1", "Search")], [tool_edge("tool.1", "agent.2")],
                 [("a", "agent.1", "tool"), ("b", "agent.2", "tool")])  # fmt: skip
    files = write(tmp_path, P, w)
    assert toolwire.cli.main(["explain", files["w"], "--site", str(tmp_path), "--consumer", "agent.2"]) == 0
    out = capsys.readouterr().out
    assert out.count("in the call from") == 1
    assert "agent.2 gets 3 tools in the call from call.1" in out and "(2 tools share a name: CMP-9)" in out
    assert out.count("<- shared name") == 2
    assert "agent.1" not in out
    assert len(toolwire.explain_calls(files["w"], tmp_path)) == 2
    assert [v.consumer.node for v in toolwire.explain_calls(files["w"], tmp_path, consumer="agent.2")] == ["agent.2"]


def test_cmp9_explain_json_in_a_site_has_calls_per_its_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = write(tmp_path, P, W)
    assert toolwire.cli.main(["explain", "--format", "json", files["w"], "--site", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    document = json.loads(text)
    jsonschema.validators.validator_for(SCHEMA)(SCHEMA).validate(document)
    assert text == json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    assert document["calls"] == [v.to_dict() for v in toolwire.explain_calls(files["w"], tmp_path)]
    assert [t["collides"] for t in document["calls"][0]["tools"]] == [False, True, True]
    # Without a site the document is as before: no "calls".
    assert toolwire.cli.main(["explain", "--format", "json", files["w"]]) == 0
    assert "calls" not in json.loads(capsys.readouterr().out)
    # A workflow of a site nothing calls: an empty list.
    assert toolwire.cli.main(["explain", "--format", "json", files["p"], "--site", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["calls"] == []


def test_explain_calls_needs_node_types_and_says_what_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = write(tmp_path / "site", P, W)
    with pytest.raises(ValueError, match="node types"):
        toolwire.explain_calls(files["w"], [files["p"]])
    assert len(toolwire.explain_calls(files["w"], [files["p"]], node_types=tmp_path / "site")) == 1
    assert toolwire.cli.main(["explain", files["w"], "--site", files["p"]]) == 2
    assert "--site: a site's calls are known from its node types" in capsys.readouterr().err
    broken = tmp_path / "site" / "flowdrop_workflow.flowdrop_workflow.broken.yml"
    broken.write_text("nodes: [\n", encoding="utf-8")
    # The broken file brings no call; the others are still explained.
    assert len(toolwire.explain_calls(files["w"], tmp_path / "site")) == 1
    assert toolwire.cli.main(["explain", files["w"], "--site", str(tmp_path / "site")]) == 2
    captured = capsys.readouterr()
    assert "broken.yml" in captured.err and "its calls are not known" in captured.err
    assert "in the call from call.1" in captured.out


def test_explain_of_a_file_named_alone_is_a_site_of_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # As check: files named with --node-types are the site; w alone is
    # called by nothing in it.
    files = write(tmp_path, P, W)
    assert toolwire.cli.main(["explain", files["w"], "--node-types", str(tmp_path)]) == 0
    assert "in the call from" not in capsys.readouterr().out
    assert toolwire.cli.main(["explain", files["w"], files["p"], "--node-types", str(tmp_path)]) == 0
    assert capsys.readouterr().out.count("in the call from") == 1


# --- Against the site check, on random sites ------------------------------------------


def view_clashes(files: Dict[str, str], directory: Path) -> Set[Tuple[str, str, str, str, FrozenSet[Tuple[str, str]]]]:
    """Every clash a per-call view shows between tools of the caller and of
    the workflow explained: (caller, consumer workflow, consumer, name,
    tools)."""
    found = set()
    for w, path in files.items():
        for view in toolwire.explain_calls(path, directory):
            by_name: Dict[str, Set[Tuple[str, str]]] = {}
            for t in view.tools:
                by_name.setdefault(t.name, set()).add((t.workflow, t.id))
            for name, tools in by_name.items():
                if len(tools) > 1 and {wf for wf, _ in tools} == {view.call.workflow, w}:
                    found.add((view.call.workflow, w, view.consumer.node, name, frozenset(tools)))
    return found


RANDOM_SITES = 60


def test_cmp9_explain_calls_clashes_across_one_call_are_the_site_checks(tmp_path: Path) -> None:
    shown_anywhere = 0
    for seed in range(RANDOM_SITES):
        site = sites.random_site(seed, cycles=seed % 4 == 3)
        directory = tmp_path / str(seed)
        files = site.write(directory)
        by_path = {p: w for w, p in files.items()}
        # The site check's clashes across calls whose shortest chain is one call.
        checked = set()
        for report in toolwire.check_files([directory]):
            for c in report.calls if report.path in by_path else ():
                if len(c.chain) == 1:
                    tools = frozenset((t.workflow, t.id) for t in c.tools)
                    checked.add((by_path[report.path], c.consumer.workflow, c.consumer.node, c.name, tools))
        shown = view_clashes(files, directory)
        assert shown == checked, f"toolwire generate --site random{'-cycles' if seed % 4 == 3 else ''} --seed {seed}"
        shown_anywhere += bool(shown)
    assert shown_anywhere >= 5, "the random sites hold clashes across one call"


def test_cmp9_explain_calls_real_reason_shows_its_agent_step_the_parents_renamed_capability(tmp_path: Path) -> None:
    # The real `reason` workflow run by the real `brand_studio` (test_site's
    # site): before the rename its agent step sees the parent's
    # capabilities beside its own, no name shared; after, the renamed one
    # shares its name with reason's own capability.
    from test_site import CALL_NODE, INSIDE_TOOL, REAL_PARENT, RENAMED, real_site

    for rename in (False, True):
        directory = tmp_path / str(rename)
        files = real_site(rename).write(directory)
        (view,) = toolwire.explain_calls(files["reason"], directory)
        assert (view.consumer.node, view.call.workflow, view.call.node) == ("aincient_reason.1", REAL_PARENT, CALL_NODE)
        assert {t.workflow for t in view.tools} == {"reason", REAL_PARENT}
        assert (INSIDE_TOOL[0], "reason") in {(t.id, t.workflow) for t in view.tools}
        shared = sorted((t.workflow, t.id) for t in view.tools if t.collides)
        assert shared == ([(REAL_PARENT, RENAMED), ("reason", INSIDE_TOOL[0])] if rename else [])
