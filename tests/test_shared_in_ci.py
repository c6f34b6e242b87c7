"""Tests that need ../shared (the spec's examples, the real workflows, the
SARIF schema) skip without it in development. In CI it is always checked
out, and .ci/run sets ``TOOLWIRE_NEED_SHARED=1``, so there its absence
fails them: a skip would turn a broken checkout into a green run that
tested less."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional

import pytest

import support
from support import need_shared, shared_files

TESTS = Path(__file__).resolve().parent

# Each way a test reaches ../shared: the `shared_dir` fixture, one file, and
# a test parametrised over a directory's files.
TINY_SUITE = """
import pytest
from support import SHARED, need_shared, shared_files

def test_through_the_fixture(shared_dir):
    assert shared_dir.is_dir()

def test_one_file():
    need_shared(SHARED / "data" / "schema.json")

@pytest.mark.parametrize("path", shared_files(SHARED / "real-workflows"))
def test_each_file(path):
    need_shared(path)
"""


def run_tiny_suite(tmp_path: Path, need: Optional[str], shared: bool) -> Dict[str, int]:
    """Runs TINY_SUITE with this directory's conftest.py and support.py in a
    repository of its own under `tmp_path`, whose ../shared is there or not;
    the outcome counts from pytest's summary line."""
    tests = tmp_path / "repo" / "tests"
    tests.mkdir(parents=True)
    for name in ("conftest.py", "support.py"):
        shutil.copy(TESTS / name, tests / name)
    (tests / "test_tiny.py").write_text(TINY_SUITE, encoding="utf-8")
    if shared:
        (tmp_path / "shared" / "data").mkdir(parents=True)
        (tmp_path / "shared" / "data" / "schema.json").write_text("{}", encoding="utf-8")
        (tmp_path / "shared" / "real-workflows").mkdir()
        for name in ("a.json", "b.json"):
            (tmp_path / "shared" / "real-workflows" / name).write_text("{}", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in (support.NEED_SHARED, "PYTEST_ADDOPTS")}
    if need is not None:
        env[support.NEED_SHARED] = need
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:cacheprovider", str(tests)],
        cwd=tmp_path / "repo", env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    summary = done.stdout.strip().splitlines()[-1]
    counts = {word.replace("errors", "error"): int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|errors?)", summary)}
    counts["exit"] = done.returncode
    if counts["exit"] != 0:
        assert "TOOLWIRE_NEED_SHARED=1: a test that needs it fails instead of being skipped" in done.stdout, done.stdout
    return counts


def test_in_ci_a_test_that_needs_a_missing_shared_fails(tmp_path: Path) -> None:
    # The fixture's failure is reported as an error in the test's set-up.
    assert run_tiny_suite(tmp_path, need="1", shared=False) == {"failed": 2, "error": 1, "exit": 1}


def test_outside_ci_a_test_that_needs_a_missing_shared_is_skipped(tmp_path: Path) -> None:
    assert run_tiny_suite(tmp_path, need=None, shared=False) == {"skipped": 3, "exit": 0}


def test_in_ci_the_tests_run_when_shared_is_there(tmp_path: Path) -> None:
    assert run_tiny_suite(tmp_path, need="1", shared=True) == {"passed": 4, "exit": 0}


@pytest.mark.parametrize(("need", "fails"), [("1", True), (None, False), ("0", False), ("", False), ("true", False)])
def test_need_shared_fails_only_when_toolwire_need_shared_is_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, need: Optional[str], fails: bool
) -> None:
    if need is None:
        monkeypatch.delenv(support.NEED_SHARED, raising=False)
    else:
        monkeypatch.setenv(support.NEED_SHARED, need)
    assert support.missing_shared_fails() is fails
    missing = tmp_path / "shared" / "data" / "schema.json"
    with pytest.raises(pytest.fail.Exception if fails else pytest.skip.Exception, match="schema.json is not there"):
        need_shared(missing)
    # A missing directory to parametrise over is given as itself, so the test
    # still runs and reaches need_shared instead of being skipped by pytest.
    assert shared_files(missing.parent) == [missing.parent]
    with pytest.raises(pytest.fail.Exception if fails else pytest.skip.Exception):
        need_shared(*shared_files(missing.parent))
    assert need_shared(tmp_path) == tmp_path
