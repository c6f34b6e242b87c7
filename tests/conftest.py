"""Shared fixtures. ``check_via`` runs a test through every input path
(dict, JSON str, JSON bytes, file), as pydantic-core's ``py_and_json`` does,
so a rule is only tested once but holds for every entry point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest

import toolwire
from support import SHARED, CheckVia, need_shared


@pytest.fixture(params=["dict", "str", "bytes", "file"])
def check_via(request: pytest.FixtureRequest, tmp_path: Path) -> CheckVia:
    """A function ``(workflow_dict, **options) -> Report`` for one input path."""
    how = request.param

    def run(workflow: Dict[str, Any], **options: Any) -> toolwire.Report:
        if how == "dict":
            return toolwire.check(workflow, **options)
        text = json.dumps(workflow)
        if how == "str":
            return toolwire.check_json(text, **options)
        if how == "bytes":
            return toolwire.check_json(text.encode(), **options)
        path = tmp_path / "workflow.json"
        path.write_text(text, encoding="utf-8")
        return toolwire.check_file(path, **options)

    run.how = how  # type: ignore[attr-defined]
    return run


@pytest.fixture
def shared_dir() -> Path:
    """../shared; without it the test is skipped, or fails in CI."""
    return need_shared(SHARED)


@pytest.fixture(autouse=True)
def no_step_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--format github`` appends to ``$GITHUB_STEP_SUMMARY`` when it is set,
    as it is when these tests run in GitHub Actions: no test writes there."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@pytest.fixture(scope="session")
def dask_cluster() -> Any:
    """A ``LocalCluster`` of two worker processes (one thread each), for
    the tests that compare toolwire.dask with a local check. Worker
    processes: they read the files and catalogues themselves, from another
    working directory than the client's."""
    distributed = pytest.importorskip("distributed", reason="needs toolwire[dask]")
    pytest.importorskip("dask.dataframe", reason="needs toolwire[dask]")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        yield cluster
