"""What the formats say alike: which file a report is about, how a path is
named, how a clashing tool is described, what to do about a finding, and
which findings are shown when a report holds millions.

A report's ``violations`` may be a lazy sequence of millions of items built
on access, and a tool's ``path`` a lazy sequence of 100,000 ids. Nothing
here walks either whole: violations are read by index (the EDGE-5 ones, which
come first, are found by bisection), CMP-9 ones through
``Report.clash_groups()``, one group at a time, and paths by their head and
tail."""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from pathlib import Path, PurePath
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from .._records import CallFinding, CallTool, ClashGroup, Location, PathPart, Tool, Violation, path_ends
from .._report import Report, edge5_prefix
from .._rules import RULES
from .._select import code_counts

Finding = Union[Violation, ClashGroup]
"""A violation finding: an EDGE-5 violation, or a group of CMP-9 violations
with one cause."""

SHOWN_CONSUMERS = 10
"""Consumers named in a grouped clash by the machine formats; the rest are
counted."""

STDIN = "-"
"""The path of a workflow read from standard input."""
STDIN_NAME = "<stdin>"
"""What every format calls a workflow read from standard input."""
NO_PATH_NAME = "<input>"
"""What every format calls a report with no path (built through the API)."""


def file_name(path: Optional[str]) -> str:
    """The name every format gives the file a report is about: the path as
    given, ``<stdin>`` or ``<input>``. Not escaped: see ``printable``."""
    if path is None:
        return NO_PATH_NAME
    return STDIN_NAME if path == STDIN else path


# --- text from the input, for people ----------------------------------------------

# Characters escaped wherever input text is shown to people: C0 and C1
# controls (ESC and CSI start terminal sequences; a newline would split a
# finding in two, or start a `::command::` line in a CI log), DEL, the line
# and paragraph separators, and the bidirectional controls that can make
# text read differently from what it is.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# Ids shown bare; anything else (spaces, quotes, arrows, nothing) is quoted.
_BARE_ID = re.compile(r"[^\s\"'\\]+")


def printable(text: str) -> str:
    """`text` with every character that could act on a terminal or a CI log
    written as ``\\uXXXX``: what every human-readable format (text, github,
    junit) shows of ids, labels, paths and messages."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def unsafe(text: str) -> bool:
    """Whether ``printable`` would change `text`."""
    return _UNSAFE.search(text) is not None


def quoted(text: str) -> str:
    """A label or id as a JSON string, as the core's messages quote them,
    made printable."""
    return printable(json_string(text))


json_string = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(text, ensure_ascii=False)``, without making an encoder per call."""


