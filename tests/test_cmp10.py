"""CMP-10 (docs/SEMANTICS.md section 11): tools are wired only to nodes of a
type that accepts tools, as a node-type catalogue says; every clause of the
section, every way in, every format, toolwire.dask's findings, the real
site's catalogue, and catalogues that cannot be used."""

from __future__ import annotations

import io
import pickle
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import jsonschema
import pytest

import toolwire
from toolwire import _catalogue
from toolwire import CatalogueError
from toolwire._formats import Run, writer
from toolwire.cli import main

from support import REPO, SHARED, need_shared

TOOL_INPUT = {"id": "tools", "type": "input", "dataType": "tool"}

EDITOR_LIST = {
    "success": True,
    "data": [
        {"id": "agent", "inputs": [{"id": "prompt", "dataType": "string"}, TOOL_INPUT], "outputs": []},
        {"id": "http_request", "inputs": [{"id": "url", "dataType": "string"}], "outputs": [{"dataType": "tool"}]},
        {"id": "kit", "executor_plugin": "flowdrop_node_processor:toolbox", "inputs": [TOOL_INPUT]},
    ],
}

# t1 and t2 are wired as tools into h (an http_request, which takes no
# tools), t1 into the agent a, t2 into m (a type no catalogue knows), t1 into
# the undeclared ghost and into p (no type at all).
WORKFLOW = """{"nodes": [
  {"id": "t1", "type": "http_request", "data": {"label": "Search"}},
  {"id": "t2", "type": "http_request", "data": {"label": "Fetch"}},
  {"id": "h", "type": "http_request"},
  {"id": "a", "type": "agent"},
  {"id": "m", "type": "mystery"},
  {"id": "p"}],
 "edges": [
  {"id": "e0", "source": "t1", "target": "h", "data": {"edgeType": "tool_availability"}},
  {"source": "t2", "target": "h", "targetHandle": "h-input-tool"},
  {"id": "e2", "source": "t1", "target": "a", "targetHandle": "a-input-tool"},
  {"id": "e3", "source": "t2", "target": "m", "targetHandle": "m-input-tool"},
  {"id": "e4", "source": "t1", "target": "ghost", "targetHandle": "ghost-input-tool"},
  {"id": "e5", "source": "t1", "target": "p", "targetHandle": "p-input-tool"},
  {"id": "e6", "source": "t1", "target": "h", "data": {"edgeType": "data"}}]}
"""


def write(path: Path, document: Any) -> str:
    path.write_text(document if isinstance(document, str) else json.dumps(document, indent=2), encoding="utf-8")
    return str(path)


@pytest.fixture
def catalogue(tmp_path: Path) -> str:
    return write(tmp_path / "nodes.json", EDITOR_LIST)


@pytest.fixture
def workflow(tmp_path: Path) -> str:
    return write(tmp_path / "flow.json", WORKFLOW)


def place_of_node(text: str, node: str) -> Tuple[int, int]:
    """Line and column of the object of node `node` in JSON text."""
    at = text.rfind("{", 0, text.index(f'"id": "{node}"'))
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def cmp10(report: toolwire.Report) -> List[toolwire.Violation]:
    return [v for v in report.violations if v.rule == "CMP-10"]


# --- the verdict ------------------------------------------------------------------


def test_cmp10_a_node_whose_type_takes_no_tools_is_one_violation_listing_every_tool_edge(
    catalogue: str, workflow: str
) -> None:
    report = toolwire.check_file(workflow, node_types=catalogue)
    assert not report.ok and report.stats is not None and report.stats.node_types_checked
    [v] = report.violations
    assert (v.rule, v.consumer, v.node_type) == ("CMP-10", "h", "http_request")
    # Every tool edge into h, with index, id and source; the data edge e6 is no tool edge.
    assert [tuple(e) for e in v.wired_edges] == [(0, "e0", "t1"), (1, None, "t2")]
    assert v.location == toolwire.Location(*place_of_node(WORKFLOW, "h"))
    line, column = place_of_node(json.dumps(EDITOR_LIST, indent=2), "http_request")
    assert v.defined_at == f"{catalogue}:{line}:{column}"
    for said in ('node "h"', '"http_request" does not accept tools', 'edge 0 (id "e0") from "t1"', 'edge 1 from "t2"'):
        assert said in v.message
    # It refuses the workflow as a CMP-9 violation does (CMP-1).
    with pytest.raises(toolwire.CompilationError) as raised:
        report.raise_on_failure()
    assert str(raised.value).startswith("Workflow compilation failed: ")
    assert isinstance(raised.value.__cause__, toolwire.ToolNameCollision)
    assert "CMP-10: " in str(raised.value)


