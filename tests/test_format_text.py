"""The ``text`` report format (``toolwire check``'s default).

The golden files in tests/golden/ are the specification of the format: each
golden test renders a run of real reports (``toolwire.check_file``) with a
fixed elapsed time and compares the output byte for byte. After a deliberate
change to the format, regenerate them and read the diff:

    TOOLWIRE_UPDATE_GOLDEN=1 python -m pytest tests/test_format_text.py

The unit tests below build reports by hand, one behaviour each.
"""

from __future__ import annotations

import dataclasses
import io
import json
import re
import os
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest

import toolwire
from toolwire._formats import Run, writer
from toolwire._formats.text_format import use_colour, write
from toolwire._records import Location, Rename, Stats, Tool, Violation, WiringWarning
from toolwire._report import Report, failed_report
from support import REPO

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("TOOLWIRE_UPDATE_GOLDEN") == "1"
ELAPSED = 0.25

REFUSED = "tests/data/spec-cmp9-refused.json"
ACCEPTED = "tests/data/spec-cmp9-accepted.json"
MULTI = "tests/data/multi-violation.json"


def render(
    reports: Sequence[Report], *, elapsed: float = ELAPSED, strict: bool = False, colour: bool = False, timing: bool = False
) -> str:
    out = io.StringIO()
    write(Run(reports, elapsed, strict=strict, colour=colour, timing=timing), out)
    return out.getvalue()


