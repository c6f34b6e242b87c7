"""``toolwire.explain_json`` / ``explain_file`` and ``toolwire explain``.

Explain shows, for every consumer, its whole flattened set (SEMANTICS 4):
each tool with its name, id, label, path and place, sorted by name and then
id, with ``collides`` set on the tools whose name another tool of the same
view shares. The differential tests at the end hold it to
``toolwire.reference`` on the real workflows and on random ones, and to
``toolwire.check_json``: the colliding groups of a view are exactly the
CMP-9 violations at that consumer.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import pytest
from hypothesis import HealthCheck, example, given, settings

import toolwire
from support import DATA, SHARED, need_shared, shared_files
from test_cli import run, write
from toolwire.cli import main
from test_differential import (
    BOX_CHAIN_IN_THREE_DIALECTS,
    BOX_CYCLE_AND_DIAMOND,
    SELF_LOOP_AND_AGENT_AS_TOOL,
    SERIALISERS,
    options,
    serialisers,
    workflows,
)
from toolwire import ConsumerView, Location, reference
from toolwire._records import SeenTool

Json = Dict[str, Any]
Options = Dict[str, Any]
"""Keyword options of the checking functions: passthrough_types, edge_types."""

REFUSED = DATA / "spec-cmp9-refused.json"
ACCEPTED = DATA / "spec-cmp9-accepted.json"
MULTI = DATA / "multi-violation.json"


def _wire(source: str, target: str) -> Json:
    return {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}


def _tool(node_id: str, label: str) -> Json:
    return {"id": node_id, "type": "http_request", "data": {"label": label}}


def _box(node_id: str) -> Json:
    return {"id": node_id, "type": "toolbox", "data": {"label": f"Box {node_id}"}}


def _explain(workflow: Json, **options: Any) -> List[ConsumerView]:
    return toolwire.explain_json(json.dumps(workflow), **options)


def _summary(view: ConsumerView) -> List[Tuple[str, str, List[str], bool]]:
    """A view's tools without labels and places: (name, id, path, collides)."""
    return [(t.name, t.id, t.path, t.collides) for t in view.tools]


# --- the spec's refused example ---------------------------------------------------

SPEC_REFUSED_VIEW = ConsumerView(
    consumer="agent_1",
    location=Location(10, 5),
    tools=[
        SeenTool("web_search", "tool_a", "Web Search", ["tool_a", "box_1", "agent_1"], Location(3, 5), True),
        SeenTool("web_search", "tool_b", "web-search", ["tool_b", "box_1", "agent_1"], Location(4, 5), True),
    ],
    box_labels={"box_1": "My Tools"},
)


def test_spec_refused_example_agent_gets_both_web_search_tools_through_the_box() -> None:
    assert toolwire.explain_file(REFUSED) == [SPEC_REFUSED_VIEW]


def test_every_input_kind_gives_the_same_views() -> None:
    text = REFUSED.read_text(encoding="utf-8")
    for data in (text, text.encode(), bytearray(text.encode()), memoryview(text.encode())):
        assert toolwire.explain_json(data) == [SPEC_REFUSED_VIEW]
    assert toolwire.explain_file(str(REFUSED)) == [SPEC_REFUSED_VIEW]


def test_explain_json_refuses_a_parsed_workflow() -> None:
    with pytest.raises(TypeError, match="explain_json"):
        toolwire.explain_json(json.loads(REFUSED.read_text(encoding="utf-8")))  # type: ignore[arg-type]


def test_views_serialise_as_the_cli_json_shows_them() -> None:
    (view,) = toolwire.explain_file(REFUSED)
    assert view.to_dict() == {
        "consumer": "agent_1",
        "location": {"line": 10, "column": 5},
        "tools": [
            {
                "name": "web_search",
                "id": "tool_a",
                "label": "Web Search",
                "path": ["tool_a", "box_1", "agent_1"],
                "location": {"line": 3, "column": 5},
                "collides": True,
            },
            {
                "name": "web_search",
                "id": "tool_b",
                "label": "web-search",
                "path": ["tool_b", "box_1", "agent_1"],
                "location": {"line": 4, "column": 5},
                "collides": True,
            },
        ],
        "box_labels": {"box_1": "My Tools"},
        "forwards": False,
    }


def test_spec_accepted_example_the_same_name_at_two_consumers_never_collides() -> None:
    views = toolwire.explain_file(ACCEPTED)
    assert [(v.consumer, _summary(v)) for v in views] == [
        ("agent_1", [("search", "tool_a", ["tool_a", "agent_1"], False)]),
        ("agent_2", [("search", "tool_b", ["tool_b", "agent_2"], False)]),
    ]