def plural(count: int, noun: str) -> str:
    """``1 tool``, ``12,000 tools``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def text_width(text: str) -> int:
    """Terminal columns: wide East Asian characters and most emoji take two,
    combining marks none."""
    if text.isascii():
        return len(text)  # no ASCII character is wide or combining: the common case, at C speed
    return sum(map(_CHARACTER_WIDTHS.__getitem__, text))


class _CharacterWidths(Dict[str, int]):
    """Each character's columns, looked up once: a large report shows the
    same few characters millions of times."""

    def __missing__(self, character: str) -> int:
        width = 0 if unicodedata.combining(character) else 2 if unicodedata.east_asian_width(character) in "WF" else 1
        self[character] = width
        return width


_CHARACTER_WIDTHS = _CharacterWidths()


LONGEST_SHOWN = 100
"""Characters (and columns) of an id, label or name the text format shows
whole. Real workflows (../shared/real-workflows) have ids of up to 83
characters and labels of up to 48, which stay as they are; a longer value
is cut (``shortened``), so that one long label or id, repeated on every
line of a clash, every path through its box or every violation at its
consumer, cannot make the output n times its length. The machine formats
(JSON, SARIF, JUnit) show values whole."""

ELLIPSIS = "\u2026"
"""What ends a shortened value (one column)."""


def shortened(text: str, longest: int = LONGEST_SHOWN) -> str:
    """``text``, or, when it is longer than ``longest`` characters or
    columns, its start cut to fit with ``ELLIPSIS`` (which counts): a
    value shown to people with its length bounded. Characters are counted
    as well as columns, since combining marks take none. Reads only the
    start of a long value."""
    if len(text) <= longest and (text.isascii() or text_width(text) <= longest):
        return text
    kept, columns = 0, 0
    for character in text[: longest - 1]:
        width = _CHARACTER_WIDTHS[character]
        if columns + width > longest - 1:
            break
        kept, columns = kept + 1, columns + width
    return text[:kept] + ELLIPSIS


def pad(text: str, columns: int) -> str:
    """``text`` padded with spaces to ``columns`` terminal columns."""
    return text + " " * (columns - text_width(text))


def node_id(node: str) -> str:
    """A node (or edge) id, bare when nothing in it could be misread, else
    quoted."""
    bare = _BARE_ID.fullmatch(node) and "->" not in node and not unsafe(node)
    return node if bare else quoted(node)


def source(path: Optional[str]) -> Optional[str]:
    """The file a report is about, or None when it was read from standard
    input or built without one."""
    return None if path is None or path == STDIN else path


def repo_path(path: str) -> str:
    """``path`` as GitHub names files: relative to the repository root, with
    forward slashes. CI runs toolwire from the root, so an absolute path
    inside the working directory is made relative to it; ``./`` and doubled
    separators go. Any other absolute path stays absolute."""
    pure = PurePath(path)
    if pure.is_absolute():
        try:
            pure = pure.relative_to(Path.cwd())
        except ValueError:
            pass
    return pure.as_posix()


def tool_line(tool: Tool, max_path: int = 64) -> str:
    """One tool of a CMP-9 clash and the way it arrives, printable:
    ``tool_a "Web Search" via tool_a -> box_1 -> agent_1``."""
    return f"{node_id(tool.id)} {quoted(tool.label)} via {path_words(tool.path, max_path)}"


# --- long paths -----------------------------------------------------------------


def path_words(path: Sequence[str], max_path: int) -> str:
    """``a -> b -> c``, or, for a path longer than ``max_path`` ids,
    ``a -> b -> ... 9,936 more ... -> y -> z``; ids as ``node_id`` shows them."""
    head, omitted, tail = path_ends(path, max_path)
    if not omitted:
        return " -> ".join(node_id(n) for n in head)
    return " -> ".join([*map(node_id, head), f"... {omitted:,} more ...", *map(node_id, tail)])


# --- which findings are shown ---------------------------------------------------


def edge5_violations(report: Report, limit: Optional[int] = None) -> Tuple[List[Violation], int]:
    """The first ``limit`` EDGE-5 violations of ``report`` (all when None),
    in edge order, and how many there are."""
    violations, available = edge5_prefix(report)
    take = available if limit is None else min(limit, available)
    return [violations[i] for i in range(take)], available


def finding_count(report: Report, limit: Optional[int] = None) -> int:
    """How many violation findings ``Findings(report, limit)`` yields,
    without reading any: from the counts of EDGE-5 violations (by
    bisection) and of clash groups."""
    available = edge5_prefix(report)[1] + len(report.clash_groups())
    return available if limit is None else min(limit, available)


class Findings:
    """The violation findings of ``report``, at most ``limit`` (all when
    None), in the report's order: EDGE-5 violations in edge order, then
    CMP-9 clash groups in the order of their first violations. Iterating
    reads them one at a time, as they are yielded, so a format can write
    each before the next is read; ``left_out`` is exact once they have been
    iterated.

    A format that must say how many violations are left out before it
    writes the findings calls ``left_out_first()``, which reads (and drops)
    the findings it will show to count them; only with a limit, so it reads
    at most ``limit``."""

    def __init__(self, report: Report, limit: Optional[int] = None) -> None:
        self.report = report
        self.limit = limit
        self.shown = 0
        """Findings yielded so far."""
        self.covered = 0
        """Violations the findings yielded so far stand for."""

    def __iter__(self) -> Iterator[Finding]:
        self.shown = self.covered = 0
        edge5, available = edge5_prefix(self.report)
        for i in range(available if self.limit is None else min(self.limit, available)):
            self.shown += 1
            self.covered += 1
            yield edge5[i]
        room = None if self.limit is None else self.limit - self.shown
        if room is None or room > 0:
            for group in itertools.islice(self.report.clash_groups(), room):
                self.shown += 1
                self.covered += group.count
                yield group

    @property
    def left_out(self) -> int:
        """How many violations the findings yielded leave out, exactly:
        read once they have all been iterated."""
        return self.report.violation_count - self.covered

    def left_out_first(self) -> int:
        """``left_out``, before the findings are written."""
        if self.limit is None:
            return 0  # every finding is shown, and so every violation
        for _ in self:
            pass
        return self.left_out


def violation_findings(report: Report, limit: Optional[int] = None) -> Tuple[List[Finding], int]:
    """The first ``limit`` violation findings of ``report`` (all when None),
    as a list, and how many violations (exactly) they leave out: for the
    formats that hold every finding they show (SARIF, within its cap)."""
    findings = Findings(report, limit)
    shown = list(findings)
    return shown, findings.left_out


def covered(finding: Finding) -> int:
    """How many violations a finding stands for."""
    return finding.count if isinstance(finding, ClashGroup) else 1


def listing(consumers: Sequence[str], shown: int, name: Callable[[str], str] = quoted) -> str:
    """``a, b and c``, or, when there are more than ``shown``, the first
    ``shown`` and ``and 9,997 more``; reads only the names it shows."""
    count = len(consumers)
    names = [name(consumers[i]) for i in range(min(count, shown))]
    if count > shown:
        return f"{', '.join(names)} and {count - shown:,} more"
    if count == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def group_scope(group: ClashGroup, shown: int = SHOWN_CONSUMERS) -> str:
    """``at 10,000 consumers through "box": "agent0", ... and 9,990 more``,
    printable."""
    via = "" if group.through is None else f" through {quoted(group.through)}"
    return f"at {group.count:,} consumers{via}: {listing(group.consumers, shown)}"


def group_message(group: ClashGroup, shown: int = SHOWN_CONSUMERS) -> str:
    """The first violation's message, and, for a clash at more than one
    consumer, a line naming them; printable."""
    if group.count == 1:
        return printable(group.first.message)
    return f"{printable(group.first.message)}\nthe same clash {group_scope(group, shown)}"


def finding_help(code: str, own_help: Optional[str]) -> Optional[str]:
    """What to do about a finding: its own fix when it has one, else what its
    rule says. For the formats whose reader sees no rule descriptions."""
    if own_help is not None:
        return own_help
    return RULES[code].help if code in RULES else None


# --- call findings (CMP-9 across calls, SEMANTICS section 12) ---------------------


def calls_shown(report: Report, room: Optional[int]) -> Tuple[Sequence[CallFinding], int]:
    """The call findings of ``report`` a format lists, and how many it
    leaves out: they come after the file's own findings and count as one
    finding each against ``--max-violations``, so ``room`` is what the
    limit leaves once those are shown (None: no limit)."""
    calls = report.calls
    if room is None or room >= len(calls):
        return calls, 0
    kept = max(0, room)
    return calls[:kept], len(calls) - kept


def call_room(limit: Optional[int], shown: int) -> Optional[int]:
    """What ``--max-violations`` (``limit``) leaves for call findings after
    ``shown`` findings of the file's own."""
    return None if limit is None else max(0, limit - shown)


