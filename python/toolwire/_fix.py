"""``toolwire check --fix`` and ``--diff``: the renames a check suggests for
CMP-9 written into the workflow's JSON text.

Only the bytes of the labels that change are touched: each renamed node's
object is found where the report locates it, read member by member (the
last ``data`` and its last ``label`` win, as in the core), and its label's
string is rewritten, or a ``label`` (or a ``data`` holding one) is inserted
when the node had none and was named by its id. Every other byte of the file
stays as it was. The fixed text is checked again before it is written, and
is written atomically, keeping the file's mode.

EDGE-5 suggestions are not applied: taking one wires a new tool, which is a
change of meaning for a person to make.
"""

from __future__ import annotations

import json
import re
from typing import Callable, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from ._records import Location, Rename
from ._report import Report

__all__ = ["FileFix", "FixError", "fix_text", "planned_renames", "unified_diff"]

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _string(text: str, at: int) -> Tuple[str, int]:
    """The JSON string whose opening quote is at ``at``, and where it ends."""
    value, end = _DECODER.raw_decode(text, at)
    assert isinstance(value, str)
    return value, end


class FixError(ValueError):
    """The text at a renamed node's place is not what the report described:
    nothing of the file is changed."""


class Edit(NamedTuple):
    """Replace ``text[start:end]`` with ``new``."""

    start: int
    end: int
    new: str


class FileFix(NamedTuple):
    """The fix of one file's text."""

    before: str
    after: str
    applied: List[Rename]
    skipped: List[Tuple[Rename, str]]
    """Renames that cannot be written into the text, each with the reason."""
    edits: Sequence[Edit] = ()
    """The edits that make ``after`` from ``before``, in the order of the
    text, none overlapping: what ``unified_diff`` is written from."""


def planned_renames(report: Report) -> List[Tuple[Rename, Optional[Location]]]:
    """Every rename of the report's suggested fix, once each, by node id,
    with the place of the node it renames. The fix of a workflow is one map
    from tool to new label, and every CMP-9 violation belongs to a clash
    whose first violation lists the renames of its tools, so reading each
    clash once reads every rename."""
    found: Dict[str, Tuple[Rename, Optional[Location]]] = {}
    for group in report.clash_groups():
        first = group.first
        where = {tool.id: tool.location for tool in first.tools}
        for rename in first.fix:
            found.setdefault(rename.node, (rename, where.get(rename.node)))
    return [found[node] for node in sorted(found)]


def fix_text(text: str, report: Report) -> FileFix:
    """The text with every rename of ``report`` (a check of exactly this
    text) written in. Raises ``FixError`` when the text does not hold a
    renamed node where the report says it is."""
    undeclared = {w.node for w in report.warnings if w.code == "R8"}
    renames = planned_renames(report)
    starts = _offsets(text, [where for _, where in renames if where is not None])
    edits: List[Edit] = []
    applied: List[Rename] = []
    skipped: List[Tuple[Rename, str]] = []
    ascii_only = text.isascii()
    for rename, where in renames:
        if rename.node in undeclared:
            skipped.append((rename, "it is never declared in `nodes`: declare it there with a data.label"))
            continue
        if where is None:
            raise FixError(f"node {_quote(rename.node)} has no place in the text")
        edit = _relabel(text, starts[where], rename, ascii_only)
        if isinstance(edit, str):
            skipped.append((rename, edit))
        else:
            edits.append(edit)
            applied.append(rename)
    edits.sort()
    return FileFix(text, _applied(text, edits), applied, skipped, edits)


def _applied(text: str, edits: Sequence[Edit]) -> str:
    """``text`` with ``edits`` (in the order of the text) made."""
    parts: List[str] = []
    at = 0
    for edit in edits:
        parts.append(text[at : edit.start])
        parts.append(edit.new)
        at = edit.end
    parts.append(text[at:])
    return "".join(parts)


def _offsets(text: str, places: Sequence[Location]) -> Dict[Location, int]:
    """The index in ``text`` of each place. Lines end at ``\\n`` only and
    columns count characters, as the core counts them."""
    found: Dict[Location, int] = {}
    line, line_start = 1, 0
    for place in sorted(set(places)):
        while line < place.line:
            newline = text.find("\n", line_start)
            if newline < 0:
                raise FixError(f"the text has no line {place.line}")
            line, line_start = line + 1, newline + 1
        found[place] = line_start + place.column - 1
    return found


# --- reading one node's object ------------------------------------------------