# --- multi-violation.json: flattening, order, collides -------------------------


def test_multi_violation_each_consumer_gets_exactly_its_flattened_set() -> None:
    views = toolwire.explain_file(MULTI)
    # summariser's edge declares the typo "tool_availabilty" (EDGE-5), so it
    # is not tool wiring; translator is never declared, so its label is its id;
    # "🔍" keeps no ASCII letter and becomes unnamed_tool.
    assert [(v.consumer, v.location, _summary(v)) for v in views] == [
        (
            "research_agent",
            Location(4, 5),
            [
                ("calculator", "calculator", ["calculator", "research_kit", "research_agent"], False),
                ("unnamed_tool", "magnifier", ["magnifier", "research_agent"], False),
                ("web_search", "bing_search", ["bing_search", "research_kit", "research_agent"], True),
                (
                    "web_search",
                    "google_search",
                    ["google_search", "search_box", "research_kit", "research_agent"],
                    True,
                ),
            ],
        ),
        (
            "writer_agent",
            Location(5, 5),
            [
                ("caf_finder", "cafe_finder", ["cafe_finder", "writer_agent"], False),
                ("fetch_page", "fetch_page", ["fetch_page", "writer_agent"], True),
                ("fetch_page", "page_fetcher", ["page_fetcher", "docs_box", "writer_agent"], True),
                ("translator", "translator", ["translator", "writer_agent"], False),
            ],
        ),
    ]
    labels = {t.id: t.label for v in views for t in v.tools}
    assert labels["magnifier"] == "🔍" and labels["translator"] == "translator"
    assert labels["cafe_finder"] == "Café Finder"


def test_multi_violation_matches_the_reference_flattening() -> None:
    text = MULTI.read_text(encoding="utf-8")
    assert_views_match_reference(json.loads(text), {}, toolwire.explain_file(MULTI), text)


def test_tools_are_sorted_by_name_then_id_in_code_point_order() -> None:
    workflow = {
        "nodes": [
            _tool("b", "Zeta"),
            _tool("Z", "alpha"),
            _tool("a", "Alpha"),
            _tool("é", "alpha"),
            _tool("c", "beta"),
        ],
        "edges": [_wire(t, "agent") for t in ("b", "Z", "a", "é", "c")],
    }
    (view,) = _explain(workflow)
    assert [(t.name, t.id) for t in view.tools] == [
        ("alpha", "Z"),
        ("alpha", "a"),
        ("alpha", "é"),
        ("beta", "c"),
        ("zeta", "b"),
    ]
    assert [t.collides for t in view.tools] == [True, True, True, False, False]


def test_consumers_are_listed_by_id_in_code_point_order() -> None:
    workflow = {"nodes": [_tool("t", "T")], "edges": [_wire("t", c) for c in ("b", "a", "B", "é")]}
    assert [v.consumer for v in _explain(workflow)] == ["B", "a", "b", "é"]


def test_collides_only_for_names_shared_within_the_same_view() -> None:
    workflow = {
        "nodes": [_tool("t1", "Search"), _tool("t2", "SEARCH"), _tool("t3", "search"), _tool("t4", "Other")],
        "edges": [_wire("t1", "a1"), _wire("t4", "a1"), _wire("t2", "a2"), _wire("t3", "a2")],
    }
    views = {v.consumer: _summary(v) for v in _explain(workflow)}
    assert views == {
        "a1": [("other", "t4", ["t4", "a1"], False), ("search", "t1", ["t1", "a1"], False)],
        "a2": [("search", "t2", ["t2", "a2"], True), ("search", "t3", ["t3", "a2"], True)],
    }


def test_a_tool_reached_through_two_boxes_appears_once_and_collides_with_nothing() -> None:
    workflow = {
        "nodes": [_tool("t", "Search"), _box("b1"), _box("b2")],
        "edges": [_wire("t", "b2"), _wire("t", "b1"), _wire("b2", "agent"), _wire("b1", "agent")],
    }
    (view,) = _explain(workflow)
    # Two shortest paths of equal length: the first in code point order.
    assert _summary(view) == [("search", "t", ["t", "b1", "agent"], False)]


def test_a_cycle_of_boxes_terminates_and_forwards_the_union_of_what_flows_in() -> None:
    workflow = {
        "nodes": [_tool("t1", "Search"), _tool("t2", "search"), _box("b1"), _box("b2"), _box("b3")],
        "edges": [
            _wire("t1", "b1"),
            _wire("t2", "b2"),
            _wire("b1", "b2"),
            _wire("b2", "b3"),
            _wire("b3", "b1"),
            _wire("b3", "b3"),
            _wire("b1", "agent"),
        ],
    }
    (view,) = _explain(workflow)
    assert _summary(view) == [
        ("search", "t1", ["t1", "b1", "agent"], True),
        ("search", "t2", ["t2", "b2", "b3", "b1", "agent"], True),
    ]


