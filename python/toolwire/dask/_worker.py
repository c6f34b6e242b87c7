"""What runs on a Dask worker: read a batch of files, check them, and hand
back findings, never workflow text: each report as the bytes the Rust core
encodes it to (``_wire.pack_files`` for local files, as the Rust batch
checks them; ``_wire.pack`` for the others), the batch as one pickle.

Local paths (and ``file://`` URLs, made local paths by the client) go to the
Rust batch, which reads and checks them without the GIL, so a worker's
threads check in parallel. Other URLs are read through fsspec, on threads
(object stores answer in tens of milliseconds, so reads must overlap), and
each text is checked as it arrives.

Every function here takes and returns picklable data only; a worker imports
this module by name when it runs one.
"""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar, Union

import fsspec
from fsspec.utils import get_protocol

from .. import _catalogue
from .._api import check_each_file, check_json
from .._errors import error_to_dict
from .._report import Report, Violations, core_of, failed_report
from ._wire import pack, pack_files, read_error

Options = Dict[str, Any]
"""``passthrough_types`` and ``edge_types``, already checked by the client."""

READ_THREADS = 32
"""Reads in flight per task for URLs: enough to hide an object store's
latency (~20-50 ms a request) behind ~1 ms checks."""


def is_local(path: str) -> bool:
    """A path the Rust batch can open itself: no protocol, no fsspec chain."""
    return "::" not in path and get_protocol(path) == "file" and "://" not in path


def _catalogue_read(options: Options) -> Options:
    """The options with the node-type catalogue (CMP-10) read once for the
    whole batch, not once per file."""
    if options.get("node_types") is None:
        return options
    return {**options, "node_types": _catalogue.load(options["node_types"], "check_files")}


def check_batch(paths: Sequence[str], options: Options) -> bytes:
    """One packed report per path, in order (``toolwire.check_files``): a
    list of the core's encodings (or small error tuples), pickled here as
    one object, not by Dask, which serializes a list item by item. Local
    files are encoded by the Rust batch as it checks them, so no report
    object is made for them."""
    local, remote = _split(paths)
    options = _catalogue_read(options)
    packed = _in_order(
        paths, pack_files(local, options) if local else [], (pack(r) for r in _check_urls(remote, options))
    )
    return pickle.dumps(list(packed), protocol=pickle.HIGHEST_PROTOCOL)


def _reports(paths: Sequence[str], options: Options) -> Iterator[Report]:
    """The reports ``toolwire.check_files`` gives, local files checked by
    the Rust batch, URLs read through fsspec; in order."""
    local, remote = _split(paths)
    options = _catalogue_read(options)
    # One thread per task: the worker already runs a task per thread.
    return _in_order(paths, check_each_file(local, jobs=1, **options) if local else [], _check_urls(remote, options))


def _split(paths: Sequence[str]) -> Tuple[List[str], List[str]]:
    """The local paths and the URLs of a batch."""
    return [p for p in paths if is_local(p)], [p for p in paths if not is_local(p)]


_T = TypeVar("_T")


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
            try:
                report = check_json(text, **options)
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
    ("kind", "string"),  # violation, warning or error
    ("code", "string"),  # CMP-9, CMP-10, EDGE-5; R8, NAME-*, DUPLICATE-KEY, CMP-10-UNKNOWN; the error's class
    ("consumer", "string"),  # CMP-9; CMP-10: the node the tools are wired to
    ("name", "string"),  # CMP-9: the shared tool name
    ("node", "string"),  # warnings: the node they are about
    ("edge", "Int64"),  # EDGE-5 and R8: the edge's index
    ("message", "string"),
    ("line", "Int64"),
    ("column", "Int64"),
)
"""The columns of ``toolwire.dask.findings()`` and their pandas types."""

Row = Tuple[Optional[Any], ...]


def findings_frame(batch: Sequence[Tuple[str, Optional[str], Optional[Exception]]], options: Options) -> Any:
    """A pandas DataFrame of one row per finding of the files of ``batch``
    (the path as given, the path to read, or instead of it the error the
    client met expanding it), in file order."""
    reports = iter(_reports([read for _, read, error in batch if read is not None], options))
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
    for w in report.warnings:
        line, column = w.location if w.location is not None else (None, None)
        yield (path, "warning", w.code, None, None, w.node, w.edge, w.message, line, column)


def frame(rows: Sequence[Row]) -> Any:
    import pandas

    columns = {name: pandas.array([row[i] for row in rows], dtype=dtype) for i, (name, dtype) in enumerate(COLUMNS)}
    return pandas.DataFrame(columns)
