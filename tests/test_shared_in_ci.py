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


# What CI hosts set on every job (GitHub Actions, GitLab CI, and the common
# CI=true): a user's fork runs the tests there without ../shared.
CI_HOST = {"CI": "true", "GITHUB_ACTIONS": "true", "GITLAB_CI": "true", "CONTINUOUS_INTEGRATION": "true"}


def run_tiny_suite(
    tmp_path: Path, need: Optional[str], shared: bool, extra_env: Optional[Dict[str, str]] = None
) -> Dict[str, int]:
    """Runs TINY_SUITE with this directory's conftest.py and support.py in a
    repository of its own under `tmp_path`, whose ../shared is there or not,
    with `extra_env` added to the environment; the outcome counts from
    pytest's summary line."""
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
    env = {k: v for k, v in os.environ.items() if k not in (support.NEED_SHARED, "PYTEST_ADDOPTS", *CI_HOST)}
    env.update(extra_env or {})
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


def test_on_a_ci_host_without_the_project_variable_a_missing_shared_is_skipped(tmp_path: Path) -> None:
    # A fork's own CI (CI=true and the host's variables, but not .ci/run's
    # TOOLWIRE_NEED_SHARED) on a clone without ../shared: skips, not failures.
    assert run_tiny_suite(tmp_path, need=None, shared=False, extra_env=CI_HOST) == {"skipped": 3, "exit": 0}


def test_on_a_ci_host_the_project_variable_alone_decides(tmp_path: Path) -> None:
    assert run_tiny_suite(tmp_path, need="1", shared=False, extra_env=CI_HOST) == {"failed": 2, "error": 1, "exit": 1}


# Reading the CI host's variables: os.environ["CI"], os.environ.get("CI"),
# os.getenv("CI"), "CI" in os.environ, and the same for the hosts' own names.
_READS_CI = re.compile(r"""(environ|getenv)\b[^\n]*["'](CI|GITHUB_ACTIONS|GITLAB_CI|CONTINUOUS_INTEGRATION)["']|["'](CI|GITHUB_ACTIONS|GITLAB_CI)["']\s+in\s+os\.environ""")


def test_nothing_keys_on_the_ci_hosts_variables() -> None:
    # Whether a test may skip is the project's own decision (TOOLWIRE_NEED_SHARED,
    # set by .ci/run), never the host's: CI=true is set on every fork's CI too.
    repo = TESTS.parent
    files = [repo / ".ci" / "run", *sorted((repo / "python").rglob("*.py")), *sorted(TESTS.glob("*.py"))]
    files += sorted((repo / "benches").glob("*.py"))
    assert len(files) > 20
    readers = [
        f"{path.relative_to(repo)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _READS_CI.search(line) and path.name != "test_shared_in_ci.py"
    ]
    assert readers == []
    # The pattern does find such a read.
    assert _READS_CI.search('if os.environ.get("CI") == "true":')
    assert _READS_CI.search("fails = 'CI' in os.environ")


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
