"""``toolwire.dask.check_files`` on a ``LocalCluster`` of two worker
processes (one thread each) against ``toolwire.check_files(jobs=2)`` on the
same small files, on the same machine: what the cluster costs on top of the
check (target: at most 1.5x on 2,000 files; docs/DISTRIBUTED.md).

``extra_info`` records the local time (the minimum of as many rounds, taken
between the cluster's rounds so both see the same machine), the ratio, and
the overhead per file. The smoke pass (``--benchmark-disable``) runs it once
on 200 files; ``--dask-files`` sets the count.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Iterator, List

import pytest

import toolwire

from workloads import batch_files

EXTRA = "needs the optional extra: pip install -e '.[dask]'"
distributed = pytest.importorskip("distributed", reason=EXTRA)
toolwire_dask = pytest.importorskip("toolwire.dask", reason=EXTRA)

TARGET = 1.5
"""The cluster's time at most this many times check_files(jobs=2)'s."""


@pytest.fixture(scope="module")
def dask_batch(pytestconfig: pytest.Config, cache_dir: Path) -> List[Path]:
    chosen = pytestconfig.getoption("--dask-files")
    smoke = bool(pytestconfig.getoption("benchmark_disable")) and not pytestconfig.getoption("benchmark_enable")
    return batch_files(cache_dir, int(chosen) if chosen else 200 if smoke else 2000)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster, set_as_default=False) as connected:
        yield connected


def seconds(work: Callable[[], Any]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def test_dask_against_check_files(benchmark: Any, dask_batch: List[Path], client: Any) -> None:
    paths = [str(p) for p in dask_batch]
    benchmark.group = f"check_files over {len(paths)} files: 2-worker LocalCluster"
    benchmark.name = "toolwire.dask.check_files"
    # The workers' first task imports toolwire: not what is measured.
    toolwire_dask.check_files(paths[:4], client=client)
    local_rounds: List[float] = []
    dask_rounds: List[float] = []

    def time_check_files() -> None:
        # Before each round, untimed by the benchmark: interleaved, both see
        # the same machine.
        local_rounds.append(seconds(lambda: toolwire.check_files(paths, jobs=2)))

    def on_cluster() -> List[toolwire.Report]:
        started = time.perf_counter()
        reports: List[toolwire.Report] = toolwire_dask.check_files(paths, client=client)
        dask_rounds.append(time.perf_counter() - started)  # also when the benchmark is disabled
        return reports

    reports = benchmark.pedantic(on_cluster, setup=time_check_files, rounds=1 if benchmark.disabled else 7)
    local, remote = min(local_rounds), min(dask_rounds)
    expected = toolwire.check_files(paths, jobs=2)
    benchmark.extra_info.update(
        files=len(paths),
        bytes=sum(p.stat().st_size for p in dask_batch),
        workers=2,
        dask_seconds=round(remote, 4),
        check_files_jobs2_seconds=round(local, 4),
        ratio_vs_check_files_jobs2=round(remote / local, 2),
        overhead_per_file_ms=round((remote - local) / len(paths) * 1000, 3),
        target=TARGET,
        correct=[r.to_dict() for r in reports] == [r.to_dict() for r in expected],
    )
    assert benchmark.extra_info["correct"]
