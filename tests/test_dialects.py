"""The three dialects real exports use (SEMANTICS section 9), and the corpus
of real workflows in ``../shared/real-workflows``.

Each dialect is tested as SEMANTICS writes it, then as an export really looks
(positions, config, port metadata, styling, a ``data.metadata.edgeType``
tag), accepted, and with one injected collision that must be refused with an
exact violation. The builders below add the noise; the wiring stays visible in
the tests.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import pytest

import toolwire
from support import SHARED, CheckVia, shared_files

Json = Dict[str, Any]
Collision = Tuple[str, str, List[Tuple[str, str, List[str]]]]


def collisions(report: toolwire.Report) -> List[Collision]:
    """CMP-9 violations as ``(consumer, name, [(id, label, path), ...])``."""
    return [
        (v.consumer or "", v.name or "", [(t.id, t.label, list(t.path)) for t in v.tools])
        for v in report.violations
        if v.rule == "CMP-9"
    ]


def stats(report: toolwire.Report) -> toolwire.Stats:
    assert report.stats is not None  # only reports of unreadable files lack stats
    return report.stats


# --- the miniatures, exactly as SEMANTICS section 9 writes them ---------------

SPEC_AS_WRITTEN: Json = {
    "nodes": [
        {"id": "t1", "type": "http_request", "data": {"label": "Fetch Page"}},
        {"id": "box", "type": "toolbox", "data": {"label": "Kit"}},
        {"id": "ag", "type": "ai_agent", "data": {"label": "Agent"}},
    ],
    "edges": [
        {"source": "t1", "target": "box", "data": {"edgeType": "tool_availability"}},
        {"source": "box", "target": "ag", "data": {"edgeType": "tool_availability"}},
    ],
}

JS_EDITOR_AS_WRITTEN: Json = {
    "nodes": [
        {"id": "t.1", "type": "universalNode", "data": {"label": "Fetch Page", "metadata": {"id": "http_request"}}},
        {"id": "box.1", "type": "universalNode", "data": {"label": "Kit", "metadata": {"id": "toolbox"}}},
    ],
    "edges": [
        {
            "id": "e1",
            "source": "t.1",
            "target": "box.1",
            "sourceHandle": "t.1-output-tool",
            "targetHandle": "box.1-input-tool",
            "data": {"metadata": {"edgeType": "tool"}},
        }
    ],
}

DRUPAL_AS_WRITTEN: Json = {
    "nodes": [
        {"id": "http_request.1", "data": {"label": "Fetch Page", "metadata": {"node_type_id": "http_request"}}},
        {
            "id": "flowdrop_node_processor_toolbox.1",
            "data": {"label": "Tool Box", "metadata": {"node_type_id": "flowdrop_node_processor_toolbox"}},
        },
        {"id": "agent.1", "data": {"label": "Reason", "metadata": {"node_type_id": "agent"}}},
    ],
    "edges": [
        {
            "source": "http_request.1",
            "target": "flowdrop_node_processor_toolbox.1",
            "sourceHandle": "http_request.1-output-tool",
            "targetHandle": "flowdrop_node_processor_toolbox.1-input-tool",
        },
        {
            "source": "flowdrop_node_processor_toolbox.1",
            "target": "agent.1",
            "sourceHandle": "flowdrop_node_processor_toolbox.1-output-tool",
            "targetHandle": "agent.1-input-tool",
        },
    ],
}


def test_the_miniatures_are_copied_from_semantics(shared_dir: Path) -> None:
    text = (shared_dir / "SEMANTICS.md").read_text(encoding="utf-8")
    section_9 = text[text.index("## 9.") :]
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section_9, flags=re.S)]
    assert blocks == [SPEC_AS_WRITTEN, JS_EDITOR_AS_WRITTEN, DRUPAL_AS_WRITTEN]


@pytest.mark.parametrize(
    ("document", "tool_edges", "consumers", "passthroughs"),
    [(SPEC_AS_WRITTEN, 2, 1, 1), (JS_EDITOR_AS_WRITTEN, 1, 0, 1), (DRUPAL_AS_WRITTEN, 2, 1, 1)],
    ids=["spec", "js-editor", "drupal"],
)
def test_each_dialect_is_accepted_as_written(
    check_via: CheckVia, document: Json, tool_edges: int, consumers: int, passthroughs: int
) -> None:
    report = check_via(document)
    assert report.ok and report.warnings == []
    # The counts show each dialect was read, not merely found harmless.
    assert (stats(report).tool_edges, stats(report).consumers, stats(report).passthroughs) == (
        tool_edges,
        consumers,
        passthroughs,
    )


# --- spec form, with noise ----------------------------------------------------------


def spec_node(node_id: str, node_type: str, label: str) -> Json:
    return {
        "id": node_id,
        "type": node_type,
        "position": {"x": 120, "y": -40},
        "data": {"label": label, "config": {"timeout": 30, "label": "not this one"}, "description": "..."},
    }


def spec_tool_edge(source: str, target: str) -> Json:
    return {
        "id": f"{source}->{target}",
        "source": source,
        "target": target,
        "sourceHandle": f"{source}-output-tool",
        "targetHandle": f"{target}-input-tools",  # ignored: the declaration decides
        "data": {"edgeType": "tool_availability", "metadata": {"edgeType": "data"}, "label": "tools"},
    }


def spec_workflow(extra_tools: Sequence[Tuple[str, str]] = ()) -> Json:
    tools = [("t1", "Fetch Page"), *extra_tools]
    return {
        "id": "wf",
        "name": "Spec form",
        "nodes": [
            *(spec_node(i, "http_request", label) for i, label in tools),
            spec_node("box", "toolbox", "Kit"),
            spec_node("ag", "ai_agent", "Agent"),
            spec_node("out", "text_output", "Fetch Page"),
        ],
        "edges": [
            *(spec_tool_edge(i, "box") for i, _ in tools),
            spec_tool_edge("box", "ag"),
            {"id": "d1", "source": "ag", "target": "out", "targetHandle": "out-input-tool", "data": {"edgeType": "data"}},
        ],
        "metadata": {"version": "1.0.0", "edgeType": "tool_availability"},
    }


def test_spec_form_with_noise_is_accepted(check_via: CheckVia) -> None:
    report = check_via(spec_workflow())
    assert report.ok
    assert (stats(report).nodes, stats(report).edges, stats(report).tool_edges) == (4, 3, 2)


def test_spec_form_with_injected_collision_is_refused(check_via: CheckVia) -> None:
    report = check_via(spec_workflow([("t2", "fetch-page")]))
    assert collisions(report) == [
        ("ag", "fetch_page", [("t1", "Fetch Page", ["t1", "box", "ag"]), ("t2", "fetch-page", ["t2", "box", "ag"])])
    ]
    assert [v.rule for v in report.violations] == ["CMP-9"]


# --- JS editor enriched form, with noise ------------------------------------------------


def js_node(node_id: str, type_id: str, label: str, kind: str = "tool") -> Json:
    """``type: universalNode`` with the whole node type copied into
    ``data.metadata`` (SCH-25), as the FlowDrop editor exports it."""
    return {
        "id": node_id,
        "type": "universalNode",
        "position": {"x": -240, "y": 70},
        "deletable": True,
        "selected": False,
        "measured": {"width": 288, "height": 88},
        "data": {
            "label": label,
            "nodeId": node_id,
            "config": {"nodeType": kind, "limit": 50},
            "metadata": {
                "id": type_id,
                "name": label,
                "type": kind,  # the visual kind, not the node type
                "supportedTypes": ["tool", "default"],
                "category": "tools",
                "inputs": [{"id": "tool", "name": "Tool", "type": "input", "dataType": "tool"}],
                "outputs": [{"id": "tool", "name": "Tool", "type": "output", "dataType": "tool"}],
                "configSchema": {"type": "object", "properties": {"nodeType": {"type": "string", "default": kind}}},
            },
        },
    }


def js_edge(source: str, target: str, target_port: str = "tool", tag: str = "tool") -> Json:
    return {
        "id": f"xy-edge__{source}{source}-output-tool-{target}{target}-input-{target_port}",
        "source": source,
        "target": target,
        "sourceHandle": f"{source}-output-tool",
        "targetHandle": f"{target}-input-{target_port}",
        "data": {"metadata": {"edgeType": tag}, "targetNodeType": "universalNode", "targetCategory": "agents"},
        "style": "stroke: grey;",
        "markerEnd": {"type": "arrowclosed", "width": 16, "height": 16, "color": "grey"},
    }


def js_workflow(extra_tools: Sequence[Tuple[str, str]] = ()) -> Json:
    tools = [("t.1", "Fetch Page"), *extra_tools]
    return {
        "id": "0b5c2f2e",
        "name": "Editor export",
        "nodes": [
            *(js_node(i, "http_request", label) for i, label in tools),
            js_node("box.1", "toolbox", "Kit"),
            js_node("agent.1", "simple_agent", "Agent", kind="default"),
        ],
        "edges": [*(js_edge(i, "box.1") for i, _ in tools), js_edge("box.1", "agent.1")],
        "metadata": {"version": "1.0.0", "createdAt": "2025-11-01T10:00:00Z"},
    }


def test_js_editor_form_with_noise_is_accepted(check_via: CheckVia) -> None:
    report = check_via(js_workflow())
    assert report.ok
    assert (stats(report).tool_edges, stats(report).consumers, stats(report).passthroughs) == (2, 1, 1)


def test_js_editor_form_with_injected_collision_is_refused(check_via: CheckVia) -> None:
    report = check_via(js_workflow([("t.2", "FETCH PAGE")]))
    assert collisions(report) == [
        (
            "agent.1",
            "fetch_page",
            [
                ("t.1", "Fetch Page", ["t.1", "box.1", "agent.1"]),
                ("t.2", "FETCH PAGE", ["t.2", "box.1", "agent.1"]),
            ],
        )
    ]


def test_js_editor_plural_tools_port_is_not_tool_wiring(check_via: CheckVia) -> None:
    # The editor demo wires tools into "simple_agent.1-input-tools", tagged
    # edgeType "data". By EDGE-1/EDGE-5 that is not tool wiring, so two
    # same-named tools there are no CMP-9 matter.
    document = {
        "nodes": [js_node("a.1", "content_loader", "Loader"), js_node("b.1", "content_loader", "loader")],
        "edges": [js_edge("a.1", "agent.1", "tools", tag="data"), js_edge("b.1", "agent.1", "tools", tag="data")],
    }
    report = check_via(document)
    assert report.ok and stats(report).tool_edges == 0 and report.warnings == []


# --- FlowDrop for Drupal 2.x export, with noise --------------------------------------------


def drupal_node(node_id: str, label: str) -> Json:
    """No ``type``; the node type id is ``data.metadata.node_type_id``, and
    the id is ``{node_type_id}.{n}``."""
    type_id = node_id.rsplit(".", 1)[0]
    return {
        "id": node_id,
        "position": {"x": -480, "y": -360},
        "data": {
            "label": label,
            "config": {
                "maxRetries": 0,
                "requiresConfirmation": "waive",
                "ports": {"outputs": [{"id": "tool", "exposed": True}, {"id": "error"}], "inputs": [{"id": "trigger"}]},
            },
            "metadata": {"node_type_id": type_id},
            "extensions": {"ui": {"hideUnconnectedHandles": True, "hiddenPorts": {}}},
        },
        "measured": {"width": 280, "height": 382},
    }


def drupal_edge(source: str, target: str, port: str = "tool", tag: str = "tool") -> Json:
    return {
        "id": f"xy-edge__{source}{source}-output-{port}-{target}{target}-input-{port}",
        "source": source,
        "target": target,
        "data": {
            "targetNodeType": "universalNode",
            "targetCategory": "tools",
            "metadata": {"edgeType": tag, "sourcePortDataType": port},
        },
        "sourceHandle": f"{source}-output-{port}",
        "targetHandle": f"{target}-input-{port}",
        "style": "stroke: var(--fd-edge-tool); stroke-dasharray: 5 3;",
        "markerEnd": {"type": "arrowclosed", "width": 16, "height": 16, "color": "var(--fd-edge-tool)"},
        "class": "flowdrop--edge--tool",
    }


TOOLBOX = "flowdrop_node_processor_toolbox.1"
REASON = "aincient_reason.1"


def drupal_workflow(extra_tools: Sequence[Tuple[str, str]] = ()) -> Json:
    """A Drupal config entity: the workflow keys sit among the entity's own."""
    tools = [("http_request.1", "Fetch Page"), ("html_to_markdown.1", "HTML to Markdown"), *extra_tools]
    return {
        "uuid": "4f55cfae-eecd-4628-ac5b-3a8a9814af5a",
        "langcode": "en",
        "status": True,
        "dependencies": {},
        "id": "fetcher",
        "label": "Fetcher",
        "description": "A reasoning step with a tool box.",
        "nodes": [
            drupal_node("chat_input.1", "Chat Input"),
            *(drupal_node(i, label) for i, label in tools),
            drupal_node(TOOLBOX, "Tool Box"),
            drupal_node(REASON, "Reason (agent step)"),
        ],
        "edges": [
            drupal_edge("chat_input.1", REASON, port="message", tag="data"),
            *(drupal_edge(i, TOOLBOX) for i, _ in tools),
            drupal_edge(TOOLBOX, REASON),
        ],
        "metadata": {"edgeType": "tool"},
        "created": 1788390754,
        "input_ports": [],
        "output_ports": None,
        "schema_version": "1.0.1",
    }


