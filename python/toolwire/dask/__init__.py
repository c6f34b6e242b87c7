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

import os
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from .._report import Report
from ._cluster import (
    check_on_cluster,
    client_or_default,
    default_files_per_task,
    paths_to_read,
    validated_files_per_task,
    validated_options,
    worker_threads,
)
from ._wire import MAX_SHIPPED_IDS, FindingsTooLarge
from ._worker import findings_frame, frame

__all__ = ["FindingsTooLarge", "MAX_SHIPPED_IDS", "check_files", "findings"]

Paths = Sequence[Union[str, "os.PathLike[str]"]]


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
    must see at the same place) or fsspec URLs. A file that cannot be read
    or checked gets a report with ``error`` set, as locally; so does one
    whose findings exceed ``MAX_SHIPPED_IDS`` (``FindingsTooLarge``).
    ``files_per_task``: files a task reads and checks (default: a few tasks
    per worker thread, at most 2,000 files each)."""
    return _check_files(paths, client, files_per_task, options)


def _prepared(
    paths: Paths, client: Optional[distributed.Client], files_per_task: Optional[int], options: Any, caller: str
) -> Tuple[Dict[str, Any], List[str], List[str], distributed.Client, int]:
    """What ``check_files`` and ``findings`` check before submitting
    anything: the options, the batch size, the paths (as given, and as
    read), the client, and the batch size the cluster implies if none was
    given."""
    checked = validated_options(options, caller)
    per_task = validated_files_per_task(files_per_task)
    given, read = paths_to_read(paths, caller)
    client = client_or_default(client, caller)
    if per_task is None:
        per_task = default_files_per_task(len(read), worker_threads(client))
    return checked, given, read, client, per_task


def _check_files(
    paths: Paths,
    client: Optional[distributed.Client],
    files_per_task: Optional[int],
    options: Any,
    on_done: Callable[[int], None] = lambda files: None,
) -> List[Report]:
    """``check_files``, with ``on_done(n)`` called as n more files are
    answered (the CLI's progress bar)."""
    checked, given, read, client, per_task = _prepared(paths, client, files_per_task, options, "check_files")
    return check_on_cluster(client, given, read, checked, per_task, on_done)


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
    sizes the partitions."""
    import dask.dataframe

    checked, given, read, client, per_task = _prepared(paths, client, files_per_task, options, "findings")
    pairs = list(zip(given, read))
    batches = [pairs[start : start + per_task] for start in range(0, len(pairs), per_task)] or [[]]
    return dask.dataframe.from_map(
        findings_frame, batches, args=(checked,), meta=frame([]), label="toolwire-findings", enforce_metadata=False
    )
