"""``--format github``: GitHub Actions workflow commands, which the runner
turns into annotations on the lines of the pull request.

Every line on stdout is a command, so the output can be counted or filtered
line by line, and the exit status carries the verdict. An accepted run
prints nothing.

GitHub shows at most 10 error and 10 warning annotations per step and drops
the rest without a word. So toolwire picks the 10 most useful of each:
errors are CMP-9 clashes first (a clash with one cause is one annotation
naming the consumers it reaches), then EDGE-5 violations, then files that
could not be checked (the CLI also names those on stderr), then, under
``--strict``, warnings; files in the order given. With ``--max-violations
N`` only the first N violation findings of each file in the report's order
are candidates, the same ones every format keeps. They are written in the
order of the report. When anything is left out, one ``::notice`` says
exactly how much, why (``--max-violations``, or GitHub's limit) and where
to see it; and when ``$GITHUB_STEP_SUMMARY`` names
a file, the whole grouped report is appended to it as Markdown (the text
format in a code block), cut to stay under GitHub's 1 MiB, saying what was
cut.

    ::error file=flows/a.json,line=10,col=5,title=CMP-9::2 tools reaching ...%0Ahelp: rename ...

Violations are ``::error``; warnings are ``::warning`` (``::error`` under
``--strict``); a file that could not be checked is ``::error`` titled
``toolwire``. The second line of each message is the help: the finding's
own fix when it has one, else what its rule says to do, since the annotation
is all a reviewer sees. ``line``/``col`` are left out when the location is not
known, and ``file`` when the workflow came from standard input: the message
then starts with ``<stdin>:line:col:``. Ids, labels and paths from the input
are escaped as the text format escapes them (``common.printable``), so no
workflow can start a command of its own in the log.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
import sys
from typing import Dict, List, Mapping, NamedTuple, Optional, TextIO

from .._errors import error_to_dict
from .._records import CallFinding, ClashGroup, Location, Violation, WiringWarning
from .._report import Report
from . import text_format
from .common import NODE_TYPES_UNCHECKED, node_types_unchecked
from .common import across_calls, call_room, calls_shown, chain_lines
from .common import covered, edge5_violations, file_name, finding_help, group_message, plural, printable, repo_path, source
from .run import Run

MAX_ANNOTATIONS = 10
"""Error annotations, and warning annotations, GitHub shows per step."""
STEP_SUMMARY_LIMIT = 1024 * 1024
"""Bytes GitHub takes in a step summary."""


def escape_data(text: str) -> str:
    """The message after ``::``: the runner reads up to the end of the line,
    so line breaks are encoded, and ``%`` first so the codes stay readable."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value, which ``,`` and ``:`` would end early."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(
    kind: str, message: str, *, title: str, path: Optional[str] = None, location: Optional[Location] = None
) -> str:
    """A workflow command. `message` must already be printable (its own
    line breaks are encoded here); the path is made so here. A workflow
    with no file to point at (``<stdin>``) is named at the start of the
    message instead, with the line and column."""
    properties: List[str] = []
    file = source(path)
    if file is not None:
        properties.append(f"file={escape_property(printable(repo_path(file)))}")
        # A line means nothing without a file to put it in.
        if location is not None:
            properties.append(f"line={location.line}")
            properties.append(f"col={location.column}")
    elif path is not None:
        where = "" if location is None else f":{location.line}:{location.column}"
        message = f"{printable(file_name(path))}{where}: {message}"
    properties.append(f"title={escape_property(title)}")
    return f"::{kind} {','.join(properties)}::{escape_data(message)}\n"


def _with_help(message: str, code: str, own_help: Optional[str]) -> str:
    """A printable message, then the help on a line of its own."""
    hint = finding_help(code, own_help)
    return message if hint is None else f"{message}\nhelp: {printable(hint)}"