def _space(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _expect(text: str, at: int, char: str, what: str) -> None:
    if text[at : at + 1] != char:
        raise FixError(f"expected {what} at character {at} of the text")


class _Member(NamedTuple):
    key: str
    key_start: int
    value_start: int
    value_end: int


def _members(text: str, start: int) -> Iterator[_Member]:
    """The members of the object whose ``{`` is at ``start``, in order."""
    _expect(text, start, "{", "an object")
    at = _space(text, start + 1)
    if text[at : at + 1] == "}":
        return
    while True:
        _expect(text, at, '"', "a key")
        key, after_key = _string(text, at)
        colon = _space(text, after_key)
        _expect(text, colon, ":", "':'")
        value_start = _space(text, colon + 1)
        try:
            _, value_end = _DECODER.raw_decode(text, value_start)
        except ValueError as e:
            raise FixError(f"no JSON value at character {value_start} of the text: {e}") from None
        yield _Member(key, at, value_start, value_end)
        at = _space(text, value_end)
        if text[at : at + 1] == "}":
            return
        _expect(text, at, ",", "',' or '}'")
        at = _space(text, at + 1)


class _Node(NamedTuple):
    id: Optional[str]
    data: Optional[_Member]
    label: Optional[_Member]
    """The last ``label`` of the last ``data``, when that is an object."""


def _read_node(text: str, start: int) -> _Node:
    """What the core reads of the node object at ``start``: the last value
    of each key wins."""
    node_id: Optional[str] = None
    data: Optional[_Member] = None
    label: Optional[_Member] = None
    for member in _members(text, start):
        if member.key == "id":
            value = json.loads(text[member.value_start : member.value_end])
            node_id = value if isinstance(value, str) else None
        elif member.key == "data":
            data, label = member, None
            if text[member.value_start] == "{":
                for inner in _members(text, member.value_start):
                    if inner.key == "label":
                        label = inner
    return _Node(node_id, data, label)


# --- writing a label ----------------------------------------------------------


def _quote(text: str, ascii_only: bool = False) -> str:
    """``text`` as a JSON string; escaped to ASCII in a file that is ASCII
    throughout (as PHP writes JSON), so the fix does not change that."""
    return json.dumps(text, ensure_ascii=ascii_only)


def _relabel(text: str, start: int, rename: Rename, ascii_only: bool) -> "Edit | str":
    """The edit that gives the node object at ``start`` the new label, or why
    there is none."""
    node = _read_node(text, start)
    if node.id != rename.node:
        raise FixError(f"the object at character {start} is not node {_quote(rename.node)}")
    new = _quote(rename.new_label, ascii_only)
    label = node.label
    written: Optional[str] = None
    if label is not None and text[label.value_start] == '"':
        written = json.loads(text[label.value_start : label.value_end])
    if (written or node.id) != rename.label:
        raise FixError(f"node {_quote(rename.node)} is not labelled {_quote(rename.label)} in the text")
    if label is not None:
        if written and rename.new_label.startswith(written):
            # The common fix, "Label (qualifier)": the old label's bytes
            # stay, escapes and all, and the qualifier is added.
            tail = _quote(rename.new_label[len(written) :], ascii_only)[1:-1]
            return Edit(label.value_end - 1, label.value_end - 1, tail)
        return Edit(label.value_start, label.value_end, new)
    if node.data is None:
        return _insert_member(text, start, "data", lambda colon: '{"label"' + colon + new + "}")
    if text[node.data.value_start] == "{":
        return _insert_member(text, node.data.value_start, "label", lambda colon: new)
    if text.startswith("null", node.data.value_start):
        return Edit(node.data.value_start, node.data.value_end, '{"label": ' + new + "}")
    kind = type(json.loads(text[node.data.value_start : node.data.value_end])).__name__
    what = {"str": "a string", "list": "an array", "bool": "a boolean"}.get(kind, "a number")
    return f"its data is {what}, not an object that could hold a label"


def _insert_member(text: str, start: int, key: str, value: Callable[[str], str]) -> Edit:
    """An edit adding ``"key": value`` as the first member of the object at
    ``start``, spaced like the members there: the colon as the first one's,
    and after the comma what separates the first from the second (or, with
    one member, the line break and indent before it, if any; a space if its
    colon has one). ``value`` gets that colon."""
    first = _space(text, start + 1)
    if text[first] == "}":
        return Edit(start + 1, start + 1, f'"{key}": {value(": ")}')
    members = _members(text, start)
    member = next(members)
    colon = text[_string(text, first)[1] : member.value_start]
    second = next(members, None)
    if second is not None:
        gap = text[_space(text, member.value_end) + 1 : second.key_start]
    elif "\n" in text[start + 1 : first]:
        gap = text[start + 1 : first]
    else:
        gap = " " if " " in colon else ""
    return Edit(first, first, f'"{key}"{colon}{value(colon)},{gap}')


# --- the file -------------------------------------------------------------------


def _lines(text: str) -> List[str]:
    """Lines ending at ``\\n`` only: a JSON string may hold U+2028 and
    other characters ``str.splitlines`` would break at."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


# Lines of context around each change, as ``diff -u`` and difflib show them.
_CONTEXT = 3


class _Change(NamedTuple):
    """Lines ``start`` to ``stop`` (0-based, ``stop`` excluded) of the text
    before, replaced by ``lines``: an insertion when ``start == stop``, a
    deletion when ``lines`` is empty."""

    start: int
    stop: int
    lines: List[str]


def _changes(before: str, edits: Sequence[Edit]) -> Iterator[_Change]:
    """The line changes ``edits`` (in the order of the text) make, in order,
    none touching the next: what difflib would find, without matching lines.

    Each edit is widened to whole lines (those sharing a line become one);
    lines alike at either end of a widened edit are left out of it (an
    inserted member on a line of its own is an insertion, not a changed
    line), and changes with no unchanged line between them become one, as
    difflib joins them. One pass over the edits and the lines they touch:
    linear in the file, where difflib's matching is quadratic on a file
    with many changed lines between unique ones. (On a file of 200 lines
    or more, difflib leaves lines found more than once in a hundred out of
    its matching and may then show unchanged lines as removed and added
    again; these changes are those of difflib without that heuristic.)"""
    size = len(before)
    line = 0  # the number of the line that starts at `at`
    at = 0
    pending: Optional[_Change] = None
    i = 0
    while i < len(edits):
        # From the start of the line the edit begins on.
        start = before.rfind("\n", 0, edits[i].start) + 1
        line += before.count("\n", at, start)
        parts: List[str] = []
        ended = True  # whether the new text so far is empty or ends a line
        end = start
        while True:
            # Take edits, and the text between them, until the new text
            # ends a line where a line of the old one ends.
            edit = edits[i]
            for part in (before[end : edit.start], edit.new):
                parts.append(part)
                ended = part.endswith("\n") if part else ended
            end = edit.end
            i += 1
            at_line_end = end == size or (end > start and before[end - 1] == "\n")
            stop = end if at_line_end and ended else before.find("\n", end) + 1 or size
            if i < len(edits) and (edits[i].start < stop or stop == size):
                continue  # the next edit is on a line this one has taken
            parts.append(before[end:stop])
            end = stop
            break
        old = _lines(before[start:end])
        new = _lines("".join(parts))
        # The lines alike at the ends are context, not change.
        same = 0
        while same < min(len(old), len(new)) and old[same] == new[same]:
            same += 1
        tail = 0
        while tail < min(len(old), len(new)) - same and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        change = _Change(line + same, line + len(old) - tail, new[same : len(new) - tail])
        line += len(old)
        at = end
        if change.start == change.stop and not change.lines:
            continue
        if pending is not None and pending.stop == change.start:
            pending.lines.extend(change.lines)
            pending = pending._replace(stop=change.stop)
        else:
            if pending is not None:
                yield pending
            pending = change
    if pending is not None:
        yield pending


def _range(start: int, stop: int) -> str:
    """A hunk's lines as its header gives them, as difflib (and diff -u)
    writes them: ``3`` for one line, ``2,0`` for none (after line 2)."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start + (1 if length else 0)},{length}"


def unified_diff(path: str, before: str, edits: Sequence[Edit]) -> str:
    """The change ``edits`` (in the order of the text) make to ``before``
    as a unified diff (``patch -p0`` applies it), as
    ``difflib.unified_diff`` writes it with three lines of context, but
    written from the edits, so in time linear in the file."""
    old = _lines(before)
    out: List[str] = []
    hunk: List[_Change] = []
    shift = 0  # lines the changes before the hunk add to the text after

    def write_hunk() -> None:
        nonlocal shift
        first, last = hunk[0], hunk[-1]
        start, stop = max(0, first.start - _CONTEXT), min(len(old), last.stop + _CONTEXT)
        added = sum(len(c.lines) - (c.stop - c.start) for c in hunk)
        out.append(f"@@ -{_range(start, stop)} +{_range(start + shift, stop + shift + added)} @@\n")
        at = start
        for change in hunk:
            out.extend(" " + line for line in old[at : change.start])
            out.extend("-" + line for line in old[change.start : change.stop])
            out.extend("+" + line for line in change.lines)
            at = change.stop
        out.extend(" " + line for line in old[at:stop])
        shift += added

    for change in _changes(before, edits):
        # Hunks whose contexts would meet or overlap are one.
        if hunk and change.start - hunk[-1].stop > 2 * _CONTEXT:
            write_hunk()
            hunk = []
        hunk.append(change)
    if not hunk:
        return ""
    write_hunk()
    header = [f"--- {path}\n", f"+++ {path}\n"]
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in header + out)
