"""Shared fixtures. ``check_via`` runs a test through every input path
(dict, JSON str, JSON bytes, file), as pydantic-core's ``py_and_json`` does,
so a rule is only tested once but holds for every entry point."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

import toolwire
from toolwire import _toolwire
from support import SHARED, CheckVia, need_shared


def _parsers_to_test() -> List[str]:
    """The default byte scanner, and the structural index with the fastest
    stage-1 kernel this CPU runs and with the portable one."""
    available = _toolwire.parsers()
    return list(dict.fromkeys(["scan", available[1], "scalar"]))


@pytest.fixture(scope="module", params=_parsers_to_test())
def each_parser(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a module's tests once per parser (the byte scanner, the index on
    a SIMD kernel and on the scalar one), in this process and in the
    processes its tests start: an answer must not depend on how the text was
    read, nor on the CPU. Module-scoped, so that hypothesis tests can use it."""
    parser: str = request.param
    before, before_env = _toolwire.parser(), os.environ.get("TOOLWIRE_PARSER")
    _toolwire.use_parser(parser)
    os.environ["TOOLWIRE_PARSER"] = parser
    yield parser
    _toolwire.use_parser(before)
    if before_env is None:
        del os.environ["TOOLWIRE_PARSER"]
    else:
        os.environ["TOOLWIRE_PARSER"] = before_env


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
