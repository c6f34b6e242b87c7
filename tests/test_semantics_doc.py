"""docs/SEMANTICS.md is in the repository, every citation of it names that
file and a section it has, and its examples say what toolwire does."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Dict, List

import pytest

import toolwire

from support import REPO

SEMANTICS = REPO / "docs" / "SEMANTICS.md"


def sections() -> Dict[int, str]:
    headings = re.findall(r"^## (\d+)\. (.+)$", SEMANTICS.read_text(encoding="utf-8"), flags=re.M)
    return {int(number): title for number, title in headings}


def cited_in() -> List[Path]:
    files = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "python").rglob("*.py"))]
    return [f for f in files if f != SEMANTICS]


def test_the_sections_are_numbered_one_to_twelve() -> None:
    assert list(sections()) == list(range(1, 13))
    # Every section is built (a section not built yet would say so in its
    # heading, as section 12 did before the site check).
    assert [n for n, title in sections().items() if title.endswith("not implemented yet")] == []


def test_every_citation_names_docs_semantics_md_and_a_section_it_has() -> None:
    # The file is named by its path (beside it, in docs/, by its name); the
    # short form "SEMANTICS 4" follows a file's first naming of it.
    files = numbers = 0
    for path in cited_in():
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"(\S*)SEMANTICS\.md", text):
            files += 1
            beside = path.parent == SEMANTICS.parent
            assert match.group(1).endswith("docs/") or beside, f"{path.relative_to(REPO)}: {match.group(0)!r}"
        for match in re.finditer(r"SEMANTICS(?:\.md)?(?: section| §)? ?(\d+)", text):
            numbers += 1
            assert int(match.group(1)) in sections(), f"{path.relative_to(REPO)}: {match.group(0)!r}"
    assert files >= 8 and numbers >= 15


def explain(document: Dict[str, Any]) -> Dict[str, List[str]]:
    views = toolwire.explain_json(json.dumps(document))
    return {view.consumer: [tool.id for tool in view.tools] for view in views}


def section_9_examples() -> List[Dict[str, Any]]:
    part = SEMANTICS.read_text(encoding="utf-8").split("## 9.", 1)[1].split("## 10.", 1)[0]
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", part, flags=re.S)]


def test_the_three_forms_of_section_9_read_as_it_says() -> None:
    spec, editor, drupal = section_9_examples()
    assert explain(spec) == {"agent": ["fetch"]}
    # The editor's edge is a tool edge by its handle (its metadata.edgeType is styling).
    report = toolwire.check_json(json.dumps(editor))
    assert report.ok and report.stats is not None and (report.stats.tool_edges, report.stats.passthroughs) == (1, 1)
    assert explain(drupal) == {"agent.1": ["http_request.1"]}


@pytest.mark.parametrize(
    ("label", "name"),
    [("Web Search", "web_search"), ("web-search", "web_search"), ("WEB_SEARCH!", "web_search"),
     ("Get User (Admin)", "get_user_admin"), ("Café Search", "caf_search"), ("🔍", "unnamed_tool")],
)  # fmt: skip
def test_the_names_of_section_5(label: str, name: str) -> None:
    text = SEMANTICS.read_text(encoding="utf-8").split("## 5.", 1)[1].split("## 6.", 1)[0]
    assert f"`{label}`" in text or label == "🔍"
    assert toolwire.normalize_name(label) == name
