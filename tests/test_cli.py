"""``toolwire check``: exit codes, the text and JSON output, the options, and
standard input. Most tests call ``toolwire.cli.main`` in-process; the last
ones run the real thing in a subprocess (``python -m toolwire`` and the
``toolwire`` console script) to show the entry points are wired up.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List

import jsonschema
import pytest

import toolwire
from toolwire.cli import main

from support import DATA, REPO

Json = Dict[str, Any]

# The documented schema of `--format json`.
OUTPUT_SCHEMA: Json = json.loads((REPO / "docs" / "report.schema.json").read_text(encoding="utf-8"))


def validate_output(document: Json) -> None:
    """The schema, plus what a schema cannot say: a file is ok exactly when
    it has neither error nor violations, and the document when all files are."""
    validator = jsonschema.validators.validator_for(OUTPUT_SCHEMA)
    validator.check_schema(OUTPUT_SCHEMA)
    validator(OUTPUT_SCHEMA).validate(document)
    for entry in document["files"]:
        assert entry["ok"] == (entry["error"] is None and entry["violation_count"] == 0)
        clashes = entry.get("clashes", [])
        listed = len(entry["violations"]) + sum(c["consumer_count"] for c in clashes)
        assert entry["violations_omitted"] == entry["violation_count"] - listed
        assert len(clashes) <= entry["clash_count"]
        for clash in clashes:
            assert clash["consumers_omitted"] == clash["consumer_count"] - len(clash["consumers"])
    assert document["ok"] == all(entry["ok"] for entry in document["files"])


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> List[str]:
        return [line.strip() for line in self.out.splitlines() if line.strip()]

    @property
    def summary(self) -> str:
        return self.lines[-1]

    def json(self) -> Json:
        # json.loads fails on anything but exactly one document.
        document = json.loads(self.out)
        assert isinstance(document, dict)
        return document


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Run:
    code = main(list(argv))
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def write(directory: Path, name: str, document: Any) -> str:
    path = directory / name
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> Dict[str, str]:
    """Workflow files by role. ``bad`` breaks off at line 2, column 1."""
    return {
        "refused": write(tmp_path, "refused.json", (DATA / "spec-cmp9-refused.json").read_text(encoding="utf-8")),
        "accepted": write(tmp_path, "accepted.json", (DATA / "spec-cmp9-accepted.json").read_text(encoding="utf-8")),
        "bad": write(tmp_path, "bad.json", '{"nodes": [\n'),
        "typo": write(
            tmp_path,
            "typo.json",
            {"edges": [{"id": "e0", "source": "a", "target": "b", "data": {"edgeType": "tool_availabilty"}}]},
        ),
        "duplicate": write(tmp_path, "duplicate.json", {"nodes": [{"id": "dup_node"}, {"id": "dup_node"}]}),
        "missing": str(tmp_path / "missing.json"),
    }


# --- exit codes and text output ---------------------------------------------------


def test_accepted_file_exits_0(capsys: pytest.CaptureFixture[str], files: Dict[str, str]) -> None:
    result = run(capsys, "check", files["accepted"])
    assert result.code == 0
    assert result.summary == "checked 1 file (2 consumers): 0 violations, 2 warnings"


def test_refused_file_exits_1_and_lists_every_colliding_tool_with_label_and_path(
    capsys: pytest.CaptureFixture[str], files: Dict[str, str]
) -> None:
    result = run(capsys, "check", files["refused"])
    assert result.code == 1
    heading = next(line for line in result.lines if "CMP-9" in line)
    assert heading.startswith(f"{files['refused']}:10:5: error[CMP-9]: ")
    assert "agent_1" in heading and "web_search" in heading
    assert '= tool_a  "Web Search" -> web_search  at 3:5' in result.lines
    assert "path: tool_a -> box_1 (My Tools) -> agent_1" in result.lines
    assert '= tool_b  "web-search" -> web_search  at 4:5' in result.lines
    assert "path: tool_b -> box_1 (My Tools) -> agent_1" in result.lines
    assert 'help: rename "tool_b" to "web-search (tool_b)"' in result.lines
    assert result.summary.endswith(": 1 violation, 1 warning")
    assert result.err == ""


def test_text_output_shows_a_direct_tool_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    document = {
        "nodes": [{"id": "t1", "data": {"label": "Search"}}, {"id": "t2", "data": {"label": "SEARCH"}}],
        "edges": [{"source": t, "target": "ag", "targetHandle": "ag-input-tool"} for t in ("t1", "t2")],
    }
    result = run(capsys, "check", write(tmp_path, "direct.json", document))
    assert result.code == 1
    assert "path: t1 -> ag" in result.lines and "path: t2 -> ag" in result.lines


def test_text_output_shows_edge5_violations(capsys: pytest.CaptureFixture[str], files: Dict[str, str]) -> None:
    result = run(capsys, "check", files["typo"])
    assert result.code == 1
    assert any("error[EDGE-5]" in line and "tool_availabilty" in line for line in result.lines)
    assert 'help: did you mean "tool_availability"?' in result.lines


def test_exit_zero_accepts_refusals_but_not_input_errors(
    capsys: pytest.CaptureFixture[str], files: Dict[str, str]
) -> None:
    refused = run(capsys, "check", "--exit-zero", files["refused"])
    assert refused.code == 0
    assert "path: tool_a -> box_1 (My Tools) -> agent_1" in refused.lines  # still reported
    assert run(capsys, "check", "--exit-zero", files["refused"], files["bad"]).code == 2


def test_input_error_in_one_file_exits_2_and_every_other_file_is_still_reported(
    capsys: pytest.CaptureFixture[str], files: Dict[str, str]
) -> None:
    result = run(capsys, "check", files["refused"], files["bad"], files["accepted"])
    assert result.code == 2
    assert "path: tool_b -> box_1 (My Tools) -> agent_1" in result.lines
    assert any(line.startswith(f"{files['accepted']}:7:5: warning[R8]") for line in result.lines)
    assert f"{files['bad']}:2:1: error: invalid JSON: unexpected end of input, expected a value" in result.lines
    assert result.summary.startswith("checked 2 of 3 files ")
    assert result.summary.endswith("; 1 file could not be checked")


@pytest.mark.parametrize("role", ["bad", "duplicate", "missing"])
def test_any_input_error_exits_2(capsys: pytest.CaptureFixture[str], files: Dict[str, str], role: str) -> None:
    result = run(capsys, "check", files["accepted"], files[role])
    assert result.code == 2
    assert any(line.startswith(f"{files[role]}") and ": error: " in line for line in result.lines)
    # Outside the text report on standard output, errors also go to stderr.
    as_json = run(capsys, "check", "--format", "json", files["accepted"], files[role])
    assert as_json.code == 2 and files[role] in as_json.err


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["check"],
        ["check", "--format", "yaml", "w.json"],
        ["check", "--no-such-option", "w.json"],
        ["lint", "w.json"],
    ],
    ids=["no-command", "no-path", "bad-format", "bad-option", "bad-command"],
)
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: List[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(argv)
    assert raised.value.code == 2
    assert "usage" in capsys.readouterr().err


# --- JSON output ------------------------------------------------------------------


def test_json_output_is_one_document_matching_the_schema(
    capsys: pytest.CaptureFixture[str], files: Dict[str, str]
) -> None:
    order = ["refused", "accepted", "bad", "typo", "missing"]
    result = run(capsys, "check", "--format", "json", *(files[r] for r in order))
    assert result.code == 2
    document = result.json()
    validate_output(document)
    assert document["ok"] is False
    entries = dict(zip(order, document["files"]))
    assert [e["path"] for e in document["files"]] == [files[r] for r in order]

    refused = entries["refused"]
    assert (refused["ok"], refused["error"], refused["violations"]) == (False, None, [])
    assert (refused["violation_count"], refused["clash_count"]) == (1, 1)
    assert [
        {k: v[k] for k in ("rule", "consumers", "name", "tools")} for v in refused["clashes"]
    ] == [
        {
            "rule": "CMP-9",
            "consumers": ["agent_1"],
            "name": "web_search",
            "tools": [
                {
                    "id": "tool_a",
                    "label": "Web Search",
                    "path": ["tool_a", "box_1", "agent_1"],
                    "location": {"line": 3, "column": 5},
                },
                {
                    "id": "tool_b",
                    "label": "web-search",
                    "path": ["tool_b", "box_1", "agent_1"],
                    "location": {"line": 4, "column": 5},
                },
            ],
        }
    ]
    assert refused["clashes"][0]["location"] == {"line": 10, "column": 5}
    assert refused["clashes"][0]["fix"] == [
        {"node": "tool_b", "label": "web-search", "new_label": "web-search (tool_b)", "new_name": "web_search_tool_b"}
    ]
    assert refused["stats"] == {"nodes": 3, "edges": 3, "tool_edges": 3, "consumers": 1, "passthroughs": 1}

    assert entries["accepted"]["ok"] is True and entries["accepted"]["violations"] == []

    bad = entries["bad"]
    assert (bad["ok"], bad["violations"]) == (False, [])
    assert (bad["error"]["line"], bad["error"]["column"]) == (2, 1)

    (typo,) = entries["typo"]["violations"]
    assert {k: typo[k] for k in ("rule", "edge", "edge_id", "edge_type")} == {
        "rule": "EDGE-5",
        "edge": 0,
        "edge_id": "e0",
        "edge_type": "tool_availabilty",
    }
    assert (typo["location"], typo["suggestion"]) == ({"line": 1, "column": 12}, "tool_availability")

    missing = entries["missing"]
    assert (missing["ok"], missing["violations"]) == (False, [])
    assert (missing["error"]["line"], missing["error"]["column"]) == (None, None)


def test_json_output_all_accepted(capsys: pytest.CaptureFixture[str], files: Dict[str, str]) -> None:
    result = run(capsys, "check", "--format", "json", files["accepted"], files["accepted"])
    assert result.code == 0
    document = result.json()
    validate_output(document)
    assert document["ok"] is True and len(document["files"]) == 2


def test_json_input_error_found_after_parsing_names_the_duplicate_id(
    capsys: pytest.CaptureFixture[str], files: Dict[str, str]
) -> None:
    # A duplicate id (R2) is found after parsing: the message names the id.
    document = run(capsys, "check", "--format", "json", files["duplicate"]).json()
    validate_output(document)
    (entry,) = document["files"]
    assert "dup_node" in entry["error"]["message"]


def test_json_file_entry_each_is_the_reports_to_dict(capsys: pytest.CaptureFixture[str], files: Dict[str, str]) -> None:
    # report.to_dict() is the per-file object of the JSON output with
    # --json-violations each, counts included, without clash_count (and but
    # for paths longer than --max-path, which a small report does not have).
    argv = ["check", "--format", "json", "--json-violations", "each", files["refused"]]
    (entry,) = run(capsys, *argv).json()["files"]
    report = toolwire.check_file(files["refused"])
    assert (entry["violation_count"], entry["violations_omitted"], entry.pop("clash_count")) == (1, 0, 1)
    assert entry == report.to_dict() == json.loads(report.to_json())
    # By clash, the same violation is a clash at its one consumer.
    (entry,) = run(capsys, "check", "--format", "json", files["refused"]).json()["files"]
    ((violation, clash),) = zip(report.to_dict()["violations"], entry["clashes"])
    assert {k: clash[k] for k in violation if k != "consumer"} == {k: v for k, v in violation.items() if k != "consumer"}
    assert (clash["consumers"], clash["consumer_count"], clash["through"]) == ([violation["consumer"]], 1, "box_1")


def test_json_output_exit_codes_follow_the_verdict(capsys: pytest.CaptureFixture[str], files: Dict[str, str]) -> None:
    assert run(capsys, "check", "--format", "json", files["refused"]).code == 1
    assert run(capsys, "check", "--format", "json", "--exit-zero", files["refused"]).code == 0


# --- options ----------------------------------------------------------------------


def test_passthrough_type_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Two "Search" tools reach "ag" only if "kit" and "bag" forward them.
    document = {
        "nodes": [
            {"id": "t1", "data": {"label": "Search"}},
            {"id": "t2", "data": {"label": "search"}},
            {"id": "kit", "type": "kit", "data": {"label": "Kit"}},
            {"id": "bag", "type": "bag", "data": {"label": "Bag"}},
        ],
        "edges": [
            {"source": s, "target": t, "data": {"edgeType": "tool_availability"}}
            for s, t in [("t1", "kit"), ("t2", "bag"), ("kit", "ag"), ("bag", "ag")]
        ],
    }
    path = write(tmp_path, "custom.json", document)
    assert run(capsys, "check", path).code == 0
    assert run(capsys, "check", "--passthrough-type", "kit", path).code == 0
    result = run(capsys, "check", "--passthrough-type", "kit", "--passthrough-type", "bag", path)
    assert result.code == 1
    assert "path: t1 -> kit (Kit) -> ag" in result.lines and "path: t2 -> bag (Bag) -> ag" in result.lines


def test_edge_type_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    document = {"edges": [{"source": "a", "target": "b", "data": {"edgeType": "agent_result"}}]}
    path = write(tmp_path, "edge-types.json", document)
    assert run(capsys, "check", path).code == 1  # EDGE-5: not recognised by default
    assert run(capsys, "check", "--edge-type", "agent_result", "--edge-type", "data", path).code == 0


# --- standard input ---------------------------------------------------------------


def feed_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_dash_reads_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, files: Dict[str, str]
) -> None:
    feed_stdin(monkeypatch, Path(files["refused"]).read_bytes())
    result = run(capsys, "check", "-")
    assert result.code == 1
    assert any(line.startswith("<stdin>:10:5: error[CMP-9]") for line in result.lines)


def test_dash_reads_standard_input_as_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, files: Dict[str, str]
) -> None:
    feed_stdin(monkeypatch, Path(files["accepted"]).read_bytes())
    result = run(capsys, "check", "--format", "json", "-", files["refused"])
    assert result.code == 1
    document = result.json()
    validate_output(document)
    assert [(e["path"], e["ok"]) for e in document["files"]] == [("<stdin>", True), (files["refused"], False)]


def test_dash_with_invalid_json_is_an_input_error_with_position(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    feed_stdin(monkeypatch, b'{\n  "nodes": [1,]\n}')
    result = run(capsys, "check", "--format", "json", "-")
    assert result.code == 2
    (entry,) = result.json()["files"]
    assert entry["error"]["message"] == "invalid JSON: trailing comma before ']'"
    assert (entry["error"]["line"], entry["error"]["column"]) == (2, 14)


# --- real processes ----------------------------------------------------------------


def console_script() -> str:
    script = Path(sys.executable).parent / "toolwire"
    found = str(script) if script.exists() else shutil.which("toolwire")
    if found is None:
        pytest.skip("the toolwire console script is not installed beside this Python")
    return found


def spawn(argv: List[str], cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        cwd=cwd,
        input=stdin.decode(),
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_python_m_toolwire_json(tmp_path: Path, files: Dict[str, str]) -> None:
    done = spawn([sys.executable, "-m", "toolwire", "check", "--format", "json", "refused.json", "accepted.json"], tmp_path)
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    validate_output(document)
    assert [(e["path"], e["ok"]) for e in document["files"]] == [("refused.json", False), ("accepted.json", True)]


def test_console_script_exit_codes(tmp_path: Path, files: Dict[str, str]) -> None:
    script = console_script()
    assert spawn([script, "check", "accepted.json"], tmp_path).returncode == 0
    refused = spawn([script, "check", "refused.json"], tmp_path)
    assert refused.returncode == 1
    assert "path: tool_a -> box_1 (My Tools) -> agent_1" in refused.stdout
    errored = spawn([script, "check", "refused.json", "bad.json"], tmp_path)
    assert errored.returncode == 2
    assert "bad.json:2:1: error: " in errored.stdout
    usage = spawn([script, "check"], tmp_path)
    assert usage.returncode == 2 and "usage" in usage.stderr


def test_console_script_reads_standard_input(tmp_path: Path, files: Dict[str, str]) -> None:
    done = spawn([console_script(), "check", "-"], tmp_path, stdin=Path(files["refused"]).read_bytes())
    assert done.returncode == 1
    assert "path: tool_b -> box_1 (My Tools) -> agent_1" in done.stdout


def test_output_file_gets_the_report_and_no_temporary_file_is_left(
    capsys: pytest.CaptureFixture[str], files: Dict[str, str], tmp_path: Path
) -> None:
    report = tmp_path / "report.json"
    assert main(["check", "--format", "json", "--output", str(report), files["refused"]]) == 1
    assert capsys.readouterr().out == "", "the report goes to the file, not standard output"
    assert json.loads(report.read_text(encoding="utf-8"))["ok"] is False
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".toolwire-")] == []


def test_output_file_is_never_left_truncated(
    monkeypatch: pytest.MonkeyPatch, files: Dict[str, str], tmp_path: Path
) -> None:
    """A failure half-way through writing (a full disk, a crash) leaves the
    previous report whole and no temporary file behind."""
    from toolwire import _check_command

    report = tmp_path / "report.json"
    report.write_text('{"previous": true}', encoding="utf-8")

    def write_half_then_fail(run: Any, out: Any) -> None:
        out.write('{"ok": tr')
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_check_command, "writer", lambda format: write_half_then_fail)
    assert main(["check", "--format", "json", "--output", str(report), files["refused"]]) == 2
    assert report.read_text(encoding="utf-8") == '{"previous": true}'
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".toolwire-")]
