"""Differential tests: the Rust core against ``toolwire.reference``.

The reference is SEMANTICS.md written as plain Python. Every random workflow
here goes through the reference and through every entry point of the Rust
core (``check`` on the dict, ``check_json`` on ``str`` and on ``bytes``,
``check_file``); the reports must be identical, message strings included, and
an input error must occur on every path or on none, with the same message.

The strategies aim at what is easy to get wrong in CMP-9 (SEMANTICS 4): small
id pools so that nodes are shared, chains, cycles and diamonds of boxes,
agents wired as tools, self-loops and parallel edges, passthroughs in all
three dialects, tool edges declared both ways next to decoys that only look
like tool edges (EDGE-1, EDGE-5), and labels from a small pool whose names
collide after normalisation (SEMANTICS 5).
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, TypeVar

import orjson
import pytest
from hypothesis import HealthCheck, example, given, note, settings
from hypothesis import strategies as st

import toolwire
from support import DATA, SHARED, need_shared, shared_files, without_places
from toolwire import reference

Workflow = Any
"""What ``json.loads`` returns; a malformed workflow need not be an object."""
Json = Dict[str, Any]
Options = Dict[str, List[str]]
T = TypeVar("T")

TOOLBOX = "toolbox"
DRUPAL_TOOLBOX = "flowdrop_node_processor_toolbox"
TOOL_EDGE = "tool_availability"
RECOGNISED = ("data", "trigger", "loopback", "error")
UNRECOGNISED = ("tool_availabilty", "Tool_Availability", "tool", "TOOL_AVAILABILITY", "tool_availability ")

# Any character but a lone surrogate, which is not text (JSON cannot carry it).
CHARACTERS = st.characters(blacklist_categories=["Cs"])
TEXT = st.text(CHARACTERS, max_size=8)
NON_EMPTY_TEXT = st.text(CHARACTERS, min_size=1, max_size=8)
# Small pools, so that ids are shared between nodes and edges and names
# collide; some need quoting in messages (quotes, backslashes, control and
# combining characters, astral characters).
ID_POOL = (
    "a", "b", "c", "t1", "t2", "box", "box.1", "agent", "Agent", "agent_1",
    "é", "e\u0301", "日本", "💡", 'q"x', "back\\slash", "tab\t", "nbsp\u00a0",
    "toolbox", "x-input-tool",
)  # fmt: skip
LABEL_POOL = (
    "Web Search", "web-search", "WEB_SEARCH!", "web search", "Search", "search",
    "SEARCH", "Café", "caf", "CAF!", "日本語", "!!!", "Unnamed Tool", "İstanbul",
    "istanbul", "Get User (Admin)", "get_user_admin", "new\nline", 'say "hi"',
    "zero\u200bwidth", "combining e\u0301", "del\x7f", "\U0001f4a1 idea",
)  # fmt: skip

# JSON values of every kind but strings, for fields to be ignored or refused.
NON_OBJECTS: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.just([]),
    st.just(["x"]),
)
JUNK: st.SearchStrategy[Any] = st.one_of(NON_OBJECTS, st.just({"k": 1}))
ABSENT = object()
"""Drawn for a key that is then left out of its object."""


def _mostly_from(pool: Sequence[str], text: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    # Three in four from the pool: pooled values collide with each other.
    pooled = st.sampled_from(pool)
    return st.one_of(pooled, pooled, pooled, text)


ids = _mostly_from(ID_POOL, NON_EMPTY_TEXT)
labels = _mostly_from(LABEL_POOL, TEXT)


@functools.lru_cache(maxsize=None)
def _indices(size: int) -> st.SearchStrategy[int]:
    # Not st.integers, which draws 0 far more often than the rest.
    return st.sampled_from(range(size))


def _pick(draw: st.DrawFn, choices: Sequence[T]) -> T:
    """``draw(st.sampled_from(choices))`` without building a strategy per
    draw: generating workflows is most of this file's runtime."""
    return choices[draw(_indices(len(choices)))]


# --- Running every input path ------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """A report as a dict (without ``path``), or an input error's message."""

    report: Optional[Json] = None
    error: Optional[str] = None


