"""What a run reports: ``--select``, ``--ignore`` and ``--quiet`` (and the
same keys of ``[tool.toolwire]``), the counts by code, ``-v`` and the JSON
report's ``config_file``, and the node and edge type options
(``--edge-type`` adds, ``--edge-types`` replaces)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Dict, List, NamedTuple

import pytest

import toolwire
from toolwire import _select
from toolwire.cli import main

from support import DATA

MULTI = str(DATA / "multi-violation.json")  # EDGE-5, CMP-9, R8, NAME-LOSSY, NAME-UNNAMED
REFUSED = str(DATA / "spec-cmp9-refused.json")  # CMP-9 and R8
FORMATS = ("text", "json", "sarif", "github", "junit")


class Done(NamedTuple):
    code: int
    out: str
    err: str


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Done:
    code = main(list(argv))
    captured = capsys.readouterr()
    return Done(code, captured.out, captured.err)


def codes_in(format: str, out: str) -> List[str]:
    """The code of every finding a report lists, whatever its format."""
    if format == "text":
        return [line.split("[", 1)[1].split("]", 1)[0] for line in out.splitlines() if "error[" in line or "warning[" in line]
    if format == "json":
        document = json.loads(out)
        found = []
        for file in document["files"]:
            found += [v["rule"] for v in file["violations"]] + [c["rule"] for c in file.get("clashes", [])]
            found += [w["code"] for w in file["warnings"]]
        return found
    if format == "sarif":
        return [r["ruleId"] for r in json.loads(out)["runs"][0]["results"]]
    if format == "github":
        return [line.split("title=", 1)[1].split("::", 1)[0] for line in out.splitlines() if line.startswith(("::error", "::warning"))]
    root = ET.fromstring(out)
    found = [f.get("type", "") for f in root.iter("failure")]
    found += [line.split(" warning ", 1)[1].split(":", 1)[0] for s in root.iter("system-out") for line in (s.text or "").splitlines() if " warning " in line]
    return found


# --- --select and --ignore ----------------------------------------------------------


def test_every_code_is_found_without_a_selection(capsys: pytest.CaptureFixture[str]) -> None:
    for format in FORMATS:
        done = run(capsys, "check", "--format", format, MULTI)
        assert done.code == 1
        assert set(codes_in(format, done.out)) == {"EDGE-5", "CMP-9", "R8", "NAME-LOSSY", "NAME-UNNAMED"}, format


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize(
    ("argv", "left", "code"),
    [
        (["--ignore", "CMP-9"], {"EDGE-5", "R8", "NAME-LOSSY", "NAME-UNNAMED"}, 1),
        (["--ignore", "cmp-9,EDGE-5"], {"R8", "NAME-LOSSY", "NAME-UNNAMED"}, 0),  # ignored fails nothing
        (["--ignore", "EDGE"], {"CMP-9", "R8", "NAME-LOSSY", "NAME-UNNAMED"}, 1),
        (["--select", "NAME"], {"NAME-LOSSY", "NAME-UNNAMED"}, 0),
        (["--select", "CMP-9", "--select", "R8"], {"CMP-9", "R8"}, 1),  # repeated: together
        (["--select", "NAME,R8", "--ignore", "NAME-UNNAMED"], {"NAME-LOSSY", "R8"}, 0),
        (["--select", "NAME", "--strict"], {"NAME-LOSSY", "NAME-UNNAMED"}, 1),
        (["--ignore", "R8,NAME", "--strict"], {"CMP-9", "EDGE-5"}, 1),
        (["--select", "R8", "--ignore", "R8", "--strict"], set(), 0),
    ],
)
def test_a_selection_applies_to_every_format_and_to_the_exit_status(
    capsys: pytest.CaptureFixture[str], format: str, argv: List[str], left: set, code: int
) -> None:
    done = run(capsys, "check", "--format", format, *argv, MULTI)
    assert set(codes_in(format, done.out)) == left
    assert done.code == code


def test_the_counts_follow_the_selection(capsys: pytest.CaptureFixture[str]) -> None:
    whole = run(capsys, "check", "--format", "json", MULTI).out
    assert json.loads(whole)["code_counts"] == {"CMP-9": 2, "EDGE-5": 1, "R8": 1, "NAME-LOSSY": 1, "NAME-UNNAMED": 1}
    document = json.loads(run(capsys, "check", "--format", "json", "--ignore", "EDGE-5,NAME-LOSSY", MULTI).out)
    assert document["code_counts"] == {"CMP-9": 2, "R8": 1, "NAME-UNNAMED": 1}
    assert document["codes"] == [
        "CMP-9",
        "CMP-10",
        "R8",
        "CMP-10-UNKNOWN",
        "NAME-UNNAMED",
        "DUPLICATE-KEY",
        "CMP-9-CALL-UNKNOWN",
        "CMP-9-PORT",
        "CMP-9-ID",
    ]
    (file,) = document["files"]
    # The CMP-9 clashes are the report's, read lazily after the EDGE-5 ones.
    assert (file["violation_count"], file["clash_count"], file["violations"]) == (2, 2, [])
    text = run(capsys, "check", "--ignore", "EDGE-5,NAME-LOSSY", MULTI).out.splitlines()
    assert text[-2:] == [
        "CMP-9: 2, R8: 1, NAME-UNNAMED: 1; not reported: EDGE-5, NAME-LOSSY (--select/--ignore)",
        text[-1],
    ]
    assert text[-1].endswith(": 2 violations, 2 warnings")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--select", "CMP-11"], 'argument --select: unknown code "CMP-11"'),
        (["--ignore", "NAME-LOSY"], 'argument --ignore: unknown code "NAME-LOSY"'),
        (["--ignore", "R"], 'argument --ignore: unknown code "R"'),  # R8 has no family
        (["--select", ""], "argument --select: no code given"),
        (["--select", "CMP-9,,R8"], 'argument --select: an empty code in "CMP-9,,R8"'),
    ],
)
def test_an_unknown_or_empty_code_is_a_usage_error_naming_it(
    capsys: pytest.CaptureFixture[str], argv: List[str], says: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["check", *argv, REFUSED])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert says in err
    assert (
        "codes: CMP-9, CMP-10, EDGE-5, R8, CMP-10-UNKNOWN, NAME-LOSSY, NAME-UNNAMED, DUPLICATE-KEY, "
        "CMP-9-CALL-UNKNOWN, CMP-9-PORT, CMP-9-ID; families: CMP, EDGE, NAME, DUPLICATE" in err
    )


def test_the_order_of_the_codes_is_fixed() -> None:
    assert _select.selected([(["NAME-UNNAMED", "R8", "CMP-9"], None)]) == ("CMP-9", "R8", "NAME-UNNAMED")
    assert list(_select.code_counts([toolwire.check_file(MULTI)] * 2)) == [
        "CMP-9", "EDGE-5", "R8", "NAME-LOSSY", "NAME-UNNAMED"
    ]  # fmt: skip


def test_the_command_line_is_applied_after_the_configuration_file() -> None:
    # The file selects NAME and ignores NAME-LOSSY; the command line's
    # --select starts again, its --ignore narrows what is selected.
    file = (["NAME"], ["NAME-LOSSY"])
    assert _select.selected([file, (None, None)]) == ("NAME-UNNAMED",)
    assert _select.selected([file, (["NAME-LOSSY"], None)]) == ("NAME-LOSSY",)
    assert _select.selected([file, (None, ["NAME-UNNAMED"])]) == ()
    assert _select.selected([(None, ["CMP-9"]), (["CMP"], None)]) == ("CMP-9", "CMP-10")


def test_a_selection_keeps_a_report_lazy() -> None:
    report = toolwire.check_file(MULTI)
    only_cmp9 = _select.Selection(("CMP-9",)).apply(report)
    assert [v.rule for v in only_cmp9.violations] == ["CMP-9", "CMP-9"]
    assert only_cmp9.violations == report.violations[1:]
    assert [g.name for g in only_cmp9.clash_groups()] == [g.name for g in report.clash_groups()]
    assert list(only_cmp9.warnings) == []
    names = _select.Selection(("NAME-LOSSY", "NAME-UNNAMED")).apply(report)
    assert names.ok and [w.code for w in names.warnings] == ["NAME-LOSSY", "NAME-UNNAMED"]
    assert names.warnings[-1] == report.warnings[-1] and names.warnings[:1] == [report.warnings[1]]
    assert _select.Selection().apply(report) is report


# --- --quiet ---------------------------------------------------------------------------


@pytest.mark.parametrize("format", FORMATS)
def test_quiet_lists_violations_only_in_every_format(capsys: pytest.CaptureFixture[str], format: str) -> None:
    done = run(capsys, "check", "--format", format, "--quiet", MULTI, REFUSED)
    assert set(codes_in(format, done.out)) == {"EDGE-5", "CMP-9"}
    assert done.code == 1


def test_quiet_still_counts_the_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    lines = run(capsys, "check", "-q", str(DATA / "spec-cmp9-accepted.json")).out.splitlines()
    # No warning, no "ok" line: that CMP-10 was not checked, the counts and the summary only.
    assert lines == [
        "note: CMP-10 not checked: no node-type catalogue (--node-types)",
        "R8: 2",
        "checked 1 file (2 consumers): 0 violations, 2 warnings (not listed: --quiet)",
    ]
    assert lines[-1].endswith(": 0 violations, 2 warnings (not listed: --quiet)")
    document = json.loads(run(capsys, "check", "-q", "--format", "json", str(DATA / "spec-cmp9-accepted.json")).out)
    assert (document["quiet"], document["files"][0]["warnings"], document["code_counts"]) == (True, [], {"R8": 2})


def test_under_strict_quiet_lists_the_warnings_that_fail(capsys: pytest.CaptureFixture[str]) -> None:
    for format in FORMATS:
        done = run(capsys, "check", "--format", format, "--quiet", "--strict", MULTI)
        assert set(codes_in(format, done.out)) == {"EDGE-5", "CMP-9", "R8", "NAME-LOSSY", "NAME-UNNAMED"}


def test_quiet_on_a_generated_workflow_with_many_lossy_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = str(tmp_path / "unicode.json")
    assert main(["generate", "--preset", "small", "--label-style", "unicode", path]) == 0
    capsys.readouterr()
    report = toolwire.check_file(path)
    lossy = sum(w.code == "NAME-LOSSY" for w in report.warnings)
    assert lossy > 500 and report.violation_count > 0
    loud = run(capsys, "check", path)
    quiet = run(capsys, "check", "--quiet", path)
    assert loud.code == quiet.code == 1
    assert "warning[NAME-LOSSY]" in loud.out and "warning[" not in quiet.out
    assert len(quiet.out.splitlines()) < len(loud.out.splitlines()) - lossy
    counts = _select.code_counts([report])
    assert counts["NAME-LOSSY"] == lossy
    assert f"NAME-LOSSY: {lossy:,}" in quiet.out.splitlines()[-2]
    # Ignoring the lossy names keeps every other warning.
    ignored = json.loads(run(capsys, "check", "--format", "json", "--ignore", "NAME-LOSSY", path).out)
    kept = [w["code"] for w in ignored["files"][0]["warnings"]]
    assert "NAME-LOSSY" not in kept and len(kept) == len(report.warnings) - lossy
    assert "NAME-LOSSY" not in ignored["code_counts"]


# --- [tool.toolwire]: select, ignore, quiet -----------------------------------------------


def project(tmp_path: Path, table: str) -> Path:
    """A repository whose pyproject.toml has `table`, with the workflow in a
    subdirectory: the configuration file is in a parent directory."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(f"[tool.toolwire]\n{table}\n", encoding="utf-8")
    flows = tmp_path / "flows"
    flows.mkdir()
    (flows / "multi.json").write_text(Path(MULTI).read_text(encoding="utf-8"), encoding="utf-8")
    return flows