def test_a_consumer_fed_only_by_an_empty_cycle_of_boxes_gets_no_tools() -> None:
    workflow = {
        "nodes": [_box("b1"), _box("b2")],
        "edges": [_wire("b1", "b2"), _wire("b2", "b1"), _wire("b1", "agent")],
    }
    (view,) = _explain(workflow)
    assert (view.consumer, view.tools) == ("agent", [])


def test_an_agent_wired_as_a_tool_is_a_leaf_and_a_self_loop_makes_the_consumer_its_own_tool() -> None:
    workflow = {
        "nodes": [_tool("main", "Search"), _tool("sub", "search"), _tool("t", "Lookup")],
        "edges": [_wire("t", "sub"), _wire("sub", "main"), _wire("main", "main")],
    }
    views = {v.consumer: _summary(v) for v in _explain(workflow)}
    assert views == {
        # t is sub's tool; sub does not forward it to main.
        "main": [("search", "main", ["main", "main"], True), ("search", "sub", ["sub", "main"], True)],
        "sub": [("lookup", "t", ["t", "sub"], False)],
    }


def test_a_box_whose_tools_reach_no_consumer_is_not_listed() -> None:
    workflow = {
        "nodes": [_tool("t1", "A"), _tool("t2", "a"), _box("box")],
        "edges": [_wire("t1", "box"), _wire("t2", "box")],
    }
    assert _explain(workflow) == []


def test_a_workflow_without_tool_edges_has_no_views() -> None:
    assert toolwire.explain_json("{}") == []
    assert toolwire.explain_json('{"nodes": [{"id": "a"}], "edges": null}') == []


def test_passthrough_types_option_changes_what_is_flattened() -> None:
    workflow = {
        "nodes": [_tool("t1", "Search"), _tool("t2", "search"), {"id": "kit", "type": "kit"}],
        "edges": [_wire("t1", "kit"), _wire("t2", "kit"), _wire("kit", "agent")],
    }
    by_default = {v.consumer: [t.id for t in v.tools] for v in _explain(workflow)}
    assert by_default == {"agent": ["kit"], "kit": ["t1", "t2"]}
    (view,) = _explain(workflow, passthrough_types=["kit"])
    assert _summary(view) == [
        ("search", "t1", ["t1", "kit", "agent"], True),
        ("search", "t2", ["t2", "kit", "agent"], True),
    ]


def test_edge_types_option_changes_what_is_tool_wiring() -> None:
    # An unrecognised declaration is never tool wiring; recognised but not
    # tool_availability, neither; only the handle would make it one.
    edge = {"source": "t", "target": "agent", "targetHandle": "agent-input-tool", "data": {"edgeType": "tool"}}
    workflow = {"edges": [edge]}
    assert _explain(workflow) == []
    assert _explain(workflow, edge_types=["tool"]) == []
    del edge["data"]
    assert [v.consumer for v in _explain(workflow)] == ["agent"]


# --- consumer= ----------------------------------------------------------------------


def test_consumer_picks_one_view() -> None:
    views = toolwire.explain_file(MULTI, consumer="writer_agent")
    assert views == [v for v in toolwire.explain_file(MULTI) if v.consumer == "writer_agent"]


def test_consumer_a_toolbox_shows_what_it_forwards_with_paths_ending_at_the_box() -> None:
    (view,) = toolwire.explain_file(REFUSED, consumer="box_1")
    assert view.consumer == "box_1" and view.location == Location(5, 5)
    assert _summary(view) == [
        ("web_search", "tool_a", ["tool_a", "box_1"], True),
        ("web_search", "tool_b", ["tool_b", "box_1"], True),
    ]


def test_consumer_a_nested_toolbox_includes_what_inner_boxes_forward() -> None:
    (view,) = toolwire.explain_file(MULTI, consumer="research_kit")
    assert _summary(view) == [
        ("calculator", "calculator", ["calculator", "research_kit"], False),
        ("web_search", "bing_search", ["bing_search", "research_kit"], True),
        ("web_search", "google_search", ["google_search", "search_box", "research_kit"], True),
    ]


def test_consumer_in_a_cycle_of_boxes_gets_the_union() -> None:
    views = _explain(BOX_CYCLE_AND_DIAMOND, consumer="b1")
    (view,) = views
    assert [t.id for t in view.tools] == ["t1", "t2", "t3"]
    assert all(t.path[-1] == "b1" for t in view.tools)


