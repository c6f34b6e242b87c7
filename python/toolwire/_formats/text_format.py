"""``--format text`` (the default): diagnostics for people, in the manner of
rustc and ruff.

Every finding starts with ``path:line:col: severity[CODE]: message`` (the
form editors, terminals and CI problem matchers turn into links), followed
by indented detail lines: ``=`` for each colliding tool, ``help:`` for the
suggested fix. A file's findings come in the report's order, a blank line
after each: EDGE-5 violations by edge, then CMP-9 clashes in the order of
their first violations, then warnings. Each is written as it is read, so
the report streams: a million clashes are never all held at once (which
is why the findings are not sorted by line). CMP-9 violations with one
cause (the same name, the same clashing tools) are one finding, at its
first consumer, naming the consumers it reaches (a few, the rest counted).
``--max-violations N`` shows at most N violation findings per file (the
first N) and a ``note:`` with the exact number of violations left out. A file that
passes ends with ``path: ok`` (``path: ok (2 warnings)`` when it has
warnings); a file that could not be checked gets ``path:line:col: error:
message``. One summary line ends the run, with exact counts (and, with
``--timing``, how long the check took: never by default, so that two runs
on the same input print the same bytes), after a line counting the
findings of each code (``CMP-9: 1, R8: 1``) when there are any.
``--quiet`` leaves out the warnings that fail nothing and the ``ok``
lines; the summary still counts those warnings. Text that comes from the
input (ids, labels, paths) is escaped so that it can neither break a line
nor send escape sequences to a terminal (``common.printable``, which the
github and junit formats use too). An id, label or name of more than 100
characters is shown cut, ending in ``…`` (``common.shortened``), and
no column is padded wider than such a value: a clash's lines, its paths
and a consumer's violations repeat them, and one long value would
otherwise make each of them as long (the JSON, SARIF and JUnit formats,
for machines, show every value whole).
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator, List, Mapping, NamedTuple, Optional, Sequence, TextIO, Tuple

from .._errors import SiteError, error_to_dict
from .._records import NO_BOXES, CallFinding, CallTool, ClashGroup, Location, Tool, Violation, WiringWarning, path_ends
from .._report import Report
from .common import (
    across_calls,
    call_headline,
    call_room,
    calls_shown,
    chain_lines,
    chains_note,
    of_workflow,
    place,
    node_types_unchecked,
    NODE_TYPES_UNCHECKED,
    Findings,
    code_counts_of,
    counts_text,
    file_name,
    listing,
    node_id,
    not_reported,
    LONGEST_SHOWN,
    pad,
    plural,
    printable,
    quoted,
    shortened,
    text_width,
    unsafe,
)
from .run import Run

# ANSI SGR styles, applied only when the run asks for colour.
_STYLES = {
    "error": "1;31",  # bold red
    "warning": "1;33",  # bold yellow
    "message": "1",  # bold: the header's message and the path
    "gutter": "1;34",  # bold blue: the `=` before each tool and note, as rustc draws it
    "help": "1;32",  # bold green
    "ok": "32",  # green
}
_RESET = "\x1b[0m"

# Box labels shown as they are in parentheses; others are quoted.
_PLAIN_LABEL = re.compile(r"[^\s\"()][^\"()]*(?<=\S)")


def use_colour(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether to colour output written to `stream`: never when ``NO_COLOR``
    is set (no-color.org), always when ``FORCE_COLOR`` is, else only on a
    terminal. An empty variable counts as unset, as both conventions say."""
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except ValueError:  # a closed stream
        return False


def write(run: Run, out: TextIO) -> None:
    _Writer(run, out).write()


def blocks(run: Run) -> Iterator[Block]:
    """The report's blocks, file by file, without the summary (for other
    renderings of the same report: the GitHub step summary)."""
    writer = _Writer(run)
    for report in run.reports:
        yield from writer.blocks(report)


def summary_line(run: Run) -> str:
    """The summary line that ends the report, without its newline (nor the
    line of counts by code before it: ``counts_line``)."""
    return _Writer(run).summary().text.rstrip("\n").rsplit("\n", 1)[-1]


def separator(previous: Optional[str], kind: str) -> str:
    """What goes between two blocks: a blank line, except between the ``ok``
    lines of accepted files, which stay together."""
    return "" if previous is None or kind == "ok" == previous else "\n"


