"""The machine-readable formats of ``toolwire check --format``: SARIF (for
GitHub code scanning), GitHub workflow commands (inline annotations), JUnit
XML (CI test reports), and the JSON report against docs/report.schema.json.

Reports are built by hand, so each test controls exactly what is in them:
an accepted file, a refused one holding every kind of finding, files that
could not be checked, findings with no location (a workflow checked as a
dict). The last tests run the real checker over the spec's two examples.
"""

from __future__ import annotations

import errno
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import jsonschema
import pytest

import toolwire
from toolwire._formats import Run, writer
from toolwire._records import Location, Rename, Stats, Tool, Violation, WiringWarning
from toolwire._report import Report, failed_report
from toolwire._rules import RULES

from support import DATA, REPO, SHARED, need_shared

Json = Dict[str, Any]


# --- reports ------------------------------------------------------------------

REFUSED = "flows/refused.json"
ACCEPTED = "flows/accepted.json"
BROKEN = "flows/broken.json"
MISSING = "flows/missing.json"


def at(line: int, column: int, shift: int = 0) -> Location:
    return Location(line + shift, column)


def refused(path: Optional[str] = REFUSED, shift: int = 0) -> Report:
    """Every kind of finding: an EDGE-5 with a suggestion, CMP-9 clashes at
    two consumers, an R8 and a NAME-LOSSY warning. ``shift`` moves every
    location down that many lines, as an edit above them would."""
    edge5 = Violation(
        "EDGE-5",
        'edge 4 (id "e4") declares data.edgeType "tool_availabilty", which is not a recognised edge type '
        "(recognised: data, error, loopback, tool_availability, trigger)",
        edge=4,
        edge_id="e4",
        edge_type="tool_availabilty",
        location=at(19, 5, shift),
        suggestion="tool_availability",
    )
    web = Violation(
        "CMP-9",
        '2 tools reaching "agent_1" share the name "web_search": "tool_a" ("Web Search"), "tool_b" ("web-search")',
        consumer="agent_1",
        name="web_search",
        tools=[
            Tool("tool_a", "Web Search", ["tool_a", "box_1", "agent_1"], at(3, 5, shift)),
            Tool("tool_b", "web-search", ["tool_b", "box_1", "agent_1"], at(4, 5, shift)),
        ],
        location=at(15, 5, shift),
        fix=[Rename("tool_b", "web-search", "web-search (tool_b)", "web_search_tool_b")],
        box_labels={"box_1": "My Tools"},
    )
    cafe = Violation(
        "CMP-9",
        '2 tools reaching "agent_2" share the name "caf": "cafe_1" ("Café"), "cafe_2" ("Caf")',
        consumer="agent_2",
        name="caf",
        tools=[
            Tool("cafe_1", "Café", ["cafe_1", "agent_2"], at(6, 5, shift)),
            Tool("cafe_2", "Caf", ["cafe_2", "agent_2"], at(7, 5, shift)),
        ],
        location=at(8, 5, shift),
        fix=[Rename("cafe_2", "Caf", "Caf (cafe_2)", "caf_cafe_2")],
    )
    warnings = [
        WiringWarning(
            "R8",
            "agent_1",
            2,
            'node "agent_1" is wired by tool edge 2 but never declared in `nodes`; it is checked as a node with no type, and its id is its label',
            at(15, 5, shift),
        ),
        WiringWarning(
            "NAME-LOSSY",
            "cafe_1",
            None,
            'tool "cafe_1" is labelled "Café", which becomes the name "caf": non-ASCII characters are dropped from tool names',
            at(6, 5, shift),
        ),
    ]
    return Report([edge5, web, cafe], warnings, Stats(8, 6, 5, 2, 1), path)


def accepted(path: str = ACCEPTED) -> Report:
    return Report([], [], Stats(3, 2, 2, 2, 0), path)


def broken() -> Report:
    return failed_report(BROKEN, toolwire.WorkflowError("invalid JSON: expected ',' or '}', found ']'", 3, 7))


def missing() -> Report:
    return failed_report(MISSING, FileNotFoundError(errno.ENOENT, "No such file or directory", MISSING))


