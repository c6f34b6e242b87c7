"""The YAML reader (SEMANTICS.md section 10, issue 21) attacked from outside:
workflows written as YAML in every style PyYAML can emit must get the verdict
their parsed form gets; hostile texts (alias bombs and their variants, deep
nesting, tags, directives, several documents, bad bytes, every truncation)
must be input errors with a line and column or correct reports, never a crash
and never a silent pass of a violation; places must be what an editor shows.

Defects found were strict ``xfail`` tests; each fixed one is now a plain
regression test whose comment names the defect."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from typing import Any, Dict, List, Optional

import pytest
import yaml
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import toolwire

from support import without_places


def outcome(check: Any, *args: Any) -> Dict[str, Any]:
    """A report without places, or the input error's message."""
    try:
        return without_places(check(*args))
    except toolwire.WorkflowError as e:
        return {"error": e.message}


def error_of(text: Any) -> toolwire.WorkflowError:
    with pytest.raises(toolwire.WorkflowError) as raised:
        toolwire.check_yaml(text)
    return raised.value


def verdict(text: Any) -> List[Any]:
    """The violations as (rule, consumer, name): what decides refusal."""
    return [(v.rule, v.consumer, v.name) for v in toolwire.check_yaml(text).violations]


# Two tools whose labels share the name `search`, both wired into agent `ag`:
# refused by CMP-9. Every hostile variant below is built from it, so a variant
# that reads without error must still be refused.
CLASH = (
    "nodes:\n"
    "  - {id: t1, data: {label: Search}}\n"
    "  - {id: t2, data: {label: search}}\n"
    "  - {id: ag}\n"
    "edges:\n"
    "  - {source: t1, target: ag, targetHandle: ag-input-tool}\n"
    "  - {source: t2, target: ag, targetHandle: ag-input-tool}\n"
)
REFUSED = [("CMP-9", "ag", "search")]


def test_the_base_workflow_is_refused_by_cmp9() -> None:
    assert verdict(CLASH) == REFUSED
    assert toolwire.check(yaml.safe_load(CLASH)).violations[0].name == "search"


# --- differential: the same verdict as PyYAML's tree, in every style ---------

# Labels PyYAML and YAML 1.2 both read as the same string however they are
# written (no `0o17` or `1e3`, which PyYAML writes plain as YAML 1.1 strings
# and YAML 1.2 reads as numbers; that gap has its own tests below; nor U+2028,
# a line break to PyYAML's emitter and a character to YAML 1.2). Several
# share a name, so clashes are common.
LABELS = [
    "Search",
    "search",
    "Web Search",
    "web-search",
    "WEB_SEARCH!",
    "Café Search",
    "caf search",
    "日本語",
    "",
    "Fetch page",
    "fetch  page ",
    "a label long enough that a narrow dump folds it over several lines, search",
    "two\nlines",
    "  padded  ",
    "tab\there",
    "quote ' and \" both",
    "colon: inside",
    "# hash",
    "- dash",
    "[x]",
    "{y}",
    "&anchor",
    "*star",
    "!bang",
    "%pct",
    "@at",
    "? query",
    "| pipe",
    "> gt",
    "yes",
    "no",
    "on",
    "null",
    "~",
    "True",
    "12",
    "1.5",
    "emoji 😀",
]
IDS = ["t1", "t2", "t3", "box", "ag", "ag2", "é.1", "node 1", "yes", "12"]
TYPES: List[Optional[Dict[str, Any]]] = [
    None,
    {"type": "http_request"},
    {"type": "toolbox"},
    {"type": "agent"},
    {"type": "universalNode", "meta": {"id": "toolbox"}},
    {"meta": {"node_type_id": "flowdrop_node_processor_toolbox"}},
    {"meta": {"node_type_id": "agent"}},
]
EDGE_TYPES = [None, "tool_availability", "data", "tool_availabilty", ""]