def node_text(node: str, label: Optional[str]) -> str:
    """A node on a path: its id, then its label in parentheses when it has
    one of its own (`box_1 (My Tools)`); quoted when it could be misread.
    Both shortened past ``LONGEST_SHOWN``: a box's label is on the path of
    every tool that comes through it."""
    if label is None or label == node:
        return shown_id(node)
    label = shortened(label)
    plain = _PLAIN_LABEL.fullmatch(label) and "->" not in label and not unsafe(label)
    return f"{shown_id(node)} ({label if plain else quoted(label)})"


def shown_id(node: str) -> str:
    """A node id as the text format shows it: as ``node_id`` does, shortened
    past ``LONGEST_SHOWN`` (a consumer's id is in every violation at it)."""
    return node_id(shortened(node))


def shown_label(label: str) -> str:
    """A label or name as the text format shows it, quoted: shortened past
    ``LONGEST_SHOWN``."""
    return quoted(shortened(label))


def display_path(path: Optional[str]) -> str:
    """The file a report is about, as every format names it, printable."""
    return printable(file_name(path))


def _duration(seconds: float) -> str:
    """Milliseconds below a second (`250ms`), else seconds with two decimals."""
    milliseconds = round(seconds * 1000)
    if milliseconds < 1:
        return "<1ms"
    if milliseconds < 1000:
        return f"{milliseconds}ms"
    return f"{seconds:.2f}s"


class Block(NamedTuple):
    """One block of the report: a finding with its detail lines, a file's
    ``ok`` line, a note of what was left out, or the summary."""

    kind: str
    """``finding``, ``ok`` or ``summary``: what decides the blank lines."""
    text: str
    """Its lines, each ending in a newline."""
    violations: int = 0
    """How many violations it shows (a grouped clash shows many)."""
    warnings: int = 0
    calls: int = 0
    """How many call findings it shows."""


