"""``toolwire check`` never harms its input, and says the same thing the same
way every time: an ``--output`` that is an input is refused before anything
is read, output files get the mode a plain write gives, standard input is
read once and called ``<stdin>`` everywhere, and two runs print the same
bytes (issue 23)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

import pytest

from support import DATA
from test_cli import run

REFUSED = DATA / "spec-cmp9-refused.json"


@pytest.fixture(autouse=True)
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The working directory: a copy of the spec's refused example as
    ``flow.json``."""
    monkeypatch.chdir(tmp_path)
    shutil.copyfile(REFUSED, tmp_path / "flow.json")
    return tmp_path


def fingerprint(path: Path) -> Tuple[str, int, int, int]:
    """What ``git status`` looks at to call a file modified, and more: its
    bytes' hash, inode, size and modification time."""
    status = os.stat(path)
    return hashlib.sha256(path.read_bytes()).hexdigest(), status.st_ino, status.st_size, status.st_mtime_ns


def git(project: Path, *argv: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *argv],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


# --- 1. an --output that is an input -------------------------------------------------


def spellings(project: Path) -> Iterator[Tuple[str, str]]:
    """Other names of flow.json: spelled otherwise, a symlink, a hard link."""
    yield "same", "flow.json"
    yield "dot", "./flow.json"
    yield "absolute", str(project / "flow.json")
    yield "through-a-folder", "sub/../flow.json"
    if hasattr(os, "symlink"):
        os.symlink("flow.json", project / "link.json")
        yield "symlink", "link.json"
    if hasattr(os, "link"):
        os.link(project / "flow.json", project / "hard.json")
        yield "hard-link", "hard.json"


@pytest.mark.parametrize("command", ["check", "explain"])
def test_an_output_that_is_an_input_is_refused_and_the_input_stays_as_it_was(
    capsys: pytest.CaptureFixture[str], project: Path, command: str
) -> None:
    (project / "sub").mkdir()
    has_git = shutil.which("git") is not None
    if has_git:
        git(project, "init", "-q")
        git(project, "add", "-A")
        git(project, "commit", "-qm", "workflows")
    before = fingerprint(project / "flow.json")
    tried = []
    for name, output in spellings(project):
        if has_git and name in ("symlink", "hard-link"):
            git(project, "add", "-A")
            git(project, "commit", "-qm", name)
        for order in (["-o", output, "flow.json"], ["flow.json", "--output", output]):
            result = run(capsys, command, *order)
            assert result.code == 2, (name, result)
            assert result.out == ""
            assert result.err.startswith(f"toolwire: --output {output} is the input flow.json"), result.err
            assert "would overwrite it" in result.err
            if name != "same":
                assert "(the same file)" in result.err
        tried.append(name)
        assert fingerprint(project / "flow.json") == before, name
        if has_git:
            assert git(project, "status", "--porcelain") == "", name
    assert {"same", "dot", "absolute", "through-a-folder"} <= set(tried)
    assert not [p.name for p in project.iterdir() if p.name.startswith(".toolwire-")], "no temporary file either"


def test_an_output_among_several_inputs_is_refused_before_any_is_read(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    # bad.json would be an input error (exit 2 too, but said on stderr as
    # the file's error): the refusal comes first, and alone.
    (project / "bad.json").write_text('{"nodes": [\n', encoding="utf-8")
    shutil.copyfile(REFUSED, project / "other.json")
    before = fingerprint(project / "other.json")
    result = run(capsys, "check", "--format", "json", "-o", "other.json", "bad.json", "flow.json", "other.json")
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        "toolwire: --output other.json is the input other.json: writing the report there would overwrite it; "
        "choose another file\n"
    )
    assert fingerprint(project / "other.json") == before


