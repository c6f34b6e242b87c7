"""``--format json``: every file's report as one JSON document. The schema
is docs/report.schema.json; ``schema_version`` changes only when a field
changes meaning or goes away (adding fields does not change it).

Version 3 (from 2): a path longer than ``--max-path`` ids holds
``{"omitted": N}`` in place of its middle, so a path item is no longer
always a string; ``violations`` holds the first ``--max-violations`` per
file when that is given, with ``violation_count`` (always exact) and
``violations_omitted`` beside it.

The document is written as it is produced: one violation at a time, straight
to the stream, so memory does not grow with the output (a report may hold
ten million violations, read from a lazy sequence). The bytes are those
``json.dump(document, indent=2, ensure_ascii=False)`` would write.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Dict, List, Optional, TextIO

from .._report import Report, Tool, Violation, _error_to_dict
from . import Run
from .common import path_json

SCHEMA_VERSION = 3


def _dumps(value: Any, depth: int) -> str:
    """``value`` as ``json.dump(indent=2)`` writes it ``depth`` levels deep.
    No string holds a raw newline once encoded, so re-indenting is safe."""
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + "  " * depth)


def _tool(tool: Tool, max_path: int) -> Dict[str, Any]:
    return {
        "id": tool.id,
        "label": tool.label,
        "path": path_json(tool.path, max_path),
        "location": None if tool.location is None else tool.location.to_dict(),
    }


def violation_dict(violation: Violation, max_path: int = 64) -> Dict[str, Any]:
    """``Violation.to_dict()``, with each tool's path shortened to
    ``max_path`` ids (0: whole). Reads only the ends of a path."""
    if violation.rule != "CMP-9":
        return violation.to_dict()
    return {
        "rule": violation.rule,
        "consumer": violation.consumer,
        "name": violation.name,
        "message": violation.message,
        "location": None if violation.location is None else violation.location.to_dict(),
        "tools": [_tool(t, max_path) for t in violation.tools],
        "box_labels": dict(violation.box_labels),
        "fix": [r.to_dict() for r in violation.fix],
    }


def _write_file(run: Run, report: Report, out: TextIO) -> None:
    """One file object, four levels deep, violations streamed."""
    count = report.violation_count
    listed = count if run.max_violations is None else min(count, run.max_violations)
    error: Optional[Dict[str, Any]] = None if report.error is None else _error_to_dict(report.error)
    head = {
        "path": report.path,
        "ok": report.ok,
        "error": error,
        "violation_count": count,
        "violations_omitted": count - listed,
    }
    out.write("    {\n")
    for key, value in head.items():
        out.write(f"      {_dumps(key, 3)}: {_dumps(value, 3)},\n")
    if listed == 0:
        out.write('      "violations": [],\n')
    else:
        out.write('      "violations": [\n')
        for i, violation in enumerate(itertools.islice(report.violations, listed)):
            out.write(",\n" if i else "")
            out.write("        " + _dumps(violation_dict(violation, run.max_path), 4))
        out.write("\n      ],\n")
    warnings: List[Dict[str, Any]] = [w.to_dict() for w in report.warnings]
    out.write(f'      "warnings": {_dumps(warnings, 3)},\n')
    stats = None if report.stats is None else report.stats.to_dict()
    out.write(f'      "stats": {_dumps(stats, 3)}\n')
    out.write("    }")


def write(run: Run, out: TextIO) -> None:
    ok = not any(run.failed(r) for r in run.reports)
    out.write("{\n")
    out.write(f'  "schema_version": {SCHEMA_VERSION},\n')
    out.write(f'  "ok": {_dumps(ok, 1)},\n')
    out.write(f'  "strict": {_dumps(run.strict, 1)},\n')
    if not run.reports:
        out.write('  "files": []\n}\n')
        return
    out.write('  "files": [\n')
    for i, report in enumerate(run.reports):
        out.write(",\n" if i else "")
        _write_file(run, report, out)
    out.write("\n  ]\n}\n")
