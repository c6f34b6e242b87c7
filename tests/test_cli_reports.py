"""``toolwire check`` end to end: each ``--format`` through the CLI, and the
options around the report (``--strict`` and the configuration file,
``--exit-zero``, colour, ``--output``, input errors on stderr, the progress
bar). The formats' own details are tested in test_formats_machine.py and
test_format_text.py; here, that the command line wires them up.

Every test runs from an empty repository in a temporary directory (a
``.git`` directory stops the configuration search there), with the spec
examples and multi-violation.json copied in under short relative names, as
a CI job would run it from the root of its checkout.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List

import jsonschema
import pytest

import toolwire
from support import DATA, SHARED, need_shared
from test_cli import run, validate_output

Json = Dict[str, Any]

# Short names in the working directory: refused, accepted, multi.
EXAMPLES = {
    "refused.json": "spec-cmp9-refused.json",
    "accepted.json": "spec-cmp9-accepted.json",
    "multi.json": "multi-violation.json",
    "shared.json": "shared-toolbox.json",
}
PATHS = list(EXAMPLES)[:3]
KNOWN_RULES = {"CMP-9", "EDGE-5", "R8", "NAME-LOSSY", "NAME-UNNAMED"}
MACHINE_FORMATS = ["json", "sarif", "github", "junit"]
ESCAPE = "\x1b"


@pytest.fixture(autouse=True)
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working directory: an empty repository holding the examples and
    ``bad.json`` (invalid JSON, which breaks off at line 2, column 1); no
    colour variables set."""
    root = tmp_path / "project"
    (root / ".git").mkdir(parents=True)
    for name, source in EXAMPLES.items():
        shutil.copyfile(DATA / source, root / name)
    (root / "bad.json").write_text('{"nodes": [\n', encoding="utf-8")
    monkeypatch.chdir(root)
    for variable in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(variable, raising=False)
    return root


def findings(paths: List[str], strict: bool = False) -> Counter[str]:
    """The rule or warning code of every finding in ``paths``, as the API
    reports them: what every format must carry."""
    codes: Counter[str] = Counter()
    for path in paths:
        report = toolwire.check_file(path)
        codes.update(v.rule for v in report.violations)
        codes.update(w.code for w in report.warnings)
    return codes


def untimed(report: str) -> str:
    return re.sub(r' time="[0-9.]+"', "", report)


def configure(body: str) -> None:
    Path("pyproject.toml").write_text(f"[tool.toolwire]\n{body}\n", encoding="utf-8")


# --- each format, through the CLI --------------------------------------------------


def test_examples_as_json_match_the_schema(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "check", "--format", "json", *PATHS)
    assert (result.code, result.err) == (1, "")
    document = result.json()
    validate_output(document)
    assert (document["ok"], document["strict"]) == (False, False)
    assert [(f["path"], f["ok"]) for f in document["files"]] == [
        ("refused.json", False),
        ("accepted.json", True),
        ("multi.json", False),
    ]
    counts = [(f["violation_count"], f["clash_count"], f["violations_omitted"]) for f in document["files"]]
    assert counts == [(1, 1, 0), (0, 0, 0), (3, 2, 0)]
    assert document["listing"] == "clashes"
    assert [[c["name"] for c in f["clashes"]] for f in document["files"]] == [
        ["web_search"],
        [],
        ["web_search", "fetch_page"],
    ]
    # One by one, each file object is the report's to_dict(), and its clash count.
    each = run(capsys, "check", "--format", "json", "--json-violations", "each", *PATHS).json()
    validate_output(each)
    assert each["listing"] == "each"
    assert [f.pop("clash_count") for f in each["files"]] == [1, 0, 2]
    assert each["files"] == [toolwire.check_file(p).to_dict() for p in PATHS]


