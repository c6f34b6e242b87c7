"""Suggested fixes: the ``Rename``s of every CMP-9 violation, the
``suggestion`` of every EDGE-5 violation, and the NAME-LOSSY / NAME-UNNAMED
warnings.

The contract of a CMP-9 fix (README "Fixes", src/fixes.rs):

- applying every rename of every CMP-9 violation (``data.label = new_label``
  on the node; a node only named by a tool edge is declared with that label)
  leaves no CMP-9 violation at all;
- ``new_name == normalize_name(new_label)``, at most 64 characters, never
  the name of any other tool in the workflow, never the name of another
  rename;
- a tool renamed for several violations gets the same ``Rename`` in each;
- every violation renames at least all but one of its tools, and only its
  tools;
- the same report whichever entry point reads the workflow and in whatever
  order its nodes, edges and keys are written;
- new labels are the user's own words: ``"{label} ({qualifier})"`` with the
  label shortened from its end if need be, the qualifier being the label of
  the toolbox the tool comes through (when the kept tool does not come
  through it), else the node id, else ``"{id} N"``.

Random workflows come from ``test_differential``'s strategies, which aim at
collisions through chains, cycles and diamonds of boxes in all three
dialects.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import toolwire
from test_differential import Options, options, workflows
from toolwire import Rename, Report, Violation, reference

Json = Dict[str, Any]

TOOL_EDGE = "tool_availability"
MAX_NAME_LEN = 64


# --- builders -----------------------------------------------------------------


def tool(node_id: str, label: Optional[str] = None, node_type: str = "http_request") -> Json:
    node: Json = {"id": node_id, "type": node_type, "data": {}}
    if label is not None:
        node["data"]["label"] = label
    return node


def box(node_id: str, label: Optional[str] = None) -> Json:
    return tool(node_id, label, "toolbox")


def agent(node_id: str, label: str = "Agent") -> Json:
    return tool(node_id, label, "ai_agent")


def wire(source: str, target: str) -> Json:
    return {"source": source, "target": target, "data": {"edgeType": TOOL_EDGE}}


def chain(*ids: str) -> List[Json]:
    return [wire(a, b) for a, b in zip(ids, ids[1:])]


def workflow(nodes: Iterable[Json] = (), edges: Iterable[Json] = ()) -> Json:
    return {"nodes": list(nodes), "edges": list(edges)}


# --- reading reports and applying fixes -----------------------------------------


def cmp9(report: Report) -> List[Violation]:
    return [v for v in report.violations if v.rule == "CMP-9"]


def fixes(report: Report) -> List[Tuple[Optional[str], Optional[str], List[Rename]]]:
    """What a fix is compared by: each CMP-9 violation's renames, in order."""
    return [(v.consumer, v.name, list(v.fix)) for v in cmp9(report)]


def renames_by_node(report: Report) -> Dict[str, Rename]:
    """Every rename of the report by node; fails if a node gets two."""
    found: Dict[str, Rename] = {}
    for v in cmp9(report):
        for r in v.fix:
            assert found.setdefault(r.node, r) == r, f"{r.node} renamed two ways: {found[r.node]} and {r}"
    return found


def _node_list(document: Json) -> List[Any]:
    """``nodes`` as a list to append to (EDGE-2: absent, null and {} are empty)."""
    nodes = document.get("nodes")
    if not isinstance(nodes, list):
        nodes = document["nodes"] = []
    return nodes


def apply_renames(document: Json, renames: Iterable[Rename]) -> None:
    """Sets ``data.label`` of each renamed node, declaring a node that is
    only named by a tool edge; nothing else of the node changes."""
    nodes = _node_list(document)
    by_id = {n["id"]: n for n in nodes if isinstance(n, dict) and isinstance(n.get("id"), str)}
    for r in renames:
        node = by_id.get(r.node)
        if node is None:
            node = by_id[r.node] = {"id": r.node, "data": {"label": r.new_label}}
            nodes.append(node)
            continue
        data = node.get("data")
        if not isinstance(data, dict):
            # Not an object: nothing was read from it (no label, no metadata).
            data = node["data"] = {}
        data["label"] = r.new_label


