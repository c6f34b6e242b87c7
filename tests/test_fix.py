"""``toolwire check --fix`` and ``--diff``: the suggested CMP-9 renames
written into JSON workflow files, changing only the labels' bytes.

Each test checks the bytes: the fixed file is the original with exactly the
renamed labels' string tokens changed (or, for a node named by its id, one
member inserted), it is valid JSON, and checking it again finds no CMP-9
violation. The real workflows of ``../shared/real-workflows`` are copied
into a temporary directory, given one clash, and fixed there.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

import toolwire
from toolwire import _check_command
from support import DATA, SHARED, shared_files
from test_cli import run, write

Json = Dict[str, Any]
REFUSED = DATA / "spec-cmp9-refused.json"


def _wire(source: str, target: str) -> Json:
    return {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}


def _cmp9(path: Path) -> List[Tuple[Optional[str], Optional[str]]]:
    return [(v.consumer, v.name) for v in toolwire.check_file(path).violations if v.rule == "CMP-9"]


def _renames(path: Path) -> Dict[str, toolwire.Rename]:
    return {r.node: r for v in toolwire.check_file(path).violations for r in v.fix}


def _only_labels_changed(before: str, after: str, renames: Dict[str, toolwire.Rename]) -> None:
    """``after`` is ``before`` with, for each rename, the string token of its
    node's ``"label"`` rewritten to hold the new label, and nothing else
    changed. Found without toolwire's help: each label's key is looked for
    in the text and its value decoded with ``json``."""
    decoder = json.JSONDecoder()

    def node_at(node: str) -> int:
        spelt = "|".join(re.escape(json.dumps(node, ensure_ascii=ascii)) for ascii in (False, True))
        found = re.compile(rf'"id"\s*:\s*(?:{spelt})').search(before)
        assert found is not None, node
        return found.start()

    at_before = at_after = 0
    for rename in sorted(renames.values(), key=lambda r: node_at(r.node)):
        key = re.compile(r'"label"\s*:\s*').search(before, node_at(rename.node))
        assert key is not None, rename
        start = key.end()
        old, old_end = decoder.raw_decode(before, start)
        assert old == rename.label
        shift = at_after - at_before
        # Everything up to the token is unchanged...
        assert after[at_after : start + shift] == before[at_before:start], rename
        new, new_end = decoder.raw_decode(after, start + shift)
        # ... and the token now holds the new label.
        assert new == rename.new_label
        at_before, at_after = old_end, new_end
    assert after[at_after:] == before[at_before:]


# --- the spec's example ----------------------------------------------------------------


def test_fix_rewrites_only_the_renamed_label_and_keeps_the_mode(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "refused.json"
    original = REFUSED.read_bytes()
    path.write_bytes(original)
    path.chmod(0o640)
    result = run(capsys, "check", "--fix", str(path))
    # Only the R8 warning (an undeclared agent) is left: exit 0, like ruff.
    assert result.code == 0
    assert result.err == f"{path}: fixed 1 label\n"
    assert f"{path}: ok (1 warning)" in result.out
    assert path.read_bytes() == original.replace(b'"label": "web-search"', b'"label": "web-search (tool_b)"')
    assert (path.stat().st_mode & 0o7777) == 0o640
    assert _cmp9(path) == []
    assert [p.name for p in tmp_path.iterdir()] == ["refused.json"], "no temporary file is left"


def test_the_report_after_fix_is_of_the_fixed_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # EDGE-5 is never fixed: it remains, and its location is in the fixed text.
    path = tmp_path / "multi.json"
    path.write_bytes((DATA / "multi-violation.json").read_bytes())
    result = run(capsys, "check", "--fix", "--format", "json", str(path))
    assert result.code == 1
    (entry,) = result.json()["files"]
    assert [v["rule"] for v in entry["violations"]] == ["EDGE-5"]
    assert entry == json.loads(run(capsys, "check", "--format", "json", str(path)).out)["files"][0]


def test_diff_shows_the_fix_and_writes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "refused.json"
    path.write_bytes(REFUSED.read_bytes())
    before = path.stat()
    result = run(capsys, "check", "--diff", str(path))
    assert (result.code, result.err) == (1, "")
    assert result.out == (
        f"--- {path}\n"
        f"+++ {path}\n"
        "@@ -1,7 +1,7 @@\n"
        " {\n"
        '   "nodes": [\n'
        '     {"id": "tool_a", "type": "http_request", "data": {"label": "Web Search"}},\n'
        '-    {"id": "tool_b", "type": "http_request", "data": {"label": "web-search"}},\n'
        '+    {"id": "tool_b", "type": "http_request", "data": {"label": "web-search (tool_b)"}},\n'
        '     {"id": "box_1", "type": "toolbox", "data": {"label": "My Tools"}}\n'
        "   ],\n"
        '   "edges": [\n'
    )
    assert path.read_bytes() == REFUSED.read_bytes() and path.stat().st_mtime_ns == before.st_mtime_ns
    # The diff applies, and gives what --fix writes.
    patched = tmp_path / "patched"
    patched.mkdir()
    (patched / "refused.json").write_bytes(REFUSED.read_bytes())
    diff = result.out.replace(str(path), "refused.json")
    subprocess.run(["patch", "-p0", "-s"], input=diff, text=True, cwd=patched, check=True)
    assert run(capsys, "check", "--fix", str(path)).code == 0
    assert (patched / "refused.json").read_bytes() == path.read_bytes()
    # Nothing left to change: no diff, exit 0.
    again = run(capsys, "check", "--diff", str(path))
    assert (again.code, again.out) == (0, "")


def test_diff_marks_a_last_line_without_newline(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    workflow = {"nodes": [{"id": "a", "data": {"label": "S"}}, {"id": "b", "data": {"label": "s"}}],
                "edges": [_wire("a", "c"), _wire("b", "c")]}
    path = write(tmp_path, "one-line.json", workflow)
    result = run(capsys, "check", "--diff", path)
    assert result.out.endswith("\n\\ No newline at end of file\n") and result.out.count("No newline") == 2


# --- refusals ----------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--fix", "--diff"])
def test_fix_refuses_standard_input_yaml_and_dask_before_reading(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, option: str
) -> None:
    def no_read() -> None:
        raise AssertionError("nothing may be read")

    monkeypatch.setattr(_check_command, "check_all", lambda *a, **k: no_read())
    result = run(capsys, "check", option, "-")
    assert (result.code, result.out) == (2, "")
    assert result.err == (
        f"toolwire: {option} rewrites files: it cannot fix standard input ('-'); give the workflow as a file\n"
    )
    yaml = tmp_path / "flowdrop_workflow.flowdrop_workflow.x.yml"
    yaml.write_text("nodes: []\n", encoding="utf-8")
    result = run(capsys, "check", option, str(REFUSED), str(yaml))
    assert result.code == 2
    assert "is read as YAML: toolwire checks YAML but rewrites only JSON files, so it cannot fix it" in result.err
    assert yaml.read_text(encoding="utf-8") == "nodes: []\n"
    result = run(capsys, "check", option, "--dask", "local:1", str(REFUSED))
    assert result.code == 2 and "do not go together" in result.err


# --- labels as real files write them ---------------------------------------------------


def _fix_file(capsys: pytest.CaptureFixture[str], path: Path) -> Tuple[str, str, int, str]:
    # As bytes: read_text would turn \r\n into \n.
    before = path.read_bytes().decode("utf-8")
    renames = _renames(path)
    result = run(capsys, "check", "--fix", str(path))
    after = path.read_bytes().decode("utf-8")
    json.loads(after)  # valid JSON
    assert _cmp9(path) == [], after
    if renames:
        _only_labels_changed(before, after, renames)
    return before, after, result.code, result.err


def test_escapes_in_the_old_label_are_kept_and_the_new_text_is_valid_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = (
        '{"nodes": [\r\n'
        '\t{"id": "b\\"q", "data": {"label": "Caf\\u00e9 \\"S\\"\\\\"}},\r\n'
        '\t{"id": "a", "data": {"label": "café \\"s\\"\\\\"}}\r\n'
        '], "edges": [{"source": "a", "target": "c", "targetHandle": "c-input-tool"},'
        ' {"source": "b\\"q", "target": "c", "targetHandle": "c-input-tool"}]}'
    )
    path = tmp_path / "escapes.json"
    path.write_bytes(text.encode("utf-8"))
    before, after, code, _ = _fix_file(capsys, path)
    # The old label's escapes stay as written; the added text is JSON too.
    assert after == before.replace('"Caf\\u00e9 \\"S\\"\\\\"', '"Caf\\u00e9 \\"S\\"\\\\ (b\\"q)"')
    assert "\r\n\t" in after and code == 0


def test_an_ascii_file_stays_ascii(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    workflow = {"nodes": [{"id": "a", "data": {"label": "Ünïcode"}}, {"id": "é", "data": {"label": "Ünïcode"}}],
                "edges": [_wire("a", "c"), _wire("é", "c")]}
    path = tmp_path / "ascii.json"
    path.write_text(json.dumps(workflow, indent=2), encoding="utf-8")  # ensure_ascii: \u escapes
    _, after, _, _ = _fix_file(capsys, path)
    assert after.isascii() and "\\u00dcn\\u00efcode (\\u00e9 2)" in after


def test_a_label_that_must_be_cut_is_written_whole(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    long = "Search " + "very " * 20 + "far"
    workflow = {"nodes": [{"id": "a", "data": {"label": long}}, {"id": "b", "data": {"label": long.upper()}}],
                "edges": [_wire("a", "c"), _wire("b", "c")]}
    path = Path(write(tmp_path, "long.json", workflow))
    (rename,) = _renames(path).values()
    assert not rename.new_label.startswith(rename.label)  # shortened to fit 64 characters
    _fix_file(capsys, path)


@pytest.mark.parametrize(
    ("node_b", "inserted"),
    [
        (
            {"id": "b", "type": "t", "data": {"other": 1}},
            '{"id": "b", "type": "t", "data": {"label": "b (b)", "other": 1}}',
        ),
        ({"id": "b", "type": "t", "data": {}}, '{"id": "b", "type": "t", "data": {"label": "b (b)"}}'),
        ({"id": "b", "type": "t"}, '{"data": {"label": "b (b)"}, "id": "b", "type": "t"}'),
        ({"id": "b", "data": None}, '{"id": "b", "data": {"label": "b (b)"}}'),
        ({"id": "b", "data": {"label": ""}}, '{"id": "b", "data": {"label": "b (b)"}}'),
        ({"id": "b", "data": {"label": 7}}, '{"id": "b", "data": {"label": "b (b)"}}'),
    ],
    ids=["data-without-label", "empty-data", "no-data", "null-data", "empty-label", "number-label"],
)
def test_a_node_named_by_its_id_gets_a_label(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, node_b: Json, inserted: str
) -> None:
    # "a" is labelled "B", "b" is named by its id: both are called b.
    workflow = {"nodes": [{"id": "a", "data": {"label": "B"}}, node_b], "edges": [_wire("a", "c"), _wire("b", "c")]}
    path = Path(write(tmp_path, "by-id.json", workflow))
    before = path.read_text(encoding="utf-8")
    assert run(capsys, "check", "--fix", str(path)).code == 0
    after = path.read_text(encoding="utf-8")
    assert after == before.replace(json.dumps(node_b), inserted)
    assert _cmp9(path) == []


def test_an_inserted_label_is_spaced_like_its_neighbour(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    workflow = {"nodes": [{"id": "a", "data": {"label": "B"}}, {"id": "b", "data": {"x": 1}}],
                "edges": [_wire("a", "c"), _wire("b", "c")]}
    path = tmp_path / "pretty.json"
    path.write_text(json.dumps(workflow, indent=4), encoding="utf-8")
    before = path.read_text(encoding="utf-8")
    assert run(capsys, "check", "--fix", str(path)).code == 0
    after = path.read_text(encoding="utf-8")
    old = '"data": {\n                "x": 1'
    assert after == before.replace(old, '"data": {\n                "label": "b (b)",\n                "x": 1')
    minified = tmp_path / "minified.json"
    minified.write_text(json.dumps(workflow, separators=(",", ":")), encoding="utf-8")
    assert run(capsys, "check", "--fix", str(minified)).code == 0
    assert '{"id":"b","data":{"label":"b (b)","x":1}}' in minified.read_text(encoding="utf-8")


def test_repeated_keys_are_fixed_where_the_check_reads_them(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = (
        '{"nodes": [{"id": "a", "data": {"label": "S"}},'
        ' {"id": "b", "data": {"label": "x"}, "data": {"label": "old", "label": "s"}}],'
        ' "edges": [{"source": "a", "target": "c", "targetHandle": "c-input-tool"},'
        ' {"source": "b", "target": "c", "targetHandle": "c-input-tool"}]}'
    )
    path = tmp_path / "repeated.json"
    path.write_text(text, encoding="utf-8")
    assert run(capsys, "check", "--fix", str(path)).code == 0
    assert path.read_text(encoding="utf-8") == text.replace('"label": "s"', '"label": "s (b)"')


def test_what_cannot_be_fixed_is_said_and_remains(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "b" is never declared (R8), "d" has a string for data: neither has a
    # label to rewrite. "a" and "a2" sort first and keep their names.
    workflow = {"nodes": [{"id": "a", "data": {"label": "B"}}, {"id": "a2", "data": {"label": "D"}},
                          {"id": "d", "data": "text"}],
                "edges": [_wire("a", "c"), _wire("b", "c"), _wire("a2", "e"), _wire("d", "e"),
                          {"source": "a", "target": "e", "data": {"edgeType": "tool_availabilty"}}]}
    path = Path(write(tmp_path, "stuck.json", workflow))
    original = path.read_bytes()
    result = run(capsys, "check", "--fix", str(path))
    assert result.code == 1
    assert result.err == (
        f'{path}: cannot rename "b": it is never declared in `nodes`: declare it there with a data.label\n'
        f'{path}: cannot rename "d": its data is a string, not an object that could hold a label\n'
    )
    assert path.read_bytes() == original
    assert len(_cmp9(path)) == 2


def test_a_file_named_twice_is_fixed_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "refused.json"
    path.write_bytes(REFUSED.read_bytes())
    link = tmp_path / "link.json"
    link.symlink_to(path)
    result = run(capsys, "check", "--fix", "--format", "json", str(path), str(link))
    assert result.code == 0 and result.err.count("fixed 1 label") == 1
    assert link.is_symlink(), "the link is followed, not replaced"
    assert b'"web-search (tool_b)"' in path.read_bytes()
    assert [f["ok"] for f in result.json()["files"]] == [True, True]


def test_an_unwritable_folder_is_an_error_and_the_file_stays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "refused.json"
    path.write_bytes(REFUSED.read_bytes())

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("toolwire._files._temporary_beside", refuse)  # as root, chmod would not stop it
    result = run(capsys, "check", "--fix", str(path))
    assert result.code == 2
    assert result.err == f"{path}: error: cannot write the fixed file: Permission denied\n"
    assert path.read_bytes() == REFUSED.read_bytes()


# --- the three dialects --------------------------------------------------------------


DIALECTS: Dict[str, Json] = {
    "spec": {
        "nodes": [
            {"id": "t1", "type": "http_request", "data": {"label": "Fetch Page"}},
            {"id": "t2", "type": "http_request", "data": {"label": "fetch-page"}},
            {"id": "box", "type": "toolbox", "data": {"label": "Kit"}},
            {"id": "ag", "type": "ai_agent", "data": {"label": "Agent"}},
        ],
        "edges": [_wire("t1", "box"), _wire("t2", "box"), _wire("box", "ag")],
    },
    "js-editor": {
        "nodes": [
            {"id": "t.1", "type": "universalNode", "data": {"label": "Fetch Page", "metadata": {"id": "http_request"}}},
            {"id": "t.2", "type": "universalNode", "data": {"metadata": {"id": "http_request"}, "label": "Fetch-Page"}},
            {"id": "box.1", "type": "universalNode", "data": {"label": "Kit", "metadata": {"id": "toolbox"}}},
            {"id": "ag.1", "type": "universalNode", "data": {"label": "Agent", "metadata": {"id": "agent"}}},
        ],
        "edges": [
            {"id": f"e{i}", "source": s, "target": t, "data": {"metadata": {"edgeType": "tool"}},
             "targetHandle": f"{t}-input-tool"}
            for i, (s, t) in enumerate([("t.1", "box.1"), ("t.2", "box.1"), ("box.1", "ag.1")])
        ],
    },
    "drupal": {
        "nodes": [
            {"id": "http_request.1", "data": {"label": "Fetch Page", "metadata": {"node_type_id": "http_request"}}},
            {"id": "http_request.2", "data": {"label": "FETCH PAGE", "metadata": {"node_type_id": "http_request"}}},
            {"id": "flowdrop_node_processor_toolbox.1",
             "data": {"label": "Tool Box", "metadata": {"node_type_id": "flowdrop_node_processor_toolbox"}}},
            {"id": "agent.1", "data": {"label": "Reason", "metadata": {"node_type_id": "agent"}}},
        ],
        "edges": [
            {"source": s, "target": t, "sourceHandle": f"{s}-output-tool", "targetHandle": f"{t}-input-tool"}
            for s, t in [("http_request.1", "flowdrop_node_processor_toolbox.1"),
                         ("http_request.2", "flowdrop_node_processor_toolbox.1"),
                         ("flowdrop_node_processor_toolbox.1", "agent.1")]
        ],
    },
}


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_each_dialect_is_fixed_in_place(capsys: pytest.CaptureFixture[str], tmp_path: Path, dialect: str) -> None:
    path = tmp_path / f"{dialect}.json"
    path.write_text(json.dumps(DIALECTS[dialect], indent=2), encoding="utf-8")
    assert len(_cmp9(path)) == 1
    before, after, code, err = _fix_file(capsys, path)
    assert code == 0 and err == f"{path}: fixed 1 label\n"
    assert before != after


# --- the real workflows -------------------------------------------------------------------


REAL = shared_files(SHARED / "real-workflows")


def _top_level_span(text: str, document: Json, key: str) -> Tuple[int, int]:
    """Where the value of the top-level ``key`` is in ``text``: the last
    place the key is written whose value is the document's."""
    decoder = json.JSONDecoder()
    found = None
    for match in re.finditer(rf'"{key}"\s*:\s*', text):
        try:
            value, end = decoder.raw_decode(text, match.end())
        except ValueError:
            continue
        if value == document[key]:
            found = (match.end(), end)
    assert found is not None, key
    return found


