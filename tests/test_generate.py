"""The workflow generator (``toolwire.generate``): its files are valid JSON,
toolwire reports exactly the violations and counts it promises (and so does
the pure-Python reference), it is deterministic, and its presets have the
shapes they claim. Sizes stay small: the whole file runs in a few seconds."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import toolwire
import toolwire.cli
from toolwire import generate as gen
from toolwire.generate import PRESETS, Expected, Options, command
from toolwire.generate.names import Namer
from toolwire.generate.plan import Plan

from support import DATA

try:
    from toolwire import reference
except ImportError:  # written in parallel; the differential part waits for it
    reference = None  # type: ignore[assignment]

Found = List[Tuple[str, str, Tuple[str, ...]]]


def found(report: toolwire.Report) -> Found:
    """A report's CMP-9 violations in the shape of ``Expected.violations``."""
    violations = []
    for v in report.violations:
        if v.rule == "CMP-9":
            assert v.consumer is not None and v.name is not None
            violations.append((v.consumer, v.name, tuple(t.id for t in v.tools)))
    return violations


def stats(report: toolwire.Report) -> Dict[str, int]:
    assert report.stats is not None
    return report.stats.to_dict()


def make(tmp_path: Path, options: Options | str, seed: int = 0) -> Tuple[Path, Expected]:
    path = tmp_path / f"workflow-{seed}.json"
    return path, gen.generate(path, options, seed=seed)


def assert_checks(path: Path, expected: Expected) -> toolwire.Report:
    """toolwire (from the file and from the parsed dict) and the reference
    report exactly what the generator promised, and nothing else."""
    workflow = json.loads(path.read_bytes())  # valid JSON, strictly
    assert set(workflow) >= {"nodes", "edges"}
    report = toolwire.check_file(path)
    assert [v.rule for v in report.violations] == ["CMP-9"] * len(expected.violations)
    assert found(report) == expected.violations
    assert stats(report) == expected.stats()
    from_dict = toolwire.check(workflow)
    assert found(from_dict) == expected.violations
    assert stats(from_dict) == expected.stats()
    if reference is not None:
        mirror = reference.check(workflow)
        assert found(mirror) == expected.violations
        assert stats(mirror) == expected.stats()
    return report


# -- every dialect, every label style, and option mixes ----------------------

SMALL = PRESETS["small"]


@pytest.mark.parametrize("dialect", gen.DIALECTS)
@pytest.mark.parametrize("label_style", gen.LABEL_STYLES)
def test_each_dialect_and_label_style(tmp_path: Path, dialect: str, label_style: str) -> None:
    noise = (gen.DIALECTS.index(dialect) + gen.LABEL_STYLES.index(label_style)) % 2 == 0
    options = replace(SMALL, dialect=dialect, label_style=label_style, noise=noise)
    path, expected = make(tmp_path, options, seed=7)
    report = assert_checks(path, expected)
    assert len(expected.violations) >= 10
    assert expected.nodes > 900 and expected.edges > expected.tool_edges > 0
    # The dialect is really the one asked for (SEMANTICS section 9).
    node = next(n for n in json.loads(path.read_bytes())["nodes"] if n["id"] == expected.violations[0][0])
    if dialect == "spec":
        assert node["type"] == "ai_agent"
    elif dialect == "editor":
        assert node["type"] == "universalNode" and node["data"]["metadata"]["id"] == "ai_agent"
    else:
        assert "type" not in node and node["data"]["metadata"]["node_type_id"] == "flowdrop_node_processor_reason"
    # Every reported name is the one its labels sanitise to.
    for v in report.violations:
        assert {toolwire.normalize_name(t.label) for t in v.tools} == {v.name}


