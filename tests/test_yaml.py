"""Workflows stored as Drupal configuration (YAML, SEMANTICS.md section 10):
the same reports as their JSON, located in the YAML; the strictness the
section asks for (invalid YAML, repeated keys, several documents, alias
budgets as input errors with their place); hostile texts never crash; and
the API and CLI entry points (``check_yaml``, ``check_file`` by extension,
``--input-format``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml

import toolwire
from toolwire.cli import main

from support import SHARED, need_shared, shared_files, without_places

REAL_WORKFLOWS = SHARED / "real-workflows"
REAL_SITES = SHARED / "real-sites"


class DrupalDumper(yaml.SafeDumper):
    """Block style, two spaces, sequences indented under their key, as
    ``drush config:export`` (Symfony's dumper) writes config."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def drupal_yaml(workflow: Any) -> str:
    return yaml.dump(
        workflow,
        Dumper=DrupalDumper,
        default_flow_style=False,
        indent=2,
        sort_keys=False,
        allow_unicode=True,
        width=1 << 30,
    )


def outcome(check: Any, *args: Any) -> Dict[str, Any]:
    """A report without places, or the input error's message."""
    try:
        return without_places(check(*args))
    except toolwire.WorkflowError as e:
        return {"error": e.message}


# --- the same reports as JSON ------------------------------------------------


@pytest.mark.parametrize("path", shared_files(REAL_WORKFLOWS), ids=lambda p: p.name)
def test_each_real_workflow_written_as_drupal_yaml_gets_its_json_report(path: Path, tmp_path: Path) -> None:
    text = need_shared(path).read_text(encoding="utf-8")
    workflow = json.loads(text)
    written = drupal_yaml(workflow)
    identifier = workflow.get("id", path.stem) if isinstance(workflow, dict) else path.stem
    yml = tmp_path / f"flowdrop_workflow.flowdrop_workflow.{identifier}.yml"
    yml.write_text(written, encoding="utf-8")
    expected = outcome(toolwire.check_json, text)
    assert outcome(toolwire.check_yaml, written) == expected
    # A file by its name, and the same report's path.
    from_file = outcome(toolwire.check_file, yml)
    assert {k: v for k, v in from_file.items() if k != "path"} == {k: v for k, v in expected.items() if k != "path"}


def site_workflows() -> List[Path]:
    if not REAL_SITES.is_dir():
        return [REAL_SITES]
    return sorted(REAL_SITES.glob("*/config/sync/flowdrop_workflow.flowdrop_workflow.*.yml"))


@pytest.mark.parametrize("path", site_workflows(), ids=lambda p: p.name)
def test_each_real_site_workflow_checks_as_its_parsed_form_does(path: Path) -> None:
    text = need_shared(path).read_text(encoding="utf-8")
    report = toolwire.check_file(path)
    assert report.error is None
    # PyYAML builds the tree; toolwire's walk of it must agree with the
    # YAML reader on every verdict (PyYAML reads YAML 1.1, which differs
    # from 1.2 only on scalars like `yes` and `0777`, none in these fields).
    assert without_places(toolwire.check_yaml(text)) == without_places(toolwire.check(yaml.safe_load(text)))
    assert report.stats.nodes == len(yaml.safe_load(text).get("nodes") or [])


def test_findings_are_located_in_the_yaml_after_non_ascii_text() -> None:
    text = (
        "# Café ☕ — a comment with characters of every width 😀\n"
        "label: 'Ünïcödé wörkflow'\n"
        "nodes:\n"
        "  -\n"
        "    id: tool.é\n"
        "    data: {label: 'Web Search', metadata: {node_type_id: http_request}}\n"
        "  - {id: 工具, data: {label: web-search}}\n"
        "  - id: agent.1\n"
        "    data:\n"
        "      metadata:\n"
        "        node_type_id: agent\n"
        "edges:\n"
        "  - {source: tool.é, target: agent.1, targetHandle: agent.1-input-tool}\n"
        "  - source: 工具\n"
        "    target: agent.1\n"
        "    data: {edgeType: tool_availabilty}\n"
    )
    report = toolwire.check_yaml(text)
    lines = text.splitlines()

    def at(location: Any) -> str:
        # Columns count characters, as Python's own indexing does.
        return lines[location.line - 1][location.column - 1 :]

    cmp9 = [v for v in report.violations if v.rule == "EDGE-5"]
    assert len(cmp9) == 1 and at(cmp9[0].location).startswith("source: 工具")
    # The EDGE-5 typo makes the second edge not a tool edge: no clash.
    assert [v.rule for v in report.violations] == ["EDGE-5"]
    clash = toolwire.check_yaml(text.replace("tool_availabilty", "tool_availability"))
    (violation,) = clash.violations
    assert violation.rule == "CMP-9"
    spots = sorted(at(tool.location) for tool in violation.tools)
    assert spots == ["id: tool.é", "{id: 工具, data: {label: web-search}}"]


def large_workflow(nodes: int) -> Any:
    """Agents with a tool each, then a clashing pair and an EDGE-5 typo
    wired near the end, so that they fall after any cut near the middle."""
    workflow: Dict[str, Any] = {"id": "large", "label": "Größe", "nodes": [], "edges": []}
    for i in range(nodes):
        workflow["nodes"].append({"id": f"agent.{i}", "data": {"label": f"Agent {i} é", "metadata": {"node_type_id": "agent"}}})
        workflow["nodes"].append({"id": f"tool.{i}", "data": {"label": f"tool {i}", "metadata": {"node_type_id": "http"}}})
        workflow["edges"].append({"source": f"tool.{i}", "target": f"agent.{i}", "targetHandle": f"agent.{i}-input-tool"})
    last = nodes - 1
    workflow["nodes"].append({"id": "twin", "data": {"label": f"Tool {last}", "metadata": {"node_type_id": "http"}}})
    workflow["edges"].append({"source": "twin", "target": f"agent.{last}", "data": {"edgeType": "tool_availability"}})
    workflow["edges"].append({"id": "typo", "source": "tool.0", "target": "agent.1", "data": {"edgeType": "tool_availabilty"}})
    workflow["metadata"] = {"changed": 1}
    return workflow


def test_a_large_yaml_read_in_two_halves_gets_its_json_report_at_the_yaml_places() -> None:
    # From 4 MiB the reader cuts the text near its middle and reads the
    # halves at once (src/parse/yaml/pieces.rs): the report must be what
    # one read gives, every place counted from the start of the whole text.
    workflow = large_workflow(30_000)
    text = "# Größe — ☕\n" + drupal_yaml(workflow)
    assert len(text.encode()) > 4 << 20
    report = toolwire.check_yaml(text)
    assert without_places(report) == without_places(toolwire.check_json(json.dumps(workflow)))
    lines = text.splitlines()

    def at(location: Any) -> str:
        return lines[location.line - 1][location.column - 1 :]

    assert [v.rule for v in report.violations] == ["EDGE-5", "CMP-9"]
    typo, clash = report.violations
    assert sorted(at(tool.location) for tool in clash.tools) == ["id: tool.29999", "id: twin"]
    assert at(clash.location) == "id: agent.29999"
    assert at(typo.location) == "id: typo"


# --- YAML 1.2 core schema ----------------------------------------------------


def test_quoted_keys_empty_mappings_and_nulls_read_as_yaml_1_2_says() -> None:
    text = (
        "nodes:\n"
        "  - id: a\n"
        "    position: {x: 1, 'y': 260}\n"
        "    data: {label: 'Fetch', metadata: {id: toolbox}}\n"
        "edges: {  }\n"
    )
    report = toolwire.check_yaml(text)
    assert report.ok and report.stats.nodes == 1 and report.stats.edges == 0
    for empty in ("edges: ~\n", "edges: null\n", "edges:\n", "edges: []\n", "edges: {}\n"):
        assert toolwire.check_yaml("nodes: []\n" + empty).stats.edges == 0, empty


@pytest.mark.parametrize("scalar, kind", [("true", "a boolean"), ("1", "a number"), ("1.5", "a number"), ("~", "null")])
def test_a_non_string_scalar_where_a_string_belongs_is_what_json_makes_of_it(scalar: str, kind: str) -> None:
    with pytest.raises(toolwire.WorkflowError) as raised:
        toolwire.check_yaml(f"nodes:\n  - id: {scalar}\n")
    assert raised.value.message == f"node 0: `id` must be a non-empty string, got {kind}"
    assert (raised.value.line, raised.value.column) == (2, 5)
    # Quoted, the same scalar is a string id.
    assert toolwire.check_yaml(f"nodes:\n  - id: '{scalar}'\n").ok
    # A label that is not a string falls back to the id, as in JSON.
    as_json = json.dumps({"nodes": [{"id": "a", "data": {"label": yaml.safe_load(scalar)}}]})
    assert without_places(toolwire.check_yaml(f"nodes:\n  - id: a\n    data: {{label: {scalar}}}\n")) == (
        without_places(toolwire.check_json(as_json))
    )


def test_an_edge_type_that_is_not_a_string_falls_back_to_the_handle() -> None:
    text = (
        "nodes: [{id: t}, {id: ag}]\n"
        "edges:\n"
        "  - {source: t, target: ag, targetHandle: ag-input-tool, data: {edgeType: 1}}\n"
    )
    assert toolwire.check_yaml(text).stats.tool_edges == 1


# --- strictness: input errors with their place --------------------------------


def error_of(text: Any) -> toolwire.WorkflowError:
    with pytest.raises(toolwire.WorkflowError) as raised:
        toolwire.check_yaml(text)
    return raised.value


def test_a_repeated_key_is_an_input_error_at_the_second_key() -> None:
    e = error_of("nodes:\n  - id: a\n    data: {label: x}\n    id: b\n")
    assert e.message == "a key repeated in one mapping (YAML requires unique keys)"
    assert (e.line, e.column) == (4, 5)
    # Also where toolwire reads nothing, and with quotes that change nothing.
    e = error_of("nodes: []\nposition: {x: 1, 'x': 2}\n")
    assert (e.line, e.column) == (2, 18)


def test_several_documents_are_an_input_error_naming_the_second() -> None:
    e = error_of("nodes: []\n---\nnodes: []\n")
    assert e.message == "a second YAML document starts at line 2: a file holds one document"
    assert (e.line, e.column) == (2, 1)


def test_invalid_yaml_is_an_input_error_with_its_line_and_column() -> None:
    e = error_of("nodes:\n  - id: a\n  data: [1, 2\n")
    assert e.message.startswith("invalid YAML: ")
    assert e.line is not None and e.line >= 3


def test_the_top_level_must_be_a_mapping() -> None:
    for text, got in [("- a\n", "a sequence"), ("just text\n", "a string"), ("", "null"), ("# nothing\n", "null")]:
        e = error_of(text)
        assert e.message == f"the workflow must be a YAML mapping, got {got}", text


def test_shape_errors_are_worded_as_for_json() -> None:
    e = error_of("nodes: {a: 1}\n")
    assert (e.message, e.line, e.column) == ("`nodes` must be an array, got a non-empty object", 1, 8)
    e = error_of("nodes:\n  - id: a\n  - 3\n")
    assert (e.message, e.line, e.column) == ("node 1: must be an object, got a number", 3, 5)


# --- hostile texts ------------------------------------------------------------


def laughs(levels: int) -> str:
    lines = ["nodes: []", "l0: &l0 [lol]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_a_billion_laughs_is_refused_by_its_budget() -> None:
    e = error_of(laughs(10))
    assert "billion laughs" in e.message and e.line == 8
    # A small one is fine: aliases that toolwire skips are never replayed.
    assert toolwire.check_yaml(laughs(3)).ok


def test_aliases_in_nodes_are_read_as_what_they_name() -> None:
    text = (
        "shared: &kit {label: Kit, metadata: {node_type_id: flowdrop_node_processor_toolbox}}\n"
        "tool: &tool {label: Search}\n"
        "nodes:\n"
        "  - {id: t1, data: *tool}\n"
        "  - {id: t2, data: *tool}\n"
        "  - {id: box, data: *kit}\n"
        "  - {id: ag}\n"
        "edges:\n"
        "  - &e {source: t1, target: box, data: {edgeType: tool_availability}}\n"
        "  - {source: t2, target: box, data: {edgeType: tool_availability}}\n"
        "  - {source: box, target: ag, data: {edgeType: tool_availability}}\n"
    )
    report = toolwire.check_yaml(text)
    (violation,) = report.violations
    assert (violation.consumer, violation.name) == ("ag", "search")
    assert [tool.path for tool in violation.tools] == [["t1", "box", "ag"], ["t2", "box", "ag"]]


@pytest.mark.parametrize(
    "text, message",
    [
        ("- " * 5000 + "x\n", "the YAML document nests deeper than 1000 levels"),
        ("a: " + "[" * 5000, "invalid YAML: "),
        ("nodes:\n\t- id: a\n", "invalid YAML: "),
        (b"nodes: [{id: \xff}]\n", "invalid YAML: the document is not valid UTF-8"),
        ("nodes: !!python/object:os.system [x]\n", "the YAML tag "),
        ("a: &x [*x]\n", "an alias inside the value its anchor names"),
    ],
    ids=["deep-block", "deep-flow", "tab-indent", "invalid-utf8", "tag", "self-alias"],
)
def test_hostile_texts_are_clear_input_errors(text: Any, message: str) -> None:
    e = error_of(text)
    assert e.message.startswith(message), e.message
    assert e.line is not None


def test_a_huge_scalar_and_a_byte_order_mark_read_fine() -> None:
    huge = "x" * (8 << 20)
    report = toolwire.check_yaml(f"\ufeffdescription: {huge}\nnodes:\n  - id: a\n    data: {{label: '{huge}'}}\n")
    assert report.ok and report.stats.nodes == 1
    # After a byte order mark, lines and columns are still right.
    e = error_of("\ufeffnodes:\n  - id: 7\n")
    assert (e.line, e.column) == (2, 5)


TRUNCATED = (
    "uuid: 9b\n"
    "dependencies: {  }\n"
    "nodes:\n"
    "  -\n"
    "    id: http_request.1\n"
    "    position: {x: -320, 'y': 610}\n"
    "    data:\n"
    "      label: \"Fetch \\u00e9 page\"\n"
    "      config: {message: 'It''s', retries: 2}\n"
    "      text: |\n"
    "        a block\n"
    "        scalar\n"
    "      metadata:\n"
    "        node_type_id: http_request\n"
    "  - {id: agent.1, data: {label: Reason, metadata: {node_type_id: agent}}}\n"
    "edges:\n"
    "  - source: http_request.1\n"
    "    target: agent.1\n"
    "    targetHandle: agent.1-input-tool\n"
    "    data: &d {metadata: {edgeType: tool}}\n"
    "  - {source: agent.1, target: http_request.1, data: *d}\n"
)


def test_every_truncation_is_a_report_or_an_input_error() -> None:
    assert toolwire.check_yaml(TRUNCATED).stats.tool_edges == 1
    data = TRUNCATED.encode("utf-8")
    outcomes = set()
    for end in range(len(data) + 1):
        try:
            toolwire.check_yaml(data[:end])
            outcomes.add("report")
        except toolwire.WorkflowError as e:
            assert e.message, end
            outcomes.add("error")
    assert outcomes == {"report", "error"}


# --- entry points ---------------------------------------------------------------


REFUSED_YAML = (
    "id: refused\n"
    "nodes:\n"
    "  - {id: a, data: {label: Search}}\n"
    "  - {id: b, data: {label: search}}\n"
    "  - {id: ag}\n"
    "edges:\n"
    "  - {source: a, target: ag, targetHandle: ag-input-tool}\n"
    "  - {source: b, target: ag, targetHandle: ag-input-tool}\n"
)


def test_check_file_reads_by_extension_unless_told(tmp_path: Path) -> None:
    yml = tmp_path / "flowdrop_workflow.flowdrop_workflow.refused.yml"
    yml.write_text(REFUSED_YAML, encoding="utf-8")
    as_txt = tmp_path / "workflow.txt"
    as_txt.write_text(REFUSED_YAML, encoding="utf-8")
    assert not toolwire.check_file(yml).ok
    assert not toolwire.check_file(as_txt, input_format="yaml").ok
    with pytest.raises(toolwire.WorkflowError, match="invalid JSON"):
        toolwire.check_file(as_txt)
    with pytest.raises(toolwire.WorkflowError, match="invalid JSON"):
        toolwire.check_file(yml, input_format="json")
    with pytest.raises(ValueError, match="input_format"):
        toolwire.check_file(yml, input_format="toml")
    reports = toolwire.check_files([yml, as_txt], jobs=2)
    assert [r.ok for r in reports] == [False, False] and reports[1].error is not None
    reports = toolwire.check_files([yml, as_txt], input_format="yaml")
    assert [r.error for r in reports] == [None, None]


def test_explain_reads_yaml_files(tmp_path: Path) -> None:
    yml = tmp_path / "w.yaml"
    yml.write_text(REFUSED_YAML, encoding="utf-8")
    workflow = yaml.safe_load(REFUSED_YAML)
    views = toolwire.explain_file(yml)
    assert [(v.consumer, [t.id for t in v.tools]) for v in views] == [
        (v.consumer, [t.id for t in v.tools]) for v in toolwire.explain(workflow)
    ]
    assert views[0].tools[0].location is not None


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_checks_yaml_with_the_same_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    yml = tmp_path / "refused.yml"
    yml.write_text(REFUSED_YAML, encoding="utf-8")
    code, out, _ = cli(capsys, "check", "--no-config", str(yml))
    # Located at the consumer's mapping, line 5 column 5 of the YAML.
    assert code == 1 and "refused.yml:5:5: error[CMP-9]" in out
    code, out, _ = cli(capsys, "check", "--no-config", "--format", "json", str(yml))
    assert code == 1 and json.loads(out)["files"][0]["clashes"][0]["name"] == "search"
    bad = tmp_path / "bad.yaml"
    bad.write_text("nodes: []\nnodes: []\n", encoding="utf-8")
    code, _, err = cli(capsys, "check", "--no-config", "--format", "json", str(bad))
    assert code == 2 and "bad.yaml:2:1: error: a key repeated in one mapping" in err
    # As JSON, the same YAML file is not JSON.
    code, _, err = cli(capsys, "check", "--no-config", "--input-format", "json", "--format", "json", str(yml))
    assert code == 2 and "invalid JSON" in err


def test_cli_reads_standard_input_as_json_unless_told(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    def stdin(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))

    stdin(REFUSED_YAML)
    code, _, _ = cli(capsys, "check", "--no-config", "--input-format", "yaml", "-")
    assert code == 1
    stdin(REFUSED_YAML)
    code, _, _ = cli(capsys, "check", "--no-config", "-")
    assert code == 2
    stdin(REFUSED_YAML)
    code, out, _ = cli(capsys, "explain", "--no-config", "--input-format", "yaml", "--format", "json", "-")
    assert code == 0 and "ag" in out


def test_cli_refuses_to_fix_yaml(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    yml = tmp_path / "refused.yml"
    yml.write_text(REFUSED_YAML, encoding="utf-8")
    as_txt = tmp_path / "refused.txt"
    as_txt.write_text(REFUSED_YAML, encoding="utf-8")
    for argv in (["--fix", str(yml)], ["--diff", "--input-format", "yaml", str(as_txt)]):
        code, out, err = cli(capsys, "check", "--no-config", *argv)
        assert (code, out) == (2, "") and "toolwire checks YAML but rewrites only JSON files" in err
    assert yml.read_text(encoding="utf-8") == REFUSED_YAML
