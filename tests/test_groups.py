"""Grouping CMP-9 violations by clash (``toolwire._records``): the same name
and the same clashing tools, however each consumer is reached."""

from __future__ import annotations

from typing import List, Optional

import pytest

import toolwire
from toolwire._records import ClashGroup, Location, Stats, Tool, Violation, group_violations, through
from toolwire._report import Report

from support import DATA


def clash(consumer: str, name: str = "search", *routes: List[str], ids: str = "ab") -> Violation:
    """A violation at ``consumer`` of tools ``a`` and ``b`` (``ids``), each by
    its route of boxes (none: wired directly)."""
    boxes = list(routes) or [[] for _ in ids]
    tools = [Tool(i, i.upper(), [i, *route, consumer]) for i, route in zip(ids, boxes)]
    return Violation("CMP-9", f"{consumer} {name}", consumer, name, tools, location=Location(len(consumer), 1))


def groups(violations: List[Violation]) -> List[ClashGroup]:
    return list(group_violations(violations))


def test_through_is_the_first_box_every_path_shares() -> None:
    assert through(clash("c", "n", ["box"], ["box"]).tools) == "box"
    assert through(clash("c", "n", ["inner", "box"], ["box"]).tools) == "box"
    assert through(clash("c", "n", ["box", "outer"], ["box", "outer"]).tools) == "box"
    assert through(clash("c", "n", ["box"], ["other"]).tools) is None
    assert through(clash("c", "n", ["box"], []).tools) is None  # one tool is wired directly
    assert through(clash("c").tools) is None


def test_one_box_into_many_consumers_is_one_group() -> None:
    violations = [clash(c, "search", ["box"], ["box"]) for c in ("a1", "a10", "a2")]
    (group,) = groups(violations)
    assert (group.name, group.through, list(group.consumers), group.count) == ("search", "box", ["a1", "a10", "a2"], 3)
    assert group.first is violations[0] and group.tools == violations[0].tools


def test_different_tools_or_names_are_different_groups_however_they_arrive() -> None:
    violations = [
        clash("a1", "fetch", ["box"], ["box"]),
        clash("a1", "search", ["box"], ["box"]),
        clash("a2", "search", ["box"], ["box"]),
        clash("a3", "search", ["box"], ["box"], ids="ac"),  # other tools
        clash("a4", "search", ["kit"], ["kit"]),  # the same tools through another box
        clash("a5", "search", ["box"], ["kit"]),  # by different routes
    ]
    found = groups(violations)
    assert [(g.name, g.through, list(g.consumers)) for g in found] == [
        ("fetch", "box", ["a1"]),
        ("search", "box", ["a1", "a2", "a4", "a5"]),
        ("search", "box", ["a3"]),
    ]
    assert sum(g.count for g in found) == len(violations)


def test_edge5_violations_are_in_no_group() -> None:
    edge5 = Violation("EDGE-5", "typo", edge=1, edge_type="tool_availabilty")
    assert groups([edge5, clash("a")]) == [ClashGroup("search", clash("a").tools, None, ["a"], clash("a"))]


def test_a_report_groups_its_own_violations_and_counts_them() -> None:
    violations = [clash(c, "search", ["box"], ["box"]) for c in ("a1", "a2")]
    report = Report(violations, [], Stats(4, 4, 4, 2, 1), "w.json")
    assert report.violation_count == 2
    (group,) = report.clash_groups()
    assert group.count == 2


def test_the_real_multi_violation_fixture_has_one_group_per_violation() -> None:
    report = toolwire.check_file(DATA / "multi-violation.json")
    found = list(report.clash_groups())
    cmp9 = [v for v in report.violations if v.rule == "CMP-9"]
    assert [g.first for g in found] == cmp9
    assert [g.through for g in found] == ["research_kit", None]
    first: Optional[ClashGroup] = found[0]
    assert first is not None and list(first.consumers) == ["research_agent"]


def test_a_checked_report_s_groups_are_a_sequence_read_when_indexed() -> None:
    # Like report.violations: an exact len() at once, any group by index,
    # and iteration that yields the same groups.
    report = toolwire.check_file(DATA / "multi-violation.json")
    groups = report.clash_groups()
    assert len(groups) == 2
    assert [groups[0].name, groups[1].name, groups[-1].name] == ["web_search", "fetch_page", "fetch_page"]
    assert list(groups) == [groups[0], groups[1]] and groups[:] == list(groups)
    assert groups == list(report.clash_groups())
    with pytest.raises(IndexError):
        groups[2]
    shared = toolwire.check_file(DATA / "shared-toolbox.json").clash_groups()
    assert len(shared) == 1 and shared[0].count == 5


def test_a_hand_built_report_s_groups_are_a_sequence_too() -> None:
    # Not a generator: len(), indexing from either end, and the same groups
    # each time it is read.
    violations = [clash(c, "search", ["box"], ["box"]) for c in ("a1", "a2")] + [clash("a1", "fetch")]
    report = Report(violations, [], Stats(4, 4, 4, 2, 1), "w.json")
    found = report.clash_groups()
    assert len(found) == 2
    assert [found[0].name, found[-1].name, found[1].count] == ["search", "fetch", 1]
    assert list(found) == list(found) == list(report.clash_groups())


def test_a_checked_report_s_groups_are_those_of_its_own_violations() -> None:
    # The core groups without reading violations; grouping the violations
    # it lists, in Python, gives the same groups.
    for name in ("multi-violation.json", "shared-toolbox.json", "spec-cmp9-refused.json"):
        report = toolwire.check_file(DATA / name)
        by_core = [(g.name, [t.id for t in g.tools], list(g.consumers), g.through) for g in report.clash_groups()]
        by_hand = [(g.name, [t.id for t in g.tools], list(g.consumers), g.through) for g in groups(list(report.violations))]
        assert by_core == by_hand, name


def test_a_clash_that_forms_in_two_boxes_is_through_none() -> None:
    # Two tools named alike, both wired into two boxes, each box into its
    # own agent: one clash, at two consumers, formed in two places.
    def edge(source: str, target: str) -> dict:  # type: ignore[type-arg]
        return {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}

    workflow = {
        "nodes": [{"id": b, "type": "toolbox"} for b in ("b1", "b2")]
        + [{"id": "t1", "data": {"label": "Search"}}, {"id": "t2", "data": {"label": "search"}}],
        "edges": [edge(t, b) for t in ("t1", "t2") for b in ("b1", "b2")] + [edge("b1", "a1"), edge("b2", "a2")],
    }
    (group,) = toolwire.check(workflow).clash_groups()
    assert (group.count, group.through) == (2, None)
    (single,) = toolwire.check({**workflow, "edges": workflow["edges"][:1] + workflow["edges"][2:3] + [edge("b1", "a1")]}).clash_groups()
    assert (single.count, single.through) == (1, "b1")