def test_drupal_export_with_noise_is_accepted(check_via: CheckVia) -> None:
    report = check_via(drupal_workflow())
    assert report.ok and report.warnings == []
    assert (stats(report).tool_edges, stats(report).consumers, stats(report).passthroughs) == (3, 1, 1)


def test_drupal_export_with_injected_collision_is_refused(check_via: CheckVia) -> None:
    # A sub-workflow used as a tool, labelled like the HTTP request.
    report = check_via(drupal_workflow([("flowdrop_workflow_executor_fetch.1", "fetch page")]))
    assert collisions(report) == [
        (
            REASON,
            "fetch_page",
            [
                ("flowdrop_workflow_executor_fetch.1", "fetch page", ["flowdrop_workflow_executor_fetch.1", TOOLBOX, REASON]),
                ("http_request.1", "Fetch Page", ["http_request.1", TOOLBOX, REASON]),
            ],
        )
    ]


def test_drupal_export_chained_tool_boxes_are_flattened(check_via: CheckVia) -> None:
    # Real exports chain tool -> Tool Box -> Tool Box -> reason.
    document = drupal_workflow()
    outer = "flowdrop_node_processor_toolbox.2"
    document["nodes"] += [drupal_node(outer, "Tool Box"), drupal_node("http_request.2", "fetch_page")]
    document["edges"] += [drupal_edge("http_request.2", outer), drupal_edge(outer, TOOLBOX)]
    assert collisions(check_via(document)) == [
        (
            REASON,
            "fetch_page",
            [
                ("http_request.1", "Fetch Page", ["http_request.1", TOOLBOX, REASON]),
                ("http_request.2", "fetch_page", ["http_request.2", outer, TOOLBOX, REASON]),
            ],
        )
    ]


