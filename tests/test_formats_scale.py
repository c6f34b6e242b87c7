"""Every report format on "family 2" of the issue "every shape costs what
its file costs": one toolbox ``kit`` holding 1,000 pairs of clashing tools,
wired through a private toolbox each into 2,000 agents. That is 2,000,000
CMP-9 violations in 1,000 clashes of 2,000 consumers each.

The report here is a fake with the core's shape: ``violations`` is a lazy
sequence of 2,000,000 items built on access, each tool's path may be a lazy
sequence of 100,000 ids, ``clash_groups()`` is a lazy sequence of the 1,000
clashes (exact ``len()``, each built when read), and each clash's consumers
a lazy sequence of 2,000 ids. All of them count what is read, so the tests
show that no format walks them whole. (A format that did would also take
minutes and gigabytes here.) ``grouped=False`` makes every violation a
clash of its own, 2,000,000 of them: what the core gives for family 2 while
it keys clashes by their last toolbox. No test asserts a time.
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, TypeVar, Union, overload

import jsonschema
import pytest

import toolwire

from toolwire._formats import Run, writer
from toolwire._formats.github_format import STEP_SUMMARY_LIMIT
from toolwire._records import ClashGroup
from toolwire._report import Location, Rename, Report, Stats, Tool, Violation, WiringWarning

from support import REPO, SHARED, missing_shared

AGENTS = 2_000
NAMES = [f"t{j:03}" for j in range(1_000)]
DEEP = 100_000
MB = 1_000_000
FORMATS = ["text", "json", "sarif", "github", "junit"]


def agents(count: int) -> Sequence:  # type: ignore[type-arg]
    """By id, as the core orders them: agent0, agent1, agent10, agent100, ...
    Past 10,000, ids of seven digits, made when read: already in order."""
    if count > 10_000:
        return Ids(count)
    return sorted(f"agent{i}" for i in range(count))


T = TypeVar("T")


class BuiltOnRead(Sequence[T]):
    """A sequence whose items are built by ``build`` when read, as the
    core's are."""

    def build(self, index: int) -> T:
        raise NotImplementedError

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> List[T]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[T, List[T]]:
        if isinstance(index, slice):
            return [self.build(i) for i in range(len(self))[index]]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        return self.build(index % len(self))


class Ids(BuiltOnRead[str]):
    """``agent0000000``, ``agent0000001``, ...: ``count`` ids in order, made when read."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __len__(self) -> int:
        return self.count

    def build(self, index: int) -> str:
        return f"agent{index:07}"


class Counter:
    reads = 0


class LongPath(BuiltOnRead[str]):
    """``[tool, b1, ..., b99997, kit, consumer]``, built on access."""

    def __init__(self, tool: str, consumer: str, length: int, counter: Counter) -> None:
        self.tool, self.consumer, self.length, self.counter = tool, consumer, length, counter

    def __len__(self) -> int:
        return self.length

    def build(self, index: int) -> str:
        self.counter.reads += 1
        if index == 0:
            return self.tool
        if index == self.length - 1:
            return self.consumer
        return "kit" if index == self.length - 2 else f"b{index}"


class Consumers(Sequence):  # type: ignore[type-arg]
    """A clash's consumers, by id, each read counted."""

    def __init__(self, ids: Sequence, counter: Counter) -> None:  # type: ignore[type-arg]
        self.ids, self.counter = ids, counter

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> List[str]: ...
    def __getitem__(self, index: Union[int, slice]) -> Union[str, List[str]]:
        if isinstance(index, slice):
            taken = self.ids[index]
            self.counter.reads += len(taken)
            return taken
        self.counter.reads += 1
        return self.ids[index]