def apply_suggestions(document: Json, violations: Iterable[Violation]) -> None:
    """Sets ``data.edgeType`` of each EDGE-5 edge to its suggestion."""
    for v in violations:
        if v.rule == "EDGE-5" and v.suggestion is not None:
            assert v.edge is not None
            edge = document["edges"][v.edge]
            edge["data"]["edgeType"] = v.suggestion


def fixed(document: Json, report: Report) -> Json:
    """A copy of ``document`` with every CMP-9 rename applied."""
    result = copy.deepcopy(document)
    apply_renames(result, renames_by_node(report).values())
    return result


def recognised(chosen: Options) -> Set[str]:
    return set(chosen.get("edge_types", reference.DEFAULT_EDGE_TYPES)) | {TOOL_EDGE}


def tool_labels(document: Json, chosen: Options) -> Dict[str, str]:
    """Every tool of the workflow (a non-passthrough source of a tool edge)
    with its label, as SEMANTICS 2-4 define them (the reference's reading)."""
    passthrough = set(chosen.get("passthrough_types", reference.DEFAULT_PASSTHROUGH_TYPES))
    graph = reference._build_graph(reference._read(document, passthrough, recognised(chosen)))
    return {node: graph.labels[node] for node in graph.receivers if node not in graph.passthroughs}


def qualifier_sources(report: Report, node: str) -> Set[str]:
    """What a new label of ``node`` may be qualified by: its id, or the
    label of the toolbox it comes through in some violation."""
    sources = {node}
    for v in cmp9(report):
        for t in v.tools:
            if t.id == node and len(t.path) > 2:
                box_id = t.path[1]
                sources.add(v.box_labels.get(box_id, box_id))
    return sources


def _is_qualifier(text: str, sources: Set[str], node: str) -> bool:
    """A (possibly shortened) qualifier: a prefix of a source, or a prefix
    of the id followed by `` N``."""
    if text and any(s.startswith(text) for s in sources):
        return True
    head, _, number = text.rpartition(" ")
    return number.isdigit() and int(number) >= 2 and node.startswith(head)


def built_from_user_words(r: Rename, sources: Set[str]) -> bool:
    """``new_label`` is ``"{label prefix} ({qualifier})"``, or only the
    qualifier when the label had to give way entirely (src/fixes.rs ``fit``)."""
    if _is_qualifier(r.new_label, sources, r.node):
        return True
    if not r.new_label.endswith(")"):
        return False
    at = r.new_label.find(" (")
    while at >= 0:
        prefix, qualifier = r.new_label[:at], r.new_label[at + 2 : -1]
        if r.label.startswith(prefix) and _is_qualifier(qualifier, sources, r.node):
            return True
        at = r.new_label.find(" (", at + 1)
    return False


def assert_fix_contract(document: Json, chosen: Options, report: Report) -> None:
    """Everything a report's fixes promise that can be read off the report
    and the workflow, without applying them."""
    renamed = renames_by_node(report)  # one Rename per node, wherever it occurs
    labels = tool_labels(document, chosen)
    names = {node: toolwire.normalize_name(label) for node, label in labels.items()}
    for v in cmp9(report):
        tools = {t.id: t for t in v.tools}
        assert len(v.fix) >= len(v.tools) - 1, v
        assert len({r.node for r in v.fix}) == len(v.fix), v.fix
        for r in v.fix:
            assert r.node in tools, f"{r.node} is not one of the clashing tools {sorted(tools)}"
            assert r.label == tools[r.node].label == labels[r.node]
            assert r.new_name == toolwire.normalize_name(r.new_label)
            assert len(r.new_name) <= MAX_NAME_LEN, r
            assert built_from_user_words(r, qualifier_sources(report, r.node)), r
    new_names = [r.new_name for r in renamed.values()]
    assert len(set(new_names)) == len(new_names), f"two renames share a name: {sorted(new_names)}"
    for r in renamed.values():
        clashing = sorted(node for node, name in names.items() if name == r.new_name)
        assert clashing == [], f"{r.node} renamed to {r.new_name!r}, the name of {clashing}"


# --- properties on random workflows -----------------------------------------------