def test_dialects_mix_in_one_document(check_via: CheckVia) -> None:
    # A Drupal tool and an editor tool, both into a spec-form toolbox.
    document = {
        "nodes": [
            drupal_node("http_request.1", "Fetch Page"),
            js_node("t.1", "http_request", "fetch page"),
            spec_node("box", "toolbox", "Kit"),
        ],
        "edges": [drupal_edge("http_request.1", "box"), js_edge("t.1", "box"), spec_tool_edge("box", "ag")],
    }
    assert [(c, n, [i for i, _, _ in ts]) for c, n, ts in collisions(check_via(document))] == [
        ("ag", "fetch_page", ["http_request.1", "t.1"])
    ]


# --- the real corpus ---------------------------------------------------------------------

REAL_DIR = SHARED / "real-workflows"
# Without ../shared, the directory's own name: each test still runs, and its
# `shared_dir` fixture skips it (fails it in CI).
REAL_FILES = [p.name for p in shared_files(REAL_DIR)]


def sources_table(shared_dir: Path) -> Dict[str, Dict[str, str]]:
    """The per-file table of SOURCES.md, keyed by file name, each row keyed by
    its column header (``N``, ``E``, ``tool``, ``dET``, ...)."""
    rows: Dict[str, Dict[str, str]] = {}
    header: Optional[List[str]] = None
    for line in (shared_dir / "real-workflows" / "SOURCES.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "file":
            header = cells
        elif header is not None and cells[0].endswith(".json"):
            assert len(cells) == len(header), line
            rows[cells[0]] = dict(zip(header, cells))
    return rows


def essentials(report: toolwire.Report) -> Json:
    """A report without the path it was read from."""
    out = report.to_dict()
    del out["path"]
    return out


def test_real_workflow_corpus_matches_sources(shared_dir: Path) -> None:
    assert len(REAL_FILES) == 54
    assert sorted(sources_table(shared_dir)) == REAL_FILES


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_workflow_reads_the_same_through_every_input_path(shared_dir: Path, name: str) -> None:
    path = shared_dir / "real-workflows" / name
    from_file = toolwire.check_file(path)  # an input error would raise here
    with path.open(encoding="utf-8") as f:
        from_dict = toolwire.check(json.load(f))
    from_bytes = toolwire.check_json(path.read_bytes())
    assert essentials(from_file) == essentials(from_dict) == essentials(from_bytes)
    assert from_file.path == str(path)


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_workflow_stats_match_sources(shared_dir: Path, name: str) -> None:
    row = sources_table(shared_dir)[name]
    report = toolwire.check_file(shared_dir / "real-workflows" / name)
    assert stats(report).nodes == int(row["N"])
    assert stats(report).edges == int(row["E"])
    # With no data.edgeType declared (dET = 0), tool wiring is exactly the
    # edges whose targetHandle ends in "-input-tool" (the "tool" column); the
    # "-input-tools" ones (column "tools") are not tool edges.
    assert row["dET"] == "0"
    assert stats(report).tool_edges == int(row["tool"])
    # SOURCES found no dangling edges, so no endpoint is undeclared (R8).
    assert report.warnings == []


def test_real_workflow_totals_match_sources(shared_dir: Path) -> None:
    text = (shared_dir / "real-workflows" / "SOURCES.md").read_text(encoding="utf-8")
    totals = re.search(r"(\d+) workflow files: (\d+) nodes, (\d+) edges; (\d+) edges with targetHandle ending", text)
    assert totals is not None
    files, nodes, edges, tool_edges = map(int, totals.groups())
    reports = [toolwire.check_file(shared_dir / "real-workflows" / name) for name in REAL_FILES]
    assert len(reports) == files
    assert sum(stats(r).nodes for r in reports) == nodes
    assert sum(stats(r).edges for r in reports) == edges
    assert sum(stats(r).tool_edges for r in reports) == tool_edges


def test_real_drupal_tool_boxes_are_passthroughs(shared_dir: Path) -> None:
    # SOURCES: the newest Drupal exports chain tool -> Tool Box -> consumer;
    # every file with a flowdrop_node_processor_toolbox node must count it.
    files_with_boxes = 0
    for name in REAL_FILES:
        document = json.loads((shared_dir / "real-workflows" / name).read_text(encoding="utf-8"))
        nodes = document.get("nodes") or []
        boxes = sum(
            1
            for n in nodes
            if ((n.get("data") or {}).get("metadata") or {}).get("node_type_id") == "flowdrop_node_processor_toolbox"
            and "type" not in n
        )
        if boxes:
            files_with_boxes += 1
            assert stats(toolwire.check(document)).passthroughs == boxes, name
    assert files_with_boxes > 0  # otherwise this test shows nothing
