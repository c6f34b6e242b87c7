"""``toolwire check --dask``: which cluster to use, and which files a PATH
names. The CLI imports this module only when ``--dask`` is given."""

from __future__ import annotations

import contextlib
import glob
import os
from typing import Iterator, List, Sequence

import distributed
import fsspec

from ._worker import is_local

LOCAL = "local:"
"""``--dask local:N``: a cluster of N worker processes on this machine."""

DIRECTORY_FILES = "**/*.json"
"""What a directory (or a URL ending in ``/``) stands for."""

_MAGIC = ("*", "?", "[")


class ClusterError(Exception):
    """``--dask`` names no cluster that can be reached or started."""


@contextlib.contextmanager
def connect(spec: str) -> Iterator[distributed.Client]:
    """A client of the scheduler at ``spec``, or of a new cluster of N
    worker processes for ``local:N`` (one thread each: a worker runs one
    batch at a time, and there are as many as asked for), closed on exit."""
    if spec.startswith(LOCAL):
        workers = _workers(spec)
        with distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster, distributed.Client(cluster, set_as_default=False) as client:
            yield client
        return
    try:
        client = distributed.Client(spec, set_as_default=False, timeout="10s")
    except (OSError, ValueError, TypeError) as e:  # TimeoutError is an OSError
        raise ClusterError(f"cannot reach the Dask scheduler at {spec}: {e}") from None
    with client:
        yield client


def _workers(spec: str) -> int:
    count = spec[len(LOCAL) :]
    if not count.isdigit() or int(count) < 1:
        raise ClusterError(f"--dask {spec}: expected local:N with N at least 1 (worker processes)")
    return int(count)


def expand(paths: Sequence[str]) -> List[str]:
    """The files the PATHs name: a glob (``*``, ``?``, ``[``) its matches,
    sorted; a directory or a URL ending in ``/`` every ``.json`` file below
    it, sorted; anything else itself (``-``, a file, a path that does not
    exist, which is then reported as missing). A glob that matches nothing
    stays as it is, as a shell leaves it. Local paths keep the form they
    were given in (relative stays relative), so reports name them as a
    local run does."""
    files: List[str] = []
    for path in paths:
        files.extend(_expand_one(path))
    return files


def _expand_one(path: str) -> List[str]:
    if path == "-":
        return [path]
    if is_local(path):
        if os.path.isdir(path):
            return sorted(glob.glob(os.path.join(path, DIRECTORY_FILES), recursive=True)) or [path]
        if any(c in path for c in _MAGIC):
            return sorted(glob.glob(path, recursive=True)) or [path]
        return [path]
    if "::" in path:  # a chained URL (simplecache::s3://...): read as given
        return [path]
    fs, inner = fsspec.core.url_to_fs(path)
    if any(c in inner for c in _MAGIC):
        found = sorted(fs.glob(inner))
    elif path.endswith("/"):
        found = sorted(fs.glob(inner.rstrip("/") + "/" + DIRECTORY_FILES))
    else:
        return [path]
    return [fs.unstrip_protocol(p) for p in found] or [path]
