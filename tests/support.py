"""Paths and types shared by the test files. (Not in conftest.py: the
benchmarks have a conftest of their own, and `from conftest import ...` would
find whichever was imported first.)"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Dict, List, NoReturn

import pytest

import toolwire

REPO = Path(__file__).resolve().parent.parent
# ../shared sits beside the repository in development and in CI; tests that
# need it skip when it is not there, except under .ci/run, where they fail (see
# `need_shared`).
SHARED = REPO.parent / "shared"
DATA = Path(__file__).resolve().parent / "data"


NEED_SHARED = "TOOLWIRE_NEED_SHARED"
"""Set to 1 by .ci/run: ../shared is always there in CI, so a skip for want
of it would hide a broken checkout behind a green run."""


def missing_shared_fails() -> bool:
    """Whether a test that needs ../shared fails when it is missing instead
    of being skipped: when ``TOOLWIRE_NEED_SHARED=1`` (.ci/run sets it)."""
    return os.environ.get(NEED_SHARED) == "1"


def missing_shared(path: Path) -> NoReturn:
    """Skips the running test for want of `path` (in ../shared); in CI,
    fails it."""
    message = f"{path} is not there: ../shared is not beside the repository, or is incomplete"
    if missing_shared_fails():
        pytest.fail(f"{message} ({NEED_SHARED}=1: a test that needs it fails instead of being skipped)", pytrace=False)
    pytest.skip(message)


def need_shared(path: Path) -> Path:
    """`path`, a file or directory in ../shared, when it exists; otherwise
    the test is skipped, or fails in CI (`missing_shared`)."""
    if not path.exists():
        missing_shared(path)
    return path


def shared_files(directory: Path, pattern: str = "*.json") -> List[Path]:
    """The files of a directory in ../shared, sorted, for parametrising a
    test. When the directory is missing: the directory itself, so that the
    test still runs and its `need_shared` (or the `shared_dir` fixture)
    skips or fails it, rather than pytest silently skipping an empty
    parameter set."""
    if not directory.is_dir():
        return [directory]
    return sorted(directory.glob(pattern))

CheckVia = Callable[..., toolwire.Report]


def without_places(report: toolwire.Report) -> Dict[str, Any]:
    """A report as a dict without what depends on the input's text or goes
    beyond SEMANTICS.md: locations, suggested fixes, edge-type suggestions
    and toolbox labels. What is left is what the reference computes too, and
    what must not change when the same workflow is written differently."""
    result = report.to_dict()
    for v in result["violations"]:
        for key in ("location", "fix", "suggestion", "box_labels"):
            v.pop(key, None)
        for tool in v.get("tools", []):
            tool.pop("location")
    for w in result["warnings"]:
        w.pop("location")
    return result


def work_done(report: toolwire.Report) -> int:
    """The core's count of basic steps taken for ``report`` so far
    (``report.violations._core.work["total"]``): deterministic, unlike time,
    so a test can hold the work of a check to the size of its input. The
    counts accumulate over the life of the report: read it right after the
    check for the check's own work, and again after reading the report for
    the reading's."""
    work = getattr(getattr(report.violations, "_core", None), "work", None)
    if work is None:
        pytest.fail(
            "this core counts no work: report.violations._core.work is missing (it comes with the core rewritten "
            "for issue \"Every shape costs what its file costs\")",
            pytrace=False,
        )
    return int(work["total"])