class LazyViolations(BuiltOnRead[Violation]):
    """The violations by consumer id, then name; each built when it is
    read, and counted. Each tool reaches consumer ``c`` through ``kit``
    and then ``c``'s own toolbox."""

    def __init__(self, consumers: Sequence, deep: bool = False) -> None:  # type: ignore[type-arg]
        self.consumers = consumers
        self.deep = deep
        self.reads = 0
        self.path_reads = Counter()
        self.groups: Optional[FakeGroups] = None

    def __len__(self) -> int:
        return len(self.consumers) * len(NAMES)

    def path(self, tool: str, consumer: str) -> Sequence:  # type: ignore[type-arg]
        if self.deep:
            return LongPath(tool, consumer, DEEP, self.path_reads)
        return [tool, "kit", f"own_{consumer}", consumer]

    def build(self, index: int) -> Violation:
        self.reads += 1
        c, n = divmod(index, len(NAMES))
        consumer, name = self.consumers[c], NAMES[n]
        tools = [
            Tool(f"{name}a", name.upper(), self.path(f"{name}a", consumer), Location(2 + n, 5)),
            Tool(f"{name}b", f"{name}!", self.path(f"{name}b", consumer), Location(1002 + n, 5)),
        ]
        message = (
            f'2 tools reaching "{consumer}" share the name "{name}": "{name}a" ("{name.upper()}"), '
            f'"{name}b" ("{name}!")'
        )
        fix = [Rename(f"{name}b", f"{name}!", f"{name}! ({name}b)", f"{name}_{name}b")]
        return Violation(
            "CMP-9", message, consumer, name, tools, location=Location(3000 + c, 5), fix=fix, box_labels={"kit": "Kit"}
        )


class FakeGroups(BuiltOnRead[ClashGroup]):
    """The clashes, as the core gives them: an exact ``len()`` at once,
    each built when it is read, and counted. ``on_read``, when set, is
    called with each index read, before the clash is built."""

    def __init__(self, violations: LazyViolations, grouped: bool) -> None:
        self.violations, self.grouped = violations, grouped
        self.reads = 0
        self.consumer_reads = Counter()
        self.on_read: Optional[Callable[[int], None]] = None

    def __len__(self) -> int:
        return len(NAMES) if self.grouped else len(self.violations)

    def build(self, index: int) -> ClashGroup:
        if self.on_read is not None:
            self.on_read(index)
        self.reads += 1
        if not self.grouped:
            v = self.violations[index]
            assert v.name is not None and v.consumer is not None
            return ClashGroup(v.name, v.tools, None, Consumers([v.consumer], self.consumer_reads), v)
        first = self.violations[index]  # each name's first consumer is agent0
        consumers = Consumers(self.violations.consumers, self.consumer_reads)
        return ClashGroup(NAMES[index], first.tools, "kit", consumers, first)


class FakeReport(Report):
    """The core-backed report's shape: lazy violations, and clashes of its own."""

    __slots__ = ()

    def clash_groups(self) -> FakeGroups:
        return groups_of(self)


WARNINGS = [
    WiringWarning("NAME-LOSSY", f"w{i}", None, f'tool "w{i}" is labelled "Café {i}"', Location(5000 + i, 5))
    for i in range(25)
]

def fake(
    *, deep: bool = False, grouped: bool = True, path: str = "flows/family2.json", consumers: int = AGENTS
) -> FakeReport:
    violations = LazyViolations(agents(consumers), deep)
    # The report is a frozen dataclass with slots: its clashes live on its violations.
    violations.groups = FakeGroups(violations, grouped)
    stats = Stats(2_001 + 2 * consumers, 2_000 + 2 * consumers, 2_000 + 2 * consumers, consumers, 1 + consumers)
    return FakeReport(violations, list(WARNINGS), stats, path)


def violations_of(report: Report) -> LazyViolations:
    assert isinstance(report.violations, LazyViolations)
    return report.violations


def groups_of(report: Report) -> FakeGroups:
    groups = violations_of(report).groups
    assert groups is not None
    return groups


def render(format: str, reports: List[Report], **options: Any) -> str:
    out = io.StringIO()
    writer(format)(Run(reports, 1.5, **options), out)
    return out.getvalue()


def size(text: str) -> int:
    return len(text.encode("utf-8"))


TOTAL = AGENTS * len(NAMES)


# --- the fake itself ------------------------------------------------------------------


def family_2(consumers: int) -> Dict[str, Any]:
    """Family 2 itself, as a workflow for the core, at ``consumers`` agents."""
    tool_edge = {"data": {"edgeType": "tool_availability"}}
    nodes: List[Dict[str, Any]] = [{"id": "kit", "type": "toolbox", "data": {"label": "Kit"}}]
    edges: List[Dict[str, Any]] = []
    for name in NAMES:
        for suffix, label in (("a", name.upper()), ("b", f"{name}!")):
            nodes.append({"id": name + suffix, "data": {"label": label}})
            edges.append({"source": name + suffix, "target": "kit", **tool_edge})
    for consumer in agents(consumers):
        nodes += [{"id": f"own_{consumer}", "type": "toolbox"}, {"id": consumer, "type": "agent"}]
        edges += [
            {"source": "kit", "target": f"own_{consumer}", **tool_edge},
            {"source": f"own_{consumer}", "target": consumer, **tool_edge},
        ]
    return {"nodes": nodes, "edges": edges}