def _outcome(run: Callable[[], toolwire.Report], *, from_text: bool, path: Optional[Path] = None) -> Outcome:
    try:
        report = run()
    except toolwire.WorkflowError as error:
        # SEMANTICS 7: an error in text says where it is; `message` is the
        # same without the place.
        located = error.line is not None and error.column is not None
        assert located == from_text, f"line {error.line}, column {error.column}: {error.message}"
        return Outcome(error=error.message)
    assert report.path == (None if path is None else str(path))
    result = without_places(report)
    del result["path"]
    return Outcome(report=result)


SERIALISERS: Dict[str, Callable[[Workflow], str]] = {
    "json.dumps": json.dumps,
    "json.dumps(ensure_ascii=False)": lambda w: json.dumps(w, ensure_ascii=False),
    "json.dumps(indent=2, ensure_ascii=False)": lambda w: json.dumps(w, indent=2, ensure_ascii=False),
    "orjson.dumps": lambda w: orjson.dumps(w).decode(),
}
serialisers = st.sampled_from(sorted(SERIALISERS))


def _rust(workflow: Workflow, options: Options, serialiser: str, workdir: Path) -> Dict[str, Outcome]:
    """The Rust core's outcome through each entry point."""
    text = SERIALISERS[serialiser](workflow)
    note(f"JSON text ({serialiser}): {text}")
    file = workdir / "workflow.json"
    file.write_bytes(text.encode())
    return {
        "check(dict)": _outcome(lambda: toolwire.check(workflow, **options), from_text=False),
        "check_json(str)": _outcome(lambda: toolwire.check_json(text, **options), from_text=True),
        "check_json(bytes)": _outcome(lambda: toolwire.check_json(text.encode(), **options), from_text=True),
        "check_file(path)": _outcome(lambda: toolwire.check_file(file, **options), from_text=True, path=file),
    }


def _reference(workflow: Workflow, options: Options) -> Outcome:
    return _outcome(lambda: reference.check(workflow, **options), from_text=False)


def _assert_same_on_every_path(workflow: Workflow, options: Options, serialiser: str, workdir: Path) -> Outcome:
    expected = _reference(workflow, options)
    for entry_point, outcome in _rust(workflow, options, serialiser, workdir).items():
        assert outcome == expected, entry_point
    return expected


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Not tmp_path: Hypothesis runs many examples per test call.
    return tmp_path_factory.mktemp("differential")


def _order_keys(draw: st.DrawFn, workflow: Json) -> Json:
    # In JSON text, `edges` may come before `nodes`: the first input error
    # and the R8 warnings must not depend on that (SEMANTICS 1, decision).
    if _pick(draw, (False, True)):
        return dict(reversed(list(workflow.items())))
    return workflow


def _empty_list_form(draw: st.DrawFn, workflow: Json, key: str) -> None:
    """EDGE-2: an empty list may also be written absent, ``null`` or ``{}``."""
    form = _pick(draw, ("[]", "absent", "null", "{}"))
    if form == "absent":
        del workflow[key]
    else:
        workflow[key] = {"[]": [], "null": None, "{}": {}}[form]


# --- Random valid workflows --------------------------------------------------

BOX_ROLES = ("box: spec", "box: editor", "box: drupal", "box: non-string type, metadata id")
OTHER_ROLES = (
    "tool",
    "agent",
    "untyped",
    "decoy: type wins over metadata",
    "decoy: node_type_id wins over id",
    "decoy: near-miss type",
)