def place(file: Optional[str], location: Optional[Location]) -> str:
    """``file:line:column`` (``file`` when the line is not known), printable:
    how every format that shows two files names a place in either."""
    name = printable(file_name(file))
    return name if location is None else f"{name}:{location.line}:{location.column}"


def part_words(part: PathPart, max_path: int) -> str:
    """``[box_1 -> agent_1]``: one workflow's stretch of a tool's path."""
    return f"[{path_words(part.nodes, max_path)}]"


def call_path_words(tool: CallTool, max_path: int, places: bool = True) -> str:
    """A tool's path across calls, ``[leaf, ..., N] => W: [I, ..., C]``
    (SEMANTICS section 12), with ``(file:line:column)`` of each part's first
    node when ``places``; printable."""
    parts = []
    for i, part in enumerate(tool.path):
        words = part_words(part, max_path)
        if i:
            words = f"{node_id(part.workflow)}: {words}"
        if places:
            first = part.locations[0] if part.locations else None
            words += f" ({place(part.file, first)})"
        parts.append(words)
    return " => ".join(parts)


def call_tool_line(tool: CallTool, home: str, max_path: int = 64) -> str:
    """One tool of a call finding and the way it arrives, printable:
    ``search "Search" of workflow shared via [search -> agent] (b.json:5:5)``."""
    words = call_path_words(tool, max_path)
    return f"{node_id(tool.id)} {quoted(tool.label)} {of_workflow(tool.workflow, home)} via {words}"


