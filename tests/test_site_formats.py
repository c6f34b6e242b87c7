"""Clashes across calls (CMP-9 across workflows, SEMANTICS section 12) as
records, in the Report and in every format.

The core does not produce call findings here: each report is built by hand
from tuples laid out as the binding's ``check_site`` hands them over (the
site contract), through ``calls_from_core`` and ``with_site``, the same
functions the site check calls. The site: workflow ``parent``
(flows/parent.json) runs ``shared_agent`` (flows/shared.yml) at its node
``run_agent``, and its tool "Search" meets the shared agent's own "search"
at ``inner_agent`` inside (a chain of one call); ``top`` runs ``middle``,
which runs ``shared_agent`` (a chain of two calls), brought by more than
2**64 chains.
"""

from __future__ import annotations

import io
import json
import pickle
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Dict, Iterator, List, Sequence, Tuple, TypeVar, Union, overload

import jsonschema
import pytest

import toolwire
from toolwire import _check_command, _select
from toolwire._cli_options import narrowed
from toolwire._errors import error_to_dict
from toolwire._formats import Run, writer
from toolwire._records import Location, Stats, Violation, WiringWarning
from toolwire._report import Chained, Report, calls_from_core, failed_report, with_site
from toolwire.cli import main

from support import REPO, SHARED, need_shared

Json = Dict[str, Any]

PARENT, SHARED_FILE, TOP, MIDDLE = "flows/parent.json", "flows/shared.yml", "flows/top.json", "flows/middle.json"
MANY = 2**64 + 3
"""Chains of calls bringing the clash of ``top``: more than 64 bits hold."""


def one_call() -> Tuple[Any, ...]:
    """``parent``'s node run_agent runs shared_agent: its tool "Search"
    (web_search) meets shared_agent's own "search" at inner_agent."""
    return (
        "search",
        1,
        [("parent", PARENT, "run_agent", (12, 5), "shared_agent")],
        ("shared_agent", SHARED_FILE, "inner_agent", (20, 3)),
        [
            (
                "parent",
                PARENT,
                "web_search",
                "Search",
                (3, 5),
                [
                    ("parent", PARENT, [("web_search", (3, 5)), ("run_agent", (12, 5))]),
                    ("shared_agent", SHARED_FILE, [("inner_agent", (20, 3))]),
                ],
            ),
            (
                "shared_agent",
                SHARED_FILE,
                "search",
                "search",
                (5, 3),
                [("shared_agent", SHARED_FILE, [("search", (5, 3)), ("kit", (9, 3)), ("inner_agent", (20, 3))])],
            ),
        ],
    )


def two_calls(chains: int = MANY) -> Tuple[Any, ...]:
    """``top`` runs middle (call_mid), which runs shared_agent
    (call_shared): top's "Search" (lookup) crosses both calls."""
    return (
        "search",
        chains,
        [("top", TOP, "call_mid", (7, 5), "middle"), ("middle", MIDDLE, "call_shared", (8, 5), "shared_agent")],
        ("shared_agent", SHARED_FILE, "inner_agent", (20, 3)),
        [
            (
                "shared_agent",
                SHARED_FILE,
                "search",
                "search",
                (5, 3),
                [("shared_agent", SHARED_FILE, [("search", (5, 3)), ("kit", (9, 3)), ("inner_agent", (20, 3))])],
            ),
            (
                "top",
                TOP,
                "lookup",
                "Search",
                (3, 5),
                [
                    ("top", TOP, [("lookup", (3, 5)), ("call_mid", (7, 5))]),
                    ("middle", MIDDLE, [("port_box", (4, 5)), ("call_shared", (8, 5))]),
                    ("shared_agent", SHARED_FILE, [("inner_agent", (20, 3))]),
                ],
            ),
        ],
    )


UNKNOWN = (
    "CMP-9-CALL-UNKNOWN",
    "run_other",
    'node "run_other" runs workflow "ghost", which is not among the workflows checked: its calls are not followed',
    (14, 5),
)