def unplaced(violation: Violation) -> Dict[str, Any]:
    """A violation as a dict without its locations: the fake's are made up."""
    found = violation.to_dict()
    del found["location"]
    for tool in found["tools"]:
        del tool["location"]
    return found


def test_the_fake_is_what_the_core_gives() -> None:
    # The core's report of family 2 at 12 agents (ids that sort out of
    # numeric order: agent1, agent10, agent11, agent2) is the fake's, finding
    # for finding and clash for clash, places aside.
    real, made = toolwire.check(family_2(12)), fake(consumers=12)
    assert (real.ok, real.violation_count, real.stats) == (made.ok, made.violation_count, made.stats)
    assert [unplaced(v) for v in real.violations] == [unplaced(v) for v in made.violations]
    real_groups, made_groups = real.clash_groups(), made.clash_groups()
    assert len(real_groups) == len(made_groups) == len(NAMES)
    for r, m in zip(real_groups, made_groups):
        assert (r.name, r.through, r.count, list(r.consumers)) == (m.name, m.through, m.count, list(m.consumers))
        assert unplaced(r.first) == unplaced(m.first)
    # At full size, the fake counts what is read: the counts the format tests
    # below rely on.
    report = fake()
    violations = violations_of(report)
    assert report.violation_count == len(report.violations) == TOTAL == 2_000_000 and not report.ok
    assert violations[0].consumer == "agent0" and violations[1000].consumer == "agent1"
    assert violations[-1].consumer == "agent999" and violations[-1].name == "t999"
    groups = report.clash_groups()
    assert len(groups) == 1000 and violations.reads == 4  # counted without reading one
    assert sum(g.count for g in groups) == TOTAL
    assert violations.reads == 4 + 1000  # the four above, and each clash's first
    assert groups_of(report).consumer_reads.reads == 0  # counts are len()


# --- every format: bounded ----------------------------------------------------------

# Bytes of output, and reads of each lazy sequence, that no format may pass
# on family 2 with default options: each bound is the clashes times what one
# clash shows, never the violations.
OUTPUT_BOUND = {"text": 1 * MB, "json": 5 * MB, "sarif": 5 * MB, "github": 10_000, "junit": 2 * MB}


@pytest.mark.parametrize("output_format", FORMATS)
def test_every_format_on_family_2_is_bounded_by_its_clashes(output_format: str) -> None:
    report = fake()
    text = render(output_format, [report])
    assert size(text) < OUTPUT_BOUND[output_format]
    groups = groups_of(report)
    # Each clash is read once (twice at most), each violation read is a
    # clash's first, and of each clash's 2,000 consumers at most the 100
    # that json lists.
    assert groups.reads <= 2 * len(NAMES)
    assert violations_of(report).reads <= 2 * len(NAMES) + 100
    assert groups.consumer_reads.reads <= len(NAMES) * 100


# --- streaming: each finding is written before the next is read -------------------


@pytest.mark.parametrize("output_format", ["text", "junit", "json"])
def test_text_junit_and_json_write_each_clash_before_reading_the_next(output_format: str) -> None:
    # What has been written when clash k is read: clash k - 1 already, and
    # not clash k yet. A format that read every finding before writing
    # (sorting them, or building a whole document) would have written
    # nothing when it reads the second.
    report = fake()
    out = io.StringIO()
    written: Dict[int, str] = {}
    watched = {1, 2, 500, 999}

    def on_read(index: int) -> None:
        if index in watched:
            written.setdefault(index, out.getvalue())

    groups_of(report).on_read = on_read
    writer(output_format)(Run([report], 1.0), out)
    assert set(written) == watched
    for k in sorted(watched):
        assert f'"{NAMES[k - 1]}"' in written[k], (output_format, k)
        assert f'"{NAMES[k]}"' not in written[k], (output_format, k)


# --- text ---------------------------------------------------------------------------


