"""One test (or a small parametrised group) per point of SEMANTICS.md,
sections 1 to 8, each named after the point and citing the rule it rests on.

Every test runs through ``check_via`` (dict, JSON str, JSON bytes, file), so a
point is stated once and holds for every entry point. Workflows are built from
the small helpers below rather than written out as literals, so each test
shows only the wiring that matters to it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

import pytest

import toolwire
from support import DATA, CheckVia, without_places

Json = Dict[str, Any]

TOOL_AVAILABILITY = "tool_availability"
PREFIX = "Workflow compilation failed: "


# --- builders ---------------------------------------------------------------


def node(node_id: str, label: Optional[str] = None, node_type: Optional[str] = "http_request") -> Json:
    """A spec-form node: ``type`` plus ``data.label`` (both optional)."""
    out: Json = {"id": node_id, "data": {}}
    if node_type is not None:
        out["type"] = node_type
    if label is not None:
        out["data"]["label"] = label
    return out


def tool(node_id: str, label: str) -> Json:
    return node(node_id, label, "http_request")


def box(node_id: str, label: str = "Kit", node_type: str = "toolbox") -> Json:
    return node(node_id, label, node_type)


def agent(node_id: str, label: str = "Agent") -> Json:
    return node(node_id, label, "ai_agent")


def wire(source: Any, target: Any, *, by: str = "declaration", edge_id: Optional[str] = None) -> Json:
    """A tool edge from provider ``source`` to receiver ``target`` (EDGE-7),
    declared (``data.edgeType``) or by its target handle (EDGE-5 fallback)."""
    edge: Json = {"source": source, "target": target}
    if by == "declaration":
        edge["data"] = {"edgeType": TOOL_AVAILABILITY}
    elif by == "handle":
        edge["targetHandle"] = f"{target}-input-tool"
    else:
        raise ValueError(by)
    if edge_id is not None:
        edge["id"] = edge_id
    return edge


def chain(*ids: str, by: str = "declaration") -> List[Json]:
    """Tool edges along ``ids``: ``chain("t", "box", "agent")`` is t -> box -> agent."""
    return [wire(a, b, by=by) for a, b in zip(ids, ids[1:])]


def edge(source: Any, target: Any, *, edge_type: Any = None, handle: Optional[str] = None, **extra: Any) -> Json:
    """Any edge: ``edge_type`` goes to ``data.edgeType`` when given."""
    out: Json = {"source": source, "target": target, **extra}
    if edge_type is not None:
        out["data"] = {"edgeType": edge_type}
    if handle is not None:
        out["targetHandle"] = handle
    return out


def workflow(nodes: Iterable[Json] = (), edges: Iterable[Json] = ()) -> Json:
    return {"nodes": list(nodes), "edges": list(edges)}


# --- reading reports ----------------------------------------------------------

Collision = Tuple[str, str, List[Tuple[str, List[str]]]]


def collisions(report: toolwire.Report) -> List[Collision]:
    """CMP-9 violations as ``(consumer, name, [(tool id, path), ...])``, in
    report order, so one comparison checks content and order together."""
    return [
        (v.consumer or "", v.name or "", [(t.id, list(t.path)) for t in v.tools])
        for v in report.violations
        if v.rule == "CMP-9"
    ]


def edge5(report: toolwire.Report) -> List[Tuple[int, Optional[str], Optional[str]]]:
    return [(v.edge or 0, v.edge_id, v.edge_type) for v in report.violations if v.rule == "EDGE-5"]


def stats(report: toolwire.Report) -> Dict[str, int]:
    assert report.stats is not None  # only reports of unreadable files lack stats
    return report.stats.to_dict()


def two_tools_into_one_agent(*, by: str = "declaration") -> Json:
    """The smallest refused workflow: two "Search" tools wired straight into one agent."""
    return workflow(
        [tool("t1", "Search"), tool("t2", "search"), agent("ag")],
        [wire("t1", "ag", by=by), wire("t2", "ag", by=by)],
    )


# --- 1. The document (EDGE-2) -------------------------------------------------


@pytest.mark.parametrize(
    "document",
    [{}, {"nodes": None, "edges": None}, {"nodes": {}, "edges": {}}, {"nodes": [], "edges": []}],
    ids=["absent", "null", "empty-object", "empty-array"],
)
def test_edge2_absent_null_or_empty_object_lists_are_empty(check_via: CheckVia, document: Json) -> None:
    report = check_via(document)
    assert report.ok
    assert stats(report) == {"nodes": 0, "edges": 0, "tool_edges": 0, "consumers": 0, "passthroughs": 0}


def test_edge2_empty_object_edges_beside_real_nodes_is_no_edges(check_via: CheckVia) -> None:
    # Drupal's config export writes an empty PHP array as {}: the nodes still count.
    report = check_via({"nodes": [tool("t1", "Search"), tool("t2", "Search")], "edges": {}})
    assert report.ok
    assert stats(report)["nodes"] == 2 and stats(report)["edges"] == 0


@pytest.mark.parametrize(
    ("key", "value"),
    [("nodes", "abc"), ("nodes", 3), ("nodes", {"0": {"id": "a"}}), ("edges", True), ("edges", "[]")],
)
def test_edge2_any_other_non_array_list_is_an_input_error(check_via: CheckVia, key: str, value: Any) -> None:
    with pytest.raises(toolwire.WorkflowError) as raised:
        check_via({key: value})
    assert key in raised.value.message


@pytest.mark.parametrize("document", [[], "workflow", 42, None], ids=["array", "string", "number", "null"])
def test_document_that_is_not_an_object_is_an_input_error(check_via: CheckVia, document: Any) -> None:
    with pytest.raises(toolwire.WorkflowError):
        check_via(document)


def test_every_other_top_level_key_is_ignored(check_via: CheckVia) -> None:
    # A Drupal config entity around the workflow, including keys that look
    # like workflow parts ("metadata", "input_ports"), changes nothing.
    bare = two_tools_into_one_agent()
    wrapped = {
        "uuid": "0b0e4c4e-0000-4000-8000-000000000000",
        "langcode": "en",
        "dependencies": {},
        "id": "demo",
        "label": "Demo",
        "metadata": {"edgeType": "nonsense", "nodes": 7},
        "input_ports": [{"id": "x", "targetHandle": "x-input-tool"}],
        **bare,
        "schema_version": 2,
    }
    assert collisions(check_via(wrapped)) == collisions(check_via(bare)) != []


def test_everything_not_named_is_ignored(check_via: CheckVia) -> None:
    # Positions, config, port metadata, styling, and handles other than
    # targetHandle: a sourceHandle ending in -input-tool makes nothing a tool edge.
    noisy = workflow(
        [
            {**tool("t1", "Search"), "position": {"x": 1, "y": 2}, "measured": {"width": 280}, "selected": True},
            {**tool("t2", "Search"), "data": {"label": "Search", "config": {"label": "Other"}, "ports": ["tool"]}},
            {**tool("t3", "Search"), "extensions": {"ui": {"hidden": []}}},
            agent("ag"),
        ],
        [
            {**wire("t1", "ag"), "style": "stroke: red", "markerEnd": {"type": "arrowclosed"}, "class": "x"},
            {"source": "t2", "target": "ag", "sourceHandle": "t2-input-tool", "targetHandle": "ag-input-message"},
            {"source": "t3", "target": "ag", "sourceHandle": "t3-output-tool", "data": {"tool": True}},
        ],
    )
    report = check_via(noisy)
    assert report.ok
    assert stats(report)["tool_edges"] == 1


# --- 2. Nodes (R2, SCH-25, R8) -------------------------------------------------


@pytest.mark.parametrize(
    "bad_node",
    [{"data": {"label": "no id"}}, {"id": ""}, {"id": 7}, {"id": None}, {"id": ["a"]}],
    ids=["missing", "empty", "number", "null", "array"],
)
def test_r2_node_without_a_non_empty_string_id_is_an_input_error_naming_its_index(
    check_via: CheckVia, bad_node: Json
) -> None:
    with pytest.raises(toolwire.WorkflowError) as raised:
        check_via(workflow([tool("t0", "Fine"), bad_node]))
    assert "node 1" in raised.value.message


def test_r2_node_that_is_not_an_object_is_an_input_error_naming_its_index(check_via: CheckVia) -> None:
    with pytest.raises(toolwire.WorkflowError) as raised:
        check_via(workflow([tool("t0", "Fine"), tool("t1", "Fine"), "t2"]))  # type: ignore[list-item]
    assert "node 2" in raised.value.message


def test_r2_duplicate_node_ids_are_an_input_error(check_via: CheckVia) -> None:
    document = workflow([tool("dup_node_7", "A"), tool("other", "B"), agent("dup_node_7")])
    with pytest.raises(toolwire.WorkflowError) as raised:
        check_via(document)
    assert "dup_node_7" in raised.value.message


def test_input_error_lone_surrogate_in_a_node_id_is_a_workflow_error(check_via: CheckVia) -> None:
    # check_json reports the escaped lone surrogate as bad input; the dict of
    # json.loads(the same text) must get the same kind of error, not a bare
    # codec error without the node's index.
    document = workflow([tool("t\ud800", "Search"), tool("t2", "Search"), agent("ag")], [wire("t2", "ag")])
    with pytest.raises(toolwire.WorkflowError):
        check_via(document)


def _box_under_test(candidate: Json) -> Json:
    """t1 -> candidate -> ag and t2 -> ag, both tools named "search": refused
    exactly when ``candidate`` (id "x") is a passthrough, since only then does
    t1 land on ag. A non-passthrough "x" is a leaf named after its own label."""
    return workflow(
        [tool("t1", "Search"), tool("t2", "Search"), candidate, agent("ag")],
        [wire("t1", "x"), wire("x", "ag"), wire("t2", "ag")],
    )


@pytest.mark.parametrize(
    ("candidate", "passthrough"),
    [
        ({"id": "x", "type": "toolbox"}, True),
        ({"id": "x", "type": "flowdrop_node_processor_toolbox"}, True),
        # SCH-25 enrichment: the type id moves to data.metadata.id.
        ({"id": "x", "type": "universalNode", "data": {"metadata": {"id": "toolbox"}}}, True),
        # FlowDrop for Drupal 2.x: no type, data.metadata.node_type_id.
        ({"id": "x", "data": {"metadata": {"node_type_id": "flowdrop_node_processor_toolbox"}}}, True),
        ({"id": "x", "data": {"metadata": {"id": "toolbox"}}}, True),
        # node_type_id comes first; a non-string one is skipped.
        ({"id": "x", "data": {"metadata": {"node_type_id": "agent", "id": "toolbox"}}}, False),
        ({"id": "x", "data": {"metadata": {"node_type_id": 5, "id": "toolbox"}}}, True),
        ({"id": "x", "type": "universalNode", "data": {"metadata": {"node_type_id": "toolbox", "id": "agent"}}}, True),
        # A string type other than universalNode wins over metadata.
        ({"id": "x", "type": "ai_agent", "data": {"metadata": {"id": "toolbox"}}}, False),
        # A type that is not a string is no type: fall back to metadata.
        ({"id": "x", "type": 7, "data": {"metadata": {"id": "toolbox"}}}, True),
        # No type anywhere.
        ({"id": "x", "type": "universalNode"}, False),
        ({"id": "x", "type": "universalNode", "data": {"metadata": "toolbox"}}, False),
        ({"id": "x", "data": {"label": "toolbox"}}, False),
    ],
    ids=[
        "type-toolbox",
        "type-drupal-toolbox",
        "universalNode-metadata-id",
        "drupal-node_type_id",
        "no-type-metadata-id",
        "node_type_id-before-metadata-id",
        "non-string-node_type_id-skipped",
        "universalNode-node_type_id",
        "type-wins-over-metadata",
        "non-string-type-falls-back",
        "universalNode-without-metadata",
        "metadata-not-an-object",
        "label-is-not-a-type",
    ],
)
def test_sch25_node_type_resolution(check_via: CheckVia, candidate: Json, passthrough: bool) -> None:
    report = check_via(_box_under_test(candidate))
    assert stats(report)["passthroughs"] == int(passthrough)
    if passthrough:
        assert collisions(report) == [("ag", "search", [("t1", ["t1", "x", "ag"]), ("t2", ["t2", "ag"])])]
    else:
        assert report.ok


@pytest.mark.parametrize(
    "data",
    [None, {}, {"label": ""}, {"label": None}, {"label": 5}, {"label": ["Search"]}, "Search"],
    ids=["no-data", "no-label", "empty", "null", "number", "array", "data-not-an-object"],
)
def test_label_falls_back_to_the_node_id(check_via: CheckVia, data: Any) -> None:
    # The node id "Search" names the tool when it has no usable label.
    unlabelled: Json = {"id": "Search", "type": "http_request"}
    if data is not None:
        unlabelled["data"] = data
    report = check_via(
        workflow([unlabelled, tool("t2", "search"), agent("ag")], [wire("Search", "ag"), wire("t2", "ag")])
    )
    assert collisions(report) == [("ag", "search", [("Search", ["Search", "ag"]), ("t2", ["t2", "ag"])])]
    assert [t.label for t in report.violations[0].tools] == ["Search", "search"]


def test_r8_undeclared_nodes_are_allowed_with_a_warning(check_via: CheckVia) -> None:
    # The consumer "ag" and the provider "web_search" are never declared.
    # The data edge from "ghost" is not tool wiring, so it is never looked at.
    document = workflow(
        [tool("t1", "Web Search")],
        [edge("ghost", "t1", edge_type="data"), wire("t1", "ag"), wire("web_search", "ag"), wire("t1", "ag")],
    )
    report = check_via(document)
    assert [(w.code, w.node, w.edge) for w in report.warnings] == [("R8", "ag", 1), ("R8", "web_search", 2)]
    # An undeclared node's label is its id.
    assert collisions(report) == [("ag", "web_search", [("t1", ["t1", "ag"]), ("web_search", ["web_search", "ag"])])]
    assert report.violations[0].tools[1].label == "web_search"
    assert stats(report)["nodes"] == 1 and stats(report)["consumers"] == 1


def test_r8_undeclared_node_has_no_type_so_it_forwards_nothing(check_via: CheckVia) -> None:
    # "toolbox" is only an id here: undeclared, it is a leaf named "toolbox".
    document = workflow(
        [tool("t1", "Search"), tool("t2", "Search")],
        [*chain("t1", "toolbox", "ag"), wire("t2", "ag")],
    )
    report = check_via(document)
    assert report.ok
    assert stats(report)["passthroughs"] == 0
    assert stats(report)["consumers"] == 2  # "toolbox" receives t1, "ag" receives the rest


# --- 3. Which edges are tool wiring (EDGE-5, EDGE-1, EDGE-7) ---------------------


def _tool_edge_under_test(candidate: Json) -> Json:
    """A "Search" tool wired to ag by ``candidate`` (t1 -> ag) plus one by a
    plain declaration: refused exactly when ``candidate`` is a tool edge."""
    return workflow([tool("t1", "Search"), tool("t2", "Search"), agent("ag")], [candidate, wire("t2", "ag")])


@pytest.mark.parametrize("handle", [None, "ag-input-message", "ag-input-tools", "ag-output-tool"])
def test_edge5_tool_availability_declaration_is_a_tool_edge_whatever_the_handle(
    check_via: CheckVia, handle: Optional[str]
) -> None:
    report = check_via(_tool_edge_under_test(edge("t1", "ag", edge_type=TOOL_AVAILABILITY, handle=handle)))
    assert [c[:2] for c in collisions(report)] == [("ag", "search")]


@pytest.mark.parametrize("declared", ["data", "trigger", "loopback", "error"])
def test_edge5_recognised_non_tool_declaration_overrides_a_tool_handle(check_via: CheckVia, declared: str) -> None:
    report = check_via(_tool_edge_under_test(edge("t1", "ag", edge_type=declared, handle="ag-input-tool")))
    assert report.ok
    assert stats(report)["tool_edges"] == 1


def test_edge5_unrecognised_declaration_is_a_violation_not_silence(check_via: CheckVia) -> None:
    # The typo would have created a collision; it must not switch the check off.
    typo = edge("t1", "ag", edge_type="tool_availabilty", handle="ag-input-tool", id="e_typo")
    report = check_via(_tool_edge_under_test(typo))
    assert not report.ok
    assert edge5(report) == [(0, "e_typo", "tool_availabilty")]
    assert "tool_availabilty" in report.violations[0].message
    # ... and the edge counts as not a tool edge.
    assert collisions(report) == []
    assert stats(report)["tool_edges"] == 1


def test_edge5_unrecognised_declarations_are_each_reported_with_their_edge(check_via: CheckVia) -> None:
    document = workflow(
        [],
        [edge("a", "b", edge_type="data"), edge("a", "b", edge_type="tool"), edge("a", "b", edge_type="Data", id="e2")],
    )
    report = check_via(document)
    assert edge5(report) == [(1, None, "tool"), (2, "e2", "Data")]
    assert all(v.rule == "EDGE-5" for v in report.violations)


@pytest.mark.parametrize(
    "data",
    [{"edgeType": ""}, {"edgeType": None}, {"edgeType": 5}, {"edgeType": ["data"]}, {"edgeType": {}}, {}, "data", None],
    ids=["empty", "null", "number", "array", "object", "absent", "data-not-an-object", "no-data"],
)
def test_edge5_non_string_or_empty_declaration_falls_back_to_the_handle(check_via: CheckVia, data: Any) -> None:
    def with_data(handle: str) -> Json:
        out = edge("t1", "ag", handle=handle)
        if data is not None:
            out["data"] = data
        return out

    assert not check_via(_tool_edge_under_test(with_data("ag-input-tool"))).ok
    fallback_to_plain_handle = check_via(_tool_edge_under_test(with_data("ag-input-message")))
    assert fallback_to_plain_handle.ok
    assert edge5(fallback_to_plain_handle) == []


@pytest.mark.parametrize(
    "handle",
    ["ag-input-tools", "ag-input-tool-2", "ag-input-toolbox", "ag-input-tool ", "ag-input-TOOL", "-input-tool-x", "tool"],
)
def test_edge1_input_tools_and_input_tool_2_are_not_tool_edges(check_via: CheckVia, handle: str) -> None:
    # EDGE-1: exact suffix match, never a substring match.
    report = check_via(_tool_edge_under_test(edge("t1", "ag", handle=handle)))
    assert report.ok
    assert stats(report)["tool_edges"] == 1


@pytest.mark.parametrize("handle", ["ag-input-tool", "-input-tool", "ag-output-x-input-tool", "anything-input-tool"])
def test_edge1_a_handle_ending_in_input_tool_is_a_tool_edge(check_via: CheckVia, handle: str) -> None:
    # The suffix is all that counts: not the node id inside the handle.
    report = check_via(_tool_edge_under_test(edge("t1", "ag", handle=handle)))
    assert [c[:2] for c in collisions(report)] == [("ag", "search")]


def test_edge7_tool_edges_run_from_source_to_target(check_via: CheckVia) -> None:
    # Reversed, the same two edges make t1 and t2 consumers of one tool each.
    forward = check_via(two_tools_into_one_agent())
    reversed_ = check_via(
        workflow([tool("t1", "Search"), tool("t2", "search"), agent("ag")], [wire("ag", "t1"), wire("ag", "t2")])
    )
    assert [c[0] for c in collisions(forward)] == ["ag"]
    assert reversed_.ok and stats(reversed_)["consumers"] == 2


@pytest.mark.parametrize(
    ("fields", "wrong_end"),
    [
        ({"target": "ag"}, "source"),
        ({"source": "t1"}, "target"),
        ({"source": "", "target": "ag"}, "source"),
        ({"source": "t1", "target": ""}, "target"),
        ({"source": 1, "target": "ag"}, "source"),
        ({"source": "t1", "target": None}, "target"),
        ({"source": ["t1"], "target": "ag"}, "source"),
    ],
)
@pytest.mark.parametrize("edge_id", ["e_bad", None])
def test_edge7_tool_edge_without_source_or_target_is_an_input_error_naming_the_edge(
    check_via: CheckVia, fields: Json, wrong_end: str, edge_id: Optional[str]
) -> None:
    bad: Json = {**fields, "data": {"edgeType": TOOL_AVAILABILITY}}
    if edge_id is not None:
        bad["id"] = edge_id
    document = workflow([tool("t1", "Search"), agent("ag")], [edge("t1", "ag", edge_type="data"), wire("t1", "ag"), bad])
    with pytest.raises(toolwire.WorkflowError) as raised:
        check_via(document)
    message = raised.value.message
    assert "edge 2" in message
    assert wrong_end in message
    if edge_id is not None:
        assert edge_id in message


def test_edge7_a_handle_classified_tool_edge_needs_endpoints_too(check_via: CheckVia) -> None:
    with pytest.raises(toolwire.WorkflowError) as raised:
        check_via(workflow([], [{"id": "e0", "source": "t1", "targetHandle": "ag-input-tool"}]))
    assert "edge 0" in raised.value.message and "e0" in raised.value.message


@pytest.mark.parametrize(
    "ignored",
    [
        {"source": 12, "target": "ag", "data": {"edgeType": "data"}},
        {"source": None, "target": ["x"], "data": {"edgeType": "trigger"}},
        {"targetHandle": "ag-input-message"},
        {},
        {"source": "t1", "target": "nowhere", "targetHandle": "nowhere-input-tools"},
    ],
    ids=["numeric-source", "junk-endpoints", "no-endpoints", "empty-edge", "undeclared-target"],
)
def test_non_tool_edges_are_never_inspected(check_via: CheckVia, ignored: Json) -> None:
    report = check_via(workflow([tool("t1", "Search"), agent("ag")], [wire("t1", "ag"), ignored]))
    assert report.ok
    assert report.warnings == []
    assert stats(report)["edges"] == 2 and stats(report)["tool_edges"] == 1


def test_edge5_data_metadata_edge_type_is_a_styling_tag_not_a_declaration(check_via: CheckVia) -> None:
    # Editor exports tag edges with data.metadata.edgeType ("tool", "data",
    # ...). Only data.edgeType declares; the tag neither classifies nor is refused.
    tagged = workflow(
        [tool("t1", "Search"), tool("t2", "Search"), tool("t3", "Search"), agent("ag")],
        [
            {**edge("t1", "ag", handle="ag-input-tool"), "data": {"metadata": {"edgeType": "data"}}},
            {**edge("t2", "ag", handle="ag-input-tools"), "data": {"metadata": {"edgeType": "tool_availability"}}},
            {**edge("t3", "ag", handle="ag-input-message"), "data": {"metadata": {"edgeType": "tool_availabilty"}}},
        ],
    )
    report = check_via(tagged)
    assert report.ok
    assert stats(report)["tool_edges"] == 1


# --- 4. Passthroughs, consumers, leaves (CMP-9) ---------------------------------


@pytest.mark.parametrize("by", ["declaration", "handle"])
def test_cmp9_passthrough_forwards_every_tool_to_its_consumer(check_via: CheckVia, by: str) -> None:
    document = workflow(
        [tool("t1", "Search"), tool("t2", "Fetch"), tool("t3", "SEARCH"), box("kit"), agent("ag")],
        [wire("t1", "kit", by=by), wire("t2", "kit", by=by), wire("t3", "kit", by=by), wire("kit", "ag", by=by)],
    )
    report = check_via(document)
    assert collisions(report) == [("ag", "search", [("t1", ["t1", "kit", "ag"]), ("t3", ["t3", "kit", "ag"])])]


@pytest.mark.parametrize("by", ["declaration", "handle"])
def test_cmp9_collision_two_hops_down_is_refused(check_via: CheckVia, by: str) -> None:
    document = workflow(
        [tool("deep", "Web Search"), box("outer"), box("inner"), tool("near", "web_search"), agent("ag")],
        [*chain("deep", "inner", "outer", "ag", by=by), wire("near", "ag", by=by)],
    )
    report = check_via(document)
    assert collisions(report) == [
        ("ag", "web_search", [("deep", ["deep", "inner", "outer", "ag"]), ("near", ["near", "ag"])])
    ]


def test_cmp9_any_number_of_hops(check_via: CheckVia) -> None:
    boxes = [f"box_{i:03d}" for i in range(200)]
    document = workflow(
        [tool("far", "Search"), tool("near", "Search"), *(box(b) for b in boxes), agent("ag")],
        [*chain("far", *boxes, "ag"), wire("near", "ag")],
    )
    report = check_via(document)
    assert collisions(report) == [("ag", "search", [("far", ["far", *boxes, "ag"]), ("near", ["near", "ag"])])]


def test_cmp9_diamond_is_one_leaf_not_a_collision(check_via: CheckVia) -> None:
    # t1 reaches ag three ways (two boxes and a direct wire); it is one leaf.
    diamond = workflow(
        [tool("t1", "Search"), box("left"), box("right"), agent("ag")],
        [wire("t1", "left"), wire("t1", "right"), wire("left", "ag"), wire("right", "ag"), wire("t1", "ag")],
    )
    assert check_via(diamond).ok
    # With a real clash added, t1 is still listed once, with its shortest path.
    diamond["nodes"].append(tool("t2", "search"))
    diamond["edges"].append(wire("t2", "left"))
    assert collisions(check_via(diamond)) == [
        ("ag", "search", [("t1", ["t1", "ag"]), ("t2", ["t2", "left", "ag"])])
    ]


def test_cmp9_duplicate_wires_are_one_leaf(check_via: CheckVia) -> None:
    document = workflow([tool("t1", "Search"), box("kit"), agent("ag")], [*chain("t1", "kit", "ag")] * 3)
    assert check_via(document).ok


def test_cmp9_box_cycles_terminate_and_forward_the_union(check_via: CheckVia) -> None:
    # a <-> b <-> c, a self-loop on c, tools entering at every box, and only a
    # feeding the agent: everything in the cycle lands on ag.
    document = workflow(
        [box("a"), box("b"), box("c"), tool("ta", "Search"), tool("tb", "Lookup"), tool("tc", "search"), agent("ag")],
        [
            *chain("a", "b", "c", "b", "a"),
            wire("c", "c"),
            wire("ta", "a"),
            wire("tb", "b"),
            wire("tc", "c"),
            wire("a", "ag"),
        ],
    )
    report = check_via(document)
    assert collisions(report) == [("ag", "search", [("ta", ["ta", "a", "ag"]), ("tc", ["tc", "c", "b", "a", "ag"])])]
    assert stats(report)["consumers"] == 1


def test_cmp9_box_cycle_reaching_no_consumer_terminates(check_via: CheckVia) -> None:
    document = workflow(
        [box("a"), box("b"), tool("t1", "Search"), tool("t2", "Search")],
        [*chain("a", "b", "a"), wire("t1", "a"), wire("t2", "b")],
    )
    report = check_via(document)
    assert report.ok and stats(report)["consumers"] == 0


def test_cmp9_passthrough_label_never_counts(check_via: CheckVia) -> None:
    # The box is labelled like the tool it forwards and like a direct tool.
    document = workflow(
        [box("kit", "Search"), tool("t1", "Fetch"), tool("t2", "Search"), agent("ag")],
        [*chain("t1", "kit", "ag"), wire("t2", "ag")],
    )
    assert check_via(document).ok
    # Two boxes with one label between them are not a collision either.
    two_boxes = workflow(
        [box("k1", "Tools"), box("k2", "Tools"), tool("t1", "A"), tool("t2", "B"), agent("ag")],
        [*chain("t1", "k1", "ag"), *chain("t2", "k2", "ag")],
    )
    assert check_via(two_boxes).ok


def test_cmp9_box_collision_reaching_no_consumer_is_fine(check_via: CheckVia) -> None:
    # The clash inside "kit" is checked only where it lands, and it lands nowhere
    # (a box feeding only another box is still nowhere).
    document = workflow(
        [tool("t1", "Search"), tool("t2", "Search"), box("kit"), box("outer")],
        [wire("t1", "kit"), wire("t2", "kit"), wire("kit", "outer")],
    )
    report = check_via(document)
    assert report.ok
    assert stats(report)["consumers"] == 0


def test_cmp9_agent_used_as_tool_is_a_leaf_and_its_tools_are_not_forwarded(check_via: CheckVia) -> None:
    # inner (an agent) has a "Search" tool and is itself a tool of outer, which
    # has its own "Search": no clash, since inner's tools stay with inner.
    nodes = [tool("t1", "Search"), tool("t2", "Search"), agent("inner", "Helper"), agent("outer")]
    edges = [*chain("t1", "inner", "outer"), wire("t2", "outer")]
    report = check_via(workflow(nodes, edges))
    assert report.ok
    assert stats(report)["consumers"] == 2
    # Named like the tools, inner itself is what clashes, on a direct path.
    nodes[2] = agent("inner", "search")
    assert collisions(check_via(workflow(nodes, edges))) == [
        ("outer", "search", [("inner", ["inner", "outer"]), ("t2", ["t2", "outer"])])
    ]


def test_cmp9_agent_behind_a_box_is_a_leaf_there_too(check_via: CheckVia) -> None:
    document = workflow(
        [tool("t1", "Search"), agent("inner", "Helper"), box("kit"), tool("t2", "Search"), agent("outer")],
        [*chain("t1", "inner", "kit", "outer"), wire("t2", "kit")],
    )
    assert check_via(document).ok


def test_cmp9_consumer_is_any_non_passthrough_tool_target_declared_or_not(check_via: CheckVia) -> None:
    document = workflow(
        [tool("t1", "A"), tool("t2", "B"), box("kit"), agent("ag"), tool("t3", "C")],
        [*chain("t1", "kit", "ag"), wire("t2", "t3"), wire("t2", "ghost"), edge("t1", "t2", edge_type="data")],
    )
    # ag, t3 (a tool receiving a tool) and the undeclared ghost; not kit.
    assert stats(check_via(document))["consumers"] == 3


def test_cmp9_passthrough_types_option_replaces_the_default_set(check_via: CheckVia) -> None:
    document = workflow(
        [tool("t1", "Search"), tool("t2", "Search"), tool("t3", "Search"), box("kit", node_type="kit"), box("tb", "Box")],
        [*chain("t1", "kit", "ag"), *chain("t2", "tb", "ag"), wire("t3", "ag")],
    )
    default = check_via(document)
    assert collisions(default) == [("ag", "search", [("t2", ["t2", "tb", "ag"]), ("t3", ["t3", "ag"])])]
    custom = check_via(document, passthrough_types=["kit"])
    assert collisions(custom) == [("ag", "search", [("t1", ["t1", "kit", "ag"]), ("t3", ["t3", "ag"])])]
    assert stats(custom)["passthroughs"] == 1
    both = check_via(document, passthrough_types=("kit", "toolbox"))
    assert [ids for _, _, ids in collisions(both)] == [
        [("t1", ["t1", "kit", "ag"]), ("t2", ["t2", "tb", "ag"]), ("t3", ["t3", "ag"])]
    ]
    nothing_forwards = check_via(document, passthrough_types=[])
    assert nothing_forwards.ok and stats(nothing_forwards)["passthroughs"] == 0


def test_edge5_edge_types_option_sets_the_recognised_declarations(check_via: CheckVia) -> None:
    document = workflow(
        [tool("t1", "Search"), tool("t2", "Search"), agent("ag")],
        [
            edge("t1", "ag", edge_type="agent_result", handle="ag-input-tool"),
            edge("t2", "ag", edge_type="trigger"),
            wire("t2", "ag"),
        ],
    )
    default = check_via(document)
    assert edge5(default) == [(0, None, "agent_result")]
    custom = check_via(document, edge_types=["agent_result", "trigger"])
    assert custom.ok  # agent_result now recognised: not a tool edge, not a violation
    # tool_availability stays a tool edge even when the option leaves it out,
    # and the defaults are replaced, not extended: "trigger" is now unknown.
    narrow = check_via(document, edge_types=["agent_result"])
    assert edge5(narrow) == [(1, None, "trigger")]
    assert stats(narrow)["tool_edges"] == 1


# --- 5. Names --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("Web Search", "web_search"),
        ("web-search", "web_search"),
        ("WEB_SEARCH!", "web_search"),
        ("Get User (Admin)", "get_user_admin"),
        ("GetWeatherData", "getweatherdata"),
        ("Café Search", "caf_search"),
        ("日本語", "unnamed_tool"),
    ],
)
def test_name_sanitiser_section_5_examples(label: str, name: str) -> None:
    assert toolwire.normalize_name(label) == name


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("", "unnamed_tool"),
        ("___", "unnamed_tool"),
        ("  !! ", "unnamed_tool"),
        ("__a -- b__", "a_b"),
        ("a\u00a0\tb", "a_b"),
        ("v2 API", "v2_api"),
        ("007", "007"),
        ("already_fine", "already_fine"),
        ("ÀB", "b"),  # only ASCII A-Z change case; À is dropped
        ("İstanbul", "stanbul"),  # no Unicode case mapping (which would give "i̇stanbul")
        ("Straße", "stra_e"),
        ("tool\U0001f600name", "tool_name"),
    ],
)
def test_name_sanitiser_rules(label: str, name: str) -> None:
    assert toolwire.normalize_name(label) == name


def test_cmp9_names_collide_after_sanitising(check_via: CheckVia) -> None:
    labels = {"t1": "Web Search", "t2": "web-search", "t3": "WEB_SEARCH!", "t4": "websearch"}
    document = workflow(
        [*(tool(i, label) for i, label in labels.items()), agent("ag")], [wire(i, "ag") for i in labels]
    )
    (violation,) = check_via(document).violations
    assert (violation.consumer, violation.name) == ("ag", "web_search")
    assert [(t.id, t.label) for t in violation.tools] == [("t1", "Web Search"), ("t2", "web-search"), ("t3", "WEB_SEARCH!")]


def test_cmp9_lossy_names_collide_and_the_report_shows_the_raw_labels(check_via: CheckVia) -> None:
    # Non-ASCII labels are where users get surprised: the report must show
    # what was written, not only the sanitised name.
    document = workflow(
        [tool("jp", "日本語"), tool("zh", "中文"), tool("cafe", "Café"), tool("caf", "CAF"), agent("ag")],
        [wire(i, "ag") for i in ("jp", "zh", "cafe", "caf")],
    )
    report = check_via(document)
    assert [(v.name, [(t.id, t.label) for t in v.tools]) for v in report.violations] == [
        ("caf", [("caf", "CAF"), ("cafe", "Café")]),
        ("unnamed_tool", [("jp", "日本語"), ("zh", "中文")]),
    ]
    for violation in report.violations:
        for t in violation.tools:
            assert t.label in violation.message


@pytest.mark.parametrize("bad", [None, 5, b"Web Search"])
def test_normalize_name_takes_a_str(bad: Any) -> None:
    with pytest.raises(TypeError):
        toolwire.normalize_name(bad)


# --- 6. The verdict (CMP-9) ----------------------------------------------------------


def test_cmp9_every_colliding_leaf_is_listed_not_just_two(check_via: CheckVia) -> None:
    ids = ["t5", "t1", "t4", "t2", "t3"]
    document = workflow(
        [*(tool(i, "Search") for i in ids), box("kit"), agent("ag")],
        [*(wire(i, "kit") for i in ids[:3]), *(wire(i, "ag") for i in ids[3:]), wire("kit", "ag")],
    )
    (violation,) = check_via(document).violations
    assert [t.id for t in violation.tools] == ["t1", "t2", "t3", "t4", "t5"]
    assert [len(t.path) for t in violation.tools] == [3, 2, 2, 3, 3]


def test_cmp9_same_name_at_two_consumers_is_accepted(check_via: CheckVia) -> None:
    # One "Search" each at a1 and a2, and a shared box giving both a "Fetch".
    document = workflow(
        [tool("s1", "Search"), tool("s2", "search"), tool("f", "Fetch"), box("kit"), agent("a1"), agent("a2")],
        [wire("s1", "a1"), wire("s2", "a2"), wire("f", "kit"), wire("kit", "a1"), wire("kit", "a2")],
    )
    report = check_via(document)
    assert report.ok
    assert stats(report)["consumers"] == 2


def test_cmp9_one_violation_per_consumer_and_name(check_via: CheckVia) -> None:
    # A shared box with a clash lands on two consumers: one violation at each.
    # a1 also has a second clash under another name.
    document = workflow(
        [tool("s1", "Search"), tool("s2", "Search"), tool("f1", "Fetch"), tool("f2", "fetch"), box("kit")],
        [wire("s1", "kit"), wire("s2", "kit"), wire("kit", "a1"), wire("kit", "a2"), wire("f1", "a1"), wire("f2", "a1")],
    )
    assert [(c, n) for c, n, _ in collisions(check_via(document))] == [
        ("a1", "fetch"),
        ("a1", "search"),
        ("a2", "search"),
    ]


def test_cmp9_paths_are_shortest(check_via: CheckVia) -> None:
    # far reaches ag by a 3-box route and a 1-box route; near by 2 boxes and
    # direct. The wires are listed longest route first.
    document = workflow(
        [tool("far", "Search"), tool("near", "Search"), *(box(b) for b in ("b1", "b2", "b3", "short")), agent("ag")],
        [
            *chain("far", "b1", "b2", "b3", "ag"),
            *chain("far", "short", "ag"),
            *chain("near", "b2", "b3", "ag"),
            wire("near", "ag"),
        ],
    )
    assert collisions(check_via(document)) == [
        ("ag", "search", [("far", ["far", "short", "ag"]), ("near", ["near", "ag"])])
    ]


def test_cmp9_path_never_runs_through_a_non_passthrough(check_via: CheckVia) -> None:
    # t1 -> helper -> ag is shorter than t1 -> k1 -> k2 -> ag, but helper is an
    # agent, so it is not a route for t1 (it is a leaf of its own).
    document = workflow(
        [tool("t1", "Search"), tool("t2", "Search"), agent("helper", "Helper"), box("k1"), box("k2"), agent("ag")],
        [*chain("t1", "helper", "ag"), *chain("t1", "k1", "k2", "ag"), wire("t2", "ag")],
    )
    assert collisions(check_via(document)) == [
        ("ag", "search", [("t1", ["t1", "k1", "k2", "ag"]), ("t2", ["t2", "ag"])])
    ]


def test_cmp9_path_with_ties_is_one_valid_shortest_chain(check_via: CheckVia) -> None:
    document = workflow(
        [tool("t1", "Search"), tool("t2", "Search"), box("p"), box("q"), agent("ag")],
        [*chain("t1", "q", "ag"), *chain("t1", "p", "ag"), wire("t2", "ag")],
    )
    ((_, _, tools),) = collisions(check_via(document))
    assert tools[0][1] in (["t1", "p", "ag"], ["t1", "q", "ag"])
    assert tools[1] == ("t2", ["t2", "ag"])


def test_cmp9_violations_by_consumer_then_name_and_tools_by_id_in_code_point_order(check_via: CheckVia) -> None:
    # Plain code point order: upper case before lower case, U+FFFF before
    # U+1F600 (UTF-16 order would swap those two), "_" between digits and letters.
    consumers = ["b", "B", "a", "\U0001f600", "\uffff", "é"]
    names = ["zeta", "a_b", "ab", "a1"]
    tool_ids = ["x", "X", "\U0001f600", "\uffff", "_"]
    nodes = []
    edges = []
    for c in consumers:
        for n in names:
            for t in tool_ids:
                nodes.append(tool(f"{c}/{n}/{t}", n))
                edges.append(wire(f"{c}/{n}/{t}", c))
    random.Random(7).shuffle(nodes)
    random.Random(8).shuffle(edges)
    found = [(c, n, [i for i, _ in ts]) for c, n, ts in collisions(check_via(workflow(nodes, edges)))]
    expected = [
        (c, n, [f"{c}/{n}/{t}" for t in sorted(tool_ids)]) for c in sorted(consumers) for n in sorted(names)
    ]
    assert found == expected
    assert expected[0][0] == "B" and expected[0][1] == "a1"  # the test's own premise


def test_cmp9_verdict_does_not_depend_on_document_order(check_via: CheckVia) -> None:
    # Shortest paths here are unique, so the whole report must be identical
    # whatever order nodes and edges come in.
    nodes = [tool("t1", "Search"), tool("t2", "search"), tool("t3", "Fetch"), tool("t4", "fetch")]
    nodes += [box("k1"), box("k2"), box("k3"), agent("a1"), agent("a2")]
    edges = [*chain("t1", "k1", "k2", "a1"), *chain("t2", "k3", "a1"), wire("t3", "k2"), wire("t4", "a1")]
    edges += [wire("k3", "a2"), wire("t1", "a2"), *chain("k2", "k3")]
    baseline = check_via(workflow(nodes, edges))
    assert len(baseline.violations) == 3
    rng = random.Random(2024)
    for _ in range(5):
        shuffled_nodes, shuffled_edges = nodes[:], edges[:]
        rng.shuffle(shuffled_nodes)
        rng.shuffle(shuffled_edges)
        shuffled = check_via(workflow(shuffled_nodes, shuffled_edges))
        assert without_places(shuffled)["violations"] == without_places(baseline)["violations"]


def test_workflow_is_refused_iff_there_is_a_violation(check_via: CheckVia) -> None:
    accepted = check_via(workflow([tool("t1", "Search"), agent("ag")], [wire("t1", "ag")]))
    assert accepted.ok and accepted.violations == []
    only_edge5 = check_via(workflow([], [edge("a", "b", edge_type="tool_avaliability")]))
    assert not only_edge5.ok and [v.rule for v in only_edge5.violations] == ["EDGE-5"]
    both = check_via({**two_tools_into_one_agent(), "edges": [*two_tools_into_one_agent()["edges"], edge("a", "b", edge_type="x")]})
    assert sorted(v.rule for v in both.violations) == ["CMP-9", "EDGE-5"]


def test_cmp9_violation_message_names_consumer_name_and_every_tool(check_via: CheckVia) -> None:
    (violation,) = check_via(two_tools_into_one_agent()).violations
    assert violation.rule == "CMP-9"
    for fragment in ("ag", "search", "t1", "t2", "Search"):
        assert fragment in violation.message


def test_stats_values(check_via: CheckVia) -> None:
    document = workflow(
        [tool("t1", "A"), tool("t2", "B"), box("kit"), box("spare", node_type="flowdrop_node_processor_toolbox"), agent("ag")],
        [
            wire("t1", "kit"),
            wire("t2", "kit", by="handle"),
            wire("kit", "ag"),
            wire("t3", "ghost"),  # both undeclared: not counted as nodes; ghost is a consumer
            edge("ag", "out", edge_type="data"),
            edge("ag", "out", edge_type="trigger", handle="out-input-tool"),
            edge("ag", "out", edge_type="tool_availabilty"),  # EDGE-5, not a tool edge
        ],
    )
    report = check_via(document)
    # nodes: declared only; edges: all of them; passthroughs: declared boxes,
    # wired or not; consumers: non-passthrough tool targets, declared or not.
    assert stats(report) == {"nodes": 5, "edges": 7, "tool_edges": 4, "consumers": 2, "passthroughs": 2}


# --- 7. The failure surface (CMP-1) and input errors -------------------------------------


def test_cmp1_refusal_raises_compilation_error_prefixed_exactly_once(check_via: CheckVia) -> None:
    report = check_via(two_tools_into_one_agent())
    with pytest.raises(toolwire.CompilationError) as raised:
        report.raise_on_failure()
    message = str(raised.value)
    assert message.startswith(PREFIX)
    assert message.count("Workflow compilation failed") == 1
    cause = raised.value.__cause__
    assert isinstance(cause, toolwire.ToolNameCollision)
    assert cause.violations == report.violations
    # The stage's own message follows the prefix.
    assert message == PREFIX + str(cause)


def test_cmp1_edge5_refusal_raises_too(check_via: CheckVia) -> None:
    report = check_via(workflow([], [edge("a", "b", edge_type="tool_availabilty")]))
    with pytest.raises(toolwire.CompilationError) as raised:
        report.raise_on_failure()
    assert isinstance(raised.value.__cause__, toolwire.ToolNameCollision)
    assert [v.rule for v in raised.value.__cause__.violations] == ["EDGE-5"]


def test_cmp1_cause_carries_every_violation(check_via: CheckVia) -> None:
    document = workflow(
        [tool(i, "Search") for i in ("s1", "s2", "s3")] + [tool(i, "Fetch") for i in ("f1", "f2")],
        [wire(i, "ag") for i in ("s1", "s2", "s3", "f1", "f2")] + [edge("x", "y", edge_type="bogus")],
    )
    report = check_via(document)
    with pytest.raises(toolwire.CompilationError) as raised:
        report.raise_on_failure()
    cause = raised.value.__cause__
    assert isinstance(cause, toolwire.ToolNameCollision)
    assert len(cause.violations) == 3
    assert sum(len(v.tools) for v in cause.violations) == 5


def test_cmp1_accepted_report_does_not_raise(check_via: CheckVia) -> None:
    report = check_via(workflow([tool("t1", "Search"), agent("ag")], [wire("t1", "ag")]))
    report.raise_on_failure()  # must not raise


def test_cmp1_prefix_is_never_doubled() -> None:
    assert str(toolwire.CompilationError(PREFIX + "stage said no")) == PREFIX + "stage said no"


def test_input_errors_are_not_refusals(check_via: CheckVia) -> None:
    # An input error is raised, never reported as a violation or a CompilationError.
    with pytest.raises(toolwire.WorkflowError) as raised:
        check_via(workflow([tool("a", "A"), tool("a", "B")]))
    assert isinstance(raised.value, ValueError)
    assert not isinstance(raised.value, toolwire.CompilationError)


def test_input_error_has_no_position_on_the_dict_path() -> None:
    with pytest.raises(toolwire.WorkflowError) as raised:
        toolwire.check(workflow([tool("a", "A"), tool("a", "B")]))
    assert (raised.value.line, raised.value.column) == (None, None)
    assert raised.value.message


def refusal_of_text(text: str, how: str, tmp_path: Path) -> toolwire.WorkflowError:
    """The WorkflowError that checking `text` raises, given as a str, as
    bytes or in a file (written byte for byte)."""
    with pytest.raises(toolwire.WorkflowError) as raised:
        if how == "str":
            toolwire.check_json(text)
        elif how == "bytes":
            toolwire.check_json(text.encode())
        else:
            path = tmp_path / "broken.json"
            path.write_text(text, encoding="utf-8", newline="")
            toolwire.check_file(path)
    return raised.value


# Texts with a syntax error at a known place: (text, line, column), 1-based,
# column in characters. Each position is also what Python's json module says.
SYNTAX_ERRORS = [
    ('{"nodes": [\n', 2, 1),
    ('{"nodes": []} trailing', 1, 15),
    ("", 1, 1),
    ("{'nodes': []}", 1, 2),
]


@pytest.mark.parametrize(("text", "line", "column"), SYNTAX_ERRORS)
@pytest.mark.parametrize("how", ["str", "bytes", "file"])
def test_input_error_json_syntax_error_has_line_and_column(
    tmp_path: Path, text: str, line: int, column: int, how: str
) -> None:
    with pytest.raises(json.JSONDecodeError) as stdlib:
        json.loads(text)
    assert (stdlib.value.lineno, stdlib.value.colno) == (line, column)  # the test's own premise

    error = refusal_of_text(text, how, tmp_path)
    assert isinstance(error, ValueError)
    assert (error.line, error.column) == (line, column)
    assert error.message


# Trailing commas: (text, the closer after the comma, line, column of the
# comma). Reported at the comma, where the mistake is; Python's json module
# reports it there too from 3.13 on ("Illegal trailing comma before end of
# ..."), and at the closer after it before that.
TRAILING_COMMAS = [
    ('{\n  "nodes": [\n    {"id": "a",}\n  ]\n}', "}", 3, 15),
    ('{"label": "日本語", "nodes": [1,]}', "]", 1, 29),
    ('{"nodes": [{"id": "a"}, \n\t]}', "]", 1, 23),
    ('{"nodes": [{"id": "a", "data": {"position": [1, 2],\r\n}}]}', "}", 1, 51),
]


@pytest.mark.parametrize(("text", "closer", "line", "column"), TRAILING_COMMAS)
@pytest.mark.parametrize("how", ["str", "bytes", "file"])
def test_input_error_trailing_comma_is_located_at_the_comma(
    tmp_path: Path, text: str, closer: str, line: int, column: int, how: str
) -> None:
    assert text.splitlines()[line - 1][column - 1] == ",", "the test's own premise: a comma is there"
    with pytest.raises(json.JSONDecodeError) as stdlib:
        json.loads(text)
    if stdlib.value.msg.startswith("Illegal trailing comma"):
        assert (stdlib.value.lineno, stdlib.value.colno) == (line, column)

    error = refusal_of_text(text, how, tmp_path)
    assert error.message == f"invalid JSON: trailing comma before '{closer}'"
    assert (error.line, error.column) == (line, column)
    assert str(error) == f"{error.message} at line {line}, column {column}"


def test_check_file_accepts_str_and_pathlike(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    path.write_text(json.dumps(two_tools_into_one_agent()), encoding="utf-8")
    assert toolwire.check_file(str(path)).violations == toolwire.check_file(path).violations != []


def test_missing_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        toolwire.check_file(tmp_path / "nope.json")


@pytest.mark.parametrize(
    "call",
    [
        lambda: toolwire.check_json(123),  # type: ignore[arg-type]
        lambda: toolwire.check_json(None),  # type: ignore[arg-type]
        lambda: toolwire.check_json({"nodes": []}),  # type: ignore[arg-type]
        lambda: toolwire.check_file(123),  # type: ignore[arg-type]
        lambda: toolwire.check({}, passthrough_types="toolbox"),
        lambda: toolwire.check({}, edge_types="data"),
        lambda: toolwire.check_json("{}", passthrough_types=[1]),  # type: ignore[list-item]
        lambda: toolwire.check_file("x.json", edge_types=b"data"),  # type: ignore[arg-type]
    ],
    ids=[
        "check_json-int",
        "check_json-None",
        "check_json-dict",
        "check_file-int",
        "passthrough_types-str",
        "edge_types-str",
        "passthrough_types-int-item",
        "edge_types-bytes",
    ],
)
def test_wrong_argument_types_raise_type_error(call: Any) -> None:
    with pytest.raises(TypeError):
        call()


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        toolwire.check({}, ("toolbox",))  # type: ignore[call-arg]


@pytest.mark.parametrize(
    "single",
    [str(DATA / "spec-cmp9-refused.json"), bytes(DATA / "spec-cmp9-refused.json"), DATA / "spec-cmp9-refused.json"],
    ids=["str", "bytes", "PathLike"],
)
def test_check_files_refuses_one_path_for_a_sequence_of_them(single: Any) -> None:
    # A str is a sequence of characters: each would be checked as a file
    # (46 reports for a path of 46 characters).
    with pytest.raises(TypeError) as refused:
        toolwire.check_files(single)
    message = str(refused.value)
    assert message.startswith(f"check_files() takes a sequence of paths, not a single {type(single).__name__} path")
    assert "check_files([path])" in message and "check_file(path)" in message
    assert [r.ok for r in toolwire.check_files([single if not isinstance(single, bytes) else single.decode()])] == [False]


def test_defaults_are_the_semantics_defaults() -> None:
    assert set(toolwire.DEFAULT_PASSTHROUGH_TYPES) == {"toolbox", "flowdrop_node_processor_toolbox"}
    assert set(toolwire.DEFAULT_EDGE_TYPES) == {"data", "trigger", "loopback", "error", "tool_availability"}


# --- 8. The spec's examples (conformance/) ---------------------------------------------


def _example(name: str) -> Json:
    document: Json = json.loads((DATA / name).read_text(encoding="utf-8"))
    return document


def test_spec_cmp9_refused_example_is_refused(check_via: CheckVia) -> None:
    report = check_via(_example("spec-cmp9-refused.json"))
    assert not report.ok
    (violation,) = report.violations
    assert (violation.rule, violation.consumer, violation.name) == ("CMP-9", "agent_1", "web_search")
    assert [(t.id, t.label, t.path) for t in violation.tools] == [
        ("tool_a", "Web Search", ["tool_a", "box_1", "agent_1"]),
        ("tool_b", "web-search", ["tool_b", "box_1", "agent_1"]),
    ]
    assert stats(report) == {"nodes": 3, "edges": 3, "tool_edges": 3, "consumers": 1, "passthroughs": 1}


def test_spec_cmp9_accepted_example_is_accepted(check_via: CheckVia) -> None:
    report = check_via(_example("spec-cmp9-accepted.json"))
    assert report.ok and report.violations == []
    assert stats(report)["consumers"] == 2


@pytest.mark.parametrize("name", ["spec-cmp9-accepted.json", "spec-cmp9-refused.json"])
def test_spec_examples_are_unchanged_copies(shared_dir: Path, name: str) -> None:
    original = json.loads((shared_dir / "conformance" / name).read_text(encoding="utf-8"))
    assert _example(name) == original


# Keep the builders honest: they are what every test above stands on.
def test_builders_write_the_spec_form() -> None:
    assert wire("a", "b") == {"source": "a", "target": "b", "data": {"edgeType": "tool_availability"}}
    assert wire("a", "b", by="handle") == {"source": "a", "target": "b", "targetHandle": "b-input-tool"}
    assert chain("a", "b", "c") == [wire("a", "b"), wire("b", "c")]
    assert box("k") == {"id": "k", "type": "toolbox", "data": {"label": "Kit"}}