@pytest.fixture
def sarif_schema() -> Any:
    schema_path = need_shared(SHARED / "data" / "sarif-schema-2.1.0.json")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def test_examples_as_sarif_one_result_per_finding(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "check", "--format", "sarif", *PATHS)
    assert (result.code, result.err) == (1, "")
    document = result.json()
    assert document["version"] == "2.1.0"
    (sarif_run,) = document["runs"]
    results = sarif_run["results"]
    assert Counter(r["ruleId"] for r in results) == findings(PATHS)
    assert {r["ruleId"] for r in results} <= KNOWN_RULES
    assert Counter(r["level"] for r in results) == {"error": 4, "warning": 6}
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    assert set(uris) == set(PATHS)
    assert sarif_run["invocations"][0]["executionSuccessful"] is True


def test_examples_as_sarif_match_the_official_schema(capsys: pytest.CaptureFixture[str], sarif_schema: Any) -> None:
    for argv in (["--strict", *PATHS], [*PATHS, "bad.json", "missing.json"]):
        document = run(capsys, "check", "--format", "sarif", *argv).json()
        assert [e.message for e in sarif_schema.iter_errors(document)] == []


def test_examples_as_github_annotations_one_line_per_finding(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "check", "--format", "github", *PATHS)
    assert (result.code, result.err) == (1, "")
    lines = result.out.splitlines()
    assert all(line.startswith(("::error ", "::warning ")) for line in lines)
    titles = Counter(line.split("title=", 1)[1].split("::", 1)[0] for line in lines)
    assert titles == findings(PATHS)
    assert sum(line.startswith("::error ") for line in lines) == 4
    assert {line.split("file=", 1)[1].split(",", 1)[0] for line in lines} == set(PATHS)


def test_examples_as_junit_a_test_case_per_file_and_per_finding(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "check", "--format", "junit", *PATHS)
    assert (result.code, result.err) == (1, "")
    suites = ET.fromstring(result.out)
    assert suites.tag == "testsuites"
    cases = suites.findall("./testsuite/testcase")
    assert [c.get("file") for c in cases] == ["refused.json"] * 2 + ["accepted.json"] + ["multi.json"] * 4
    assert [c.get("name") for c in cases if c.get("name") in PATHS] == PATHS
    assert [len(c.findall("failure")) for c in cases] == [0, 1, 0, 0, 1, 1, 1]
    assert (suites.get("tests"), suites.get("failures"), suites.get("errors")) == ("7", "4", "0")


