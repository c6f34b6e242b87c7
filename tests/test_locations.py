"""Locations: where in the JSON text each finding is.

For text input (``check_json``, ``check_file``) every ``Violation``,
``Tool`` and ``WiringWarning`` has a ``Location(line, column)``, both
1-based, the column counting characters as Python ``str`` indices do (an
astral character is one), lines ending at ``"\\n"`` only, as in Python's
``json`` module. It is the first character, ``{``, of:

- a declared node's object in ``nodes``: the consumer of a CMP-9 violation,
  each tool of it, the node of a NAME-LOSSY / NAME-UNNAMED warning;
- for a node that is never declared, the first tool edge (in ``edges``
  order) that names it;
- the edge's object for EDGE-5 violations and R8 warnings.

For ``check(dict)`` there is no text, and every location is None.

The oracle here is Python's own ``json`` module: the element start of
every node and edge is found by decoding the text with
``JSONDecoder.raw_decode``, and the object decoded at each reported
location must be the node or edge meant.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import toolwire
from test_differential import Options, options, workflows
from toolwire import Location, Report, reference

Json = Dict[str, Any]

TOOL_EDGE = "tool_availability"
WHITESPACE = " \t\n\r"
DECODER = json.JSONDecoder()


# --- the oracle: Python's json module ------------------------------------------------


class Text:
    """A JSON text, read as Python's json module reads it: lines end at
    ``"\\n"`` only, and columns count ``str`` characters."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def index(self, location: Location) -> int:
        """The ``str`` index a location points at."""
        assert 1 <= location.line <= len(self.line_starts) and location.column >= 1, location
        start = self.line_starts[location.line - 1]
        index = start + location.column - 1
        end = self.text.find("\n", start)
        assert index < (len(self.text) if end == -1 else end), f"{location} is past the end of its line"
        return index

    def object_at(self, location: Location) -> Any:
        """The JSON value that starts at ``location``, which must be an object."""
        index = self.index(location)
        assert self.text[index] == "{", f"{location} is at {self.text[index:index + 20]!r}, not at an object"
        return DECODER.raw_decode(self.text, index)[0]


def _skip_whitespace(text: str, at: int) -> int:
    while text[at] in WHITESPACE:
        at += 1
    return at


def element_starts(text: str) -> Dict[str, List[int]]:
    """The ``str`` index of each element of the top-level ``nodes`` and
    ``edges`` arrays (of the last of each, as ``json.loads`` keeps)."""
    starts: Dict[str, List[int]] = {"nodes": [], "edges": []}
    at = _skip_whitespace(text, 0)
    assert text[at] == "{"
    at = _skip_whitespace(text, at + 1)
    while text[at] != "}":
        key, at = DECODER.raw_decode(text, at)
        at = _skip_whitespace(text, at)
        assert text[at] == ":"
        at = _skip_whitespace(text, at + 1)
        if key in starts and text[at] == "[":
            found: List[int] = []
            at = _skip_whitespace(text, at + 1)
            while text[at] != "]":
                found.append(at)
                at = _skip_whitespace(text, DECODER.raw_decode(text, at)[1])
                if text[at] == ",":
                    at = _skip_whitespace(text, at + 1)
            starts[key] = found
            at += 1
        else:
            at = DECODER.raw_decode(text, at)[1]
        at = _skip_whitespace(text, at)
        if text[at] == ",":
            at = _skip_whitespace(text, at + 1)
    return starts


def _list(document: Json, key: str) -> List[Any]:
    value = document.get(key)
    return value if isinstance(value, list) else []


