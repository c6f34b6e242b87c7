"""``toolwire check``: the command-line front end.

Exit status: 0 when every file is accepted, 1 when any is refused, 2 when any
file could not be checked or the command line is wrong. Every file is checked
and reported whatever happens to the others.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Optional, Sequence, TextIO, Union

from ._api import DEFAULT_EDGE_TYPES, DEFAULT_PASSTHROUGH_TYPES, check_file, check_json
from ._errors import WorkflowError
from ._report import Report

EXIT_ACCEPTED, EXIT_REFUSED, EXIT_ERROR = 0, 1, 2


class FileError:
    """A file that could not be checked, and why."""

    def __init__(self, path: str, message: str, line: Optional[int] = None, column: Optional[int] = None):
        self.path = path
        self.message = message
        self.line = line
        self.column = column

    def to_dict(self) -> Dict[str, Any]:
        return {
            "path": self.path,
            "ok": False,
            "error": {"message": self.message, "line": self.line, "column": self.column},
            "violations": [],
            "warnings": [],
            "stats": None,
        }


Outcome = Union[Report, FileError]


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
        help="a recognised data.edgeType; repeat for several " f"(default: {', '.join(DEFAULT_EDGE_TYPES)})",
    )
    check.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when a workflow is refused (input errors still exit 2)"
    )
    return parser


def _check_one(path: str, options: Dict[str, Any]) -> Outcome:
    try:
        if path == "-":
            report = check_json(sys.stdin.buffer.read(), **options)
            return Report(report.violations, report.warnings, report.stats, path="-")
        return check_file(path, **options)
    except WorkflowError as e:
        return FileError(path, e.message, e.line, e.column)
    except OSError as e:
        return FileError(path, f"cannot read the file: {e.strerror or e}")


def _tool_line(tool: Any) -> str:
    via = " -> ".join(tool.path[1:])
    return f'{tool.id} "{tool.label}" -> {via}'


def _write_text(outcomes: Sequence[Outcome], out: TextIO) -> None:
    refused = errors = violations = 0
    for outcome in outcomes:
        if isinstance(outcome, FileError):
            errors += 1  # described on stderr by main()
            continue
        for warning in outcome.warnings:
            out.write(f"{outcome.path}: warning {warning.code}: {warning.message}\n")
        if outcome.ok:
            out.write(f"{outcome.path}: accepted\n")
            continue
        refused += 1
        violations += len(outcome.violations)
        for v in outcome.violations:
            if v.rule == "CMP-9":
                out.write(f'{outcome.path}: {v.rule}: {len(v.tools)} tools reaching "{v.consumer}" share the name "{v.name}"\n')
                for tool in v.tools:
                    out.write(f"    {_tool_line(tool)}\n")
            else:
                out.write(f"{outcome.path}: {v.rule}: {v.message}\n")
    accepted = len(outcomes) - refused - errors
    files = f"{len(outcomes)} file{'s' if len(outcomes) != 1 else ''}"
    summary = f"{files}: {accepted} accepted, {refused} refused ({violations} violation{'s' if violations != 1 else ''})"
    if errors:
        summary += f", {errors} could not be checked"
    out.write(summary + "\n")


def _write_json(outcomes: Sequence[Outcome], out: TextIO) -> None:
    document = {
        "ok": all(isinstance(o, Report) and o.ok for o in outcomes),
        "files": [o.to_dict() for o in outcomes],
    }
    json.dump(document, out, ensure_ascii=False, indent=2)
    out.write("\n")


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    options = {
        "passthrough_types": args.passthrough_type or DEFAULT_PASSTHROUGH_TYPES,
        "edge_types": args.edge_type or DEFAULT_EDGE_TYPES,
    }
    outcomes = [_check_one(path, options) for path in args.paths]
    if args.format == "json":
        _write_json(outcomes, sys.stdout)
    else:
        _write_text(outcomes, sys.stdout)
    for outcome in outcomes:
        if isinstance(outcome, FileError):
            where = f":{outcome.line}:{outcome.column}" if outcome.line is not None else ""
            sys.stderr.write(f"{outcome.path}{where}: error: {outcome.message}\n")
    if any(isinstance(o, FileError) for o in outcomes):
        return EXIT_ERROR
    if any(not o.ok for o in outcomes) and not args.exit_zero:
        return EXIT_REFUSED
    return EXIT_ACCEPTED
