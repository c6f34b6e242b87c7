"""``toolwire check``: the command-line front end.

Exit status: 0 when every file is accepted, 1 when any is refused, 2 when any
file could not be checked or the command line is wrong. Every file is checked
and reported whatever happens to the others.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
from typing import Any, Callable, Dict, List, Optional, Sequence, TextIO

from . import generate
from ._api import DEFAULT_EDGE_TYPES, DEFAULT_PASSTHROUGH_TYPES, check_files, check_json
from ._errors import WorkflowError
from ._report import Report

EXIT_ACCEPTED, EXIT_REFUSED, EXIT_ERROR = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolwire",
        description="Find clashing tool names in FlowDrop workflows (rule CMP-9).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="check workflow files",
        description="Check workflow files. Exit 0: all accepted; 1: some refused; 2: some could not be checked.",
    )
    check.add_argument("paths", nargs="+", metavar="PATH", help="workflow JSON files ('-' reads standard input)")
    check.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    check.add_argument(
        "--passthrough-type",
        action="append",
        metavar="TYPE",
        help="a node type that forwards its tools; repeat for several "
        f"(default: {', '.join(DEFAULT_PASSTHROUGH_TYPES)})",
    )
    check.add_argument(
        "--edge-type",
        action="append",
        metavar="TYPE",
        help=f"a recognised data.edgeType; repeat for several (default: {', '.join(DEFAULT_EDGE_TYPES)})",
    )
    check.add_argument(
        "--jobs", "-j", type=int, default=None, metavar="N", help="files checked in parallel (default: one per core)"
    )
    check.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when a workflow is refused (input errors still exit 2)"
    )
    check.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the report to FILE instead of standard output; the file appears whole or not at all",
    )
    check.set_defaults(handler=_run_check)
    generate.register(commands)
    return parser


def _check_stdin(options: Dict[str, Any]) -> Report:
    try:
        report = check_json(sys.stdin.buffer.read(), **options)
    except WorkflowError as e:
        return Report._failed("-", e)
    return Report(report.violations, report.warnings, report.stats, path="-")


def _check_all(paths: Sequence[str], jobs: Optional[int], options: Dict[str, Any]) -> List[Report]:
    files = [p for p in paths if p != "-"]
    by_path = iter(check_files(files, jobs=jobs, **options))
    # Standard input is read once, in its place in the list.
    return [_check_stdin(options) if p == "-" else next(by_path) for p in paths]


def _tool_line(tool: Any) -> str:
    via = " -> ".join(tool.path[1:])
    return f'{tool.id} "{tool.label}" -> {via}'


def _write_text(reports: Sequence[Report], out: TextIO) -> None:
    refused = errors = violations = 0
    for report in reports:
        if report.error is not None:
            errors += 1  # described on stderr by _run_check
            continue
        for warning in report.warnings:
            out.write(f"{report.path}: warning {warning.code}: {warning.message}\n")
        if report.ok:
            out.write(f"{report.path}: accepted\n")
            continue
        refused += 1
        violations += len(report.violations)
        for v in report.violations:
            if v.rule == "CMP-9":
                out.write(f'{report.path}: {v.rule}: {len(v.tools)} tools reaching "{v.consumer}" share the name "{v.name}"\n')
                for tool in v.tools:
                    out.write(f"    {_tool_line(tool)}\n")
            else:
                out.write(f"{report.path}: {v.rule}: {v.message}\n")
    accepted = len(reports) - refused - errors
    files = f"{len(reports)} file{'s' if len(reports) != 1 else ''}"
    summary = f"{files}: {accepted} accepted, {refused} refused ({violations} violation{'s' if violations != 1 else ''})"
    if errors:
        summary += f", {errors} could not be checked"
    out.write(summary + "\n")


def _write_json(reports: Sequence[Report], out: TextIO) -> None:
    document = {"ok": all(r.ok for r in reports), "files": [r.to_dict() for r in reports]}
    json.dump(document, out, ensure_ascii=False, indent=2)
    out.write("\n")


def _write_atomically(path: str, write: Callable[[TextIO], None]) -> None:
    """Writes a report so that a crash or a full disk never leaves a
    truncated one that a CI step could read as clean: into a temporary file
    beside `path`, flushed to disk, then renamed over it in one step."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".toolwire-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _run_check(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        sys.stderr.write("toolwire: --jobs must be at least 1\n")
        return EXIT_ERROR
    options = {
        "passthrough_types": args.passthrough_type or DEFAULT_PASSTHROUGH_TYPES,
        "edge_types": args.edge_type or DEFAULT_EDGE_TYPES,
    }
    reports = _check_all(args.paths, args.jobs, options)
    write = _write_json if args.format == "json" else _write_text
    if args.output is None:
        write(reports, sys.stdout)
    else:
        try:
            _write_atomically(args.output, lambda out: write(reports, out))
        except OSError as e:
            sys.stderr.write(f"toolwire: cannot write {args.output}: {e.strerror or e}\n")
            return EXIT_ERROR
    for report in reports:
        if report.error is not None:
            error = report.to_dict()["error"]
            where = f":{error['line']}:{error['column']}" if error["line"] is not None else ""
            sys.stderr.write(f"{report.path}{where}: error: {error['message']}\n")
    if any(r.error is not None for r in reports):
        return EXIT_ERROR
    if any(not r.ok for r in reports) and not args.exit_zero:
        return EXIT_REFUSED
    return EXIT_ACCEPTED


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    handler: Any = args.handler
    try:
        return int(handler(args))
    except BrokenPipeError:
        # The reader went away (`toolwire check ... | head`). Point stdout at
        # /dev/null so the interpreter's final flush does not fail again, and
        # do not claim success: the verdict was not fully delivered.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_ERROR