@st.composite
def workflows(draw: Any) -> Dict[str, Any]:
    """A workflow dict in any of the three dialects, with data dicts shared
    between nodes and edges at random so that PyYAML's dump writes anchors
    and aliases for them."""
    ids = draw(st.lists(st.sampled_from(IDS), min_size=1, max_size=6, unique=True))
    shared_data: List[Dict[str, Any]] = []
    nodes = []
    for node_id in ids:
        node: Dict[str, Any] = {"id": node_id}
        kind = draw(st.sampled_from(TYPES))
        data: Dict[str, Any] = {}
        if kind and "type" in kind:
            node["type"] = kind["type"]
        if kind and "meta" in kind:
            data["metadata"] = dict(kind["meta"])
        if draw(st.booleans()):
            data["label"] = draw(st.sampled_from(LABELS))
        if shared_data and draw(st.integers(0, 3)) == 0:
            data = draw(st.sampled_from(shared_data))
        elif data:
            shared_data.append(data)
        if data or draw(st.booleans()):
            node["data"] = data
        if draw(st.integers(0, 3)) == 0:
            node["position"] = {"x": "10", "y": "-5"}
        nodes.append(node)
    endpoints = ids + ["ghost"]
    edges = []
    shared_edge_data: List[Dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 8))):
        edge: Dict[str, Any] = {
            "source": draw(st.sampled_from(endpoints)),
            "target": draw(st.sampled_from(endpoints)),
        }
        handle = draw(st.integers(0, 4))
        if handle == 0:
            edge["targetHandle"] = edge["target"] + "-input-tool"
        elif handle == 1:
            edge["targetHandle"] = edge["target"] + "-input-tools"
        edge_type = draw(st.sampled_from(EDGE_TYPES))
        if edge_type is not None:
            data = {"edgeType": edge_type}
            if shared_edge_data and draw(st.booleans()):
                data = draw(st.sampled_from(shared_edge_data))
            shared_edge_data.append(data)
            edge["data"] = data
        edges.append(edge)
    workflow: Dict[str, Any] = {"id": "w", "label": draw(st.sampled_from(LABELS)), "nodes": nodes, "edges": edges}
    if draw(st.booleans()):
        workflow = dict(reversed(list(workflow.items())))
    return workflow


@st.composite
def dump_styles(draw: Any) -> Dict[str, Any]:
    """Options for ``yaml.dump``: block, flow or mixed; plain, quoted, literal
    or folded scalars; canonical form (tags, explicit `?` keys); markers;
    narrow widths that fold long scalars; CRLF and CR line breaks; escaped or
    raw Unicode."""
    return {
        "default_flow_style": draw(st.sampled_from([False, True, None])),
        "default_style": draw(st.sampled_from([None, None, "'", '"', "|", ">"])),
        "canonical": draw(st.booleans()),
        "explicit_start": draw(st.booleans()),
        "explicit_end": draw(st.booleans()),
        "width": draw(st.sampled_from([12, 40, 1 << 20])),
        "line_break": draw(st.sampled_from(["\n", "\r\n", "\r"])),
        "allow_unicode": draw(st.booleans()),
        "indent": draw(st.integers(2, 6)),
        "sort_keys": draw(st.booleans()),
    }


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(workflows(), dump_styles())
def test_yaml_in_any_style_gets_the_verdict_of_its_pyyaml_tree(workflow: Dict[str, Any], style: Dict[str, Any]) -> None:
    text = yaml.safe_dump(workflow, **style)
    note(text)
    expected = outcome(toolwire.check, yaml.safe_load(text))
    assert outcome(toolwire.check_yaml, text) == expected
    assert outcome(toolwire.check_yaml, text.encode("utf-8")) == expected


# --- YAML 1.2 core schema, not PyYAML's 1.1 (SEMANTICS.md section 10) --------

