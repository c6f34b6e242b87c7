"""``toolwire check``, ``toolwire explain`` and ``toolwire generate``: the
command line's parser and ``main``, the entry point. What each command does
once its arguments are read is in its own module: ``_check_command`` (with
``_fix_command`` for ``--fix`` and ``--diff``), ``_explain_command`` and
``toolwire.generate.command``; what check and explain share around their
run is ``_command_io``.

Exit status of ``check``: 0 when every file is accepted, 1 when any is
refused (or, under ``--strict``, has a warning), 2 when any file could not be
checked or the command line or configuration is wrong. Every file is checked
and reported whatever happens to the others.

Options come from the command line, then ``[tool.toolwire]`` in the nearest
pyproject.toml (see ``_config``), then the defaults.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Callable, List, Optional

from . import __version__, _cli_options
from ._check_command import run_check
from ._command_io import EXIT_ERROR
from ._explain_command import run_explain
from ._command_io import INPUT_FORMATS
from ._formats import DEFAULT_MAX_CONSUMERS, DEFAULT_MAX_PATH, FORMATS, JSON_VIOLATIONS


def _shared_options(parser: argparse.ArgumentParser) -> None:
    """Options that `check` and `explain` both take."""
    _cli_options.add_type_options(parser)
    _cli_options.add_verbose_option(parser)
    parser.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the report to FILE instead of standard output; the file appears whole or not at all, "
        "and never over an input",
    )
    config = parser.add_mutually_exclusive_group()
    config.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="read the [tool.toolwire] table of FILE (default: the nearest pyproject.toml that has one, "
        "from the current directory up to the repository root)",
    )
    config.add_argument("--no-config", action="store_true", help="read no configuration file")
    parser.add_argument(
        "--input-format",
        choices=INPUT_FORMATS,
        default="auto",
        help="how to read each PATH: auto (the default) reads .yml and .yaml files as YAML (Drupal config "
        "exports) and everything else, standard input included, as JSON",
    )


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that can be filled in when it is first used: a
    subcommand's parser is used only when that subcommand is the one given,
    so ``fill(parser)`` can import what the subcommand needs then, and no
    sooner. (argparse hands a subcommand's arguments to its parser's
    ``parse_known_args``, and ``--help`` is one of them.)"""

    def __init__(self, *args: Any, fill: Optional[Callable[[argparse.ArgumentParser], None]] = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._fill = fill

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if self._fill is not None:
            fill, self._fill = self._fill, None
            fill(self)
        return super().parse_known_args(args, namespace)


def _generate_options(parser: argparse.ArgumentParser) -> None:
    """Fills in ``toolwire generate``: only when it runs is the generator
    (``toolwire.generate``, some 1,800 lines) imported."""
    from .generate import command

    command.configure(parser)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="toolwire",
        description="Find clashing tool names in FlowDrop workflows (rule CMP-9).",
    )
    parser.add_argument("--version", action="version", version=f"toolwire {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="check workflow files",
        description="Check workflow files. Exit 0: all accepted; 1: some refused; 2: some could not be checked.",
    )
    check.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="workflow files, JSON or YAML; a directory stands for the workflow files under it (*.json and "
        "flowdrop_workflow.flowdrop_workflow.*.yml/.yaml, hidden ones skipped, in sorted order), a quoted glob "
        "('config/**/*.json') for its matches; '-' reads standard input",
    )
    check.add_argument("--format", choices=FORMATS, default=None, help="report format (default: text)")
    check.add_argument(
        "--node-types",
        action="append",
        metavar="PATH",
        help="a node-type catalogue to check CMP-10 against (tools wired only to nodes whose type accepts "
        "them): the editor's node list (GET /api/flowdrop/nodes, JSON), a Drupal flowdrop_node_type config "
        "file (YAML), or a config directory holding them; repeat for several. Without one, a checked directory "
        "holding node types is its workflows' catalogue; otherwise CMP-10 is not checked, and the report says so",
    )
    check.add_argument(
        "--strict",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="warnings fail a file too (default: off)",
    )
    check.add_argument(
        "--jobs", "-j", type=int, default=None, metavar="N", help="files checked in parallel (default: one per core)"
    )
    check.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="check on a Dask cluster: a scheduler address (tcp://host:8786), or local:N for N worker processes "
        "on this machine; a PATH may then also be an fsspec URL, a URL ending in / (s3://bucket/flows/) standing "
        "for the workflow files below it, or a URL glob (needs toolwire[dask])",
    )
    check.add_argument(
        "--timing",
        action="store_true",
        help="text: say how long the check took in the summary line (left out by default, so that the same "
        "input gives the same output)",
    )
    check.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when a workflow is refused (input errors still exit 2)"
    )
    check.add_argument(
        "--fix",
        action="store_true",
        help="write the suggested CMP-9 renames into the JSON files (YAML files are refused; only the labels' bytes change; each file is "
        "replaced atomically, keeping its mode), then report what remains: exit 0 when nothing does",
    )
    check.add_argument(
        "--diff",
        action="store_true",
        help="show what --fix would change as a unified diff, and write no file: exit 1 when there is a change",
    )
    check.add_argument(
        "--max-violations",
        type=_count,
        default=None,
        metavar="N",
        help="list at most N findings per file (an EDGE-5 violation, or a clash however many consumers it "
        "reaches; json with --json-violations each: violations); the counts stay exact (default and 0: no limit)",
    )
    check.add_argument(
        "--max-path",
        type=_max_path,
        default=None,
        metavar="N",
        help=f"show a path longer than N ids as its ends and the number left out (default: {DEFAULT_MAX_PATH}; "
        "0: no limit)",
    )
    check.add_argument(
        "--json-violations",
        choices=JSON_VIOLATIONS,
        default=None,
        help="json: list each CMP-9 clash once, with its consumers (clashes, the default), or every violation, "
        "one per consumer and name (each: as large as the violations are many)",
    )
    check.add_argument(
        "--max-consumers",
        type=_count,
        default=None,
        metavar="N",
        help=f"json: list at most N consumers of each clash; the count stays exact (default: {DEFAULT_MAX_CONSUMERS}; "
        "0: no limit)",
    )
    _shared_options(check)
    _cli_options.add_selection_options(check)
    check.set_defaults(handler=run_check)

    explain = commands.add_parser(
        "explain",
        help="list the tools each consumer gets",
        description="Show what each consumer of a workflow will be given: its tools flattened through "
        "toolboxes, with each tool's name, label, node id and path; in a site, each consumer a tool input port "
        "reaches also as it is in each call into its workflow. Exit 0 when every file was explained, "
        "whatever it holds (explain gives no verdict: check does); 2 when a file could not be read or checked, "
        "has no node --consumer names, or the command line or configuration is wrong.",
    )
    explain.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="workflow files (JSON or YAML), each explained in turn; a directory or a quoted glob stands for its workflow files, "
        "as for check ('-' reads standard input; text only for several)",
    )
    explain.add_argument(
        "--node-types",
        action="append",
        metavar="PATH",
        help="a node-type catalogue, as for check: a type it says the Tool Box runs forwards its tools "
        "(without one, a directory explained that holds node types is its workflows' catalogue)",
    )
    explain.add_argument(
        "--site",
        action="append",
        metavar="PATH",
        help="the workflows (files, directories or quoted globs) of the site the files explained belong to: each "
        "consumer a workflow's tool input port reaches is also shown in each call into the workflow, with the "
        "caller's tools (default: the sites check reads, a directory explained that holds node types or the "
        "files explained with --node-types)",
    )
    explain.add_argument("--consumer", metavar="ID", help="only this node (a toolbox shows what it forwards)")
    explain.add_argument("--format", choices=("text", "json"), default="text", help="(default: text)")
    _shared_options(explain)
    explain.set_defaults(handler=run_explain)

    commands.add_parser("generate", help="write a synthetic workflow", fill=_generate_options)
    return parser


def _count(text: str) -> int:
    """``--max-violations``, ``--max-consumers``: a whole number, at least 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be at least 0 (0: no limit)")
    return value


def _max_path(text: str) -> int:
    """``--max-path``: 0, or at least 2 (a path always shows its tool and its consumer)."""
    value = _count(text)
    if value == 1:
        raise argparse.ArgumentTypeError("must be 0 (no limit) or at least 2")
    return value


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