# Each property runs in under ten seconds on a slow two-core machine.
RANDOM = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@RANDOM
@given(document=workflows(), chosen=options())
def test_cmp9_fixes_applied_leave_no_cmp9_violation_and_change_nothing_else(document: Json, chosen: Options) -> None:
    report = toolwire.check(document, **chosen)
    after = fixed(document, report)
    note(f"fixed: {json.dumps(after, ensure_ascii=False)}")
    again = toolwire.check(after, **chosen)
    assert cmp9(again) == []
    # Renaming touches labels only: the same EDGE-5 violations, the same wiring.
    assert [v for v in again.violations if v.rule == "EDGE-5"] == [
        v for v in report.violations if v.rule == "EDGE-5"
    ]
    assert again.stats is not None and report.stats is not None
    assert (again.stats.tool_edges, again.stats.consumers) == (report.stats.tool_edges, report.stats.consumers)


def _makes_no_tool_edge(suggestion: Optional[str]) -> bool:
    return suggestion is not None and suggestion != TOOL_EDGE


@RANDOM
@given(document=workflows(), chosen=options())
def test_cmp9_fixes_and_edge5_suggestions_applied_together_leave_only_the_edge5_violations_with_no_fix(
    document: Json, chosen: Options
) -> None:
    """Every suggestion but ``tool_availability``, which makes the edge tool
    wiring and so changes what the renames were computed for (see the test
    of the next run below), is applied with every rename; what is left is
    exactly the EDGE-5 violations not fixed."""
    report = toolwire.check(document, **chosen)
    after = fixed(document, report)
    applied = [v for v in report.violations if v.rule == "EDGE-5" and _makes_no_tool_edge(v.suggestion)]
    apply_suggestions(after, applied)
    again = toolwire.check(after, **chosen)
    left = [v for v in report.violations if v.rule == "EDGE-5" and not _makes_no_tool_edge(v.suggestion)]
    assert [(v.rule, v.edge) for v in again.violations] == [(v.rule, v.edge) for v in left]


@RANDOM
@given(document=workflows(), chosen=options())
def test_cmp9_fix_names_are_unique_short_normalised_and_built_from_the_users_words(
    document: Json, chosen: Options
) -> None:
    assert_fix_contract(document, chosen, toolwire.check(document, **chosen))


# Workflows where the labels a fix would build are often taken already:
# tools labelled like the qualified and numbered forms of other tools'
# labels, long labels and box labels that must be shortened, ids and box
# labels that lose characters; a few tools are never declared.
LONG = "Search the whole web for pages about anything, then summarise them all"
BASES = ("Search", "search", "SEARCH!", LONG, LONG.lower(), "日本", "")
SUFFIXES = ("", "", "", " (t2)", " (t3)", " t2 2", " (t3 2)", " (Kit)", " kit", " (Kit B)", " (b2)", " t4 3")
TOOL_IDS = ("t1", "t2", "t3", "t4", "é", "i" * 70)
BOX_LABELS = ("Kit", "Kit B", "kit", "Kit " + LONG, "💡", None)
AGENT_IDS = ("a1", "a2")


@st.composite
def crowded_workflows(draw: st.DrawFn) -> Json:
    tools = draw(st.lists(st.sampled_from(TOOL_IDS), min_size=2, max_size=6, unique=True))
    boxes = [f"b{i}" for i in range(draw(st.integers(0, 3)))]
    nodes: List[Json] = []
    for node_id in tools:
        label = draw(st.sampled_from(BASES)) + draw(st.sampled_from(SUFFIXES))
        # A few tools are never declared: named by their edge, labelled by their id.
        if draw(st.integers(0, 5)) > 0:
            nodes.append(tool(node_id, label))
    nodes += [box(b, draw(st.sampled_from(BOX_LABELS))) for b in boxes]
    nodes += [agent(a) for a in AGENT_IDS]
    edges = []
    for node_id in tools:
        for target in draw(st.lists(st.sampled_from(boxes + list(AGENT_IDS)), min_size=1, max_size=3)):
            edges.append(wire(node_id, target))
    for b in boxes:
        for target in draw(st.lists(st.sampled_from(boxes + list(AGENT_IDS)), max_size=3)):
            edges.append(wire(b, target))
    return workflow(draw(st.permutations(nodes)), edges)