def own(path: str) -> Report:
    """A file's own report, accepted, as a single-file check gives it."""
    return Report([], [], Stats(4, 3, 3, 1, 0), path)


def parent() -> Report:
    return with_site(own(PARENT), [one_call()], [UNKNOWN])


def top() -> Report:
    return with_site(own(TOP), [two_calls()], [])


def site() -> List[Report]:
    return [parent(), top(), own(MIDDLE), own(SHARED_FILE)]


def render(format: str, reports: Sequence[Report], **options: Any) -> str:
    out = io.StringIO()
    writer(format)(Run(reports, 0.5, **options), out)
    return out.getvalue()


# --- records ----------------------------------------------------------------------


def test_call_findings_are_built_from_the_bindings_tuples() -> None:
    (finding,) = calls_from_core([one_call()])
    assert isinstance(finding, toolwire.CallFinding)
    assert (finding.rule, finding.name, finding.chains) == ("CMP-9", "search", 1)
    (step,) = finding.chain
    assert step == toolwire.CallStep("parent", PARENT, "run_agent", Location(12, 5), "shared_agent")
    assert finding.location == Location(12, 5)  # located at the calling node, in this workflow
    assert finding.consumer == toolwire.NodePlace("shared_agent", SHARED_FILE, "inner_agent", Location(20, 3))
    mine, theirs = finding.tools
    assert (mine.workflow, mine.file, mine.id, mine.label, mine.location) == (
        "parent",
        PARENT,
        "web_search",
        "Search",
        Location(3, 5),
    )
    assert mine.path == (
        toolwire.PathPart("parent", PARENT, ("web_search", "run_agent"), (Location(3, 5), Location(12, 5))),
        toolwire.PathPart("shared_agent", SHARED_FILE, ("inner_agent",), (Location(20, 3),)),
    )
    assert [p.workflow for p in theirs.path] == ["shared_agent"]


def test_a_call_findings_message_names_the_call_the_consumer_and_each_tools_workflow() -> None:
    (one,) = calls_from_core([one_call()])
    assert one.message == (
        '2 tools reaching "inner_agent" of workflow "shared_agent" in a call from "run_agent" share the name '
        '"search": "web_search" ("Search") of this workflow and "search" ("search") of workflow "shared_agent"'
    )
    (two,) = calls_from_core([two_calls()])
    assert ' in a call from "call_mid" through "call_shared" of workflow "middle" share' in two.message
    assert two.message.endswith("; 18,446,744,073,709,551,619 chains of calls bring this clash, the shortest shown")
    (single,) = calls_from_core([two_calls(chains=1)])
    assert "chains" not in single.message  # one chain: nothing to count
    assert one.help == 'rename one of "web_search" ("Search") of this workflow and "search" ("search") of workflow "shared_agent"'


def test_a_call_finding_without_locations_has_none() -> None:
    name, chains, chain, consumer, tools = one_call()
    chain = [(w, f, n, None, r) for w, f, n, _, r in chain]
    tools = [(w, f, i, label, None, [(pw, pf, [(n, None) for n, _ in nodes]) for pw, pf, nodes in parts]) for w, f, i, label, _, parts in tools]
    (finding,) = calls_from_core([(name, chains, chain, (consumer[0], consumer[1], consumer[2], None), tools)])
    assert finding.location is None and finding.consumer.location is None
    assert finding.to_dict()["tools"][0]["path"][0]["locations"] == [None, None]


def test_a_call_findings_dict_holds_every_place_and_the_exact_count() -> None:
    (finding,) = calls_from_core([two_calls()])
    whole = finding.to_dict()
    assert whole["chains"] == MANY and json.loads(json.dumps(whole))["chains"] == MANY
    assert whole["location"] == {"line": 7, "column": 5}
    assert [(s["workflow"], s["node"], s["runs"]) for s in whole["chain"]] == [
        ("top", "call_mid", "middle"),
        ("middle", "call_shared", "shared_agent"),
    ]
    assert whole["consumer"] == {"workflow": "shared_agent", "file": SHARED_FILE, "node": "inner_agent", "location": {"line": 20, "column": 3}}
    crossing = whole["tools"][1]["path"]
    assert [(p["workflow"], p["file"], p["nodes"]) for p in crossing] == [
        ("top", TOP, ["lookup", "call_mid"]),
        ("middle", MIDDLE, ["port_box", "call_shared"]),
        ("shared_agent", SHARED_FILE, ["inner_agent"]),
    ]


