"""``--format junit``: JUnit XML, the test report GitLab, Jenkins, Azure
Pipelines and most CI servers display.

Each file is one test case (classname ``toolwire``, name and ``file`` the
path as given): a file that could not be checked has a single ``<error
type="input">`` there; warnings that do not fail the file are listed in its
``<system-out>``, and under ``--strict`` are one ``<failure>`` each. Each
violation finding is a test case of its own after it, named
``path: RULE ...``, with one ``<failure>`` typed with the rule: an EDGE-5
violation, or a CMP-9 clash with one cause, which names the consumers it
reaches (the first ten, the rest counted) however many there are. With
``--max-violations N`` a file has at most N finding test cases, and its own
test case's ``<system-out>`` says exactly how many violations are not listed.

A clash across calls (a site check, SEMANTICS section 12) is a test case
of the calling workflow's too (``file`` its file), after its own findings
and counted with them against ``--max-violations``, named ``path: CMP-9
NAME in a call from NODE at CONSUMER of WORKFLOW``; its failure says where
the calling node is, the chain of calls and the consumer inside, and each
tool with its path across the calls, each place in its own file.

The counts follow the usual JUnit meaning, test cases rather than findings:
``tests`` test cases, ``failures`` failed ones, ``errors`` files that could
not be checked. ``time`` is the whole run's; toolwire checks files in parallel and
does not time them one by one, so test cases have none.

Every name and message in it is shown as the text format shows it: ids,
labels and paths from the input with their control characters escaped
(``common.printable``), so a CI log that prints a failure cannot be made to
run a command; standard input is ``<stdin>``.

The document is written as it is made, one test case at a time, in the
report's order: the counts in the opening tags come from the reports'
counts (EDGE-5 violations found by bisection, clash groups by their
number), so no finding is read before it is written, and none is held
after.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Dict, Iterator, List, Optional, TextIO

from .._errors import error_to_dict
from .._records import CallFinding, ClashGroup, Location, Violation
from .._report import Report
from .common import (
    node_types_unchecked,
    Finding,
    Findings,
    across_calls,
    call_room,
    call_tool_line,
    calls_shown,
    chain_lines,
    code_counts_of,
    file_name,
    finding_count,
    finding_help,
    group_message,
    node_id,
    printable,
    reported_codes,
    source,
    tool_line,
)
from .run import Run

# XML 1.0 cannot hold most control characters or lone surrogates at all, not
# even escaped, and ElementTree writes them through as they are: a label
# holding one would make the whole report unreadable.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _name(path: Optional[str]) -> str:
    """The file as every format names it (``<stdin>``, ``<input>``), printable."""
    return printable(file_name(path))


def _where(path: Optional[str], location: Optional[Location]) -> str:
    """``path:line:col``, as compilers print it, or the path alone."""
    name = _name(path)
    return name if location is None else f"{name}:{location.line}:{location.column}"


def _failure_text(report: Report, code: str, message: str, location: Optional[Location], lines: List[str]) -> str:
    return "\n".join([f"{_where(report.path, location)}: {code}: {message}", *lines])


def _finding(parent: ET.Element, tag: str, kind: str, message: str, text: str) -> None:
    ET.SubElement(parent, tag, type=_xml(kind), message=_xml(message)).text = _xml(text)


def _case(report: Report, name: str) -> ET.Element:
    attributes = {"classname": "toolwire", "name": _xml(name)}
    file = source(report.path)
    if file is not None:
        attributes["file"] = _xml(file)
    return ET.Element("testcase", attributes)


def _finding_name(report: Report, finding: Finding) -> str:
    """A finding's test case name: stable from run to run (no counts in it),
    so that CI keeps one history per finding."""
    if isinstance(finding, ClashGroup):
        consumer = finding.first.consumer
        return f"{_name(report.path)}: CMP-9 {finding.name} at {node_id(consumer or '')}"
    if finding.rule == "CMP-10":
        return f"{_name(report.path)}: CMP-10 at {node_id(finding.consumer or '')}"
    edge = "" if finding.edge_id is None else f" ({node_id(finding.edge_id)})"
    return f"{_name(report.path)}: {finding.rule} edge {finding.edge}{edge}"


def _failure(case: ET.Element, report: Report, finding: Finding, max_path: int) -> None:
    v: Violation = finding.first if isinstance(finding, ClashGroup) else finding
    message = printable(v.message)
    text = message
    if isinstance(finding, ClashGroup):
        text = group_message(finding)
        if finding.count > 1:
            message += f" (the same clash at {finding.count:,} consumers)"
    lines = [f"  {tool_line(t, max_path)} at {_where(report.path, t.location)}" for t in v.tools]
    hint = finding_help(v.rule, v.help)
    if hint is not None:
        lines.append(f"help: {printable(hint)}")
    _finding(case, "failure", v.rule, message, _failure_text(report, v.rule, text, v.location, lines))


def _call_name(report: Report, finding: CallFinding) -> str:
    """A clash across calls' test case name: by its name, calling node and
    consumer inside, stable from run to run."""
    start = node_id(finding.chain[0].node) if finding.chain else "?"
    consumer = finding.consumer
    return (
        f"{_name(report.path)}: CMP-9 {printable(finding.name)} in a call from {start} "
        f"at {node_id(consumer.node)} of {node_id(consumer.workflow)}"
    )


def _call_failure(case: ET.Element, report: Report, finding: CallFinding, max_path: int) -> None:
    message = printable(finding.message)
    lines = [f"  {line}" for line in chain_lines(finding)]
    home = finding.workflow
    lines.extend(f"  {call_tool_line(t, home, max_path)} at {_where(t.file, t.location)}" for t in finding.tools)
    lines.append(f"help: {printable(finding.help)}")
    text = _failure_text(report, finding.rule, message, finding.location, lines)
    _finding(case, "failure", finding.rule, message, text)


def _testcases(run: Run, report: Report) -> Iterator[ET.Element]:
    """A file's test cases, each made as it is yielded: its own, then one
    per violation finding, in the report's order."""
    case = _case(report, _name(report.path))
    if report.error is not None:
        error = error_to_dict(report.error)
        known = error["line"] is not None and error["column"] is not None
        at = Location(error["line"], error["column"]) if known else None
        message = printable(error["message"])
        _finding(case, "error", "input", message, f"{_where(report.path, at)}: error: {message}")
        yield case
        return
    findings = Findings(report, run.max_violations)
    # The file's own test case comes first and says how many violations are
    # not listed: with a limit, the findings shown are counted before they
    # are written (at most the limit of them read twice).
    left_out = findings.left_out_first()
    calls, calls_left = calls_shown(report, call_room(run.max_violations, finding_count(report, run.max_violations)))
    out: List[str] = []
    if run.strict:
        for w in report.warnings:
            hint = finding_help(w.code, None)
            lines = [] if hint is None else [f"help: {printable(hint)}"]
            message = printable(w.message)
            _finding(case, "failure", w.code, message, _failure_text(report, w.code, message, w.location, lines))
    else:
        out.extend(
            f"{_where(report.path, w.location)}: warning {w.code}: {printable(w.message)}" for w in report.warnings
        )
    if left_out or calls_left:
        what = [f"{left_out:,} more violation{'' if left_out == 1 else 's'}"] if left_out else []
        if calls_left:
            what.append(f"{calls_left:,} more {across_calls(calls_left)}")
        out.append(f"{_name(report.path)}: {' and '.join(what)} not listed (--max-violations {run.max_violations})")
    if out:
        ET.SubElement(case, "system-out").text = _xml("\n".join(out))
    yield case
    for finding in findings:
        case = _case(report, _finding_name(report, finding))
        _failure(case, report, finding, run.max_path)
        yield case
    for call in calls:
        case = _case(report, _call_name(report, call))
        _call_failure(case, report, call, run.max_path)
        yield case


