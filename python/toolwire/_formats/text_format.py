"""``--format text`` (the default): diagnostics for people, in the manner of
rustc and ruff.

Every finding starts with ``path:line:col: severity[CODE]: message`` (the
form editors, terminals and CI problem matchers turn into links), followed
by indented detail lines: ``=`` for each colliding tool, ``help:`` for the
suggested fix. A file's findings come in the order of the file, a blank
line after each. A file with no findings gets ``path: ok``; a file that
could not be checked gets ``path:line:col: error: message``. One summary
line ends the run. Text that comes from the input (ids, labels, paths) is escaped so
that it can neither break a line nor send escape sequences to a terminal.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import List, Mapping, Optional, Sequence, TextIO, Tuple, Union

from .._report import Location, Report, Tool, Violation, WiringWarning, _error_to_dict
from . import Run

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

# Characters escaped wherever input text is printed: C0 and C1 controls
# (ESC and CSI start terminal sequences; a newline would split a finding in
# two), DEL, the line and paragraph separators, and the bidirectional
# controls that can make text read differently from what it is.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# Ids printed bare; anything else (spaces, quotes, arrows, nothing) is quoted.
_BARE_ID = re.compile(r"[^\s\"'\\]+")
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


def _escape(text: str) -> str:
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _quote(text: str) -> str:
    """A label or id as a JSON string, as the core's messages quote them."""
    return _escape(json.dumps(text, ensure_ascii=False))


def _id(node: str) -> str:
    """A node id, bare when nothing in it could be misread."""
    bare = _BARE_ID.fullmatch(node) and "->" not in node and not _UNSAFE.search(node)
    return node if bare else _quote(node)


def _node(node: str, label: Optional[str]) -> str:
    """A node on a path: its id, then its label in parentheses when it has
    one of its own (`box_1 (My Tools)`); quoted when it could be misread."""
    if label is None or label == node:
        return _id(node)
    plain = _PLAIN_LABEL.fullmatch(label) and "->" not in label and not _UNSAFE.search(label)
    return f"{_id(node)} ({label if plain else _quote(label)})"


def display_path(path: Optional[str]) -> str:
    if path == "-":
        return "<stdin>"
    return "<input>" if path is None else _escape(path)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _duration(seconds: float) -> str:
    """Milliseconds below a second (`250ms`), else seconds with two decimals."""
    milliseconds = round(seconds * 1000)
    if milliseconds < 1:
        return "<1ms"
    if milliseconds < 1000:
        return f"{milliseconds}ms"
    return f"{seconds:.2f}s"