MIXES = {
    # Agents' own tools only, drawing on a shared pool of names.
    "pool-direct": Options(agents=60, tools_per_agent=5, toolboxes=0, name_pool=7, collisions=9, collision_kinds=("direct",)),
    # Deep stacks with cycles and diamonds: routes multiply, sets do not.
    "deep-cycles-diamonds": Options(
        agents=30, toolboxes=12, box_depth=5, tools_per_box=3, tools_per_level=2, fanout=5,
        box_cycles=12, diamonds=30, collisions=12, label_style="mixed", dialect="editor",
    ),
    # Depth-1 stacks: mirror boxes for cycles, diamonds straight into agents.
    "flat-boxes-mirrors": Options(
        agents=40, toolboxes=10, box_depth=1, tools_per_box=5, fanout=6, box_cycles=6, diamonds=10,
        collisions=10, dialect="drupal", noise=True,
    ),
    # No tools of their own: consumers only through boxes, fresh colliding pairs.
    "boxes-only": Options(
        agents=25, tools_per_agent=0, toolboxes=8, box_depth=3, tools_per_box=0, tools_per_level=0,
        fanout=4, collisions=9, label_style="unicode",
    ),
    # Stacks reaching no agent, and orphan boxes: collisions no consumer sees.
    "unreached-boxes": Options(
        agents=10, toolboxes=5, fanout=0, orphan_boxes=4, collisions=6, collision_kinds=("shared_box",),
        dialect="editor", noise=True,
    ),
    # Agents used as tools, with same-named tools behind them, and decoys.
    "agents-and-decoys": Options(
        agents=30, tools_per_agent=3, toolboxes=4, fanout=3, agents_as_tools=40, non_tool_edges=300,
        collisions=5, label_style="mixed", dialect="drupal", noise=True,
    ),
    # Unicode-driven collisions: "Café"/"caf" and labels that are all non-ASCII.
    "unicode-direct": Options(
        agents=20, toolboxes=0, collisions=12, collision_kinds=("direct",), label_style="unicode", noise=True,
    ),
    # Nothing at all is still a workflow.
    "empty": Options(agents=0, toolboxes=0, collision_share=0.0),
    # Data edges with no agent to connect.
    "only-io": Options(agents=0, toolboxes=0, non_tool_edges=20, collision_share=0.0, dialect="editor"),
}  # fmt: skip


@pytest.mark.parametrize("mix", sorted(MIXES))
def test_option_mixes(tmp_path: Path, mix: str) -> None:
    path, expected = make(tmp_path, MIXES[mix], seed=3)
    assert_checks(path, expected)
    assert expected.to_dict() == Expected.from_dict(json.loads(json.dumps(expected.to_dict()))).to_dict()
    if mix == "unreached-boxes":
        assert expected.violations == [] and expected.consumers == 10
        assert expected.passthroughs == 5 + 4
    if mix == "unicode-direct":
        names = {name for _, name, _ in expected.violations}
        assert "unnamed_tool" in names
        labels = {t.label for v in toolwire.check_file(path).violations for t in v.tools}
        assert any("é" in label or "É" in label for label in labels), labels
    if mix == "agents-and-decoys":
        # The shadows really share names with tools of another agent; the
        # decoys really look like tool handles. Neither is a violation.
        document = json.loads(path.read_bytes())
        handles = Counter(e.get("targetHandle", "").rsplit("-input-", 1)[-1] for e in document["edges"])
        assert handles["tools"] and handles["tool_calls"] and handles["tool"] > expected.tool_edges // 2
    if mix == "empty":
        assert json.loads(path.read_bytes()) == {"nodes": [], "edges": []}
        assert expected.stats() == dict.fromkeys(expected.stats(), 0)


def test_small_preset_by_name(tmp_path: Path) -> None:
    path, expected = make(tmp_path, "small")
    assert 900 <= expected.nodes <= 1200
    assert_checks(path, expected)
    assert {len(tools) for _, _, tools in expected.violations} <= {2, 3}


def test_direct_collisions_sometimes_share_a_name_three_ways(tmp_path: Path) -> None:
    # One direct collision in four adds two twins: with 40 of them, missing
    # every three-way one has a chance of about 1e-5.
    path, expected = make(tmp_path, Options(agents=40, toolboxes=0, collisions=40, collision_kinds=("direct",)))
    assert_checks(path, expected)
    assert {len(tools) for _, _, tools in expected.violations} >= {2, 3}


# -- names are collision-free by construction -------------------------------