def _error_command(report: Report, failure: Exception) -> str:
    error = error_to_dict(failure)
    known = error["line"] is not None and error["column"] is not None
    at = Location(error["line"], error["column"]) if known else None
    return command("error", printable(error["message"]), title="toolwire", path=report.path, location=at)


def _violation_command(report: Report, v: Violation) -> str:
    message = _with_help(printable(v.message), v.rule, v.help)
    return command("error", message, title=v.rule, path=report.path, location=v.location)


def _group_command(report: Report, group: ClashGroup) -> str:
    first = group.first
    message = _with_help(group_message(group), first.rule, first.help)
    return command("error", message, title=first.rule, path=report.path, location=first.location)


def _call_command(report: Report, finding: CallFinding) -> str:
    """A clash across calls, annotated at the calling node: the message,
    the chain of calls and the consumer inside with their files, lines and
    columns, then the help."""
    message = "\n".join([printable(finding.message), *chain_lines(finding)])
    message = _with_help(message, finding.rule, finding.help)
    return command("error", message, title=finding.rule, path=report.path, location=finding.location)


def _warning_command(report: Report, w: WiringWarning, kind: str) -> str:
    message = _with_help(printable(w.message), w.code, None)
    return command(kind, message, title=w.code, path=report.path, location=w.location)


class _Selection:
    """Which findings get an annotation, by file index, and what the ones
    left out add up to.

    Each file's findings are first cut as every format cuts them: the first
    ``--max-violations`` in the report's order (EDGE-5 violations, then
    clashes), so that the same findings are kept whatever the format. Of
    those, the annotations go to clashes first, then clashes across calls,
    then EDGE-5 violations, then files that could not be checked, within
    GitHub's limit. A file's clashes across calls come after its own
    findings in the count of ``--max-violations``, one finding each."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.groups: Dict[int, List[ClashGroup]] = {}
        self.calls: Dict[int, List[CallFinding]] = {}
        self.calls_kept: Dict[int, int] = {}
        """How many of each file's clashes across calls are within ``--max-violations``."""
        self.edge5: Dict[int, List[Violation]] = {}
        self.errors: Dict[int, bool] = {}
        self.warnings: Dict[int, int] = {}
        """How many of each file's warnings (the first ones) are annotated."""
        self.kept: Dict[int, int] = {}
        """How many violations each file's findings within ``--max-violations`` stand for."""
        errors = MAX_ANNOTATIONS
        checked = [(i, r) for i, r in enumerate(run.reports) if r.error is None]
        cap = run.max_violations
        # Within the cap: how many EDGE-5 violations and clash groups of each
        # file are kept (EDGE-5 ones first, as they come first).
        edge5_kept: Dict[int, int] = {}
        groups_kept: Dict[int, int] = {}
        for index, report in checked:
            edge5 = edge5_violations(report, 0)[1]
            groups = len(report.clash_groups())
            edge5_kept[index] = edge5 if cap is None else min(cap, edge5)
            groups_kept[index] = groups if cap is None else min(cap - edge5_kept[index], groups)
            room = call_room(cap, edge5_kept[index] + groups_kept[index])
            self.calls_kept[index] = len(calls_shown(report, room)[0])
        for index, report in checked:
            take = min(groups_kept[index], errors)
            self.groups[index] = list(itertools.islice(report.clash_groups(), take))
            errors -= len(self.groups[index])
        for index, report in checked:
            self.calls[index] = list(report.calls[: min(self.calls_kept[index], errors)])
            errors -= len(self.calls[index])
        for index, report in checked:
            self.edge5[index] = edge5_violations(report, min(edge5_kept[index], errors))[0]
            errors -= len(self.edge5[index])
        for index, report in checked:
            # Every violation when nothing is cut; else those the kept
            # findings stand for (reading at most the cap's clashes).
            if cap is None:
                self.kept[index] = report.violation_count
            else:
                shown = self.groups[index]
                more = itertools.islice(report.clash_groups(), len(shown), groups_kept[index])
                self.kept[index] = edge5_kept[index] + sum(covered(g) for g in itertools.chain(shown, more))
        for index, report in enumerate(run.reports):
            if report.error is not None:
                self.errors[index] = errors > 0
                if errors > 0:
                    errors -= 1
        warnings = MAX_ANNOTATIONS
        for index, report in checked:
            room = errors if run.strict else warnings
            self.warnings[index] = min(room, len(report.warnings))
            if run.strict:
                errors -= self.warnings[index]
            else:
                warnings -= self.warnings[index]

    def left_out(self) -> _LeftOut:
        """What has no annotation, exactly, and why."""
        capped = violations = warnings = files = calls_capped = calls = 0
        for index, report in enumerate(self.run.reports):
            if report.error is not None:
                files += not self.errors[index]
                continue
            shown = len(self.edge5[index]) + sum(covered(g) for g in self.groups[index])
            capped += report.violation_count - self.kept[index]
            violations += self.kept[index] - shown
            warnings += len(report.warnings) - self.warnings[index]
            calls_capped += len(report.calls) - self.calls_kept[index]
            calls += self.calls_kept[index] - len(self.calls[index])
        return _LeftOut(capped, violations, warnings, files, calls_capped, calls)