UNNAMED_MESSAGE = (
    'tool "t1" is labelled "日本語", which becomes the name "unnamed_tool": it has no ASCII letter or digit, '
    "and every such tool is called the same"
)


def only_warned(path: str = "flows/warned.json") -> Report:
    warning = WiringWarning("NAME-UNNAMED", "t1", None, UNNAMED_MESSAGE)
    return Report([], [warning], Stats(2, 1, 1, 1, 0), path)


def unlocated(report: Report) -> Report:
    """``report`` as checking a dict gives it: nothing has a location."""
    violations = [
        v._replace(location=None, tools=[t._replace(location=None) for t in v.tools]) for v in report.violations
    ]
    warnings = [w._replace(location=None) for w in report.warnings]
    return Report(violations, warnings, report.stats, report.path)


def everything() -> List[Report]:
    return [refused(), accepted(), broken(), missing()]


def render(
    format: str, reports: Sequence[Report], *, strict: bool = False, elapsed: float = 0.25, **options: Any
) -> str:
    out = io.StringIO()
    writer(format)(Run(reports, elapsed, strict, **options), out)
    return out.getvalue()


# --- SARIF --------------------------------------------------------------------


def sarif(reports: Sequence[Report], **options: Any) -> Json:
    document: Json = json.loads(render("sarif", reports, **options))
    return document


def sarif_run(reports: Sequence[Report], **options: Any) -> Json:
    run: Json = sarif(reports, **options)["runs"][0]
    return run


@pytest.fixture(scope="module")
def sarif_validator() -> Any:
    schema_path = need_shared(SHARED / "data" / "sarif-schema-2.1.0.json")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    return validator_class(schema)


SARIF_CASES: Dict[str, Callable[[], List[Report]]] = {
    "every-kind-of-report": lambda: everything(),
    "no-locations": lambda: [unlocated(refused())],
    "stdin-and-no-path": lambda: [
        refused(path="-"),
        failed_report("-", toolwire.WorkflowError("empty", 1, 1)),
        refused(path=None),
    ],
    "nothing-checked": lambda: [],
}


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
@pytest.mark.parametrize("case", SARIF_CASES)
def test_sarif_is_valid_against_the_official_schema(sarif_validator: Any, case: str, strict: bool) -> None:
    document = sarif(SARIF_CASES[case](), strict=strict)
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in sarif_validator.iter_errors(document)]
    assert problems == []


