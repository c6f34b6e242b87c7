"""How a report crosses from a Dask worker to the client.

A ``Report`` reads its findings from the Rust core, whose objects hold the
checked graph and cannot be pickled, and the workflow text must not travel.
So the core itself encodes a report's findings as bytes (``pack``, or
``pack_files``, which has the Rust batch encode each file's report as it
checks it; the format is in src/snapshot/mod.rs). The client checks the bytes
whole and keeps them in a core report of its own, which reads each finding
from them when it is read, wrapped in an ordinary ``Report`` (``unpack``)
equal to the one ``toolwire.check_files`` gives: same violations,
warnings, stats and CMP-9 groups. No Python object is made per finding on
the worker or in transit. A file that could not be checked travels as a
small tuple naming its error. A site's task (``pack_site``) also sends the
site check's call findings, warnings and errors as the binding's tuples,
put back on the reports by ``site_from_answers``.

A report whose findings are far larger than its file (one toolbox of clashes
wired into a million agents, paths through a 100,000-box chain) is not
encoded past ``MAX_SHIPPED_IDS``: the core stops reading it there, and its
report comes back with ``error`` set to ``FindingsTooLarge``, which says how
to read it instead.
"""

from __future__ import annotations

import errno
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .. import _catalogue
from .._api import DEFAULT_EDGE_TYPES, DEFAULT_PASSTHROUGH_TYPES
from .._errors import CatalogueError, SiteError, WorkflowError
from .._report import (
    CallTuple,
    Report,
    SiteWarningTuple,
    Violations,
    core_of,
    failed_report,
    report_from_core,
    with_site,
)
from .._toolwire import CoreReport, check_files_encoded, check_site_encoded

MAX_SHIPPED_IDS = 10_000_000
"""The most ids (one per violation, plus one per tool and per id of its
path) a worker sends back for one report. A report over it comes back as
``FindingsTooLarge``."""

PackedError = Tuple[Any, ...]
"""``("error", kind, ...)``: a file that could not be checked, or whose
findings are too large to send."""

Packed = Union[bytes, PackedError]
"""A packed report: the core's encoding of its findings, or a
``PackedError``; only this module reads it."""


class FindingsTooLarge(Exception):
    """The findings of a file are too large to send back from the cluster;
    ``Report.error`` of that file. The file was checked: ``violation_count``
    is exact."""

    def __init__(self, violation_count: int) -> None:
        self.violation_count = violation_count
        super().__init__(
            f"its {violation_count:,} violations are too large to send back from the cluster "
            f"(more than {MAX_SHIPPED_IDS:,} ids with their paths); check this file with "
            "toolwire.check_file(), or read its findings with toolwire.dask.findings()"
        )


# --- worker side -----------------------------------------------------------------


def pack(report: Report, budget: int = MAX_SHIPPED_IDS) -> Packed:
    """A report of ``toolwire.check_files`` as bytes, or the error it holds."""
    if report.error is not None:
        return pack_error(report.error)
    violations = report.violations
    assert isinstance(violations, Violations), "reports from a check read from the core"
    encoded = core_of(violations).encode(budget)
    if isinstance(encoded, int):
        return ("error", "too-large", encoded)
    return encoded


def pack_files(paths: Sequence[str], options: Dict[str, Any], budget: int = MAX_SHIPPED_IDS) -> List[Packed]:
    """``pack`` of each report ``toolwire.check_files(paths, jobs=1,
    **options)`` gives, without making the reports: the core encodes each
    one on the thread that checked it, without the GIL."""
    passthrough = list(options.get("passthrough_types", DEFAULT_PASSTHROUGH_TYPES))
    edges = list(options.get("edge_types", DEFAULT_EDGE_TYPES))
    catalogue = _catalogue.load(options.get("node_types"), "check_files")
    return [
        answer
        if isinstance(answer, bytes)
        else ("error", "too-large", answer)
        if isinstance(answer, int)
        else pack_error(answer)
        for answer in check_files_encoded(list(paths), passthrough, edges, 1, budget, catalogue)
    ]


SiteTuples = Tuple[List[List[CallTuple]], List[List[SiteWarningTuple]], List[Tuple[str, List[str], List[str]]]]
"""What a site check finds beside its files' reports (the site contract's
tuples, which pickle as they are): per file its call findings and its site
warnings, and the errors of the site (message, workflows, files)."""