def _inject_clash(text: str) -> Optional[str]:
    """The workflow with one clash more, written into its own text: a new
    tool ``!clash`` (first by id, so it keeps its name) labelled like a real
    tool, wired where that tool is: into a real consumer of it, or, in a
    workflow without one, with the real node into a new agent. None when
    the workflow has no labelled node that could be a tool."""
    document = json.loads(text)
    if not isinstance(document.get("nodes"), list) or not document["nodes"]:
        return None
    views = [v for v in toolwire.explain_json(text) if v.tools]
    if views:
        consumer, tool = views[0].consumer, views[0].tools[0]
        label, wires = tool.label, [("!clash", consumer)]
    else:
        candidates = [
            n for n in document["nodes"]
            if isinstance((n.get("data") or {}).get("label"), str) and n["data"]["label"]
            and not toolwire.explain_json(text, consumer=n["id"])[0].forwards
        ]
        if not candidates:
            return None
        label, wires = candidates[0]["data"]["label"], [("!clash", "!agent"), (candidates[0]["id"], "!agent")]
    new_node = json.dumps({"id": "!clash", "type": "http_request", "data": {"label": label}}, ensure_ascii=False)
    new_edges = ", ".join(json.dumps(_wire(s, t), ensure_ascii=False) for s, t in wires)
    edits = []
    start, _ = _top_level_span(text, document, "nodes")
    edits.append((start + 1, start + 1, new_node + ", "))
    if "edges" in document:
        start, end = _top_level_span(text, document, "edges")
        if document["edges"]:
            edits.append((start + 1, start + 1, new_edges + ", "))
        else:  # [] or Drupal's {}
            edits.append((start, end, f"[{new_edges}]"))
    else:
        return None
    for begin, end, insert in sorted(edits, reverse=True):
        text = text[:begin] + insert + text[end:]
    return text


