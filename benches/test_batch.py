"""`check_files` over many small files, with one thread and with two: the
reports must be what the generator expects of each file, and two jobs
should be faster (target: 1.6x on 1,000 files). The smoke pass uses 40
files; ``--batch-files`` sets the count.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, List

import pytest

import toolwire

from workloads import batch_expected, batch_files, generated, matches


@pytest.fixture(scope="session")
def batch(pytestconfig: pytest.Config, cache_dir: Path) -> List[Path]:
    return batch_files(cache_dir, int(pytestconfig.getoption("--batch-files")))




@pytest.mark.parametrize("jobs", [1, 2])
def test_batch_speed(benchmark: Any, batch: List[Path], jobs: int) -> None:
    benchmark.group = f"check_files over {len(batch)} files"
    benchmark.name = f"jobs={jobs}"
    benchmark.extra_info.update(files=len(batch), jobs=jobs, bytes=sum(p.stat().st_size for p in batch))
    reports = benchmark(toolwire.check_files, batch, jobs=jobs)
    # Correct is what the generator put in each file, not what toolwire
    # says elsewhere.
    wrong = [p.name for p, r in zip(batch, reports) if r.error is not None or not matches(r, batch_expected(p))]
    benchmark.extra_info["correct"] = len(reports) == len(batch) and not wrong
    assert benchmark.extra_info["correct"], f"check_files(jobs={jobs}) disagrees with the generator on {wrong[:5]}"
    assert not any(r.ok for r in reports), "every generated workflow has a collision"


def test_batch_workloads_come_from_the_generator(cache_dir: Path) -> None:
    workload = generated(cache_dir, "small")
    assert workload.expected.violations, "the small preset injects collisions"