def test_consumer_unknown_raises_lookup_error_naming_the_id() -> None:
    with pytest.raises(LookupError, match='"no_such_node"') as raised:
        toolwire.explain_file(REFUSED, consumer="no_such_node")
    assert not isinstance(raised.value, toolwire.WorkflowError)


def test_consumer_on_invalid_input_is_an_input_error_first() -> None:
    with pytest.raises(toolwire.WorkflowError) as raised:
        toolwire.explain_json('{"nodes": [\n', consumer="no_such_node")
    assert (raised.value.line, raised.value.column) == (2, 1)


@pytest.mark.parametrize(
    "node",
    ["tool_a", "box_1", "agent_1"],
    ids=["tool", "box", "undeclared consumer"],
)
def test_consumer_any_node_that_tool_wiring_names_has_a_view(node: str) -> None:
    (view,) = toolwire.explain_file(REFUSED, consumer=node)
    assert view.consumer == node and view.location is not None


@pytest.mark.parametrize("node", ["tool_a", "chat_input"], ids=["wired as a tool only", "not tool-wired at all"])
def test_consumer_a_node_with_no_providers_gets_an_empty_list(node: str) -> None:
    path = REFUSED if node == "tool_a" else MULTI
    (view,) = toolwire.explain_file(path, consumer=node)
    assert (view.consumer, view.tools) == (node, [])


# --- differential: explain against the reference and against check -----------------


def _reference_options(chosen: Options) -> Tuple[Set[str], Set[str]]:
    passthrough = set(chosen.get("passthrough_types", reference.DEFAULT_PASSTHROUGH_TYPES))
    recognised = set(chosen.get("edge_types", reference.DEFAULT_EDGE_TYPES)) | {reference.TOOL_EDGE_TYPE}
    return passthrough, recognised


def reference_views(workflow: Json, chosen: Options) -> Tuple[List[str], Dict[str, List[Any]]]:
    """The consumers, and every node's view, as the reference computes them.

    This uses the reference's private helpers (``_read``, ``_build_graph``,
    ``_upstream``, ``_shortest_path``): its public ``check`` reports only
    the names that collide, while explain shows the whole flattened set, and
    these helpers are the reference's own flattening (SEMANTICS 4) and path
    choice (SEMANTICS 6), the very code the differential tests hold the core
    to."""
    passthrough, recognised = _reference_options(chosen)
    graph = reference._build_graph(reference._read(workflow, passthrough, recognised))
    consumers = sorted(node for node in graph.providers if node not in graph.passthroughs)
    views: Dict[str, List[Any]] = {}
    for node in graph.labels:
        distance, leaves = reference._upstream(graph, node)
        names = {leaf: reference.normalize_name(graph.labels[leaf]) for leaf in leaves}
        shared = Counter(names.values())
        views[node] = sorted(
            (
                names[leaf],
                leaf,
                graph.labels[leaf],
                reference._shortest_path(graph, leaf, node, distance),
                shared[names[leaf]] > 1,
            )
            for leaf in leaves
        )
    return consumers, views


def _as_tuples(view: ConsumerView) -> List[Any]:
    return [(t.name, t.id, t.label, t.path, t.collides) for t in view.tools]


def _object_at(text: str, location: Optional[Location]) -> Any:
    """The JSON object that starts at ``location`` (columns count characters)."""
    assert location is not None
    lines = text.split("\n")
    offset = sum(len(line) + 1 for line in lines[: location.line - 1]) + location.column - 1
    assert text[offset] == "{", location
    return json.JSONDecoder().raw_decode(text, offset)[0]


def assert_places_are_the_nodes(text: str, chosen: Options, views: List[ConsumerView]) -> None:
    """Each place is where the node object starts or, for a node that is
    never declared, the first tool edge naming it (as the reference reads
    the edges)."""
    workflow = json.loads(text)
    declared = {node["id"]: node for node in reference._elements(workflow, "nodes")}
    edges = reference._elements(workflow, "edges")
    doc = reference._read(workflow, *_reference_options(chosen))

    def expected(node: str) -> Any:
        if node in declared:
            return declared[node]
        first = next(e for e in doc.tool_edges if node in (e.source, e.target))
        return edges[first.index]

    for view in views:
        assert _object_at(text, view.location) == expected(view.consumer), view.consumer
        for tool in view.tools:
            assert _object_at(text, tool.location) == expected(tool.id), tool.id


