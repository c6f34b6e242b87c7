"""``--format json``: every file's report as one JSON document. The schema
is docs/report.schema.json; ``schema_version`` changes only when a field
changes meaning or goes away (adding fields does not change it).

Version 6 (from 5): clashes across calls (a site check, SEMANTICS section
12). A file's ``calls`` lists them after its own findings (each one
finding against ``--max-violations``), ``call_count`` counts them and
``calls_omitted`` what is not listed; ``ok`` is false when there is one,
so a file with no violation of its own may be refused. An ``error`` may
name the ``workflows`` and ``files`` of a site error (a cycle of calls).

Version 5 (from 4): CMP-10. A file's ``violations`` holds its CMP-10
violations after its EDGE-5 ones (so it no longer holds only EDGE-5 ones):
each names the receiving node (``consumer``), its ``node_type``, where the
catalogue defines it (``defined_at``) and every tool edge into it
(``edges``: ``edge``, ``edge_id``, ``source``). Whether CMP-10 was checked
(only against a node-type catalogue) is each file's and the run's
``node_types_checked``.

Version 4 (from 3): CMP-9 violations are listed by clash. A file's
``clashes`` holds each clash once (violations with the same name and the
same clashing tools), with its consumers (the first ``--max-consumers``)
and their exact number, and ``violations`` holds only the EDGE-5
violations; ``--max-violations N`` lists the first N findings (an EDGE-5
violation or a clash), as every other format counts them. A clash of one
toolbox wired into a million agents is one object instead of a million.
``--json-violations each`` lists every violation one by one instead, in
``violations``, as version 3 did, and writes no ``clashes``. The document
says which in ``listing``; every file has ``clash_count``; and
``violations_omitted`` follows the lists it counts.

Version 3 (from 2): a path longer than ``--max-path`` ids holds
``{"omitted": N}`` in place of its middle, so a path item is no longer
always a string; ``violations`` holds the first ``--max-violations`` per
file when that is given, with ``violation_count`` (always exact) and
``violations_omitted`` beside it.

The document is written as it is produced: one violation or clash at a
time, a clash's consumers a stretch at a time, straight to the stream, so
memory does not grow with the output (a report may hold ten million
violations, read from a lazy sequence). The bytes are those
``json.dump(document, indent=2, ensure_ascii=False)`` would write.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Dict, Iterable, Iterator, List, Optional, TextIO, Tuple

from .._errors import error_to_dict
from .._records import ClashGroup, Violation
from .._report import Report
from .._api import DEFAULT_EDGE_TYPES, DEFAULT_PASSTHROUGH_TYPES
from .common import (
    Findings,
    call_room,
    calls_shown,
    code_counts_of,
    file_name,
    node_types_unchecked,
    reported_codes,
)
from .run import JSON_VIOLATIONS, Run

SCHEMA_VERSION = 6

EACH = JSON_VIOLATIONS[1]

_CONSUMERS_AT_A_TIME = 4096
"""Consumers read from a clash at once while they are written: a clash may
reach millions, and ``--max-consumers 0`` lists them all."""


_scalar = json.JSONEncoder(ensure_ascii=False).encode
"""A string, number, boolean or null as JSON: one encoder made once, since
``json.dumps`` with any option makes a new one per call, and a clash may
list millions of consumers."""


def _dumps(value: Any, depth: int) -> str:
    """``value`` as ``json.dump(indent=2)`` writes it ``depth`` levels deep.
    No string holds a raw newline once encoded, so re-indenting is safe."""
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * depth)


class _Array:
    """An array whose items are made one at a time, as it is written."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = items


class _Object:
    """An object whose members are made one at a time, as it is written:
    a member after an ``_Array`` is made once the array is written, so it
    can count what the array held."""

    def __init__(self, members: Iterable[Tuple[str, Any]]) -> None:
        self.members = members


def _write(out: TextIO, value: Any, depth: int) -> None:
    """Writes ``value`` ``depth`` levels deep, as ``json.dump(indent=2)``
    would, streaming the ``_Array``s and ``_Object``s in it."""
    if isinstance(value, _Array):
        opened = False
        for item in value.items:
            out.write(",\n" if opened else "[\n")
            opened = True
            out.write("  " * (depth + 1))
            _write(out, item, depth + 1)
        out.write("\n" + "  " * depth + "]" if opened else "[]")
    elif isinstance(value, _Object):
        opened = False
        for key, member in value.members:
            out.write(",\n" if opened else "{\n")
            opened = True
            out.write("  " * (depth + 1) + _scalar(key) + ": ")
            _write(out, member, depth + 1)
        out.write("\n" + "  " * depth + "}" if opened else "{}")
    elif isinstance(value, (dict, list)):
        out.write(_dumps(value, depth))
    else:
        out.write(_scalar(value))