def test_sarif_names_its_version_schema_and_tool() -> None:
    document = sarif(everything())
    assert document["version"] == "2.1.0"
    assert document["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert len(document["runs"]) == 1
    driver = document["runs"][0]["tool"]["driver"]
    assert driver["name"] == "toolwire"
    assert driver["version"] == toolwire.__version__
    assert driver["informationUri"].startswith("https://")


def test_sarif_lists_every_rule_once_with_its_description() -> None:
    rules = sarif_run([accepted()])["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(RULES)  # all of them, even with no finding, in a stable order
    for descriptor in rules:
        rule = RULES[descriptor["id"]]
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.summary
        assert rule.help in descriptor["fullDescription"]["text"]
        assert descriptor["help"]["text"] == rule.help
        assert rule.help_uri in descriptor["help"]["markdown"]
        assert descriptor["helpUri"] == rule.help_uri
        assert descriptor["defaultConfiguration"]["level"] == rule.level


def test_sarif_results_point_at_their_rule_by_id_and_index() -> None:
    run = sarif_run(everything())
    rules = run["tool"]["driver"]["rules"]
    assert [r["ruleId"] for r in run["results"]] == ["EDGE-5", "CMP-9", "CMP-9", "R8", "NAME-LOSSY"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_sarif_levels_violations_error_warnings_warning_unless_strict() -> None:
    levels = {r["ruleId"]: r["level"] for r in sarif_run([refused()])["results"]}
    assert levels == {"EDGE-5": "error", "CMP-9": "error", "R8": "warning", "NAME-LOSSY": "warning"}
    strict = {r["ruleId"]: r["level"] for r in sarif_run([refused()], strict=True)["results"]}
    assert set(strict.values()) == {"error"}


def test_sarif_message_is_the_violation_message_then_its_help() -> None:
    edge5, web, _, r8, _ = sarif_run([refused()])["results"]
    assert edge5["message"]["text"] == refused().violations[0].message + '\nhelp: did you mean "tool_availability"?'
    lines = web["message"]["text"].split("\n")
    assert lines[0] == refused().violations[1].message
    assert lines[-1] == 'help: rename "tool_b" to "web-search (tool_b)"'
    assert r8["message"]["text"] == refused().warnings[0].message  # warnings carry no fix of their own


def test_sarif_locations_are_the_finding_with_one_based_line_and_column() -> None:
    run = sarif_run([refused()])
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in run["results"]]
    assert [(g["startLine"], g["startColumn"]) for g in regions] == [(19, 5), (15, 5), (8, 5), (15, 5), (6, 5)]
    for result in run["results"]:
        assert len(result["locations"]) == 1
        assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": REFUSED}


def test_sarif_cmp9_relates_one_location_per_tool_and_links_them_from_the_message() -> None:
    web = sarif_run([refused()])["results"][1]
    related = web["relatedLocations"]
    assert len(related) == len(refused().violations[1].tools) == 2
    assert [r["id"] for r in related] == [1, 2]
    assert [r["message"]["text"] for r in related] == [
        'tool_a "Web Search" via tool_a -> box_1 -> agent_1',
        'tool_b "web-search" via tool_b -> box_1 -> agent_1',
    ]
    regions = [r["physicalLocation"]["region"] for r in related]
    assert regions == [{"startLine": 3, "startColumn": 5}, {"startLine": 4, "startColumn": 5}]
    # GitHub shows related locations only through links in the message.
    assert "tools: [tool_a](1), [tool_b](2)" in web["message"]["text"].split("\n")
    assert web["properties"] == {
        "consumer": "agent_1",
        "name": "web_search",
        "tools": ["tool_a", "tool_b"],
        "consumerCount": 1,
        "through": "box_1",
    }


def test_sarif_unknown_locations_fall_back_to_line_one() -> None:
    run = sarif_run([unlocated(refused())])
    for result in run["results"]:
        assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}
        for related in result.get("relatedLocations", []):
            assert related["physicalLocation"]["region"] == {"startLine": 1}


def fingerprints(reports: Sequence[Report]) -> List[str]:
    return [r["partialFingerprints"]["toolwire/v1"] for r in sarif_run(reports)["results"]]


def test_sarif_fingerprints_identify_a_finding_not_where_it_is() -> None:
    first = fingerprints([refused()])
    assert len(set(first)) == len(first)  # one per finding
    assert fingerprints([refused()]) == first  # stable across renders
    assert fingerprints([refused(shift=40)]) == first  # lines moved by an edit above
    assert fingerprints([unlocated(refused())]) == first
    assert fingerprints([refused(path="./flows//refused.json")]) == first  # the same file, spelt differently
    assert set(fingerprints([refused(path="flows/copy.json")])).isdisjoint(first)  # another file


def test_sarif_output_is_the_same_bytes_every_time() -> None:
    # Nothing in it depends on when the run happened or how long it took.
    assert render("sarif", everything(), elapsed=0.1) == render("sarif", everything(), elapsed=9.0)


def uri_of(path: str) -> str:
    result = sarif_run([only_warned(path)])["results"][0]
    uri: str = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    return uri


def test_sarif_uris_are_relative_with_forward_slashes_and_percent_encoding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert uri_of("./flows/a.json") == "flows/a.json"
    assert uri_of("my flows/50%#1é.json") == "my%20flows/50%25%231%C3%A9.json"
    monkeypatch.chdir(tmp_path)
    # CI runs from the repository root: absolute paths under it become relative.
    assert uri_of(str(tmp_path / "flows" / "a.json")) == "flows/a.json"
    elsewhere = tmp_path.parent / "other dir" / "a.json"
    assert uri_of(str(elsewhere)) == elsewhere.as_uri()


def test_sarif_stdin_and_pathless_reports_name_an_artifact_that_says_so() -> None:
    # GitHub takes no result without a file; these name one and describe it:
    # <stdin> and <input>, as every format calls them, percent-encoded.
    for path, uri, description in [("-", "%3Cstdin%3E", "standard input"), (None, "%3Cinput%3E", "not read from a file")]:
        result = sarif_run([refused(path=path)])["results"][0]
        artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert artifact == {"uri": uri, "description": {"text": description}}


def test_sarif_files_that_could_not_be_checked_are_error_notifications() -> None:
    run = sarif_run(everything())
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    syntax, unreadable = invocation["toolExecutionNotifications"]
    assert syntax["level"] == unreadable["level"] == "error"
    assert syntax["message"]["text"] == "invalid JSON: expected ',' or '}}', found ']'"  # literal braces doubled, as SARIF requires
    assert syntax["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": BROKEN},
        "region": {"startLine": 3, "startColumn": 7},
    }
    assert unreadable["message"]["text"] == "cannot read the file: No such file or directory"
    assert unreadable["locations"][0]["physicalLocation"] == {"artifactLocation": {"uri": MISSING}}
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]} == {REFUSED}