@st.composite
def nodes(draw: st.DrawFn, node_id: str, role: str, label_pool: List[str]) -> Json:
    """A node in one of the three dialects (SEMANTICS 2, 9): a passthrough
    written each way, an ordinary tool or agent, or a decoy whose type only
    resembles a passthrough's."""
    node: Json = {"id": node_id}
    metadata: Optional[Json] = None
    if role == "box: spec":
        node["type"] = TOOLBOX
    elif role == "box: editor":
        node["type"] = "universalNode"
        metadata = {"id": TOOLBOX}
    elif role == "box: drupal":
        metadata = {"node_type_id": DRUPAL_TOOLBOX, "id": _pick(draw, ("agent", DRUPAL_TOOLBOX, 7))}
    elif role == "box: non-string type, metadata id":
        node["type"] = draw(JUNK)
        metadata = {"id": TOOLBOX}
    elif role == "tool":
        node["type"] = _pick(draw, ("http_request", "ai_agent"))
    elif role == "agent":
        node["type"] = _pick(draw, ("agent", "ai_agent"))
    elif role == "decoy: type wins over metadata":
        node["type"] = "http_request"
        metadata = {"id": TOOLBOX, "node_type_id": TOOLBOX}
    elif role == "decoy: node_type_id wins over id":
        node["type"] = _pick(draw, ("universalNode", None))
        metadata = {"node_type_id": "agent", "id": TOOLBOX}
    elif role == "decoy: near-miss type":
        node["type"] = _pick(draw, ("Toolbox", "toolbox ", "tool_box", "universalnode"))

    data: Json = {} if metadata is None else {"metadata": metadata}
    # Otherwise empty, not a string or absent: then the id is the label.
    label = _pick(draw, [*label_pool * 6, "", None, 7, ["Search"], ABSENT])
    if label is not ABSENT:
        data["label"] = label

    shape = _pick(draw, ("data",) * 7 + ("no data", "data not an object", "metadata not an object"))
    if shape == "data":
        node["data"] = data
    elif shape == "data not an object":
        node["data"] = _pick(draw, ("label", ["label"], 3, None))
    elif shape == "metadata not an object":
        node["data"] = {**data, "metadata": _pick(draw, ("toolbox", [TOOLBOX], None))}
    # Ignored, like everything SEMANTICS 1 does not name.
    node["position"] = {"x": 0, "y": 0}
    return node


TOOL_EDGE_KINDS = (
    "tool: declared",
    "tool: declared, other handle",
    "tool: handle",
    "tool: handle, empty or non-string declaration",
    "tool: handle, styling tag only",
)
DECOY_EDGE_KINDS = (
    "decoy: -input-tools",
    "decoy: -input-tool-2",
    "decoy: recognised declaration with tool handle",
    "decoy: unrecognised declaration with tool handle",
    "decoy: random declaration",
    "decoy: no data, no handle",
    "decoy: recognised declaration, no endpoints",
)
# About three in five edges are tool wiring, or collisions would be rare.
EDGE_KINDS = TOOL_EDGE_KINDS * 2 + DECOY_EDGE_KINDS


@st.composite
def edges(draw: st.DrawFn, targets: Dict[str, List[str]]) -> Json:
    """A tool edge, declared by ``data.edgeType`` or by handle, or a decoy
    that is not tool wiring (EDGE-1, EDGE-5), from any node to one of its
    ``targets``."""
    source = _pick(draw, list(targets))
    target = _pick(draw, targets[source])
    edge: Json = {"source": source, "target": target}
    kind = _pick(draw, EDGE_KINDS)
    tool_handle = f"{target}-input-tool"
    if kind == "tool: declared":
        edge["data"] = {"edgeType": TOOL_EDGE}
    elif kind == "tool: declared, other handle":
        edge["data"] = {"edgeType": TOOL_EDGE}
        edge["targetHandle"] = _pick(draw, (f"{target}-input-data", f"{target}-input-tools", 5))
    elif kind == "tool: handle":
        edge["targetHandle"] = tool_handle
    elif kind == "tool: handle, empty or non-string declaration":
        edge["targetHandle"] = tool_handle
        edge["data"] = {"edgeType": _pick(draw, ("", None, 0, False, [TOOL_EDGE]))}
    elif kind == "tool: handle, styling tag only":
        edge["targetHandle"] = tool_handle
        edge["sourceHandle"] = f"{source}-output-tool"
        edge["data"] = {"metadata": {"edgeType": "tool"}}
    elif kind == "decoy: -input-tools":
        edge["targetHandle"] = f"{target}-input-tools"
    elif kind == "decoy: -input-tool-2":
        edge["targetHandle"] = _pick(draw, (f"{target}-input-tool-2", f"{target}-input-tool ", "input-tool"))
    elif kind == "decoy: recognised declaration with tool handle":
        edge["targetHandle"] = tool_handle
        edge["data"] = {"edgeType": _pick(draw, RECOGNISED)}
    elif kind == "decoy: unrecognised declaration with tool handle":
        edge["targetHandle"] = tool_handle
        edge["data"] = {"edgeType": _pick(draw, UNRECOGNISED)}
    elif kind == "decoy: random declaration":
        edge["data"] = {"edgeType": draw(NON_EMPTY_TEXT)}
    elif kind == "decoy: recognised declaration, no endpoints":
        # Never read beyond its classification, so this is no error.
        edge["data"] = {"edgeType": _pick(draw, RECOGNISED)}
        edge["source"] = draw(JUNK)
        del edge["target"]
    # Messages show an edge id only when it is a string.
    edge_id = _pick(draw, (ABSENT, ABSENT, "e1", "e2", 'e"3\n', "", 7, None))
    if edge_id is not ABSENT:
        edge["id"] = edge_id
    return edge