def of_workflow(workflow: str, home: str) -> str:
    """``of this workflow``, or ``of workflow "w"``, printable."""
    return "of this workflow" if workflow == home else f"of workflow {quoted(workflow)}"


def chain_lines(finding: CallFinding, longest: Optional[int] = None) -> List[str]:
    """The chain of calls, a line each, the calling node's place first, as
    a compiler says where a template was instantiated from:
    ``in a call from run_agent, which runs workflow "shared": a.json:12:5``;
    then the consumer inside, with its own place; printable. Ids and
    workflows ``shortened`` past ``longest`` when one is given (the text
    format)."""

    def cut(text: str) -> str:
        return text if longest is None else shortened(text, longest)

    lines = []
    for i, step in enumerate(finding.chain):
        workflow = "" if i == 0 else f" of workflow {quoted(cut(step.workflow))}"
        lines.append(
            f"in a call from {node_id(cut(step.node))}{workflow}, which runs workflow {quoted(cut(step.runs))}: "
            f"{place(step.file, step.location)}"
        )
    consumer = finding.consumer
    lines.append(
        f"to the consumer {node_id(cut(consumer.node))} of workflow {quoted(cut(consumer.workflow))}: "
        f"{place(consumer.file, consumer.location)}"
    )
    return lines


def chains_note(finding: CallFinding) -> Optional[str]:
    """``3 chains of calls bring this clash; the shortest is shown``, for a
    finding more than one chain brings; None otherwise."""
    if finding.chains <= 1:
        return None
    return f"{finding.chains:,} chains of calls bring this clash; the shortest is shown"


def across_calls(count: int) -> str:
    """``clash across calls`` or ``clashes across calls``: what the
    summaries call call findings."""
    return "clash across calls" if count == 1 else "clashes across calls"


def call_headline(finding: CallFinding, longest: Optional[int] = None) -> str:
    """The short form of a call finding's message, for formats that list
    the tools on lines of their own: ``2 tools reaching "agent" of workflow
    "shared" in a call from "run" share the name "search"``; printable.
    Values ``shortened`` past ``longest`` when one is given."""

    def cut(text: str) -> str:
        return quoted(text if longest is None else shortened(text, longest))

    consumer = finding.consumer
    start = f" in a call from {cut(finding.chain[0].node)}" if finding.chain else ""
    return (
        f"{len(finding.tools)} tools reaching {cut(consumer.node)} of workflow {cut(consumer.workflow)}"
        f"{start} share the name {cut(finding.name)}"
    )


# --- counts by code -----------------------------------------------------------------


def code_counts_of(run: Any) -> Dict[str, int]:
    """The findings of each code over a run (a ``Run``): as the CLI counted
    them before ``--quiet`` took warnings out, or else from its reports."""
    return dict(run.counts) if run.counts is not None else code_counts(run.reports)


def counts_text(counts: Dict[str, int]) -> str:
    """``CMP-9: 12, EDGE-5: 1, NAME-LOSSY: 81,407``."""
    return ", ".join(f"{code}: {n:,}" for code, n in counts.items())


def reported_codes(run: Any) -> List[str]:
    """The codes a run reports (``--select``/``--ignore``): every code when
    it does not say."""
    return list(RULES) if run.codes is None else list(run.codes)


NODE_TYPES_UNCHECKED = "CMP-10 not checked: no node-type catalogue (--node-types)"
"""What the formats say of a run whose files were checked without a
node-type catalogue: tools wired to nodes that cannot take them went
unnoticed (SEMANTICS 11)."""


def node_types_unchecked(run: Any) -> int:
    """How many of a run's checked files were checked without a node-type
    catalogue, so without CMP-10; 0 when the run does not report CMP-10
    (``--ignore CMP-10``)."""
    if "CMP-10" not in reported_codes(run):
        return 0
    return sum(1 for r in run.reports if r.stats is not None and not r.stats.node_types_checked)


def not_reported(run: Any) -> List[str]:
    """The codes ``--select``/``--ignore`` leave out of a run, in the order
    of ``RULES``."""
    reported = set(reported_codes(run))
    return [code for code in RULES if code not in reported]