def test_sarif_execution_is_successful_when_every_file_was_checked() -> None:
    invocation = sarif_run([refused(), accepted()])["invocations"][0]
    assert invocation == {"executionSuccessful": True, "toolExecutionNotifications": []}


def test_sarif_message_text_doubles_braces_and_escapes_link_text() -> None:
    # SARIF reads `{0}` as a placeholder and `[x](1)` as a link: literal
    # braces are doubled, and brackets inside a link's text are escaped.
    violation = refused().violations[1]
    odd = violation._replace(
        message='2 tools reaching "agent_1" share the name "x": "{a}" ("{a}"), "[b]" ("[b]")',
        tools=[t._replace(id=i) for t, i in zip(violation.tools, ["{a}", "[b]"])],
        fix=[],
    )
    result = sarif_run([Report([odd], [], None, REFUSED)])["results"][0]
    assert result["message"]["text"] == (
        '2 tools reaching "agent_1" share the name "x": "{{a}}" ("{{a}}"), "[b]" ("[b]")\n'
        "tools: [{{a}}](1), [\\[b\\]](2)"
    )


# --- GitHub workflow commands -------------------------------------------------

COMMAND = re.compile(r"::(?P<kind>error|warning|notice) (?P<properties>[^:]*)::(?P<message>.*)")
UNESCAPE = {"%25": "%", "%0D": "\r", "%0A": "\n", "%3A": ":", "%2C": ","}


def unescape(text: str) -> str:
    return re.sub("%(25|0D|0A|3A|2C)", lambda m: UNESCAPE[m.group()], text)


def read_commands(output: str) -> List[Tuple[str, Dict[str, str], str]]:
    """Reads the commands back as the runner does: kind, properties, message."""
    parsed = []
    for line in output.splitlines():
        match = COMMAND.fullmatch(line)
        assert match, f"not a workflow command: {line!r}"
        properties = dict(p.split("=", 1) for p in match["properties"].split(","))
        parsed.append((match["kind"], {k: unescape(v) for k, v in properties.items()}, unescape(match["message"])))
    return parsed


def test_github_one_annotation_per_finding_and_per_unchecked_file() -> None:
    r8_help = RULES["R8"].help
    lossy_help = RULES["NAME-LOSSY"].help
    web, cafe = refused().violations[1:]
    assert read_commands(render("github", everything())) == [
        (
            "error",
            {"file": REFUSED, "line": "19", "col": "5", "title": "EDGE-5"},
            refused().violations[0].message + '\nhelp: did you mean "tool_availability"?',
        ),
        ("error", {"file": REFUSED, "line": "15", "col": "5", "title": "CMP-9"}, web.message + f"\nhelp: {web.help}"),
        ("error", {"file": REFUSED, "line": "8", "col": "5", "title": "CMP-9"}, cafe.message + f"\nhelp: {cafe.help}"),
        (
            "warning",
            {"file": REFUSED, "line": "15", "col": "5", "title": "R8"},
            refused().warnings[0].message + f"\nhelp: {r8_help}",
        ),
        (
            "warning",
            {"file": REFUSED, "line": "6", "col": "5", "title": "NAME-LOSSY"},
            refused().warnings[1].message + f"\nhelp: {lossy_help}",
        ),
        (
            "error",
            {"file": BROKEN, "line": "3", "col": "7", "title": "toolwire"},
            "invalid JSON: expected ',' or '}', found ']'",
        ),
        ("error", {"file": MISSING, "title": "toolwire"}, "cannot read the file: No such file or directory"),
    ]