class Places:
    """Where each node and edge of a workflow is in one JSON text of it."""

    def __init__(self, document: Json, text: str, chosen: Options) -> None:
        self.edges = _list(document, "edges")
        starts = element_starts(text)
        self.edge_starts = starts["edges"]
        assert len(self.edge_starts) == len(self.edges)
        self.node_starts = {node["id"]: at for node, at in zip(_list(document, "nodes"), starts["nodes"])}
        # The first tool edge naming each undeclared node, as the reference
        # (SEMANTICS 2-3 in plain Python) finds it.
        warnings = reference.check(document, **chosen).warnings
        self.first_edge = {w.node: w.edge for w in warnings if w.code == "R8" and w.edge is not None}


def located(report: Report) -> Iterator[Tuple[str, Optional[Location]]]:
    """Every location of a report, with what it belongs to."""
    for v in report.violations:
        yield f"{v.rule} {v.consumer or v.edge}", v.location
        for t in v.tools:
            yield f"{v.rule} {v.consumer} tool {t.id}", t.location
    for w in report.warnings:
        yield f"{w.code} {w.node}", w.location


def assert_located_like_json_module(document: Json, text: str, chosen: Options, report: Report) -> None:
    """Each location is the ``{`` of the node or edge it belongs to."""
    places = Places(document, text, chosen)
    parsed = Text(text)

    def at_edge(what: str, location: Optional[Location], index: int) -> None:
        assert location is not None, what
        assert parsed.index(location) == places.edge_starts[index], f"{what}: {location}"
        assert parsed.object_at(location) == places.edges[index], what

    def at_node(what: str, location: Optional[Location], node_id: str) -> None:
        if node_id not in places.node_starts:
            index = places.first_edge[node_id]
            assert node_id in (places.edges[index]["source"], places.edges[index]["target"])
            return at_edge(f"{what} (never declared)", location, index)
        assert location is not None, what
        assert parsed.index(location) == places.node_starts[node_id], f"{what}: {location}"
        assert parsed.object_at(location)["id"] == node_id, what

    for v in report.violations:
        if v.rule == "CMP-9":
            assert v.consumer is not None
            at_node(f"CMP-9 at {v.consumer}", v.location, v.consumer)
            for t in v.tools:
                at_node(f"tool {t.id} of {v.consumer}", t.location, t.id)
        else:
            assert v.edge is not None
            at_edge(f"EDGE-5 on edge {v.edge}", v.location, v.edge)
    for w in report.warnings:
        if w.code == "R8":
            assert w.edge is not None
            at_edge(f"R8 on edge {w.edge}", w.location, w.edge)
        elif w.code == "DUPLICATE-KEY":
            # At the repeated key itself: a key of the object the message names.
            assert w.location is not None
            key = w.message.split(" repeats the key ")[1].split(":")[0]
            assert text[parsed.index(w.location) :].startswith(json.dumps(json.loads(key).split(".")[-1])), w
        else:
            at_node(f"{w.code} of {w.node}", w.location, w.node)


# --- properties on random workflows ----------------------------------------------------

SERIALISERS: Dict[str, Callable[[Json], str]] = {
    "json.dumps": json.dumps,
    "json.dumps(ensure_ascii=False)": lambda w: json.dumps(w, ensure_ascii=False),
    "json.dumps(indent=2)": lambda w: json.dumps(w, indent=2),
    "json.dumps(indent=2, ensure_ascii=False)": lambda w: json.dumps(w, indent=2, ensure_ascii=False),
    "minified, one line": lambda w: json.dumps(w, separators=(",", ":"), ensure_ascii=False),
    "indent=2, CRLF": lambda w: json.dumps(w, indent=2, ensure_ascii=False).replace("\n", "\r\n"),
    "indent=tab, CRLF": lambda w: json.dumps(w, indent="\t").replace("\n", "\r\n"),
}


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=workflows(), chosen=options(), serialiser=st.sampled_from(sorted(SERIALISERS)))
def test_every_location_is_the_object_of_the_node_or_edge_it_names(
    document: Json, chosen: Options, serialiser: str
) -> None:
    text = SERIALISERS[serialiser](document)
    note(f"JSON text: {text!r}")
    report = toolwire.check_json(text, **chosen)
    assert_located_like_json_module(document, text, chosen, report)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=workflows(), chosen=options(), serialiser=st.sampled_from(sorted(SERIALISERS)))