def _location(violation: Violation) -> Optional[Dict[str, int]]:
    return None if violation.location is None else violation.location.to_dict()


def _clash(group: ClashGroup, max_path: int, max_consumers: int) -> _Object:
    """One clash: its first violation (message, place, tools with their
    paths to its first consumer, fix), then its consumers."""
    first = group.first
    count = group.count
    listed = count if max_consumers == 0 else min(count, max_consumers)

    def consumers() -> Iterator[str]:
        for start in range(0, listed, _CONSUMERS_AT_A_TIME):
            yield from group.consumers[start : min(listed, start + _CONSUMERS_AT_A_TIME)]

    return _Object(
        [
            ("rule", first.rule),
            ("name", group.name),
            ("message", first.message),
            ("location", _location(first)),
            ("through", group.through),
            ("tools", [t.to_dict(max_path) for t in group.tools]),
            ("box_labels", dict(first.box_labels)),
            ("fix", [r.to_dict() for r in first.fix]),
            ("consumer_count", count),
            ("consumers", _Array(consumers())),
            ("consumers_omitted", count - listed),
        ]
    )


def _file(run: Run, report: Report) -> _Object:
    """One file object; its lists are written as they are read."""

    def members() -> Iterator[Tuple[str, Any]]:
        # Standard input by the name every format gives it; None stays null.
        yield "path", None if report.path is None else file_name(report.path)
        yield "ok", report.ok
        yield "error", None if report.error is None else error_to_dict(report.error)
        yield "violation_count", report.violation_count
        yield "clash_count", len(report.clash_groups())
        yield "call_count", len(report.calls)
        if run.json_violations == EACH:
            listed = _Listed(itertools.islice(report.violations, run.max_violations))
            yield "violations", _Array(v.to_dict(run.max_path) for v in listed)
            yield "violations_omitted", report.violation_count - listed.count
            room = call_room(run.max_violations, listed.count)
        else:
            # Findings come EDGE-5 violations first, then clashes: the first
            # clash read ends the one list and starts the other.
            findings = Findings(report, run.max_violations)
            items = iter(findings)
            first_clash: List[ClashGroup] = []

            def edge5() -> Iterator[Dict[str, Any]]:
                for finding in items:
                    if isinstance(finding, ClashGroup):
                        first_clash.append(finding)
                        return
                    yield finding.to_dict(run.max_path)

            def clashes() -> Iterator[_Object]:
                for finding in itertools.chain(first_clash, items):
                    if isinstance(finding, ClashGroup):  # every one is, once edge5() is done
                        yield _clash(finding, run.max_path, run.max_consumers)

            yield "violations", _Array(edge5())
            yield "clashes", _Array(clashes())
            yield "violations_omitted", findings.left_out
            room = call_room(run.max_violations, findings.shown)
        # The clashes across calls (a site check), after the file's own
        # findings: what --max-violations leaves room for.
        calls, calls_left = calls_shown(report, room)
        yield "calls", [c.to_dict(run.max_path) for c in calls]
        yield "calls_omitted", calls_left
        yield "warnings", _Array(w.to_dict() for w in report.warnings)
        # Whether CMP-10 was checked (null: the file could not be checked).
        yield "node_types_checked", None if report.stats is None else report.stats.node_types_checked
        yield "stats", None if report.stats is None else report.stats.to_dict()

    return _Object(members())


class _Listed:
    """The items of an iterable, counted as they go by."""

    def __init__(self, items: Iterable[Violation]) -> None:
        self.items = items
        self.count = 0

    def __iter__(self) -> Iterator[Violation]:
        for item in self.items:
            self.count += 1
            yield item


def write(run: Run, out: TextIO) -> None:
    ok = not any(run.failed(r) for r in run.reports)
    document = _Object(
        [
            ("schema_version", SCHEMA_VERSION),
            ("ok", ok),
            ("strict", run.strict),
            ("listing", run.json_violations),
            # What the run was asked: the configuration file read, the
            # lists the check used, what it reports.
            ("config_file", run.config_file),
            ("passthrough_types", list(run.passthrough_types or DEFAULT_PASSTHROUGH_TYPES)),
            ("edge_types", list(run.edge_types or DEFAULT_EDGE_TYPES)),
            ("codes", reported_codes(run)),
            # False when a file was checked without a node-type catalogue,
            # and so without CMP-10 (each file's stats say which).
            ("node_types_checked", node_types_unchecked(run) == 0),
            ("quiet", run.quiet),
            ("files", _Array(_file(run, r) for r in run.reports)),
            # After the files, as a summary is.
            ("code_counts", code_counts_of(run)),
        ]
    )
    _write(out, document, 0)
    out.write("\n")