class _Writer:
    def __init__(self, run: Run, out: Optional[TextIO] = None) -> None:
        self.run = run
        self.out = out
        self.strict_noted = False
        self.previous: Optional[str] = None
        """What the last block written was: "ok" or "finding"."""
        self.lines: List[str] = []
        """The lines of the block being built."""

    def style(self, name: str, text: str) -> str:
        return f"\x1b[{_STYLES[name]}m{text}{_RESET}" if self.run.colour else text

    def line(self, text: str = "") -> None:
        self.lines.append(text + "\n")

    def built(self, kind: str, violations: int = 0, warnings: int = 0, calls: int = 0) -> Block:
        """The lines written since the last block, as a block."""
        text = "".join(self.lines)
        self.lines = []
        return Block(kind, text, violations, warnings, calls)

    def write(self) -> None:
        assert self.out is not None
        for report in self.run.reports:
            for block in self.blocks(report):
                self.emit(block)
        self.emit(self.summary())

    def emit(self, block: Block) -> None:
        """Writes a block. A blank line separates each finding from what is
        around it, as rustc does; the one-line ``ok``s of accepted files stay
        together, so a long run of them reads as a list."""
        assert self.out is not None
        self.out.write(separator(self.previous, block.kind))
        self.previous = block.kind
        self.out.write(block.text)

    def blocks(self, report: Report) -> Iterator[Block]:
        """One file's blocks, each made as it is yielded: at most
        ``max_violations`` violation findings in the report's order (EDGE-5
        violations by edge, then clash groups by first violation), then
        every warning, then what was left out, then ``ok`` when the file
        passed."""
        path = display_path(report.path)
        if report.error is not None:
            error = error_to_dict(report.error)
            at = None if error["line"] is None else Location(error["line"], error["column"])
            self.header(path, at, "error", None, printable(error["message"]))
            # A site error (a cycle of calls): each workflow on it, with its file.
            for workflow, file in zip(error.get("workflows", ()), error.get("files", ())):
                self.detail("=", f"workflow {quoted(workflow)}: {printable(file)}")
            yield self.built("finding")
            return
        # The report's order, not the file's: sorting by line would mean
        # reading every finding before writing the first, and a report may
        # hold a million clashes. Each block is written before the next
        # finding is read.
        findings = Findings(report, self.run.max_violations)
        for finding in findings:
            if isinstance(finding, ClashGroup):
                self.group(path, finding)
                yield self.built("finding", violations=finding.count)
            else:
                self.violation(path, finding)
                yield self.built("finding", violations=1)
        # Then the clashes across its calls (a site check), after its own.
        calls, calls_left = calls_shown(report, call_room(self.run.max_violations, findings.shown))
        for call in calls:
            self.call(path, call)
            yield self.built("finding", calls=1)
        for warning in report.warnings:
            self.warning(path, warning)
            yield self.built("finding", warnings=1)
        left_out = findings.left_out
        if left_out or calls_left:
            limit = self.run.max_violations
            shown_at_most = f"--max-violations {limit}: at most {plural(limit or 0, 'finding')} per file"
            what = [plural(left_out, "more violation")] if left_out else []
            if calls_left:
                what.append(f"{calls_left:,} more {across_calls(calls_left)}")
            self.header(path, None, "note", None, f"{' and '.join(what)} not shown ({shown_at_most})")
            yield self.built("finding")
        if not self.run.failed(report) and not self.run.quiet:
            # Said for every file that passed, warnings or not, so that a
            # file's verdict is always on a line of its own.
            ok = self.style("ok", "ok")
            if report.warnings:
                ok += f" ({plural(len(report.warnings), 'warning')})"
            self.line(f"{self.style('message', path)}: {ok}")
            yield self.built("ok")

    def header(self, path: str, at: Optional[Location], severity: str, code: Optional[str], message: str) -> None:
        where = path if at is None else f"{path}:{at.line}:{at.column}"
        label = severity if code is None else f"{severity}[{code}]"
        styled = self.style(severity, label) if severity in _STYLES else label
        self.line(f"{self.style('message', where)}: {styled}: {self.style('message', message)}")

    def detail(self, gutter: str, text: str) -> None:
        self.line(f"  {self.style('gutter', gutter)} {text}")

    def help(self, text: Optional[str]) -> None:
        if text is not None:
            self.line(f"  {self.style('help', 'help:')} {printable(text)}")

    def violation(self, path: str, violation: Violation) -> None:
        if violation.rule != "CMP-9" or violation.consumer is None or violation.name is None:
            self.header(path, violation.location, "error", violation.rule, printable(violation.message))
            self.help(violation.help)
            return
        # The core's message lists the tools too; here they get lines of their own.
        message = (
            f"{len(violation.tools)} tools reaching {shown_label(violation.consumer)} "
            f"share the name {shown_label(violation.name)}"
        )
        self.header(path, violation.location, "error", violation.rule, message)
        self.tools(violation)
        self.help(violation.help)

    def tools(self, violation: Violation) -> None:
        assert violation.name is not None
        for line, path in _tool_lines(violation.tools, violation.name, violation.box_labels, self.run.max_path):
            self.detail("=", line)
            self.line(f"    {path}")

    def group(self, path: str, group: ClashGroup) -> None:
        """A clash shown once for every consumer it reaches: the tools with
        their paths to the first consumer, then the consumers."""
        first = group.first
        if group.count == 1:
            self.violation(path, first)
            return
        message = f"{len(group.tools)} tools reaching {group.count:,} consumers share the name {shown_label(group.name)}"
        self.header(path, first.location, "error", first.rule, message)
        self.tools(first)
        via = ""
        if group.through is not None:
            via = f" through {node_text(group.through, first.box_labels.get(group.through))}"
        self.detail("=", f"at {group.count:,} consumers{via}: {listing(group.consumers, _SHOWN_CONSUMERS, shown_id)}")
        self.help(first.help)

    def call(self, path: str, finding: CallFinding) -> None:
        """A clash across calls: at the calling node, then the chain of
        calls and the consumer inside, each with its own place, then each
        tool with its path across the calls."""
        self.header(path, finding.location, "error", finding.rule, call_headline(finding, LONGEST_SHOWN))
        for line in chain_lines(finding, LONGEST_SHOWN):
            self.detail("=", line)
        for line, parts in _call_tool_lines(finding, self.run.max_path):
            self.detail("=", line)
            for part in parts:
                self.line(f"    {part}")
        note = chains_note(finding)
        if note is not None:
            self.detail("=", note)
        self.help(finding.help)

    def warning(self, path: str, warning: WiringWarning) -> None:
        # Under --strict a warning fails the file, so it is printed as what it
        # has become; like rustc's lint notes, the reason is said once.
        severity = "error" if self.run.strict else "warning"
        self.header(path, warning.location, severity, warning.code, printable(warning.message))
        if self.run.strict and not self.strict_noted:
            self.detail("=", "note: warnings are errors under --strict")
            self.strict_noted = True

    def summary(self) -> Block:
        # A site's error (a cycle of calls) is a report of its own but no
        # file: it is counted as what it is.
        site_errors = sum(1 for r in self.run.reports if isinstance(r.error, SiteError))
        reports = [r for r in self.run.reports if not isinstance(r.error, SiteError)]
        unchecked = sum(1 for r in reports if r.error is not None)
        consumers = sum(r.stats.consumers for r in reports if r.stats is not None)
        violations = sum(r.violation_count for r in reports)
        warnings = sum(len(r.warnings) for r in reports) + self.run.hidden_warnings
        files = plural(len(reports), "file")
        checked = f"{len(reports) - unchecked:,} of {files}" if unchecked else files
        counts = [plural(violations, "violation"), plural(warnings, "warning")]
        calls = sum(len(r.calls) for r in reports)
        if calls:
            # Said only when there are some: a run without calls reads as before.
            counts.insert(1, f"{calls:,} {across_calls(calls)}")
        if self.run.strict and warnings:
            counts[-1] += " (errors under --strict)"
        elif self.run.hidden_warnings:
            counts[-1] += " (not listed: --quiet)"
        took = f" in {_duration(self.run.elapsed)}" if self.run.timing else ""
        text = f"checked {checked} ({plural(consumers, 'consumer')}){took}: {', '.join(counts)}"
        if unchecked:
            text += f"; {plural(unchecked, 'file')} could not be checked"
        if site_errors:
            text += f"; {plural(site_errors, 'site error')} (calls not followed)"
        verdict = "error" if any(self.run.failed(r) for r in self.run.reports) else "ok"
        # The counts by code come first, so that the summary line is still
        # the last line of the run.
        if node_types_unchecked(self.run):
            # Its own line, before the counts and the summary, which stay
            # the last two lines.
            self.line(f"note: {NODE_TYPES_UNCHECKED}")
        by_code = counts_line(self.run)
        if by_code:
            self.line(by_code)
        self.line(self.style(verdict, text))
        return self.built("summary")


