"""CMP-9 renames through a box whose label is long: each renamed tool reads
at most the first 4,096 characters of the box's label (its qualifier), so
what the renames hold grows with the renamed tools, not with tools x label.

Session 33's attack (findings 1 and 1b): a box's label is the qualifier of
every tool renamed through it; composed whole, n renamed tools each built
and scanned it (20 s for a 3.5 MB file), and kept it when it named almost
nothing ("-" x L + "K" names ``k``: 3.9 GB for a 1.5 MB file). The time is
not counted by the core's work counter (renames count their steps only in
the Rust unit tests, ``fixes.rs``); what the report holds is, here."""

from __future__ import annotations

import json
from typing import List, Tuple

import toolwire

CAP = 4096
"""The characters of a label or qualifier a rename reads (``fixes.rs`` CAP)."""


def workflow(box_label: str, tools: List[Tuple[str, str, str]]) -> bytes:
    """One agent fed by box K ("Kit") and box B (``box_label``); ``tools``
    as (id, label, box)."""
    nodes = [
        {"id": "agent", "type": "agent"},
        {"id": "K", "type": "toolbox", "data": {"label": "Kit"}},
        {"id": "B", "type": "toolbox", "data": {"label": box_label}},
    ]
    edges = [("K", "agent"), ("B", "agent")]
    for tool, label, box in tools:
        nodes.append({"id": tool, "type": "tool", "data": {"label": label}})
        edges.append((tool, box))
    wires = [{"source": s, "target": t, "data": {"edgeType": "tool_availability"}} for s, t in edges]
    return json.dumps({"nodes": nodes, "edges": wires}, separators=(",", ":")).encode()


def long_box(n: int) -> bytes:
    """n tools X in box B labelled "Q" x 100 n, one tool X in Kit: one
    clash, n tools renamed through B."""
    tools = [("k0", "X", "K")] + [(f"t{i:06}", "X", "B") for i in range(n)]
    return workflow("Q" * (100 * n), tools)


def punct_box(n: int) -> bytes:
    """n pairs "X i", one of each in Kit and in B, whose label is 100 n
    characters that name nothing and a K: n clashes, one tool of each
    renamed through B."""
    tools = [(f"a{i:06}", f"X {i}", "K") for i in range(n)] + [(f"b{i:06}", f"X {i}", "B") for i in range(n)]
    return workflow("-" * (100 * n) + "K", tools)


def new_labels(data: bytes) -> List[str]:
    report = toolwire.check_json(data)
    return [rename.new_label for group in report.clash_groups() for rename in group.first.fix]


def test_cmp9_renames_through_a_long_labelled_box_hold_at_most_the_cap_of_its_label() -> None:
    for build, n in ((long_box, 400), (punct_box, 400)):
        labels = new_labels(build(n))
        assert len(labels) == n
        assert max(len(label) for label in labels) <= CAP + 32, build.__name__
        assert len(set(labels)) == n


def test_cmp9_what_renames_through_a_long_labelled_box_hold_at_most_doubles() -> None:
    # Doubling the tools and the box's label: the new labels' characters
    # double (they grew 4x while each kept the whole label).
    for build in (long_box, punct_box):
        once, twice = (sum(map(len, new_labels(build(n)))) for n in (300, 600))
        assert twice <= 2.3 * once, f"{build.__name__}: {once} characters of new labels, then {twice}"


def test_cmp9_a_short_box_label_still_qualifies_the_renamed_tools() -> None:
    # What the renames were before the cap, where they hold less than it.
    labels = new_labels(workflow("Search Kit", [("a", "X", "K"), ("b", "X", "B")]))
    assert labels == ["X (Search Kit)"]
    # A label of thousands of characters naming little is kept whole up
    # to the cap ...
    box = "Search " + "-" * (CAP - 20) + " Kit"
    assert new_labels(workflow(box, [("a", "X", "K"), ("b", "X", "B")])) == [f"X ({box})"]
    # ... and past it, cut at the cap: here its name is the kept tool's.
    box = "-" * (CAP + 20) + " Kit"
    assert new_labels(workflow(box, [("a", "X", "K"), ("b", "X", "B")])) == ["X (b)"]