def sanitise(label: str) -> str:
    """SEMANTICS section 5, written independently of the generator."""
    lowered = re.sub("[A-Z]", lambda m: m.group().lower(), label)
    return re.sub("[^a-z0-9]+", "_", lowered).strip("_") or "unnamed_tool"


@pytest.mark.parametrize("style", gen.LABEL_STYLES)
def test_every_label_sanitises_to_its_index_name(style: str) -> None:
    import random

    namer = Namer(style, random.Random(1))
    # Every word pair without a number, a sample with one, and huge indices.
    indices = list(range(namer.width)) + list(range(namer.width, 2 * namer.width, 7)) + [namer.width * 1000 + 17, 10**9 + 7]
    names = [namer.tool_name(i) for i in indices]
    assert len(set(names)) == len(names)
    agents = {namer.agent_name(a) for a in range(5000)}
    assert len(agents) == 5000 and not agents & set(names) and "unnamed_tool" not in agents | set(names)
    for i, name in zip(indices, names):
        for var in range(len(namer.variants)):
            label = json.loads(namer.tool_label(i, var))
            assert sanitise(label) == name, (label, name)
        assert [sanitise(json.loads(x)) for x in namer.tool_labels([i])] == [name]
    # Cross-check the independent sanitiser on a sample against toolwire's.
    for var in range(len(namer.variants)):
        label = json.loads(namer.tool_label(namer.width + var, var))
        assert toolwire.normalize_name(label) == sanitise(label)
    for a in range(0, 5000, 97):
        assert sanitise(json.loads(namer.agent_label(a))) == namer.agent_name(a)


def test_unicode_labels_carry_the_traps() -> None:
    import random

    namers = [Namer("unicode", random.Random(seed)) for seed in range(4)]
    labels = [json.loads(namer.tool_label(5000, var)) for namer in namers for var in range(len(namer.variants))]
    text = "".join(labels)
    assert "\u212a" in text or "\u0130" in text or "\u017f" in text  # str.lower() traps
    assert any(not label.isascii() for label in labels)


# -- determinism ------------------------------------------------------------


@pytest.mark.parametrize("dialect", gen.DIALECTS)
def test_same_seed_same_bytes_other_seed_other_bytes(dialect: str) -> None:
    options = replace(SMALL.scaled(0.3), dialect=dialect, label_style="unicode")
    first, expected_first = written(options, 11)
    again, expected_again = written(options, 11)
    other, expected_other = written(options, 12)
    assert first == again and expected_first == expected_again
    assert first != other and expected_first.violations != expected_other.violations


def written(options: Options, seed: int) -> Tuple[bytes, Expected]:
    buffer = io.BytesIO()
    expected = gen.generate(buffer, options, seed=seed)
    return buffer.getvalue(), expected


def test_path_and_file_object_write_the_same(tmp_path: Path) -> None:
    path, expected = make(tmp_path, SMALL.scaled(0.2), seed=5)
    buffer = io.BytesIO()
    assert gen.generate(buffer, SMALL.scaled(0.2), seed=5) == expected
    assert buffer.getvalue() == path.read_bytes()


# -- presets, scaled down -----------------------------------------------------


def test_deep_is_one_long_chain(tmp_path: Path) -> None:
    options = PRESETS["deep"].scaled(300 / PRESETS["deep"].box_depth)
    assert options.box_depth == 300 and options.agents == 1
    path, expected = make(tmp_path, options)
    report = assert_checks(path, expected)
    assert expected.passthroughs == 300 and len(expected.violations) == 1
    (violation,) = report.violations
    paths = sorted(len(t.path) for t in violation.tools)
    assert paths == [2, 300 + 2]  # the twin next to the agent, the original at the far end


def test_fanout_is_one_collision_seen_by_every_agent(tmp_path: Path) -> None:
    options = PRESETS["fanout"].scaled(0.01)
    assert (options.agents, options.fanout, options.tools_per_box) == (200, 200, 500)
    path, expected = make(tmp_path, options)
    assert_checks(path, expected)
    assert len(expected.violations) == options.agents == expected.consumers
    assert len({(name, tools) for _, name, tools in expected.violations}) == 1
    assert expected.passthroughs == 1
    # Full size: exactly 20k violations, decided without writing a byte.
    assert len(Plan(PRESETS["fanout"], 0).found) == 20_000


