"""``--format junit``: JUnit XML, the test report GitLab, Jenkins, Azure
Pipelines and most CI servers display.

Each file checked is one test case (classname ``toolwire``, name and ``file``
the path as given). A refused file has one ``<failure>`` per violation, typed
with the rule (``CMP-9``), and under ``--strict`` one per warning too; a file
that could not be checked has a single ``<error type="input">``. Warnings that
do not fail the file are listed in its ``<system-out>``.

The counts follow the usual JUnit meaning, test cases rather than findings:
``tests`` files, ``failures`` refused files, ``errors`` files that could not
be checked. ``time`` is the whole run's; toolwire checks files in parallel and
does not time them one by one, so test cases have none.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import List, Optional, TextIO

from .._report import Location, Report, _error_to_dict
from . import Run
from .common import STDIN, finding_help, source, tool_line

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


def _testcase(suite: ET.Element, report: Report, strict: bool) -> None:
    attributes = {"classname": "toolwire", "name": _xml(_name(report.path))}
    file = source(report.path)
    if file is not None:
        attributes["file"] = _xml(file)
    case = ET.SubElement(suite, "testcase", attributes)
    if report.error is not None:
        error = _error_to_dict(report.error)
        known = error["line"] is not None and error["column"] is not None
        at = Location(error["line"], error["column"]) if known else None
        text = f"{_where(report.path, at)}: error: {error['message']}"
        _finding(case, "error", "input", error["message"], text)
        return
    for v in report.violations:
        lines = [f"  {tool_line(t)} at {_where(report.path, t.location)}" for t in v.tools]
        hint = finding_help(v.rule, v.help)
        if hint is not None:
            lines.append(f"help: {hint}")
        _finding(case, "failure", v.rule, v.message, _failure_text(report, v.rule, v.message, v.location, lines))
    if strict:
        for w in report.warnings:
            hint = finding_help(w.code, None)
            lines = [] if hint is None else [f"help: {hint}"]
            _finding(case, "failure", w.code, w.message, _failure_text(report, w.code, w.message, w.location, lines))
    elif report.warnings:
        listed = (f"{_where(report.path, w.location)}: warning {w.code}: {w.message}" for w in report.warnings)
        ET.SubElement(case, "system-out").text = _xml("\n".join(listed))


def write(run: Run, out: TextIO) -> None:
    errors = sum(1 for r in run.reports if r.error is not None)
    failures = sum(1 for r in run.reports if r.error is None and run.failed(r))
    counts = {
        "tests": str(len(run.reports)),
        "failures": str(failures),
        "errors": str(errors),
        "time": f"{run.elapsed:.3f}",
    }
    suites = ET.Element("testsuites", {"name": "toolwire", **counts})
    suite = ET.SubElement(suites, "testsuite", {"name": "toolwire", **counts, "skipped": "0"})
    for report in run.reports:
        _testcase(suite, report, run.strict)
    ET.indent(suites)
    # Written as text (the caller's stream decides the bytes); the declaration
    # names UTF-8 because that is what --output writes.
    out.write('<?xml version="1.0" encoding="utf-8"?>\n')
    out.write(ET.tostring(suites, encoding="unicode"))
    out.write("\n")
