"""``toolwire check`` and ``toolwire explain``: the command-line front end.

Exit status of ``check``: 0 when every file is accepted, 1 when any is
refused (or, under ``--strict``, has a warning), 2 when any file could not be
checked or the command line or configuration is wrong. Every file is checked
and reported whatever happens to the others.

Options come from the command line, then ``[tool.toolwire]`` in the nearest
pyproject.toml (see ``_config``), then the defaults.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, TextIO, TypeVar

from . import __version__, _cli_options
from ._api import check_files, check_json, explain_file, explain_json
from ._config import ConfigError, Settings, resolve
from ._errors import WorkflowError
from ._formats import DEFAULT_MAX_CONSUMERS, DEFAULT_MAX_PATH, FORMATS, JSON_VIOLATIONS, Run, explain_format, writer
from ._formats.text_format import display_path, use_colour
from ._progress import Progress, chunks
from ._report import Report

EXIT_ACCEPTED, EXIT_REFUSED, EXIT_ERROR = 0, 1, 2

T = TypeVar("T")


def _shared_options(parser: argparse.ArgumentParser) -> None:
    """Options that `check` and `explain` both take."""
    _cli_options.add_type_options(parser)
    _cli_options.add_verbose_option(parser)
    parser.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        help="write the report to FILE instead of standard output; the file appears whole or not at all",
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
    check.add_argument("paths", nargs="+", metavar="PATH", help="workflow JSON files ('-' reads standard input)")
    check.add_argument("--format", choices=FORMATS, default=None, help="report format (default: text)")
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
        "on this machine; each PATH may then also be a glob or a directory, local or an fsspec URL (s3://bucket/"
        "flows/), standing for the .json files below it (needs toolwire[dask])",
    )
    check.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when a workflow is refused (input errors still exit 2)"
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
    check.set_defaults(handler=_run_check)

    explain = commands.add_parser(
        "explain",
        help="list the tools each consumer gets",
        description="Show what each consumer of a workflow will be given: its tools flattened through "
        "toolboxes, with each tool's name, label, node id and path.",
    )
    explain.add_argument("path", metavar="PATH", help="a workflow JSON file ('-' reads standard input)")
    explain.add_argument("--consumer", metavar="ID", help="only this node (a toolbox shows what it forwards)")
    explain.add_argument("--format", choices=("text", "json"), default="text", help="(default: text)")
    _shared_options(explain)
    explain.set_defaults(handler=_run_explain)

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


def _pick(given: Optional[T], configured: Optional[T], default: T) -> T:
    """Command line, then configuration file, then default: the first one set."""
    if given is not None:
        return given
    return configured if configured is not None else default


def _settings(args: argparse.Namespace) -> Settings:
    return Settings() if args.no_config else resolve(args.config, Path.cwd())


def _options(args: argparse.Namespace, settings: Settings) -> Dict[str, Any]:
    return dict(_cli_options.types(args, settings))


def _check_stdin(options: Dict[str, Any]) -> Report:
    try:
        report = check_json(sys.stdin.buffer.read(), **options)
    except WorkflowError as e:
        return Report._failed("-", e)
    return Report(report.violations, report.warnings, report.stats, path="-")


# Files per check_files() call while a progress bar is shown: enough to keep
# every thread busy between updates.
_PROGRESS_CHUNK = max(64, 8 * (os.cpu_count() or 1))


def _check_all(
    paths: Sequence[str], jobs: Optional[int], options: Dict[str, Any], cluster: Optional[Any] = None
) -> List[Report]:
    """One report per path, in order: checked here, or by the Dask client
    `cluster` (whose paths are already expanded)."""
    files = [p for p in paths if p != "-"]
    with Progress(len(files), "checking", unit="files") as bar:
        if cluster is not None:
            from .dask import _check_files as check_on_dask

            reports = check_on_dask(files, cluster, None, options, bar.advance)
        elif bar.enabled and len(files) > _PROGRESS_CHUNK:
            reports = []
            for chunk in chunks(files, _PROGRESS_CHUNK):
                reports.extend(check_files(chunk, jobs=jobs, **options))
                bar.advance(len(chunk))
        else:
            reports = check_files(files, jobs=jobs, **options)
    by_path = iter(reports)
    # Standard input is read once, in its place in the list, after the bar
    # is gone.
    return [_check_stdin(options) if p == "-" else next(by_path) for p in paths]


@contextlib.contextmanager
def _cluster(spec: Optional[str]) -> Iterator[Optional[Any]]:
    """A Dask client for ``--dask``, or None without it. toolwire.dask (and
    dask) are imported only here, so a local run starts as fast as ever.
    Raises ``_Refused`` when there is no cluster to be had."""
    if spec is None:
        yield None
        return
    try:
        from .dask import _cli
    except ImportError as e:
        raise _Refused(f"--dask: {e}") from None
    try:
        with _cli.connect(spec) as client:
            yield client
    except _cli.ClusterError as e:
        raise _Refused(str(e)) from None


class _Refused(Exception):
    """The command line asks for what cannot be done; the message says why."""


def _expanded(paths: Sequence[str]) -> List[str]:
    """``--dask``: globs, directories and URL prefixes as the files they name."""
    from .dask._cli import expand

    return expand(paths)


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


def _deliver(output: Optional[str], write: Callable[[TextIO], None]) -> bool:
    """Writes a report to standard output or, atomically, to `output`.
    False (after saying why on stderr) when the file cannot be written."""
    if output is None:
        write(sys.stdout)
        return True
    try:
        _write_atomically(output, write)
    except OSError as e:
        sys.stderr.write(f"toolwire: cannot write {output}: {e.strerror or e}\n")
        return False
    return True


def _run_check(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        sys.stderr.write("toolwire: --jobs must be at least 1\n")
        return EXIT_ERROR
    if args.jobs is not None and args.dask is not None:
        sys.stderr.write("toolwire: --jobs and --dask do not go together: on a cluster its workers check the files\n")
        return EXIT_ERROR
    try:
        settings = _settings(args)
    except ConfigError as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return EXIT_ERROR
    format = _pick(args.format, settings.format, "text")
    options = _options(args, settings)
    selection = _cli_options.selection(args, settings)
    _cli_options.tell(args, settings, options, selection.codes)
    try:
        with _cluster(args.dask) as cluster:
            paths = args.paths if cluster is None else _expanded(args.paths)
            started = time.perf_counter()
            reports = _check_all(paths, _pick(args.jobs, settings.jobs, None), options, cluster)
            elapsed = time.perf_counter() - started
    except _Refused as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return EXIT_ERROR
    strict = _pick(args.strict, settings.strict, False)
    # What --select, --ignore and --quiet leave out is gone from here on:
    # from every format, and from the exit status.
    reports, counts, hidden = _cli_options.narrowed(reports, selection, _pick(args.quiet, settings.quiet, False), strict)
    run = Run(
        reports,
        elapsed=elapsed,
        strict=strict,
        # Colour only for a person at a terminal, never into a file.
        colour=format == "text" and args.output is None and use_colour(sys.stdout, os.environ),
        # 0 means no limit, as for GCC's -fmax-errors.
        max_violations=_pick(args.max_violations, settings.max_violations, 0) or None,
        max_path=_pick(args.max_path, settings.max_path, DEFAULT_MAX_PATH),
        json_violations=_pick(args.json_violations, settings.json_violations, JSON_VIOLATIONS[0]),
        max_consumers=_pick(args.max_consumers, settings.max_consumers, DEFAULT_MAX_CONSUMERS),
        quiet=_pick(args.quiet, settings.quiet, False),
        hidden_warnings=hidden,
        counts=counts,
        codes=selection.codes,
        config_file=settings.shown_source(),
        edge_types=_cli_options.recognised(options["edge_types"]),
        passthrough_types=options["passthrough_types"],
    )
    write = writer(format)
    if not _deliver(args.output, lambda out: write(run, out)):
        return EXIT_ERROR
    # The text report on a terminal already shows input errors; anywhere
    # else a person reading the log still needs to see them.
    if format != "text" or args.output is not None:
        for report in reports:
            if report.error is not None:
                error = report.to_dict()["error"]
                where = f":{error['line']}:{error['column']}" if error["line"] is not None else ""
                sys.stderr.write(f"{display_path(report.path)}{where}: error: {error['message']}\n")
    if any(r.error is not None for r in reports):
        return EXIT_ERROR
    if any(run.failed(r) for r in reports) and not args.exit_zero:
        return EXIT_REFUSED
    return EXIT_ACCEPTED


def _run_explain(args: argparse.Namespace) -> int:
    try:
        settings = _settings(args)
    except ConfigError as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return EXIT_ERROR
    options = _options(args, settings)
    _cli_options.tell(args, settings, options)
    try:
        if args.path == "-":
            views = explain_json(sys.stdin.buffer.read(), consumer=args.consumer, **options)
        else:
            views = explain_file(args.path, consumer=args.consumer, **options)
    except OSError as e:
        sys.stderr.write(f"{display_path(args.path)}: error: cannot read the file: {e.strerror or e}\n")
        return EXIT_ERROR
    except WorkflowError as e:
        where = f":{e.line}:{e.column}" if e.line is not None else ""
        sys.stderr.write(f"{display_path(args.path)}{where}: error: {e.message}\n")
        return EXIT_ERROR
    except LookupError as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return EXIT_ERROR
    write = explain_format.write_json if args.format == "json" else explain_format.write_text
    if not _deliver(args.output, lambda out: write(args.path, views, out)):
        return EXIT_ERROR
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
