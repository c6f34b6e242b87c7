"""Paths and types shared by the test files. (Not in conftest.py: the
benchmarks have a conftest of their own, and `from conftest import ...` would
find whichever was imported first.)"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import toolwire

REPO = Path(__file__).resolve().parent.parent
# ../shared sits beside the repository in development and in CI; tests that
# need it skip when it is not there.
SHARED = REPO.parent / "shared"
DATA = Path(__file__).resolve().parent / "data"

CheckVia = Callable[..., toolwire.Report]