@st.composite
def workflows(draw: st.DrawFn) -> Json:
    """A checkable workflow: unique declared ids, and tool edges between
    declared nodes and a few undeclared ones (R8)."""
    # Plain loops rather than st.lists: they cost Hypothesis fewer choices.
    # Mostly four to eight nodes: fewer seldom hold a collision.
    declared = list(dict.fromkeys(draw(ids) for _ in range(_pick(draw, (0, 1, 2, 3) + (4, 5, 6, 7, 8) * 3))))
    undeclared = [i for i in dict.fromkeys(draw(ids) for _ in range(_pick(draw, range(4)))) if i not in declared]
    label_pool = [draw(labels) for _ in range(1 + _pick(draw, range(3)))]
    roles = [_pick(draw, BOX_ROLES + OTHER_ROLES) for _ in declared]
    workflow: Json = {
        "nodes": [draw(nodes(node_id, role, label_pool)) for node_id, role in zip(declared, roles)],
        "edges": [],
    }
    endpoints = declared + undeclared
    if endpoints:
        # Tools mostly flow downstream, from tools (rank 0) through boxes
        # (ranks 1 and 2) to consumers (rank 3), preferably one rank at a
        # time, so that they travel through chains and diamonds of boxes
        # and meet at the same consumers. The rest go anywhere, closing
        # cycles and self-loops.
        rank = {node_id: _pick(draw, (0, 3)) for node_id in undeclared}
        for node_id, role in zip(declared, roles):
            rank[node_id] = _pick(draw, (1, 2) if role in BOX_ROLES else (0, 0, 3))
        targets = {}
        for source in endpoints:
            next_rank = [target for target in endpoints if rank[target] == rank[source] + 1]
            downstream = [target for target in endpoints if rank[target] > rank[source]]
            targets[source] = next_rank * 3 + downstream + endpoints
        edge = edges(targets)
        # At least as many edges as nodes: sparser graphs rarely collide.
        size = len(endpoints) + _pick(draw, range(2 * len(endpoints) + 1))
        workflow["edges"] = [draw(edge) for _ in range(size)]
    for key in ("nodes", "edges"):
        if not workflow[key]:
            _empty_list_form(draw, workflow, key)
    return _order_keys(draw, workflow)


@st.composite
def options(draw: st.DrawFn) -> Options:
    """Mostly the defaults; sometimes other passthrough types and recognised
    edge types, possibly repeated, possibly without ``tool_availability``."""
    # Index 0 is what Hypothesis shrinks towards: the defaults.
    chosen: Options = {}
    if _pick(draw, range(4)) == 3:
        chosen["passthrough_types"] = draw(st.lists(st.sampled_from([TOOLBOX, DRUPAL_TOOLBOX, "agent", "Toolbox"])))
    if _pick(draw, range(4)) == 3:
        chosen["edge_types"] = draw(st.lists(st.sampled_from([*RECOGNISED, TOOL_EDGE, *UNRECOGNISED])))
    return chosen


# The structures SEMANTICS 4 names, so that every run has them whatever the
# random draws.


def _wire(source: str, target: str) -> Json:
    return {"source": source, "target": target, "data": {"edgeType": TOOL_EDGE}}


def _node(node_id: str, label: str, node_type: Optional[str] = None, metadata: Optional[Json] = None) -> Json:
    node: Json = {"id": node_id, "data": {"label": label}}
    if node_type is not None:
        node["type"] = node_type
    if metadata is not None:
        node["data"]["metadata"] = metadata
    return node