# The core schema's own regular expressions (YAML 1.2.2, 10.3.2), written
# here independently of the reader's hand-written matcher.
CORE_NULL = re.compile(r"null|Null|NULL|~|")
CORE_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
CORE_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
CORE_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")
PLAIN_SCALARS = [
    "yes", "no", "on", "off", "y", "n", "Y", "0o17", "0O17", "0o18", "0x1F", "0X1F", "0xG", "-0x1F", "+0o7",
    "1_000", "12:30", "0777", "0b101", ".inf", "-.INF", "+.Inf", ".NaN", "-.nan", "1e3", "1E+3", "1e", "+1", "-0",
    "1.", ".5", "-.5", "+.", ".", "1.0.0", "~", "null", "Null", "nULL", "true", "TRUE", "tRUE", "1 2", "0x",
]


def core_kind(plain: str) -> str:
    for pattern, kind in ((CORE_NULL, "null"), (CORE_BOOL, "a boolean"), (CORE_INT, "a number"), (CORE_FLOAT, "a number")):
        if pattern.fullmatch(plain):
            return kind
    return "string"


@pytest.mark.parametrize("plain", PLAIN_SCALARS)
def test_a_plain_scalar_is_a_string_exactly_when_the_yaml_1_2_core_schema_says(plain: str) -> None:
    text = f"nodes:\n  - id: {plain}\n"
    kind = core_kind(plain)
    if kind == "string":
        assert toolwire.check_yaml(text).stats.nodes == 1
    else:
        e = error_of(text)
        # Located at the node, as in JSON.
        assert (e.message, e.line, e.column) == (f"node 0: `id` must be a non-empty string, got {kind}", 2, 5)


def test_yaml_1_1_booleans_are_strings_so_yes_and_yes_clash() -> None:
    # PyYAML reads a plain `yes` as True (the label falls back to the id);
    # YAML 1.2 reads the string "yes", so the two labels clash.
    text = CLASH.replace("label: Search", "label: yes").replace("label: search", "label: 'Yes'")
    assert verdict(text) == [("CMP-9", "ag", "yes")]
    assert toolwire.check(yaml.safe_load(text)).ok


# --- hostile texts that read correctly or fail cleanly (regressions) ---------