def test_the_configuration_file_selects_and_the_command_line_overrides(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project(tmp_path, 'select = ["NAME", "R8"]\nignore = ["R8"]\nquiet = true'))
    done = run(capsys, "check", "--format", "json", "multi.json")
    document = json.loads(done.out)
    assert (document["codes"], document["quiet"], done.code) == (["NAME-LOSSY", "NAME-UNNAMED"], True, 0)
    assert document["files"][0]["warnings"] == []
    done = run(capsys, "check", "--format", "json", "--select", "CMP-9,R8", "--no-quiet", "multi.json")
    document = json.loads(done.out)
    assert (document["codes"], document["quiet"], done.code) == (["CMP-9", "R8"], False, 1)
    assert codes_in("json", done.out) == ["CMP-9", "CMP-9", "R8"]


def test_an_unknown_code_in_the_configuration_file_names_the_file_and_the_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project(tmp_path, 'ignore = ["NAME-LOSY"]'))
    done = run(capsys, "check", "multi.json")
    assert done.code == 2
    assert done.err.startswith(
        'toolwire: ../pyproject.toml: [tool.toolwire] ignore must be a list of codes or families (codes: CMP-9, '
    )
    assert done.err.rstrip().endswith('got ["NAME-LOSY"]')


# --- which configuration file: -v and config_file -------------------------------------------


