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
import io
import itertools
import json
import os
import stat
import sys
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Dict, Iterator, List, Optional, Sequence, TextIO, Tuple, TypeVar

from . import __version__, _cli_options
from ._api import Views, check_files, check_json, views_of_file, views_of_json
from ._config import ConfigError, Settings, resolve
from ._errors import WorkflowError
from ._files import replace_atomically, write_text_atomically
from ._formats import DEFAULT_MAX_CONSUMERS, DEFAULT_MAX_PATH, FORMATS, JSON_VIOLATIONS, Run, explain_format, writer
from ._formats.common import file_name, printable
from ._formats.text_format import display_path, use_colour
from ._progress import Progress, chunks, is_terminal
from ._records import ConsumerView
from ._report import Report, failed_report

if TYPE_CHECKING:
    from ._fix import FileFix

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
        help="write the suggested CMP-9 renames into the JSON files (only the labels' bytes change; each file is "
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
    check.set_defaults(handler=_run_check)

    explain = commands.add_parser(
        "explain",
        help="list the tools each consumer gets",
        description="Show what each consumer of a workflow will be given: its tools flattened through "
        "toolboxes, with each tool's name, label, node id and path. Exit 0 when every file was explained, "
        "whatever it holds (explain gives no verdict: check does); 2 when a file could not be read or checked, "
        "has no node --consumer names, or the command line or configuration is wrong.",
    )
    explain.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="workflow JSON files, each explained in turn ('-' reads standard input; text only for several)",
    )
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
        return failed_report("-", e)
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
            from .dask._cluster import check_paths as check_on_dask

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


def _same_file_as_output(output: Optional[str], inputs: Sequence[str]) -> Optional[str]:
    """The first of `inputs` that is the file `output` names, by identity
    (device and inode: whatever the spelling, through symlinks and hard
    links), ``-`` standing for what standard input reads; None when there is
    none. Looks at no file's contents. Only an existing regular file can be
    overwritten, so any other output (a new file, /dev/null, a pipe) is
    never one."""
    if output is None:
        return None
    try:
        target = os.stat(output)
    except OSError:
        return None
    if not stat.S_ISREG(target.st_mode):
        return None
    for path in inputs:
        try:
            found = os.fstat(sys.stdin.fileno()) if path == "-" else os.stat(path)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            continue  # not a file here (a URL, a glob, a closed or captured stdin): nothing to overwrite
        if os.path.samestat(found, target):
            return path
    return None


def _refuse_output_input(output: Optional[str], inputs: Sequence[str], what: str = "the input") -> None:
    """Raises ``_Refused`` when writing the report to `output` would
    overwrite one of the `inputs` (`what` says what they are)."""
    same = _same_file_as_output(output, inputs)
    if same is None:
        return
    if same == "-":
        named = "the file standard input reads"
    else:
        named = f"{what} {same}" if same == output else f"{what} {same} (the same file)"
    raise _Refused(f"--output {output} is {named}: writing the report there would overwrite it; choose another file")


def _refuse_misused_inputs(paths: Sequence[str], output: Optional[str], config: Optional[Path]) -> None:
    """Raises ``_Refused``, before any input is read, when standard input is
    named twice (it can be read only once) or the report would overwrite an
    input (a workflow, or the configuration file named)."""
    stdin = paths.count("-")
    if stdin > 1:
        raise _Refused(f"standard input ('-') is named {stdin} times, but it can be read only once")
    _refuse_output_input(output, paths)
    if config is not None:
        _refuse_output_input(output, [str(config)], "the configuration file")