BOX_CHAIN_IN_THREE_DIALECTS = {
    "nodes": [
        _node("t1", "Web Search"),
        _node("t2", "web-search"),
        _node("drupal", "Kit", metadata={"node_type_id": DRUPAL_TOOLBOX}),
        _node("editor", "Kit", "universalNode", metadata={"id": TOOLBOX}),
        _node("spec", "Kit", TOOLBOX),
    ],
    "edges": [_wire("t1", "drupal"), _wire("drupal", "editor"), _wire("editor", "spec"),
              _wire("spec", "agent"), _wire("t2", "spec")],  # fmt: skip
}
BOX_CYCLE_AND_DIAMOND = {
    "nodes": [_node("t1", "Search"), _node("t2", "search"), _node("t3", "SEARCH")]
    + [_node(box, "", TOOLBOX) for box in ("b1", "b2", "b3", "b4")],
    # b1 <-> b2 is a cycle; t3 reaches the agent through b2, b3 and b4, and
    # b4 comes first in edge order but b3 wins the tie by id.
    "edges": [_wire("t1", "b1"), _wire("t2", "b2"), _wire("b1", "b2"), _wire("b2", "b1"), _wire("b1", "agent"),
              _wire("t3", "b2"), _wire("t3", "b4"), _wire("t3", "b3"), _wire("b4", "agent"), _wire("b3", "agent"),
              _wire("b3", "b3")],  # fmt: skip
}
SELF_LOOP_AND_AGENT_AS_TOOL = {
    "nodes": [_node("main", "Search"), _node("sub", "search"), _node("t", "SEARCH"), _node("box", "", TOOLBOX)],
    "edges": [_wire("main", "main"), _wire("sub", "main"), _wire("t", "sub"), _wire("main", "box"),
              _wire("box", "main"), _wire("box", "main")],  # fmt: skip
}
DECOYS_AND_A_COLLISION_THAT_REACHES_NO_CONSUMER = {
    "edges": [
        _wire("t1", "box"),
        _wire("t2", "box"),
        {"source": "box", "target": "agent", "targetHandle": "agent-input-tools"},
        {"source": "box", "target": "agent", "targetHandle": "agent-input-tool", "data": {"edgeType": "data"}},
        {"id": "typo", "source": "box", "target": "agent", "data": {"edgeType": "tool_availabilty"}},
    ],
    "nodes": [_node("t1", "Lookup"), _node("t2", "lookup"), _node("box", "", TOOLBOX)],
}


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workflow=workflows(), chosen=options(), serialiser=serialisers)
@example(workflow=BOX_CHAIN_IN_THREE_DIALECTS, chosen={}, serialiser="json.dumps")
@example(workflow=BOX_CYCLE_AND_DIAMOND, chosen={}, serialiser="json.dumps")
@example(workflow=SELF_LOOP_AND_AGENT_AS_TOOL, chosen={}, serialiser="json.dumps")
@example(workflow=DECOYS_AND_A_COLLISION_THAT_REACHES_NO_CONSUMER, chosen={}, serialiser="json.dumps")
def test_cmp9_rust_core_matches_reference_on_random_workflows(
    workflow: Json, chosen: Options, serialiser: str, workdir: Path
) -> None:
    expected = _assert_same_on_every_path(workflow, chosen, serialiser, workdir)
    # The strategy builds only checkable workflows, so an error is a bug in
    # the strategy or in both implementations alike.
    assert expected.error is None, expected.error


REAL_WORKFLOWS = shared_files(SHARED / "real-workflows")


@pytest.mark.parametrize("path", REAL_WORKFLOWS, ids=[p.stem for p in REAL_WORKFLOWS])
def test_cmp9_rust_core_matches_reference_on_real_workflows(path: Path) -> None:
    need_shared(path)
    workflow = json.loads(path.read_text(encoding="utf-8"))
    expected = _reference(workflow, {})
    assert _outcome(lambda: toolwire.check(workflow), from_text=False) == expected
    assert _outcome(lambda: toolwire.check_file(path), from_text=True, path=path) == expected


# --- Random malformed workflows (input errors) -------------------------------