def test_locations_are_the_same_from_str_bytes_and_file_and_none_from_a_dict(
    document: Json, chosen: Options, serialiser: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    text = SERIALISERS[serialiser](document)
    path = tmp_path_factory.getbasetemp() / "locations.json"
    path.write_bytes(text.encode())
    from_str = toolwire.check_json(text, **chosen).to_dict()
    assert toolwire.check_json(text.encode(), **chosen).to_dict() == from_str
    from_file = toolwire.check_file(path, **chosen).to_dict()
    assert (from_file.pop("path"), from_str.pop("path")) == (str(path), None)
    assert from_file == from_str
    assert [where for where in located(toolwire.check(document, **chosen)) if where[1] is not None] == []


# --- by example --------------------------------------------------------------------------


def wire(source: str, target: str, **extra: Any) -> Json:
    return {"source": source, "target": target, "data": {"edgeType": TOOL_EDGE}, **extra}


def at(text: str, snippet: str, occurrence: int = 0) -> Location:
    """The Location of the ``occurrence``-th ``snippet`` in ``text``, counted
    the way Python's json module counts: lines end at ``"\\n"``, columns
    count ``str`` characters."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(snippet, index + 1)
    line = text.count("\n", 0, index) + 1
    return Location(line, index - (text.rfind("\n", 0, index) + 1) + 1)


def test_columns_count_characters_not_bytes_after_accents_cjk_and_emoji() -> None:
    # é is 2 bytes, 日本 6, 💡 4 (an astral character: one str index, two
    # UTF-16 units); the tool nodes come after them on the same line.
    text = (
        '{"description": "é 日本 💡", "nodes": [{"id": "💡", "data": {"label": "Search"}}, '
        '{"id": "日本", "data": {"label": "search"}}], '
        '"edges": [{"source": "💡", "target": "ag", "data": {"edgeType": "tool_availability"}}, '
        '{"source": "日本", "target": "ag", "data": {"edgeType": "tool_availability"}}]}'
    )
    report = toolwire.check_json(text)
    [violation] = report.violations
    assert [t.location for t in violation.tools] == [at(text, '{"id": "日本"'), at(text, '{"id": "💡"')]
    assert violation.tools[1].location == Location(1, 37)
    # The consumer is never declared: the first tool edge naming it.
    assert violation.location == at(text, '{"source": "💡"') == report.warnings[0].location
    assert_located_like_json_module(json.loads(text), text, {}, report)


def test_columns_reset_after_each_crlf_line_ending() -> None:
    document = {
        "nodes": [{"id": "t1", "data": {"label": "Café"}}, {"id": "t2", "data": {"label": "café"}}],
        "edges": [wire("t1", "ag"), wire("t2", "ag")],
    }
    text = json.dumps(document, indent=2, ensure_ascii=False).replace("\n", "\r\n")
    report = toolwire.check_json(text)
    [violation] = report.violations
    # "\r\n" + four spaces of indent: every node object starts in column 5.
    assert [t.location for t in violation.tools] == [Location(3, 5), Location(9, 5)]
    assert [(w.code, w.location) for w in report.warnings] == [
        ("R8", Location(17, 5)),
        ("NAME-LOSSY", Location(3, 5)),
        ("NAME-LOSSY", Location(9, 5)),
    ]
    assert_located_like_json_module(document, text, {}, report)


def test_a_lone_carriage_return_ends_a_line_as_editors_show() -> None:
    # A bare CR is whitespace to JSON but a line break to editors (and to
    # YAML): places are what an editor shows, though Python's `json` module
    # counts only LF (docs/SEMANTICS.md section 10). LF and CRLF texts are
    # located exactly as before.
    text = '{"nodes": [\r{"id": "t1", "data": {"label": "日本"}}],\r"edges": [\r'
    text += json.dumps(wire("t1", "ag")) + "]}"
    report = toolwire.check_json(text)
    assert [(w.code, w.location) for w in report.warnings] == [
        ("R8", Location(4, 1)),
        ("NAME-UNNAMED", Location(2, 1)),
    ]
    crlf = toolwire.check_json(text.replace("\r", "\r\n"))
    assert [w.location for w in crlf.warnings] == [w.location for w in report.warnings]


def test_minified_one_line_document_gives_columns_far_along_line_one() -> None:
    nodes: List[Json] = [{"id": f"t{i}", "data": {"label": f"Tool {i} é"}} for i in range(300)]
    nodes.append({"id": "dup", "data": {"label": "TOOL 299 É"}})
    document = {"nodes": nodes, "edges": [wire(n["id"], "ag") for n in nodes]}
    text = json.dumps(document, separators=(",", ":"), ensure_ascii=False)
    assert "\n" not in text
    report = toolwire.check_json(text)
    [violation] = [v for v in report.violations if v.rule == "CMP-9"]
    assert [t.location for t in violation.tools] == [at(text, '{"id":"dup"'), at(text, '{"id":"t299"')]
    assert all(w.location is not None and w.location.line == 1 for w in report.warnings)
    assert len(report.warnings) == 1 + len(nodes)  # R8 for "ag", NAME-LOSSY for each tool
    assert_located_like_json_module(document, text, {}, report)


def test_edges_before_nodes_still_locate_declared_nodes_at_their_node_object() -> None:
    text = (
        '{"edges": [\n  {"source": "t1", "target": "ag", "data": {"edgeType": "tool_availability"}},\n'
        '  {"source": "t2", "target": "ag", "data": {"edgeType": "tool_availability"}}\n],\n'
        ' "nodes": [\n  {"id": "ag"},\n  {"id": "t2", "data": {"label": "x"}},\n'
        '  {"id": "t1", "data": {"label": "X"}}\n]}'
    )
    report = toolwire.check_json(text)
    [violation] = report.violations
    assert violation.location == Location(6, 3)
    assert [t.location for t in violation.tools] == [Location(8, 3), Location(7, 3)]
    assert report.warnings == []


def test_undeclared_node_is_located_at_the_first_tool_edge_naming_it_not_an_earlier_other_edge() -> None:
    edges = [
        {"source": "ag", "target": "helper", "data": {"edgeType": "data"}},
        {"source": "ag", "target": "helper", "targetHandle": "helper-input-tools"},
        {"source": "t1", "target": "ag", "data": {"edgeType": "tool_availabilty"}},
        wire("t1", "ag", id="first"),
        wire("go", "ag", id="second"),
        wire("go", "t1", id="third"),
    ]
    # Edge i on line 3 + i, from column 3.
    text = '{"nodes": [{"id": "t1", "data": {"label": "Go"}}],\n "edges": [\n'
    text += ",\n".join("  " + json.dumps(e) for e in edges) + "\n]}"
    report = toolwire.check_json(text)
    edge5, collision = report.violations
    assert edge5.location == Location(5, 3)
    assert collision.location == Location(6, 3)  # "ag": edges 0 to 2 are no tool wiring
    assert [(t.id, t.location) for t in collision.tools] == [("go", Location(7, 3)), ("t1", Location(1, 12))]
    assert [(w.code, w.node, w.location) for w in report.warnings] == [
        ("R8", "ag", Location(6, 3)),
        ("R8", "go", Location(7, 3)),
    ]
    assert_located_like_json_module(json.loads(text), text, {}, report)


def test_repeated_nodes_and_edges_keys_locate_the_last_ones_as_json_module_keeps_them() -> None:
    text = (
        '{"nodes": [{"id": "t1", "data": {"label": "Old"}}],\n'
        ' "edges": [{"source": "x", "target": "y", "data": {"edgeType": "tool_availabilty"}}],\n'
        ' "edges": [{"source": "t1", "target": "ag", "data": {"edgeType": "tool_availability"}},\n'
        '           {"source": "t2", "target": "ag", "data": {"edgeType": "tool_availability"}},\n'
        '           {"source": "t2", "target": "ag", "data": {"edgeType": "Tool_availability"}}],\n'
        ' "nodes": [{"id": "t2", "data": {"label": "Ünique"}}, {"id": "t1", "data": {"label": "ünique"}}]}'
    )
    report = toolwire.check_json(text)
    edge5, collision = report.violations
    assert (edge5.edge, edge5.location) == (2, Location(5, 12))
    assert [t.location for t in collision.tools] == [Location(6, 55), Location(6, 12)]
    assert [(w.code, w.location) for w in report.warnings] == [
        # Each repeated key where it is repeated, in the order of the text.
        ("DUPLICATE-KEY", Location(3, 2)),
        ("DUPLICATE-KEY", Location(6, 2)),
        ("R8", Location(3, 12)),
        ("NAME-LOSSY", Location(6, 55)),
        ("NAME-LOSSY", Location(6, 12)),
    ]
    assert_located_like_json_module(json.loads(text), text, {}, report)


def test_locations_in_a_document_large_enough_to_be_read_on_two_threads() -> None:
    # Inputs of 4 MiB and more are parsed and built on two threads.
    nodes: List[Json] = [
        {"id": f"n{i:06d}", "data": {"label": f"Tøøl {i}", "config": {"pad": "é" * 40}}} for i in range(40_000)
    ]
    nodes.append({"id": "twin", "data": {"label": "tøøl 39999"}})
    edges = [wire(n["id"], f"agent{i % 7}") for i, n in enumerate(nodes)]
    edges[-1] = wire("twin", "agent1")  # 39_999 % 7 == 1
    document = {"nodes": nodes, "edges": edges}
    text = json.dumps(document, indent=1, ensure_ascii=False)
    assert len(text.encode()) > 4 << 20
    report = toolwire.check_json(text)
    [violation] = report.violations
    assert (violation.consumer, [t.id for t in violation.tools]) == ("agent1", ["n039999", "twin"])
    assert violation.location == at(text, '{\n   "source": "n000001"')
    assert_located_like_json_module(document, text, {}, report)
    assert violation.fix == toolwire.check(document).violations[0].fix


def test_check_file_locates_like_check_json(tmp_path: Path) -> None:
    text = '{"nodes": [\n\t{"id": "é", "data": {"label": "A"}}, {"id": "b", "data": {"label": "a"}}],\n"edges": [\n'
    text += ",\n".join(json.dumps(wire(s, "agent"), ensure_ascii=False) for s in ("é", "b")) + "]}"
    path = tmp_path / "workflow.json"
    path.write_text(text, encoding="utf-8")
    report = toolwire.check_file(path)
    [violation] = report.violations
    assert violation.location == Location(4, 1)
    assert [t.location for t in violation.tools] == [at(text, '{"id": "b"'), Location(2, 2)]
    assert report.to_dict()["violations"][0]["location"] == {"line": 4, "column": 1}
    assert toolwire.check_json(text).to_dict() == {**report.to_dict(), "path": None}


def test_check_of_a_dict_has_no_locations() -> None:
    document = json.loads((Path(__file__).parent / "data" / "multi-violation.json").read_text("utf-8"))
    report = toolwire.check(document)
    found = list(located(report))
    assert {what.split()[0] for what, _ in found} == {"CMP-9", "EDGE-5", "R8", "NAME-LOSSY", "NAME-UNNAMED"}
    assert all(location is None for _, location in found)
    text = json.dumps(document, indent=2, ensure_ascii=False)
    assert all(location is not None for _, location in located(toolwire.check_json(text)))
