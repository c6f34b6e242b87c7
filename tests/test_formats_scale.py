"""Every report format on the worst case: one toolbox with 1,000 pairs of
clashing tools wired into 10,000 agents, 10,000,000 CMP-9 violations.

The report here is a fake with the core's shape: ``violations`` is a lazy
sequence of 10,000,000 items built on access, each tool's path may be a lazy
sequence of 100,000 ids, and ``clash_groups()`` yields the 1,000 groups
without walking the violations. Both count what is read, so the tests show
that no format walks them whole. (A format that did would also take minutes
and gigabytes here.) No test asserts a time.
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Union, overload

import jsonschema
import pytest

from toolwire._formats import Run, writer
from toolwire._formats.github_format import STEP_SUMMARY_LIMIT
from toolwire._groups import ClashGroup
from toolwire._report import Location, Rename, Report, Stats, Tool, Violation, WiringWarning

from support import REPO, SHARED

CONSUMERS = sorted(f"agent{i}" for i in range(10_000))
"""By id, as the core orders them: agent0, agent1, agent10, agent100, ..."""
NAMES = [f"t{j:03}" for j in range(1_000)]
TOTAL = len(CONSUMERS) * len(NAMES)
DEEP = 100_000
MB = 1_000_000


class Counter:
    reads = 0


class LongPath(Sequence):  # type: ignore[type-arg]
    """``[tool, b1, ..., b99997, box, consumer]``, built on access."""

    def __init__(self, tool: str, consumer: str, length: int, counter: Counter) -> None:
        self.tool, self.consumer, self.length, self.counter = tool, consumer, length, counter

    def __len__(self) -> int:
        return self.length

    def item(self, index: int) -> str:
        self.counter.reads += 1
        if index == 0:
            return self.tool
        if index == self.length - 1:
            return self.consumer
        return "box" if index == self.length - 2 else f"b{index}"

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> List[str]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[str, List[str]]:
        if isinstance(index, slice):
            return [self.item(i) for i in range(self.length)[index]]
        if not -self.length <= index < self.length:
            raise IndexError(index)
        return self.item(index % self.length)


class LazyViolations(Sequence):  # type: ignore[type-arg]
    """10,000,000 CMP-9 violations by consumer id, then name; each built
    when it is read, and counted."""

    def __init__(self, deep: bool = False) -> None:
        self.deep = deep
        self.reads = 0
        self.path_reads = Counter()

    def __len__(self) -> int:
        return TOTAL

    def path(self, tool: str, consumer: str) -> Sequence:  # type: ignore[type-arg]
        if self.deep:
            return LongPath(tool, consumer, DEEP, self.path_reads)
        return [tool, "box", consumer]

    def build(self, index: int) -> Violation:
        self.reads += 1
        c, n = divmod(index, len(NAMES))
        consumer, name = CONSUMERS[c], NAMES[n]
        tools = [
            Tool(f"{name}a", name.upper(), self.path(f"{name}a", consumer), Location(2 + n, 5)),
            Tool(f"{name}b", f"{name}!", self.path(f"{name}b", consumer), Location(1002 + n, 5)),
        ]
        message = (
            f'2 tools reaching "{consumer}" share the name "{name}": "{name}a" ("{name.upper()}"), '
            f'"{name}b" ("{name}!")'
        )
        fix = [Rename(f"{name}b", f"{name}!", f"{name}! (Kit)", f"{name}_kit")]
        return Violation(
            "CMP-9", message, consumer, name, tools, location=Location(3000 + c, 5), fix=fix, box_labels={"box": "Kit"}
        )

    @overload
    def __getitem__(self, index: int) -> Violation: ...
    @overload
    def __getitem__(self, index: slice) -> List[Violation]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[Violation, List[Violation]]:
        if isinstance(index, slice):
            return [self.build(i) for i in range(TOTAL)[index]]
        if not -TOTAL <= index < TOTAL:
            raise IndexError(index)
        return self.build(index % TOTAL)


class FakeGroups(Sequence):  # type: ignore[type-arg]
    """The clash groups, as the core gives them: an exact ``len()`` at
    once, each group built when it is read, and counted."""

    def __init__(self, violations: LazyViolations, grouped: bool) -> None:
        self.violations, self.grouped = violations, grouped
        self.reads = 0

    def __len__(self) -> int:
        return len(NAMES) if self.grouped else TOTAL

    def build(self, index: int) -> ClashGroup:
        self.reads += 1
        if not self.grouped:
            v = self.violations[index]
            assert v.name is not None and v.consumer is not None
            return ClashGroup(v.name, v.tools, None, [v.consumer], v)
        first = self.violations[index]  # each name's first consumer is agent0
        return ClashGroup(NAMES[index], first.tools, "box", CONSUMERS, first)

    @overload
    def __getitem__(self, index: int) -> ClashGroup: ...
    @overload
    def __getitem__(self, index: slice) -> List[ClashGroup]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[ClashGroup, List[ClashGroup]]:
        if isinstance(index, slice):
            return [self.build(i) for i in range(len(self))[index]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self.build(index % len(self))


class FakeReport(Report):
    """The core-backed report's shape: lazy violations, groups of its own.
    ``grouped=False`` makes every violation a group of its own (10,000,000
    groups: a workflow whose clashes have no shared cause)."""

    __slots__ = ()

    def clash_groups(self) -> FakeGroups:
        violations = self.violations
        assert isinstance(violations, LazyViolations)
        return FakeGroups(violations, getattr(self.stats, "passthroughs", 1) != 0)


WARNINGS = [
    WiringWarning("NAME-LOSSY", f"w{i}", None, f'tool "w{i}" is labelled "Café {i}"', Location(5000 + i, 5))
    for i in range(25)
]


def fake(*, deep: bool = False, grouped: bool = True, path: str = "flows/huge.json") -> FakeReport:
    stats = Stats(12_001, 12_001, 12_001, len(CONSUMERS), 1 if grouped else 0)
    return FakeReport(LazyViolations(deep), list(WARNINGS), stats, path)


def render(format: str, reports: List[Report], **options: Any) -> str:
    out = io.StringIO()
    writer(format)(Run(reports, 1.5, **options), out)
    return out.getvalue()


def violations_of(report: Report) -> LazyViolations:
    assert isinstance(report.violations, LazyViolations)
    return report.violations


def size(text: str) -> int:
    return len(text.encode("utf-8"))


# --- the fake itself ------------------------------------------------------------------


def test_the_fake_is_what_the_core_gives() -> None:
    report = fake()
    violations = violations_of(report)
    assert report.violation_count == len(report.violations) == TOTAL and not report.ok
    assert violations[0].consumer == "agent0" and violations[1000].consumer == "agent1"
    assert violations[-1].consumer == "agent9999" and violations[-1].name == "t999"
    groups = list(report.clash_groups())
    assert len(groups) == 1000 and sum(g.count for g in groups) == TOTAL
    assert violations.reads == 4 + 1000  # the four above, and each group's first


# --- text ---------------------------------------------------------------------------


def test_text_shows_each_clash_once_with_its_consumers_counted() -> None:
    report = fake()
    text = render("text", [report])
    assert size(text) < 2 * MB
    assert text.count("error[CMP-9]") == 1000
    assert text.count("warning[NAME-LOSSY]") == 25
    first = text.split("\n\n")[0].splitlines()
    assert first == [
        'flows/huge.json:3000:5: error[CMP-9]: 2 tools reaching 10,000 consumers share the name "t000"',
        '  = t000a  "T000"  -> t000  at 2:5',
        "           path: t000a -> box (Kit) -> agent0",
        '  = t000b  "t000!" -> t000  at 1002:5',
        "           path: t000b -> box (Kit) -> agent0",
        "  = at 10,000 consumers through box (Kit): agent0, agent1, agent10 and 9,997 more",
        '  help: rename "t000b" to "t000! (Kit)"',
    ]
    assert text.splitlines()[-1] == (
        "checked 1 file (10,000 consumers) in 1.50s: 10,000,000 violations, 25 warnings"
    )
    assert violations_of(report).reads < 2000


def test_text_max_violations_caps_the_findings_and_counts_the_rest_exactly() -> None:
    text = render("text", [fake(), fake(path="flows/other.json")], max_violations=5)
    assert text.count("error[CMP-9]") == 10
    assert text.count("flows/huge.json: note: 9,950,000 more violations not shown (at most 5 findings per file)") == 1
    assert text.count("flows/other.json: note: 9,950,000 more violations not shown (at most 5 findings per file)") == 1
    assert text.splitlines()[-1].endswith(": 20,000,000 violations, 50 warnings")


def test_text_a_path_of_100000_ids_shows_its_ends_and_reads_only_them() -> None:
    report = fake(deep=True)
    text = render("text", [report], max_violations=3)
    assert "path: t000a -> b1 -> b2 -> b3 -> b4 -> ... 99,990 more ... -> b99995 -> b99996 -> b99997 -> box (Kit) -> agent0" in text
    assert violations_of(report).path_reads.reads < 200
    short = render("text", [fake(deep=True)], max_violations=1, max_path=4)
    assert "path: t000a -> b1 -> ... 99,996 more ... -> box (Kit) -> agent0" in short


def test_text_ungrouped_clashes_stay_bounded_under_max_violations() -> None:
    report = fake(grouped=False)
    text = render("text", [report], max_violations=100)
    assert text.count("error[CMP-9]") == 100
    assert "9,999,900 more violations not shown" in text
    assert violations_of(report).reads < 1000


# --- json ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_validator() -> Any:
    schema = json.loads((REPO / "docs" / "report.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def test_json_max_violations_lists_the_first_n_and_counts_every_one(report_validator: Any) -> None:
    report = fake(deep=True)
    text = render("json", [report], max_violations=100)
    assert size(text) < 2 * MB
    document = json.loads(text)
    assert list(report_validator.iter_errors(document)) == []
    (entry,) = document["files"]
    assert (entry["violation_count"], entry["violations_omitted"]) == (TOTAL, TOTAL - 100)
    assert len(entry["violations"]) == 100
    # The first 100 in the report's order: agent0's names t000 to t099.
    assert [(v["consumer"], v["name"]) for v in entry["violations"][:2]] == [("agent0", "t000"), ("agent0", "t001")]
    assert entry["violations"][-1]["name"] == "t099"
    path = entry["violations"][0]["tools"][0]["path"]
    assert len(path) == 65
    assert path[:3] == ["t000a", "b1", "b2"] and path[31] == "b31"
    assert path[32] == {"omitted": DEEP - 64}
    assert path[33] == "b99968" and path[-2:] == ["box", "agent0"]
    assert violations_of(report).reads <= 200
    assert violations_of(report).path_reads.reads < 100 * 2 * 70


def test_json_max_path_zero_shows_the_whole_path() -> None:
    report = fake(deep=True)
    document = json.loads(render("json", [report], max_violations=1, max_path=0))
    assert len(document["files"][0]["violations"][0]["tools"][0]["path"]) == DEEP


class StopWriting(Exception):
    pass


class Reader(io.StringIO):
    """A reader that takes 1 MB of the document and goes away."""

    def write(self, text: str) -> int:
        if self.tell() > MB:
            raise StopWriting
        return super().write(text)


def test_json_writes_every_violation_as_it_is_produced() -> None:
    # Every violation by default: 10,000,000 of them would take gigabytes, so
    # the reader stops after the first megabyte. By then the document has been
    # written as far as it goes: a few thousand violations read, not all of
    # them first.
    report = fake()
    with pytest.raises(StopWriting):
        writer("json")(Run([report], 1.0), Reader())
    assert 500 < violations_of(report).reads < 5_000


# --- sarif --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_validator() -> Any:
    schema_path = SHARED / "data" / "sarif-schema-2.1.0.json"
    if not schema_path.is_file():
        pytest.skip(f"{schema_path} is not there")
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def sarif_limits(document: Dict[str, Any]) -> List[Dict[str, Any]]:
    (run,) = document["runs"]
    results: List[Dict[str, Any]] = run["results"]
    assert len(results) <= 25_000
    for result in results:
        assert len(result["locations"]) + len(result.get("relatedLocations", [])) <= 1_000
    return results


def test_sarif_a_clash_group_is_one_result_naming_its_consumers(sarif_validator: Any) -> None:
    report = fake(deep=True)
    text = render("sarif", [report])
    assert size(text) < 5 * MB
    document = json.loads(text)
    assert list(sarif_validator.iter_errors(document)) == []
    results = sarif_limits(document)
    assert [r["ruleId"] for r in results] == ["CMP-9"] * 1000 + ["NAME-LOSSY"] * 25
    lines = results[0]["message"]["text"].split("\n")
    assert lines[1] == (
        'the same clash at 10,000 consumers through "box": "agent0", "agent1", "agent10", "agent100", '
        '"agent1000", "agent1001", "agent1002", "agent1003", "agent1004", "agent1005" and 9,990 more'
    )
    assert results[0]["properties"]["consumerCount"] == 10_000
    related = results[0]["relatedLocations"][0]["message"]["text"]
    assert related.startswith("t000a \"T000\" via t000a -> b1 -> ") and "... 99,936 more ..." in related
    # Every violation is in a result: nothing to report as left out.
    assert document["runs"][0]["invocations"][0]["toolExecutionNotifications"] == []
    assert violations_of(report).path_reads.reads < 1000 * 2 * 70


def test_sarif_caps_results_at_25000_and_says_exactly_what_is_left_out(sarif_validator: Any) -> None:
    report = fake(grouped=False)
    document = json.loads(render("sarif", [report, fake(path="flows/second.json")]))
    results = sarif_limits(document)
    assert len(results) == 25_000
    assert {r["ruleId"] for r in results} == {"CMP-9"}  # violations before warnings
    # Validating 25,000 results takes long; they are all alike.
    document["runs"][0]["results"] = results[:50]
    assert list(sarif_validator.iter_errors(document)) == []
    invocation = document["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is True
    first, second = invocation["toolExecutionNotifications"]
    assert first["level"] == "warning"
    assert first["message"]["text"].startswith(
        "9,975,000 of its 10,000,000 violations and 25 of its 25 warnings are not listed as results"
    )
    assert first["properties"] == {"violationsOmitted": 9_975_000, "warningsOmitted": 25}
    assert second["properties"] == {"violationsOmitted": TOTAL, "warningsOmitted": 25}
    assert second["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "flows/second.json"
    assert violations_of(report).reads < 30_000


def test_sarif_a_result_has_at_most_1000_locations(sarif_validator: Any) -> None:
    tools = [Tool(f"t{i:04}", "Search", [f"t{i:04}", "agent"], Location(i + 1, 1)) for i in range(1500)]
    violation = Violation("CMP-9", "1500 tools ...", "agent", "search", tools, location=Location(2000, 1))
    document = json.loads(render("sarif", [Report([violation], [], Stats(1, 1, 1, 1, 0), "w.json")]))
    assert list(sarif_validator.iter_errors(document)) == []
    (result,) = sarif_limits(document)
    assert len(result["relatedLocations"]) == 999
    assert result["message"]["text"].split("\n")[1].endswith("[t0998](999) and 501 more")


def test_sarif_max_violations_applies_per_file() -> None:
    document = json.loads(render("sarif", [fake(), fake()], max_violations=7))
    results = sarif_limits(document)
    assert [r["ruleId"] for r in results].count("CMP-9") == 14
    notes = document["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["properties"]["violationsOmitted"] for n in notes] == [TOTAL - 70_000] * 2
    assert "(--max-violations)" in notes[0]["message"]["text"]


# --- github -------------------------------------------------------------------------


def annotations(output: str) -> List[str]:
    lines = output.splitlines()
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    return [line.split(" ", 1)[0] for line in lines]


def test_github_ten_errors_ten_warnings_and_a_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = fake()
    output = render("github", [report])
    assert annotations(output) == ["::error"] * 10 + ["::warning"] * 10 + ["::notice"]
    errors = output.splitlines()[:10]
    assert "title=CMP-9::" in errors[0]
    assert "%0Athe same clash at 10,000 consumers through \"box\": \"agent0\"," in errors[0]
    assert "and 9,990 more%0Ahelp: rename" in errors[0]
    notice = output.splitlines()[-1]
    assert notice.startswith("::notice title=toolwire::9,900,000 more violations and 15 more warnings not annotated")
    assert violations_of(report).reads < 100


def test_github_strict_warnings_share_the_ten_errors() -> None:
    output = render("github", [fake()], strict=True, max_violations=4)
    assert annotations(output) == ["::error"] * 10 + ["::notice"]
    assert output.count("title=NAME-LOSSY") == 6
    assert "9,960,000 more violations and 19 more warnings" in output


def test_github_step_summary_is_the_grouped_report_under_one_mib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("# Earlier in this step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    report = fake(grouped=False)
    output = render("github", [report])
    assert "The job's step summary lists them, grouped" in output.splitlines()[-1]
    written = summary.read_text(encoding="utf-8")
    assert written.startswith("# Earlier in this step\n\n### toolwire\n\n**checked 1 file (10,000 consumers)")
    assert STEP_SUMMARY_LIMIT - 4096 < size(written) <= STEP_SUMMARY_LIMIT
    shown = written.count("error[CMP-9]")
    assert shown > 1000
    cut = re.search(r"\*Cut to stay under GitHub's 1 MiB step summary: ([\d,]+) violations and ([\d,]+) warnings", written)
    assert cut is not None
    # Exact: every violation shown is in a block of the summary.
    assert int(cut.group(1).replace(",", "")) == TOTAL - shown
    assert int(cut.group(2).replace(",", "")) + written.count("warning[NAME-LOSSY]") == 25
    assert violations_of(report).reads < 20_000


def test_github_step_summary_of_grouped_clashes_fits_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    render("github", [fake()])
    written = summary.read_text(encoding="utf-8")
    assert size(written) <= STEP_SUMMARY_LIMIT
    assert written.count("error[CMP-9]") == 1000 and "Cut to stay" not in written
    assert written.rstrip().endswith("```")


# --- junit --------------------------------------------------------------------------


def test_junit_one_test_case_per_clash_group() -> None:
    report = fake(deep=True)
    text = render("junit", [report])
    assert size(text) < 5 * MB
    root = ET.fromstring(text)
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 1 + 1000
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("1001", "1000", "0")
    assert cases[1].get("name") == "flows/huge.json: CMP-9 t000 at agent0"
    failure = cases[1].find("failure")
    assert failure is not None and failure.text is not None
    assert "the same clash at 10,000 consumers through \"box\": \"agent0\"," in failure.text
    assert "and 9,990 more" in failure.text and "... 99,936 more ..." in failure.text
    assert violations_of(report).path_reads.reads < 1000 * 2 * 70


def test_junit_max_violations_caps_the_test_cases_and_says_how_many_more() -> None:
    root = ET.fromstring(render("junit", [fake()], max_violations=3))
    file_case, *findings = root.findall("./testsuite/testcase")
    assert len(findings) == 3
    out = file_case.findtext("system-out")
    assert out is not None
    assert out.splitlines()[-1] == "flows/huge.json: 9,970,000 more violations not listed (--max-violations 3)"