@pytest.mark.parametrize("real", REAL, ids=[p.name for p in REAL])
def test_a_clash_in_a_real_workflow_is_fixed_byte_for_byte(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, shared_dir: Path, real: Path
) -> None:
    injected = _inject_clash(real.read_text(encoding="utf-8"))
    if injected is None:
        pytest.skip("no labelled node to clash with")
    path = tmp_path / real.name
    path.write_text(injected, encoding="utf-8")
    assert len(_cmp9(path)) == 1, "the injected clash is there"
    (rename,) = _renames(path).values()
    assert rename.node != "!clash", "a real node is renamed, in the real file's own formatting"
    before, after, code, err = _fix_file(capsys, path)
    assert err == f"{path}: fixed 1 label\n"
    assert code == (1 if any(v.rule == "EDGE-5" for v in toolwire.check_file(path).violations) else 0)


def test_the_real_corpus_has_clashes_to_fix(shared_dir: Path) -> None:
    # Otherwise the test above would skip every file and show nothing.
    injected = [_inject_clash(p.read_text(encoding="utf-8")) for p in REAL]
    assert sum(text is not None for text in injected) >= 40


def test_fix_runs_as_a_command(tmp_path: Path) -> None:
    path = tmp_path / "refused.json"
    path.write_bytes(REFUSED.read_bytes())
    done = subprocess.run(
        [sys.executable, "-m", "toolwire", "check", "--fix", str(path)],
        capture_output=True, text=True, check=False, env={**os.environ, "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert _cmp9(path) == []


def test_diff_into_a_file_and_with_an_unreadable_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "refused.json"
    path.write_bytes(REFUSED.read_bytes())
    bad = Path(write(tmp_path, "bad.json", '{"nodes": [\n'))
    out = tmp_path / "fix.diff"
    result = run(capsys, "check", "--diff", "--output", str(out), str(bad), str(path))
    # The other file's diff is still written; the broken one makes it exit 2.
    assert (result.code, result.out) == (2, "")
    assert result.err.startswith(f"{bad}:2:1: error: invalid JSON")
    assert out.read_text(encoding="utf-8").startswith(f"--- {path}\n+++ {path}\n@@ -1,7 +1,7 @@\n")
    assert path.read_bytes() == REFUSED.read_bytes()