def assert_views_match_reference(
    workflow: Json, chosen: Options, views: List[ConsumerView], text: Optional[str] = None
) -> None:
    """``views`` (explain without ``consumer``) lists exactly the reference's
    consumers, each with its flattened set; with ``text``, every place is
    checked, and explain with ``consumer=`` agrees with the reference for
    every node it knows."""
    consumers, expected = reference_views(workflow, chosen)
    assert [v.consumer for v in views] == consumers
    for view in views:
        assert {(t.name, t.id) for t in view.tools} == {(name, leaf) for name, leaf, *_ in expected[view.consumer]}
        assert _as_tuples(view) == expected[view.consumer], view.consumer
    if text is not None:
        assert_places_are_the_nodes(text, chosen, views)
        for node, tools in expected.items():
            (view,) = toolwire.explain_json(text, consumer=node, **chosen)
            assert (view.consumer, _as_tuples(view)) == (node, tools)
            assert_places_are_the_nodes(text, chosen, [view])


def assert_collisions_are_the_cmp9_violations(views: List[ConsumerView], report: toolwire.Report) -> None:
    """Each CMP-9 violation is one group of colliding tools of one view:
    same consumer, name, tool ids, paths and places; and nothing else collides."""
    from_views = []
    for view in views:
        groups: Dict[str, List[SeenTool]] = {}
        for tool in view.tools:
            assert tool.collides == (sum(t.name == tool.name for t in view.tools) > 1)
            if tool.collides:
                groups.setdefault(tool.name, []).append(tool)
        for name, tools in sorted(groups.items()):
            from_views.append(
                (view.consumer, name, view.location, [(t.id, t.label, t.path, t.location) for t in tools])
            )
    from_check = [
        (v.consumer, v.name, v.location, [(t.id, t.label, t.path, t.location) for t in v.tools])
        for v in report.violations
        if v.rule == "CMP-9"
    ]
    assert from_views == from_check


REAL_WORKFLOWS = shared_files(SHARED / "real-workflows")


def test_real_workflows_are_all_there() -> None:
    need_shared(SHARED / "real-workflows")
    assert len(REAL_WORKFLOWS) == 54


@pytest.mark.parametrize("path", REAL_WORKFLOWS, ids=[p.stem for p in REAL_WORKFLOWS])
def test_explain_matches_reference_and_check_on_real_workflows(path: Path) -> None:
    need_shared(path)
    text = path.read_text(encoding="utf-8")
    views = toolwire.explain_file(path)
    assert toolwire.explain_json(text) == views
    assert_views_match_reference(json.loads(text), {}, views, text)
    assert_collisions_are_the_cmp9_violations(views, toolwire.check_json(text))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workflow=workflows(), chosen=options(), serialiser=serialisers)
@example(workflow=BOX_CHAIN_IN_THREE_DIALECTS, chosen={}, serialiser="json.dumps")
@example(workflow=BOX_CYCLE_AND_DIAMOND, chosen={}, serialiser="json.dumps")
@example(workflow=SELF_LOOP_AND_AGENT_AS_TOOL, chosen={}, serialiser="json.dumps(indent=2, ensure_ascii=False)")
def test_explain_matches_reference_and_check_on_random_workflows(
    workflow: Json, chosen: Options, serialiser: str
) -> None:
    text = SERIALISERS[serialiser](workflow)
    views = toolwire.explain_json(text, **chosen)
    assert_views_match_reference(workflow, chosen, views, text)
    assert_collisions_are_the_cmp9_violations(views, toolwire.check_json(text, **chosen))