# --- the Report -------------------------------------------------------------------


def test_a_report_with_only_a_call_finding_is_refused() -> None:
    report = top()
    assert report.violations == [] and report.violation_count == 0
    assert not report.ok
    assert own(TOP).ok and own(TOP).calls == ()  # a workflow alone: no calls, as before


def test_to_dict_lists_the_call_findings() -> None:
    whole = parent().to_dict()
    assert whole["ok"] is False
    assert (whole["call_count"], whole["calls_omitted"]) == (1, 0)
    assert whole["calls"] == [c.to_dict() for c in parent().calls]
    assert whole["warnings"][-1]["code"] == "CMP-9-CALL-UNKNOWN"
    assert own(TOP).to_dict()["calls"] == []


def test_raise_on_failure_lists_the_call_findings() -> None:
    report = parent()
    with pytest.raises(toolwire.CompilationError) as raised:
        report.raise_on_failure()
    cause = raised.value.__cause__
    assert isinstance(cause, toolwire.ToolNameCollision)
    assert list(cause.calls) == list(report.calls)
    assert "(0 violations, 1 across calls)" in str(raised.value)
    assert report.calls[0].message in str(raised.value)


def test_raise_on_failure_lists_own_violations_first() -> None:
    violation = Violation("EDGE-5", "edge 0 declares data.edgeType \"x\"", edge=0, edge_type="x")
    report = with_site(Report([violation], [], Stats(2, 1, 1, 1, 0), PARENT), [one_call()], [])
    with pytest.raises(toolwire.CompilationError) as raised:
        report.raise_on_failure()
    message = str(raised.value)
    assert "(1 violation, 1 across calls)" in message
    assert message.index("EDGE-5: edge 0") < message.index("CMP-9: 2 tools reaching")


T = TypeVar("T")


class Untouchable(Sequence[T]):
    """A report's own warnings as the core holds them, counted but never to
    be read whole: reading any item but those asked for fails the test."""

    def __init__(self, items: List[T]) -> None:
        self.items = items
        self.read: List[int] = []

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> List[T]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[T, List[T]]:
        if isinstance(index, slice):
            picked = list(range(len(self.items)))[index]
            self.read.extend(picked)
            return [self.items[i] for i in picked]
        self.read.append(index)
        return self.items[index]

    def __iter__(self) -> Iterator[T]:
        for i in range(len(self.items)):
            yield self[i]


def test_site_warnings_follow_the_files_own_without_reading_them() -> None:
    warnings = [WiringWarning("R8", f"n{i}", i, f"edge {i}", Location(i + 1, 1)) for i in range(5)]
    held = Untouchable(warnings)
    report = with_site(Report([], held, Stats(1, 1, 1, 1, 0), PARENT), [], [UNKNOWN])
    assert isinstance(report.warnings, Chained)
    assert len(report.warnings) == 6 and held.read == []  # counted, not read
    site_warning = report.warnings[-1]
    assert site_warning == WiringWarning(UNKNOWN[0], UNKNOWN[1], None, UNKNOWN[2], Location(14, 5))
    assert held.read == []  # the site's own, read without the core's
    assert report.warnings[3:] == [warnings[3], warnings[4], site_warning]
    assert held.read == [3, 4]
    assert report.warnings == [*warnings, site_warning]
    assert with_site(own(PARENT), [], []).warnings == []  # nothing added: the same sequence