class _LeftOut(NamedTuple):
    capped: int
    """Violations that ``--max-violations`` leaves out."""
    violations: int
    """Violations within ``--max-violations`` that GitHub's limit leaves out."""
    warnings: int
    files: int
    """Files that could not be checked."""
    calls_capped: int = 0
    """Clashes across calls that ``--max-violations`` leaves out."""
    calls: int = 0
    """Clashes across calls within ``--max-violations`` that GitHub's limit leaves out."""


def _and(parts: List[str]) -> str:
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def _notice(left_out: _LeftOut, max_violations: Optional[int], summary: bool) -> Optional[str]:
    """One notice saying what has no annotation, each part with its own
    cause: ``--max-violations``, or GitHub's limit of annotations."""
    sentences = []
    if left_out.capped or left_out.calls_capped:
        assert max_violations is not None
        capped = [plural(left_out.capped, "more violation")] if left_out.capped else []
        if left_out.calls_capped:
            capped.append(f"{left_out.calls_capped:,} more {across_calls(left_out.calls_capped)}")
        sentences.append(
            f"{_and(capped)} not annotated: --max-violations {max_violations} "
            f"keeps at most {plural(max_violations, 'finding')} per file."
        )
    parts = []
    if left_out.violations:
        parts.append(plural(left_out.violations, "more violation"))
    if left_out.calls:
        parts.append(f"{left_out.calls:,} more {across_calls(left_out.calls)}")
    if left_out.warnings:
        parts.append(plural(left_out.warnings, "more warning"))
    if left_out.files:
        parts.append(plural(left_out.files, "more file") + " that could not be checked")
    if parts:
        sentences.append(
            f"{_and(parts)} not annotated: GitHub shows {MAX_ANNOTATIONS} error and {MAX_ANNOTATIONS} warning "
            "annotations per step."
        )
    if not sentences:
        return None
    # The step summary keeps to --max-violations too, as the text format does.
    if left_out.capped or left_out.calls_capped:
        where = "`toolwire check` without --max-violations prints every one."
        listed = "those within --max-violations"
    else:
        where = "`toolwire check` (the text format) prints every one."
        listed = "them"
    if summary:
        where = f"The job's step summary lists {listed}, grouped (up to 1 MiB); {where}"
    return command("notice", " ".join([*sentences, where]), title="toolwire")


def write(run: Run, out: TextIO) -> None:
    write_annotations(run, out, os.environ)