BAD_CONTAINERS: st.SearchStrategy[Any] = st.one_of(
    st.booleans(), st.integers(-5, 5), st.text(max_size=3), st.just({"0": {"id": "a"}})
)
# A tiny pool, so that duplicate ids (R2) are frequent.
shaky_ids: st.SearchStrategy[Any] = st.one_of(st.sampled_from(["a", "b", "é"]), st.just(""), JUNK, st.just(ABSENT))


def _with_field(obj: Json, key: str, value: Any) -> Json:
    if value is not ABSENT:
        obj[key] = value
    return obj


@st.composite
def shaky_nodes(draw: st.DrawFn) -> Any:
    if _pick(draw, range(5)) == 0:
        return draw(NON_OBJECTS)
    return _with_field({"type": _pick(draw, (TOOLBOX, "agent"))}, "id", draw(shaky_ids))


@st.composite
def shaky_edges(draw: st.DrawFn) -> Any:
    if _pick(draw, range(5)) == 0:
        return draw(NON_OBJECTS)
    edge: Json = {}
    # Endpoints matter only on tool edges (SEMANTICS 3), so both kinds occur.
    declaration = _pick(draw, (TOOL_EDGE, TOOL_EDGE, "data", "tool_availabilty", None))
    if declaration is None:
        edge["targetHandle"] = "x-input-tool"
    else:
        edge["data"] = {"edgeType": declaration}
    _with_field(edge, "source", draw(shaky_ids))
    _with_field(edge, "target", draw(shaky_ids))
    return _with_field(edge, "id", draw(st.one_of(st.just(ABSENT), st.sampled_from(["e1", 'e"2']), JUNK)))


@st.composite
def malformed_workflows(draw: st.DrawFn) -> Workflow:
    """Wrong container types, non-object nodes and edges, bad and duplicate
    ids (R2), tool edges without endpoints, often several at once; some
    turn out checkable, which is compared just the same."""
    if _pick(draw, range(10)) == 0:
        return draw(st.one_of(NON_OBJECTS, st.text(max_size=3)))
    workflow: Json = {}
    for key, elements in (("nodes", shaky_nodes()), ("edges", shaky_edges())):
        form = _pick(draw, ("list", "list", "list", "bad container", "empty form"))
        if form == "list":
            workflow[key] = [draw(elements) for _ in range(_pick(draw, range(6)))]
        elif form == "bad container":
            workflow[key] = draw(BAD_CONTAINERS)
        else:
            workflow[key] = []
            _empty_list_form(draw, workflow, key)
    return _order_keys(draw, workflow)


@settings(max_examples=600, deadline=None)
@given(workflow=malformed_workflows(), serialiser=serialisers)
def test_r2_edge2_input_errors_match_reference_on_malformed_workflows(
    workflow: Workflow, serialiser: str, workdir: Path
) -> None:
    """The same first input error, word for word, whichever way the
    workflow arrives (SEMANTICS 7: text input only adds a line and column)."""
    _assert_same_on_every_path(workflow, {}, serialiser, workdir)


# --- Names (SEMANTICS 5) -----------------------------------------------------


@settings(max_examples=500, deadline=None)
@given(label=st.one_of(st.sampled_from(LABEL_POOL), st.text(CHARACTERS)))
def test_semantics5_rust_normalize_name_matches_reference(label: str) -> None:
    assert toolwire.normalize_name(label) == reference.normalize_name(label)


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("Web Search", "web_search"),
        ("web-search", "web_search"),
        ("WEB_SEARCH!", "web_search"),
        ("Get User (Admin)", "get_user_admin"),
        ("GetWeatherData", "getweatherdata"),
        ("Café Search", "caf_search"),
        ("日本語", "unnamed_tool"),
        ("", "unnamed_tool"),
        ("__a -- b__", "a_b"),
        # Only ASCII changes case: str.lower() would make "i̇stanbul" of it.
        ("İstanbul", "stanbul"),
    ],
)
def test_semantics5_reference_names_labels_like_the_examples(label: str, name: str) -> None:
    assert reference.normalize_name(label) == name


# --- The reference on the spec's examples (SEMANTICS 8, 9) -------------------


