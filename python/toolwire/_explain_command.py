"""``toolwire explain`` as it runs: each file in turn read and flattened by
the core, each consumer's view written as soon as it is made (so the output
follows the core, one graph in memory at a time), and a file that cannot be
explained said on stderr while the others still are."""

from __future__ import annotations

import argparse
import itertools
import sys
from typing import Any, Dict, Iterator, Optional, TextIO, Tuple

from . import _cli_options
from . import _catalogue
from ._api import Views, views_of_file, views_of_json
from ._command_io import (
    EXIT_ACCEPTED,
    EXIT_ERROR,
    Refused,
    checked_settings,
    deliver,
    file_format,
    refuse_output_input,
    stdin_format,
)
from ._errors import WorkflowError
from ._formats import explain_format
from ._formats.common import file_name, printable
from ._formats.text_format import display_path
from ._paths import expand
from ._progress import Progress, is_terminal
from ._records import ConsumerView


def run_explain(args: argparse.Namespace) -> int:
    """Explains each file in turn, writing each consumer's block as soon as
    the core has made its view; a file that cannot be explained is said on
    stderr and the others still are."""
    if args.paths.count("-") > 1:
        sys.stderr.write("toolwire: explain: standard input ('-') can be read only once\n")
        return EXIT_ERROR
    settings = checked_settings(args)
    if settings is None:
        return EXIT_ERROR
    # A directory or glob stands for its workflow files (_paths), each
    # explained in turn.
    expansion = expand(args.paths)
    found = expansion.found
    if args.format == "json" and len(found) > 1:
        sys.stderr.write(
            "toolwire: explain --format json explains one workflow file (its output is one document for one "
            f"workflow); {' '.join(args.paths)} stand{'s' if len(args.paths) == 1 else ''} for {len(found)}: "
            "run it once per file, or use the text format\n"
        )
        return EXIT_ERROR
    try:
        refuse_output_input(args.output, expansion.files)
    except Refused as e:
        sys.stderr.write(f"toolwire: {e}\n")
        return EXIT_ERROR
    options: Dict[str, Any] = dict(_cli_options.types(args, settings))
    node_types = args.node_types if args.node_types is not None else settings.node_types
    _cli_options.tell(args, settings, options, node_types=node_types)
    try:
        catalogue = _catalogue.load(node_types, "--node-types")
    except (WorkflowError, OSError, ValueError, TypeError) as e:
        sys.stderr.write(f"toolwire: --node-types: {e}\n")
        return EXIT_ERROR
    own = _catalogue.DirectoryCatalogues()  # each directory's own node types, read once
    write = explain_format.write_json if args.format == "json" else explain_format.write_text
    failed = 0

    def explained() -> Iterator[Tuple[str, Views]]:
        # Each file is read and parsed only when the one before is written:
        # one graph in memory at a time.
        nonlocal failed
        for entry in found:
            path = entry.path
            if entry.error is not None:
                sys.stderr.write(f"{display_path(path)}: error: {printable(entry.error.message)}\n")
                failed += 1
                continue
            used = catalogue
            if used is None:
                used = own.of(entry.directory)
                if isinstance(used, Exception):
                    sys.stderr.write(f"{display_path(path)}: error: {printable(str(used))}\n")
                    failed += 1
                    continue
            views = _explain_one(path, args.consumer, {**options, "node_types": used}, args.input_format)
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

    if not deliver(args.output, write_all):
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


def _explain_one(
    path: str, consumer: Optional[str], options: Dict[str, Any], input_format: str = "auto"
) -> Optional[Views]:
    """The views of one file, as they are made, or None after saying on
    stderr why there are none (errors in the input come before any view).
    `input_format`: ``--input-format``."""
    try:
        if path == "-":
            text = sys.stdin.buffer.read()
            return views_of_json(text, consumer, **options, input_format=stdin_format(input_format))
        return views_of_file(path, consumer, **options, input_format=file_format(input_format))
    except OSError as e:
        sys.stderr.write(f"{display_path(path)}: error: cannot read the file: {e.strerror or e}\n")
    except WorkflowError as e:
        where = f":{e.line}:{e.column}" if e.line is not None else ""
        sys.stderr.write(f"{display_path(path)}{where}: error: {printable(e.message)}\n")
    except LookupError as e:
        sys.stderr.write(f"{display_path(path)}: error: {printable(str(e))}\n")
    return None