def _deliver(output: Optional[str], write: Callable[[TextIO], None]) -> bool:
    """Writes a report to standard output or, atomically, to `output`.
    False (after saying why on stderr) when the file cannot be written."""
    if output is None:
        write(sys.stdout)
        return True
    try:
        write_text_atomically(output, write)
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
    refusal = _fix_refusal(args)
    if refusal is not None:
        sys.stderr.write(f"toolwire: {refusal}\n")
        return EXIT_ERROR
    try:
        _refuse_misused_inputs(args.paths, args.output, args.config)
        settings = _settings(args)
    except (_Refused, ConfigError) as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return EXIT_ERROR
    format = _pick(args.format, settings.format, "text")
    options = _options(args, settings)
    selection = _cli_options.selection(args, settings)
    _cli_options.tell(args, settings, options, selection.codes)
    try:
        with _cluster(args.dask) as cluster:
            paths = args.paths
            if cluster is not None:
                paths = _expanded(args.paths)
                _refuse_output_input(args.output, paths)  # a directory or glob given may hold it
            started = time.perf_counter()
            reports = _check_all(paths, _pick(args.jobs, settings.jobs, None), options, cluster)
            elapsed = time.perf_counter() - started
    except _Refused as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return EXIT_ERROR
    if args.diff:
        return _show_fixes(reports, options, args.output)
    fix_failed = False
    if args.fix:
        reports, fix_failed = _apply_fixes(reports, options)
    strict = _pick(args.strict, settings.strict, False)
    # What --select, --ignore and --quiet leave out is gone from here on:
    # from every format, and from the exit status.
    reports, counts, hidden = _cli_options.narrowed(reports, selection, _pick(args.quiet, settings.quiet, False), strict)
    run = Run(
        reports,
        elapsed=elapsed,
        timing=args.timing,
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
        _say_errors(reports)
    if fix_failed or any(r.error is not None for r in reports):
        return EXIT_ERROR
    if any(run.failed(r) for r in reports) and not args.exit_zero:
        return EXIT_REFUSED
    return EXIT_ACCEPTED


def _fix_refusal(args: argparse.Namespace) -> Optional[str]:
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
        if path.lower().endswith((".yml", ".yaml")):
            return f"{option}: {path} is YAML, and toolwire reads only JSON for now, so it cannot fix it"
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


def _apply_fixes(reports: Sequence[Report], options: Dict[str, Any]) -> "Tuple[List[Report], bool]":
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
        out.append(report if fixed is None else Report(fixed.violations, fixed.warnings, fixed.stats, path=report.path))
    return out, failed


def _show_fixes(reports: Sequence[Report], options: Dict[str, Any], output: Optional[str]) -> int:
    """``--diff``: every file's fix as a unified diff, nothing written.
    Exit 1 when there is a change, 0 when there is none, 2 when a file
    could not be checked or fixed."""
    from ._fix import unified_diff

    _say_errors(reports)
    failed = any(report.error is not None for report in reports)
    diffs = []
    for path, fix, _ in _fixes(reports, options):
        if fix is None:
            failed = True
        elif fix.after != fix.before:
            diffs.append(unified_diff(path, fix.before, fix.after))

    def write(out: TextIO) -> None:
        out.writelines(diffs)

    if not _deliver(output, write) or failed:
        return EXIT_ERROR
    return EXIT_REFUSED if diffs else EXIT_ACCEPTED


def _say_errors(reports: Sequence[Report]) -> None:
    """Each file that could not be checked, on stderr, where it went wrong."""
    for report in reports:
        if report.error is not None:
            error = report.to_dict()["error"]
            where = f":{error['line']}:{error['column']}" if error["line"] is not None else ""
            sys.stderr.write(f"{display_path(report.path)}{where}: error: {printable(error['message'])}\n")


def _run_explain(args: argparse.Namespace) -> int:
    """Explains each file in turn, writing each consumer's block as soon as
    the core has made its view; a file that cannot be explained is said on
    stderr and the others still are."""
    if args.paths.count("-") > 1:
        sys.stderr.write("toolwire: explain: standard input ('-') can be read only once\n")
        return EXIT_ERROR
    if args.format == "json" and len(args.paths) > 1:
        sys.stderr.write(
            "toolwire: explain --format json explains one PATH (its output is one document for one "
            f"workflow); got {len(args.paths)}: run it once per file, or use the text format\n"
        )
        return EXIT_ERROR
    try:
        _refuse_misused_inputs(args.paths, args.output, args.config)
        settings = _settings(args)
    except (_Refused, ConfigError) as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return EXIT_ERROR
    options = _options(args, settings)
    _cli_options.tell(args, settings, options)
    write = explain_format.write_json if args.format == "json" else explain_format.write_text
    failed = 0

    def explained() -> Iterator[Tuple[str, Views]]:
        # Each file is read and parsed only when the one before is written:
        # one graph in memory at a time.
        nonlocal failed
        for path in args.paths:
            views = _explain_one(path, args.consumer, options)
            if views is None:
                failed += 1
            else:
                yield path, views

    files = explained()
    first = next(files, None)
    if first is None:
        return EXIT_ERROR  # nothing to write, so no --output file either
    # The bar (on stderr) and the views written to that same terminal would
    # garble each other's lines: there, the views coming out are the progress.
    bar = None if args.output is not None or not is_terminal(sys.stdout) else False

    def write_all(out: TextIO) -> None:
        for i, (path, views) in enumerate(itertools.chain([first], files)):
            if i:
                out.write("\n")  # a blank line between files, as between consumers
            with Progress(views.count, "explaining", unit="consumers", enabled=bar) as progress:
                # Standard input is <stdin> in every format.
                write(file_name(path), _as_written(views, out, progress), out)

    if not _deliver(args.output, write_all):
        return EXIT_ERROR
    return EXIT_ERROR if failed else EXIT_ACCEPTED


def _as_written(views: Views, out: TextIO, progress: Progress) -> Iterator[ConsumerView]:
    """The views one by one; once the writer has written a chunk's last and
    asks for more, the output is flushed, so it follows the views as the
    core makes them, and the bar advances."""
    for chunk in views:
        yield from chunk
        out.flush()
        progress.advance(len(chunk))


def _explain_one(path: str, consumer: Optional[str], options: Dict[str, Any]) -> Optional[Views]:
    """The views of one file, as they are made, or None after saying on
    stderr why there are none (errors in the input come before any view)."""
    try:
        if path == "-":
            return views_of_json(sys.stdin.buffer.read(), consumer, **options)
        return views_of_file(path, consumer, **options)
    except OSError as e:
        sys.stderr.write(f"{display_path(path)}: error: cannot read the file: {e.strerror or e}\n")
    except WorkflowError as e:
        where = f":{e.line}:{e.column}" if e.line is not None else ""
        sys.stderr.write(f"{display_path(path)}{where}: error: {printable(e.message)}\n")
    except LookupError as e:
        sys.stderr.write(f"{display_path(path)}: error: {printable(str(e))}\n")
    return None


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