# --- the CLI ------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _no_ambient_configuration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test runs from an empty repository (harmless for the API tests,
    which use absolute paths), so that no pyproject.toml around the test run
    configures the CLI, and without colour variables."""
    home = tmp_path / "cwd"
    (home / ".git").mkdir(parents=True)
    monkeypatch.chdir(home)
    for variable in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(variable, raising=False)


def _feed_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_cli_text_spec_refused(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "explain", str(REFUSED))
    assert (result.code, result.err) == (0, "")
    assert result.out == (
        f"{REFUSED}:10:5: agent_1 gets 2 tools (2 tools share a name: CMP-9)\n"
        '  web_search  tool_a  "Web Search"  at 3:5  <- shared name\n'
        "              path: tool_a -> box_1 (My Tools) -> agent_1\n"
        '  web_search  tool_b  "web-search"  at 4:5  <- shared name\n'
        "              path: tool_b -> box_1 (My Tools) -> agent_1\n"
    )


def test_cli_text_one_block_per_consumer_marks_only_shared_names(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "explain", str(MULTI))
    assert result.code == 0
    blocks = result.out.split("\n\n")
    assert [block.splitlines()[0] for block in blocks] == [
        f"{MULTI}:4:5: research_agent gets 4 tools (2 tools share a name: CMP-9)",
        f"{MULTI}:5:5: writer_agent gets 4 tools (2 tools share a name: CMP-9)",
    ]
    for block, view in zip(blocks, toolwire.explain_file(MULTI)):
        tool_lines = block.splitlines()[1::2]
        path_lines = block.splitlines()[2::2]
        assert len(tool_lines) == len(path_lines) == len(view.tools)
        for line, path_line, tool in zip(tool_lines, path_lines, view.tools):
            assert line.split()[:2] == [tool.name, tool.id]
            assert line.endswith("<- shared name") == tool.collides
            shown = [f"{n} ({view.box_labels[n]})" if n in view.box_labels else n for n in tool.path]
            assert path_line.strip() == "path: " + " -> ".join(shown)


def test_cli_text_a_view_without_collisions_has_no_note(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "explain", str(ACCEPTED))
    assert result.lines == [
        f"{ACCEPTED}:7:5: agent_1 gets 1 tool",
        'search  tool_a  "Search"  at 3:5',
        "path: tool_a -> agent_1",
        f"{ACCEPTED}:8:5: agent_2 gets 1 tool",
        'search  tool_b  "Search"  at 4:5',
        "path: tool_b -> agent_2",
    ]
    assert "shared name" not in result.out and "CMP-9" not in result.out


def test_cli_text_no_consumers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "empty.json", {"nodes": [{"id": "a"}]})
    result = run(capsys, "explain", path)
    assert (result.code, result.out) == (0, f"{path}: no node receives tools\n")


def test_cli_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "explain", "--format", "json", str(MULTI))
    assert (result.code, result.err) == (0, "")
    document = result.json()
    assert list(document) == ["path", "consumers"]
    assert document["path"] == str(MULTI)
    for consumer in document["consumers"]:
        assert list(consumer) == ["consumer", "location", "tools", "box_labels", "forwards"]
        assert consumer["forwards"] is False
        assert set(consumer["location"]) == {"line", "column"}
        for tool in consumer["tools"]:
            assert list(tool) == ["name", "id", "label", "path", "location", "collides"]
            assert isinstance(tool["collides"], bool) and tool["path"][-1] == consumer["consumer"]
    assert document["consumers"] == [v.to_dict() for v in toolwire.explain_file(MULTI)]


def test_cli_json_keeps_non_ascii_as_is(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "explain", "--format", "json", str(MULTI))
    assert '"label": "Café Finder"' in result.out and '"label": "🔍"' in result.out


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_cli_consumer_option(capsys: pytest.CaptureFixture[str], output_format: str) -> None:
    result = run(capsys, "explain", "--format", output_format, "--consumer", "box_1", str(REFUSED))
    assert result.code == 0
    if output_format == "json":
        (consumer,) = result.json()["consumers"]
        assert consumer["consumer"] == "box_1"
        assert [t["path"] for t in consumer["tools"]] == [["tool_a", "box_1"], ["tool_b", "box_1"]]
        assert consumer["forwards"] is True
    else:
        # A toolbox is exempt from CMP-9 (check reports nothing at it): its
        # view is what it forwards, and the shared name a clash further on.
        assert result.lines[0] == (
            f"{REFUSED}:5:5: box_1 forwards 2 tools "
            "(2 share a name: a CMP-9 clash at each consumer they reach together)"
        )
        assert "path: tool_a -> box_1" in result.lines and "agent_1" not in result.out


def test_a_box_s_view_says_it_forwards_and_a_consumer_s_that_it_gets() -> None:
    (box,) = toolwire.explain_file(REFUSED, consumer="box_1")
    (agent,) = toolwire.explain_file(REFUSED, consumer="agent_1")
    assert (box.forwards, agent.forwards) == (True, False)
    # The verdict agrees: the box is no consumer, so no violation is at it.
    assert {v.consumer for v in toolwire.check_file(REFUSED).violations} == {"agent_1"}


def test_cli_a_box_without_shared_names_forwards_plainly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    workflow = {"nodes": [_tool("t1", "Search"), _box("kit")], "edges": [_wire("t1", "kit"), _wire("kit", "agent")]}
    result = run(capsys, "explain", "--consumer", "kit", write(tmp_path, "kit.json", workflow))
    assert result.code == 0
    assert result.lines[0].endswith(": kit forwards 1 tool")


def test_cli_unknown_consumer_exits_2_naming_it_and_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "explain", "--consumer", "no_such_node", str(REFUSED))
    assert (result.code, result.out) == (2, "")
    assert result.err == f'{REFUSED}: error: there is no node "no_such_node" in the workflow\n'


def test_cli_several_paths_are_each_explained_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "explain", str(REFUSED), str(ACCEPTED))
    assert (result.code, result.err) == (0, "")
    alone = [run(capsys, "explain", str(p)).out for p in (REFUSED, ACCEPTED)]
    # Each file's blocks as it gives them alone, a blank line between files;
    # every block's first line names its file.
    assert result.out == "\n".join(alone)
    heads = [block.splitlines()[0] for block in result.out.split("\n\n")]
    assert [h.split(":")[0] for h in heads] == [str(REFUSED), str(ACCEPTED), str(ACCEPTED)]


def test_cli_several_paths_one_unreadable_exits_2_and_explains_the_others(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = str(tmp_path / "missing.json")
    result = run(capsys, "explain", missing, str(REFUSED))
    assert result.code == 2
    assert result.err.startswith(f"{missing}: error: cannot read the file: ")
    assert result.out == run(capsys, "explain", str(REFUSED)).out


def test_cli_several_paths_with_json_or_two_stdins_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "explain", "--format", "json", str(REFUSED), str(ACCEPTED))
    assert (result.code, result.out) == (2, "")
    assert "explain --format json explains one workflow file" in result.err
    result = run(capsys, "explain", "-", "-")
    assert (result.code, result.out) == (2, "")
    assert "standard input ('-') can be read only once" in result.err


def test_cli_help_states_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["explain", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "Exit 0 when every file was explained" in shown and "2 when a file could not be read" in shown


def test_cli_invalid_json_exits_2_with_its_place(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", '{"nodes": [\n')
    result = run(capsys, "explain", path)
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(f"{path}:2:1: error: ")
    assert result.err.count("\n") == 1


def test_cli_a_shape_error_exits_2_with_its_place(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Found after parsing (R2), and still placed: at the second node's id.
    path = write(tmp_path, "duplicate.json", {"nodes": [{"id": "dup_node"}, {"id": "dup_node"}]})
    result = run(capsys, "explain", path)
    assert (result.code, result.out) == (2, "")
    assert result.err == f'{path}:1:32: error: duplicate node id "dup_node": nodes 0 and 1 (R2)\n'


def test_cli_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(tmp_path / "missing.json")
    result = run(capsys, "explain", path)
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(f"{path}: error: cannot read the file: ")


def test_cli_dash_reads_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _feed_stdin(monkeypatch, REFUSED.read_bytes())
    result = run(capsys, "explain", "-")
    assert result.code == 0
    assert result.lines[0] == "<stdin>:10:5: agent_1 gets 2 tools (2 tools share a name: CMP-9)"


def test_cli_dash_reads_standard_input_as_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _feed_stdin(monkeypatch, REFUSED.read_bytes())
    document = run(capsys, "explain", "--format", "json", "-").json()
    assert document == {"path": "<stdin>", "consumers": [SPEC_REFUSED_VIEW.to_dict()]}


def test_cli_dash_with_invalid_json_names_stdin_and_the_place(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _feed_stdin(monkeypatch, b'{\n  "nodes": [1,]\n}')
    result = run(capsys, "explain", "-")
    assert result.code == 2
    assert result.err == "<stdin>:2:14: error: invalid JSON: trailing comma before ']'\n"


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_cli_output_file_gets_the_report_and_stdout_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, output_format: str
) -> None:
    target = tmp_path / f"explained.{output_format}"
    result = run(capsys, "explain", "--format", output_format, "--output", str(target), str(REFUSED))
    assert (result.code, result.out, result.err) == (0, "", "")
    shown = run(capsys, "explain", "--format", output_format, str(REFUSED)).out
    assert target.read_text(encoding="utf-8") == shown
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".toolwire-")] == []


def test_cli_output_into_a_missing_directory_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "out.txt"
    result = run(capsys, "explain", "--output", str(target), str(REFUSED))
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(f"toolwire: cannot write {target}: ")


def test_cli_passthrough_type_option_and_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    workflow = {
        "nodes": [_tool("t1", "Search"), _tool("t2", "search"), {"id": "kit", "type": "kit"}],
        "edges": [_wire("t1", "kit"), _wire("t2", "kit"), _wire("kit", "agent")],
    }
    path = write(Path.cwd(), "kit.json", workflow)
    assert "agent gets 1 tool\n" in run(capsys, "explain", path).out
    assert "agent gets 2 tools (2 tools share a name" in run(capsys, "explain", "--passthrough-type", "kit", path).out
    # The configuration's passthrough types apply; its report format is check's only.
    configuration = '[tool.toolwire]\npassthrough-types = ["kit"]\nformat = "json"\n'
    Path("pyproject.toml").write_text(configuration, encoding="utf-8")
    configured = run(capsys, "explain", path)
    assert configured.code == 0
    assert "agent gets 2 tools (2 tools share a name" in configured.out
    assert "agent gets 1 tool\n" in run(capsys, "explain", "--no-config", path).out


# --- node-type catalogues: which types forward (SEMANTICS 11) ---------------------

# A site's own Tool Box type id: a passthrough only because the catalogue
# says the Tool Box runs it.
SITE_BOX_TYPE = """id: site_box
label: 'Site box'
executor_plugin: 'flowdrop_node_processor:toolbox'
parameters:
  tool:
    connectable: true