def test_verbose_and_the_json_report_say_which_configuration_file_was_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project(tmp_path, 'passthrough-types = ["kit"]'))
    done = run(capsys, "check", "-v", "--format", "json", "multi.json")
    assert json.loads(done.out)["config_file"] == "../pyproject.toml"
    assert done.err.splitlines() == [
        "toolwire: configuration: ../pyproject.toml ([tool.toolwire])",
        "toolwire: passthrough types: kit",
        "toolwire: edge types: data, trigger, loopback, error, tool_availability",
        "toolwire: codes reported: CMP-9, CMP-10, EDGE-5, R8, CMP-10-UNKNOWN, NAME-LOSSY, NAME-UNNAMED, DUPLICATE-KEY, "
        "CMP-9-CALL-UNKNOWN, CMP-9-PORT, CMP-9-ID",
    ]
    done = run(capsys, "check", "--verbose", "--no-config", "--format", "json", "multi.json")
    assert json.loads(done.out)["config_file"] is None
    assert done.err.splitlines()[:2] == [
        "toolwire: configuration: none (--no-config)",
        "toolwire: passthrough types: toolbox, flowdrop_node_processor_toolbox",
    ]
    # explain says it too; without -v nothing is said.
    assert run(capsys, "explain", "-v", "multi.json").err.startswith("toolwire: configuration: ../pyproject.toml")
    assert run(capsys, "check", "--format", "json", "multi.json").err == ""