def test_github_prints_nothing_for_an_accepted_file_without_warnings(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    (project / "clean.json").write_text('{"nodes": [{"id": "a"}]}', encoding="utf-8")
    assert (run(capsys, "check", "--format", "github", "clean.json").code, capsys.readouterr().out) == (0, "")


@pytest.mark.parametrize("output_format", ["text", *MACHINE_FORMATS])
def test_the_format_never_changes_the_exit_status(capsys: pytest.CaptureFixture[str], output_format: str) -> None:
    statuses = [
        run(capsys, "check", "--format", output_format, *argv).code
        for argv in (["accepted.json"], ["refused.json"], ["accepted.json", "bad.json"], ["--strict", "accepted.json"])
    ]
    assert statuses == [0, 1, 2, 1]


def test_jobs_do_not_change_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check", "--format", "json", *PATHS, "bad.json", *PATHS]
    outputs = {run(capsys, *argv, "--jobs", str(jobs)).out for jobs in (1, 2, 8)}
    assert len(outputs) == 1


# --- strict, configuration, exit-zero ------------------------------------------


def test_warnings_only_exit_0_and_1_under_strict(capsys: pytest.CaptureFixture[str]) -> None:
    assert findings(["accepted.json"]) == {"R8": 2}
    assert run(capsys, "check", "accepted.json").code == 0
    strict = run(capsys, "check", "--strict", "accepted.json")
    assert strict.code == 1
    assert strict.summary.endswith(": 0 violations, 2 warnings (errors under --strict)")
    assert sum("error[R8]" in line for line in strict.lines) == 2


def test_strict_true_in_pyproject_applies_and_no_strict_beats_it(capsys: pytest.CaptureFixture[str]) -> None:
    configure("strict = true")
    configured = run(capsys, "check", "--format", "json", "accepted.json")
    assert configured.code == 1 and configured.json()["strict"] is True
    overridden = run(capsys, "check", "--format", "json", "--no-strict", "accepted.json")
    assert overridden.code == 0 and overridden.json()["strict"] is False
    assert run(capsys, "check", "--no-config", "accepted.json").code == 0


def test_strict_false_in_pyproject_and_strict_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    configure("strict = false")
    assert run(capsys, "check", "accepted.json").code == 0
    assert run(capsys, "check", "--strict", "accepted.json").code == 1


def test_format_in_pyproject_is_the_default_and_the_command_line_overrides_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure('format = "json"')
    by_default = run(capsys, "check", "refused.json")
    assert by_default.code == 1
    validate_output(by_default.json())
    as_text = run(capsys, "check", "--format", "text", "refused.json")
    assert as_text.code == 1
    assert as_text.lines[0].startswith("refused.json:10:5: error[CMP-9]: ")
    assert as_text.summary.startswith("checked 1 file")


def test_the_configuration_is_found_from_a_subdirectory(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, project: Path
) -> None:
    configure('format = "github"\nstrict = true')
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    result = run(capsys, "check", "../accepted.json")
    assert result.code == 1
    assert [line[: len("::error ")] for line in result.out.splitlines()] == ["::error "] * 2


def test_exit_zero_with_strict_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", "--strict", "--exit-zero", "accepted.json").code == 0
    configure("strict = true")
    assert run(capsys, "check", "--exit-zero", "accepted.json", "refused.json").code == 0
    # Input errors are never waved through.
    assert run(capsys, "check", "--strict", "--exit-zero", "accepted.json", "bad.json").code == 2


def test_a_bad_configuration_exits_2_before_checking(capsys: pytest.CaptureFixture[str]) -> None:
    configure("stict = true")
    result = run(capsys, "check", "accepted.json")
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith("toolwire: pyproject.toml: [tool.toolwire] unknown key \"stict\"")


# --- colour -------------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_force_color_colours_standard_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    result = run(capsys, "check", "refused.json")
    assert result.code == 1
    assert ESCAPE + "[" in result.out


def test_no_color_without_force_color_leaves_standard_output_plain(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    result = run(capsys, "check", "refused.json", "multi.json")
    assert result.code == 1 and "error[CMP-9]" in result.out
    assert ESCAPE not in result.out


def test_a_terminal_is_coloured_unless_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolwire.cli import main

    for no_color, coloured in (("", True), ("1", False)):
        terminal = _Terminal()
        monkeypatch.setattr(sys, "stdout", terminal)
        monkeypatch.setenv("NO_COLOR", no_color)
        assert main(["check", "refused.json"]) == 1
        assert (ESCAPE + "[" in terminal.getvalue()) == coloured


def test_an_output_file_is_never_coloured(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setattr(sys, "stdout", _Terminal())
    from toolwire.cli import main

    assert main(["check", "--output", "report.txt", "refused.json", "multi.json", "bad.json"]) == 2
    text = Path("report.txt").read_text(encoding="utf-8")
    assert "error[CMP-9]" in text and ESCAPE not in text
    assert ESCAPE not in capsys.readouterr().err


@pytest.mark.parametrize("output_format", MACHINE_FORMATS)
def test_machine_formats_are_never_coloured(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, output_format: str
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    result = run(capsys, "check", "--format", output_format, *PATHS)
    assert result.out and ESCAPE not in result.out


# --- --output and errors on stderr ----------------------------------------------


@pytest.mark.parametrize("output_format", ["sarif", "junit"])
def test_output_file_gets_the_report_and_standard_output_nothing(
    capsys: pytest.CaptureFixture[str], output_format: str
) -> None:
    target = f"report.{output_format}"
    result = run(capsys, "check", "--format", output_format, "--output", target, *PATHS)
    assert (result.code, result.out, result.err) == (1, "", "")
    written = Path(target).read_text(encoding="utf-8")
    # The same report as on standard output, but for JUnit's run time.
    shown = run(capsys, "check", "--format", output_format, *PATHS).out
    assert untimed(written) == untimed(shown)
    if output_format == "sarif":
        assert json.loads(written)["version"] == "2.1.0"
    else:
        assert len(ET.fromstring(written).findall("./testsuite/testcase")) == len(PATHS) + 4  # and 4 findings


@pytest.mark.parametrize("to_file", [False, True], ids=["stdout", "output-file"])
@pytest.mark.parametrize("output_format", MACHINE_FORMATS)
def test_input_errors_are_reported_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], output_format: str, to_file: bool
) -> None:
    output = ["--output", "report.out"] if to_file else []
    result = run(capsys, "check", "--format", output_format, *output, "refused.json", "bad.json", "missing.json")
    assert result.code == 2
    errors = result.err.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith("bad.json:2:1: error: ")
    assert errors[1] == "missing.json: error: cannot read the file: No such file or directory"
    report = Path("report.out").read_text(encoding="utf-8") if to_file else result.out
    assert "bad.json" in report and "missing.json" in report, "the report lists them too"
    assert (result.out == "") == to_file


def test_text_on_standard_output_shows_input_errors_there_and_not_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = run(capsys, "check", "refused.json", "bad.json")
    assert (result.code, result.err) == (2, "")
    assert any(line.startswith("bad.json:2:1: error: ") for line in result.lines)


def test_text_into_a_file_also_shows_input_errors_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "check", "--output", "report.txt", "refused.json", "bad.json")
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith("bad.json:2:1: error: ") and result.err.count("\n") == 1


def test_an_unwritable_output_exits_2_and_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "check", "--format", "sarif", "--output", "no/such/dir/report.sarif", "accepted.json")
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith("toolwire: cannot write no/such/dir/report.sarif: ")