def test_flat_names_are_frequent_everywhere_and_rarely_collide(tmp_path: Path) -> None:
    options = PRESETS["flat-names"].scaled(0.01)
    path, expected = make(tmp_path, options)
    assert_checks(path, expected)
    document = json.loads(path.read_bytes())
    names = Counter(toolwire.normalize_name(n["data"]["label"]) for n in document["nodes"] if n["id"].startswith("tool"))
    assert len(names) == options.name_pool
    assert min(names.values()) > options.agents * options.tools_per_agent / options.name_pool / 2
    assert len(expected.violations) == options.collisions == 1
    assert expected.consumers == options.agents


def test_large_and_medium_keep_their_shape_when_scaled() -> None:
    # `large` is ~1M nodes and ~2M edges, counted from its plan (writing it takes seconds).
    plan = Plan(PRESETS["large"], 0)
    o = plan.o
    decoys = sum(1 for _ in plan.decoys())
    nodes = o.agents + o.toolboxes * o.box_depth + len(plan.extra_boxes) + plan.look_base + decoys + 2 * plan.io_nodes()
    tool_edges = o.agents * o.tools_per_agent + o.toolboxes * (plan.per_stack + o.box_depth - 1 + o.fanout)
    edges = tool_edges + len(plan.extra_edges) + o.non_tool_edges
    assert 950_000 < nodes < 1_100_000 and 1_900_000 < edges < 2_100_000
    for name, factor in (("large", 0.002), ("medium", 0.02)):
        buffer = io.BytesIO()
        expected = gen.generate(buffer, PRESETS[name].scaled(factor))
        report = toolwire.check_json(buffer.getvalue())
        assert found(report) == expected.violations and stats(report) == expected.stats()


# -- options ------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes",
    [
        {"dialect": "yaml"},
        {"label_style": "kebab"},
        {"agents": -1},
        {"fanout": 100, "agents": 10},
        {"collision_kinds": ()},
        {"collision_kinds": ("sideways",)},
        {"collision_share": 1.5},
        {"name_pool": 2, "tools_per_agent": 3},
        {"agents_as_tools": 1, "agents": 1, "toolboxes": 0},
    ],
)
def test_bad_options_are_refused(changes: dict) -> None:
    with pytest.raises(ValueError):
        Options(**changes)


def test_collision_count_and_scaling() -> None:
    assert Options(agents=100, collision_share=0.1).collision_count == 10
    assert Options(agents=100, collision_share=0.001).collision_count == 1
    assert Options(agents=100, collision_share=0.0).collision_count == 0
    assert Options(agents=100, collisions=3).collision_count == 3
    scaled = PRESETS["large"].scaled(0.1)
    assert scaled.agents == 4_000 and scaled.tools_per_agent == PRESETS["large"].tools_per_agent
    assert scaled.collision_count == round(PRESETS["large"].collision_count * 0.1)
    with pytest.raises(ValueError):
        SMALL.scaled(0)
    with pytest.raises(ValueError):
        gen.generate(io.BytesIO(), "gigantic")


# -- command line ---------------------------------------------------------------


def cli(argv: List[str]) -> int:
    """``toolwire generate ...`` as the command line runs it."""
    return toolwire.cli.main(argv)


def test_cli_writes_the_workflow_and_its_expectation(tmp_path: Path) -> None:
    out, expect = tmp_path / "w.json", tmp_path / "expect.json"
    argv = ["generate", "--preset", "small", "--scale", "0.5", "--seed", "4", "--dialect", "drupal",
            "--collision-kinds", "direct,deep", "--no-noise", "--expect", str(expect), str(out)]  # fmt: skip
    assert cli(argv) == 0
    expected = Expected.from_dict(json.loads(expect.read_text(encoding="utf-8")))
    options = replace(SMALL.scaled(0.5), dialect="drupal", collision_kinds=("direct", "deep"), noise=False)
    assert gen.generate(io.BytesIO(), options, seed=4) == expected
    assert_checks(out, expected)
    assert '"node_type_id"' in out.read_text(encoding="utf-8")


