"""toolwire on a Dask cluster: check millions of workflow files where they
are, locally or in object storage (any fsspec URL).

    import distributed, toolwire.dask
    client = distributed.Client("tcp://scheduler:8786")
    reports = toolwire.dask.check_files(["s3://bucket/flows/a.json", ...])
    toolwire.dask.findings(paths).to_parquet("s3://bucket/findings/")

Workers read the files and check them; what crosses the network is the
paths and the findings, never workflow text. Needs the optional extra:
``pip install 'toolwire[dask]'``. See docs/DISTRIBUTED.md.
"""

from __future__ import annotations

try:
    import dask  # noqa: F401 - the real dask: absolute imports do not see this module
    import distributed
    import fsspec  # noqa: F401 - the workers read through it
except ImportError as e:  # pragma: no cover - exercised where the extra is not installed
    raise ImportError(
        f"toolwire.dask needs the optional extra 'dask' ({e.name} is not installed): "
        "pip install 'toolwire[dask]'"
    ) from e

from typing import Any, List, Optional, Tuple

from .._report import Report
from ._cluster import Paths, check_paths, prepare, site_keys, task_catalogues, units
from ._wire import MAX_SHIPPED_IDS, FindingsTooLarge
from ._worker import Part, findings_part, frame

__all__ = ["FindingsTooLarge", "MAX_SHIPPED_IDS", "check_files", "findings"]


def check_files(
    paths: Paths,
    *,
    client: Optional[distributed.Client] = None,
    files_per_task: Optional[int] = None,
    **options: Any,
) -> List[Report]:
    """``toolwire.check_files(paths, **options)`` computed on the cluster of
    ``client`` (default: the current ``distributed`` client): the same
    reports, in the same order. ``paths``: local paths (which the workers
    must see at the same place) or fsspec URLs; a directory, a URL ending
    in ``/`` or a glob stands for the workflow files it names, expanded
    here on the client, as ``toolwire.check_files`` expands them. A file that cannot be read
    or checked gets a report with ``error`` set, as locally; so does one
    whose findings exceed ``MAX_SHIPPED_IDS`` (``FindingsTooLarge``).
    ``files_per_task``: files a task reads and checks (default: a few tasks
    per worker thread, at most 2,000 files each); a site (files checked
    with a catalogue, SEMANTICS 12) is one task whatever its size, so its
    calls are followed on one worker, and its errors (``SiteError``) are
    reports after the files', as locally."""
    return check_paths(paths, client, files_per_task, options)


def findings(
    paths: Paths,
    *,
    client: Optional[distributed.Client] = None,
    files_per_task: Optional[int] = None,
    **options: Any,
) -> Any:
    """A lazy ``dask.dataframe.DataFrame`` with one row per finding of the
    files (every violation, every warning, and each file that could not be
    checked), in file order, one partition per batch of files. Columns:
    path, kind (violation, warning or error), code (the rule, the warning's
    code or the error's class), consumer, name, node, edge, message, line,
    column. For corpora whose reports are too big to collect: write it
    where it is computed with ``.to_parquet(...)``. It is computed where
    Dask computes, on the current client; ``client`` (default: that one)
    sizes the partitions. A site (files checked with a catalogue) is one
    partition, whole: its call findings are rows (kind ``call``), its
    errors rows of kind ``error`` after its files'."""
    import dask.dataframe

    plan = prepare(paths, client, files_per_task, options, "findings")
    # A path that stands for no file (PathError), or whose directory's own
    # catalogue cannot be used, travels as its error, for its row; the
    # others as the path to read, with their directory's own catalogue.
    to_read = iter(zip(plan.read, plan.catalogues))
    items: List[Tuple[str, Optional[str], Optional[Exception], Optional[List[str]]]] = []
    for f, error in zip(plan.found, plan.errors):
        read, catalogue = next(to_read) if error is None else (None, None)
        items.append((f.path, read, error, catalogue))
    # A site is one partition, whole (its calls cross its files), as in
    # check_files; the other items in batches, an error in its place.
    checked = [f for f, error in zip(plan.found, plan.errors) if error is None]
    keys = iter(site_keys(checked, plan.catalogues, plan.options.get("node_types") is not None))
    parts: List[Part] = []
    for unit in units([next(keys) if error is None else None for error in plan.errors], plan.per_task):
        batch = [items[i] for i in unit.files]
        if unit.site:
            parts.append(
                ("site", [read or "" for _, read, _, _ in batch], [given for given, _, _, _ in batch], batch[0][3], unit.where)
            )
        else:
            own = task_catalogues([catalogue for _, read, _, catalogue in batch if read is not None])
            parts.append(("batch", [(given, read, error) for given, read, error, _ in batch], own))
    if not parts:
        parts.append(("batch", [], None))
    return dask.dataframe.from_map(
        findings_part, parts, args=(plan.options,), meta=frame([]), label="toolwire-findings", enforce_metadata=False
    )