def assert_golden(name: str, text: str) -> None:
    golden = GOLDEN / name
    if UPDATE:
        golden.write_bytes(text.encode("utf-8"))
        return
    assert golden.exists(), f"{golden} is missing; create it with TOOLWIRE_UPDATE_GOLDEN=1"
    assert text == golden.read_bytes().decode("utf-8")


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in the goldens are relative to the repository, as a user types them."""
    monkeypatch.chdir(REPO)


# Goldens: real reports of real files.


@pytest.mark.usefixtures("in_repo")
def test_golden_spec_refused() -> None:
    assert_golden("spec-refused.txt", render([toolwire.check_file(REFUSED)]))


@pytest.mark.usefixtures("in_repo")
def test_golden_spec_refused_in_colour() -> None:
    assert_golden("spec-refused-colour.txt", render([toolwire.check_file(REFUSED)], colour=True))


@pytest.mark.usefixtures("in_repo")
def test_golden_spec_accepted() -> None:
    assert_golden("spec-accepted.txt", render([toolwire.check_file(ACCEPTED)]))


@pytest.mark.usefixtures("in_repo")
def test_golden_multi_violation() -> None:
    assert_golden("multi-violation.txt", render([toolwire.check_file(MULTI)]))


@pytest.mark.usefixtures("in_repo")
def test_golden_multi_violation_strict() -> None:
    assert_golden("multi-violation-strict.txt", render([toolwire.check_file(MULTI)], strict=True))


@pytest.mark.usefixtures("in_repo")
def test_golden_a_clash_at_five_consumers_is_shown_once() -> None:
    assert_golden("shared-toolbox.txt", render([toolwire.check_file("tests/data/shared-toolbox.json")]))


@pytest.mark.usefixtures("in_repo")
def test_golden_max_violations_counts_what_it_leaves_out() -> None:
    reports = toolwire.check_files([ACCEPTED, "tests/data/shared-toolbox.json", MULTI])
    out = io.StringIO()
    write(Run(reports, ELAPSED, max_violations=1), out)
    assert_golden("max-violations-1.txt", out.getvalue())


@pytest.mark.usefixtures("in_repo")
def test_golden_files_that_could_not_be_checked_beside_others(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"nodes": [\n  {"id": "a"}\n  {"id": "b"}\n]}\n', encoding="utf-8")
    clean = tmp_path / "clean.json"
    clean.write_text('{"nodes": [{"id": "agent", "type": "agent"}], "edges": []}\n', encoding="utf-8")
    reports = toolwire.check_files([str(broken), "tests/data/missing.json", str(clean), REFUSED])
    assert isinstance(reports[0].error, toolwire.WorkflowError) and reports[0].error.line is not None
    assert isinstance(reports[1].error, FileNotFoundError)
    # The temporary directory differs on every run; the golden shows the files' names.
    reports[0] = dataclasses.replace(reports[0], path="broken.json")
    reports[2] = dataclasses.replace(reports[2], path="clean.json")
    assert_golden("unreadable.txt", render(reports))


# Hand-built reports.


def cmp9(
    tools: List[Tool],
    *,
    consumer: str = "agent_1",
    name: str = "web_search",
    location: Optional[Location] = Location(10, 5),
    fix: Sequence[Rename] = (),
) -> Violation:
    return Violation("CMP-9", "(the core's message)", consumer, name, tools, location=location, fix=fix)


def tool(id: str, label: str, *boxes: str, consumer: str = "agent_1", at: Optional[Location] = None) -> Tool:
    return Tool(id, label, [id, *boxes, consumer], at)


def report(
    violations: Sequence[Violation] = (),
    warnings: Sequence[WiringWarning] = (),
    *,
    path: Optional[str] = "flow.json",
    consumers: int = 1,
) -> Report:
    return Report(list(violations), list(warnings), Stats(3, 3, 3, consumers, 0), path)


WEB_SEARCH = cmp9(
    [tool("tool_a", "Web Search", "box_1", at=Location(3, 5)), tool("tool_b", "web-search", at=Location(4, 5))],
    fix=[Rename("tool_b", "web-search", "web-search (tool_b)", "web_search_tool_b")],
)
UNDECLARED = WiringWarning("R8", "ghost", 2, 'node "ghost" is wired by tool edge 2 but never declared', Location(9, 5))


def test_a_collision_lists_each_tool_with_its_name_location_and_path() -> None:
    assert render([report([WEB_SEARCH])]).splitlines()[:6] == [
        'flow.json:10:5: error[CMP-9]: 2 tools reaching "agent_1" share the name "web_search"',
        '  = tool_a  "Web Search" -> web_search  at 3:5',
        "            path: tool_a -> box_1 -> agent_1",
        '  = tool_b  "web-search" -> web_search  at 4:5',
        "            path: tool_b -> agent_1",
        '  help: rename "tool_b" to "web-search (tool_b)"',
    ]


def test_a_path_shows_the_label_of_each_box_that_has_one() -> None:
    violation = cmp9(
        [tool("a", "Web Search", "inner", "outer", "plain"), tool("b", "web-search")]
    )._replace(box_labels={"inner": "My Tools", "outer": "(odd) -> label", "plain": "plain"})
    assert "path: a -> inner (My Tools) -> outer (\"(odd) -> label\") -> plain -> agent_1\n" in render(
        [report([violation])]
    )


def test_findings_come_in_the_report_s_order_not_the_file_s() -> None:
    # EDGE-5 violations, then clashes, then warnings, wherever each is in the
    # file: the report is written as it is read, never sorted by line.
    edge5 = Violation("EDGE-5", "edge 3 declares ...", edge=3, edge_type="tool", location=Location(40, 5))
    late = WEB_SEARCH._replace(location=Location(30, 5))
    unplaced = UNDECLARED._replace(location=None)
    headers = [line for line in render([report([edge5, late], [unplaced, UNDECLARED])]).splitlines() if line[:1] == "f"]
    assert [h.split(" ")[0] for h in headers] == ["flow.json:40:5:", "flow.json:30:5:", "flow.json:", "flow.json:9:5:"]


def test_a_label_that_is_already_the_name_has_no_arrow() -> None:
    violation = cmp9([tool("a", "Web Search"), tool("b", "web_search")])
    assert '  = b  "web_search"\n' in render([report([violation])])


def test_without_a_location_the_prefix_is_the_path_alone() -> None:
    violation = cmp9([tool("a", "Web Search"), tool("b", "web-search")], location=None)
    text = render([report([violation], [UNDECLARED._replace(location=None)])])
    assert 'flow.json: error[CMP-9]: 2 tools reaching "agent_1"' in text
    assert "flow.json: warning[R8]: " in text
    assert " at " not in text  # nor on the tools' lines


def test_standard_input_is_named_stdin() -> None:
    assert render([report(path="-")]).startswith("<stdin>: ok\n")


def test_a_clean_file_is_one_line_and_clean_files_stay_together() -> None:
    text = render([report(path="a.json"), report(path="b.json"), report([WEB_SEARCH], path="c.json")])
    assert text.startswith("a.json: ok\nb.json: ok\n\nc.json:10:5: error[CMP-9]")


def test_an_unrecognised_edge_type_suggests_the_closest_one() -> None:
    violation = Violation(
        "EDGE-5",
        'edge 3 declares data.edgeType "tool_availabilty"',
        edge=3,
        edge_type="tool_availabilty",
        location=Location(20, 5),
        suggestion="tool_availability",
    )
    assert render([report([violation])]).startswith(
        'flow.json:20:5: error[EDGE-5]: edge 3 declares data.edgeType "tool_availabilty"\n'
        '  help: did you mean "tool_availability"?\n\n'
    )


def test_warnings_are_warnings_unless_strict_makes_them_errors() -> None:
    assert "flow.json:9:5: warning[R8]: " in render([report(warnings=[UNDECLARED])])
    strict = render([report(warnings=[UNDECLARED]), report(warnings=[UNDECLARED], path="g.json")], strict=True)
    assert "flow.json:9:5: error[R8]: " in strict and "g.json:9:5: error[R8]: " in strict
    assert strict.count("= note: warnings are errors under --strict") == 1  # said once, as rustc does
    assert strict.rstrip().endswith("2 warnings (errors under --strict)")


def test_an_input_error_is_reported_with_its_location_when_it_has_one() -> None:
    located = failed_report("bad.json", toolwire.WorkflowError("invalid JSON: expected ','", 3, 7))
    unlocated = failed_report("gone.json", FileNotFoundError(2, "No such file or directory"))
    assert render([located, unlocated]).splitlines()[:3] == [
        "bad.json:3:7: error: invalid JSON: expected ','",
        "",
        "gone.json: error: cannot read the file: No such file or directory",
    ]


@pytest.mark.parametrize(
    ("reports", "summary"),
    [
        ([report()], "checked 1 file (1 consumer): 0 violations, 0 warnings"),
        (
            [report([WEB_SEARCH], [UNDECLARED], consumers=2), report()],
            "checked 2 files (3 consumers): 1 violation, 1 warning",
        ),
        (
            [report([WEB_SEARCH, WEB_SEARCH], [UNDECLARED, UNDECLARED]), failed_report("x.json", OSError("?"))],
            "checked 1 of 2 files (1 consumer): 2 violations, 2 warnings; 1 file could not be checked",
        ),
        (
            [failed_report(p, OSError("?")) for p in ("x.json", "y.json")],
            "checked 0 of 2 files (0 consumers): 0 violations, 0 warnings; 2 files could not be checked",
        ),
    ],
)
def test_the_summary_counts_in_words(reports: List[Report], summary: str) -> None:
    assert render(reports).splitlines()[-1] == summary


@pytest.mark.parametrize(
    ("elapsed", "shown"),
    [(0.0, "<1ms"), (0.0004, "<1ms"), (0.25, "250ms"), (0.9994, "999ms"), (0.9996, "1.00s"), (12.345, "12.35s")],
)
def test_the_time_is_in_milliseconds_below_a_second(elapsed: float, shown: str) -> None:
    summary = render([report()], elapsed=elapsed, timing=True).splitlines()[-1]
    assert summary == f"checked 1 file (1 consumer) in {shown}: 0 violations, 0 warnings"


def test_the_time_is_said_only_when_asked_for() -> None:
    # Two runs of the same input print the same bytes, however long each took.
    reports = [report([WEB_SEARCH], [UNDECLARED], consumers=2), failed_report("x.json", OSError("?"))]
    assert render(reports, elapsed=0.0004) == render(reports, elapsed=12.345)
    assert " in " not in render(reports, elapsed=12.345).splitlines()[-1]
    assert render(reports, elapsed=12.345, timing=True).splitlines()[-1].startswith("checked 1 of 2 files (2 consumers) in 12.35s: ")


HOSTILE = cmp9(
    [
        tool("tool\x1b[2Ja", "Web\x1b]0;pwned\x07 Search\nNext line"),
        tool("b\u202e", "web search\x9b31m", at=Location(4, 5)),
    ],
    consumer="agent\r1",
    fix=[Rename("b\u202e", "web search", "web\x1b search (b)", "web_search_b")],
)


def test_without_colour_there_are_no_escape_bytes_even_from_hostile_labels() -> None:
    text = render([report([WEB_SEARCH, HOSTILE], [UNDECLARED], path="evil\x1b.json"), report()], strict=True)
    assert "\x1b" not in text and "\x9b" not in text and "\u202e" not in text and "\r" not in text
    assert all(line.startswith(("evil\\u001b.json", "  ")) for line in text.splitlines()[:16] if line)


def test_colour_styles_the_severity_gutters_and_help() -> None:
    text = render([report([WEB_SEARCH], [UNDECLARED])], colour=True)
    assert "\x1b[1;31merror[CMP-9]\x1b[0m" in text
    assert "\x1b[1;33mwarning[R8]\x1b[0m" in text
    assert "  \x1b[1;34m=\x1b[0m tool_a" in text
    assert "  \x1b[1;32mhelp:\x1b[0m rename" in text


def test_colour_cannot_be_injected_by_a_label() -> None:
    text = render([report([HOSTILE])], colour=True)
    assert "\x1b[2J" not in text and "\x1b]0;" not in text and "\x9b" not in text


def test_wide_characters_keep_the_columns_aligned() -> None:
    violation = cmp9([tool("a", "検索", at=Location(3, 5)), tool("b", "xx", at=Location(4, 5))], name="unnamed_tool")
    lines = render([report([violation])]).splitlines()
    # "検索" is two characters in four columns, as wide as "xx" and its padding.
    assert lines[1].index("->") + 2 == lines[3].index("->")
    assert lines[1].endswith("at 3:5") and lines[3].endswith("at 4:5")


def test_the_registry_finds_this_format() -> None:
    assert writer("text") is write


class Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("tty", "environ", "coloured"),
    [
        (True, {}, True),
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"NO_COLOR": ""}, True),  # set but empty counts as unset
        (False, {"FORCE_COLOR": "1"}, True),
        (False, {"FORCE_COLOR": ""}, False),
        (True, {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),  # NO_COLOR wins
    ],
)
def test_use_colour(tty: bool, environ: Dict[str, str], coloured: bool) -> None:
    assert use_colour(Stream(tty), environ) is coloured


def test_use_colour_on_a_closed_stream_is_false() -> None:
    closed = io.StringIO()
    closed.close()  # its isatty() now raises ValueError
    assert use_colour(closed, {}) is False


def test_a_long_path_shows_its_ends_and_counts_the_middle() -> None:
    chain = ["t1", *(f"b{i}" for i in range(20)), "agent"]
    tools = [
        toolwire.Tool("t1", "Deep", chain),
        toolwire.Tool("t2", "deep", ["t2", "agent"]),
    ]
    violation = toolwire.Violation("CMP-9", "2 tools ...", "agent", "deep", tools)
    out = io.StringIO()
    write(Run([toolwire.Report([violation], [], None, "w.json")], elapsed=0.0), out)
    assert "path: t1 -> b0 -> b1 -> b2 -> b3 -> ... 12 more ... -> b16 -> b17 -> b18 -> b19 -> agent" in out.getvalue()
    assert "path: t2 -> agent" in out.getvalue()


# Long ids and labels: shortened, so that output is bounded per violation
# (s33 attack findings 2 to 4: one long label, id or box label made every
# line of a clash as long, n x L: 400 MB to 1.6 GB of output from 0.9 MB).


def _long_workflow(length: int, where: str, n: int = 20) -> bytes:
    """n + 1 tools alike in a box ``kit`` into an agent, one value of
    ``length`` characters: a tool's label (``label``: named as the others),
    a tool's id (``id``), the box's label (``box``); or (``consumer``) the
    agent's id, with n clashing pairs."""
    long = "Q" * length
    agent = long if where == "consumer" else "agent"
    box_label = long if where == "box" else "Kit"
    nodes = [{"id": agent, "type": "ai_agent"}, {"id": "kit", "type": "toolbox", "data": {"label": box_label}}]
    edges = [("kit", agent)]
    if where == "consumer":
        for i in range(n):
            nodes += [{"id": f"a{i}", "data": {"label": f"X {i}"}}, {"id": f"b{i}", "data": {"label": f"X {i}"}}]
            edges += [(f"a{i}", "kit"), (f"b{i}", "kit")]
    else:
        odd = long if where == "id" else "w"
        nodes.append({"id": odd, "data": {"label": "X" + " " * length + "!" if where == "label" else "X"}})
        edges.append((odd, "kit"))
        for i in range(n):
            nodes.append({"id": f"t{i}", "data": {"label": "X"}})
            edges.append((f"t{i}", "kit"))
    wires = [{"source": s, "target": t, "data": {"edgeType": "tool_availability"}} for s, t in edges]
    return json.dumps({"nodes": nodes, "edges": wires}).encode("utf-8")