def test_with_no_configuration_file_found_verbose_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    done = run(capsys, "check", "-v", "--format", "json", REFUSED)
    assert json.loads(done.out)["config_file"] is None
    assert done.err.splitlines()[0] == (
        "toolwire: configuration: none (no pyproject.toml with a [tool.toolwire] table from here up to the "
        "repository root)"
    )


# --- node and edge types: add with the singular, replace with the plural -----------------------


EDGES = {
    "edges": [
        {"source": "a", "target": "b", "data": {"edgeType": "agent_result"}},
        {"source": "b", "target": "c", "data": {"edgeType": "trigger"}},
    ]
}


def test_edge_type_adds_to_the_defaults_and_edge_types_replaces_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "edges.json"
    path.write_text(json.dumps(EDGES), encoding="utf-8")
    assert run(capsys, "check", str(path)).code == 1  # agent_result: EDGE-5
    done = run(capsys, "check", "--format", "json", "--edge-type", "agent_result", str(path))
    assert done.code == 0  # trigger is still recognised
    assert json.loads(done.out)["edge_types"] == ["data", "trigger", "loopback", "error", "tool_availability", "agent_result"]
    done = run(capsys, "check", "--format", "json", "--edge-types", "agent_result", str(path))
    assert done.code == 1 and [v["edge_type"] for v in json.loads(done.out)["files"][0]["violations"]] == ["trigger"]
    # tool_availability is recognised whatever the list: the effective list says so.
    assert json.loads(done.out)["edge_types"] == ["agent_result", "tool_availability"]
    done = run(capsys, "check", "--format", "json", "--edge-types", "agent_result,data", "--edge-type", "trigger", str(path))
    assert done.code == 0 and json.loads(done.out)["edge_types"] == ["agent_result", "data", "trigger", "tool_availability"]