def test_cmp10_unknown_is_a_warning_once_per_type_naming_its_nodes_and_never_a_refusal(catalogue: str) -> None:
    doc = json.loads(WORKFLOW)
    doc["edges"] = [e for e in doc["edges"] if e["target"] != "h"]
    doc["nodes"].append({"id": "m2", "type": "mystery"})
    doc["edges"].append({"source": "t2", "target": "m2", "targetHandle": "m2-input-tool"})
    report = toolwire.check(doc, node_types=catalogue)
    assert report.ok
    unknown = [w for w in report.warnings if w.code == "CMP-10-UNKNOWN"]
    assert [w.node for w in unknown] == ["m", "ghost"]
    assert unknown[0].message.startswith('node type "mystery" is not in the node-type catalogue')
    assert 'the 2 nodes of that type receiving tool edges ("m", "m2")' in unknown[0].message
    # Undeclared, or declared without a type: both have no type.
    assert 'the 2 nodes with no type receiving tool edges ("ghost", "p")' in unknown[1].message


def test_cmp10_without_a_catalogue_is_not_checked_and_the_report_says_so(workflow: str) -> None:
    report = toolwire.check_file(workflow)
    assert report.ok and report.stats is not None and not report.stats.node_types_checked
    assert not [w for w in report.warnings if w.code == "CMP-10-UNKNOWN"]
    assert report.to_dict()["node_types_checked"] is False


def test_cmp10_passthroughs_that_receive_tools_are_checked_too(catalogue: str, workflow: str) -> None:
    # h is made a passthrough by configuration; it still may not take tools.
    report = toolwire.check_file(workflow, node_types=catalogue, passthrough_types=["toolbox", "http_request"])
    assert [v.consumer for v in cmp10(report)] == ["h"]


def test_cmp10_a_type_run_by_the_tool_box_is_a_passthrough_whatever_its_id(catalogue: str) -> None:
    doc = {
        "nodes": [
            {"id": "t1", "data": {"label": "Web Search"}},
            {"id": "t2", "data": {"label": "web-search"}},
            {"id": "k", "data": {"label": "Kit", "metadata": {"node_type_id": "kit"}}},
            {"id": "a", "type": "agent"},
        ],
        "edges": [
            {"source": "t1", "target": "k", "targetHandle": "k-input-tool"},
            {"source": "t2", "target": "k", "targetHandle": "k-input-tool"},
            {"source": "k", "target": "a", "targetHandle": "a-input-tool"},
        ],
    }
    alone = toolwire.check(doc)
    assert [(v.rule, v.consumer) for v in alone.violations] == [("CMP-9", "k")], "kit is no passthrough by default"
    report = toolwire.check(doc, node_types=catalogue)
    assert [(v.rule, v.consumer, v.name) for v in report.violations] == [("CMP-9", "a", "web_search")]
    assert report.stats is not None and report.stats.passthroughs == 1


def test_cmp10_every_way_in_finds_the_same(catalogue: str, workflow: str) -> None:
    def seen(report: toolwire.Report) -> List[Any]:
        return [(v.rule, v.consumer, v.node_type, list(v.wired_edges)) for v in report.violations]

    by_file = toolwire.check_file(workflow, node_types=catalogue)
    expected = seen(by_file)
    assert seen(toolwire.check_json(WORKFLOW, node_types=[catalogue])) == expected
    assert seen(toolwire.check_json(WORKFLOW.encode(), node_types=Path(catalogue))) == expected
    assert seen(toolwire.check(json.loads(WORKFLOW), node_types=catalogue)) == expected
    [batch] = toolwire.check_files([workflow], node_types=catalogue, jobs=2)
    assert seen(batch) == expected and batch.violations[0].location == by_file.violations[0].location


def test_cmp10_the_editor_list_as_a_bare_array_is_the_same_catalogue(tmp_path: Path, workflow: str) -> None:
    bare = write(tmp_path / "bare.json", EDITOR_LIST["data"])
    assert [v.consumer for v in cmp10(toolwire.check_file(workflow, node_types=bare))] == ["h"]


def test_cmp10_violations_follow_edge5_and_lead_cmp9(catalogue: str) -> None:
    doc = json.loads(WORKFLOW)
    doc["nodes"] += [{"id": "x1", "data": {"label": "Same"}}, {"id": "x2", "data": {"label": "same"}}]
    doc["edges"] += [
        {"source": "x1", "target": "a", "targetHandle": "a-input-tool"},
        {"source": "x2", "target": "a", "targetHandle": "a-input-tool"},
        {"id": "typo", "source": "x1", "target": "a", "data": {"edgeType": "tool_availabilty"}},
    ]
    report = toolwire.check(doc, node_types=catalogue)
    assert [v.rule for v in report.violations] == ["EDGE-5", "CMP-10", "CMP-9"]
    assert [g.name for g in report.clash_groups()] == ["same"]


# --- the real data ----------------------------------------------------------------

REAL_SITE = SHARED / "real-sites" / "drupalai-hackathon-2026" / "config" / "sync"
DEMO = SHARED / "real-workflows" / "drupaldemo__demo_ai_content.json"