def test_text_shows_each_clash_once_with_its_consumers_counted() -> None:
    report = fake()
    text = render("text", [report])
    assert size(text) < 1 * MB
    assert text.count("error[CMP-9]") == 1000
    assert text.count("warning[NAME-LOSSY]") == 25
    first = text.split("\n\n")[0].splitlines()
    assert first == [
        'flows/family2.json:3000:5: error[CMP-9]: 2 tools reaching 2,000 consumers share the name "t000"',
        '  = t000a  "T000"  -> t000  at 2:5',
        "           path: t000a -> kit (Kit) -> own_agent0 -> agent0",
        '  = t000b  "t000!" -> t000  at 1002:5',
        "           path: t000b -> kit (Kit) -> own_agent0 -> agent0",
        "  = at 2,000 consumers through kit (Kit): agent0, agent1, agent10 and 1,997 more",
        '  help: rename "t000b" to "t000! (t000b)"',
    ]
    # The report's order: the clashes, then the warnings.
    headers = [line for line in text.splitlines() if line.startswith("flows/")]
    assert [h.split(": ")[1].split("[")[0] for h in headers] == ["error"] * 1000 + ["warning"] * 25
    assert text.splitlines()[-1] == "checked 1 file (2,000 consumers): 2,000,000 violations, 25 warnings"
    assert violations_of(report).reads < 2000


def test_text_max_violations_caps_the_findings_and_counts_the_rest_exactly() -> None:
    text = render("text", [fake(), fake(path="flows/other.json")], max_violations=5)
    assert text.count("error[CMP-9]") == 10
    note = "note: 1,990,000 more violations not shown (--max-violations 5: at most 5 findings per file)"
    assert text.count(f"flows/family2.json: {note}") == 1
    assert text.count(f"flows/other.json: {note}") == 1
    assert text.splitlines()[-1].endswith(": 4,000,000 violations, 50 warnings")


def test_text_a_path_of_100000_ids_shows_its_ends_and_reads_only_them() -> None:
    report = fake(deep=True)
    text = render("text", [report], max_violations=3)
    assert (
        "path: t000a -> b1 -> b2 -> b3 -> b4 -> ... 99,990 more ... -> b99995 -> b99996 -> b99997 -> kit (Kit) -> agent0"
        in text
    )
    assert violations_of(report).path_reads.reads < 200
    short = render("text", [fake(deep=True)], max_violations=1, max_path=4)
    assert "path: t000a -> b1 -> ... 99,996 more ... -> kit (Kit) -> agent0" in short


def test_text_ungrouped_clashes_stay_bounded_under_max_violations() -> None:
    report = fake(grouped=False)
    text = render("text", [report], max_violations=100)
    assert text.count("error[CMP-9]") == 100
    assert "1,999,900 more violations not shown" in text
    assert violations_of(report).reads < 1000


