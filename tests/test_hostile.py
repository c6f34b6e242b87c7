"""Hostile input: whatever a careless generator, a broken editor export or a
hostile user hands over, every entry point answers with a report or a
`WorkflowError` that says what and where: never a crash, a hang, or a silent
pass. (docs/RELIABILITY.md lists each class of input and the test here.)"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Mapping, Tuple

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import toolwire
from toolwire import Location, cli, reference
from support import without_places

TEXT_PATHS = ["str", "bytes", "file", "files", "cli"]

CheckText = Callable[[bytes], toolwire.Report]


@pytest.fixture(params=TEXT_PATHS)
def check_text_via(request: pytest.FixtureRequest, tmp_path: Path) -> CheckText:
    """Checks raw bytes through one entry point; input errors raise
    `WorkflowError` whichever way they are reported."""
    how = request.param
    good = tmp_path / "good.json"
    good.write_text('{"nodes": []}', encoding="utf-8")

    def run(data: bytes) -> toolwire.Report:
        if how == "str":
            # Undecodable bytes become lone surrogates: still not text.
            return toolwire.check_json(data.decode("utf-8", "surrogateescape"))
        if how == "bytes":
            return toolwire.check_json(data)
        path = tmp_path / "input.json"
        path.write_bytes(data)
        if how == "file":
            return toolwire.check_file(path)
        if how == "files":
            bad, other = toolwire.check_files([path, good], jobs=2)
            assert other.ok, "one bad file never hides the others"
            if bad.error is not None:
                raise bad.error
            return bad
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            # `each`: the violations one by one, as `Report.to_dict` lists them.
            status = cli.main(["check", "--format", "json", "--json-violations", "each", str(path), str(good)])
        document = json.loads(out.getvalue())
        first, second = document["files"]
        assert second["ok"]
        if first["error"] is not None:
            assert status == 2 and err.getvalue(), "exit 2 and a message on stderr"
            e = first["error"]
            raise toolwire.WorkflowError(e["message"], e["line"], e["column"])
        # What the CLI printed is the API's report of the same file, and the
        # exit status its verdict; the test then reads that report.
        report = toolwire.check_file(path)
        printed = {key: value for key, value in first.items() if key != "clash_count"}
        assert printed == report.to_dict(), "the CLI printed another report than the API gives"
        assert status == (0 if report.ok else 1)
        return report

    return run


NOT_JSON: Dict[str, Any] = {
    "truncated": (b'{"nodes": [{"id": "a"', "unexpected end of input"),
    "trailing garbage": (b'{"nodes": []} x', "unexpected data after the end"),
    # As a str (decoded with surrogateescape) the bad byte is a lone surrogate.
    "invalid UTF-8": (b'{"nodes": [{"id": "\xff"}]}', ("not valid UTF-8", "lone surrogate")),
    "lone surrogate escape": (b'{"nodes": [{"id": "\\ud800"}]}', "lone surrogate"),
    "NaN": (b'{"nodes": [], "x": NaN}', "expected a value"),
    "Infinity": (b'{"x": -Infinity}', "expected a digit"),
    "empty file": (b"", "unexpected end of input"),
    "only whitespace": (b" \n\t ", "unexpected end of input"),
    "byte order mark": (b'\xef\xbb\xbf{"nodes": []}', "byte order mark"),
    "trailing comma": (b'{"nodes": [1,]}', "trailing comma before ']'"),
    "single quotes": (b"{'nodes': []}", "expected a string key"),
    "raw control character": (b'{"nodes": [{"id": "a\tb"}]}', "control character"),
}


@pytest.mark.parametrize("case", list(NOT_JSON))
def test_not_json_is_a_workflow_error_with_a_position(check_text_via: CheckText, case: str) -> None:
    data, fragments = NOT_JSON[case]
    with pytest.raises(toolwire.WorkflowError) as caught:
        check_text_via(data)
    assert any(f in caught.value.message for f in ([fragments] if isinstance(fragments, str) else fragments))
    assert caught.value.line == 1 or b"\n" in data
    assert caught.value.column is not None


WRONG_SHAPE = {
    "top level is an array": (b"[]", "the workflow must be a JSON object, got an array"),
    "top level is a string": (b'"x"', "the workflow must be a JSON object, got a string"),
    "nodes is a number": (b'{"nodes": 3}', "`nodes` must be an array, got a number"),
    "edges is a string": (b'{"edges": "x"}', "`edges` must be an array, got a string"),
    "a node is not an object": (b'{"nodes": [[]]}', "node 0: must be an object, got an array"),
    "an edge is not an object": (b'{"edges": [null]}', "edge 0: must be an object, got null"),
    "numeric id": (b'{"nodes": [{"id": 7}]}', "node 0: `id` must be a non-empty string, got a number"),
    "null id": (b'{"nodes": [{"id": null}]}', "node 0: `id` must be a non-empty string, got null"),
    "empty id": (b'{"nodes": [{"id": ""}]}', "node 0: `id` must be a non-empty string, got an empty string"),
    "duplicate ids": (b'{"nodes": [{"id": "a"}, {"id": "a"}]}', 'duplicate node id "a": nodes 0 and 1 (R2)'),
    "tool edge without source": (
        b'{"edges": [{"id": "e", "target": "a", "targetHandle": "a-input-tool"}]}',
        'edge 0 (id "e"): a tool edge needs a non-empty string `source`, got missing',
    ),
}


@pytest.mark.parametrize("case", list(WRONG_SHAPE))
def test_wrong_shape_is_a_workflow_error_naming_the_place(check_text_via: CheckText, case: str) -> None:
    data, message = WRONG_SHAPE[case]
    with pytest.raises(toolwire.WorkflowError) as caught:
        check_text_via(data)
    assert caught.value.message == message
    assert caught.value.line is not None, "text input gets a line and column"


def test_a_directory_or_a_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        toolwire.check_file(tmp_path)
    with pytest.raises(FileNotFoundError):
        toolwire.check_file(tmp_path / "missing.json")
    # In a batch a directory stands for its workflow files (issue 21): one
    # with none is an error naming it.
    missing, directory = toolwire.check_files([tmp_path / "missing.json", tmp_path])
    assert isinstance(missing.error, FileNotFoundError) and isinstance(directory.error, toolwire.PathError)
    assert not missing.ok and missing.to_dict()["error"]["message"].startswith("cannot read the file")
    assert directory.path == str(tmp_path) and directory.error.message.startswith("no workflow file in this directory")


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads files whatever their mode")
def test_an_unreadable_file_is_a_permission_error(tmp_path: Path) -> None:
    path = tmp_path / "secret.json"
    path.write_text("{}", encoding="utf-8")
    path.chmod(0)
    with pytest.raises(PermissionError):
        toolwire.check_file(path)


# --- hostile sizes -----------------------------------------------------------


def test_arrays_nested_100000_deep_are_skipped_without_recursion(check_text_via: CheckText) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    report = check_text_via(b'{"nodes": [{"id": "a", "data": {"config": ' + deep + b"}}]}")
    assert report.ok and report.stats.nodes == 1
    with pytest.raises(toolwire.WorkflowError, match="node 0: must be an object, got an array"):
        check_text_via(b'{"nodes": [' + deep + b"]}")
    with pytest.raises(toolwire.WorkflowError, match="expected ',' or ']', found '}' at line 1, column 200012"):
        check_text_via(b'{"nodes": [' + deep[:-1] + b"]}")


def test_a_100_mb_label_and_a_million_character_id_work() -> None:
    body = b"x" * (100 << 20)
    long_id = b"t" * 1_000_000
    text = (
        b'{"nodes": [{"id": "' + long_id + b'", "data": {"label": "Search ' + body + b'"}},'
        b' {"id": "t2", "data": {"label": "SEARCH-' + body + b'"}}],'
        b' "edges": [{"source": "' + long_id + b'", "target": "agent", "data": {"edgeType": "tool_availability"}},'
        b' {"source": "t2", "target": "agent", "data": {"edgeType": "tool_availability"}}]}'
    )
    (violation,) = toolwire.check_json(text).violations
    assert violation.name == "search_" + body.decode()
    assert [t.id for t in violation.tools] == ["t2", long_id.decode()]


def test_a_million_edges_on_one_node(check_text_via: CheckText) -> None:
    count = 1_000_000
    nodes = ",".join(f'{{"id": "t{i}"}}' for i in range(count))
    edges = ",".join(f'{{"source": "t{i}", "target": "agent", "targetHandle": "agent-input-tool"}}' for i in range(count))
    parallel = '{"source": "t7", "target": "agent", "targetHandle": "x-input-tool"}'
    text = f'{{"nodes": [{nodes}, {{"id": "agent"}}], "edges": [{edges}, {parallel}]}}'
    report = check_text_via(text.encode())
    assert report.ok, "a million distinct tools, and a parallel edge that is the same leaf"
    assert report.stats.to_dict() == {
        "nodes": count + 1,
        "edges": count + 1,
        "tool_edges": count + 1,
        "consumers": 1,
        "passthroughs": 0,
    }


# --- duplicate keys -----------------------------------------------------------


def test_duplicate_keys_last_one_wins_as_in_json_loads(check_text_via: CheckText) -> None:
    text = (
        b'{"nodes": [{"id": "x"}, {"id": "x"}], "edges": 5,'
        b' "nodes": [{"id": "t1", "id": "a", "data": {"label": "S"}}, {"id": "b", "data": {"label": "s"}}],'
        b' "edges": [{"source": "a", "target": "c", "data": {"edgeType": "nope"}, "data": {"edgeType": "tool_availability"}},'
        b' {"source": "b", "target": "c", "targetHandle": "c-input-tool"}]}'
    )
    report = check_text_via(text)
    # The same verdict as json.loads gives; the text also says what it lost.
    found = without_places(report)
    found["warnings"] = [w for w in found["warnings"] if w["code"] != "DUPLICATE-KEY"]
    assert {**found, "path": None} == without_places(toolwire.check(json.loads(text)))
    assert [(v.consumer, v.name) for v in report.violations] == [("c", "s")]
    repeated = [w for w in report.warnings if w.code == "DUPLICATE-KEY"]

    def column(key: bytes) -> int:  # the text is one line
        return text.index(key) + 1

    assert [(w.node, w.edge, w.message.split(":")[0], w.location) for w in repeated] == [
        ("", None, 'the workflow repeats the key "nodes"', Location(1, column(b'"nodes": [{"id": "t1"'))),
        ("a", None, 'node 0 (id "a") repeats the key "id"', Location(1, column(b'"id": "a"'))),
        ("", None, 'the workflow repeats the key "edges"', Location(1, column(b'"edges": [{'))),
        ("", 0, 'edge 0 repeats the key "data"', Location(1, column(b'"data": {"edgeType": "tool_a'))),
    ]


def test_a_repeated_key_is_a_warning_in_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "repeated.json"
    path.write_text('{"nodes": [\n  {"id": "t", "data": {"label": "A", "label": "B"}}\n]}', encoding="utf-8")
    (warning,) = toolwire.check_file(path).warnings
    assert (warning.code, warning.node, warning.location) == ("DUPLICATE-KEY", "t", Location(2, 38))
    assert warning.message == (
        'node 0 (id "t") repeats the key "data.label": the last value is the one read '
        "(as JavaScript and PHP read it), and the one before is ignored"
    )
    outputs = {}
    for output_format in ("text", "json", "sarif", "github", "junit"):
        assert cli.main(["check", "--format", output_format, str(path)]) == 0  # a warning, not a refusal
        outputs[output_format] = capsys.readouterr().out
    assert f"{path}:2:38: warning[DUPLICATE-KEY]: node 0" in outputs["text"]
    assert json.loads(outputs["json"])["files"][0]["warnings"][0]["code"] == "DUPLICATE-KEY"
    sarif = json.loads(outputs["sarif"])["runs"][0]
    assert [r["ruleId"] for r in sarif["results"]] == ["DUPLICATE-KEY"]
    assert "DUPLICATE-KEY" in [rule["id"] for rule in sarif["tool"]["driver"]["rules"]]
    assert "line=2,col=38,title=DUPLICATE-KEY::" in outputs["github"]
    assert "DUPLICATE-KEY" in outputs["junit"]
    assert cli.main(["check", "--strict", str(path)]) == 1, "under --strict a warning refuses, this one too"


# --- Python objects JSON cannot produce -------------------------------------


class Tricky(Mapping[str, Any]):
    """A mapping whose lookups run arbitrary code."""

    def __init__(self, data: Dict[str, Any], fail_on: str = "") -> None:
        self.data, self.fail_on = data, fail_on

    def __getitem__(self, key: str) -> Any:
        if key == self.fail_on:
            raise RuntimeError(f"lookup of {key} failed")
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


def test_objects_json_cannot_produce_are_clear_errors() -> None:
    with pytest.raises(toolwire.WorkflowError, match="`nodes` must be an array, got a value JSON cannot hold"):
        toolwire.check({"nodes": ({"id": "a"},)})
    with pytest.raises(toolwire.WorkflowError, match="node 0: `id` must be a non-empty string, got a value JSON"):
        toolwire.check({"nodes": [{"id": b"a"}]})
    with pytest.raises(toolwire.WorkflowError, match="the workflow must be a JSON object"):
        toolwire.check([])  # type: ignore[arg-type]
    # Keys that are not strings are other keys, and ignored.
    assert toolwire.check({"nodes": [{"id": "a", 1: 2, None: "x"}], 3: 4}).ok  # type: ignore[dict-item]


def test_mappings_that_are_not_dicts_are_walked_and_their_errors_propagate() -> None:
    workflow = Tricky({"nodes": [Tricky({"id": "a"})], "edges": []})
    assert toolwire.check(workflow).stats.nodes == 1
    with pytest.raises(RuntimeError, match="lookup of id failed"):
        toolwire.check({"nodes": [Tricky({"id": "a"}, fail_on="id")]})


# --- a workflow changed while it is walked ------------------------------------
#
# The walk holds the GIL, and over plain dicts, lists and strings runs no
# Python code, so another thread mutating the workflow never gets to run in
# the middle of it (a thread test observes nothing). Python code that runs
# inside the walk can change the workflow, though: a Mapping's `__getitem__`,
# or the `__eq__` of a dict key whose hash equals that of a key the walk looks
# up (a plain dict compares them in the lookup). Each hook below runs its
# change once, the first time node 1's `id` is looked up.


def fresh(text: str) -> str:
    """`text` as a new string object, not a shared constant: freed as soon
    as the workflow lets go of it."""
    return "".join(list(text))


class Once:
    """Runs `action` on the first call only; `fired` says whether it ran."""

    def __init__(self, action: Callable[[], None]) -> None:
        self.action, self.fired = action, 0

    def __call__(self) -> None:
        if not self.fired:
            self.fired += 1
            self.action()


class OnLookup(Mapping[str, Any]):
    """A node (not a dict) whose `__getitem__("id")` runs `hook`."""

    def __init__(self, data: Dict[str, Any], hook: Once) -> None:
        self.data, self.hook = data, hook

    def __getitem__(self, key: str) -> Any:
        if key == "id":
            self.hook()
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


class CollidingKey:
    """A key with the hash of "id": looking up "id" in a plain dict that
    holds it (inserted first, so it is probed first) calls its `__eq__`."""

    def __init__(self, hook: Once) -> None:
        self.hook, self.armed = hook, False

    def __hash__(self) -> int:
        return hash("id")

    def __eq__(self, other: object) -> bool:
        if self.armed:
            self.hook()
        return False


def hooked_node(how: str, data: Dict[str, Any], hook: Once) -> Any:
    if how == "mapping":
        return OnLookup(data, hook)
    key = CollidingKey(hook)
    node: Dict[Any, Any] = {key: None, **data}  # inserting "id" compares it with the key: not armed yet
    key.armed = True
    return node


def tool_wire(source: str) -> Dict[str, Any]:
    return {"source": source, "target": "agent", "data": {"edgeType": "tool_availability"}}


def plain(labels: Dict[str, str], wired: List[str]) -> Dict[str, Any]:
    """A plain workflow: tools by id with their labels, wired into `agent`."""
    nodes = [{"id": i, "data": {"label": label}} for i, label in labels.items()]
    return {"nodes": nodes, "edges": [tool_wire(t) for t in wired]}


HOOKS = ["mapping", "colliding key in a dict"]


def changing_workflow(how: str, change: Callable[[List[Any], Dict[str, Any]], None]) -> Tuple[Dict[str, Any], Once]:
    """Three tools, node 1 hooked; only t0 is wired. When node 1's `id` is
    looked up, `change(nodes, workflow)` runs, then the garbage collector,
    then enough allocations to reuse what was freed."""
    churn: List[str] = []

    def action() -> None:
        change(nodes, workflow)
        gc.collect()
        churn.extend(fresh(f"garbage {i:05}") for i in range(20_000))

    hook = Once(action)
    nodes: List[Any] = [
        {"id": fresh("t0"), "data": {"label": fresh("Search")}},
        hooked_node(how, {"id": fresh("t1"), "data": {"label": fresh("search")}}, hook),
        {"id": fresh("t2"), "data": {"label": fresh("Other")}},
    ]
    workflow: Dict[str, Any] = {"nodes": nodes, "edges": [tool_wire(fresh("t0"))]}
    return workflow, hook


def rewrite_around_node_1(nodes: List[Any], workflow: Dict[str, Any]) -> None:
    first, later = nodes[0], nodes[2]
    first["id"] = fresh("x0")  # already read: its old id and label are freed
    first["data"] = {}
    later["data"]["label"] = fresh("SEARCH!")  # not read yet
    workflow["edges"] = [tool_wire(fresh(t)) for t in ("t0", "t1", "t2")]  # not read yet


@pytest.mark.parametrize("how", HOOKS)
def test_a_workflow_changed_during_the_walk_is_read_as_each_part_was_when_read(how: str) -> None:
    workflow, hook = changing_workflow(how, rewrite_around_node_1)
    report = toolwire.check(workflow)
    assert hook.fired == 1, "the change ran inside the walk"
    # Node 0 as it was (its strings were copied before they were freed),
    # node 2 and the edges as they are after the change.
    seen = plain({"t0": "Search", "t1": "search", "t2": "SEARCH!"}, ["t0", "t1", "t2"])
    assert without_places(report) == without_places(reference.check(seen))
    ((consumer, name, tools),) = [(v.consumer, v.name, [(t.id, t.label) for t in v.tools]) for v in report.violations]
    assert (consumer, name, tools) == ("agent", "search", [("t0", "Search"), ("t1", "search"), ("t2", "SEARCH!")])
    # Neither the state before the change nor the one after it.
    before = plain({"t0": "Search", "t1": "search", "t2": "Other"}, ["t0"])
    after = plain({"x0": "x0", "t1": "search", "t2": "SEARCH!"}, ["t0", "t1", "t2"])
    assert without_places(report) not in (without_places(reference.check(before)), without_places(reference.check(after)))


@pytest.mark.parametrize("how", HOOKS)
def test_an_exception_raised_by_a_change_during_the_walk_propagates(how: str) -> None:
    def change_then_fail(nodes: List[Any], workflow: Dict[str, Any]) -> None:
        rewrite_around_node_1(nodes, workflow)
        raise RuntimeError("changed the workflow, then failed")

    workflow, hook = changing_workflow(how, change_then_fail)
    with pytest.raises(RuntimeError, match="changed the workflow, then failed"):
        toolwire.check(workflow)
    assert hook.fired == 1
    assert toolwire.check(plain({"t0": "Search"}, ["t0"])).ok, "the next check works"


@pytest.mark.parametrize("how", HOOKS)
def test_the_node_list_emptied_during_the_walk_is_read_whole_or_up_to_the_change(how: str) -> None:
    def empty_the_list(nodes: List[Any], workflow: Dict[str, Any]) -> None:
        nodes.clear()  # nodes 0 and 2 are freed unless the walk holds them
        workflow["nodes"] = []

    workflow, hook = changing_workflow(how, empty_the_list)
    workflow["edges"] = [tool_wire(t) for t in ("t0", "t1", "t2")]
    report = toolwire.check(workflow)
    assert hook.fired == 1
    # The walk takes the list's elements when it reaches `nodes` (today's
    # walk.rs), or reads them one by one and stops where the list now ends:
    # either is the list as it was at some moment, never a freed node.
    whole = plain({"t0": "Search", "t1": "search", "t2": "Other"}, ["t0", "t1", "t2"])
    up_to_the_change = plain({"t0": "Search", "t1": "search"}, ["t0", "t1", "t2"])
    assert without_places(report) in (without_places(reference.check(whole)), without_places(reference.check(up_to_the_change)))
    (violation,) = report.violations
    assert [(t.id, t.label) for t in violation.tools] == [("t0", "Search"), ("t1", "search")]


def test_mutable_buffers_are_copied_before_the_check() -> None:
    text = b'{"nodes": [{"id": "a"}]}'
    for buffer in (bytearray(text), memoryview(bytearray(text))):
        assert toolwire.check_json(buffer).stats.nodes == 1


# --- hypothesis: hostile shapes and labels ------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
hostile_labels = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)


@st.composite
def hostile_workflows(draw: st.DrawFn) -> Any:
    ids = st.sampled_from(["a", "b", "c", "box", "", "é", "a\u0000b"]) | json_values
    node = st.fixed_dictionaries(
        {"id": ids},
        optional={
            "type": st.sampled_from(["toolbox", "universalNode", "agent"]) | json_values,
            "data": st.fixed_dictionaries(
                {}, optional={"label": hostile_labels | json_values, "metadata": json_values | st.just({"id": "toolbox"})}
            )
            | json_values,
        },
    )
    edge = st.fixed_dictionaries(
        {},
        optional={
            "source": ids,
            "target": ids,
            "targetHandle": st.sampled_from(["a-input-tool", "box-input-tool", "a-input-tools"]) | json_values,
            "data": st.fixed_dictionaries({}, optional={"edgeType": st.sampled_from(["tool_availability", "data", "x"]) | json_values}),
        },
    )
    return draw(
        st.fixed_dictionaries({}, optional={"nodes": st.lists(node | json_values, max_size=6) | json_values, "edges": st.lists(edge | json_values, max_size=6) | json_values})
        | json_values
    )


def outcome(run: Callable[[], toolwire.Report]) -> Any:
    try:
        return without_places(run())
    except toolwire.WorkflowError as e:
        return ("WorkflowError", e.message)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_workflows())
def test_hostile_workflows_get_the_reference_verdict_or_a_workflow_error(workflow: Any) -> None:
    expected = outcome(lambda: reference.check(workflow))
    text = json.dumps(workflow)
    for run in (lambda: toolwire.check(workflow), lambda: toolwire.check_json(text), lambda: toolwire.check_json(text.encode())):
        assert outcome(run) == expected


workflow_texts = hostile_workflows().map(lambda w: json.dumps(w, ensure_ascii=False).encode())


@st.composite
def near_json(draw: st.DrawFn) -> bytes:
    """A workflow's JSON with one slip of the kind hand edits and broken
    generators make: a punctuation byte lost or doubled, a comma before a
    closing bracket, a byte replaced or inserted anywhere. Mostly invalid,
    much of it only just, and some still valid, which must then be read as
    Python reads it."""
    text = draw(workflow_texts)
    marks = [i for i, byte in enumerate(text) if byte in b',:[]{}"']
    closers = [i for i, byte in enumerate(text) if byte in b"]}"]
    how = draw(st.sampled_from(["lose a mark", "double a mark", "comma before a closer", "replace", "insert"]))
    if how == "comma before a closer" and closers:
        at = draw(st.sampled_from(closers))
        return text[:at] + b"," + text[at:]
    if how in ("lose a mark", "double a mark") and marks:
        at = draw(st.sampled_from(marks))
        return text[:at] + (b"" if how == "lose a mark" else text[at : at + 1]) + text[at:]
    at = draw(st.integers(0, len(text)))
    byte = bytes([draw(st.sampled_from(b',:[]{}"\\ 0-.eEtn\x00\x7f\xff') | st.integers(0, 255))])
    if how == "insert" or at == len(text):
        return text[:at] + byte + text[at:]
    return text[:at] + byte + text[at + 1 :]


def accepted_report(report: toolwire.Report) -> Any:
    """What of a report of text must equal the report of the value Python
    reads from it: places, and the repeated keys the value no longer has,
    aside."""
    found = without_places(report)
    found["warnings"] = [w for w in found["warnings"] if w["code"] != "DUPLICATE-KEY"]
    return found


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode), workflow_texts, near_json(), near_json()))
def test_arbitrary_bytes_never_crash_and_never_pass_invalid_json(data: bytes) -> None:
    try:
        report = toolwire.check_json(data)
    except toolwire.WorkflowError:
        event("refused")
        return
    event("accepted")  # --hypothesis-show-statistics: how often this branch is reached
    # Accepted bytes are JSON that Python reads the same way.
    assert accepted_report(report) == accepted_report(toolwire.check(json.loads(data)))


# --- concurrency and interruption --------------------------------------------


def test_eight_threads_at_once_give_the_one_at_a_time_answers(tmp_path: Path) -> None:
    from toolwire import generate

    paths = []
    for seed in range(4):
        path = tmp_path / f"w{seed}.json"
        generate.generate(path, generate.PRESETS["small"], seed=seed)
        paths.append(path)
    texts = [p.read_bytes() for p in paths]
    alone = [toolwire.check_json(t).to_dict() for t in texts]
    results: Dict[int, Any] = {}

    def worker(k: int) -> None:
        results[k] = [toolwire.check_json(texts[(k + i) % 4]).to_dict() for i in range(8)]

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(8):
        assert results[k] == [alone[(k + i) % 4] for i in range(8)]
    batch = [r.to_dict() for r in toolwire.check_files(paths * 5, jobs=4)]
    assert [{**b, "path": None} for b in batch] == [{**a, "path": None} for a in alone * 5]


INTERRUPT_SCRIPT = """
import sys, time, toolwire
paths = [sys.argv[1]] * 400
start = time.monotonic()
toolwire.check_files(paths[:2], jobs=1)
print("ready", (time.monotonic() - start) / 2, flush=True)
try:
    toolwire.check_files(paths, jobs=1)
    print("finished")
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
print(toolwire.check_json('{"nodes": [{"id": "a"}]}').stats.nodes)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT delivery is POSIX")
def test_ctrl_c_interrupts_a_long_check_promptly(tmp_path: Path) -> None:
    from toolwire import generate

    path = tmp_path / "medium.json"
    generate.generate(path, generate.PRESETS["small"].scaled(20), seed=1)
    # The child gets Ctrl-C's default disposition whatever the test run's
    # is: a SIGINT ignored by the parent (as an earlier test or the runner
    # may leave it) is inherited, and Python then installs no handler.
    process = subprocess.Popen(
        [sys.executable, "-c", INTERRUPT_SCRIPT, str(path)],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    ready, each = process.stdout.readline().split()
    assert ready == "ready"
    import time

    # Prompt is measured against the same machine's pace: the time the child
    # took, uninterrupted, for one file, of which it now checks 400.
    time.sleep(0.5)  # well inside a check of 400 copies
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, _ = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()  # never left running into the next test
        process.communicate()
        pytest.fail(f"not interrupted 30 s after Ctrl-C (SIGINT in this run: {signal.getsignal(signal.SIGINT)!r})")
    lines = out.split()
    assert lines[0] == "interrupted", out
    waited, one_file = float(lines[1]) - sent, float(each)
    assert waited < 5 * one_file, f"KeyboardInterrupt {waited:.3f} s after Ctrl-C: longer than checking 5 of the 400 files ({one_file:.3f} s each)"
    assert lines[2] == "1", "the interpreter is usable afterwards"