def test_cmp10_a_real_tool_edge_rewired_to_a_type_that_takes_no_tools_is_refused_where_the_node_is(
    tmp_path: Path,
) -> None:
    # The editor's node list for this workflow is the NodeMetadata its nodes carry.
    original = json.loads(need_shared(DEMO).read_text(encoding="utf-8"))
    listed = write(tmp_path / "nodes.json", {"success": True, "data": [n["data"]["metadata"] for n in original["nodes"]]})
    report = toolwire.check_file(DEMO, node_types=listed)
    assert report.ok and report.stats is not None and report.stats.tool_edges == 1
    [tool_edge] = [e for e in original["edges"] if e["targetHandle"].endswith("-input-tool")]
    index = original["edges"].index(tool_edge)
    tool_edge["target"], tool_edge["targetHandle"] = "text_output.1", "text_output.1-input-tool"
    text = json.dumps(original, indent=2)
    rewired = write(tmp_path / "rewired.json", text)
    [v] = toolwire.check_file(rewired, node_types=listed).violations
    assert (v.rule, v.consumer, v.node_type) == ("CMP-10", "text_output.1", "text_output")
    assert [tuple(e) for e in v.wired_edges] == [(index, tool_edge["id"], "content_loader.1")]
    assert v.location == toolwire.Location(*place_of_node(text, "text_output.1"))


def test_cmp10_the_real_sites_node_types_are_found_in_its_config_directory() -> None:
    files = _catalogue.node_type_files(need_shared(REAL_SITE))
    assert len(files) == 41
    assert all(Path(f).name.startswith("flowdrop_node_type.flowdrop_node_type.") for f in files)
    assert not any(f.endswith("flowdrop_node_type.settings.yml") for f in files), "a settings file is no type"


# --- catalogues that cannot be used -----------------------------------------------


@pytest.mark.parametrize(
    "text, message, line, column",
    [
        ('{"data": [\n', "invalid JSON", 2, 1),
        ('{"success": true}', "no `data` array", 1, 1),
        ('{"data": {}}', "`data` must be an array of node types, got an object", 1, 10),
        ('[{"id": "a"},\n {"inputs": []}]', "node type 1: `id` must be a non-empty string, got missing", 2, 2),
        ('[{"id": "a", "inputs": "tool"}]', "`inputs` must be an array, got a string", 1, 24),
        ('[{"id": "a", "inputs": [null]}]', "input 0 must be an object, got null", 1, 25),
        ('[{"id": "a"},\n {"id": "a"}]', 'node type "a" is defined twice: first at ', 2, 2),
        ("7", "must be an object with a `data` array or an array, got a number", 1, 1),
    ],
)
def test_cmp10_a_malformed_catalogue_is_an_error_naming_file_line_and_column(
    tmp_path: Path, workflow: str, text: str, message: str, line: int, column: int
) -> None:
    bad = write(tmp_path / "bad.json", text)
    with pytest.raises(CatalogueError) as raised:
        toolwire.check_file(workflow, node_types=bad)
    error = raised.value
    assert isinstance(error, toolwire.WorkflowError)
    assert (error.path, error.line, error.column) == (bad, line, column)
    assert message in error.message and bad in str(error)


def test_cmp10_a_type_defined_in_two_files_is_an_error(tmp_path: Path, catalogue: str, workflow: str) -> None:
    again = write(tmp_path / "more.json", [{"id": "extra"}, {"id": "agent"}])
    with pytest.raises(CatalogueError, match="node type \"agent\" is defined twice: first at .*nodes.json:"):
        toolwire.check_file(workflow, node_types=[catalogue, again])


def test_cmp10_a_catalogue_that_cannot_be_had_never_silently_disables_it(tmp_path: Path, workflow: str) -> None:
    with pytest.raises(CatalogueError, match="cannot read the file"):
        toolwire.check_file(workflow, node_types=tmp_path / "missing.json")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CatalogueError, match="holds no node-type files"):
        toolwire.check_file(workflow, node_types=tmp_path / "empty")
    with pytest.raises(ValueError, match="not an empty sequence"):
        toolwire.check_file(workflow, node_types=[])
    with pytest.raises(TypeError):
        toolwire.check_file(workflow, node_types=b"nodes.json")  # type: ignore[arg-type]
    # The batch refuses before checking anything.
    with pytest.raises(CatalogueError):
        toolwire.check_files([workflow], node_types=tmp_path / "missing.json")


# --- every format ---------------------------------------------------------------------


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> Tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cmp10_in_the_text_report_and_its_summary(capsys: pytest.CaptureFixture[str], catalogue: str, workflow: str) -> None:
    code, out, _ = cli(capsys, "check", workflow, "--node-types", catalogue)
    line, column = place_of_node(WORKFLOW, "h")
    assert code == 1
    assert f"{workflow}:{line}:{column}: error[CMP-10]: node \"h\" has 2 tool edges wired to it" in out
    assert "warning[CMP-10-UNKNOWN]" in out and "CMP-10 not checked" not in out
    code, out, _ = cli(capsys, "check", workflow)
    assert code == 0
    assert "note: CMP-10 not checked: no node-type catalogue (--node-types)" in out
    code, out, _ = cli(capsys, "check", workflow, "--ignore", "CMP-10")
    assert "CMP-10 not checked" not in out, "not asked for, so nothing to say"