def test_a_site_error_names_its_workflows_and_files_and_survives_pickling() -> None:
    error = toolwire.SiteError(
        'a cycle of calls: workflow "a" runs "b", which runs "a"', ["a", "b"], ["site/a.json", "site/b.yml"]
    )
    assert isinstance(error, toolwire.WorkflowError)
    back = pickle.loads(pickle.dumps(error))
    assert (type(back), back.message, back.workflows, back.files) == (
        toolwire.SiteError,
        error.message,
        ["a", "b"],
        ["site/a.json", "site/b.yml"],
    )
    assert str(back) == error.message
    assert error_to_dict(error) == {
        "message": error.message,
        "line": None,
        "column": None,
        "workflows": ["a", "b"],
        "files": ["site/a.json", "site/b.yml"],
    }


def cycle() -> Report:
    error = toolwire.SiteError('a cycle of calls: "a" runs "b" runs "a"', ["a", "b"], ["site/a.json", "site/b.yml"])
    return failed_report("site", error)


# --- selections and counts ----------------------------------------------------------


def test_ignoring_cmp9_hides_call_findings_like_other_cmp9s() -> None:
    report = parent()
    without = _select.Selection(tuple(c for c in _select.CODES if c != "CMP-9")).apply(report)
    assert without.calls == () and without.ok
    assert [w.code for w in without.warnings] == ["CMP-9-CALL-UNKNOWN"]  # a code of its own, still reported
    kept = _select.Selection(("CMP-9",)).apply(report)
    assert kept.calls == report.calls and list(kept.warnings) == []
    assert _select.code_counts([report, top()]) == {"CMP-9": 2, "CMP-9-CALL-UNKNOWN": 1}
    assert _select.code_counts([without]) == {"CMP-9-CALL-UNKNOWN": 1}


def test_quiet_takes_the_site_warnings_out_but_keeps_the_call_findings() -> None:
    (quiet,), counts, hidden = narrowed([parent()], _select.Selection(), quiet=True, strict=False)
    assert (list(quiet.warnings), quiet.calls, hidden) == ([], parent().calls, 1)
    assert counts == {"CMP-9": 1, "CMP-9-CALL-UNKNOWN": 1}
    assert not quiet.ok


def test_the_site_warnings_are_codes_of_their_own() -> None:
    assert "CMP-9-PORT" in _select.CODES and "CMP-9-CALL-UNKNOWN" in _select.CODES
    # No family is made of a code's name: CMP stays CMP-9 and CMP-10.
    assert _select.FAMILIES["CMP"] == ("CMP-9", "CMP-10")
    assert "CMP-9-CALL" not in _select.FAMILIES
    assert _select.selected([(None, ["CMP-9-PORT"])]) == tuple(c for c in _select.CODES if c != "CMP-9-PORT")


# --- text -------------------------------------------------------------------------


def test_text_shows_both_places_like_a_compilers_in_a_call_from() -> None:
    lines = render("text", [parent()]).splitlines()
    assert lines[:9] == [
        'flows/parent.json:12:5: error[CMP-9]: 2 tools reaching "inner_agent" of workflow "shared_agent" '
        'in a call from "run_agent" share the name "search"',
        '  = in a call from run_agent, which runs workflow "shared_agent": flows/parent.json:12:5',
        '  = to the consumer inner_agent of workflow "shared_agent": flows/shared.yml:20:3',
        '  = web_search  "Search" -> search  of this workflow  at flows/parent.json:3:5',
        "                path: [web_search -> run_agent] (flows/parent.json:3:5)",
        "                   => shared_agent: [inner_agent] (flows/shared.yml:20:3)",
        '  = search      "search"            of workflow "shared_agent"  at flows/shared.yml:5:3',
        "                path: [search -> kit -> inner_agent] (flows/shared.yml:5:3)",
        '  help: rename one of "web_search" ("Search") of this workflow and "search" ("search") of workflow "shared_agent"',
    ]
    # After the call finding, the site's warning, as the file's own come.
    assert lines[10].startswith("flows/parent.json:14:5: warning[CMP-9-CALL-UNKNOWN]: ")
    assert lines[-1] == "checked 1 file (1 consumer): 0 violations, 1 clash across calls, 1 warning"
    assert lines[-2] == "CMP-9: 1, CMP-9-CALL-UNKNOWN: 1"


