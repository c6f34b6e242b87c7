"""A workflow's head (its ``id`` and ``input_ports``, SEMANTICS.md section 12)
is read by every reader for the site check, but it is only data: whatever the
head holds, a workflow checked alone gets exactly the report it gets without
one (issue 22). Each case adds a head after everything else, so every place in
the report stays where it was, and the whole report, places included, must
not change, through every entry point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

import pytest
import yaml

import toolwire

# A clash (CMP-9), an unknown edge type (EDGE-5) and a wired but undeclared
# node (a warning): a report with something in each part.
WORKFLOW: Dict[str, Any] = {
    "nodes": [
        {"id": "t1", "data": {"label": "Web Search"}},
        {"id": "t2", "data": {"label": "web-search"}},
        {"id": "box", "type": "toolbox"},
        {"id": "agent", "data": {"label": "Agent"}},
    ],
    "edges": [
        {"source": "t1", "target": "box", "targetHandle": "box-input-tool"},
        {"source": "t2", "target": "box", "targetHandle": "box-input-tool"},
        {"source": "box", "target": "agent", "targetHandle": "agent-input-tool"},
        {"source": "t1", "target": "ghost", "targetHandle": "ghost-input-tool"},
        {"id": "e5", "source": "t1", "target": "agent", "data": {"edgeType": "tool_availabilty"}},
    ],
}

HEADS: List[Dict[str, Any]] = [
    {"id": "flow", "input_ports": [{"name": "tool", "node_id": "agent", "port": "tool"}]},
    {"id": 5, "input_ports": "tool"},
    {"id": None, "input_ports": {"a": 1}},
    {"id": ["x"], "input_ports": [1, "tool", None, [], {"port": "tool"}, {"port": "tool", "node_id": 7}]},
    {"input_ports": [{"port": "tool", "node_id": "nowhere"}, {"port": 3, "node_id": {}}, {"node_id": "agent"}]},
    {"id": "", "input_ports": None},
]


def with_head(head: Dict[str, Any]) -> Dict[str, Any]:
    return {**WORKFLOW, **head}


def json_text(workflow: Dict[str, Any]) -> str:
    return json.dumps(workflow, indent=1)


def yaml_text(workflow: Dict[str, Any]) -> str:
    return yaml.safe_dump(workflow, sort_keys=False, default_flow_style=False)


def via_json(workflow: Dict[str, Any], tmp_path: Path) -> toolwire.Report:
    return toolwire.check_json(json_text(workflow))


def via_yaml(workflow: Dict[str, Any], tmp_path: Path) -> toolwire.Report:
    return toolwire.check_yaml(yaml_text(workflow))


def via_dict(workflow: Dict[str, Any], tmp_path: Path) -> toolwire.Report:
    return toolwire.check(workflow)


def via_yaml_file(workflow: Dict[str, Any], tmp_path: Path) -> toolwire.Report:
    path = tmp_path / "flowdrop_workflow.flowdrop_workflow.flow.yml"
    path.write_text(yaml_text(workflow), encoding="utf-8")
    return toolwire.check_file(path)


def via_json_file(workflow: Dict[str, Any], tmp_path: Path) -> toolwire.Report:
    path = tmp_path / "flow.json"
    path.write_text(json_text(workflow), encoding="utf-8")
    return toolwire.check_file(path)


VIAS: List[Callable[[Dict[str, Any], Path], toolwire.Report]] = [
    via_json,
    via_yaml,
    via_dict,
    via_json_file,
    via_yaml_file,
]


@pytest.mark.parametrize("via", VIAS, ids=lambda v: v.__name__)
@pytest.mark.parametrize("head", HEADS, ids=lambda h: json.dumps(h)[:40])
def test_cmp9_any_head_leaves_a_single_file_report_exactly_as_it_was(
    via: Callable[[Dict[str, Any], Path], toolwire.Report], head: Dict[str, Any], tmp_path: Path
) -> None:
    alone = via(WORKFLOW, tmp_path).to_dict()
    assert not alone["ok"] and alone["violations"] and alone["warnings"], "the workflow shows every part"
    assert via(with_head(head), tmp_path).to_dict() == alone


def test_cmp9_a_repeated_head_key_in_json_changes_nothing_either() -> None:
    alone = toolwire.check_json(json_text(WORKFLOW)).to_dict()
    text = json_text(WORKFLOW)[:-2] + ', "id": 1, "input_ports": 2, "id": "x", "input_ports": [3]\n}'
    assert toolwire.check_json(text).to_dict() == alone


class RaisingMapping:
    """A Mapping whose ``id`` and ``input_ports`` raise when read: the head
    cannot be read, and the check of the workflow itself must not notice."""

    def __init__(self, workflow: Dict[str, Any]) -> None:
        self._workflow = workflow

    def __getitem__(self, key: str) -> Any:
        if key in ("id", "input_ports"):
            raise RuntimeError(f"{key} cannot be read")
        return self._workflow[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._workflow)

    def __len__(self) -> int:
        return len(self._workflow)


def test_cmp9_a_head_python_cannot_read_leaves_a_dict_check_as_it_was() -> None:
    from collections.abc import Mapping

    Mapping.register(RaisingMapping)
    alone = toolwire.check(WORKFLOW).to_dict()
    assert toolwire.check(RaisingMapping(WORKFLOW)).to_dict() == alone  # type: ignore[arg-type]
    # A str that is not text (a lone surrogate) in the head, likewise.
    surrogate = with_head({"id": "\ud800", "input_ports": [{"port": "tool", "node_id": "\udc00"}, {"port": "\ud800"}]})
    assert toolwire.check(surrogate).to_dict() == alone
