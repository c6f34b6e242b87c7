"""``toolwire generate``: its options, their help, and running it.

Imported only when that command runs (``toolwire.cli`` fills in the
subcommand's parser on demand), so other commands never load the generator.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import fields, replace
from typing import Any, Dict, List, Tuple

from .._progress import Progress
from .families import FAMILIES, Family
from .drupal_yaml import WORKFLOW_FILE
from .options import COLLISION_KINDS, DIALECTS, LABEL_STYLES, LAYOUTS, PRESETS, Options
from .plan import Plan
from .sites import SITES
from .writer import DEFAULT_WORKFLOW_ID, generate_plan, generate_site_plan


def _kinds(text: str) -> Tuple[str, ...]:
    kinds = tuple(k.strip() for k in text.split(",") if k.strip())
    bad = [k for k in kinds if k not in COLLISION_KINDS]
    if bad or not kinds:
        raise argparse.ArgumentTypeError(f"collision kinds are a comma-separated list of {', '.join(COLLISION_KINDS)}")
    return kinds


# What each option does, for ``toolwire generate --help`` (the attribute
# docstrings of Options, shortened; a test checks that every field has one).
OPTION_HELP: Dict[str, str] = {
    "agents": "agents, the consumers",
    "tools_per_agent": "tools wired straight into each agent",
    "toolboxes": "toolbox stacks (chains of --box-depth boxes); each stack's top box is wired into --fanout agents",
    "box_depth": "boxes per stack, each wired into the one above it",
    "tools_per_box": "tools in the innermost box of each stack",
    "tools_per_level": "tools in each other box of a stack",
    "fanout": "agents sharing each stack",
    "box_cycles": "tool-edge cycles among boxes",
    "diamonds": "second routes for a stack's tool to the agents it already reaches",
    "agents_as_tools": "tool edges from an agent into another agent",
    "non_tool_edges": "data and trigger edges, a quarter of them decoys that look like tool wiring",
    "orphan_boxes": "boxes holding two same-named tools that reach no consumer (no violation)",
    "collision_share": "share of agents at which a collision is injected (unless --collisions is given)",
    "collisions": "exact number of injected collisions; overrides --collision-share",
    "collision_kinds": "kinds of injected collisions, used in turn: comma-separated " + ", ".join(COLLISION_KINDS),
    "name_pool": "0: every tool name is unique; N: the agents' own tools draw their names from N shared ones",
    "clash_pairs": "pairs of tools labelled 'Tool p' and 'tool-p' in one clash box wired into the --clash-fanout "
    "agents: pairs x agents violations",
    "chain_depth": "a chain of this many boxes whose head is wired into the --clash-fanout agents",
    "chain_pairs": "clashing pairs wired into the chain's far end (their paths run the whole chain)",
    "chain_levels": "further clashing pairs, one into each of this many boxes spread along the chain",
    "clash_fanout": "agents receiving the clash box and the chain head",
    "label_style": "how labels are written: snake, mixed (case, punctuation, escapes) or unicode (characters "
    "that names drop)",
    "noise": "realistic payload the check must skip (positions, config, styling, look-alike keys)",
    "dialect": "which export form: spec, editor or drupal (docs/SEMANTICS.md section 9)",
    "layout": "json (one JSON object) or drupal-yaml (Drupal config, docs/SEMANTICS.md section 10; OUTPUT a "
    "directory: the workflow and its node-type catalogue)",
}

# One line per preset, for the end of ``toolwire generate --help``.
PRESET_HELP: Dict[str, str] = {
    "small": "every feature at once, ~1k nodes (the tests' workhorse)",
    "medium": "the shape of large at a tenth of its counts (~100k nodes), drupal dialect, unicode labels",
    "large": "~1M nodes and ~2M edges, ~480 MB",
    "deep": "one chain of 1M toolboxes, one agent, one violation",
    "fanout": "one toolbox of 50k tools shared by 20k agents: 20k violations",
    "flat-names": "100k agents whose tools share eight names: 100 violations",
    "clash-fanout": "a clash box of 1,000 pairs shared by 10k agents: 10M violations from ~2 MB",
    "clash-fanout-small": "a clash box of 100 pairs shared by 1,000 agents: 100k violations from ~0.2 MB",
    "deep-fanout": "a chain of 10k boxes, one pair at its far end, its head shared by 20k agents: 20k violations, "
    "~15 MB",
    "deep-fanout-100k": "the same with a chain of 100k boxes, ~59 MB",
    "clash-deep": "2k agents each get a clash box of 100 pairs and a 5k-box chain with five pairs: 210k violations",
}


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(value)
    return str(value)


def _option_help(name: str) -> str:
    """What option ``name`` does, then its value in ``small`` and in every
    preset where it differs; the most common value other than small's says
    ``others`` rather than listing its presets."""
    by_value: Dict[str, List[str]] = {}
    for preset in ("small", *(p for p in PRESETS if p != "small")):
        by_value.setdefault(_shown(getattr(PRESETS[preset], name)), []).append(preset)
    groups = list(by_value.items())
    largest = max(range(len(groups)), key=lambda k: len(groups[k][1]))
    shown = []
    for k, (value, presets) in enumerate(groups):
        if k == largest and len(presets) > 3:
            who = "small and others" if k == 0 else "others"
        else:
            who = ", ".join(presets)
        shown.append(f"{value} ({who})")
    return f"{OPTION_HELP[name]} (default: {'; '.join(shown)})".replace("%", "%%")


def configure(parser: argparse.ArgumentParser) -> None:
    """Fills in the ``generate`` subcommand's parser: its description, the
    presets, every option with its help. ``toolwire.cli`` creates the
    subparser and calls this only when ``generate`` is the command given."""
    width = max(map(len, PRESETS))
    parser.description = (
        "Write a deterministic synthetic FlowDrop workflow: a preset, adjusted by the options\n"
        "(each of which takes the preset's value unless given)."
    )
    family_width = max(map(len, FAMILIES))
    parser.epilog = (
        "presets:\n"
        + "\n".join(f"  {name:<{width}}  {PRESET_HELP[name]}" for name in PRESETS)
        + "\n\nfamilies (--family; issue \"Every shape costs what its file costs\"; n is --size):\n"
        + "\n".join(f"  {name:<{family_width}}  {_family_help(f)}" for name, f in FAMILIES.items())
        + "\n\nsites (--site; issue 22, workflows that call each other, written as a Drupal config directory):\n"
        + "\n".join(f"  {name:<{family_width}}  {f.description} (issue: n = {f.size:,})" for name, f in SITES.items())
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument(
        "output",
        metavar="OUTPUT",
        help="the file to write ('-' for standard output); with --layout drupal-yaml, a directory (made if "
        "missing) unless it ends in .yml or .yaml",
    )
    # None, not their defaults, so that --family can refuse them when given.
    parser.add_argument(
        "--preset", choices=sorted(PRESETS), default=None, help="starting point (default: small; listed below)"
    )
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: 0)")
    parser.add_argument("--scale", type=float, default=None, help="multiply every count of the preset by this factor")
    parser.add_argument("--expect", metavar="FILE", help="also write the expected verdict as JSON to FILE")
    parser.add_argument(
        "--family",
        choices=list(FAMILIES),
        default=None,
        help="write a worst-case family (listed below) instead of a preset; no other option but --size and --expect",
    )
    parser.add_argument(
        "--site",
        choices=list(SITES),
        default=None,
        help="write a site (listed below) into the directory OUTPUT instead of a preset; no other option but --size "
        "(random, random-cycles: --seed or --size is the seed)",
    )
    parser.add_argument(
        "--size",
        type=int,
        default=None,
        metavar="N",
        help="the family's or site's size n (default: the size its issue gives)",
    )
    for f in fields(Options):
        flag = "--" + f.name.replace("_", "-")
        doc = _option_help(f.name)
        if f.name == "collision_kinds":
            parser.add_argument(flag, type=_kinds, default=None, metavar="KINDS", help=doc)
        elif f.name == "dialect":
            parser.add_argument(flag, choices=DIALECTS, default=None, help=doc)
        elif f.name == "layout":
            parser.add_argument(flag, choices=LAYOUTS, default=None, help=doc)
        elif f.name == "label_style":
            parser.add_argument(flag, choices=LABEL_STYLES, default=None, help=doc)
        elif f.name == "noise":
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=None, help=doc)
        elif f.name == "collision_share":
            parser.add_argument(flag, type=float, default=None, metavar="F", help=doc)
        else:
            parser.add_argument(flag, type=int, default=None, metavar="N", help=doc)
    parser.set_defaults(handler=run)


def _family_help(family: Family) -> str:
    sizes = " and ".join(f"{n:,}" for n in family.sizes)
    return f"{family.number}: {family.description} (issue: n = {sizes})"


def _error(message: str) -> int:
    sys.stderr.write(f"toolwire generate: error: {message}\n")
    return 2


def run(args: argparse.Namespace) -> int:
    """The ``generate`` subcommand: exit 0 on success, 2 on bad options."""
    if args.family is not None and args.site is not None:
        return _error("--family and --site are two different things to write: give one")
    if args.family is not None:
        return _run_family(args)
    if args.site is not None:
        return _run_site(args)
    if args.size is not None:
        return _error("--size is the size of a --family or a --site")
    options = PRESETS[args.preset or "small"]
    try:
        if args.scale is not None:
            options = options.scaled(args.scale)
        changes = {f.name: getattr(args, f.name) for f in fields(Options) if getattr(args, f.name) is not None}
        if "collision_share" in changes and "collisions" not in changes:
            changes["collisions"] = None  # a share asked for beats the preset's exact count
        options = replace(options, **changes)
    except ValueError as e:
        return _error(str(e))
    plan = Plan(options, 0 if args.seed is None else args.seed)
    # With the Drupal layout, OUTPUT is a site's config directory unless it
    # names a file: the workflow, and the catalogue of its node types beside it.
    site = options.layout == "drupal-yaml" and args.output != "-" and not args.output.endswith((".yml", ".yaml"))
    written = os.path.join(args.output, WORKFLOW_FILE.format(DEFAULT_WORKFLOW_ID)) if site else args.output
    # On standard error, and only on a terminal: the workflow may be going to
    # standard output, and logs should not fill up with redraws.
    with Progress(plan.records(), "generating", unit="nodes and edges") as bar:
        if args.output == "-":
            expected = generate_plan(sys.stdout.buffer, plan, bar.advance)
            sys.stdout.buffer.flush()
        elif site:
            try:
                expected = generate_site_plan(args.output, plan, DEFAULT_WORKFLOW_ID, bar.advance)
            except (FileExistsError, NotADirectoryError) as e:
                return _error(f"{args.output}: not a directory ({e.strerror})")
        else:
            expected = generate_plan(args.output, plan, bar.advance)
    if args.expect:
        with open(args.expect, "w", encoding="utf-8") as f:
            json.dump(expected.to_dict(), f, ensure_ascii=False, indent=1)
            f.write("\n")
    count = len(expected.violations)
    sys.stderr.write(
        f"{written}: {expected.nodes} nodes, {expected.edges} edges ({expected.tool_edges} tool edges), "
        f"{count} expected violation{'' if count == 1 else 's'}\n"
    )
    return 0


def _run_family(args: argparse.Namespace) -> int:
    """``--family NAME [--size N]``: the family's workflow, and its
    expectation on standard error (and in ``--expect``)."""
    family = FAMILIES[args.family]
    # A family has one parameter: a preset's options would be silently
    # ignored, so they are refused.
    given = [flag for flag, value in (("--preset", args.preset), ("--seed", args.seed), ("--scale", args.scale))
             if value is not None]  # fmt: skip
    given += ["--" + f.name.replace("_", "-") for f in fields(Options) if getattr(args, f.name) is not None]
    if given:
        return _error(f"--family takes no generator option ({', '.join(given)}): its only parameter is --size")
    n = family.size if args.size is None else args.size
    try:
        data, expected = family.build(n)
    except ValueError as e:
        return _error(str(e))
    if args.output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        with open(args.output, "wb") as out:
            out.write(data)
    if args.expect:
        with open(args.expect, "w", encoding="utf-8") as f:
            json.dump(expected.to_dict(), f, ensure_ascii=False, indent=1)
            f.write("\n")
    consumer, name, tools = expected.first
    # A family-6 violation names thousands of tools: its ends are enough here
    # (--expect lists them all).
    shown = ", ".join(tools[:3]) + (f" and {len(tools) - 3:,} more" if len(tools) > 3 else "")
    sys.stderr.write(
        f"{args.output}: family {family.number} ({family.name}) at n = {n:,}: {len(data) / 1e6:.1f} MB, "
        f"{expected.nodes:,} nodes, {expected.edges:,} edges; {expected.violations:,} expected "
        f"violation{'' if expected.violations == 1 else 's'} in {expected.clashes:,} distinct "
        f"clash{'' if expected.clashes == 1 else 'es'}, the first at {consumer} named {name}: {shown}\n"
    )
    return 0


def _run_site(args: argparse.Namespace) -> int:
    """``--site NAME [--size N] OUTPUT``: the site's config directory, and
    what a site check must find on standard error."""
    family = SITES[args.site]
    given = [flag for flag, value in (("--preset", args.preset), ("--scale", args.scale), ("--expect", args.expect))
             if value is not None]  # fmt: skip
    given += ["--" + f.name.replace("_", "-") for f in fields(Options) if getattr(args, f.name) is not None]
    random_site = args.site.startswith("random")
    if args.seed is not None and not random_site:
        given.append("--seed")
    if given:
        return _error(f"--site takes no generator option ({', '.join(given)}): its only parameter is --size")
    if args.output == "-":
        return _error("--site writes a directory: OUTPUT cannot be '-'")
    n = family.size if args.size is None else args.size
    if random_site and args.seed is not None:
        n = args.seed
    try:
        site = family.build(n)
        site.write(args.output)
    except ValueError as e:
        return _error(str(e))
    except (FileExistsError, NotADirectoryError) as e:
        return _error(f"{args.output}: not a directory ({e.strerror})")
    expected = site.expected
    found = "see toolwire.reference.site_calls" if expected is None else (
        f"{expected.call_count:,} expected call finding{'' if expected.call_count == 1 else 's'}, "
        f"{sum(expected.violations.values()):,} own violations, {len(expected.cycles)} cycle(s)"
    )
    sys.stderr.write(
        f"{args.output}: site {args.site} at n = {n:,}: {len(site.workflows):,} workflows, "
        f"{len(site.node_types):,} node types; {found}\n"
    )
    return 0