def test_github_strict_makes_warnings_errors() -> None:
    kinds = [kind for kind, _, _ in read_commands(render("github", [only_warned()], strict=True))]
    assert kinds == ["error"]
    kinds = [kind for kind, _, _ in read_commands(render("github", [only_warned()]))]
    assert kinds == ["warning"]


def test_github_an_accepted_run_prints_nothing() -> None:
    assert render("github", [accepted(), accepted("flows/b.json")]) == ""


def test_github_unknown_locations_and_stdin_leave_properties_out() -> None:
    unplaced = read_commands(render("github", [unlocated(refused())]))
    assert {tuple(properties) for _, properties, _ in unplaced} == {("file", "title")}
    from_stdin = read_commands(render("github", [refused(path="-")]))
    assert {tuple(properties) for _, properties, _ in from_stdin} == {("title",)}


def test_github_escapes_newlines_percent_commas_and_colons() -> None:
    message = "50% sure, a: b\r\nsecond line"
    odd = refused().violations[0]._replace(message=message, suggestion=None)
    path = "odd, dir/a:b%c.json"
    output = render("github", [Report([odd], [], None, path)])
    assert output.count("\n") == 1 and output.endswith("\n")  # one command, one line
    assert "file=odd%2C dir/a%3Ab%25c.json," in output
    # Message data keeps , and :; a line break of the message's own is shown
    # escaped, as the text format shows it; the one before the help is encoded.
    assert "::50%25 sure, a: b\\u000d\\u000asecond line%0Ahelp: " in output
    ((kind, properties, text),) = read_commands(output)
    assert properties["file"] == path
    shown = "50% sure, a: b\\u000d\\u000asecond line"
    assert text == f"{shown}\nhelp: {RULES['EDGE-5'].help}"  # no fix of its own: the rule's help


