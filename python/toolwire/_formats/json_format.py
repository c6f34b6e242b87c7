"""``--format json``: every file's report as one JSON document. The schema
is docs/report.schema.json; ``schema_version`` changes only when a field
changes meaning or goes away (adding fields does not change it)."""

from __future__ import annotations

import json
from typing import Any, Dict, TextIO

from . import Run

SCHEMA_VERSION = 2


def document(run: Run) -> Dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "ok": not any(run.failed(r) for r in run.reports),
        "strict": run.strict,
        "files": [r.to_dict() for r in run.reports],
    }


def write(run: Run, out: TextIO) -> None:
    json.dump(document(run), out, ensure_ascii=False, indent=2)
    out.write("\n")