def counts_line(run: Run) -> str:
    """The findings of each code over the run (``CMP-9: 12, NAME-LOSSY:
    81,407``), warnings --quiet does not list included, and the codes
    --select/--ignore leave out; empty when there is nothing to say."""
    parts = [counts_text(code_counts_of(run))]
    left_out = not_reported(run)
    if left_out:
        parts.append(f"not reported: {', '.join(left_out)} (--select/--ignore)")
    return "; ".join(part for part in parts if part)


# Consumers a grouped clash names; the rest are counted.
_SHOWN_CONSUMERS = 3

# The widest a column of tool lines is padded to: a shortened id or label,
# quoted (``LONGEST_SHOWN``). A text wider (one escaped throughout) is not
# padded, nor makes the others wider: one wide value must not widen every
# line of its clash.
_WIDEST_PADDED = LONGEST_SHOWN + 2


def column_width(texts: Sequence[str], widest: int = _WIDEST_PADDED) -> int:
    """The width a column of ``texts`` is padded to: its widest text's, of
    those no wider than ``widest``."""
    return padded_width(map(text_width, texts), widest)


def padded_width(widths: Iterable[int], widest: int = _WIDEST_PADDED) -> int:
    """``column_width`` of texts whose widths are already measured."""
    return max((w for w in widths if w <= widest), default=0)