def test_cmp10_in_json_with_its_schema(capsys: pytest.CaptureFixture[str], catalogue: str, workflow: str) -> None:
    schema = json.loads((REPO / "docs" / "report.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    for listing in ("clashes", "each"):
        code, out, _ = cli(capsys, "check", workflow, "--node-types", catalogue, "--format", "json", "--json-violations", listing)
        document = json.loads(out)
        validator.validate(document)
        assert document["schema_version"] == 6 and document["node_types_checked"] is True
        [file] = document["files"]
        [v] = file["violations"]
        assert (v["rule"], v["consumer"], v["node_type"]) == ("CMP-10", "h", "http_request")
        assert v["edges"] == [{"edge": 0, "edge_id": "e0", "source": "t1"}, {"edge": 1, "edge_id": None, "source": "t2"}]
        assert file["node_types_checked"] is True
        assert document["code_counts"] == {"CMP-10": 1, "R8": 1, "CMP-10-UNKNOWN": 2}
    _, out, _ = cli(capsys, "check", workflow, "--format", "json")
    unchecked = json.loads(out)
    validator.validate(unchecked)
    assert unchecked["node_types_checked"] is False and unchecked["files"][0]["node_types_checked"] is False


def test_cmp10_in_sarif_github_and_junit(capsys: pytest.CaptureFixture[str], catalogue: str, workflow: str) -> None:
    line, column = place_of_node(WORKFLOW, "h")
    _, out, _ = cli(capsys, "check", workflow, "--node-types", catalogue, "--format", "sarif")
    run = json.loads(out)["runs"][0]
    [result] = [r for r in run["results"] if r["ruleId"] == "CMP-10"]
    assert result["level"] == "error"
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": line, "startColumn": column}
    assert result["properties"]["node"] == "h" and len(result["properties"]["edges"]) == 2
    assert "CMP-10" in [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert run["properties"]["nodeTypesChecked"] is True
    _, out, _ = cli(capsys, "check", workflow, "--format", "sarif")
    assert json.loads(out)["runs"][0]["properties"]["nodeTypesChecked"] is False

    _, out, _ = cli(capsys, "check", workflow, "--node-types", catalogue, "--format", "github")
    assert f"::error file={workflow},line={line},col={column},title=CMP-10::node \"h\" has 2 tool edges" in out
    assert "title=CMP-10-UNKNOWN::" in out
    from toolwire._formats.github_format import step_summary

    said = "CMP-10 not checked: no node-type catalogue (--node-types)"
    assert said in step_summary(Run([toolwire.check_file(workflow)], elapsed=0.0))
    assert said not in step_summary(Run([toolwire.check_file(workflow, node_types=catalogue)], elapsed=0.0))

    _, out, _ = cli(capsys, "check", workflow, "--node-types", catalogue, "--format", "junit")
    assert f'name="{workflow}: CMP-10 at h"' in out and '<failure type="CMP-10"' in out
    assert '<property name="node_types_checked" value="true" />' in out
    _, out, _ = cli(capsys, "check", workflow, "--format", "junit")
    assert '<property name="node_types_checked" value="false" />' in out


def test_cmp10_is_selected_and_counted_apart_from_edge5_and_cmp9(
    capsys: pytest.CaptureFixture[str], catalogue: str
) -> None:
    doc = json.loads(WORKFLOW)
    doc["nodes"] += [{"id": "x1", "data": {"label": "Same"}}, {"id": "x2", "data": {"label": "same"}}]
    doc["edges"] += [
        {"source": "x1", "target": "a", "targetHandle": "a-input-tool"},
        {"source": "x2", "target": "a", "targetHandle": "a-input-tool"},
        {"id": "typo", "source": "x1", "target": "a", "data": {"edgeType": "tool_availabilty"}},
    ]
    from toolwire import _select

    report = toolwire.check(doc, node_types=catalogue)
    assert _select.code_counts([report]) == {"CMP-9": 1, "CMP-10": 1, "EDGE-5": 1, "R8": 1, "CMP-10-UNKNOWN": 2}
    for codes, rules in [
        (("CMP-9", "EDGE-5"), ["EDGE-5", "CMP-9"]),
        (("CMP-10", "CMP-9"), ["CMP-10", "CMP-9"]),
        (("CMP-10",), ["CMP-10"]),
        (("EDGE-5", "CMP-10"), ["EDGE-5", "CMP-10"]),
    ]:
        picked = _select.Selection(codes).apply(report)
        assert [v.rule for v in picked.violations] == rules, codes
        assert len(picked.clash_groups()) == ("CMP-9" in codes)


def test_cmp10_with_a_million_tool_edges_into_one_node_stays_linear_in_every_format(catalogue: str) -> None:
    def sizes(edges: int) -> Dict[str, int]:
        # Declared tools, so that no warning (R8) per edge is written.
        doc = {
            "nodes": [{"id": "h", "type": "http_request"}] + [{"id": f"t{i}"} for i in range(edges)],
            "edges": [{"source": f"t{i}", "target": "h", "targetHandle": "h-input-tool"} for i in range(edges)],
        }
        report = toolwire.check(doc, node_types=catalogue)
        [v] = report.violations
        assert len(v.wired_edges) == edges and v.wired_edges[-1].source == f"t{edges - 1}"
        assert len(v.message) < 1_000, "the message names a few edges and counts the rest"
        measured = {}
        for format in ("text", "json", "sarif", "github", "junit"):
            out = io.StringIO()
            writer(format)(Run([report], elapsed=0.0), out)
            measured[format] = len(out.getvalue())
        return measured

    once, twice = sizes(50_000), sizes(100_000)
    for format in ("text", "github", "junit"):
        # Only the counts in the message grow (by a digit).
        assert 0 < twice[format] - once[format] < 10, f"{format} names a few edges and counts the rest"
    for format in ("json", "sarif"):
        assert twice[format] < 2.2 * once[format], f"{format} lists each edge once"


# --- CLI and configuration ------------------------------------------------------


def test_cmp10_cli_and_configuration_take_catalogues(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, catalogue: str, workflow: str
) -> None:
    code, _, err = cli(capsys, "check", workflow, "--node-types", str(tmp_path / "missing.json"))
    assert code == 2 and "--node-types: node-type catalogue" in err and "missing.json" in err
    project = tmp_path / "project"
    project.mkdir()
    (project / "catalogues").mkdir()
    write(project / "catalogues" / "nodes.json", EDITOR_LIST)
    (project / "pyproject.toml").write_text('[tool.toolwire]\nnode-types = ["catalogues/nodes.json"]\n', encoding="utf-8")
    code, out, _ = cli(capsys, "check", workflow, "--config", str(project / "pyproject.toml"))
    assert code == 1 and "error[CMP-10]" in out
    # Repeated on the command line, the catalogues are read together.
    other = write(tmp_path / "other.json", [{"id": "mystery", "inputs": [TOOL_INPUT]}])
    code, out, _ = cli(capsys, "check", workflow, "--node-types", catalogue, "--node-types", other)
    assert code == 1 and 'node type "mystery"' not in out


# --- toolwire.dask ----------------------------------------------------------------


def test_cmp10_travels_from_a_dask_worker_and_into_findings(catalogue: str, workflow: str) -> None:
    pytest.importorskip("distributed", reason="needs toolwire[dask]")
    pytest.importorskip("pandas", reason="needs toolwire[dask]")
    from toolwire.dask import _wire, _worker

    report = toolwire.check_file(workflow, node_types=catalogue)
    shipped = _wire.unpack(_wire.pack(report), workflow)
    assert shipped == report and shipped.stats is not None and shipped.stats.node_types_checked
    unchecked = toolwire.check_file(workflow)
    assert _wire.unpack(_wire.pack(unchecked), workflow).stats == unchecked.stats
    options = {"node_types": [catalogue]}
    [packed] = _worker._reports([workflow], options)
    assert list(packed.violations) == list(report.violations)
    rows = _worker.findings_frame([(workflow, workflow, None)], options)
    violations = rows[rows.kind == "violation"]
    assert list(violations.code) == ["CMP-10"] and list(violations.consumer) == ["h"]
    assert sorted(rows[rows.kind == "warning"].code) == ["CMP-10-UNKNOWN", "CMP-10-UNKNOWN", "R8"]


def test_cmp10_on_a_dask_cluster(tmp_path: Path, catalogue: str, workflow: str) -> None:
    distributed = pytest.importorskip("distributed", reason="needs toolwire[dask]")
    pytest.importorskip("dask.dataframe", reason="needs toolwire[dask]")
    import toolwire.dask

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster, set_as_default=False) as client:
            [report] = toolwire.dask.check_files([workflow], client=client, node_types=catalogue)
            assert [(v.rule, v.consumer) for v in report.violations] == [("CMP-10", "h")]
            with client.as_current():
                rows = toolwire.dask.findings([workflow], node_types=catalogue).compute()
            assert list(rows[rows.kind == "violation"].code) == ["CMP-10"]
            with pytest.raises(CatalogueError):
                toolwire.dask.check_files([workflow], client=client, node_types=tmp_path / "missing.json")


# --- the real site's Drupal catalogue (YAML) ------------------------------------------


def test_cmp10_the_real_sites_catalogue_says_which_types_accept_tools() -> None:
    from toolwire import _toolwire

    files = _catalogue.node_type_files(need_shared(REAL_SITE))
    types = {t[0]: t for t in _toolwire.load_node_types(files).types()}
    assert len(types) == 41
    # None of this site's types declares parameters.tool (its agents run
    # ai_agents' own tools), and none is run by the Tool Box.
    assert [id for id, t in types.items() if t[1]] == []
    assert [id for id, t in types.items() if t[2]] == []
    agent = types["echack_flowdrop_agents_ai_agents_executor"]
    assert Path(agent[3]).name == "flowdrop_node_type.flowdrop_node_type.echack_flowdrop_agents_ai_agents_executor.yml"
    assert agent[4:] == (7, 5), "located at its id"


def test_cmp10_a_tool_edge_rewired_in_a_real_yaml_workflow_is_refused_at_the_node(tmp_path: Path) -> None:
    site = need_shared(REAL_SITE)
    original = (site / "flowdrop_workflow.flowdrop_workflow.fact_check.yml").read_text(encoding="utf-8")
    assert toolwire.check_yaml(original, node_types=site).ok
    # The first edge feeds json_to_data.1's json input; make it a tool edge.
    rewired = original.replace("targetHandle: json_to_data.1-input-json", "targetHandle: json_to_data.1-input-tool", 1)
    assert rewired != original
    path = write(tmp_path / "flowdrop_workflow.flowdrop_workflow.fact_check.yml", rewired)
    report = toolwire.check_file(path, node_types=site)
    [v] = report.violations
    assert (v.rule, v.consumer, v.node_type) == ("CMP-10", "json_to_data.1", "json_to_data")
    assert [(e.edge, e.source) for e in v.wired_edges] == [(0, "flowdrop_ai_provider_chat_model.1")]
    lines = rewired.splitlines()
    node_line = lines.index("    id: json_to_data.1") + 1
    assert v.location == toolwire.Location(node_line, 5)
    assert v.defined_at is not None and v.defined_at.endswith("flowdrop_node_type.flowdrop_node_type.json_to_data.yml:7:5")
    assert toolwire.check_file(path).ok, "without the catalogue CMP-10 is not checked"


def test_cmp10_a_drupal_dialect_tool_edge_into_the_sites_agent_type_is_refused(tmp_path: Path) -> None:
    doc = {
        "nodes": [
            {"id": "http_request.1", "data": {"label": "Fetch", "metadata": {"node_type_id": "http_request"}}},
            {"id": "agent.1", "data": {"metadata": {"node_type_id": "echack_flowdrop_agents_ai_agents_executor"}}},
        ],
        "edges": [{"id": "t", "source": "http_request.1", "target": "agent.1", "targetHandle": "agent.1-input-tool"}],
    }
    report = toolwire.check(doc, node_types=need_shared(REAL_SITE))
    assert [(v.rule, v.consumer) for v in report.violations] == [("CMP-10", "agent.1")]


@pytest.mark.parametrize(
    "text, message, line, column",
    [
        ("id: a\nid: b\n", "", 2, 1),
        ("label: A\nparameters: {  }\n", "has no `id`", 1, 1),
        ("id: a\nparameters:\n  tool:\n    connectable: maybe\n", "must be true or false, got a string", 4, 18),
        ("id: [a\n", "", None, None),
    ],
)
def test_cmp10_a_malformed_drupal_type_is_an_error_naming_file_line_and_column(
    tmp_path: Path, workflow: str, text: str, message: str, line: Any, column: Any
) -> None:
    bad = write(tmp_path / "flowdrop_node_type.flowdrop_node_type.a.yml", text)
    with pytest.raises(CatalogueError) as raised:
        toolwire.check_file(workflow, node_types=tmp_path)
    error = raised.value
    assert error.path == bad and message in error.message
    assert error.line is not None and error.column is not None
    if line is not None:
        assert (error.line, error.column) == (line, column)


# --- a checked directory is its own catalogue ----------------------------------------


def copy_site(tmp_path: Path, rewire_fact_check: bool) -> Path:
    """The real site's config/sync in tmp_path, its fact_check workflow's
    first edge made a tool edge into json_to_data.1 (a type that takes no
    tools) when asked."""
    site = tmp_path / "config" / "sync"
    site.mkdir(parents=True)
    for source in sorted(need_shared(REAL_SITE).iterdir()):
        text = source.read_text(encoding="utf-8")
        if rewire_fact_check and source.name == "flowdrop_workflow.flowdrop_workflow.fact_check.yml":
            text = text.replace("targetHandle: json_to_data.1-input-json", "targetHandle: json_to_data.1-input-tool", 1)
        (site / source.name).write_text(text, encoding="utf-8")
    return site


def test_cmp10_a_checked_site_directory_is_the_catalogue_of_its_workflows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = copy_site(tmp_path, rewire_fact_check=True)
    loads: List[Any] = []
    real_load = _catalogue.load
    monkeypatch.setattr(_catalogue, "load", lambda given, fn: loads.append(given) or real_load(given, fn))
    reports = toolwire.check_files([site])
    assert len(reports) == 11 and all(r.stats.node_types_checked for r in reports)
    assert loads == [None, str(site)], "the directory's catalogue is read once for all its workflows"
    refused = [r for r in reports if not r.ok]
    assert [Path(r.path).name for r in refused] == ["flowdrop_workflow.flowdrop_workflow.fact_check.yml"]
    assert [(v.rule, v.consumer) for v in refused[0].violations] == [("CMP-10", "json_to_data.1")]


def test_cmp10_a_directory_without_node_types_leaves_cmp10_unchecked_and_says_so(tmp_path: Path) -> None:
    write(tmp_path / "flow.json", WORKFLOW)
    [report] = toolwire.check_files([tmp_path])
    assert report.ok and not report.stats.node_types_checked


def test_cmp10_a_catalogue_given_wins_over_the_directorys_own(tmp_path: Path, catalogue: str) -> None:
    site = copy_site(tmp_path, rewire_fact_check=True)
    # The editor list knows no json_to_data: the edge is unknown there, not refused.
    reports = toolwire.check_files([site], node_types=catalogue)
    assert all(r.ok and r.stats.node_types_checked for r in reports)
    assert any(w.code == "CMP-10-UNKNOWN" for r in reports for w in r.warnings)


def test_cmp10_a_directorys_own_catalogue_that_cannot_be_used_is_each_workflows_error(tmp_path: Path) -> None:
    site = copy_site(tmp_path, rewire_fact_check=False)
    (site / "flowdrop_node_type.flowdrop_node_type.note.yml").write_text("id: note\nid: again\n", encoding="utf-8")
    outside = write(tmp_path / "flow.json", WORKFLOW)
    reports = toolwire.check_files([site, outside])
    assert [isinstance(r.error, CatalogueError) for r in reports] == [True] * 11 + [False]
    assert all("flowdrop_node_type.flowdrop_node_type.note.yml" in str(r.error) for r in reports[:11])
    assert reports[-1].ok and not reports[-1].stats.node_types_checked, "a file named alone takes no directory's types"


def test_cmp10_toolwire_check_of_a_site_directory_uses_its_catalogue(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    site = copy_site(tmp_path, rewire_fact_check=True)
    status, out, _ = cli(capsys, "check", "--format", "json", str(site))
    assert status == 1
    document = json.loads(out)
    assert document["node_types_checked"] is True
    refused = [f for f in document["files"] if not f["ok"]]
    assert [Path(f["path"]).name for f in refused] == ["flowdrop_workflow.flowdrop_workflow.fact_check.yml"]


# --- a checked directory is its own catalogue under toolwire.dask and --dask ----------


def same_reports(remote: List[toolwire.Report], local: List[toolwire.Report]) -> None:
    assert [r.path for r in remote] == [r.path for r in local]
    for r, l in zip(remote, local):
        if l.error is not None:
            # Exceptions compare by identity: the same class and words.
            assert (type(r.error), str(r.error)) == (type(l.error), str(l.error))
            assert isinstance(r.error, CatalogueError) is isinstance(l.error, CatalogueError)
            continue
        assert r == l and r.to_dict() == l.to_dict()


def site_and_neighbours(tmp_path: Path) -> List[str]:
    """A rewired site (its own catalogue), a site whose catalogue cannot be
    used, a folder without node types, and a file named alone."""
    site = copy_site(tmp_path / "good", rewire_fact_check=True)
    broken = copy_site(tmp_path / "broken", rewire_fact_check=False)
    (broken / "flowdrop_node_type.flowdrop_node_type.note.yml").write_text("id: note\nid: again\n", encoding="utf-8")
    plain = tmp_path / "plain"
    plain.mkdir()
    write(plain / "flow.json", WORKFLOW)
    alone = write(tmp_path / "alone.json", WORKFLOW)
    return [str(site), str(broken), str(plain), alone]


@pytest.mark.parametrize("files_per_task", [1, 4, None])
def test_cmp10_dask_checks_a_site_directory_against_its_own_catalogue_as_locally(
    tmp_path: Path, dask_cluster: Any, files_per_task: Any
) -> None:
    import distributed
    import toolwire.dask

    paths = site_and_neighbours(tmp_path)
    local = toolwire.check_files(paths)
    with distributed.Client(dask_cluster, set_as_default=False) as client:
        remote = toolwire.dask.check_files(paths, client=client, files_per_task=files_per_task)
    same_reports(remote, local)
    # What "as locally" holds here, so that the equality above is not
    # the equality of two runs that both ignore the directories.
    assert [r.stats.node_types_checked for r in remote[:11]] == [True] * 11
    assert [(v.rule, v.consumer) for r in remote[:11] for v in r.violations] == [("CMP-10", "json_to_data.1")]
    assert [isinstance(r.error, CatalogueError) for r in remote[11:22]] == [True] * 11
    assert [r.ok and not r.stats.node_types_checked for r in remote[22:]] == [True, True]


def test_cmp10_dask_a_catalogue_given_wins_over_the_directorys_own(
    tmp_path: Path, dask_cluster: Any, catalogue: str
) -> None:
    import distributed
    import toolwire.dask

    paths = site_and_neighbours(tmp_path)
    local = toolwire.check_files(paths, node_types=catalogue)
    with distributed.Client(dask_cluster, set_as_default=False) as client:
        remote = toolwire.dask.check_files(paths, client=client, node_types=catalogue)
    same_reports(remote, local)
    assert all(r.error is None and r.stats.node_types_checked for r in remote)
    assert not any(v.rule == "CMP-10" and v.consumer == "json_to_data.1" for r in remote for v in r.violations)


def test_cmp10_dask_findings_rows_follow_each_directorys_own_catalogue(tmp_path: Path, dask_cluster: Any) -> None:
    import distributed
    import toolwire.dask

    paths = site_and_neighbours(tmp_path)
    with distributed.Client(dask_cluster, set_as_default=False) as client, client.as_current():
        rows = toolwire.dask.findings(paths, files_per_task=5).compute()
    violations = rows[rows.kind == "violation"]
    assert [(Path(p).name, c, n) for p, c, n in zip(violations.path, violations.code, violations.consumer)] == [
        ("flowdrop_workflow.flowdrop_workflow.fact_check.yml", "CMP-10", "json_to_data.1")
    ]
    errors = rows[rows.kind == "error"]
    assert list(errors.code) == ["CatalogueError"] * 11
    assert all(p.startswith(paths[1]) for p in errors.path)
    assert all("flowdrop_node_type.flowdrop_node_type.note.yml" in m for m in errors.message)
    assert all(line == 2 and column == 1 for line, column in zip(errors.line, errors.column))


def test_cmp10_dask_worker_reads_each_directorys_catalogue_once_per_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed", reason="needs toolwire[dask]")
    from toolwire.dask import _cluster, _wire, _worker
    from toolwire._paths import expand

    paths = site_and_neighbours(tmp_path)
    found = expand(paths).found
    errors, catalogues = _cluster.own_catalogues(found, {})
    assert [e is not None for e in errors] == [False] * 11 + [True] * 11 + [False] * 2
    read = [f.path for f, e in zip(found, errors) if e is None]
    own = _cluster.task_catalogues(catalogues)
    assert own is not None and len(own[0]) == 1 and own[1] == [0] * 11 + [-1] * 2
    loads: List[Any] = []
    real_load = _catalogue.load
    monkeypatch.setattr(_catalogue, "load", lambda given, fn: loads.append(given) or real_load(given, fn))
    packed = [_wire.unpack(p, path) for p, path in zip(pickle.loads(_worker.check_batch(read, {}, own)), read)]
    assert loads.count(own[0][0]) == 1, "the directory's catalogue is read once for the batch, not per file"
    same_reports(packed, toolwire.check_files([paths[0], paths[2], paths[3]]))
    # A catalogue the worker cannot read (gone since the client looked) is
    # the error of each of its files, never CMP-10 skipped.
    Path(own[0][0][0]).write_text("id: [a\n", encoding="utf-8")
    gone = [_wire.unpack(p, path) for p, path in zip(pickle.loads(_worker.check_batch(read, {}, own)), read)]
    assert [isinstance(r.error, CatalogueError) for r in gone] == [True] * 11 + [False] * 2
    assert _cluster.task_catalogues([None, None]) is None, "a run without own catalogues sends nothing more"


def test_cmp10_toolwire_check_dask_of_a_site_directory_prints_what_a_local_run_prints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, dask_cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = site_and_neighbours(tmp_path)
    argv = ["check", "--no-config", "--format", "json", *paths]
    local = cli(capsys, *argv)
    remote = cli(capsys, *argv, "--dask", dask_cluster.scheduler_address)
    document, expected = json.loads(remote[1]), json.loads(local[1])
    for d in (document, expected):
        d.pop("elapsed_seconds", None)
    assert (remote[0], document) == (local[0], expected) and remote[0] == 2
    # Not every file: the folder without node types and the file alone.
    assert document["node_types_checked"] is False
    refused = [Path(f["path"]).name for f in document["files"] if f["violations"]]
    assert refused == ["flowdrop_workflow.flowdrop_workflow.fact_check.yml"]
    # Relative paths, and workers whose working directory is not this one:
    # they read the catalogue by its absolute path, so the one difference
    # from a local run is where the type is said to be defined (as with a
    # catalogue given; docs/DISTRIBUTED.md).
    monkeypatch.chdir(tmp_path)
    relative = ["check", "--no-config", "--format", "json", *(str(Path(p).relative_to(tmp_path)) for p in paths)]
    local = cli(capsys, *relative)
    remote = cli(capsys, *relative, "--dask", dask_cluster.scheduler_address)
    site = str(tmp_path / "good" / "config" / "sync")
    document, expected = json.loads(remote[1].replace(site, "good/config/sync")), json.loads(local[1])
    for d in (document, expected):
        d.pop("elapsed_seconds", None)
    assert (remote[0], document) == (local[0], expected)