def test_cli_writes_to_standard_output(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    argv = ["generate", "--preset", "fanout", "--scale", "0.001", "--collision-share", "0.5", "-"]
    assert cli(argv) == 0
    captured = capsysbinary.readouterr()
    report = toolwire.check_json(captured.out)
    options = replace(PRESETS["fanout"].scaled(0.001), collision_share=0.5, collisions=None)
    expected = gen.generate(io.BytesIO(), options)
    assert found(report) == expected.violations and stats(report) == expected.stats()
    assert b"expected violations" in captured.err


# Run in a fresh interpreter: which toolwire.generate modules each command
# line leaves loaded, after the ones before it.
LOADED_BY = """
import contextlib, io, json, sys
import toolwire.cli

def loaded_after(argv):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            toolwire.cli.main(argv)
        except SystemExit:
            pass  # --help
    return sorted(m for m in sys.modules if m.split(".")[:2] == ["toolwire", "generate"])

print(json.dumps([loaded_after(argv) for argv in json.loads(sys.argv[1])]))
"""


def test_only_toolwire_generate_imports_the_generator() -> None:
    accepted = str(DATA / "spec-cmp9-accepted.json")
    argvs = [["--help"], ["check", accepted], ["check", "--format", "json", accepted], ["explain", accepted],
             ["check", "--help"], ["generate", "--help"]]  # fmt: skip
    result = subprocess.run(
        [sys.executable, "-c", LOADED_BY, json.dumps(argvs)], capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stdout)
    assert loaded[:-1] == [[]] * (len(argvs) - 1), loaded
    # `toolwire generate` itself does load it: the check above can fail.
    assert {"toolwire.generate", "toolwire.generate.command", "toolwire.generate.writer"} <= set(loaded[-1])


def test_generate_help_through_the_command_line_lists_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    # The subcommand's parser is filled in only when it is used: --help too.
    with pytest.raises(SystemExit):
        cli(["generate", "--help"])
    shown = capsys.readouterr().out
    assert shown == generate_parser().format_help()
    for f in fields(Options):
        assert "--" + f.name.replace("_", "-") in shown, f.name
    assert "presets:" in shown and "deep-fanout-100k" in shown


def test_cli_refuses_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["generate", "--agents", "2", "--fanout", "9", str(tmp_path / "w.json")]) == 2
    assert "fanout" in capsys.readouterr().err
    assert not (tmp_path / "w.json").exists()
    with pytest.raises(SystemExit):
        cli(["generate", "--collision-kinds", "sideways", str(tmp_path / "w.json")])


# -- findings far larger than the file: clash box, chain, fan-out ---------------

# Each hostile preset scaled so that tests stay fast (at most a few thousand
# violations: toolwire 0.2.0 and the reference check them in well under a second).
HOSTILE_SCALES = {
    "clash-fanout": 0.01,  # 10 pairs x 100 agents
    "clash-fanout-small": 0.1,  # 10 pairs x 100 agents
    "deep-fanout": 0.01,  # a chain of 100, 200 agents
    "deep-fanout-100k": 0.002,  # a chain of 200, 40 agents
    "clash-deep": 0.05,  # 5 pairs in the box, a chain of 250 with 1 + 4 pairs, 100 agents
}
# Full size: consumers, names, violations, passthroughs (decided from the plan).
HOSTILE_FULL = {
    "clash-fanout": (10_000, 1_000, 10_000_000, 1),
    "clash-fanout-small": (1_000, 100, 100_000, 1),
    "deep-fanout": (20_000, 1, 20_000, 10_000),
    "deep-fanout-100k": (20_000, 1, 20_000, 100_000),
    "clash-deep": (2_000, 105, 210_000, 5_001),
}


def test_every_hostile_preset_is_covered() -> None:
    hostile = {name for name, o in PRESETS.items() if o.clash_pairs or o.chain_depth}
    assert hostile == set(HOSTILE_SCALES) == set(HOSTILE_FULL)