def _tool_lines(
    tools: Sequence[Tool], name: str, box_labels: Mapping[str, str], max_path: int = 64
) -> List[Tuple[str, str]]:
    """For each colliding tool, its line (id, label and the name the label
    became, when the two differ, and where the tool is) and its path (the
    chain of ids that brings it to the consumer, with the labels of the
    boxes on it). Columns are padded so that the arrows and the locations
    line up (up to ``_WIDEST_PADDED``); ids, labels and the name are
    shortened past ``LONGEST_SHOWN``."""
    ids = [shown_id(t.id) for t in tools]
    labels = [shown_label(t.label) for t in tools]
    id_width = column_width(ids)
    label_width = column_width(labels)
    shown_name = shortened(name)
    named = [
        label if tool.label == name else pad(label, label_width) + f" -> {shown_name}"
        for tool, label in zip(tools, labels)
    ]
    named_width = column_width(named, 2 * _WIDEST_PADDED + 4)  # a padded label, its arrow and the name
    lines = []
    for tool, tool_id, tool_named in zip(tools, ids, named):
        line = f"{pad(tool_id, id_width)}  {tool_named}"
        if tool.location is not None:
            line = f"{pad(line, id_width + 2 + named_width)}  at {tool.location.line}:{tool.location.column}"
        path = path_text(tool.path, box_labels, max_path)
        lines.append((line, f"{' ' * id_width}  path: {path}"))
    return lines


def _call_tool_lines(finding: CallFinding, max_path: int) -> List[Tuple[str, List[str]]]:
    """For each tool of a call finding, its line (id, label and the name it
    became, its workflow, its place) and its path, a line per workflow it
    crosses: ``path: [leaf -> N] (a.json:3:5)`` then ``=> W: [I -> C]
    (b.json:9:5)``. Columns are padded, and values shortened, as in
    ``_tool_lines``."""
    tools: Sequence[CallTool] = finding.tools
    home = finding.workflow
    ids = [shown_id(t.id) for t in tools]
    labels = [shown_label(t.label) for t in tools]
    id_width = column_width(ids)
    label_width = column_width(labels)
    shown_name = shortened(finding.name)
    named = [
        label if tool.label == finding.name else pad(label, label_width) + f" -> {shown_name}"
        for tool, label in zip(tools, labels)
    ]
    named_width = column_width(named, 2 * _WIDEST_PADDED + 4)  # a padded label, its arrow and the name
    lines = []
    for tool, tool_id, tool_named in zip(tools, ids, named):
        line = f"{pad(tool_id, id_width)}  {pad(tool_named, named_width)}  {of_workflow(tool.workflow, home)}"
        line += f"  at {place(tool.file, tool.location)}"
        parts = []
        for i, part in enumerate(tool.path):
            first = part.locations[0] if part.locations else None
            words = f"[{path_text(part.nodes, NO_BOXES, max_path)}] ({place(part.file, first)})"
            lead = "path: " if i == 0 else f"   => {shown_id(part.workflow)}: "
            parts.append(f"{' ' * id_width}  {lead}{words}")
        lines.append((line, parts))
    return lines


# A path longer than this shows its first and last few hops: a chain of a
# million toolboxes on one line helps nobody.
LONGEST_SHOWN_PATH = 12
_SHOWN_AT_EACH_END = 5


def path_text(path: Sequence[str], box_labels: Mapping[str, str], max_path: int = 64) -> str:
    """`tool -> box (Label) -> consumer`; the middle of a long path is
    counted rather than shown. A path of more than 12 ids shows its first
    and last five; ``max_path`` (``--max-path``) below 12 shortens that to
    its first ``max_path // 2`` and last ``max_path - max_path // 2``, and
    0 shows every path whole. Only the ends of a path are read."""
    if max_path == 0 or max_path >= LONGEST_SHOWN_PATH:
        limit = max_path and LONGEST_SHOWN_PATH
        head, omitted, tail = path_ends(path, limit)
        if omitted:
            # The text format's own ends: five and five, three or more counted.
            length = len(path)
            head = list(path[:_SHOWN_AT_EACH_END])
            tail = list(path[length - _SHOWN_AT_EACH_END :])
            omitted = length - 2 * _SHOWN_AT_EACH_END
    else:
        head, omitted, tail = path_ends(path, max_path)
    shown = [node_text(node, box_labels.get(node)) for node in head]
    if omitted:
        shown.append(f"... {omitted:,} more ...")
    shown.extend(node_text(node, box_labels.get(node)) for node in tail)
    return " -> ".join(shown)