def write_annotations(run: Run, out: TextIO, environ: Mapping[str, str]) -> None:
    selection = _Selection(run)
    strict = "error" if run.strict else "warning"
    for index, report in enumerate(run.reports):
        if report.error is not None:
            if selection.errors[index]:
                out.write(_error_command(report, report.error))
            continue
        # In the order of the report: EDGE-5, then clashes, then warnings.
        out.writelines(_violation_command(report, v) for v in selection.edge5[index])
        out.writelines(_group_command(report, g) for g in selection.groups[index])
        out.writelines(_call_command(report, c) for c in selection.calls[index])
        warnings = report.warnings[: selection.warnings[index]]
        out.writelines(_warning_command(report, w, strict) for w in warnings)
    summary = environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            write_step_summary(run, summary)
        except OSError as e:
            sys.stderr.write(f"toolwire: cannot write the step summary {summary}: {e.strerror or e}\n")
            summary = ""
    notice = _notice(selection.left_out(), run.max_violations, bool(summary))
    if notice is not None:
        out.write(notice)


# --- the step summary -------------------------------------------------------------


def step_summary(run: Run, limit: int = STEP_SUMMARY_LIMIT) -> str:
    """The grouped report as Markdown of at most ``limit`` bytes (UTF-8):
    the summary line, then the text report in a code block, cut before the
    first block that would not fit, with a line saying exactly what was cut.
    Empty when not even the summary line fits."""
    heading = f"### toolwire\n\n**{text_format.summary_line(run)}**\n\n"
    by_code = text_format.counts_line(run)
    if by_code:
        heading += f"{by_code}\n\n"
    if node_types_unchecked(run):
        heading += f"{NODE_TYPES_UNCHECKED}\n\n"
    # No finding takes less than 100 bytes, so no more than this many per
    # file can fit: reading more (a report may hold millions) is wasted.
    most = max(1, limit // 100)
    run = dataclasses.replace(run, colour=False, max_violations=min(run.max_violations or most, most))
    room = limit - _size(heading) - 1024  # the fence and the line saying what was cut
    body: List[text_format.Block] = []
    previous: Optional[str] = None
    cut = False
    for block in text_format.blocks(run):
        text = text_format.separator(previous, block.kind) + block.text
        if _size(text) > room:
            cut = True
            break
        room -= _size(text)
        body.append(block._replace(text=text))
        previous = block.kind
    while True:
        document = _markdown(run, heading, body, cut)
        if _size(document) <= limit:
            return document
        if not body:
            return ""
        body.pop()
        cut = True


def _markdown(run: Run, heading: str, body: List[text_format.Block], cut: bool) -> str:
    content = "".join(block.text for block in body)
    # A fence longer than any run of backticks in the report, so no id can close it.
    fence = "`" * max(3, 1 + max((len(ticks) for ticks in re.findall("`+", content)), default=0))
    parts = [heading]
    if content:
        parts.append(f"{fence}text\n{content}{fence}\n")
    if cut:
        violations = sum(r.violation_count for r in run.reports) - sum(b.violations for b in body)
        warnings = sum(len(r.warnings) for r in run.reports) - sum(b.warnings for b in body)
        calls = sum(len(r.calls) for r in run.reports) - sum(b.calls for b in body)
        left = f"{plural(violations, 'violation')} and {plural(warnings, 'warning')}"
        if calls:
            left = f"{plural(violations, 'violation')}, {calls:,} {across_calls(calls)} and {plural(warnings, 'warning')}"
        parts.append(
            f"\n*Cut to stay under GitHub's 1 MiB step summary: {left} (and any files after the last "
            "one shown) are not shown here; `toolwire check` prints every one.*\n"
        )
    return "".join(parts)


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def write_step_summary(run: Run, path: str) -> None:
    """Appends the grouped report to the step summary file ``path``, within
    what is left of its 1 MiB (earlier commands of the step may have written
    to it too)."""
    try:
        used = os.path.getsize(path)
    except OSError:
        used = 0
    text = step_summary(run, max(0, STEP_SUMMARY_LIMIT - used))
    with open(path, "a", encoding="utf-8") as summary:
        summary.write("\n" + text if used else text)