@pytest.mark.parametrize("preset", sorted(HOSTILE_SCALES))
def test_hostile_preset_scaled_down_is_exact(tmp_path: Path, preset: str) -> None:
    options = PRESETS[preset].scaled(HOSTILE_SCALES[preset])
    pairs = options.clash_pairs + options.chain_pairs + options.chain_levels
    path, expected = make(tmp_path, options, seed=2)
    # Every agent receives every pair: consumers x names violations, exactly.
    assert options.clash_fanout == options.agents == expected.consumers
    assert len(expected.violations) == options.clash_fanout * pairs
    assert 0 < len(expected.violations) <= 5_000
    assert isinstance(expected.violations, gen.ExpectedViolations)
    assert expected.passthroughs == (1 if options.clash_pairs else 0) + options.chain_depth
    report = assert_checks(path, expected)
    # Names are tool_<p>; labels "Tool p" and "tool-p"; every path ends at its
    # consumer, and a far-end tool's path runs the whole chain.
    lengths = set()
    for v in report.violations:
        name = v.name or ""
        assert re.fullmatch(r"tool_\d+", name)
        assert sorted(t.label for t in v.tools) == [f"Tool {name[5:]}", f"tool-{name[5:]}"]
        for t in v.tools:
            assert t.path[-1] == v.consumer
            lengths.add(len(t.path))
    if options.clash_pairs:
        assert 3 in lengths  # tool -> clash box -> agent
    if options.chain_pairs:
        assert options.chain_depth + 2 in lengths
    if options.chain_levels:
        assert len(lengths - {3, options.chain_depth + 2}) == options.chain_levels


@pytest.mark.parametrize("preset", sorted(HOSTILE_SCALES))
def test_hostile_preset_same_seed_same_bytes(preset: str) -> None:
    options = PRESETS[preset].scaled(HOSTILE_SCALES[preset])
    first, expected_first = written(options, 9)
    again, expected_again = written(options, 9)
    assert first == again and expected_first == expected_again
    assert expected_first.to_dict() == expected_again.to_dict()


@pytest.mark.parametrize("preset", sorted(HOSTILE_FULL))
def test_hostile_preset_full_size_counts(preset: str) -> None:
    consumers, names, violations, passthroughs = HOSTILE_FULL[preset]
    plan = Plan(PRESETS[preset], 0)
    expected = plan.violations()
    assert len(expected) == violations == consumers * names
    assert isinstance(expected, gen.ExpectedViolations)
    (grid,) = expected.grids
    assert len(grid.consumers) == len(set(grid.consumers)) == consumers == sum(plan.consumer_agents)
    assert len(grid.names) == names and all(len(tools) == 2 for _, tools in grid.names)
    assert plan.hostile_boxes == passthroughs
    # Ten million violations cost a few hundred kilobytes as an expectation.
    assert len(json.dumps(Expected(expected, 0, 0, 0, 0, 0).to_dict())) < 2_000_000


def test_hostile_full_size_is_what_the_issue_describes() -> None:
    # Written for real (in well under a second each): the sizes quoted in the
    # docs, and the exact violation count with the stats.
    for preset, low, high in (("clash-fanout", 1.7e6, 2.3e6), ("clash-fanout-small", 0.15e6, 0.25e6)):
        buffer = io.BytesIO()
        expected = gen.generate(buffer, preset)
        assert low < len(buffer.getvalue()) < high
        o = PRESETS[preset]
        assert len(expected.violations) == o.clash_pairs * o.clash_fanout
        assert expected.stats() == {
            "nodes": o.agents + 1 + 2 * o.clash_pairs,
            "edges": 2 * o.clash_pairs + o.clash_fanout,
            "tool_edges": 2 * o.clash_pairs + o.clash_fanout,
            "consumers": o.clash_fanout,
            "passthroughs": 1,
        }