# --- json ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_validator() -> Any:
    schema = json.loads((REPO / "docs" / "report.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def test_json_lists_each_clash_once_with_its_first_consumers(report_validator: Any) -> None:
    report = fake()
    text = render("json", [report])
    assert size(text) < 5 * MB
    document = json.loads(text)
    assert list(report_validator.iter_errors(document)) == []
    (entry,) = document["files"]
    assert (entry["violation_count"], entry["clash_count"], entry["violations_omitted"]) == (TOTAL, 1000, 0)
    assert entry["violations"] == [] and len(entry["clashes"]) == 1000
    assert [c["name"] for c in entry["clashes"]] == NAMES
    first = entry["clashes"][0]
    assert (first["consumer_count"], first["consumers_omitted"], first["through"]) == (2000, 1900, "kit")
    assert first["consumers"] == agents(AGENTS)[:100]
    assert first["tools"][0]["path"] == ["t000a", "kit", "own_agent0", "agent0"]
    assert first["message"].startswith('2 tools reaching "agent0" share the name "t000"')
    assert sum(c["consumer_count"] for c in entry["clashes"]) == TOTAL
    assert groups_of(report).consumer_reads.reads == 1000 * 100


def test_json_max_consumers_zero_lists_every_consumer_and_ten_lists_ten() -> None:
    document = json.loads(render("json", [fake()], max_violations=2, max_consumers=0))
    assert [len(c["consumers"]) for c in document["files"][0]["clashes"]] == [2000, 2000]
    document = json.loads(render("json", [fake()], max_violations=2, max_consumers=10))
    assert [c["consumers_omitted"] for c in document["files"][0]["clashes"]] == [1990, 1990]


def test_json_max_violations_lists_the_first_n_clashes_and_counts_every_violation(report_validator: Any) -> None:
    report = fake(deep=True)
    text = render("json", [report], max_violations=100)
    document = json.loads(text)
    assert list(report_validator.iter_errors(document)) == []
    (entry,) = document["files"]
    assert len(entry["clashes"]) == 100 and entry["clash_count"] == 1000
    assert entry["violations_omitted"] == TOTAL - 100 * AGENTS
    path = entry["clashes"][0]["tools"][0]["path"]
    assert len(path) == 65
    assert path[:3] == ["t000a", "b1", "b2"] and path[31] == "b31"
    assert path[32] == {"omitted": DEEP - 64}
    assert path[33] == "b99968" and path[-2:] == ["kit", "agent0"]
    assert violations_of(report).reads <= 200
    assert violations_of(report).path_reads.reads < 100 * 2 * 70


def test_json_each_max_violations_lists_the_first_n_violations(report_validator: Any) -> None:
    report = fake(deep=True)
    document = json.loads(render("json", [report], max_violations=100, json_violations="each"))
    assert list(report_validator.iter_errors(document)) == []
    (entry,) = document["files"]
    assert (entry["violation_count"], entry["violations_omitted"]) == (TOTAL, TOTAL - 100)
    assert "clashes" not in entry and entry["clash_count"] == 1000
    # The first 100 in the report's order: agent0's names t000 to t099.
    assert [(v["consumer"], v["name"]) for v in entry["violations"][:2]] == [("agent0", "t000"), ("agent0", "t001")]
    assert entry["violations"][-1]["name"] == "t099"
    assert violations_of(report).reads <= 200


def test_json_each_lists_every_violation(report_validator: Any) -> None:
    # Five agents: 5,000 violations, every one an object of its own.
    report = fake(consumers=5)
    document = json.loads(render("json", [report], json_violations="each"))
    assert list(report_validator.iter_errors(document)) == []
    (entry,) = document["files"]
    pairs = [(v["consumer"], v["name"]) for v in entry["violations"]]
    assert pairs == [(c, n) for c in agents(5) for n in NAMES]
    assert (entry["violation_count"], entry["violations_omitted"]) == (5000, 0)


def test_json_max_path_zero_shows_the_whole_path() -> None:
    report = fake(deep=True)
    document = json.loads(render("json", [report], max_violations=1, max_path=0))
    assert len(document["files"][0]["clashes"][0]["tools"][0]["path"]) == DEEP


class StopWriting(Exception):
    pass


class Reader(io.StringIO):
    """A reader that takes 1 MB of the document and goes away."""

    def write(self, text: str) -> int:
        if self.tell() > MB:
            raise StopWriting
        return super().write(text)


def test_json_each_writes_every_violation_as_it_is_produced() -> None:
    # Every violation one by one: 2,000,000 of them would take gigabytes, so
    # the reader stops after the first megabyte. By then the document has
    # been written as far as it goes: a thousand-odd violations read, not all
    # of them first.
    report = fake()
    with pytest.raises(StopWriting):
        writer("json")(Run([report], 1.0, json_violations="each"), Reader())
    assert 500 < violations_of(report).reads < 5_000


def test_json_streams_the_consumers_of_a_clash_that_lists_them_all() -> None:
    # --max-consumers 0 on a clash of 2,000,000 consumers: they are read a
    # stretch at a time as they are written, never all at once.
    report = fake(consumers=2_000_000, grouped=True)
    with pytest.raises(StopWriting):
        writer("json")(Run([report], 1.0, max_consumers=0), Reader())
    assert groups_of(report).consumer_reads.reads < 100_000


# --- sarif --------------------------------------------------------------------------


SARIF_SCHEMA = SHARED / "data" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def sarif_validator() -> Any:
    """The SARIF 2.1.0 schema's validator, or None without ../shared: the
    tests then check all else, and `valid_sarif` skips them at the end (or
    fails them in CI)."""
    if not SARIF_SCHEMA.is_file():
        return None
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.validators.validator_for(schema)(schema)


def valid_sarif(validator: Any, document: Dict[str, Any]) -> None:
    """Last in a test: `document` against the schema, which is in ../shared
    (the shared-data rule: skipped without it, failed under
    TOOLWIRE_NEED_SHARED=1)."""
    if validator is None:
        missing_shared(SARIF_SCHEMA)
    assert list(validator.iter_errors(document)) == []


def sarif_limits(document: Dict[str, Any]) -> List[Dict[str, Any]]:
    (run,) = document["runs"]
    results: List[Dict[str, Any]] = run["results"]
    assert len(results) <= 25_000
    for result in results:
        assert len(result["locations"]) + len(result.get("relatedLocations", [])) <= 1_000
    return results


def test_sarif_a_clash_is_one_result_naming_its_consumers(sarif_validator: Any) -> None:
    report = fake(deep=True)
    text = render("sarif", [report])
    assert size(text) < 5 * MB
    document = json.loads(text)
    results = sarif_limits(document)
    assert [r["ruleId"] for r in results] == ["CMP-9"] * 1000 + ["NAME-LOSSY"] * 25
    lines = results[0]["message"]["text"].split("\n")
    assert lines[1] == (
        'the same clash at 2,000 consumers through "kit": "agent0", "agent1", "agent10", "agent100", '
        '"agent1000", "agent1001", "agent1002", "agent1003", "agent1004", "agent1005" and 1,990 more'
    )
    assert results[0]["properties"]["consumerCount"] == 2_000
    related = results[0]["relatedLocations"][0]["message"]["text"]
    assert related.startswith("t000a \"T000\" via t000a -> b1 -> ") and "... 99,936 more ..." in related
    # Every violation is in a result: nothing to report as left out.
    assert document["runs"][0]["invocations"][0]["toolExecutionNotifications"] == []
    assert violations_of(report).path_reads.reads < 1000 * 2 * 70
    assert groups_of(report).consumer_reads.reads <= 1000 * 10
    valid_sarif(sarif_validator, document)


def test_sarif_caps_results_at_25000_and_says_exactly_what_is_left_out(sarif_validator: Any) -> None:
    report = fake(grouped=False)
    document = json.loads(render("sarif", [report, fake(path="flows/second.json")]))
    results = sarif_limits(document)
    assert len(results) == 25_000
    assert {r["ruleId"] for r in results} == {"CMP-9"}  # violations before warnings
    invocation = document["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is True
    first, second = invocation["toolExecutionNotifications"]
    assert first["level"] == "warning"
    assert first["message"]["text"].startswith(
        "1,975,000 of its 2,000,000 violations and 25 of its 25 warnings are not listed as results "
        "(at most 25,000 results per run, the most GitHub code scanning accepts); "
    )
    assert first["properties"] == {"violationsOmitted": 1_975_000, "warningsOmitted": 25}
    assert second["properties"] == {"violationsOmitted": TOTAL, "warningsOmitted": 25}
    assert second["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "flows/second.json"
    assert violations_of(report).reads < 30_000
    # Validating 25,000 results takes long; they are all alike.
    document["runs"][0]["results"] = results[:50]
    valid_sarif(sarif_validator, document)


def test_sarif_a_result_has_at_most_1000_locations(sarif_validator: Any) -> None:
    tools = [Tool(f"t{i:04}", "Search", [f"t{i:04}", "agent"], Location(i + 1, 1)) for i in range(1500)]
    violation = Violation("CMP-9", "1500 tools ...", "agent", "search", tools, location=Location(2000, 1))
    document = json.loads(render("sarif", [Report([violation], [], Stats(1, 1, 1, 1, 0), "w.json")]))
    (result,) = sarif_limits(document)
    assert len(result["relatedLocations"]) == 999
    assert result["message"]["text"].split("\n")[1].endswith("[t0998](999) and 501 more")
    valid_sarif(sarif_validator, document)


def test_sarif_max_violations_applies_per_file() -> None:
    document = json.loads(render("sarif", [fake(), fake()], max_violations=7))
    results = sarif_limits(document)
    assert [r["ruleId"] for r in results].count("CMP-9") == 14
    notes = document["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["properties"]["violationsOmitted"] for n in notes] == [TOTAL - 7 * AGENTS] * 2
    # The cause named is --max-violations, which cut these, not GitHub's limit.
    assert notes[0]["message"]["text"].startswith(
        f"{TOTAL - 7 * AGENTS:,} of its {TOTAL:,} violations are not listed as results "
        "(--max-violations 7: at most 7 findings per file); a CMP-9 result"
    )
    assert "25,000" not in notes[0]["message"]["text"]


# --- github -------------------------------------------------------------------------


def annotations(output: str) -> List[str]:
    lines = output.splitlines()
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    return [line.split(" ", 1)[0] for line in lines]


def test_github_ten_errors_ten_warnings_and_a_notice() -> None:
    report = fake()
    output = render("github", [report])
    assert annotations(output) == ["::error"] * 10 + ["::warning"] * 10 + ["::notice"]
    errors = output.splitlines()[:10]
    assert "title=CMP-9::" in errors[0]
    assert "%0Athe same clash at 2,000 consumers through \"kit\": \"agent0\"," in errors[0]
    assert "and 1,990 more%0Ahelp: rename" in errors[0]
    notice = output.splitlines()[-1]
    assert notice.startswith("::notice title=toolwire::1,980,000 more violations and 15 more warnings not annotated")
    assert violations_of(report).reads < 100 and groups_of(report).reads <= 10


def test_github_strict_warnings_share_the_ten_errors() -> None:
    output = render("github", [fake()], strict=True, max_violations=4)
    assert annotations(output) == ["::error"] * 10 + ["::notice"]
    assert output.count("title=NAME-LOSSY") == 6
    # Each part of the notice with its own cause.
    assert output.splitlines()[-1] == (
        "::notice title=toolwire::1,992,000 more violations not annotated: --max-violations 4 keeps at most "
        "4 findings per file. 19 more warnings not annotated: GitHub shows 10 error and 10 warning annotations "
        "per step. `toolwire check` without --max-violations prints every one."
    )


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
    assert written.startswith("# Earlier in this step\n\n### toolwire\n\n**checked 1 file (2,000 consumers)")
    assert STEP_SUMMARY_LIMIT - 4096 < size(written) <= STEP_SUMMARY_LIMIT
    shown = written.count("error[CMP-9]")
    assert shown > 1000
    cut = re.search(r"\*Cut to stay under GitHub's 1 MiB step summary: ([\d,]+) violations and ([\d,]+) warnings", written)
    assert cut is not None
    # Exact: every violation shown is in a block of the summary.
    assert int(cut.group(1).replace(",", "")) == TOTAL - shown
    assert int(cut.group(2).replace(",", "")) + written.count("warning[NAME-LOSSY]") == 25
    assert violations_of(report).reads < 20_000


def test_github_step_summary_of_clashes_fits_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    render("github", [fake()])
    written = summary.read_text(encoding="utf-8")
    assert size(written) <= STEP_SUMMARY_LIMIT
    assert written.count("error[CMP-9]") == 1000 and "Cut to stay" not in written
    assert written.rstrip().endswith("```")


# --- junit --------------------------------------------------------------------------


def test_junit_one_test_case_per_clash() -> None:
    report = fake(deep=True)
    text = render("junit", [report])
    assert size(text) < 5 * MB
    root = ET.fromstring(text)
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 1 + 1000
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("1001", "1000", "0")
    assert cases[1].get("name") == "flows/family2.json: CMP-9 t000 at agent0"
    failure = cases[1].find("failure")
    assert failure is not None and failure.text is not None
    assert "the same clash at 2,000 consumers through \"kit\": \"agent0\"," in failure.text
    assert "and 1,990 more" in failure.text and "... 99,936 more ..." in failure.text
    assert violations_of(report).path_reads.reads < 1000 * 2 * 70


def test_junit_max_violations_caps_the_test_cases_and_says_how_many_more() -> None:
    report = fake()
    root = ET.fromstring(render("junit", [report], max_violations=3))
    file_case, *findings = root.findall("./testsuite/testcase")
    assert len(findings) == 3 and root.get("tests") == "4"
    out = file_case.findtext("system-out")
    assert out is not None
    assert out.splitlines()[-1] == "flows/family2.json: 1,994,000 more violations not listed (--max-violations 3)"
    # Counted before they are written: the three shown are read twice, no more.
    assert groups_of(report).reads == 6


def test_junit_ungrouped_clashes_stay_bounded_under_max_violations() -> None:
    report = fake(grouped=False)
    root = ET.fromstring(render("junit", [report], max_violations=100))
    assert root.get("tests") == "101" and root.get("failures") == "100"
    assert groups_of(report).reads <= 200
