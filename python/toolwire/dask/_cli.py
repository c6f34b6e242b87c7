"""``toolwire check --dask``: which cluster to use (what a PATH names is
``_expand``'s). The CLI imports this module only when ``--dask`` is given."""

from __future__ import annotations

import contextlib
from typing import Iterator

import distributed

LOCAL = "local:"
"""``--dask local:N``: a cluster of N worker processes on this machine."""


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