def _load(name: str) -> Json:
    loaded: Json = json.loads((DATA / name).read_text(encoding="utf-8"))
    return loaded


def _stats(report: toolwire.Report) -> toolwire.Stats:
    # None only for files check_files could not read.
    assert report.stats is not None
    return report.stats


def test_cmp9_reference_refuses_spec_example_with_one_collision_through_the_box() -> None:
    report = reference.check(_load("spec-cmp9-refused.json"))
    assert not report.ok
    [violation] = report.violations
    assert (violation.rule, violation.consumer, violation.name) == ("CMP-9", "agent_1", "web_search")
    assert [(t.id, t.path) for t in violation.tools] == [
        ("tool_a", ["tool_a", "box_1", "agent_1"]),
        ("tool_b", ["tool_b", "box_1", "agent_1"]),
    ]


def test_cmp9_reference_accepts_spec_example_with_the_same_name_at_two_consumers() -> None:
    report = reference.check(_load("spec-cmp9-accepted.json"))
    assert report.ok
    assert report.violations == []
    assert _stats(report).consumers == 2


def _dialect(node: Callable[[str, str, str], Json], edge: Callable[[str, str], Json], box_type: str) -> Json:
    """Two tools whose names clash, through a box into an agent."""
    return {
        "nodes": [
            node("t1", "http_request", "Fetch Page"),
            node("t2", "http_request", "fetch-page"),
            node("box", box_type, "Kit"),
            node("ag", "ai_agent", "Agent"),
        ],
        "edges": [edge("t1", "box"), edge("t2", "box"), edge("box", "ag")],
    }


SPEC_FORM = _dialect(
    lambda node_id, type_id, label: {"id": node_id, "type": type_id, "data": {"label": label}},
    _wire,
    TOOLBOX,
)
EDITOR_FORM = _dialect(
    lambda node_id, type_id, label: {
        "id": node_id,
        "type": "universalNode",
        "data": {"label": label, "metadata": {"id": type_id}},
    },
    lambda source, target: {
        "source": source,
        "target": target,
        "sourceHandle": f"{source}-output-tool",
        "targetHandle": f"{target}-input-tool",
        "data": {"metadata": {"edgeType": "tool"}},
    },
    TOOLBOX,
)
DRUPAL_FORM = _dialect(
    lambda node_id, type_id, label: {"id": node_id, "data": {"label": label, "metadata": {"node_type_id": type_id}}},
    lambda source, target: {"source": source, "target": target, "targetHandle": f"{target}-input-tool"},
    DRUPAL_TOOLBOX,
)


@pytest.mark.parametrize("workflow", [SPEC_FORM, EDITOR_FORM, DRUPAL_FORM], ids=["spec", "editor", "drupal"])
def test_semantics9_cmp9_reference_reads_all_three_dialects(workflow: Json) -> None:
    report = reference.check(workflow)
    assert [(v.consumer, v.name, [t.path for t in v.tools]) for v in report.violations] == [
        ("ag", "fetch_page", [["t1", "box", "ag"], ["t2", "box", "ag"]])
    ]
    stats = _stats(report)
    assert (stats.passthroughs, stats.tool_edges, stats.consumers) == (1, 3, 1)


def test_edge5_reference_refuses_an_unrecognised_declaration_and_ignores_its_handle() -> None:
    edge = {"id": "e1", "source": "a", "target": "b", "targetHandle": "b-input-tool"}
    report = reference.check({"edges": [{**edge, "data": {"edgeType": "tool_availabilty"}}]})
    [violation] = report.violations
    assert violation.rule == "EDGE-5"
    assert violation.message == (
        'edge 0 (id "e1") declares data.edgeType "tool_availabilty", which is not a recognised edge type '
        "(recognised: data, error, loopback, tool_availability, trigger)"
    )
    assert _stats(report).tool_edges == 0


def test_cmp9_reference_path_tie_takes_the_smallest_id_and_a_self_loop_still_steps() -> None:
    workflow = {
        "nodes": [_node("t1", "S"), _node("bz", "", TOOLBOX), _node("ba", "", TOOLBOX), _node("agent", "s")],
        "edges": [_wire("t1", "bz"), _wire("t1", "ba"), _wire("bz", "agent"), _wire("ba", "agent"),
                  _wire("agent", "agent")],  # fmt: skip
    }
    [violation] = reference.check(workflow).violations
    assert [t.path for t in violation.tools] == [["agent", "agent"], ["t1", "ba", "agent"]]