def laughs(levels: int, width: int = 9) -> str:
    """Anchors `l0`..: each level a sequence of `width` aliases to the one below."""
    lines = ["l0: &l0 [lol]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


BOMBS = {
    # The classic, beside a workflow that would be refused.
    "skipped-values": laughs(10) + CLASH,
    # The bomb where the reader replays it: as a node's data, an edge's data,
    # the nodes list itself.
    "node-data": laughs(10) + CLASH.replace("{id: ag}", "{id: ag, data: *l9}"),
    "edge-data": laughs(10) + CLASH.replace("targetHandle: ag-input-tool}", "targetHandle: ag-input-tool, data: *l9}", 1),
    "nodes-value": laughs(10) + "nodes: *l9\n",
    # Anchors defined inside anchors, and a bomb built from mappings.
    "nested-anchors": "a: &a {x: &b [lol, lol], y: *b}\n"
    + "".join(f"m{i}: &m{i} {{p: *{'a' if i == 0 else f'm{i - 1}'}, q: *{'a' if i == 0 else f'm{i - 1}'}}}\n" for i in range(40))
    + CLASH,
    # Aliases as keys: each mapping has distinct keys, each aliasing a scalar,
    # and a value that doubles.
    "alias-keys": "k0: &k0 a\nk1: &k1 b\nd0: &d0 [x]\n"
    + "".join(f"d{i}: &d{i} {{*k0 : *d{i - 1}, *k1 : *d{i - 1}}}\n" for i in range(1, 40))
    + CLASH,
    # A merge key is a plain key in YAML 1.2, but its alias still costs.
    "merge-key": laughs(10) + "x: {<<: *l9}\n" + CLASH,
    # Wide rather than deep: one level of a million aliases is also too many.
    "wide": "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n" + "b: [" + ", ".join(["*a"] * 100_000) + "]\n" + CLASH,
}


@pytest.mark.parametrize("text", BOMBS.values(), ids=list(BOMBS))
def test_alias_bombs_are_refused_by_the_budget_with_a_place(text: str) -> None:
    e = error_of(text)
    assert "billion laughs" in e.message, e.message
    assert e.line is not None and e.column is not None
    assert text.splitlines()[e.line - 1][e.column - 1] == "*"


def test_an_alias_nesting_past_the_bound_costs_nothing_unless_replayed() -> None:
    # 850 levels of text around an alias to 200 more: past the 1000-level
    # bound only if the reader replayed it; skipped, or refused by shape
    # first (as nodes), it never is.
    deep = "x: &a " + "[" * 200 + "]" * 200 + "\n{key}:\n" + "- " * 850 + "*a\n"
    assert toolwire.check_yaml(deep.format(key="skipped") + "nodes: []\n").ok
    e = error_of(deep.format(key="nodes") + "edges: []\n")
    assert (e.message, e.line, e.column) == ("node 0: must be an object, got an array", 3, 3)


def test_a_small_alias_tree_reads_as_its_expansion() -> None:
    # Under the budget, a tool list shared by alias gives the same verdict as
    # PyYAML's expanded tree.
    text = (
        "tools: &tools\n"
        "  - {id: t1, data: {label: Search}}\n"
        "  - {id: t2, data: {label: search}}\n"
        "nodes: [{id: ag}, {id: ag2}]\n"
        "more: *tools\n"
        "edges:\n"
        "  - &e1 {source: t1, target: ag, targetHandle: ag-input-tool}\n"
        "  - {source: t2, target: ag, targetHandle: ag-input-tool}\n"
        "  - *e1\n"
    )
    assert without_places(toolwire.check_yaml(text)) == without_places(toolwire.check(yaml.safe_load(text)))
    assert toolwire.check_yaml(text).ok  # the tools reach no consumer
    with_tools = text.replace("nodes: [{id: ag}, {id: ag2}]\n", "nodes: [*t1, *t2, {id: ag}]\n").replace(
        "  - {id: t1,", "  - &t1 {id: t1,"
    ).replace("  - {id: t2,", "  - &t2 {id: t2,")
    assert without_places(toolwire.check_yaml(with_tools)) == without_places(toolwire.check(yaml.safe_load(with_tools)))
    assert verdict(with_tools) == REFUSED


@pytest.mark.parametrize(
    "text, message",
    [
        ("- " * 1001 + "x\n", "the YAML document nests deeper than 1000 levels"),
        ("nodes: " + "[" * 300 + "]" * 300 + "\n", "invalid YAML: "),
        ("nodes: " + "{a: " * 300 + "b" + "}" * 300 + "\n", "invalid YAML: "),
        (CLASH.replace("  - {id: ag}", "\t- {id: ag}"), "invalid YAML: "),
        (CLASH.replace("label: Search", "label:\tSearch"), "invalid YAML: "),
        (CLASH.replace("{id: t1,", "{id:\tt1,"), "invalid YAML: "),
        (CLASH + "---\n" + CLASH, "a second YAML document starts at line 8"),
        (CLASH + "...\n" + CLASH, "a second YAML document starts at line 9"),
        ("--- {}\n--- {}\n", "a second YAML document starts at line 2"),
        (CLASH + "...\n%YAML 1.2\n---\n{}\n", "a second YAML document starts at line 10"),
        ("%YAML 1.2\n%YAML 1.2\n---\n" + CLASH, "invalid YAML: "),
        ("%YAML 1.2\n" + CLASH, "invalid YAML: "),
        (CLASH.replace("  - {id: ag}\n", "  - {id: ag}\n\ufeff"), "invalid YAML: "),
        ("? [nodes]\n: []\n", "a mapping or sequence used as a key"),
        ("? {a: 1}\n: x\n" + CLASH, "a mapping or sequence used as a key"),
        ("[a]: b\n" + CLASH, "a mapping or sequence used as a key"),
        ("x: !!binary aGVsbG8=\n" + CLASH, "the YAML tag "),
        ("x: !!python/object/apply:os.system ['echo']\n" + CLASH, "the YAML tag "),
        ("x: !!set {a, b}\n" + CLASH, "the YAML tag "),
        ("x: !!omap [a: 1]\n" + CLASH, "the YAML tag "),
        (CLASH.replace("label: Search", "label: !!int 12"), "the YAML tag "),
        (CLASH.replace("label: Search", "label: !custom Search"), "the YAML tag "),
        ("nodes: *nope\n", "invalid YAML: "),
        ("a: &a [*a]\n" + CLASH, "an alias inside the value its anchor names"),
        ("a: &a {k: *a}\n" + CLASH, "an alias inside the value its anchor names"),
        ("nodes: [{id: a}]\n" + "k" * 2000 + " : 1\n", "invalid YAML: "),
        ('nodes: []\nx: "' + "a" * 100_000, "invalid YAML: "),
        ("nodes: []\nx: [" + "a, " * 10_000, "invalid YAML: "),
    ],
    ids=lambda v: v if len(v) < 40 and not v.startswith(("nodes", "- ", "x:", "a:", "?", "%", "[", "-")) else None,
)
def test_hostile_texts_are_input_errors_with_a_line_and_column(text: str, message: str) -> None:
    e = error_of(text)
    assert e.message.startswith(message), e.message
    assert e.line is not None and e.column is not None
    assert 1 <= e.line <= text.count("\n") + 1


@pytest.mark.parametrize(
    "text, line, column",
    [
        # `y`, `'y'` and `"y"` are one key; so are `nodes` and an escaped one.
        ("y: 1\n'y': 2\n" + CLASH, 2, 1),
        ("y: 1\n\"y\": 2\n" + CLASH, 2, 1),
        ('"nodes": []\n"nod\\x65s": []\n', 2, 1),
        ("nodes: []\n? nodes\n: []\n", 2, 3),
        ("nodes: []\n!!str nodes : []\n", 2, 1),
        ("~: a\nnull: b\nnodes: []\n", 2, 1),
        ("true: a\nTrue: b\nnodes: []\n", 2, 1),
        # Inside a node, an edge, their data, and through an alias to the key.
        (CLASH.replace("{id: t1,", "{id: t1, 'id': t3,"), 2, 14),
        (CLASH.replace("{source: t1,", "{source: t1, \"source\": t2,"), 6, 18),
        (CLASH.replace("{label: Search}", "{label: Search, label: x}"), 2, 36),
        ("k: &k id\n" + CLASH.replace("{id: t1,", "{id: t1, *k : t3,"), 3, 14),
    ],
)
def test_a_repeated_key_is_an_input_error_at_the_second_key(text: str, line: int, column: int) -> None:
    e = error_of(text)
    assert e.message == "a key repeated in one mapping (YAML requires unique keys)"
    assert (e.line, e.column) == (line, column)


def test_keys_that_differ_in_yaml_1_2_are_not_repeats() -> None:
    # `1` and `'1'` are an int and a string; `yes` and `true` a string and a bool.
    assert verdict("1: a\n'1': b\nyes: c\ntrue: d\n" + CLASH) == REFUSED


@pytest.mark.parametrize(
    "label",
    [
        "|-\n        Search\n",
        ">-\n        Search\n",
        "|+\n        Search\n\n",
        "|2-\n          Search\n",
        "\"S\\x65arch\"\n",
        "\"Se\\\n        arch\"\n",
        "'Search'\n",
        "!!str Search\n",
        "&lab Search\n",
        "Search # a comment\n",
        "\n        Search\n",
    ],
)
def test_labels_in_every_scalar_style_clash_as_their_values_do(label: str) -> None:
    text = CLASH.replace("  - {id: t1, data: {label: Search}}\n", "  - id: t1\n    data:\n      label: " + label)
    assert verdict(text) == REFUSED
    assert without_places(toolwire.check_yaml(text)) == without_places(toolwire.check(yaml.safe_load(text)))


def test_a_multi_line_plain_label_folds_into_one_name() -> None:
    text = CLASH.replace("{label: Search}", "{label: Web\n      Search}").replace("label: search", "label: web search")
    assert verdict(text) == [("CMP-9", "ag", "web_search")]


@pytest.mark.parametrize("style", ["block", "flow", "mixed"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_every_truncation_is_a_report_or_an_input_error_with_its_place(style: str, newline: str) -> None:
    workflow = yaml.safe_load(CLASH)
    flow = {"block": False, "flow": True, "mixed": None}[style]
    text = yaml.safe_dump(workflow, default_flow_style=flow, line_break=newline, explicit_start=True, explicit_end=True)
    text = text.replace("t1", "工具😀")
    data = text.encode("utf-8")
    seen = set()
    for end in range(len(data) + 1):
        try:
            toolwire.check_yaml(data[:end])
            seen.add("report")
        except toolwire.WorkflowError as e:
            assert e.message and e.line is not None and e.column is not None, (end, e.message)
            seen.add("error")
    assert seen == {"report", "error"}
    assert not toolwire.check_yaml(data).ok


@pytest.mark.parametrize("cut", [1, 2])
def test_invalid_utf8_is_located_at_the_bad_byte(cut: int) -> None:
    good = "nodes:\n  - {id: 日本, data: {label: é}}\n".encode("utf-8")
    at = good.index("本".encode("utf-8"))
    bad = good[:at] + "本".encode("utf-8")[:cut] + b"x" + good[at + 3 :]
    e = error_of(bad)
    assert e.message == "invalid YAML: the document is not valid UTF-8"
    assert (e.line, e.column) == (2, 11)


def test_crlf_and_non_ascii_text_do_not_move_findings() -> None:
    text = "# Café ☕ 😀\n" + CLASH.replace("t1", "工具").replace("ag", "エージェント")
    lf = toolwire.check_yaml(text).violations[0]
    crlf = toolwire.check_yaml(text.replace("\n", "\r\n")).violations[0]
    lines = text.splitlines()
    for v in (lf, crlf):
        assert (v.location.line, v.location.column) == (5, 5)
        spots = [lines[t.location.line - 1][t.location.column - 1 :] for t in v.tools]
        assert spots == [lines[3][4:], lines[2][4:]] or sorted(spots) == sorted([lines[2][4:], lines[3][4:]])
    assert [(t.location.line, t.location.column) for t in lf.tools] == [
        (t.location.line, t.location.column) for t in crlf.tools
    ]


def test_yaml_and_json_place_the_same_error_in_the_same_column() -> None:
    # JSON is YAML: the same text gives the same message, line and column.
    text = '{"a": "é😀日", "nodes": [{"id": "é😀", "x": 1}, {"id": 7}]}'
    with pytest.raises(toolwire.WorkflowError) as as_json:
        toolwire.check_json(text)
    e = error_of(text)
    assert (e.message, e.line, e.column) == (as_json.value.message, as_json.value.line, as_json.value.column)


def test_huge_scalars_and_long_lines_read() -> None:
    huge = "é" * (2 << 20)
    text = f"description: {huge}\n" + CLASH.replace("{label: Search}", f"{{label: 'Search', note: \"{huge}\"}}")
    assert verdict(text) == REFUSED
    one_line = "{nodes: [" + ", ".join(f"{{id: n{i}, data: {{label: L}}}}" for i in range(20_000)) + ", {id: ag}], "
    one_line += "edges: [" + ", ".join(f"{{source: n{i}, target: ag, targetHandle: ag-input-tool}}" for i in range(2)) + "]}"
    assert verdict(one_line) == [("CMP-9", "ag", "l")]


def test_a_byte_order_mark_and_document_markers_keep_the_verdict() -> None:
    for text in ("\ufeff" + CLASH, "---\n" + CLASH + "...\n", "--- !!map\n" + CLASH, "--- &root\n" + CLASH,
                 "%YAML 1.2\n---\n" + CLASH, CLASH + "...\n# done\n", CLASH.replace("\n", "\r\n")):
        assert verdict(text) == REFUSED, text


# --- defects found by the attack, fixed (regressions) ------------------------


# Regression: a merge key `<<` was read as a plain key and never merged, so
# a clash passed silently; it is now an input error at the key (YAML 1.1).
@pytest.mark.parametrize(
    "text",
    [
        "nodes:\n  - &t {id: t1, data: {label: Search}}\n  - <<: *t\n    id: t2\n  - {id: ag}\n" + CLASH[CLASH.index("edges:") :],
        "d: &d {label: Search}\n" + CLASH.replace("{id: t1, data: {label: Search}}", "{id: t1, data: {<<: [*d]}}"),
        "base: &b\n" + textwrap.indent(CLASH, "  ") + "<<: *b\n",
    ],
    ids=["node", "data-list", "top-level"],
)
def test_merge_keys_do_not_hide_a_clash(text: str) -> None:
    assert toolwire.check(yaml.safe_load(text)).violations[0].name == "search"
    e = error_of(text)
    assert e.message.startswith("a merge key `<<` is YAML 1.1"), e.message
    assert e.line is not None and e.column is not None
    assert text.splitlines()[e.line - 1][e.column - 1 :].startswith("<<:")


def test_a_quoted_merge_key_is_an_ordinary_key() -> None:
    # Only the plain `<<` means a merge (in YAML 1.1); a quoted one is a string.
    assert verdict("'<<': {a: 1}\n" + CLASH) == REFUSED


# Regression: `%YAML 1.1` was read as 1.2 without a word; now refused.
def test_a_yaml_1_1_directive_does_not_silently_change_the_verdict() -> None:
    text = "%YAML 1.1\n---\n" + CLASH.replace("label: Search", "label: 0o17").replace("label: search", "label: '0o17'")
    assert not toolwire.check(yaml.safe_load(text)).ok
    e = error_of(text)
    assert "%YAML 1.1" in e.message and "reads YAML 1.2" in e.message
    assert (e.line, e.column) == (1, 1)


# Regression: `%YAML 2.0` was accepted (YAML 1.2, 6.8.1, rejects it).
def test_a_yaml_2_directive_is_refused() -> None:
    e = error_of("%YAML 2.0\n---\n" + CLASH)
    assert e.line == 1


# Regression: number keys were compared by their spelling.
@pytest.mark.parametrize("first, second", [("1", "0x1"), ("1", "+1"), ("1", "01"), ("8", "0o10"), (".inf", ".Inf")])
def test_numeric_keys_equal_by_value_are_repeats(first: str, second: str) -> None:
    e = error_of(f"{first}: a\n{second}: b\n" + CLASH)
    assert e.message == "a key repeated in one mapping (YAML requires unique keys)"
    assert (e.line, e.column) == (2, 1)


# Regression: saphyr-parser reads `|`/`>` in flow content as a plain scalar,
# which YAML forbids; it was accepted.
@pytest.mark.parametrize("indicator", ["|", ">", "|-"])
def test_a_block_scalar_inside_a_flow_collection_is_invalid_yaml(indicator: str) -> None:
    text = CLASH.replace("{label: Search}", "{label: " + indicator + "\n      Search\n    }")
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load(text)
    e = error_of(text)
    assert e.message.startswith("invalid YAML: ") and e.line == 2


# Regression: locate.rs counted only LF, so CR-only files put everything on line 1.
def test_cr_line_breaks_give_the_lines_an_editor_shows() -> None:
    report = toolwire.check_yaml(CLASH.replace("\n", "\r"))
    (violation,) = report.violations
    assert (violation.location.line, violation.location.column) == (4, 5)
    assert sorted((t.location.line, t.location.column) for t in violation.tools) == [(2, 5), (3, 5)]


# Regression: line 1's columns counted the (invisible) byte order mark.
def test_a_byte_order_mark_does_not_shift_line_1_columns() -> None:
    e = error_of("\ufeffnodes: 3\n")
    assert (e.line, e.column) == (1, 8)


# Regression: tags were named in the parser's resolved form
# (`tag:yaml.org,2002:!binary`, `!` as `!!`).
@pytest.mark.parametrize("tag", ["!!binary", "!!python/object:os.system", "!"])
def test_an_unsupported_tag_is_named_as_written(tag: str) -> None:
    e = error_of(f"x: {tag} aGVsbG8=\n" + CLASH)
    assert f"the YAML tag {tag} is not supported" in e.message
    assert (e.line, e.column) == (1, 4)


RSS_PROBE = """
import sys, toolwire

def peak_kib():
    # VmHWM, not ru_maxrss: Linux keeps ru_maxrss across exec, so a child of
    # a large pytest process would start with the parent's peak.
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

n, m = int(sys.argv[1]), int(sys.argv[2])
text = "big: &b " + "x" * m + "\\nnodes:\\n" + "".join(f"  - {{id: n{i}, data: {{label: *b}}}}\\n" for i in range(n))
before = peak_kib()
try:
    toolwire.check_yaml(text)
except toolwire.WorkflowError:
    pass
print(len(text), peak_kib() - before)
"""


# Regression: the alias budget counted events only, so n aliases to one
# m-byte scalar cost n*m (a 540 KB file took 1.5 GB and 11 s).
def test_aliases_to_a_large_scalar_cost_memory_linear_in_the_bytes() -> None:
    if not os.path.exists("/proc/self/status"):
        pytest.skip("peak memory is read from /proc/self/status (Linux)")
    run = subprocess.run([sys.executable, "-c", RSS_PROBE, "400", "1000000"], capture_output=True, text=True, check=True)
    text_bytes, growth_kib = map(int, run.stdout.split())
    # 400 aliases to a 1 MB scalar in a 1 MB text: a copy per alias is
    # ~400 MB; a cost that follows the bytes stays within 50x the text.
    assert growth_kib * 1024 <= 50 * text_bytes, (text_bytes, growth_kib)


@pytest.mark.parametrize("where", ["plain", "quoted", "comment", "block"])
def test_a_nul_byte_anywhere_is_invalid_yaml_never_an_end_of_text(where: str) -> None:
    # Were NUL read as the end of the text, the edges after it would be lost
    # and the clash would pass.
    i = CLASH.index("edges:")
    text = {
        "plain": CLASH.replace("label: Search", "label: Sea\x00rch"),
        "quoted": CLASH.replace("label: Search", 'label: "Sea\x00rch"'),
        "comment": CLASH[:i] + "# note \x00 hidden\n" + CLASH[i:],
        "block": "x: |\n  a\x00b\n" + CLASH,
    }[where]
    e = error_of(text)
    assert e.message.startswith("invalid YAML: ") and e.line is not None


# Regression: characters outside YAML's printable set were accepted.
@pytest.mark.parametrize("char", ["\x01", "\x1b", "\x0b", "\x7f", "\x80", "\ufffe"], ids=["soh", "esc", "vt", "del", "c1", "fffe"])
@pytest.mark.parametrize("quoted", [False, True], ids=["plain", "quoted"])
def test_unprintable_characters_are_invalid_yaml(char: str, quoted: bool) -> None:
    label = f"'Sea{char}rch'" if quoted else f"Sea{char}rch"
    text = CLASH.replace("label: Search", "label: " + label)
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load(text)
    e = error_of(text)
    # At the character itself: `Sea` starts at column 28 (29 when quoted).
    assert e.message.startswith("invalid YAML: ") and (e.line, e.column) == (2, 31 + quoted)


def test_explain_of_json_text_works() -> None:
    # Regression: the binding once took one argument fewer than
    # _api.views_of_json passes (input_format), a TypeError for every input.
    text = (
        '{"nodes": [{"id": "t", "data": {"label": "Search"}}, {"id": "ag"}],'
        ' "edges": [{"source": "t", "target": "ag", "targetHandle": "ag-input-tool"}]}'
    )
    views = toolwire.explain_json(text)
    assert [(v.consumer, [t.id for t in v.tools]) for v in views] == [("ag", ["t"])]