def pack_site(
    paths: Sequence[str], names: Sequence[str], options: Dict[str, Any], budget: int = MAX_SHIPPED_IDS
) -> Tuple[List[Packed], SiteTuples]:
    """The files of one site (SEMANTICS 12) checked together, as
    ``toolwire.check_found`` checks a site, each report packed as
    ``pack_files`` packs it; with the call findings, site warnings and site
    errors as the binding's tuples. ``paths`` are read, ``names`` (the
    paths as the client was given them) are what the findings and errors
    call the files, so that they equal a local check's."""
    passthrough = list(options.get("passthrough_types", DEFAULT_PASSTHROUGH_TYPES))
    edges = list(options.get("edge_types", DEFAULT_EDGE_TYPES))
    catalogue = _catalogue.load(options.get("node_types"), "check_files")
    outcomes, calls, warnings, errors = check_site_encoded(
        list(paths), list(names), passthrough, edges, 1, budget, catalogue
    )
    packed: List[Packed] = [
        answer
        if isinstance(answer, bytes)
        else ("error", "too-large", answer)
        if isinstance(answer, int)
        else pack_error(answer)
        for answer in outcomes
    ]
    return packed, (calls, warnings, errors)


def pack_error(error: BaseException) -> PackedError:
    """What ``Report.error`` holds, without the path (the client knows it,
    and puts it back as the path it was given)."""
    if isinstance(error, CatalogueError):
        # A directory's own catalogue a worker could not read (SEMANTICS
        # 11): still a CatalogueError on the client, naming its file.
        return ("error", "catalogue", error.message, error.line, error.column, error.path)
    if isinstance(error, WorkflowError):
        return ("error", "workflow", error.message, error.line, error.column)
    if isinstance(error, FindingsTooLarge):
        return ("error", "too-large", error.violation_count)
    if isinstance(error, OSError):
        return ("error", "os", error.errno, error.strerror or str(error))
    return ("error", "other", type(error).__name__, str(error))


# --- client side -----------------------------------------------------------------


def unpack(packed: Packed, path: str) -> Report:
    """The ``Report`` a worker packed, for the file the client named ``path``."""
    if isinstance(packed, bytes):
        return report_from_core(CoreReport.decode(packed), path)
    return failed_report(path, _error(packed, path))


def site_from_answers(
    packed: Sequence[Packed], tuples: SiteTuples, names: Sequence[str], where: Optional[str]
) -> List[Report]:
    """The reports of one site as ``toolwire.check_found`` makes them, from
    a site task's answer: each file's (named as the client was given it),
    with its call findings and site warnings (a file that could not be
    checked has none), then one report per error of the site, whose path
    is ``where`` (the site's directory) or the first file it names."""
    calls, warnings, errors = tuples
    reports = []
    for p, name, its_calls, its_warnings in zip(packed, names, calls, warnings):
        report = unpack(p, name)
        reports.append(report if report.error is not None else with_site(report, its_calls, its_warnings))
    for message, workflows, files in errors:
        path = where if where is not None else (files[0] if files else names[0])
        reports.append(failed_report(path, SiteError(message, workflows, files)))
    return reports


def _error(packed: PackedError, path: str) -> Exception:
    kind = packed[1]
    if kind == "workflow":
        return WorkflowError(packed[2], packed[3], packed[4])
    if kind == "catalogue":
        # The message already names the file: put back as it was made.
        error = CatalogueError(packed[2], packed[3], packed[4])
        error.path = packed[5]
        return error
    if kind == "os":
        # OSError(errno, ...) makes the subclass check_files makes
        # (FileNotFoundError for ENOENT), with the path as it was given.
        return OSError(packed[2], packed[3], path)
    if kind == "too-large":
        return FindingsTooLarge(packed[2])
    return RuntimeError(f"{packed[2]}: {packed[3]}")


def read_error(error: BaseException) -> OSError:
    """An error from an fsspec filesystem as ``check_files`` would give it
    for a local file: an ``OSError`` with the errno and the operating
    system's words for it, whatever the filesystem raised."""
    for kind, number in ((FileNotFoundError, errno.ENOENT), (PermissionError, errno.EACCES), (IsADirectoryError, errno.EISDIR)):
        if isinstance(error, kind):
            return OSError(number, os.strerror(number))
    if isinstance(error, OSError) and error.errno is not None and error.strerror:
        return OSError(error.errno, error.strerror)
    # A storage client's own exception (an HTTP error, a denied request):
    # its words, after its name, with no errno.
    return OSError(None, f"{type(error).__name__}: {error}" if str(error) else type(error).__name__)
