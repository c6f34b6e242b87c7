"""``toolwire check`` as it runs: the command line's settings resolved, the
files checked (here in threads, or on a Dask cluster with ``--dask``, a
progress bar on a terminal), ``--fix`` or ``--diff`` handed to
``_fix_command``, then the reports narrowed, written in their format and
turned into the exit status (``cli`` says which). Every file is checked and
reported whatever happens to the others.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from typing import Any, Dict, Iterator, List, Optional, Sequence

from . import _catalogue, _cli_options
from ._api import check_found, check_json, check_yaml, threads_for
from ._cli_options import pick
from ._command_io import (
    EXIT_ACCEPTED,
    EXIT_ERROR,
    EXIT_REFUSED,
    Refused,
    checked_settings,
    deliver,
    file_format,
    stdin_format,
    refuse_output_input,
    say_errors,
)
from ._errors import CatalogueError, WorkflowError
from ._fix_command import apply_fixes, fix_refusal, show_fixes
from ._formats import DEFAULT_MAX_CONSUMERS, DEFAULT_MAX_PATH, JSON_VIOLATIONS, Run, writer
from ._formats.text_format import use_colour
from ._paths import STDIN, Expansion, Found, expand
from ._progress import Progress
from ._report import Report, failed_report


def _check_stdin(options: Dict[str, Any], input_format: str = "auto") -> Report:
    check_text = check_yaml if stdin_format(input_format) == "yaml" else check_json
    try:
        report = check_text(sys.stdin.buffer.read(), **options)
    except WorkflowError as e:
        return failed_report("-", e)
    return Report(report.violations, report.warnings, report.stats, path="-")


# Files per check_files() call while a progress bar is shown: enough to keep
# every thread busy between updates.
_PROGRESS_CHUNK = max(64, 8 * (os.cpu_count() or 1))


def check_all(
    found: Sequence[Found],
    jobs: Optional[int],
    options: Dict[str, Any],
    cluster: Optional[Any] = None,
    input_format: str = "auto",
) -> List[Report]:
    """One report per entry of the expanded PATHs, in order: checked here,
    or by the Dask client `cluster`; a PATH that stands for no file
    (``PathError``) reported as it is. `input_format`: ``--input-format``."""
    files = [f for f in found if f.path != STDIN]
    threads = threads_for(jobs)
    fmt = file_format(input_format)
    passthrough, edges = list(options["passthrough_types"]), list(options["edge_types"])
    catalogue = options.get("node_types")
    own_catalogues = _catalogue.DirectoryCatalogues()  # each directory's node types, read once
    with Progress(len(files), "checking", unit="files") as bar:
        if cluster is not None:
            from .dask._cluster import check_paths as check_on_dask

            reports = check_on_dask([], cluster, None, options, bar.advance, found=files)
            bar.advance(sum(1 for f in files if f.error is not None))  # answered without a task
        else:
            # A site is checked whole (its calls cross its files); other
            # files in chunks, so that the bar moves.
            chunk = _PROGRESS_CHUNK if bar.enabled else 0
            advance = bar.advance if bar.enabled else None
            reports = check_found(files, threads, passthrough, edges, fmt, catalogue, own_catalogues, advance, chunk)
    by_path = iter(reports)
    # Standard input is read once, in its place in the list, after the bar
    # is gone; the errors of sites (SiteError) come after every file's.
    ordered = [_check_stdin(options, input_format) if f.path == STDIN else next(by_path) for f in found]
    return ordered + list(by_path)


@contextlib.contextmanager
def _cluster(spec: Optional[str]) -> Iterator[Optional[Any]]:
    """A Dask client for ``--dask``, or None without it. toolwire.dask (and
    dask) are imported only here, so a local run starts as fast as ever.
    Raises ``Refused`` when there is no cluster to be had."""
    if spec is None:
        yield None
        return
    try:
        from .dask import _cli
    except ImportError as e:
        raise Refused(f"--dask: {e}") from None
    try:
        with _cli.connect(spec) as client:
            yield client
    except _cli.ClusterError as e:
        raise Refused(str(e)) from None


def expanded(paths: Sequence[str], dask: bool) -> Expansion:
    """The files (and problems) the PATHs stand for: directories and globs
    expanded (``_paths``); with ``--dask``, URL prefixes and URL globs too.
    The whole record is kept: it says which directories were given."""
    if dask:
        from .dask._expand import expand as expand_for_dask

        return expand_for_dask(paths)
    return expand(paths)


def run_check(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 1:
        sys.stderr.write("toolwire: --jobs must be at least 1\n")
        return EXIT_ERROR
    if args.input_format != "auto" and args.dask is not None:
        sys.stderr.write(
            "toolwire: --input-format and --dask do not go together: a cluster's workers read each file by its name\n"
        )
        return EXIT_ERROR
    if args.jobs is not None and args.dask is not None:
        sys.stderr.write("toolwire: --jobs and --dask do not go together: on a cluster its workers check the files\n")
        return EXIT_ERROR
    refusal = fix_refusal(args)
    if refusal is not None:
        sys.stderr.write(f"toolwire: {refusal}\n")
        return EXIT_ERROR
    settings = checked_settings(args)
    if settings is None:
        return EXIT_ERROR
    format = pick(args.format, settings.format, "text")
    options: Dict[str, Any] = dict(_cli_options.types(args, settings))
    node_types = args.node_types if args.node_types is not None else settings.node_types
    selection = _cli_options.selection(args, settings)
    _cli_options.tell(args, settings, options, selection.codes, node_types=node_types)
    if node_types is not None:
        try:
            # Read once for every file; a cluster's workers read the files.
            catalogue = _catalogue.load(node_types, "--node-types")
        except (CatalogueError, OSError, ValueError, TypeError) as e:
            sys.stderr.write(f"toolwire: --node-types: {e}\n")
            return EXIT_ERROR
        options["node_types"] = catalogue if args.dask is None else node_types
    try:
        with _cluster(args.dask) as cluster:
            expansion = expanded(args.paths, cluster is not None)
            # A directory or glob given may hold the output file.
            refuse_output_input(args.output, expansion.files)
            started = time.perf_counter()
            reports = check_all(
                expansion.found, pick(args.jobs, settings.jobs, None), options, cluster, args.input_format
            )
            elapsed = time.perf_counter() - started
    except Refused as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return EXIT_ERROR
    if args.diff:
        return show_fixes(reports, options, args.output)
    fix_failed = False
    if args.fix:
        reports, fix_failed = apply_fixes(reports, options)
    strict = pick(args.strict, settings.strict, False)
    # What --select, --ignore and --quiet leave out is gone from here on:
    # from every format, and from the exit status.
    reports, counts, hidden = _cli_options.narrowed(reports, selection, pick(args.quiet, settings.quiet, False), strict)
    run = Run(
        reports,
        elapsed=elapsed,
        timing=args.timing,
        strict=strict,
        # Colour only for a person at a terminal, never into a file.
        colour=format == "text" and args.output is None and use_colour(sys.stdout, os.environ),
        # 0 means no limit, as for GCC's -fmax-errors.
        max_violations=pick(args.max_violations, settings.max_violations, 0) or None,
        max_path=pick(args.max_path, settings.max_path, DEFAULT_MAX_PATH),
        json_violations=pick(args.json_violations, settings.json_violations, JSON_VIOLATIONS[0]),
        max_consumers=pick(args.max_consumers, settings.max_consumers, DEFAULT_MAX_CONSUMERS),
        quiet=pick(args.quiet, settings.quiet, False),
        hidden_warnings=hidden,
        counts=counts,
        codes=selection.codes,
        config_file=settings.shown_source(),
        edge_types=_cli_options.recognised(options["edge_types"]),
        passthrough_types=options["passthrough_types"],
    )
    write = writer(format)
    if not deliver(args.output, lambda out: write(run, out)):
        return EXIT_ERROR
    # The text report on a terminal already shows input errors; anywhere
    # else a person reading the log still needs to see them.
    if format != "text" or args.output is not None:
        say_errors(reports)
    if fix_failed or any(r.error is not None for r in reports):
        return EXIT_ERROR
    if any(run.failed(r) for r in reports) and not args.exit_zero:
        return EXIT_REFUSED
    return EXIT_ACCEPTED