def test_text_shows_a_chain_of_two_calls_and_the_exact_count() -> None:
    text = render("text", [top()])
    assert "  = in a call from call_mid, which runs workflow \"middle\": flows/top.json:7:5\n" in text
    assert (
        '  = in a call from call_shared of workflow "middle", which runs workflow "shared_agent": '
        "flows/middle.json:8:5\n"
    ) in text
    assert "            path: [lookup -> call_mid] (flows/top.json:3:5)\n" in text
    assert "               => middle: [port_box -> call_shared] (flows/middle.json:4:5)\n" in text
    assert "               => shared_agent: [inner_agent] (flows/shared.yml:20:3)\n" in text
    assert "  = 18,446,744,073,709,551,619 chains of calls bring this clash; the shortest is shown\n" in text


def test_text_puts_call_findings_after_the_files_own_and_counts_them_against_max_violations() -> None:
    violation = Violation("EDGE-5", 'edge 0 declares data.edgeType "x"', edge=0, edge_type="x", location=Location(2, 3))
    report = with_site(Report([violation], [], Stats(2, 1, 1, 1, 0), PARENT), [one_call()], [])
    text = render("text", [report])
    assert text.index("error[EDGE-5]") < text.index("error[CMP-9]")
    capped = render("text", [report], max_violations=1)
    assert "error[CMP-9]" not in capped
    assert (
        "flows/parent.json: note: 1 more clash across calls not shown "
        "(--max-violations 1: at most 1 finding per file)"
    ) in capped


def test_a_run_without_calls_reads_as_before() -> None:
    text = render("text", [own(PARENT)])
    assert text.splitlines()[-1] == "checked 1 file (1 consumer): 0 violations, 0 warnings"
    assert "across calls" not in text


def test_text_names_each_workflow_of_a_cycle_with_its_file() -> None:
    lines = render("text", [cycle()]).splitlines()
    assert lines[:3] == [
        'site: error: a cycle of calls: "a" runs "b" runs "a"',
        '  = workflow "a": site/a.json',
        '  = workflow "b": site/b.yml',
    ]


