"""Paths and types shared by the test files. (Not in conftest.py: the
benchmarks have a conftest of their own, and `from conftest import ...` would
find whichever was imported first.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Dict

import toolwire

REPO = Path(__file__).resolve().parent.parent
# ../shared sits beside the repository in development and in CI; tests that
# need it skip when it is not there.
SHARED = REPO.parent / "shared"
DATA = Path(__file__).resolve().parent / "data"

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