def test_passthrough_type_adds_and_passthrough_types_replaces(capsys: pytest.CaptureFixture[str]) -> None:
    # Through box_1 (a toolbox) two tools clash at agent_1.
    assert run(capsys, "check", "--passthrough-type", "kit", REFUSED).code == 1
    document = json.loads(run(capsys, "check", "--format", "json", "--passthrough-type", "kit", REFUSED).out)
    assert document["passthrough_types"] == ["toolbox", "flowdrop_node_processor_toolbox", "kit"]
    # Without toolbox among them, box_1 forwards nothing: it is the consumer
    # its two tools clash at, and agent_1 gets box_1 alone.
    replaced = json.loads(run(capsys, "check", "--format", "json", "--passthrough-types", "kit", REFUSED).out)
    assert [c["consumers"] for c in replaced["files"][0]["clashes"]] == [["box_1"]]
    assert replaced["passthrough_types"] == ["kit"]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--edge-type", ""], "argument --edge-type: an empty type"),
        (["--edge-type", " "], "argument --edge-type: an empty type"),
        (["--passthrough-type", ""], "argument --passthrough-type: an empty type"),
        (["--edge-types", ""], "argument --edge-types: no type given"),
        (["--edge-types", "data,,trigger"], "argument --edge-types: an empty type in 'data,,trigger'"),
        (["--passthrough-types", "kit,"], "argument --passthrough-types: an empty type in 'kit,'"),
        (["--edge-type", "data,trigger"], "argument --edge-type: 'data,trigger' holds a comma"),
    ],
)
def test_an_empty_type_is_a_usage_error(capsys: pytest.CaptureFixture[str], argv: List[str], says: str) -> None:
    for command in ("check", "explain"):
        with pytest.raises(SystemExit) as stopped:
            main([command, *argv, REFUSED])
        assert stopped.value.code == 2
        assert says in capsys.readouterr().err


def test_help_shows_the_default_lists(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    help = " ".join(capsys.readouterr().out.split())
    assert "(default: data,trigger,loopback,error,tool_availability)" in help
    assert "(default: toolbox,flowdrop_node_processor_toolbox)" in help
    assert "tool_availability is recognised whatever the list says" in help


def test_the_configuration_lists_are_replaced_or_added_to_like_the_defaults(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flows = project(tmp_path, 'edge-types = ["agent_result"]')
    (flows / "edges.json").write_text(json.dumps(EDGES), encoding="utf-8")
    monkeypatch.chdir(flows)
    done = run(capsys, "check", "--format", "json", "edges.json")
    assert done.code == 1 and json.loads(done.out)["edge_types"] == ["agent_result", "tool_availability"]
    done = run(capsys, "check", "--format", "json", "--edge-type", "trigger", "edges.json")
    assert done.code == 0 and json.loads(done.out)["edge_types"] == ["agent_result", "trigger", "tool_availability"]
    assert run(capsys, "check", "--edge-types", "trigger", "edges.json").code == 1


def test_the_api_refuses_an_empty_type() -> None:
    for options in ({"edge_types": [""]}, {"passthrough_types": ["toolbox", ""]}):
        with pytest.raises(ValueError, match="must not contain an empty string"):
            toolwire.check_json(json.dumps(EDGES), **options)  # type: ignore[arg-type]