# --- JSON -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_validator() -> Any:
    schema = json.loads((REPO / "docs" / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("listing", ["clashes", "each"])
@pytest.mark.parametrize("max_path", [0, 2, 64])
def test_json_lists_call_findings_and_matches_its_schema(report_validator: Any, listing: str, max_path: int) -> None:
    document = json.loads(render("json", [*site(), cycle()], json_violations=listing, max_path=max_path))
    assert [f"{list(e.absolute_path)}: {e.message}" for e in report_validator.iter_errors(document)] == []
    assert document["schema_version"] == 6 and document["ok"] is False
    first, second, middle, *_, broken = document["files"]
    assert (first["ok"], first["violation_count"], first["call_count"], first["calls_omitted"]) == (False, 0, 1, 0)
    assert second["calls"][0]["chains"] == MANY  # exact, past 64 bits
    assert (middle["ok"], middle["calls"]) == (True, [])
    assert broken["error"]["workflows"] == ["a", "b"] and broken["call_count"] == 0
    assert document["code_counts"] == {"CMP-9": 2, "CMP-9-CALL-UNKNOWN": 1}
    if max_path == 0:
        assert first["calls"] == [c.to_dict() for c in parent().calls]


def test_json_shortens_each_part_of_a_long_path_alike() -> None:
    name, chains, chain, consumer, tools = one_call()
    boxes = [(f"box_{i}", (30 + i, 5)) for i in range(10)]
    long = ("parent", PARENT, "web_search", "Search", (3, 5), [("parent", PARENT, [("web_search", (3, 5)), *boxes, ("run_agent", (12, 5))]), tools[0][5][1]])
    report = with_site(own(PARENT), [(name, chains, chain, consumer, [long, tools[1]])], [])
    part = json.loads(render("json", [report], max_path=4))["files"][0]["calls"][0]["tools"][0]["path"][0]
    assert part["nodes"] == ["web_search", "box_0", {"omitted": 8}, "box_9", "run_agent"]
    assert part["locations"] == [{"line": 3, "column": 5}, {"line": 30, "column": 5}, {"omitted": 8}, {"line": 39, "column": 5}, {"line": 12, "column": 5}]


def test_json_leaves_out_call_findings_beyond_max_violations_and_counts_them(report_validator: Any) -> None:
    report = with_site(own(PARENT), [one_call(), two_calls()], [])
    for listing in ("clashes", "each"):
        document = json.loads(render("json", [report], max_violations=1, json_violations=listing))
        assert report_validator.is_valid(document)
        (file,) = document["files"]
        assert (file["call_count"], len(file["calls"]), file["calls_omitted"]) == (2, 1, 1)


# --- SARIF ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_validator() -> Any:
    schema_path = need_shared(SHARED / "data" / "sarif-schema-2.1.0.json")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def sarif_results(reports: Sequence[Report], **options: Any) -> List[Json]:
    results: List[Json] = json.loads(render("sarif", reports, **options))["runs"][0]["results"]
    return results


@pytest.mark.parametrize("strict", [False, True])
def test_sarif_with_call_findings_is_valid_against_the_official_schema(sarif_validator: Any, strict: bool) -> None:
    document = json.loads(render("sarif", [*site(), cycle()], strict=strict, max_violations=5))
    assert [f"{list(e.absolute_path)}: {e.message}" for e in sarif_validator.iter_errors(document)] == []


def test_sarif_locates_a_call_finding_at_the_calling_node_and_relates_the_other_files() -> None:
    results = sarif_results([top()])
    (result,) = results
    assert (result["ruleId"], result["level"]) == ("CMP-9", "error")
    (located,) = result["locations"]
    assert located["physicalLocation"]["artifactLocation"]["uri"] == TOP
    assert located["physicalLocation"]["region"] == {"startLine": 7, "startColumn": 5}
    related = [
        (r["id"], r["physicalLocation"]["artifactLocation"]["uri"], r["physicalLocation"]["region"]["startLine"])
        for r in result["relatedLocations"]
    ]
    # The further call, the consumer inside, then each tool, in its own file.
    assert related == [(1, MIDDLE, 8), (2, SHARED_FILE, 20), (3, SHARED_FILE, 5), (4, TOP, 3)]
    text = result["message"]["text"]
    assert "\nthrough: [call_shared](1)\nconsumer: [inner_agent](2)\ntools: [search](3), [lookup](4)\n" in text
    flow = result["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [s["location"]["physicalLocation"]["artifactLocation"]["uri"] for s in flow] == [TOP, MIDDLE, SHARED_FILE]
    assert result["properties"]["chains"] == MANY


def test_sarif_fingerprints_tell_call_findings_apart_and_survive_moves() -> None:
    (a,) = sarif_results([parent()], strict=False)[:1]
    name, chains, chain, consumer, tools = one_call()
    moved = [(w, f, n, (at[0] + 10, at[1]), r) for w, f, n, at, r in chain]
    (b,) = sarif_results([with_site(own(PARENT), [(name, chains, moved, consumer, tools)], [])])
    assert a["partialFingerprints"] == b["partialFingerprints"]
    other = [(w, f, "run_agent_2", at, r) for w, f, n, at, r in chain]
    (c,) = sarif_results([with_site(own(PARENT), [(name, chains, other, consumer, tools)], [])])
    assert a["partialFingerprints"] != c["partialFingerprints"]


def test_sarif_names_the_files_of_a_cycle_in_its_notification() -> None:
    run = json.loads(render("sarif", [cycle()]))["runs"][0]
    (note,) = run["invocations"][0]["toolExecutionNotifications"]
    uris = [where["physicalLocation"]["artifactLocation"]["uri"] for where in note["locations"]]
    assert uris == ["site", "site/a.json", "site/b.yml"]
    assert run["invocations"][0]["executionSuccessful"] is False


def test_sarif_counts_call_findings_left_out_by_max_violations() -> None:
    report = with_site(own(PARENT), [one_call(), two_calls()], [])
    document = json.loads(render("sarif", [report], max_violations=1))
    run = document["runs"][0]
    assert len(run["results"]) == 1
    (note,) = run["invocations"][0]["toolExecutionNotifications"]
    assert note["properties"]["callsOmitted"] == 1
    assert "1 of its 2 clashes across calls" in note["message"]["text"]


# --- GitHub and JUnit ---------------------------------------------------------------


def test_github_annotates_a_call_finding_once_at_the_calling_node() -> None:
    lines = render("github", [parent(), top()]).splitlines()
    errors = [line for line in lines if line.startswith("::error")]
    assert len(errors) == 2
    assert errors[0].startswith("::error file=flows/parent.json,line=12,col=5,title=CMP-9::2 tools reaching")
    assert "%0Ato the consumer inner_agent of workflow \"shared_agent\": flows/shared.yml:20:3%0Ahelp: rename" in errors[0]
    assert errors[1].startswith("::error file=flows/top.json,line=7,col=5,title=CMP-9::")


def test_github_says_which_call_findings_max_violations_left_unannotated() -> None:
    report = with_site(own(PARENT), [one_call(), two_calls()], [])
    lines = render("github", [report], max_violations=1).splitlines()
    assert sum(line.startswith("::error") for line in lines) == 1
    assert lines[-1].startswith(
        "::notice title=toolwire::1 more clash across calls not annotated: --max-violations 1 keeps at most 1 "
        "finding per file."
    )


def test_junit_gives_a_call_finding_a_failure_of_the_calling_workflow() -> None:
    root = ET.fromstring(render("junit", [parent(), own(SHARED_FILE)]))
    assert (root.get("tests"), root.get("failures")) == ("3", "1")
    cases = list(root.iter("testcase"))
    assert [c.get("name") for c in cases] == [
        PARENT,
        f"{PARENT}: CMP-9 search in a call from run_agent at inner_agent of shared_agent",
        SHARED_FILE,
    ]
    assert cases[1].get("file") == PARENT
    (failure,) = cases[1]
    assert failure.get("type") == "CMP-9"
    assert failure.text is not None
    assert failure.text.startswith(f"{PARENT}:12:5: CMP-9: 2 tools reaching")
    assert "  to the consumer inner_agent of workflow \"shared_agent\": flows/shared.yml:20:3\n" in failure.text
    assert "=> shared_agent: [inner_agent] (flows/shared.yml:20:3) at flows/parent.json:3:5\n" in failure.text


# --- the command line: exit status and --ignore ------------------------------------


@pytest.fixture
def site_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``toolwire check`` whose check gives ``top()`` (only a call finding):
    the formats, the selection and the exit status are the command's own."""
    (tmp_path / "flows").mkdir()
    (tmp_path / TOP).write_text("{}", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_check_command, "check_all", lambda *args, **kwargs: [top()])
    return tmp_path


@pytest.mark.parametrize("format", ["text", "json", "sarif", "github", "junit"])
def test_a_run_with_only_a_call_finding_exits_as_refused(site_run: Path, format: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--no-config", "--format", format, TOP]) == 1
    out = capsys.readouterr().out
    assert "call_mid" in out
    assert main(["check", "--no-config", "--format", format, "--ignore", "CMP-9", TOP]) == 0
    assert "call_mid" not in capsys.readouterr().out


def test_text_shortens_a_long_consumer_id_in_a_call_finding_and_json_keeps_it() -> None:
    """The consumer's id is in the headline, the chain and every path of a
    call finding: the text format shortens it past 100 characters (attack
    finding 4), the machine formats keep it whole."""
    long = "I" * 5_000

    def renamed(value: Any) -> Any:
        if value == "inner_agent":
            return long
        if isinstance(value, (tuple, list)):
            return type(value)(renamed(v) for v in value)
        return value

    report = with_site(own(PARENT), [renamed(one_call())], [])
    text = render("text", [report])
    assert "I" * 99 + "\u2026" in text and "I" * 100 not in text
    assert long in render("json", [report])
