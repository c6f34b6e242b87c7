"""``toolwire explain`` at scale (issue 23, item 15): views made one by one
and written as they come, the same bytes as before, ``explain(mapping)``,
the progress bar, and the JSON document against docs/explain.schema.json.

Streaming is pinned by counting, never by timing: the core says how many
views it has made (``Views.made``), and a view must be out before the last
one is made."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, TextIO

import jsonschema
import pytest
from hypothesis import HealthCheck, example, given, settings

import toolwire
import toolwire._explain_command
import toolwire.cli
from support import DATA, REPO, SHARED, need_shared, shared_files
from test_cli import run, write
from test_differential import (
    BOX_CHAIN_IN_THREE_DIALECTS,
    BOX_CYCLE_AND_DIAMOND,
    SELF_LOOP_AND_AGENT_AS_TOOL,
    SERIALISERS,
    options,
    serialisers,
    workflows,
)
from toolwire import ConsumerView, _api
from toolwire._formats import explain_format
from toolwire._formats.common import node_id, pad, plural, quoted, text_width
from toolwire._formats.text_format import display_path, path_text
from toolwire._progress import Progress

Json = Dict[str, Any]

SCHEMA: Json = json.loads((REPO / "docs" / "explain.schema.json").read_text(encoding="utf-8"))
REAL_WORKFLOWS = shared_files(SHARED / "real-workflows")
OUR_WORKFLOWS = sorted(DATA.glob("*.json"))
ERASE = "\r\x1b[K"


def _many_consumers(count: int) -> Json:
    """`count` agents, each wired to a box of three tools (two of one name)
    and to a tool of its own."""
    nodes: List[Json] = [{"id": "box", "type": "toolbox", "data": {"label": "Shared"}}]
    edges: List[Json] = []

    def wire(source: str, target: str) -> None:
        edges.append({"source": source, "target": target, "data": {"edgeType": "tool_availability"}})

    for i, label in enumerate(["Web Search", "web-search", "Fetch"]):
        nodes.append({"id": f"t{i}", "type": "http_request", "data": {"label": label}})
        wire(f"t{i}", "box")
    for a in range(count):
        nodes.append({"id": f"agent_{a:03}", "type": "agent", "data": {"label": f"Agent {a}"}})
        nodes.append({"id": f"own_{a:03}", "type": "http_request", "data": {"label": f"Own {a}"}})
        wire("box", f"agent_{a:03}")
        wire(f"own_{a:03}", f"agent_{a:03}")
    return {"nodes": nodes, "edges": edges}


# --- what was written before: the oracle --------------------------------------------


def _text_as_before(path: str, views: List[ConsumerView]) -> str:
    """The text writer as it was before views were streamed, kept here as
    the oracle the streaming writer must match byte for byte."""
    out = io.StringIO()
    shown = display_path(path)
    if not views:
        out.write(f"{shown}: no node receives tools\n")
    for i, view in enumerate(views):
        if i:
            out.write("\n")
        where = "" if view.location is None else f":{view.location.line}:{view.location.column}"
        shared = sum(t.collides for t in view.tools)
        if view.forwards:
            note = f" ({shared} share a name: a CMP-9 clash at each consumer they reach together)" if shared else ""
            verb = "forwards"
        else:
            note = f" ({plural(shared, 'tool')} share a name: CMP-9)" if shared else ""
            verb = "gets"
        out.write(f"{shown}{where}: {node_id(view.consumer)} {verb} {plural(len(view.tools), 'tool')}{note}\n")
        if not view.tools:
            continue
        names = [t.name for t in view.tools]
        ids = [node_id(t.id) for t in view.tools]
        labels = [quoted(t.label) for t in view.tools]
        widths = [max(text_width(c) for c in column) for column in (names, ids, labels)]
        for tool, name, node, label in zip(view.tools, names, ids, labels):
            line = "  ".join(pad(cell, width) for cell, width in zip((name, node, label), widths))
            if tool.location is not None:
                line += f"  at {tool.location.line}:{tool.location.column}"
            if tool.collides:
                line += "  <- shared name"
            out.write(f"  {line.rstrip()}\n")
            out.write(f"  {' ' * widths[0]}  path: {path_text(tool.path, view.box_labels)}\n")
    return out.getvalue()


def _json_as_before(path: str, views: List[ConsumerView]) -> str:
    """The JSON writer as it was: one ``json.dump`` of the whole document."""
    document = {"path": path, "consumers": [v.to_dict() for v in views]}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _written(write: Any, path: str, views: Iterable[ConsumerView]) -> str:
    out = io.StringIO()
    write(path, iter(views), out)  # an iterator: the writers may not need a list
    return out.getvalue()


def _assert_written_as_before(path: str, views: List[ConsumerView]) -> None:
    assert _written(explain_format.write_text, path, views) == _text_as_before(path, views)
    json_text = _written(explain_format.write_json, path, views)
    assert json_text == _json_as_before(path, views)
    jsonschema.validate(json.loads(json_text), SCHEMA)


@pytest.mark.parametrize("path", OUR_WORKFLOWS, ids=[p.stem for p in OUR_WORKFLOWS])
def test_our_workflows_are_written_as_before_and_fit_the_schema(path: Path) -> None:
    views = toolwire.explain_file(path)
    _assert_written_as_before(str(path), views)
    for view in views:  # each toolbox's view too (forwards)
        for node in {p for t in view.tools for p in t.path[1:-1]}:
            _assert_written_as_before(str(path), toolwire.explain_file(path, consumer=node))


@pytest.mark.parametrize("path", REAL_WORKFLOWS, ids=[p.stem for p in REAL_WORKFLOWS])
def test_real_workflows_are_written_as_before_and_fit_the_schema(path: Path) -> None:
    need_shared(path)
    _assert_written_as_before(str(path), toolwire.explain_file(path))


@pytest.mark.parametrize("label_style", ["snake", "mixed", "unicode"])
def test_generated_workflows_are_written_as_before(tmp_path: Path, label_style: str) -> None:
    path = tmp_path / "w.json"
    toolwire.cli.main(["generate", "--preset", "small", "--label-style", label_style, str(path)])
    views = toolwire.explain_file(path)
    assert sum(len(v.tools) for v in views) > 1000
    _assert_written_as_before(str(path), views)


def test_no_views_and_odd_strings_are_written_as_before() -> None:
    _assert_written_as_before("<stdin>", [])
    weird = {
        "nodes": [
            {"id": "a\n::notice::x", "type": "agent", "data": {"label": "\u001b[31mred"}},
            {"id": "b\u202e", "type": "toolbox", "data": {"label": "Ｗｉｄｅ 箱"}},
            {"id": '"q"', "type": "http_request", "data": {"label": "e\u0301 \u2028 ok"}},
        ],
        "edges": [
            {"source": '"q"', "target": "b\u202e", "data": {"edgeType": "tool_availability"}},
            {"source": "b\u202e", "target": "a\n::notice::x", "data": {"edgeType": "tool_availability"}},
        ],
    }
    _assert_written_as_before("dir/we ird\n.json", toolwire.explain_json(json.dumps(weird)))
    _assert_written_as_before("x.json", toolwire.explain(weird))  # no locations


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workflow=workflows(), chosen=options(), serialiser=serialisers)
@example(workflow=BOX_CYCLE_AND_DIAMOND, chosen={}, serialiser="json.dumps")
def test_random_workflows_are_written_as_before_and_fit_the_schema(
    workflow: Json, chosen: Json, serialiser: str
) -> None:
    _assert_written_as_before("w.json", toolwire.explain_json(SERIALISERS[serialiser](workflow), **chosen))


# --- made one by one ------------------------------------------------------------------


def test_the_first_views_come_before_the_last_is_made() -> None:
    text = json.dumps(_many_consumers(60))
    views = _api.views_of_json(text, None, toolwire.DEFAULT_PASSTHROUGH_TYPES, toolwire.DEFAULT_EDGE_TYPES, 1)
    assert views.count == 60
    chunks = iter(views)
    first = next(chunks)
    # One view per chunk, and the core only a few chunks ahead of the reader.
    assert len(first) == 1 and views.made < views.count
    rest = [view for chunk in chunks for view in chunk]
    assert views.made == 60
    assert [*first, *rest] == toolwire.explain_json(text)


def test_chunks_hold_about_chunk_tools_tools_and_whole_views() -> None:
    text = json.dumps(_many_consumers(40))  # four tools a view
    views = _api.views_of_json(text, None, toolwire.DEFAULT_PASSTHROUGH_TYPES, toolwire.DEFAULT_EDGE_TYPES, 20)
    sizes = [len(chunk) for chunk in views]
    # A chunk is sent once it holds 20 tools, each view counting one more.
    assert sizes == [4] * 10


def test_a_stream_dropped_half_read_stops_and_another_starts() -> None:
    text = json.dumps(_many_consumers(50))
    for _ in range(20):
        views = _api.views_of_json(text, None, toolwire.DEFAULT_PASSTHROUGH_TYPES, toolwire.DEFAULT_EDGE_TYPES, 1)
        next(iter(views))
        del views
    assert len(toolwire.explain_json(text)) == 50


def test_errors_come_when_the_stream_is_made(tmp_path: Path) -> None:
    options = (toolwire.DEFAULT_PASSTHROUGH_TYPES, toolwire.DEFAULT_EDGE_TYPES)
    with pytest.raises(toolwire.WorkflowError) as e:
        _api.views_of_json('{"nodes": [}', None, *options)
    assert (e.value.line, e.value.column) == (1, 12)
    with pytest.raises(LookupError, match='no node "nobody"'):
        _api.views_of_file(DATA / "spec-cmp9-refused.json", "nobody", *options)
    with pytest.raises(FileNotFoundError):
        _api.views_of_file(tmp_path / "missing.json", None, *options)


class _Recorder(io.StringIO):
    """Standard output that notes, at each write, how many views the core had made."""

    def __init__(self, views: List[_api.Views]) -> None:
        super().__init__()
        self.views = views
        self.made_at_first_block: Optional[int] = None

    def write(self, text: str) -> int:
        if self.made_at_first_block is None and (" gets " in text or "\"consumer\": " in text):
            self.made_at_first_block = self.views[0].made
        return super().write(text)


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_cli_writes_the_first_consumer_before_the_last_view_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, output_format: str
) -> None:
    path = write(tmp_path, "many.json", _many_consumers(60))
    made: List[_api.Views] = []

    def one_view_a_chunk(*args: Any, **options: Any) -> _api.Views:
        made.append(_api.views_of_file(*args, **options, chunk_tools=1))
        return made[-1]

    monkeypatch.setattr(toolwire._explain_command, "views_of_file", one_view_a_chunk)
    out = _Recorder(made)
    monkeypatch.setattr("sys.stdout", out)
    assert toolwire.cli.main(["explain", "--format", output_format, path]) == 0
    assert out.made_at_first_block is not None and out.made_at_first_block < 60
    views = toolwire.explain_file(path)
    expected = _text_as_before(path, views) if output_format == "text" else _json_as_before(path, views)
    assert out.getvalue() == expected


# --- explain(mapping) -------------------------------------------------------------------


def _without_locations(views: List[ConsumerView]) -> List[ConsumerView]:
    return [
        v._replace(location=None, tools=[t._replace(location=None) for t in v.tools]) for v in views
    ]


@pytest.mark.parametrize("path", [*OUR_WORKFLOWS, *REAL_WORKFLOWS], ids=lambda p: p.stem)
def test_explain_of_a_mapping_is_explain_json_without_locations(path: Path) -> None:
    if SHARED in path.parents:
        need_shared(path)
    text = path.read_text(encoding="utf-8")
    views = toolwire.explain(json.loads(text))
    assert views == _without_locations(toolwire.explain_json(text))
    assert all(v.location is None and all(t.location is None for t in v.tools) for v in views)
    for view in views[:3]:
        assert toolwire.explain(json.loads(text), consumer=view.consumer) == [view]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workflow=workflows(), chosen=options())
@example(workflow=BOX_CHAIN_IN_THREE_DIALECTS, chosen={})
@example(workflow=SELF_LOOP_AND_AGENT_AS_TOOL, chosen={})
def test_explain_of_a_random_mapping_is_explain_json_without_locations(workflow: Json, chosen: Json) -> None:
    assert toolwire.explain(workflow, **chosen) == _without_locations(
        toolwire.explain_json(json.dumps(workflow), **chosen)
    )


def test_explain_of_a_mapping_refuses_as_check_does() -> None:
    with pytest.raises(toolwire.WorkflowError, match="duplicate node id"):
        toolwire.explain({"nodes": [{"id": "a"}, {"id": "a"}]})
    with pytest.raises(LookupError, match='no node "nobody"'):
        toolwire.explain(_many_consumers(1), consumer="nobody")
    with pytest.raises(TypeError, match="consumer"):
        toolwire.explain(_many_consumers(1), consumer=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="passthrough_types"):
        toolwire.explain(_many_consumers(1), passthrough_types="toolbox")
    assert "explain" in toolwire.__all__


# --- the progress bar -------------------------------------------------------------------


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _explain_with_bar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stdout: TextIO, stderr: TextIO, *extra: str
) -> int:
    path = write(tmp_path, "many.json", _many_consumers(30))
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setattr("sys.stdout", stdout)
    monkeypatch.setattr("sys.stderr", stderr)
    # Every clock reading is a tenth of a second later, so each chunk redraws;
    # and one view a chunk, so there are many.
    ticks = iter(range(10**6))
    monkeypatch.setattr(toolwire._explain_command, "Progress", functools.partial(Progress, clock=lambda: next(ticks) / 10))
    monkeypatch.setattr(
        toolwire._explain_command, "views_of_file", lambda *args, **options: _api.views_of_file(*args, **options, chunk_tools=1)
    )
    return toolwire.cli.main(["explain", *extra, path])


def test_the_bar_is_drawn_on_a_terminal_while_the_views_go_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stdout, stderr = io.StringIO(), _Terminal()
    assert _explain_with_bar(tmp_path, monkeypatch, stdout, stderr) == 0
    text = stderr.getvalue()
    assert text.endswith(ERASE)
    lines = [line for line in text.replace(ERASE, "").split("\r") if line]
    assert lines and all(line.startswith("explaining ") and "/30 consumers [" in line for line in lines)
    assert stdout.getvalue().count(" gets ") == 30  # the output itself untouched


def test_no_bar_when_standard_error_is_not_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stderr = io.StringIO()
    assert _explain_with_bar(tmp_path, monkeypatch, io.StringIO(), stderr) == 0
    assert stderr.getvalue() == ""


def test_no_bar_when_the_views_go_to_that_terminal_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Both on one terminal, the bar would be drawn in the middle of the views' lines.
    stdout, stderr = _Terminal(), _Terminal()
    assert _explain_with_bar(tmp_path, monkeypatch, stdout, stderr) == 0
    assert stderr.getvalue() == "" and stdout.getvalue().count(" gets ") == 30


def test_the_bar_is_drawn_when_the_views_go_to_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stdout, stderr = _Terminal(), _Terminal()
    output = tmp_path / "out.txt"
    assert _explain_with_bar(tmp_path, monkeypatch, stdout, stderr, "-o", str(output)) == 0
    assert "explaining " in stderr.getvalue() and stdout.getvalue() == ""
    assert output.read_text(encoding="utf-8").count(" gets ") == 30


# --- the schema -------------------------------------------------------------------------


def test_the_schema_is_valid_and_refuses_what_explain_never_writes() -> None:
    validator = jsonschema.validators.validator_for(SCHEMA)
    validator.check_schema(SCHEMA)
    document = json.loads(_written(explain_format.write_json, "x.json", toolwire.explain_file(DATA / "multi-violation.json")))
    jsonschema.validate(document, SCHEMA)
    broken = json.loads(json.dumps(document))
    del broken["consumers"][0]["tools"][0]["collides"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, SCHEMA)
    broken = json.loads(json.dumps(document))
    broken["consumers"][0]["location"] = {"line": 0, "column": 1}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, SCHEMA)


def test_the_cli_json_of_standard_input_and_of_a_box_fit_the_schema(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = (DATA / "spec-cmp9-refused.json").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    result = run(capsys, "explain", "--format", "json", "-")
    document = json.loads(result.out)
    jsonschema.validate(document, SCHEMA)
    assert document["path"] == "<stdin>"
    result = run(capsys, "explain", "--format", "json", "--consumer", "box_1", str(DATA / "spec-cmp9-refused.json"))
    document = json.loads(result.out)
    jsonschema.validate(document, SCHEMA)
    assert document["consumers"][0]["forwards"] is True


def test_the_json_sample_in_reports_md_is_what_explain_writes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    section = (REPO / "docs" / "REPORTS.md").read_text(encoding="utf-8").split("\n## explain\n", 1)[1]
    sample = section.split("```json\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(REPO)
    result = run(capsys, "explain", "--format", "json", "tests/data/spec-cmp9-refused.json")
    assert result.code == 0 and result.out == sample
    jsonschema.validate(json.loads(sample), SCHEMA)