@settings(max_examples=1000, deadline=None)
@given(document=crowded_workflows())
def test_cmp9_fixes_hold_when_the_obvious_new_names_are_already_taken(document: Json) -> None:
    report = toolwire.check(document)
    assert_fix_contract(document, {}, report)
    assert fixes(toolwire.check_json(json.dumps(document))) == fixes(report)
    assert cmp9(toolwire.check(fixed(document, report))) == []


def _shuffled(document: Json, seed: int) -> Json:
    """The same workflow with its nodes, edges and top-level keys reordered."""
    rng = random.Random(seed)
    result: Json = {}
    keys = list(document)
    rng.shuffle(keys)
    for key in keys:
        value = copy.deepcopy(document[key])
        if isinstance(value, list):
            rng.shuffle(value)
        result[key] = value
    return result


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=workflows(), chosen=options(), seed=st.integers(0, 2**32 - 1))
def test_cmp9_fixes_are_deterministic_across_entry_points_and_orderings(
    document: Json, chosen: Options, seed: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    expected = fixes(toolwire.check(document, **chosen))
    text = json.dumps(document, ensure_ascii=False)
    path = tmp_path_factory.getbasetemp() / "fixes-determinism.json"
    path.write_text(text, encoding="utf-8")
    assert fixes(toolwire.check_json(text, **chosen)) == expected
    assert fixes(toolwire.check_json(text.encode(), **chosen)) == expected
    assert fixes(toolwire.check_file(path, **chosen)) == expected
    shuffled = _shuffled(document, seed)
    assert fixes(toolwire.check(shuffled, **chosen)) == expected
    assert fixes(toolwire.check_json(json.dumps(shuffled), **chosen)) == expected


# --- the form of a fix, by example -------------------------------------------------

DATA = Path(__file__).parent / "data"


def load(name: str) -> Json:
    loaded: Json = json.loads((DATA / name).read_text("utf-8"))
    return loaded


def test_cmp9_spec_example_renames_the_second_tool_by_its_id() -> None:
    [violation] = toolwire.check(load("spec-cmp9-refused.json")).violations
    # Both tools come through box_1, so the box cannot tell them apart.
    assert violation.fix == [Rename("tool_b", "web-search", "web-search (tool_b)", "web_search_tool_b")]
    assert violation.help == 'rename "tool_b" to "web-search (tool_b)"'


def test_cmp9_and_edge5_fixes_of_the_multi_violation_example_applied_make_it_accepted() -> None:
    document = load("multi-violation.json")
    report = toolwire.check(document)
    # google_search comes through "Search Tools", which bing_search does not;
    # page_fetcher through "Docs", which fetch_page does not.
    assert fixes(report) == [
        ("research_agent", "web_search", [Rename("google_search", "Web Search", "Web Search (Search Tools)", "web_search_search_tools")]),
        ("writer_agent", "fetch_page", [Rename("page_fetcher", "Fetch Page", "Fetch Page (Docs)", "fetch_page_docs")]),
    ]  # fmt: skip
    [edge5] = [v for v in report.violations if v.rule == "EDGE-5"]
    assert (edge5.edge_id, edge5.suggestion) == ("e13", TOOL_EDGE)
    after = fixed(document, report)
    apply_suggestions(after, report.violations)
    assert toolwire.check(after).ok


def test_cmp9_fix_qualifies_by_the_toolbox_the_kept_tool_does_not_come_through() -> None:
    document = workflow(
        [tool("t1", "Search"), tool("t2", "search"), box("kit_a", "Kit A"), box("kit_b", "Kit B"), agent("ag")],
        chain("t1", "kit_a", "ag") + chain("t2", "kit_b", "ag"),
    )
    [violation] = toolwire.check(document).violations
    assert violation.fix == [Rename("t2", "search", "search (Kit B)", "search_kit_b")]
    assert violation.box_labels == {"kit_a": "Kit A", "kit_b": "Kit B"}


def test_cmp9_fix_qualifies_by_the_id_when_the_toolbox_is_unlabelled() -> None:
    document = workflow(
        [tool("t1", "Search"), tool("t2", "search"), box("kit_a"), box("kit_b"), agent("ag")],
        chain("t1", "kit_a", "ag") + chain("t2", "kit_b", "ag"),
    )
    [violation] = toolwire.check(document).violations
    assert violation.fix == [Rename("t2", "search", "search (t2)", "search_t2")]


def test_cmp9_fix_qualifies_by_the_id_when_the_toolbox_label_is_taken() -> None:
    document = workflow(
        [tool("t1", "Search"), tool("t2", "search"), tool("t3", "Search: Kit B"), box("kit_b", "Kit B")]
        + [agent("ag"), agent("other")],
        [wire("t1", "ag")] + chain("t2", "kit_b", "ag") + [wire("t3", "other")],
    )
    [violation] = toolwire.check(document).violations
    assert violation.fix == [Rename("t2", "search", "search (t2)", "search_t2")]


def test_cmp9_fix_numbers_the_id_when_both_qualifiers_are_taken_anywhere_in_the_workflow() -> None:
    # search_t2 and search_t2_2 belong to tools that reach another agent:
    # unique in ag's view is not enough, the new name must be unique everywhere.
    document = workflow(
        [tool("t1", "Search"), tool("t2", "search"), tool("x", "Search T2"), tool("y", "search (t2 2)")]
        + [agent("ag"), agent("other")],
        [wire("t1", "ag"), wire("t2", "ag"), wire("x", "other"), wire("y", "other")],
    )
    [violation] = toolwire.check(document).violations
    assert violation.fix == [Rename("t2", "search", "search (t2 3)", "search_t2_3")]


def test_cmp9_fix_renames_all_but_the_first_of_three_tools_and_never_gives_two_the_same_name() -> None:
    # "SEARCH (X)" and "search (x)" are both named search_x: the second
    # rename may not have it too, so it is numbered.
    document = workflow(
        [tool("A", "Search"), tool("X", "SEARCH"), tool("x", "search"), agent("ag")],
        [wire("A", "ag"), wire("X", "ag"), wire("x", "ag")],
    )
    [violation] = toolwire.check(document).violations
    assert violation.fix == [
        Rename("X", "SEARCH", "SEARCH (X)", "search_x"),
        Rename("x", "search", "search (x 2)", "search_x_2"),
    ]


def test_cmp9_tool_renamed_for_two_consumers_gets_the_same_rename_in_both() -> None:
    document = workflow(
        [tool("t1", "Search"), tool("t2", "search"), box("kit", "Kit"), agent("a1"), agent("a2")],
        chain("t1", "kit") + chain("t2", "kit") + [wire("kit", "a1"), wire("kit", "a2")],
    )
    report = toolwire.check(document)
    assert [v.consumer for v in report.violations] == ["a1", "a2"]
    assert report.violations[0].fix == report.violations[1].fix == [Rename("t2", "search", "search (t2)", "search_t2")]
    assert cmp9(toolwire.check(fixed(document, report))) == []


def test_cmp9_a_tool_has_one_rename_in_every_violation_it_is_in() -> None:
    # At a1 (settled first) t2 keeps its name and t3 is renamed; at a2, t1
    # keeps its name, so t2 is renamed after all. The fix is one map from
    # tool to new label: a1's fix lists t2's rename too (CONFORMANCE 15).
    document = workflow(
        [tool("t1", "Search"), tool("t2", "search"), tool("t3", "SEARCH"), agent("a1"), agent("a2")],
        [wire("t2", "a1"), wire("t3", "a1"), wire("t1", "a2"), wire("t2", "a2"), wire("t3", "a2")],
    )
    report = toolwire.check(document)
    a1, a2 = report.violations
    assert a1.fix == a2.fix == [
        Rename("t2", "search", "search (t2)", "search_t2"),
        Rename("t3", "SEARCH", "SEARCH (t3)", "search_t3"),
    ]
    assert cmp9(toolwire.check(fixed(document, report))) == []


def test_cmp9_collision_of_tools_all_renamed_earlier_lists_every_one_of_them() -> None:
    # a1 renames t2 and a2 renames t3 (t1 keeps "go" at both); at a3 both
    # tools were renamed before, so neither keeps "go" and both are listed.
    document = workflow(
        [tool("t1", "Go"), tool("t2", "go"), tool("t3", "GO"), agent("a1"), agent("a2"), agent("a3")],
        [wire("t1", "a1"), wire("t2", "a1"), wire("t1", "a2"), wire("t3", "a2"), wire("t2", "a3"), wire("t3", "a3")],
    )
    report = toolwire.check(document)
    by_consumer = {v.consumer: [r.node for r in v.fix] for v in cmp9(report)}
    assert by_consumer == {"a1": ["t2"], "a2": ["t3"], "a3": ["t2", "t3"]}
    assert_fix_contract(document, {}, report)
    assert cmp9(toolwire.check(fixed(document, report))) == []


def test_cmp9_fix_of_a_tool_that_is_never_declared_declares_it_with_the_new_label() -> None:
    document = workflow([tool("t1", "helper"), agent("ag")], [wire("t1", "ag"), wire("Helper", "ag")])
    report = toolwire.check(document)
    [violation] = cmp9(report)
    # "Helper" < "t1": the undeclared tool keeps its name, t1 gets renamed.
    assert violation.fix == [Rename("t1", "helper", "helper (t1)", "helper_t1")]
    document = workflow([tool("a", "helper"), agent("ag")], [wire("a", "ag"), wire("helper", "ag")])
    report = toolwire.check(document)
    [violation] = cmp9(report)
    assert violation.fix == [Rename("helper", "helper", "helper (helper)", "helper_helper")]
    after = fixed(document, report)
    assert after["nodes"][-1] == {"id": "helper", "data": {"label": "helper (helper)"}}
    assert toolwire.check(after).ok


def test_cmp9_fix_of_a_long_label_shortens_the_label_and_keeps_the_qualifier() -> None:
    long_label = "Search the whole web for pages about anything at all, then summarise them"
    document = workflow(
        [tool("t1", long_label), tool("t2", long_label.upper()), agent("ag")], [wire("t1", "ag"), wire("t2", "ag")]
    )
    [violation] = toolwire.check(document).violations
    # Cut just enough for the name to fit in 64 characters.
    assert violation.fix == [
        Rename(
            "t2",
            long_label.upper(),
            "SEARCH THE WHOLE WEB FOR PAGES ABOUT ANYTHING AT ALL, THEN SUM (t2)",
            "search_the_whole_web_for_pages_about_anything_at_all_then_sum_t2",
        )
    ]
    assert len(violation.fix[0].new_name) == MAX_NAME_LEN


def test_cmp9_fix_of_a_huge_id_gives_way_to_the_qualifier_alone_shortened_to_64_characters() -> None:
    huge = "i" * 500
    document = workflow([tool("a", "Search"), tool(huge, "search"), agent("ag")], [wire("a", "ag"), wire(huge, "ag")])
    report = toolwire.check(document)
    [violation] = report.violations
    assert violation.fix == [Rename(huge, "search", "i" * MAX_NAME_LEN, "i" * MAX_NAME_LEN)]
    assert toolwire.check(fixed(document, report)).ok


@pytest.mark.parametrize(
    ("label_1", "label_2"),
    [("日本語", "!!!"), ("Café", "caf"), ("💡 idea", "idea"), ("", "t1")],
    ids=["unnamed", "lossy", "astral", "label-is-the-id"],
)
def test_cmp9_fix_of_labels_that_lose_characters_still_gives_unique_names(label_1: str, label_2: str) -> None:
    document = workflow([tool("t1", label_1), tool("t2", label_2), agent("ag")], [wire("t1", "ag"), wire("t2", "ag")])
    report = toolwire.check(document)
    [violation] = cmp9(report)
    assert_fix_contract(document, {}, report)
    assert toolwire.check(fixed(document, report)).ok


@pytest.mark.parametrize("dialect", ["editor", "drupal"])
def test_cmp9_fix_applied_to_editor_and_drupal_nodes_keeps_their_type(dialect: str) -> None:
    def node(node_id: str, type_id: str, label: str) -> Json:
        if dialect == "editor":
            return {"id": node_id, "type": "universalNode", "data": {"label": label, "metadata": {"id": type_id}}}
        return {"id": node_id, "data": {"label": label, "metadata": {"node_type_id": type_id}}}

    box_type = "toolbox" if dialect == "editor" else "flowdrop_node_processor_toolbox"
    document = workflow(
        [node("t1", "http", "Fetch"), node("t2", "http", "fetch"), node("kit", box_type, "Kit"), node("ag", "a", "A")],
        [
            {"source": s, "target": t, "targetHandle": f"{t}-input-tool"}
            for s, t in [("t1", "kit"), ("t2", "kit"), ("kit", "ag")]
        ],
    )
    report = toolwire.check(document)
    [violation] = report.violations
    assert violation.fix == [Rename("t2", "fetch", "fetch (t2)", "fetch_t2")]
    after = fixed(document, report)
    assert after["nodes"][1]["data"] == {**document["nodes"][1]["data"], "label": "fetch (t2)"}
    assert [n for n in after["nodes"] if n["id"] != "t2"] == [n for n in document["nodes"] if n["id"] != "t2"]
    # Every type is still read the same way, so the tools still arrive through the box.
    again = toolwire.check(after)
    assert again.ok
    assert again.stats == report.stats


# --- EDGE-5 suggestions ------------------------------------------------------------


@pytest.mark.parametrize(
    ("declared", "suggestion"),
    [
        ("tool_availabilty", "tool_availability"),
        ("Tool-Availability", "tool_availability"),
        ("tool", "tool_availability"),
        ("triger", "trigger"),
        ("dta", "data"),
        ("conditional", None),
        ("x", None),
    ],
)
def test_edge5_suggestion_is_the_recognised_type_meant_or_none(declared: str, suggestion: Optional[str]) -> None:
    document = workflow([], [{"source": "a", "target": "b", "data": {"edgeType": declared}}])
    [violation] = toolwire.check(document).violations
    assert (violation.rule, violation.suggestion, violation.fix) == ("EDGE-5", suggestion, ())
    assert violation.help == (None if suggestion is None else f'did you mean "{suggestion}"?')


def test_edge5_suggestion_is_only_ever_a_configured_edge_type() -> None:
    document = workflow([], [{"source": "a", "target": "b", "data": {"edgeType": "triger"}}])
    [violation] = toolwire.check(document, edge_types=["data"]).violations
    assert violation.suggestion is None
    [violation] = toolwire.check(document, edge_types=["data", "trigger"]).violations
    assert violation.suggestion == "trigger"
    document = workflow([], [{"source": "a", "target": "b", "data": {"edgeType": "go_to"}}])
    [violation] = toolwire.check(document, edge_types=["goto"]).violations
    assert violation.suggestion == "goto"


def test_edge5_suggestion_applied_with_the_renames_makes_the_workflow_accepted() -> None:
    document = workflow(
        [tool("t1", "Search"), tool("t2", "search"), agent("ag")],
        [wire("t1", "ag"), wire("t2", "ag"), {"source": "t1", "target": "ag", "data": {"edgeType": "triger"}}],
    )
    report = toolwire.check(document)
    after = fixed(document, report)
    apply_suggestions(after, report.violations)
    assert toolwire.check(after).ok


def test_edge5_suggestion_that_makes_a_tool_edge_is_checked_by_the_next_run() -> None:
    """Fixes are for the wiring as it is (CONFORMANCE decision 15). Taking
    an EDGE-5 suggestion of tool_availability wires a new tool, which can
    reveal a clash no report could name before; the next run names it and
    fixes it, and then the workflow is accepted."""
    document = workflow(
        [tool("t1", "Search"), tool("t2", "search")],
        [wire("t1", "ag"), {"source": "t2", "target": "ag", "data": {"edgeType": "tool_availabilty"}}],
    )
    report = toolwire.check(document)
    assert [(v.rule, v.suggestion) for v in report.violations] == [("EDGE-5", TOOL_EDGE)]
    after = fixed(document, report)
    apply_suggestions(after, report.violations)
    second = toolwire.check(after)
    assert [(v.consumer, v.name) for v in cmp9(second)] == [("ag", "search")]
    assert toolwire.check(fixed(after, second)).ok


# --- NAME-LOSSY and NAME-UNNAMED ---------------------------------------------------


def name_warnings(report: Report) -> List[Tuple[str, str]]:
    return [(w.code, w.node) for w in report.warnings if w.code != "R8"]


@pytest.mark.parametrize(
    ("label", "code"),
    [
        ("Café", "NAME-LOSSY"),
        ("Search 🔍", "NAME-LOSSY"),
        ("İstanbul", "NAME-LOSSY"),
        ("zero\u200bwidth", "NAME-LOSSY"),
        ("日本語", "NAME-UNNAMED"),
        ("🔍", "NAME-UNNAMED"),
        ("!!!", "NAME-UNNAMED"),
        ("  ", "NAME-UNNAMED"),
        ("Web Search", None),
        ("WEB_SEARCH!", None),
        ("unnamed tool", None),
        ("del\x7f", None),
    ],
)
def test_name_warning_for_a_tool_whose_label_loses_characters(label: str, code: Optional[str]) -> None:
    report = toolwire.check(workflow([tool("t", label), agent("ag")], [wire("t", "ag")]))
    assert name_warnings(report) == ([] if code is None else [(code, "t")])
    assert report.ok  # a warning never refuses
    for w in report.warnings:
        assert w.edge is None and w.location is None
        assert json.dumps(label, ensure_ascii=False) in w.message


@pytest.mark.parametrize(("label", "code"), [(None, "NAME-UNNAMED"), ("", "NAME-UNNAMED"), ("Search", None)])
def test_name_warning_reads_the_id_when_the_label_is_absent_or_empty(label: Optional[str], code: Optional[str]) -> None:
    report = toolwire.check(workflow([tool("日本", label), agent("ag")], [wire("日本", "ag")]))
    assert name_warnings(report) == ([] if code is None else [(code, "日本")])


def test_name_warnings_only_for_tools_not_for_boxes_consumers_or_unwired_nodes() -> None:
    document = workflow(
        [box("kit", "Café Kit"), agent("ag", "日本語"), tool("idle", "Café"), tool("fed", "Crème")]
        + [tool("t", "Search"), tool("sub", "Sous-agent ü", "ai_agent")],
        chain("t", "kit", "ag")
        + [wire("sub", "ag")]
        # A data edge does not make its source a tool.
        + [{"source": "fed", "target": "ag", "data": {"edgeType": "data"}}],
    )
    # sub is an agent used as a tool: a tool like any other.
    assert name_warnings(toolwire.check(document)) == [("NAME-LOSSY", "sub")]


def test_name_warnings_come_after_r8_sorted_by_node_id_one_per_tool() -> None:
    document = workflow(
        [tool("b", "Café"), tool("a", "日本"), tool("Z", "ü"), tool("é", "Search"), agent("ag")],
        [wire("b", "ag"), wire("a", "ag"), wire("b", "ag"), wire("Z", "ag"), wire("é", "ag")]
        + [wire("💡", "ag"), wire("ñ", "ag"), wire("💡", "ag")],
    )
    report = toolwire.check(document)
    assert [(w.code, w.node, w.edge) for w in report.warnings] == [
        ("R8", "💡", 5),
        ("R8", "ñ", 6),
        # By id in code point order: "Z" < "a" < "b" < "ñ" < "💡"; "é" is
        # labelled "Search" and loses nothing.
        ("NAME-UNNAMED", "Z", None),
        ("NAME-UNNAMED", "a", None),
        ("NAME-LOSSY", "b", None),
        ("NAME-UNNAMED", "ñ", None),
        ("NAME-UNNAMED", "💡", None),
    ]


def test_name_warning_of_a_passthrough_configured_as_such_disappears() -> None:
    document = workflow([tool("t", "Café", "my_box"), agent("ag")], [wire("t", "ag")])
    assert name_warnings(toolwire.check(document)) == [("NAME-LOSSY", "t")]
    assert name_warnings(toolwire.check(document, passthrough_types=["my_box"])) == []


def test_name_warning_message_names_the_tool_its_label_and_its_name() -> None:
    report = toolwire.check(workflow([tool("t1", "Café Search"), agent("ag")], [wire("t1", "ag")]))
    [warning] = report.warnings
    assert warning.message == (
        'tool "t1" is labelled "Café Search", which becomes the name "caf_search": '
        "non-ASCII characters are dropped from tool names"
    )