class _Writer:
    def __init__(self, run: Run, out: TextIO) -> None:
        self.run = run
        self.out = out
        self.strict_noted = False
        self.previous: Optional[str] = None
        """What the last block written was: "ok" or "finding"."""

    def style(self, name: str, text: str) -> str:
        return f"\x1b[{_STYLES[name]}m{text}{_RESET}" if self.run.colour else text

    def line(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def block(self, kind: str) -> None:
        """Starts a block. A blank line separates each finding from what is
        around it, as rustc does; the one-line ``ok``s of clean files stay
        together, so a long run of them reads as a list."""
        if self.previous is not None and not (kind == "ok" == self.previous):
            self.line()
        self.previous = kind

    def write(self) -> None:
        for report in self.run.reports:
            self.report(report)
        self.summary()

    def report(self, report: Report) -> None:
        path = display_path(report.path)
        if report.error is not None:
            error = _error_to_dict(report.error)
            at = None if error["line"] is None else Location(error["line"], error["column"])
            self.block("finding")
            self.header(path, at, "error", None, _escape(error["message"]))
            return
        if not report.violations and not report.warnings:
            self.block("ok")
            self.line(f"{self.style('message', path)}: {self.style('ok', 'ok')}")
            return
        # In the order of the file, as a reader goes through it (ruff and mypy
        # sort so too); at one place, errors first; unplaced findings last.
        findings: List[Union[Violation, WiringWarning]] = [*report.violations, *report.warnings]
        findings.sort(key=lambda f: (f.location is None, f.location or (0, 0)))
        for finding in findings:
            self.block("finding")
            if isinstance(finding, Violation):
                self.violation(path, finding)
            else:
                self.warning(path, finding)

    def header(self, path: str, at: Optional[Location], severity: str, code: Optional[str], message: str) -> None:
        where = path if at is None else f"{path}:{at.line}:{at.column}"
        label = severity if code is None else f"{severity}[{code}]"
        self.line(f"{self.style('message', where)}: {self.style(severity, label)}: {self.style('message', message)}")

    def detail(self, gutter: str, text: str) -> None:
        self.line(f"  {self.style('gutter', gutter)} {text}")

    def help(self, text: Optional[str]) -> None:
        if text is not None:
            self.line(f"  {self.style('help', 'help:')} {_escape(text)}")

    def violation(self, path: str, violation: Violation) -> None:
        if violation.rule != "CMP-9" or violation.consumer is None or violation.name is None:
            self.header(path, violation.location, "error", violation.rule, _escape(violation.message))
            self.help(violation.help)
            return
        # The core's message lists the tools too; here they get lines of their own.
        message = (
            f"{len(violation.tools)} tools reaching {_quote(violation.consumer)} "
            f"share the name {_quote(violation.name)}"
        )
        self.header(path, violation.location, "error", violation.rule, message)
        for line, path in _tool_lines(violation.tools, violation.name, violation.box_labels):
            self.detail("=", line)
            self.line(f"    {path}")
        self.help(violation.help)

    def warning(self, path: str, warning: WiringWarning) -> None:
        # Under --strict a warning fails the file, so it is printed as what it
        # has become; like rustc's lint notes, the reason is said once.
        severity = "error" if self.run.strict else "warning"
        self.header(path, warning.location, severity, warning.code, _escape(warning.message))
        if self.run.strict and not self.strict_noted:
            self.detail("=", "note: warnings are errors under --strict")
            self.strict_noted = True

    def summary(self) -> None:
        reports = self.run.reports
        unchecked = sum(1 for r in reports if r.error is not None)
        consumers = sum(r.stats.consumers for r in reports if r.stats is not None)
        violations = sum(len(r.violations) for r in reports)
        warnings = sum(len(r.warnings) for r in reports)
        files = _plural(len(reports), "file")
        checked = f"{len(reports) - unchecked} of {files}" if unchecked else files
        counts = [_plural(violations, "violation"), _plural(warnings, "warning")]
        if self.run.strict and warnings:
            counts[-1] += " (errors under --strict)"
        took = _duration(self.run.elapsed)
        text = f"checked {checked} ({_plural(consumers, 'consumer')}) in {took}: {', '.join(counts)}"
        if unchecked:
            text += f"; {_plural(unchecked, 'file')} could not be checked"
        self.block("summary")
        verdict = "error" if any(self.run.failed(r) for r in reports) else "ok"
        self.line(self.style(verdict, text))


def _tool_lines(tools: Sequence[Tool], name: str, box_labels: Mapping[str, str]) -> List[Tuple[str, str]]:
    """For each colliding tool, its line (id, label and the name the label
    became, when the two differ, and where the tool is) and its path (the
    chain of ids that brings it to the consumer, with the labels of the
    boxes on it). Columns are padded so that the arrows and the locations
    line up."""
    ids = [_id(t.id) for t in tools]
    labels = [_quote(t.label) for t in tools]
    id_width = max(_width(i) for i in ids)
    label_width = max(_width(label) for label in labels)
    named = [
        label if tool.label == name else _pad(label, label_width) + f" -> {name}"
        for tool, label in zip(tools, labels)
    ]
    named_width = max(_width(n) for n in named)
    lines = []
    for tool, tool_id, tool_named in zip(tools, ids, named):
        line = f"{_pad(tool_id, id_width)}  {tool_named}"
        if tool.location is not None:
            line = f"{_pad(line, id_width + 2 + named_width)}  at {tool.location.line}:{tool.location.column}"
        path = path_text(tool.path, box_labels)
        lines.append((line, f"{' ' * id_width}  path: {path}"))
    return lines


# A path longer than this shows its first and last few hops: a chain of a
# million toolboxes on one line helps nobody.
_LONGEST_SHOWN_PATH = 12
_SHOWN_AT_EACH_END = 5


def path_text(path: Sequence[str], box_labels: Mapping[str, str]) -> str:
    """`tool -> box (Label) -> consumer`; the middle of a long path is
    counted rather than shown."""
    shown = [_node(node, box_labels.get(node)) for node in path[:_SHOWN_AT_EACH_END]]
    if len(path) > _LONGEST_SHOWN_PATH:
        shown.append(f"... {len(path) - 2 * _SHOWN_AT_EACH_END:,} more ...")
        tail = path[-_SHOWN_AT_EACH_END:]
    else:
        tail = path[_SHOWN_AT_EACH_END:]
    shown.extend(_node(node, box_labels.get(node)) for node in tail)
    return " -> ".join(shown)


def _width(text: str) -> int:
    """Terminal columns: wide East Asian characters and most emoji take two,
    combining marks none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text
    )


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))