def test_hostile_structures_beside_every_other_feature(tmp_path: Path) -> None:
    # The clash box and the chain added to `small`: its own injected
    # violations (listed) and the grid merge in order, at some agents only.
    options = replace(SMALL, clash_pairs=3, chain_depth=7, chain_pairs=2, chain_levels=3, clash_fanout=30)
    path, expected = make(tmp_path, options, seed=4)
    violations = expected.violations
    assert isinstance(violations, gen.ExpectedViolations) and violations.listed
    assert len(violations) == len(violations.listed) + 30 * (3 + 2 + 3)
    assert list(violations) == sorted(violations)
    assert expected.consumers == 100 and expected.passthroughs == PRESETS["small"].toolboxes * 2 + 2 + 1 + 7
    assert_checks(path, expected)
    # Indexing, slicing and equality behave like the list they stand for.
    as_list = list(violations)
    assert violations == as_list and as_list == violations and violations != as_list[:-1]
    assert violations[0] == as_list[0] and violations[-1] == as_list[-1] and violations[5:9] == as_list[5:9]
    with pytest.raises(IndexError):
        violations[len(as_list)]
    # The expectation round-trips through JSON, the grid kept as a grid.
    data = json.loads(json.dumps(expected.to_dict()))
    assert data["violation_count"] == len(as_list) and len(data["violation_grids"]) == 1
    assert len(data["violations"]) == len(violations.listed)
    assert Expected.from_dict(data) == expected


def test_grid_indexing_without_listing() -> None:
    grid = gen.ViolationGrid(("a", "b"), (("x", ("t1", "t2")), ("y", ("t3", "t4"))))
    both = gen.ExpectedViolations([], [grid])
    x, y = ("x", ("t1", "t2")), ("y", ("t3", "t4"))
    assert list(both) == [("a", *x), ("a", *y), ("b", *x), ("b", *y)]
    assert [both[i] for i in range(4)] == list(both) and both[-1] == ("b", "y", ("t3", "t4"))
    assert both != [] and gen.ExpectedViolations([], []) == []


@pytest.mark.parametrize(
    "changes",
    [
        {"clash_pairs": 1, "clash_fanout": 5, "agents": 4},
        {"chain_pairs": 1},
        {"chain_levels": 2, "chain_depth": 0},
        {"chain_depth": -1},
    ],
)
def test_bad_hostile_options_are_refused(changes: dict) -> None:
    with pytest.raises(ValueError):
        Options(**changes)


def test_cli_hostile_preset_writes_a_grid_expectation(tmp_path: Path) -> None:
    out, expect = tmp_path / "w.json", tmp_path / "expect.json"
    argv = ["generate", "--preset", "clash-deep", "--scale", "0.05", "--chain-levels", "2", "--seed", "3",
            "--expect", str(expect), str(out)]  # fmt: skip
    assert cli(argv) == 0
    expected = Expected.from_dict(json.loads(expect.read_text(encoding="utf-8")))
    options = replace(PRESETS["clash-deep"].scaled(0.05), chain_levels=2)
    assert gen.generate(io.BytesIO(), options, seed=3) == expected
    assert len(expected.violations) == options.clash_fanout * (options.clash_pairs + 1 + 2)
    assert_checks(out, expected)


# -- `toolwire generate --help` ----------------------------------------------------


def generate_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="toolwire generate")
    command.configure(parser)
    return parser


def test_every_option_help_says_what_it_does_and_its_defaults() -> None:
    assert set(command.OPTION_HELP) == {f.name for f in fields(Options)}
    assert list(command.PRESET_HELP) == list(PRESETS)
    parser = generate_parser()
    by_dest = {a.dest: a for a in parser._actions}
    for action in parser._actions:
        text = action.help or ""
        assert text and not text.startswith("(default"), (action.dest, text)
        assert "the preset's value" not in text, (action.dest, text)
    for f in fields(Options):
        text = (by_dest[f.name].help or "").replace("%%", "%")
        assert text.startswith(command.OPTION_HELP[f.name] + " (default: "), text
        # small's value comes first, and every preset's value is there.
        assert text.split("(default: ", 1)[1].startswith(command._shown(getattr(SMALL, f.name)) + " (small")
        for options in PRESETS.values():
            assert command._shown(getattr(options, f.name)) in text
    shown = parser.format_help()
    for name in PRESETS:
        assert re.search(rf"^  {re.escape(name)} +\S", shown, re.M), name