"""
SITE_AGENT_TYPE = """id: agent
label: Agent
executor_plugin: 'site:agent'
parameters:
  tool:
    connectable: true
"""
BEHIND_A_SITE_BOX = {
    "nodes": [
        {"id": "t1", "data": {"label": "Search", "metadata": {"node_type_id": "http_request"}}},
        {"id": "kit", "data": {"label": "Kit", "metadata": {"node_type_id": "site_box"}}},
        {"id": "ag", "data": {"label": "Agent", "metadata": {"node_type_id": "agent"}}},
    ],
    "edges": [
        {"source": "t1", "target": "kit", "targetHandle": "kit-input-tool"},
        {"source": "kit", "target": "ag", "targetHandle": "ag-input-tool"},
    ],
}


def site_types(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "flowdrop_node_type.flowdrop_node_type.site_box.yml").write_text(SITE_BOX_TYPE, encoding="utf-8")
    (directory / "flowdrop_node_type.flowdrop_node_type.agent.yml").write_text(SITE_AGENT_TYPE, encoding="utf-8")
    return directory


def tools_of(views: List[ConsumerView], consumer: str) -> List[Tuple[str, List[str]]]:
    [view] = [v for v in views if v.consumer == consumer]
    return [(t.id, list(t.path)) for t in view.tools]


def test_explain_with_a_catalogue_forwards_through_a_type_the_tool_box_runs(tmp_path: Path) -> None:
    types = site_types(tmp_path / "types")
    alone = toolwire.explain(BEHIND_A_SITE_BOX)
    assert tools_of(alone, "ag") == [("kit", ["kit", "ag"])], "without a catalogue the box is a tool"
    for views in (
        toolwire.explain(BEHIND_A_SITE_BOX, node_types=types),
        toolwire.explain_json(json.dumps(BEHIND_A_SITE_BOX), node_types=types),
        toolwire.explain_file(write(tmp_path, "flow.json", json.dumps(BEHIND_A_SITE_BOX)), node_types=types),
    ):
        assert tools_of(views, "ag") == [("t1", ["t1", "kit", "ag"])]


def test_toolwire_explain_takes_node_types_and_a_site_directorys_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = site_types(tmp_path / "config" / "sync")
    flow = site / "flowdrop_workflow.flowdrop_workflow.flow.json"
    flow.write_text(json.dumps(BEHIND_A_SITE_BOX), encoding="utf-8")
    for argv in (["explain", "--format", "json", str(site)], ["explain", "--format", "json", "--node-types", str(site), str(flow)]):
        assert main(argv) == 0
        [agent] = [v for v in json.loads(capsys.readouterr().out)["consumers"] if v["consumer"] == "ag"]
        assert [t["id"] for t in agent["tools"]] == ["t1"], argv
    assert main(["explain", "--format", "json", str(flow)]) == 0, "a file named alone takes no directory's types"
    [agent] = [v for v in json.loads(capsys.readouterr().out)["consumers"] if v["consumer"] == "ag"]
    assert [t["id"] for t in agent["tools"]] == ["kit"]


@pytest.mark.parametrize("where", ["label", "id", "box"])
def test_explain_text_shortens_long_ids_and_labels_as_the_check_report_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
) -> None:
    """One long label, id or box label among 20 tools: each tool's line and
    path is as long whatever its length (attack findings 2 and 3)."""
    from test_format_text import _long_workflow

    def text(length: int) -> str:
        path = tmp_path / f"long{length}.json"
        path.write_bytes(_long_workflow(length, where))
        out = run(capsys, "explain", str(path)).out.replace(str(path), "f")
        return re.sub(r"[0-9]+", "#", out)  # lines and columns left aside

    short = text(150)
    assert short == text(20_000)
    assert max(map(len, short.splitlines())) < 600 and "\u2026" in short