def test_an_output_that_is_the_configuration_file_is_refused(capsys: pytest.CaptureFixture[str], project: Path) -> None:
    config = project / "toolwire.toml"
    config.write_text("[tool.toolwire]\nstrict = true\n", encoding="utf-8")
    before = fingerprint(config)
    result = run(capsys, "check", "--config", "toolwire.toml", "-o", "toolwire.toml", "flow.json")
    assert result.code == 2
    assert result.err.startswith("toolwire: --output toolwire.toml is the configuration file toolwire.toml")
    assert fingerprint(config) == before


def test_an_output_that_standard_input_reads_is_refused(project: Path) -> None:
    # A real process, whose standard input is the file itself.
    before = fingerprint(project / "flow.json")
    with open(project / "flow.json", "rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "toolwire", "check", "-o", "flow.json", "-"],
            cwd=project,
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("toolwire: --output flow.json is the file standard input reads")
    assert fingerprint(project / "flow.json") == before


def test_an_output_that_is_a_new_file_or_another_file_is_written(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    assert run(capsys, "check", "-o", "report.txt", "flow.json").code == 1
    assert "error[CMP-9]" in (project / "report.txt").read_text(encoding="utf-8")
    # An existing file that is no input is replaced, as before.
    assert run(capsys, "check", "--format", "json", "-o", "report.txt", "flow.json").code == 1
    assert json.loads((project / "report.txt").read_text(encoding="utf-8"))["ok"] is False


# --- 2. the output file's mode ---------------------------------------------------------


@pytest.fixture
def umask() -> Iterator[None]:
    saved = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(saved)


@pytest.mark.skipif(os.name != "posix", reason="permission bits are POSIX's")
@pytest.mark.parametrize(
    "mask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600), (0o027, 0o640)], ids=["022", "002", "077", "027"]
)
@pytest.mark.parametrize("command", ["check", "explain"])
def test_a_new_output_file_gets_the_mode_a_plain_write_gives(
    capsys: pytest.CaptureFixture[str], project: Path, umask: None, mask: int, mode: int, command: str
) -> None:
    os.umask(mask)
    with open(project / "plain.txt", "w", encoding="utf-8") as plain:
        plain.write("a plain write, for comparison\n")
    assert run(capsys, command, "--format", "json", "-o", "report.json", "flow.json").code in (0, 1)
    assert stat.S_IMODE(os.stat(project / "report.json").st_mode) == mode
    assert stat.S_IMODE(os.stat(project / "plain.txt").st_mode) == mode


@pytest.mark.skipif(os.name != "posix", reason="permission bits are POSIX's")
@pytest.mark.parametrize("existing", [0o600, 0o640, 0o664, 0o755], ids=["600", "640", "664", "755"])
def test_an_existing_output_file_keeps_its_mode(
    capsys: pytest.CaptureFixture[str], project: Path, umask: None, existing: int
) -> None:
    report = project / "report.sarif"
    report.write_text("old\n", encoding="utf-8")
    os.chmod(report, existing)
    assert run(capsys, "check", "--format", "sarif", "-o", "report.sarif", "flow.json").code == 1
    assert stat.S_IMODE(os.stat(report).st_mode) == existing
    assert json.loads(report.read_text(encoding="utf-8"))["version"] == "2.1.0"
    assert not [p.name for p in project.iterdir() if p.name.startswith(".toolwire-")]


def test_the_output_is_still_replaced_in_one_step(
    capsys: pytest.CaptureFixture[str], project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The report is written whole beside the output, then renamed over it:
    # while it is being written, the old file is still there, untouched.
    report = project / "report.txt"
    report.write_text("old\n", encoding="utf-8")
    seen: List[str] = []
    replace = os.replace

    def watched(source: str, target: str) -> None:
        seen.append(report.read_text(encoding="utf-8"))
        assert Path(source).parent == project and Path(source).name.startswith(".toolwire-")
        assert "error[CMP-9]" in Path(source).read_text(encoding="utf-8")
        replace(source, target)

    monkeypatch.setattr(os, "replace", watched)
    assert run(capsys, "check", "-o", "report.txt", "flow.json").code == 1
    assert seen == ["old\n"]
    assert "error[CMP-9]" in report.read_text(encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_an_output_through_a_symlink_replaces_the_file_it_names_and_the_link_stays(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    # As a plain write through the link would: the report lands in the
    # file the link names (kept in another folder here), in one step.
    elsewhere = project / "reports"
    elsewhere.mkdir()
    (elsewhere / "latest.txt").write_text("old\n", encoding="utf-8")
    (project / "report.txt").symlink_to(elsewhere / "latest.txt")
    assert run(capsys, "check", "-o", "report.txt", "flow.json").code == 1
    assert (project / "report.txt").is_symlink()
    assert "error[CMP-9]" in (elsewhere / "latest.txt").read_text(encoding="utf-8")
    assert not [p.name for p in [*project.iterdir(), *elsewhere.iterdir()] if p.name.startswith(".toolwire-")]


# --- 8. standard input: read once ----------------------------------------------------------


def feed_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize("argv", [["-", "-"], ["-", "flow.json", "-"], ["--format", "json", "-", "-", "-"]])
def test_standard_input_named_twice_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: List[str]
) -> None:
    feed_stdin(monkeypatch, REFUSED.read_bytes())
    result = run(capsys, "check", *argv)
    assert (result.code, result.out) == (2, "")
    times = argv.count("-")
    assert result.err == f"toolwire: standard input ('-') is named {times} times, but it can be read only once\n"
    assert sys.stdin.read() == REFUSED.read_text(encoding="utf-8"), "nothing was read"



# --- 11. the same input, the same bytes ---------------------------------------------------


def test_two_runs_print_the_same_bytes_and_timing_adds_the_time(project: Path) -> None:
    # Real processes: the check's own time differs from run to run.
    (project / "bad.json").write_text('{"nodes": [\n', encoding="utf-8")
    shutil.copyfile(DATA / "multi-violation.json", project / "multi.json")
    argv = [sys.executable, "-m", "toolwire", "check", "flow.json", "multi.json", "bad.json"]
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    runs = [subprocess.run(argv, cwd=project, capture_output=True, timeout=60, env=env) for _ in range(3)]
    assert [r.returncode for r in runs] == [2, 2, 2]
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout
    summary = runs[0].stdout.decode().splitlines()[-1]
    assert summary == (
        "checked 2 of 3 files (3 consumers): 4 violations, 4 warnings; 1 file could not be checked"
    )
    timed = subprocess.run([*argv, "--timing"], cwd=project, capture_output=True, timeout=60, env=env)
    lines = timed.stdout.decode().splitlines()
    assert lines[:-1] == runs[0].stdout.decode().splitlines()[:-1]
    assert re.fullmatch(r"checked 2 of 3 files \(3 consumers\) in (<1ms|\d+ms|\d+\.\d\ds): 4 violations, .*", lines[-1])


# --- 12. --max-violations keeps the same findings in every format ------------------------------

Kept = List[Tuple[str, int, int]]
"""The violation findings a report shows: (rule, line, column) each."""


def kept_in_text(out: str) -> Kept:
    found = re.findall(r"^multi\.json:(\d+):(\d+): error\[([\w-]+)\]", out, flags=re.M)
    return [(rule, int(line), int(column)) for line, column, rule in found]


def kept_in_json(out: str) -> Kept:
    (entry,) = json.loads(out)["files"]
    return [(f["rule"], f["location"]["line"], f["location"]["column"]) for f in entry["violations"] + entry["clashes"]]


def kept_in_sarif(out: str) -> Kept:
    results = json.loads(out)["runs"][0]["results"]
    violations = [r for r in results if r["ruleId"] in ("EDGE-5", "CMP-9")]
    regions = [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]) for r in violations]
    return [(rule, region["startLine"], region["startColumn"]) for rule, region in regions]


def kept_in_github(out: str) -> Kept:
    found = re.findall(r"^::error file=multi\.json,line=(\d+),col=(\d+),title=([\w-]+)::", out, flags=re.M)
    return [(rule, int(line), int(column)) for line, column, rule in found]


def kept_in_junit(out: str) -> Kept:
    kept = []
    for failure in ET.fromstring(out).iter("failure"):
        match = re.match(r"multi\.json:(\d+):(\d+): ", failure.text or "")
        assert match is not None
        kept.append((failure.get("type") or "", int(match[1]), int(match[2])))
    return kept


KEPT_IN = {
    "text": kept_in_text,
    "json": kept_in_json,
    "sarif": kept_in_sarif,
    "github": kept_in_github,
    "junit": kept_in_junit,
}

# multi.json's findings in the report's order: its EDGE-5 violation, then
# its two clashes (by first consumer).
MULTI_FINDINGS = [("EDGE-5", 33, 5), ("CMP-9", 4, 5), ("CMP-9", 5, 5)]


@pytest.mark.parametrize("limit", [1, 2, 3, 0])
def test_every_format_keeps_the_same_findings_under_max_violations(
    capsys: pytest.CaptureFixture[str], project: Path, limit: int
) -> None:
    shutil.copyfile(DATA / "multi-violation.json", project / "multi.json")
    kept = {}
    for output_format, read in KEPT_IN.items():
        result = run(capsys, "check", "--format", output_format, "--max-violations", str(limit), "multi.json")
        assert result.code == 1
        # The order a format writes them in is its own (github: by kind).
        kept[output_format] = sorted(read(result.out), key=MULTI_FINDINGS.index)
    expected = MULTI_FINDINGS[:limit] if limit else MULTI_FINDINGS
    assert kept == {output_format: expected for output_format in KEPT_IN}


def test_every_format_names_max_violations_as_what_left_findings_out(
    capsys: pytest.CaptureFixture[str], project: Path
) -> None:
    shutil.copyfile(DATA / "multi-violation.json", project / "multi.json")

    def said(output_format: str) -> str:
        return run(capsys, "check", "--format", output_format, "--max-violations", "1", "multi.json").out

    note = "multi.json: note: 2 more violations not shown (--max-violations 1: at most 1 finding per file)"
    assert note in said("text").splitlines()
    (notification,) = json.loads(said("sarif"))["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert notification["message"]["text"].startswith(
        "2 of its 3 violations are not listed as results (--max-violations 1: at most 1 finding per file); "
    )
    notice = said("github").splitlines()[-1]
    assert notice.startswith("::notice title=toolwire::2 more violations not annotated: --max-violations 1 keeps")
    assert "GitHub shows" not in notice, "GitHub's limit of 10 annotations was not what left them out"
    assert "(--max-violations 1)" in said("junit")


# --- 8. standard input is <stdin>; control characters are escaped alike everywhere -------------

UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What no human-readable report may hold raw (a newline only between its own lines)."""

TOOL = "t1\n::notice::pwned\x1b[31m\x9b2J\u202e"
AGENT = "agent\x1b]0;title\x07"
EDGE = "e9\r\n::error::injected"
BOX_LABEL = "Kit\n::warning::x"


def hostile(project: Path) -> None:
    """A workflow whose ids and labels try to write commands into a CI log
    and escape sequences to a terminal: an EDGE-5 violation, a CMP-9 clash,
    and a NAME-LOSSY warning quoting a label."""

    def edge(source: str, target: str, kind: str = "tool_availability") -> Dict[str, object]:
        return {"source": source, "target": target, "data": {"edgeType": kind}}

    workflow = {
        "nodes": [
            {"id": "box", "type": "toolbox", "data": {"label": BOX_LABEL}},
            {"id": TOOL, "data": {"label": "Search"}},
            {"id": "t2", "data": {"label": "search"}},
            {"id": "t3", "data": {"label": "Café\n::notice::lossy"}},
            {"id": AGENT},
        ],
        "edges": [
            edge(TOOL, "box"),
            edge("t2", "box"),
            edge("box", AGENT),
            edge("t3", AGENT),
            {**edge("t2", AGENT, "tool_availabilty"), "id": EDGE},
        ],
    }
    (project / "hostile.json").write_text(json.dumps(workflow, indent=1), encoding="utf-8")


def junit_texts(out: str) -> List[str]:
    """What a CI server shows of a JUnit report: names, messages, texts."""
    root = ET.fromstring(out)
    texts: List[str] = []
    for element in root.iter():
        texts.extend(element.get(key) or "" for key in ("name", "message"))
        texts.append(element.text or "")
    return texts


def sarif_texts(out: str) -> List[str]:
    """What a SARIF viewer shows: each result's message, and each related
    location's."""
    texts: List[str] = []
    for result in json.loads(out)["runs"][0]["results"]:
        texts.append(result["message"]["text"])
        texts.extend(related["message"]["text"] for related in result.get("relatedLocations", []))
    return texts


@pytest.mark.parametrize("strict", [False, True], ids=["warnings", "strict"])
def test_ids_and_labels_with_control_characters_are_escaped_alike_in_every_human_readable_format(
    capsys: pytest.CaptureFixture[str], project: Path, strict: bool
) -> None:
    hostile(project)
    flags = ["--strict"] if strict else []
    text = run(capsys, "check", *flags, "hostile.json").out
    github = run(capsys, "check", *flags, "--format", "github", "hostile.json").out
    junit = run(capsys, "check", *flags, "--format", "junit", "hostile.json").out
    shown = junit_texts(junit)
    sarif = sarif_texts(run(capsys, "check", *flags, "--format", "sarif", "hostile.json").out)
    for output in [text, github, *shown, *sarif]:
        assert not UNSAFE.search(output), repr(output)
    # No line a workflow could make a command of: in text and JUnit none
    # starts with "::"; in GitHub's output every line is one of toolwire's.
    for output in [text, *shown]:
        assert not [line for line in output.splitlines() if line.lstrip().startswith("::")], output
    warning = "::error" if strict else "::warning"
    assert [line.split(" ", 1)[0] for line in github.splitlines()] == ["::error", "::error", warning]
    # Each id and label escaped the same way in each: as the text format shows it.
    tool = '"t1\\n::notice::pwned\\u001b[31m\\u009b2J\\u202e"'
    agent = '"agent\\u001b]0;title\\u0007"'
    edge = '"e9\\r\\n::error::injected"'
    lossy = '"Café\\n::notice::lossy"'
    for escaped in (tool, agent, edge, lossy):
        assert escaped in text and escaped in github and any(escaped in t for t in shown), escaped
        assert any(escaped in t for t in sarif), escaped


def test_standard_input_is_named_stdin_in_every_format(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from urllib.parse import unquote

    def from_stdin(*argv: str) -> str:
        feed_stdin(monkeypatch, REFUSED.read_bytes())
        result = run(capsys, "check", *argv, "-")
        assert result.code == 1
        return result.out

    assert from_stdin().startswith("<stdin>:10:5: error[CMP-9]: ")
    (entry,) = json.loads(from_stdin("--format", "json"))["files"]
    assert entry["path"] == "<stdin>"
    sarif = json.loads(from_stdin("--format", "sarif"))["runs"][0]["results"]
    assert {unquote(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in sarif} == {"<stdin>"}
    cases = ET.fromstring(from_stdin("--format", "junit")).findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == ["<stdin>", "<stdin>: CMP-9 web_search at agent_1"]
    failure = cases[1].find("failure")
    assert failure is not None and (failure.text or "").startswith("<stdin>:10:5: CMP-9: ")
    github = from_stdin("--format", "github").splitlines()
    assert github[0].startswith("::error title=CMP-9::<stdin>:10:5: 2 tools reaching ")
    assert github[1].startswith("::warning title=R8::<stdin>:10:5: node ")
    feed_stdin(monkeypatch, REFUSED.read_bytes())
    explained = run(capsys, "explain", "--format", "json", "-")
    assert json.loads(explained.out)["path"] == "<stdin>"