@pytest.mark.parametrize("where", ["label", "id", "box", "consumer"])
def test_a_long_label_or_id_is_shortened_so_output_is_bounded_whatever_its_length(where: str) -> None:
    def text(length: int) -> str:
        # Lines and columns (where the long value shifts them) left aside,
        # and the help: the core's renames, given whole to be copied (once
        # a clash, but see attack finding 1 for a box's label in them).
        out = render([toolwire.check_json(_long_workflow(length, where))])
        return re.sub(r"[0-9]+", "#", "".join(line for line in out.splitlines(True) if "help:" not in line))

    short, long, longer = text(150), text(10_000), text(100_000)
    # Past the cap the length no longer matters: the same output.
    assert short == long == longer
    cut = ("X" + " " * 98 if where == "label" else "Q" * 99) + "\u2026"
    assert cut in short and "Q" * 100 not in short
    # No line holds more than a few shortened values.
    assert max(map(len, short.splitlines())) < 600


def test_a_value_of_the_cap_is_shown_whole_and_one_longer_is_cut() -> None:
    whole = cmp9([tool("a" * 100, "W" * 100), tool("b", "w" * 100)], consumer="c" * 100, name="w" * 100)
    text = render([report([whole])])
    assert "a" * 100 + "  " in text and '"' + "W" * 100 + '"' in text and '"' + "c" * 100 + '"' in text
    assert "\u2026" not in text
    cut = cmp9([tool("a" * 101, "W" * 101), tool("b", "w" * 101)], consumer="c" * 101, name="w" * 101)
    text = render([report([cut])])
    assert "a" * 99 + "\u2026" in text and '"' + "W" * 99 + '\u2026"' in text and '"' + "c" * 99 + '\u2026"' in text
    assert "-> " + "w" * 99 + "\u2026" in text and "a" * 100 not in text


def test_wide_characters_are_cut_by_columns_and_combining_marks_by_characters() -> None:
    from toolwire._formats.common import shortened, text_width

    wide = shortened("\u6f22" * 80)  # two columns each
    assert wide == "\u6f22" * 49 + "\u2026" and text_width(wide) == 99
    marks = shortened("e" + "\u0301" * 10_000)  # one column in all
    assert marks == "e" + "\u0301" * 98 + "\u2026"


def test_a_long_id_pads_no_other_line() -> None:
    # The other tools' lines are as they would be without it.
    tools = [tool("t" + str(i), "X") for i in range(3)]
    alone = render([report([cmp9(tools, name="x")])])
    wide = render([report([cmp9([*tools, tool("\u0007" * 60, "X")], name="x")])])  # 360 columns escaped
    for line in alone.splitlines()[1:7]:
        assert line in wide.splitlines()


def test_the_machine_formats_keep_long_values_whole() -> None:
    data = _long_workflow(5_000, "label")
    out = io.StringIO()
    writer("json")(Run([toolwire.check_json(data)], ELAPSED), out)
    assert json.dumps("X" + " " * 5_000 + "!") in out.getvalue()