def _counts(run: Run) -> Dict[str, str]:
    """The suite's counts, which its opening tag carries before any test
    case is written: from the reports' counts, without reading a finding."""
    tests = failures = errors = 0
    for report in run.reports:
        tests += 1
        if report.error is not None:
            errors += 1
            continue
        findings = finding_count(report, run.max_violations)
        findings += len(calls_shown(report, call_room(run.max_violations, findings))[0])
        tests += findings
        failures += findings + (1 if run.strict and report.warnings else 0)
    return {"tests": str(tests), "failures": str(failures), "errors": str(errors), "time": f"{run.elapsed:.3f}"}


def _properties(run: Run) -> str:
    """The suite's ``<properties>``: the codes reported (``--select``/
    ``--ignore``), ``--quiet``, and the findings of each code over the run,
    warnings ``--quiet`` left out included."""
    properties = ET.Element("properties")
    listed = {
        "codes": ",".join(reported_codes(run)),
        "quiet": "true" if run.quiet else "false",
        # Whether CMP-10 was checked: only against a node-type catalogue.
        "node_types_checked": "false" if node_types_unchecked(run) else "true",
    }
    for code, count in code_counts_of(run).items():
        listed[f"count:{code}"] = str(count)
    for name, value in listed.items():
        ET.SubElement(properties, "property", name=name, value=value)
    ET.indent(properties, level=2)
    return "    " + ET.tostring(properties, encoding="unicode") + "\n"


def _tag(name: str, attributes: Dict[str, str], close: str = ">") -> str:
    element = ET.Element(name, attributes)
    opening = ET.tostring(element, encoding="unicode")  # <name a="..." />
    return opening[: -len(" />")] + close


def write(run: Run, out: TextIO) -> None:
    """Writes the document as it is made: the counts first (known from the
    reports), then each test case as soon as it is built, so a file with a
    million findings is never held whole. The bytes are those
    ``ET.indent`` and ``ET.tostring`` give for the whole tree."""
    counts = _counts(run)
    # Written as text (the caller's stream decides the bytes); the declaration
    # names UTF-8 because that is what --output writes.
    out.write('<?xml version="1.0" encoding="utf-8"?>\n')
    out.write(_tag("testsuites", {"name": "toolwire", **counts}) + "\n")
    suite = {"name": "toolwire", **counts, "skipped": "0"}
    if not run.reports:
        out.write("  " + _tag("testsuite", suite, " />") + "\n</testsuites>\n")
        return
    out.write("  " + _tag("testsuite", suite) + "\n")
    out.write(_properties(run))
    for report in run.reports:
        for case in _testcases(run, report):
            ET.indent(case, level=2)
            out.write("    " + ET.tostring(case, encoding="unicode") + "\n")
    out.write("  </testsuite>\n</testsuites>\n")
