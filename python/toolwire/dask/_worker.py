"""What runs on a Dask worker: read a batch of files, check them, and hand
back findings, never workflow text: each report as the bytes the Rust core
encodes it to (``_wire.pack_files`` for local files, as the Rust batch
checks them; ``_wire.pack`` for the others), the batch as one pickle.

Local paths (and ``file://`` URLs, made local paths by the client) go to the
Rust batch, which reads and checks them without the GIL, so a worker's
threads check in parallel. Other URLs are read through fsspec, on threads
(object stores answer in tens of milliseconds, so reads must overlap), and
each text is checked as it arrives.

A site (SEMANTICS 12: files checked with a catalogue) is one task: its files
are checked together (``check_site_batch``), so the calls between them are
followed here, with all of them at hand.

Every function here takes and returns picklable data only; a worker imports
this module by name when it runs one.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union

import fsspec
from fsspec.utils import get_protocol

from .. import _catalogue
from .._api import check_each_file, check_json, check_yaml
from .._paths import YAML_SUFFIXES
from .._report import CallTuple, SiteWarningTuple
from .._errors import WorkflowError, error_to_dict
from .._report import Report, Violations, core_of, failed_report
from ._wire import Packed, SiteTuples, pack, pack_error, pack_files, pack_site, read_error, site_from_answers

Options = Dict[str, Any]
"""``passthrough_types`` and ``edge_types``, already checked by the client."""

OwnCatalogues = Tuple[List[List[str]], List[int]]
"""The node-type files of each directory's own catalogue (SEMANTICS 11)
that a task's files use, and for each file the index of its own in that
list, or -1 for none (the client's ``task_catalogues``)."""

READ_THREADS = 32
"""Reads in flight per task for URLs: enough to hide an object store's
latency (~20-50 ms a request) behind ~1 ms checks."""


def is_local(path: str) -> bool:
    """A path the Rust batch can open itself: no protocol, no fsspec chain."""
    return "::" not in path and get_protocol(path) == "file" and "://" not in path


_T = TypeVar("_T")


def _catalogue_read(options: Options) -> Options:
    """The options with the node-type catalogue (CMP-10) read once for the
    whole batch, not once per file."""
    if options.get("node_types") is None:
        return options
    return {**options, "node_types": _catalogue.load(options["node_types"], "check_files")}


def check_batch(paths: Sequence[str], options: Options, own: Optional[OwnCatalogues] = None) -> bytes:
    """One packed report per path, in order (``toolwire.check_files``): a
    list of the core's encodings (or small error tuples), pickled here as
    one object, not by Dask, which serializes a list item by item. Local
    files are encoded by the Rust batch as it checks them, so no report
    object is made for them. ``own``: the files' directories' own
    catalogues, if any (see ``_by_catalogue``)."""

    def packed(batch: Sequence[str], used: Options) -> Iterator[Packed]:
        local, remote = _split(batch)
        return _in_order(batch, pack_files(local, used) if local else [], (pack(r) for r in _check_urls(remote, used)))

    answers = _by_catalogue(paths, options, own, packed, lambda path, error: pack_error(error))
    return pickle.dumps(answers, protocol=pickle.HIGHEST_PROTOCOL)


SiteAnswers = Tuple[List[Packed], SiteTuples]
"""A site's task's answer: each file's packed report, and what the site
check found beside them (``_wire.pack_site``)."""


def check_site_batch(paths: Sequence[str], names: Sequence[str], options: Options, own: Optional[List[str]] = None) -> bytes:
    """The files of one site (SEMANTICS 12: a directory with its node
    types, or the files checked with a catalogue given), checked together
    on this worker as ``toolwire.check_found`` checks a site: each report
    packed, with the site's call findings, warnings and errors, pickled as
    one object. ``paths``: as read here; ``names``: as the client was
    given them, which the findings name. ``own``: the directory's own
    catalogue files, when no catalogue is given."""
    return pickle.dumps(site_answers(paths, names, options, own), protocol=pickle.HIGHEST_PROTOCOL)


def site_answers(paths: Sequence[str], names: Sequence[str], options: Options, own: Optional[List[str]]) -> SiteAnswers:
    """``check_site_batch`` before pickling. A catalogue this worker cannot
    read (changed since the client looked) is the error of each file of
    the site, as in ``_by_catalogue``: CMP-10 and the calls are never
    skipped in silence."""
    try:
        used = _catalogue_read(options if own is None else {**options, "node_types": own})
    except (WorkflowError, OSError) as e:
        return [pack_error(e)] * len(paths), ([[] for _ in paths], [[] for _ in paths], [])
    remote = [i for i, path in enumerate(paths) if not is_local(path)]
    if not remote:
        return pack_site(paths, names, used)
    # The core's site check reads local files: a URL's bytes are fetched
    # here (reads overlapping, as for a batch) into a scratch file that
    # keeps its name, so it is read as YAML or JSON as locally, and the
    # findings name it as given. One that cannot be read is answered with
    # its error and is not in the site, as a local file that cannot be read.
    answers: List[Optional[Packed]] = [None] * len(paths)
    with tempfile.TemporaryDirectory(prefix="toolwire-site-") as scratch:
        local = list(paths)
        with ThreadPoolExecutor(max_workers=min(READ_THREADS, len(remote))) as pool:
            for i, data in zip(remote, pool.map(_read, [paths[i] for i in remote])):
                if isinstance(data, OSError):
                    answers[i] = pack_error(data)
                    continue
                local[i] = os.path.join(scratch, str(i), _file_name(paths[i]))
                os.makedirs(os.path.dirname(local[i]))
                with open(local[i], "wb") as f:
                    f.write(data)
        checked = [i for i, answer in enumerate(answers) if answer is None]
        packed, (calls, warnings, errors) = pack_site([local[i] for i in checked], [names[i] for i in checked], used)
    all_calls: List[List[CallTuple]] = [[] for _ in paths]
    all_warnings: List[List[SiteWarningTuple]] = [[] for _ in paths]
    for i, one, its_calls, its_warnings in zip(checked, packed, calls, warnings):
        answers[i], all_calls[i], all_warnings[i] = one, its_calls, its_warnings
    return [a for a in answers if a is not None], (all_calls, all_warnings, errors)


def _file_name(url: str) -> str:
    """The last component of a URL's path: what says whether it is YAML."""
    return url.rstrip("/").rsplit("/", 1)[-1] or "workflow.json"


def site_reports(paths: Sequence[str], names: Sequence[str], options: Options, own: Optional[List[str]], where: Optional[str]) -> List[Report]:
    """The reports ``toolwire.check_found`` gives for one site, named by
    ``names``: each file's, with its call findings and site warnings, then
    a report for each error of the site (``where``: the directory of the
    site, if any)."""
    packed, tuples = site_answers(paths, names, options, own)
    return site_from_answers(packed, tuples, names, where)


def _reports(paths: Sequence[str], options: Options, own: Optional[OwnCatalogues] = None) -> List[Report]:
    """The reports ``toolwire.check_files`` gives, local files checked by
    the Rust batch, URLs read through fsspec; in order."""

    def reports(batch: Sequence[str], used: Options) -> Iterator[Report]:
        local, remote = _split(batch)
        # One thread per task: the worker already runs a task per thread.
        return _in_order(batch, check_each_file(local, jobs=1, **used) if local else [], _check_urls(remote, used))

    return _by_catalogue(paths, options, own, reports, failed_report)


def _by_catalogue(
    paths: Sequence[str],
    options: Options,
    own: Optional[OwnCatalogues],
    answer: Callable[[Sequence[str], Options], Iterable[_T]],
    failed: Callable[[str, Exception], _T],
) -> List[_T]:
    """``answer`` of each group of ``paths`` that shares a catalogue, with
    that catalogue read once for the whole batch, never once per file:
    the one given (``options``), or each directory's own (``own``, which
    the client sends only when no catalogue is given). A directory's
    catalogue that cannot be read here is the error of each of its files
    (``failed``), as in ``toolwire.check_found``: CMP-10 is never skipped
    in silence. In the order of ``paths``."""
    if own is None:
        return list(answer(paths, _catalogue_read(options)))
    catalogues, of = own
    groups: Dict[int, List[int]] = {}
    for i, which in enumerate(of):
        groups.setdefault(which, []).append(i)
    answers: List[Optional[_T]] = [None] * len(paths)
    for which, members in groups.items():
        used = options
        if which >= 0:
            try:
                used = {**options, "node_types": _catalogue.load(catalogues[which], "check_files")}
            except (WorkflowError, OSError) as e:
                for i in members:
                    answers[i] = failed(paths[i], e)
                continue
        for i, one in zip(members, answer([paths[i] for i in members], used)):
            answers[i] = one
    assert all(a is not None for a in answers), "every file is answered"
    return answers  # type: ignore[return-value]


def _split(paths: Sequence[str]) -> Tuple[List[str], List[str]]:
    """The local paths and the URLs of a batch."""
    return [p for p in paths if is_local(p)], [p for p in paths if not is_local(p)]


def _in_order(paths: Sequence[str], local: Iterable[_T], remote: Iterable[_T]) -> Iterator[_T]:
    """The answers for local paths and for URLs, merged back into the order
    of ``paths``."""
    local_answers, remote_answers = iter(local), iter(remote)
    for path in paths:
        yield next(local_answers) if is_local(path) else next(remote_answers)


def _check_urls(urls: Sequence[str], options: Options) -> Iterator[Report]:
    if not urls:
        return
    with ThreadPoolExecutor(max_workers=min(READ_THREADS, len(urls))) as pool:
        for url, text in zip(urls, pool.map(_read, urls)):
            if isinstance(text, OSError):
                yield failed_report(url, text)
                continue
            # By its name, as a local file is read (a Drupal site's
            # workflows are .yml).
            check_text = check_yaml if url.endswith(YAML_SUFFIXES) else check_json
            try:
                report = check_text(text, **options)
            except ValueError as e:  # WorkflowError: as check_files reports it
                yield failed_report(url, e)
                continue
            yield Report(report.violations, report.warnings, report.stats, url)


def _read(url: str) -> Union[bytes, OSError]:
    """The bytes of a file, or the error ``check_files`` would give for it.
    fsspec raises OSError for what it cannot read, ValueError for a URL it
    cannot parse and ImportError for a protocol whose package is missing:
    each is this file's answer. Anything else (a transient failure of a
    storage client, a bug) fails the task, which the scheduler retries."""
    try:
        fs, path = fsspec.core.url_to_fs(url)
        return bytes(fs.cat_file(path))
    except (OSError, ValueError, ImportError) as e:
        return read_error(e)


# --- findings() -------------------------------------------------------------------

COLUMNS: Tuple[Tuple[str, str], ...] = (
    ("path", "string"),
    ("kind", "string"),  # violation, call (a clash across calls), warning or error
    ("code", "string"),  # CMP-9, CMP-10, EDGE-5; R8, NAME-*, DUPLICATE-KEY, CMP-10-UNKNOWN, CMP-9-*; the error's class
    ("consumer", "string"),  # CMP-9; CMP-10: the node the tools are wired to; call: the one inside
    ("name", "string"),  # CMP-9: the shared tool name
    ("node", "string"),  # warnings: the node they are about; call: the call node that starts the chain
    ("edge", "Int64"),  # EDGE-5 and R8: the edge's index
    ("message", "string"),
    ("line", "Int64"),
    ("column", "Int64"),
)
"""The columns of ``toolwire.dask.findings()`` and their pandas types."""

Row = Tuple[Optional[Any], ...]


Item = Tuple[str, Optional[str], Optional[Exception]]
"""A file of ``findings``: the path as given, the path to read, or instead
of it the error that answers it (met expanding it, or its directory's own
catalogue that cannot be used)."""


Part = Union[
    Tuple[str, Sequence[Item], Optional[OwnCatalogues]],
    Tuple[str, List[str], List[str], Optional[List[str]], Optional[str]],
]
"""A partition of ``findings``: ``("batch", items, own catalogues)``, or a
whole site, ``("site", paths to read, paths as given, its directory's own
catalogue files or None, its directory or None)``."""


def findings_part(part: Part, options: Options) -> Any:
    """The rows of one partition: ``findings_frame`` of a batch, or
    ``site_frame`` of a site."""
    if part[0] == "site":
        _, paths, names, own, where = part  # type: ignore[misc]
        return site_frame(paths, names, options, own, where)
    _, batch, own_catalogues = part  # type: ignore[misc]
    return findings_frame(batch, options, own_catalogues)


def site_frame(paths: List[str], names: List[str], options: Options, own: Optional[List[str]], where: Optional[str]) -> Any:
    """A pandas DataFrame of the rows of one site's reports, as
    ``check_files`` gives them (``site_reports``): its files' findings,
    call findings among them, in file order, then a row for each error
    of the site."""
    rows: List[Row] = []
    for report in site_reports(paths, names, options, own, where):
        rows.extend(finding_rows(str(report.path), report))
    return frame(rows)


def findings_frame(batch: Sequence[Item], options: Options, own: Optional[OwnCatalogues] = None) -> Any:
    """A pandas DataFrame of one row per finding of the files of ``batch``,
    in file order; ``own``: the own catalogues of those to read."""
    reports = iter(_reports([read for _, read, error in batch if read is not None], options, own))
    rows: List[Row] = []
    for given, read, error in batch:
        report = next(reports) if read is not None else failed_report(given, error or ValueError("nothing to read"))
        rows.extend(finding_rows(given, report))
    return frame(rows)


def finding_rows(path: str, report: Report) -> Iterator[Row]:
    """A report's findings as rows of ``COLUMNS``: its error, or its
    violations (read one at a time from the core, without their paths) and
    then its warnings."""
    if report.error is not None:
        error = error_to_dict(report.error)
        yield (path, "error", type(report.error).__name__, None, None, None, None, error["message"], error["line"], error["column"])
        return
    violations = report.violations
    assert isinstance(violations, Violations)
    core = core_of(violations)
    for index in range(core.violation_count):
        v = core.violation(index)
        line, column = v.location if v.location is not None else (None, None)
        yield (path, "violation", v.rule, v.consumer, v.name, None, v.edge, v.message, line, column)
    # A clash across calls (SEMANTICS 12): located at the call node of
    # this workflow that starts its chain; the consumer is the one inside
    # the called workflow, which the message names with the chain.
    for c in report.calls:
        line, column = c.location if c.location is not None else (None, None)
        node = c.chain[0].node if c.chain else None
        yield (path, "call", c.rule, c.consumer.node, c.name, node, None, c.message, line, column)
    for w in report.warnings:
        line, column = w.location if w.location is not None else (None, None)
        yield (path, "warning", w.code, None, None, w.node, w.edge, w.message, line, column)


def frame(rows: Sequence[Row]) -> Any:
    import pandas

    columns = {name: pandas.array([row[i] for row in rows], dtype=dtype) for i, (name, dtype) in enumerate(COLUMNS)}
    return pandas.DataFrame(columns)
