"""``toolwire check --fix`` and ``--diff`` as the command runs them: which
command lines cannot be fixed, each clashing file read again and its fix
made (by ``_fix``, imported only when there is a clash to fix), then the
fixed files written (``--fix``) or the changes shown as a diff (``--diff``).
What a fix changes in a file's text is ``_fix``'s."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from functools import partial
from typing import TYPE_CHECKING, Any, BinaryIO, Dict, Iterator, List, Optional, Sequence, TextIO, Tuple

from ._api import check_json
from ._command_io import EXIT_ACCEPTED, EXIT_ERROR, EXIT_REFUSED, deliver, is_yaml, say_errors
from ._errors import WorkflowError
from ._files import replace_atomically
from ._formats.text_format import display_path
from ._report import Chained, Report

if TYPE_CHECKING:
    from ._fix import FileFix


def fix_refusal(args: argparse.Namespace) -> Optional[str]:
    """Why ``--fix`` or ``--diff`` cannot be done on this command line, or
    None: said before anything is read."""
    if not (args.fix or args.diff):
        return None
    option = "--diff" if args.diff else "--fix"
    if "-" in args.paths:
        return f"{option} rewrites files: it cannot fix standard input ('-'); give the workflow as a file"
    if args.dask is not None:
        return f"{option} and --dask do not go together: the files are fixed here, not on a cluster"
    for path in args.paths:
        if is_yaml(path, args.input_format):
            return (
                f"{option}: {path} is read as YAML: toolwire checks YAML but rewrites only JSON files, "
                "so it cannot fix it (check it without the option to see the renames)"
            )
    return None


def _has_clash(report: Report) -> bool:
    return report.error is None and next(iter(report.clash_groups()), None) is not None


def _fix_of(path: str, options: Dict[str, Any]) -> "Tuple[FileFix, Report]":
    """The fix of the file at `path` and the report of the fixed text. The
    file is read and checked again here, so the fix is made from exactly
    the text it changes."""
    from ._fix import fix_text

    with open(path, "rb") as f:
        data = f.read()
    fix = fix_text(data.decode("utf-8"), check_json(data, **options))
    fixed = check_json(fix.after.encode("utf-8"), **options)
    return fix, Report(fixed.violations, fixed.warnings, fixed.stats, path=path)


def _fixes(
    reports: Sequence[Report], options: Dict[str, Any]
) -> "Iterator[Tuple[str, Optional[FileFix], Optional[Report]]]":
    """Each file with a CMP-9 clash, once however often it is named: its
    path, its fix and the report of the fixed text; or, when it cannot be
    fixed, None twice (after saying why on stderr)."""
    from ._fix import FixError

    seen = set()
    for report in reports:
        path = report.path
        if path is None or not _has_clash(report) or os.path.realpath(path) in seen:
            continue
        seen.add(os.path.realpath(path))
        try:
            fix, fixed = _fix_of(path, options)
        except (OSError, UnicodeDecodeError, WorkflowError, FixError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else e
            sys.stderr.write(f"{display_path(path)}: error: cannot fix the file: {why}\n")
            yield path, None, None
            continue
        for rename, reason in fix.skipped:
            node = json.dumps(rename.node, ensure_ascii=False)
            sys.stderr.write(f"{display_path(path)}: cannot rename {node}: {reason}\n")
        yield path, fix, fixed


def _write_bytes(data: bytes, out: BinaryIO) -> None:
    out.write(data)


def apply_fixes(reports: Sequence[Report], options: Dict[str, Any]) -> "Tuple[List[Report], bool]":
    """``--fix``: writes each file's fix, and gives the reports with each
    fixed file's report of its fixed text; True when a file could not be
    fixed."""

    fixed_reports: Dict[str, Report] = {}
    failed = False
    for path, fix, fixed in _fixes(reports, options):
        if fix is None or fixed is None:
            failed = True
            continue
        if fix.after != fix.before:
            try:
                replace_atomically(path, partial(_write_bytes, fix.after.encode("utf-8")))
            except OSError as e:
                sys.stderr.write(f"{display_path(path)}: error: cannot write the fixed file: {e.strerror or e}\n")
                failed = True
                continue
            count = len(fix.applied)
            sys.stderr.write(f"{display_path(path)}: fixed {count} label{'s' if count != 1 else ''}\n")
        fixed_reports[os.path.realpath(path)] = fixed
    out = []
    for report in reports:
        fixed = fixed_reports.get(os.path.realpath(report.path)) if report.path and report.error is None else None
        out.append(report if fixed is None else _fixed_report(report, fixed))
    return out, failed


def _fixed_report(report: Report, fixed: Report) -> Report:
    """The report of a fixed file: the fixed text's own findings, and, from
    a site check, the clashes across calls and site warnings found before
    the fix (a fix renames within its file only; decision 21)."""
    warnings = fixed.warnings
    if isinstance(report.warnings, Chained):
        warnings = Chained(fixed.warnings, report.warnings.then)
    return dataclasses.replace(report, violations=fixed.violations, warnings=warnings, stats=fixed.stats)


def show_fixes(reports: Sequence[Report], options: Dict[str, Any], output: Optional[str]) -> int:
    """``--diff``: every file's fix as a unified diff, nothing written.
    Exit 1 when there is a change, 0 when there is none, 2 when a file
    could not be checked or fixed."""
    from ._fix import unified_diff

    say_errors(reports)
    failed = any(report.error is not None for report in reports)
    diffs = []
    for path, fix, _ in _fixes(reports, options):
        if fix is None:
            failed = True
        elif fix.after != fix.before:
            diffs.append(unified_diff(path, fix.before, fix.edits))

    def write(out: TextIO) -> None:
        out.writelines(diffs)

    if not deliver(output, write) or failed:
        return EXIT_ERROR
    return EXIT_REFUSED if diffs else EXIT_ACCEPTED