def test_github_file_paths_are_repository_relative(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ((_, properties, _),) = read_commands(render("github", [only_warned(str(tmp_path / "flows" / "w.json"))]))
    assert properties["file"] == "flows/w.json"


# --- JUnit XML ------------------------------------------------------------------


def junit(reports: Sequence[Report], **options: Any) -> ET.Element:
    text = render("junit", reports, **options)
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n')
    return ET.fromstring(text.encode("utf-8"))


def test_junit_a_test_case_per_file_then_one_per_violation_finding() -> None:
    root = junit(everything(), elapsed=1.23456)
    (suite,) = root
    assert root.tag == "testsuites" and suite.tag == "testsuite"
    for element in (root, suite):
        assert element.get("name") == "toolwire"
        # 4 files, and the refused one's 3 findings, which fail.
        assert (element.get("tests"), element.get("failures"), element.get("errors")) == ("7", "3", "2")
        assert element.get("time") == "1.235"
    cases = suite.findall("testcase")
    assert [(c.get("classname"), c.get("name"), c.get("file")) for c in cases] == [
        ("toolwire", REFUSED, REFUSED),
        ("toolwire", f"{REFUSED}: EDGE-5 edge 4 (e4)", REFUSED),
        ("toolwire", f"{REFUSED}: CMP-9 web_search at agent_1", REFUSED),
        ("toolwire", f"{REFUSED}: CMP-9 caf at agent_2", REFUSED),
        *[("toolwire", p, p) for p in (ACCEPTED, BROKEN, MISSING)],
    ]


def test_junit_one_failure_per_violation_typed_by_rule() -> None:
    file_case, *finding_cases, accepted_case = junit([refused(), accepted()]).iter("testcase")
    assert file_case.findall("failure") == []  # its warnings are in system-out
    failures = [f for case in finding_cases for f in case]
    assert [len(case) for case in finding_cases] == [1, 1, 1]
    assert [f.get("type") for f in failures] == ["EDGE-5", "CMP-9", "CMP-9"]
    assert [f.get("message") for f in failures] == [v.message for v in refused().violations]
    assert list(accepted_case) == []
    web = failures[1].text
    assert web is not None
    assert web.split("\n") == [
        f"{REFUSED}:15:5: CMP-9: {refused().violations[1].message}",
        f'  tool_a "Web Search" via tool_a -> box_1 -> agent_1 at {REFUSED}:3:5',
        f'  tool_b "web-search" via tool_b -> box_1 -> agent_1 at {REFUSED}:4:5',
        'help: rename "tool_b" to "web-search (tool_b)"',
    ]


def test_junit_warnings_are_output_unless_strict_makes_them_failures() -> None:
    (case,) = junit([only_warned()]).iter("testcase")
    assert case.findall("failure") == []
    out = case.findtext("system-out")
    assert out == f"flows/warned.json: warning NAME-UNNAMED: {UNNAMED_MESSAGE}"
    root = junit([only_warned()], strict=True)
    (case,) = root.iter("testcase")
    assert [f.get("type") for f in case.findall("failure")] == ["NAME-UNNAMED"]
    assert case.find("system-out") is None
    assert root.get("failures") == "1"


def test_junit_files_that_could_not_be_checked_are_errors() -> None:
    broken_case, missing_case = junit([broken(), missing()]).iter("testcase")
    for case in (broken_case, missing_case):
        assert [e.tag for e in case] == ["error"]
        assert case[0].get("type") == "input"
    assert broken_case[0].get("message") == "invalid JSON: expected ',' or '}', found ']'"
    assert broken_case[0].text == f"{BROKEN}:3:7: error: invalid JSON: expected ',' or '}}', found ']'"
    assert missing_case[0].text == f"{MISSING}: error: cannot read the file: No such file or directory"


def test_junit_special_characters_survive_the_round_trip() -> None:
    label = 'a<b & "c" \'d\' Café 日本 \x01'
    violation = refused().violations[1]
    tools = [violation.tools[0]._replace(label=label), violation.tools[1]]
    odd = violation._replace(message=f"share {label}", tools=tools)
    path = 'dir/<x & "y">.json'
    file_case, case = junit([Report([odd], [], None, path)]).iter("testcase")
    assert file_case.get("name") == file_case.get("file") == case.get("file") == path
    assert case.get("name") == f"{path}: CMP-9 web_search at agent_1"
    failure = case[0]
    # A control character cannot be in XML at all; it is written as an escape.
    assert failure.get("message") == 'share a<b & "c" \'d\' Café 日本 \\u0001'
    assert failure.text is not None and 'tool_a "a<b & \\"c\\" \'d\' Café 日本 \\u0001" via' in failure.text


def test_junit_without_locations_or_a_file() -> None:
    cases = list(junit([unlocated(refused(path="-")), unlocated(refused(path=None))]).iter("testcase"))
    stdin, pathless = cases[0], cases[4]
    assert (stdin.get("name"), pathless.get("name")) == ("<stdin>", "<input>")  # as the text format says
    assert all(case.get("file") is None for case in cases)
    first = cases[1][0].text
    assert first is not None and first.startswith(f"<stdin>: EDGE-5: {refused().violations[0].message}")


# --- JSON ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_validator() -> Any:
    schema = json.loads((REPO / "docs" / "report.schema.json").read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    assert validator_class is jsonschema.Draft202012Validator
    return validator_class(schema)


JSON_CASES: Dict[str, Callable[[], List[Report]]] = {
    "every-kind-of-report": lambda: everything(),
    "no-locations": lambda: [unlocated(refused()), only_warned()],
    "stdin": lambda: [refused(path="-")],
    "nothing-checked": lambda: [],
}


@pytest.mark.parametrize("listing", ["clashes", "each"])
@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
@pytest.mark.parametrize("case", JSON_CASES)
def test_json_matches_its_schema(report_validator: Any, case: str, strict: bool, listing: str) -> None:
    document = json.loads(render("json", JSON_CASES[case](), strict=strict, json_violations=listing))
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in report_validator.iter_errors(document)]
    assert problems == []
    assert document["listing"] == listing


def test_json_lists_each_clash_once_and_edge5_violations_one_by_one() -> None:
    (entry, *_) = json.loads(render("json", everything()))["files"]
    edge5, web, cafe = refused().violations
    assert entry["violations"] == [edge5.to_dict()]
    assert (entry["violation_count"], entry["clash_count"], entry["violations_omitted"]) == (3, 2, 0)
    assert [c["name"] for c in entry["clashes"]] == ["web_search", "caf"]
    first = entry["clashes"][0]
    assert first == {
        "rule": "CMP-9",
        "name": "web_search",
        "message": web.message,
        "location": {"line": 15, "column": 5},
        "through": "box_1",
        "tools": [t.to_dict() for t in web.tools],
        "box_labels": {"box_1": "My Tools"},
        "fix": [r.to_dict() for r in web.fix],
        "consumer_count": 1,
        "consumers": ["agent_1"],
        "consumers_omitted": 0,
    }
    assert entry["clashes"][1]["through"] is None  # each tool wired straight in


def test_json_each_lists_every_violation_and_no_clashes() -> None:
    (entry, *_) = json.loads(render("json", everything(), json_violations="each"))["files"]
    assert entry["violations"] == [v.to_dict() for v in refused().violations]
    assert "clashes" not in entry and entry["clash_count"] == 2


def test_json_max_violations_counts_findings_by_clash_and_violations_each() -> None:
    # refused(): an EDGE-5 violation, then two clashes at one consumer each.
    (entry,) = json.loads(render("json", [refused()], max_violations=2))["files"]
    assert (len(entry["violations"]), len(entry["clashes"]), entry["violations_omitted"]) == (1, 1, 1)
    (entry,) = json.loads(render("json", [refused()], max_violations=2, json_violations="each"))["files"]
    assert ([v["rule"] for v in entry["violations"]], entry["violations_omitted"]) == (["EDGE-5", "CMP-9"], 1)


def schema_problems(validator: Any, document: Json) -> List[str]:
    return [e.message for e in validator.iter_errors(document)]


def test_json_schema_rejects_what_the_format_never_writes(report_validator: Any) -> None:
    good = json.loads(render("json", everything()))
    assert schema_problems(report_validator, good) == []

    each: Json = json.loads(render("json", everything(), json_violations="each"))
    assert schema_problems(report_validator, each) == []

    def broken_copy(change: Any, of: Json = good) -> Json:
        document: Json = json.loads(json.dumps(of))
        change(document)
        return document

    changes_each = {
        "clashes listed one by one": lambda d: d["files"][0].update(clashes=good["files"][0]["clashes"]),
        "a CMP-9 violation of one tool": lambda d: d["files"][0]["violations"][1]["tools"].pop(),
        "an unknown listing": lambda d: d.update(listing="grouped"),
    }
    for what, change in changes_each.items():
        assert schema_problems(report_validator, broken_copy(change, each)), what

    changes = {
        "a clash of one tool": lambda d: d["files"][0]["clashes"][0]["tools"].pop(),
        "a clash of no consumer": lambda d: d["files"][0]["clashes"][0].update(consumer_count=0, consumers=[]),
        "a CMP-9 violation beside its clash": lambda d: d["files"][0]["violations"].append(each["files"][0]["violations"][1]),
        "no clashes by clash": lambda d: d["files"][0].pop("clashes"),
        "no clash count": lambda d: d["files"][0].pop("clash_count"),
        "an error with clashes": lambda d: d["files"][2].update(clashes=good["files"][0]["clashes"]),
        "a line 0": lambda d: d["files"][0]["violations"][0]["location"].update(line=0),
        "an unknown rule": lambda d: d["files"][0]["violations"][0].update(rule="CMP-10"),
        "an error with counts": lambda d: d["files"][2].update(stats=good["files"][0]["stats"]),
        "a refused file called ok": lambda d: d["files"][0].update(ok=True),
        "another schema version": lambda d: d.update(schema_version=3),
        "a refused file without its count": lambda d: d["files"][0].update(violation_count=0),
        "a path with a gap that omits nothing": lambda d: d["files"][0]["clashes"][0]["tools"][0]["path"].insert(
            1, {"omitted": 0}
        ),
    }
    for what, change in changes.items():
        assert schema_problems(report_validator, broken_copy(change)), what


# --- the registry ---------------------------------------------------------------


@pytest.mark.parametrize("format", ["sarif", "github", "junit"])
def test_each_format_is_found_by_name(format: str) -> None:
    module = __import__(f"toolwire._formats.{format}_format", fromlist=["write"])
    assert writer(format) is module.write


# --- through the real checker -----------------------------------------------------
# These read workflow files with toolwire.check_files, as the CLI does: the
# spec's two examples, and one with every kind of finding.

SPEC_REFUSED = "tests/data/spec-cmp9-refused.json"
SPEC_ACCEPTED = "tests/data/spec-cmp9-accepted.json"
MULTI = "tests/data/multi-violation.json"  # every kind of finding at once


@pytest.fixture
def spec_reports(monkeypatch: pytest.MonkeyPatch) -> Iterator[List[Report]]:
    monkeypatch.chdir(REPO)  # paths relative to the repository root, as in CI
    assert (REPO / SPEC_REFUSED).resolve() == (DATA / "spec-cmp9-refused.json").resolve()
    yield toolwire.check_files([SPEC_REFUSED, SPEC_ACCEPTED])


def test_spec_examples_in_sarif(spec_reports: List[Report], sarif_validator: Any) -> None:
    document = sarif(spec_reports)
    assert list(sarif_validator.iter_errors(document)) == []
    errors = [r for r in document["runs"][0]["results"] if r["level"] == "error"]
    (clash,) = errors
    assert clash["ruleId"] == "CMP-9"
    location = clash["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == SPEC_REFUSED
    assert location["region"] == {"startLine": 10, "startColumn": 5}  # the edge into agent_1, never declared
    assert [r["message"]["text"] for r in clash["relatedLocations"]] == [
        'tool_a "Web Search" via tool_a -> box_1 -> agent_1',
        'tool_b "web-search" via tool_b -> box_1 -> agent_1',
    ]
    assert [r["physicalLocation"]["region"]["startLine"] for r in clash["relatedLocations"]] == [3, 4]


def test_spec_examples_in_github_annotations(spec_reports: List[Report]) -> None:
    errors = [a for a in read_commands(render("github", spec_reports)) if a[0] == "error"]
    assert [(properties, text.split("\n")[0]) for _, properties, text in errors] == [
        ({"file": SPEC_REFUSED, "line": "10", "col": "5", "title": "CMP-9"}, spec_reports[0].violations[0].message)
    ]


@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_real_reports_match_both_schemas(
    sarif_validator: Any, report_validator: Any, monkeypatch: pytest.MonkeyPatch, strict: bool
) -> None:
    monkeypatch.chdir(REPO)
    reports = toolwire.check_files([MULTI, SPEC_REFUSED, SPEC_ACCEPTED, "tests/data/no-such-file.json"])
    document = sarif(reports, strict=strict)
    assert list(sarif_validator.iter_errors(document)) == []
    results = document["runs"][0]["results"]
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results]
    multi = [r["ruleId"] for r, uri in zip(results, uris) if uri == MULTI]
    assert multi == ["EDGE-5", "CMP-9", "CMP-9", "R8", "NAME-LOSSY", "NAME-UNNAMED"]
    assert document["runs"][0]["invocations"][0]["executionSuccessful"] is False
    report = json.loads(render("json", reports, strict=strict))
    assert list(report_validator.iter_errors(report)) == []


def test_spec_examples_in_junit(spec_reports: List[Report]) -> None:
    root = junit(spec_reports)
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "1", "0")
    refused_case, clash_case, accepted_case = root.iter("testcase")
    assert refused_case.findall("failure") == []
    assert clash_case.get("name") == f"{SPEC_REFUSED}: CMP-9 web_search at agent_1"
    assert [f.get("type") for f in clash_case.findall("failure")] == ["CMP-9"]
    assert accepted_case.findall("failure") == []
