"""`check_files` over many small files, with one thread and with two: the
reports must be identical, and two jobs should be faster (target: 1.6x on
1,000 files). The smoke pass uses 40 files; ``--batch-files`` sets the count.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, List

import pytest

import toolwire

from workloads import batch_files, generated


@pytest.fixture(scope="session")
def batch(pytestconfig: pytest.Config, cache_dir: Path) -> List[Path]:
    return batch_files(cache_dir, int(pytestconfig.getoption("--batch-files")))


def verdicts(reports: List[toolwire.Report]) -> List[Any]:
    return [r.to_dict() for r in reports]


@pytest.mark.parametrize("jobs", [1, 2])
def test_batch_speed(benchmark: Any, batch: List[Path], jobs: int) -> None:
    benchmark.group = f"check_files over {len(batch)} files"
    benchmark.name = f"jobs={jobs}"
    benchmark.extra_info.update(files=len(batch), jobs=jobs, bytes=sum(p.stat().st_size for p in batch))
    reports = benchmark(toolwire.check_files, batch, jobs=jobs)
    one_at_a_time = [toolwire.check_file(p) for p in batch]
    benchmark.extra_info["correct"] = verdicts(reports) == verdicts(one_at_a_time)
    assert benchmark.extra_info["correct"]
    assert not any(r.ok for r in reports), "every generated workflow has a collision"


def test_batch_workloads_come_from_the_generator(cache_dir: Path) -> None:
    workload = generated(cache_dir, "small")
    assert workload.expected.violations, "the small preset injects collisions"
