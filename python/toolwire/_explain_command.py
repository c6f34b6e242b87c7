"""``toolwire explain`` as it runs: each file in turn read and flattened by
the core, each consumer's view written as soon as it is made (so the output
follows the core, one graph in memory at a time), and a file that cannot be
explained said on stderr while the others still are. A file of a site
(grouped as ``check`` groups them, or ``--site``) then gets its per-call
views, from the site's facts read once (``_explain_site``)."""

from __future__ import annotations

import argparse
import itertools
import sys
from typing import Any, Dict, Iterator, List, Optional, TextIO, Tuple

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
from ._explain_site import SiteKey, SiteViews, file_indexes, file_key, sites_of
from ._formats import explain_format
from ._formats.common import file_name, printable
from ._formats.text_format import display_path
from ._paths import expand
from ._progress import Progress, is_terminal
from ._records import CallView, ConsumerView


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
    site_of = _Sites(args, found, catalogue, own, options)
    if site_of.error is not None:
        sys.stderr.write(f"toolwire: --site: {site_of.error}\n")
        return EXIT_ERROR

    def explained() -> Iterator[Tuple[str, Views, Optional[Iterator[CallView]]]]:
        # Each file is read and parsed only when the one before is written:
        # one graph in memory at a time.
        nonlocal failed
        for i, entry in enumerate(found):
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
                yield path, views, site_of.calls(i, args.consumer)

    files = explained()
    first = next(files, None)
    if first is None:
        return EXIT_ERROR  # nothing to write, so no --output file either
    # The bar (on stderr) and the views written to that same terminal would
    # garble each other's lines: there, the views coming out are the progress.
    bar = None if args.output is not None or not is_terminal(sys.stdout) else False

    def write_all(out: TextIO) -> None:
        for i, (path, views, calls) in enumerate(itertools.chain([first], files)):
            if i:
                out.write("\n")  # a blank line between files, as between consumers
            with Progress(views.count, "explaining", unit="consumers", enabled=bar) as progress:
                # Standard input is <stdin> in every format.
                write(file_name(path), _as_written(views, out, progress), out, calls)

    if not deliver(args.output, write_all):
        return EXIT_ERROR
    return EXIT_ERROR if failed or site_of.failed else EXIT_ACCEPTED


class _Sites:
    """The site each file explained belongs to, as ``check`` groups them
    (``sites_of``), or the one ``--site`` names for all; each site's facts
    read once, when its first file has been explained. ``error``: why
    ``--site`` cannot be used; ``failed``: files of a ``--site`` that are
    not explained and could not be read (said on stderr)."""

    def __init__(
        self,
        args: argparse.Namespace,
        found: List[Any],
        catalogue: Any,
        own: _catalogue.DirectoryCatalogues,
        options: Dict[str, Any],
    ) -> None:
        self.error: Optional[str] = None
        self.failed = 0
        self._options = options
        self._format = file_format(args.input_format)
        self._read: Dict[SiteKey, Optional[SiteViews]] = {}
        self._found = found
        if args.site is None:
            self._place, self._sites = sites_of(found, catalogue, own)
            return
        self._place, self._sites = {}, {}
        expansion = expand(args.site)
        problems = [entry.error.message for entry in expansion.found if entry.error is not None]
        if problems:
            self.error = printable(problems[0])
            return
        used = catalogue
        if used is None:
            owned = [own.of(d) for d in dict.fromkeys(expansion.directories) if own.of(d) is not None]
            if len(owned) != 1:
                self.error = (
                    "a site's calls are known from its node types: give --node-types, or a --site with one "
                    f"directory holding them (it has {len(owned)})"
                )
                return
            used = owned[0]
            if isinstance(used, Exception):
                self.error = printable(str(used))
                return
        files = expansion.files
        indexes = file_indexes(files)
        # The files explained are of the site too (their calls count).
        for i, entry in enumerate(found):
            if entry.error is None and entry.path != "-":
                at = indexes.get(file_key(entry.path) or (-1, -1))
                if at is None:
                    at = len(files)
                    files.append(entry.path)
                self._place[i] = ((None, None), at)
        self._sites[(None, None)] = (files, used)

    def calls(self, index: int, consumer: Optional[str]) -> Optional[Iterator[CallView]]:
        """The per-call views of ``found[index]``, made when first asked
        for; None when the file is in no site."""
        place = self._place.get(index)
        if place is None:
            return None
        return self._views(*place, consumer)

    def _views(self, key: SiteKey, at: int, consumer: Optional[str]) -> Iterator[CallView]:
        site = self._site(key)
        if site is not None and at not in site.failed:
            yield from site.views(at, consumer)

    def _site(self, key: SiteKey) -> Optional[SiteViews]:
        if key not in self._read:
            files, used = self._sites[key]
            if isinstance(used, Exception):
                self._read[key] = None  # each file explained says it already
                return None
            options = self._options
            site = SiteViews(
                files, used, list(options["passthrough_types"]), list(options["edge_types"]), 0, self._format
            )
            self._read[key] = site
            explained = {at for k, at in self._place.values() if k == key}
            for at, error in sorted(site.failed.items()):
                if at not in explained:  # explaining it says why it fails
                    message = printable(str(error))
                    sys.stderr.write(f"{display_path(files[at])}: error: {message} (its calls are not known)\n")
                    self.failed += 1
        return self._read[key]


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