# --- the reference stands on its own -------------------------------------------
#
# An oracle that took its defaults from the Rust core would agree with a wrong
# default. So the reference never imports the extension (`toolwire._toolwire`),
# neither directly nor through `toolwire._api` or `toolwire/__init__.py`, which
# load it; its defaults are its own copies, written from SEMANTICS.md.

ISOLATED_REFERENCE = """
import importlib, importlib.abc, json, sys, types

package_dir, workflow_path = sys.argv[1], sys.argv[2]
asked = []

class Blocked(importlib.abc.MetaPathFinder):
    # Refuses the extension and records every attempt, caught or not.
    def find_spec(self, name, path=None, target=None):
        if name == "toolwire._toolwire":
            asked.append(name)
            raise ImportError("the extension is blocked in this test")
        return None

sys.meta_path.insert(0, Blocked())
# A bare package in place of toolwire/__init__.py, which loads the extension
# through _api; the modules in it are found in the real package directory.
package = types.ModuleType("toolwire")
package.__path__ = [package_dir]
sys.modules["toolwire"] = package

reference = importlib.import_module("toolwire.reference")
with open(workflow_path, encoding="utf-8") as f:
    report = reference.check(json.load(f))
loaded = sorted(m for m in sys.modules if m.startswith("toolwire"))
print(json.dumps({
    "report": report.to_dict(),
    "defaults": [list(reference.DEFAULT_PASSTHROUGH_TYPES), list(reference.DEFAULT_EDGE_TYPES)],
    "asked": list(asked),
    "loaded": loaded,
}))
# The block works: anything that needs the extension fails here.
try:
    importlib.import_module("toolwire._api")
except ImportError:
    print(json.dumps({"blocked": asked}))
"""


def test_the_reference_runs_with_the_extension_blocked(tmp_path: Path) -> None:
    path = DATA / "spec-cmp9-refused.json"
    done = subprocess.run(
        [sys.executable, "-c", ISOLATED_REFERENCE, str(Path(reference.__file__).parent), str(path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["asked"] == [], "the reference never asked for the extension"
    assert "toolwire._toolwire" not in first["loaded"] and "toolwire._api" not in first["loaded"]
    assert first["report"] == reference.check(_load("spec-cmp9-refused.json")).to_dict()
    assert [v["name"] for v in first["report"]["violations"]] == ["web_search"]
    assert first["defaults"] == [list(reference.DEFAULT_PASSTHROUGH_TYPES), list(reference.DEFAULT_EDGE_TYPES)]
    assert second == {"blocked": ["toolwire._toolwire"]}, "the test's own premise: the block holds"


def test_the_reference_defaults_are_those_of_semantics_and_of_the_core() -> None:
    # SEMANTICS 4 (passthroughs) and 3 (recognised edge types, EDGE-5).
    assert sorted(reference.DEFAULT_PASSTHROUGH_TYPES) == sorted([TOOLBOX, DRUPAL_TOOLBOX])
    assert sorted(reference.DEFAULT_EDGE_TYPES) == sorted([*RECOGNISED, TOOL_EDGE])
    assert sorted(toolwire.DEFAULT_PASSTHROUGH_TYPES) == sorted(reference.DEFAULT_PASSTHROUGH_TYPES)
    assert sorted(toolwire.DEFAULT_EDGE_TYPES) == sorted(reference.DEFAULT_EDGE_TYPES)


@pytest.mark.parametrize("option", ["passthrough_types", "edge_types"])
@pytest.mark.parametrize("value", ["toolbox", b"toolbox", ["toolbox", 1], [None]])
def test_the_reference_refuses_a_misused_option_as_the_core_does(option: str, value: Any) -> None:
    workflow = {"nodes": [{"id": "a"}]}
    with pytest.raises(TypeError) as core:
        toolwire.check(workflow, **{option: value})
    with pytest.raises(TypeError) as ours:
        reference.check(workflow, **{option: value})
    assert str(ours.value) == str(core.value)