# --- the progress bar ---------------------------------------------------------------


def many_files(directory: Path, count: int) -> List[str]:
    """``count`` small workflows, every tenth refused."""
    directory.mkdir()
    refused = (DATA / "spec-cmp9-refused.json").read_text(encoding="utf-8")
    clean = json.dumps(
        {
            "nodes": [{"id": "t", "data": {"label": "Search"}}],
            "edges": [{"source": "t", "target": "t", "targetHandle": "t-input-tool"}],
        }
    )
    paths = []
    for i in range(count):
        path = directory / f"w{i:03}.json"
        path.write_text(refused if i % 10 == 0 else clean, encoding="utf-8")
        paths.append(str(path.relative_to(Path.cwd())))
    return paths


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_no_progress_bar_when_stderr_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str], project: Path, output_format: str
) -> None:
    paths = many_files(project / "many", 300)
    result = run(capsys, "check", "--format", output_format, *paths)
    assert result.code == 1
    assert result.err == ""
    with_error = run(capsys, "check", "--format", output_format, *paths, "bad.json")
    assert with_error.code == 2
    if output_format == "text":
        assert with_error.err == ""
    else:
        assert with_error.err.count("\n") == 1
        assert with_error.err.startswith("bad.json:2:1: error: ")


def test_a_real_process_writes_only_errors_to_a_piped_stderr(project: Path) -> None:
    """Stderr is a pipe here, not a terminal: no bar, no colour, only the
    one input error, and the report whole in its file."""
    paths = many_files(project / "many", 300)
    done = subprocess.run(
        [sys.executable, "-m", "toolwire", "check", "--format", "sarif", "--output", "out.sarif", *paths, "bad.json"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "FORCE_COLOR": "1", "TERM": "xterm"},
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("bad.json:2:1: error: ") and done.stderr.count("\n") == 1
    assert ESCAPE not in done.stderr
    document = json.loads((project / "out.sarif").read_text(encoding="utf-8"))
    (sarif_run,) = document["runs"]
    assert Counter(r["ruleId"] for r in sarif_run["results"]) == {"CMP-9": 30, "R8": 30}
    (notification,) = sarif_run["invocations"][0]["toolExecutionNotifications"]
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad.json"


# --- --max-violations, --max-path, --version ------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, "--version")
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"toolwire {toolwire.__version__}\n"


def test_max_violations_in_every_format(capsys: pytest.CaptureFixture[str]) -> None:
    # multi.json: an EDGE-5 violation, two clashes, three warnings. The
    # first violation in the report's order is the EDGE-5 one.
    argv = ["check", "--max-violations", "1", "multi.json"]
    document = run(capsys, *argv, "--format", "json").json()
    validate_output(document)
    (entry,) = document["files"]
    assert (entry["violation_count"], entry["violations_omitted"]) == (3, 2)
    assert [v["rule"] for v in entry["violations"]] == ["EDGE-5"] and entry["clashes"] == []
    entry = run(capsys, "check", "--max-violations", "2", "multi.json", "--format", "json").json()["files"][0]
    assert ([v["rule"] for v in entry["violations"]], [c["name"] for c in entry["clashes"]]) == (["EDGE-5"], ["web_search"])
    assert entry["violations_omitted"] == 1
    entry = run(capsys, *argv, "--format", "json", "--json-violations", "each").json()["files"][0]
    assert [v["rule"] for v in entry["violations"]] == ["EDGE-5"] and entry["violations_omitted"] == 2

    text = run(capsys, *argv)
    assert text.code == 1
    assert sum("error[" in line for line in text.lines) == 1
    assert "multi.json: note: 2 more violations not shown (--max-violations 1: at most 1 finding per file)" in text.lines
    assert text.summary.endswith(": 3 violations, 3 warnings")

    sarif = run(capsys, *argv, "--format", "sarif").json()["runs"][0]
    assert [r["ruleId"] for r in sarif["results"]] == ["EDGE-5", "R8", "NAME-LOSSY", "NAME-UNNAMED"]
    (note,) = sarif["invocations"][0]["toolExecutionNotifications"]
    assert note["properties"] == {"violationsOmitted": 2, "warningsOmitted": 0}

    github = run(capsys, *argv, "--format", "github").out.splitlines()
    assert [line.split(" ", 1)[0] for line in github] == ["::error"] + ["::warning"] * 3 + ["::notice"]
    assert "title=EDGE-5" in github[0]  # the finding every other format keeps
    assert github[-1] == (
        "::notice title=toolwire::2 more violations not annotated: --max-violations 1 keeps at most 1 finding "
        "per file. `toolwire check` without --max-violations prints every one."
    )

    cases = ET.fromstring(run(capsys, *argv, "--format", "junit").out).findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == ["multi.json", "multi.json: EDGE-5 edge 13 (e13)"]
    out = cases[0].findtext("system-out")
    assert out is not None and out.endswith("multi.json: 2 more violations not listed (--max-violations 1)")


def test_max_violations_and_max_path_in_pyproject_and_overridden(capsys: pytest.CaptureFixture[str]) -> None:
    configure("max-violations = 1\nmax-path = 2")
    entry = run(capsys, "check", "--format", "json", "multi.json").json()["files"][0]
    assert entry["violations_omitted"] == 2
    entry = run(capsys, "check", "--format", "json", "--max-violations", "0", "multi.json").json()["files"][0]
    assert entry["violations_omitted"] == 0  # 0: no limit
    paths = [t["path"] for t in entry["clashes"][0]["tools"]]
    assert paths == [
        ["bing_search", {"omitted": 1}, "research_agent"],
        ["google_search", {"omitted": 2}, "research_agent"],
    ]
    argv = ["check", "--format", "json", "--max-path", "0", "--max-violations", "0", "multi.json"]
    entry = run(capsys, *argv).json()["files"][0]
    assert entry["clashes"][0]["tools"][1]["path"] == ["google_search", "search_box", "research_kit", "research_agent"]
    configure("max-path = 1")
    result = run(capsys, "check", "multi.json")
    assert (result.code, result.out) == (2, "")
    assert "max-path must be 0 (no limit) or an integer of at least 2, got 1" in result.err


@pytest.mark.parametrize("argv", [["--max-path", "1"], ["--max-violations", "-1"], ["--max-violations", "many"]])
def test_bad_limits_on_the_command_line_exit_2(capsys: pytest.CaptureFixture[str], argv: List[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, "check", *argv, "multi.json")
    assert exited.value.code == 2


def test_text_says_a_file_with_only_warnings_passed_unless_strict(capsys: pytest.CaptureFixture[str]) -> None:
    result = run(capsys, "check", "accepted.json", "refused.json")
    assert "accepted.json: ok (2 warnings)" in result.lines
    assert not any(line.startswith("refused.json: ok") for line in result.lines)
    strict = run(capsys, "check", "--strict", "accepted.json")
    assert not any(": ok" in line for line in strict.lines)


def test_a_toolbox_into_five_agents_is_one_finding_in_every_format(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # shared.json: one toolbox with two tools named web_search, wired into
    # agent_1 to agent_5: five violations with one cause.
    text = run(capsys, "check", "shared.json")
    assert sum("error[CMP-9]" in line for line in text.lines) == 1
    assert "= at 5 consumers through kit (Shared Kit): agent_1, agent_2, agent_3 and 2 more" in text.lines
    assert text.summary.endswith(": 5 violations, 0 warnings")
    entry = run(capsys, "check", "--format", "json", "shared.json").json()["files"][0]
    (clash,) = entry["clashes"]
    assert clash["consumers"] == [f"agent_{i}" for i in range(1, 6)]
    assert (clash["consumer_count"], clash["consumers_omitted"], clash["through"]) == (5, 0, "kit")
    argv = ["check", "--format", "json", "--json-violations", "each", "shared.json"]
    entry = run(capsys, *argv).json()["files"][0]
    assert [v["consumer"] for v in entry["violations"]] == [f"agent_{i}" for i in range(1, 6)]
    (result,) = run(capsys, "check", "--format", "sarif", "shared.json").json()["runs"][0]["results"]
    assert result["properties"]["consumerCount"] == 5 and result["properties"]["through"] == "kit"
    (annotation,) = run(capsys, "check", "--format", "github", "shared.json").out.splitlines()
    assert '%0Athe same clash at 5 consumers through "kit": "agent_1", "agent_2", "agent_3", "agent_4" and "agent_5"' in annotation
    cases = ET.fromstring(run(capsys, "check", "--format", "junit", "shared.json").out).findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == ["shared.json", "shared.json: CMP-9 web_search at agent_1"]


def test_json_max_consumers_and_json_violations_on_the_command_line_and_in_pyproject(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def clash(*argv: str) -> Json:
        document = run(capsys, "check", "--format", "json", *argv, "shared.json").json()
        validate_output(document)
        (entry,) = document["files"]
        (only,) = entry["clashes"]
        result: Json = only
        return result

    assert clash("--max-consumers", "2")["consumers"] == ["agent_1", "agent_2"]
    assert clash("--max-consumers", "2")["consumers_omitted"] == 3
    assert len(clash("--max-consumers", "0")["consumers"]) == 5  # 0: every one
    configure('max-consumers = 3\njson-violations = "each"')
    document = run(capsys, "check", "--format", "json", "shared.json").json()
    validate_output(document)
    assert document["listing"] == "each" and "clashes" not in document["files"][0]
    assert len(document["files"][0]["violations"]) == 5
    overridden = clash("--json-violations", "clashes")
    assert (overridden["consumers"], overridden["consumers_omitted"]) == (["agent_1", "agent_2", "agent_3"], 2)
    assert clash("--json-violations", "clashes", "--max-consumers", "1")["consumers"] == ["agent_1"]
    for bad in (["--max-consumers", "-1"], ["--json-violations", "all"]):
        with pytest.raises(SystemExit) as exited:
            run(capsys, "check", *bad, "shared.json")
        assert exited.value.code == 2


@pytest.mark.parametrize("output_format", ["text", *MACHINE_FORMATS])
def test_every_example_through_every_format_reads_as_the_api_does(
    capsys: pytest.CaptureFixture[str], output_format: str, sarif_schema: Any
) -> None:
    """Each workflow of tests/data, and one that cannot be read, through the
    CLI: the report is valid, and says what the API's reports say, finding
    for finding."""
    paths = list(EXAMPLES)
    reports = [toolwire.check_file(p) for p in paths]
    edge5 = [sum(v.rule == "EDGE-5" for v in r.violations) for r in reports]
    clashes = [len(r.clash_groups()) for r in reports]
    pairs = [{(v.consumer, v.name) for v in r.violations if v.rule == "CMP-9"} for r in reports]
    result = run(capsys, "check", "--format", output_format, *paths, "bad.json")
    assert result.code == 2
    if output_format == "json":
        for listing in ("clashes", "each"):
            argv = ["check", "--format", "json", "--json-violations", listing, "--max-consumers", "0", *paths]
            document = run(capsys, *argv).json()
            validate_output(document)
            files = document["files"]
            assert [f["violation_count"] for f in files] == [r.violation_count for r in reports]
            assert [f["clash_count"] for f in files] == clashes
            cmp9 = [v for f in files for v in f["violations"] if v["rule"] == "CMP-9"]
            if listing == "clashes":
                assert cmp9 == [] and [len(f["violations"]) for f in files] == edge5
                assert [{(c, k["name"]) for k in f["clashes"] for c in k["consumers"]} for f in files] == pairs
            else:
                assert [{(v["consumer"], v["name"]) for v in f["violations"] if v["rule"] == "CMP-9"} for f in files] == pairs
    elif output_format == "sarif":
        document = result.json()
        assert [e.message for e in sarif_schema.iter_errors(document)] == []
        results = document["runs"][0]["results"]
        for path, count, consumers in zip(paths, clashes, pairs):
            mine = [r for r in results if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == path]
            cmp9 = [r for r in mine if r["ruleId"] == "CMP-9"]
            assert len(cmp9) == count and sum(r["properties"]["consumerCount"] for r in cmp9) == len(consumers)
    elif output_format == "junit":
        cases = ET.fromstring(result.out).findall("./testsuite/testcase")
        for path, e5, count in zip(paths, edge5, clashes):
            mine = [c for c in cases if c.get("file") == path]
            assert [len(c.findall("failure")) for c in mine] == [0] + [1] * (e5 + count)
        assert [c.get("name") for c in cases][-1] == "bad.json"
    elif output_format == "github":
        lines = result.out.splitlines()
        assert all(line.startswith(("::error ", "::warning ")) for line in lines)
        assert sum("title=CMP-9" in line for line in lines) == sum(clashes)
        assert sum("title=EDGE-5" in line for line in lines) == sum(edge5)
    else:
        for path, e5, count in zip(paths, edge5, clashes):
            headers = [line for line in result.lines if line.startswith(f"{path}:") and "error[" in line]
            assert len(headers) == e5 + count
        total = sum(r.violation_count for r in reports)
        assert result.summary.startswith("checked 4 of 5 files") and f": {total} violations, " in result.summary
