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

The counts follow the usual JUnit meaning, test cases rather than findings:
``tests`` test cases, ``failures`` failed ones, ``errors`` files that could
not be checked. ``time`` is the whole run's; toolwire checks files in parallel and
does not time them one by one, so test cases have none.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Dict, List, Optional, TextIO

from .._groups import ClashGroup
from .._report import Location, Report, Violation, _error_to_dict
from . import Run
from .common import STDIN, Finding, finding_help, group_message, source, tool_line, violation_findings

# XML 1.0 cannot hold most control characters or lone surrogates at all, not
# even escaped, and ElementTree writes them through as they are: a label
# holding one would make the whole report unreadable.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _name(path: Optional[str]) -> str:
    """The file, or what the text format calls a workflow with none."""
    if path is None:
        return "<input>"
    return "<stdin>" if path == STDIN else path


def _where(path: Optional[str], location: Optional[Location]) -> str:
    """``path:line:col``, as compilers print it, or the path alone."""
    name = _name(path)
    return name if location is None else f"{name}:{location.line}:{location.column}"


def _failure_text(report: Report, code: str, message: str, location: Optional[Location], lines: List[str]) -> str:
    return "\n".join([f"{_where(report.path, location)}: {code}: {message}", *lines])


def _finding(parent: ET.Element, tag: str, kind: str, message: str, text: str) -> None:
    ET.SubElement(parent, tag, type=_xml(kind), message=_xml(message)).text = _xml(text)


def _case(suite: ET.Element, report: Report, name: str) -> ET.Element:
    attributes = {"classname": "toolwire", "name": _xml(name)}
    file = source(report.path)
    if file is not None:
        attributes["file"] = _xml(file)
    return ET.SubElement(suite, "testcase", attributes)


def _finding_name(report: Report, finding: Finding) -> str:
    """A finding's test case name: stable from run to run (no counts in it),
    so that CI keeps one history per finding."""
    if isinstance(finding, ClashGroup):
        return f"{_name(report.path)}: CMP-9 {finding.name} at {finding.first.consumer}"
    edge = "" if finding.edge_id is None else f" ({finding.edge_id})"
    return f"{_name(report.path)}: {finding.rule} edge {finding.edge}{edge}"


def _failure(case: ET.Element, report: Report, finding: Finding, max_path: int) -> None:
    v: Violation = finding.first if isinstance(finding, ClashGroup) else finding
    message = v.message
    text = v.message
    if isinstance(finding, ClashGroup):
        text = group_message(finding)
        if finding.count > 1:
            message += f" (the same clash at {finding.count:,} consumers)"
    lines = [f"  {tool_line(t, max_path)} at {_where(report.path, t.location)}" for t in v.tools]
    hint = finding_help(v.rule, v.help)
    if hint is not None:
        lines.append(f"help: {hint}")
    _finding(case, "failure", v.rule, message, _failure_text(report, v.rule, text, v.location, lines))


def _testcases(suite: ET.Element, run: Run, report: Report) -> None:
    case = _case(suite, report, _name(report.path))
    if report.error is not None:
        error = _error_to_dict(report.error)
        known = error["line"] is not None and error["column"] is not None
        at = Location(error["line"], error["column"]) if known else None
        text = f"{_where(report.path, at)}: error: {error['message']}"
        _finding(case, "error", "input", error["message"], text)
        return
    findings, left_out = violation_findings(report, run.max_violations)
    out: List[str] = []
    if run.strict:
        for w in report.warnings:
            hint = finding_help(w.code, None)
            lines = [] if hint is None else [f"help: {hint}"]
            _finding(case, "failure", w.code, w.message, _failure_text(report, w.code, w.message, w.location, lines))
    else:
        out.extend(f"{_where(report.path, w.location)}: warning {w.code}: {w.message}" for w in report.warnings)
    if left_out:
        out.append(
            f"{_name(report.path)}: {left_out:,} more violation{'' if left_out == 1 else 's'} not listed "
            f"(--max-violations {run.max_violations})"
        )
    if out:
        ET.SubElement(case, "system-out").text = _xml("\n".join(out))
    for finding in findings:
        _failure(_case(suite, report, _finding_name(report, finding)), report, finding, run.max_path)


def write(run: Run, out: TextIO) -> None:
    suites = ET.Element("testsuites", {"name": "toolwire"})
    suite = ET.SubElement(suites, "testsuite", {"name": "toolwire"})
    for report in run.reports:
        _testcases(suite, run, report)
    cases = suite.findall("testcase")
    counts: Dict[str, str] = {
        "tests": str(len(cases)),
        "failures": str(sum(1 for c in cases if c.find("failure") is not None)),
        "errors": str(sum(1 for c in cases if c.find("error") is not None)),
        "time": f"{run.elapsed:.3f}",
    }
    suites.attrib.update(counts)
    suite.attrib.update({**counts, "skipped": "0"})
    ET.indent(suites)
    # Written as text (the caller's stream decides the bytes); the declaration
    # names UTF-8 because that is what --output writes.
    out.write('<?xml version="1.0" encoding="utf-8"?>\n')
    out.write(ET.tostring(suites, encoding="unicode"))
    out.write("\n")
