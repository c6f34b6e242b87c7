"""The worst-case families of issue "Every shape costs what its file costs".

Each family is a small, regular workflow on which a check that walks every
consumer's flattened set, or words every finding, costs far more than the
file: a function of one size parameter ``n`` returning the workflow's JSON
bytes and what toolwire must report on it (:class:`FamilyExpected`), worked
out from the construction, never by running a checker.

Every family is written in the spec's own dialect (docs/SEMANTICS.md section 9):
tools ``"type": "tool"`` with their label in ``data.label``, toolboxes
``"type": "toolbox"``, agents ``"type": "agent"``, every edge a tool edge
declared by ``"data": {"edgeType": "tool_availability"}``. Only tools carry
a label: a box's label never counts and an agent's is never read, so
leaving them out keeps the file about the wiring. One record a line, no
other whitespace.

Ids are a letter and a number zero-padded to the width of the largest one,
so code-point order (the report's order, docs/SEMANTICS.md section 6) is numeric
order, and each family's first violation is easy to state. Clashing pairs
are labelled ``"Tool X"`` and ``"tool-x"`` (both named ``tool_x``), with
zero-padded numbers in the labels where there are many pairs, so that name
order is numeric order too.

What is counted (:class:`FamilyExpected`):

- ``violations``: CMP-9 violations, one per (consumer, name);
- ``clashes``: distinct clashes, a name and the set of tools sharing it at
  some consumer, counted once however many consumers see it (in the new
  core, the number of ``Report.clash_groups()``);
- ``first``: the first violation in report order, as ``(consumer id, name,
  tool ids sorted)``;
- the statistics ``toolwire.Stats`` counts.

Family 8 of the issue is not a workflow but a measurement of family 2 (the
report formats on it): :data:`FORMAT_MEASUREMENT`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Tuple

from .family_base import FamilyExpected, Generated
from .family_chains import (
    chain_of_pairs,
    deep_roots,
    distinct_sides,
    entry_fan,
    entry_walk,
    forked_roots,
    giant_chain,
    giant_taps,
    nine_roots,
    parts_chain,
    split_chains,
    twin_carriers,
    wide_roots,
    wide_splits,
    wider_splits,
)
from .family_fans import (
    far_consumers,
    far_eleventh,
    held_bases,
    hub_pair,
    hub_tool,
    long_box_label,
    long_ids,
    many_small_boxes,
    one_box_wide,
    private_roots_box,
    private_roots_chain,
    private_roots_few,
    roaming_ring,
    solo_boxes,
    solo_union,
    wide_thrash,
)
from .family_cycles import (
    chain_tops,
    cycle_chained,
    cycle_fan_paths,
    cycle_fanout,
    cycle_far,
    cycle_fed_sides,
    cycle_renames,
    cycle_sides,
    cycle_side_ties,
    cycle_skip,
    cycle_ties,
    cycle_tops_tied,
    cycle_twins,
    cycle_wide_source,
    cycle_wide_tools,
    nested_tops,
    renames_aside,
    renames_fan_hub,
    renames_hub,
    renames_hub_chained,
    renames_thrice,
    renames_twice,
    ring_chained,
    ring_chained_edge_missing,
    ring_chained_split,
    ring_direct,
    ring_edge_missing,
    ring_edge_missing_split,
    ring_near_twins,
    ring_split,
    ring_twins,
    fed_sides_fanned,
    ring_fanned_fed_side,
    ring_many_fed_sides,
    ring_many_fed_sides_fanned,
    ring_many_tops,
    ring_one_fed_side,
    ring_wide_sources,
    ring_wide_tools,
    rings_one_tool,
    shared_chain,
    skip_fanned_fed_side,
    skip_many_fed_sides,
    skip_many_fed_sides_fanned,
    skip_one_fed_side,
    skip_split,
    skip_split_into,
    skip_twins,
    skip_wide_tools,
    skip_wide_tools_split,
    sources_one_tool,
    two_way_cycle,
    wide_cycles,
)
from .family_hubs import decoy_teams, deep_decoys, hub_direct, hub_shared, hub_taps, hub_teams, shared_cut, tied_taps
from .family_parts import (
    dozen_own,
    linked_boxes,
    parts_read,
    ring_own,
    ring_pairs,
    ring_crowd,
    ring_parts,
    ring_three,
    ring_wide,
    shared_word,
)
from .family_ladders import (
    diamond_ladder,
    crowded_ladders,
    cycle_top,
    evicted_ladders,
    ladder_taps,
    lattice_ladder,
    lattice_renames,
    lattice_wide_tools,
    near_roots,
    root_ladder,
    rung_ladders,
)
from .family_subsets import (
    distinct_subsets,
    orphan_parts,
    pair_parts,
    parts_fan,
    solo_cap,
    solo_dozen,
    subsets_interleaved,
    subsets_shared,
)

__all__ = [
    "FAMILIES",
    "FORMAT_MEASUREMENT",
    "Family",
    "FamilyExpected",
    "FormatMeasurement",
    "Generated",
]


@dataclass(frozen=True)
class Family:
    """One family of the issue: ``build(n)`` makes its workflow at size ``n``."""

    name: str
    number: int
    """The family's number in the issue's table."""
    description: str
    """One line: the construction, in terms of ``n``."""
    sizes: Tuple[int, ...]
    """The sizes the issue gives (two for some families), the first being
    "the size given"."""
    small: int
    """A size at which the workflow checks in milliseconds: the benchmarks'
    smoke pass."""
    minimum: int
    """The smallest ``n`` at which the family has a violation."""
    construction: Callable[[int], Generated]

    @property
    def size(self) -> int:
        """The size the issue gives (its first, where it gives two)."""
        return self.sizes[0]

    def build(self, n: int) -> Generated:
        """The workflow at size ``n``, with its expectation."""
        if not isinstance(n, int) or isinstance(n, bool) or n < self.minimum:
            raise ValueError(f"family {self.name} needs a whole size of at least {self.minimum}, not {n!r}")
        return self.construction(n)


FAMILIES: Dict[str, Family] = {
    f.name: f
    for f in (
        Family("private-roots-chain", 1, "a chain of n boxes ending in a clashing pair; n agents, each behind a "
               "private box fed by the chain's head", (16_000,), 200, 1, private_roots_chain),
        Family("private-roots-box", 2, "a box of n/2 clashing pairs; n agents, each behind a private box it feeds",
               (8_000,), 100, 2, private_roots_box),
        Family("private-roots-few", 3, "a box of n distinct names, each with a twin in an orphan box, and one "
               "clashing pair; n agents, each behind a private box it feeds", (8_000,), 200, 1, private_roots_few),
        Family("distinct-subsets", 4, "20 boxes of n/31 clashing pairs each; n agents, each wired to a different "
               "5-box subset", (15_504,), 155, 1, distinct_subsets),
        Family("hub-pair", 5, "a clashing pair wired into n boxes; box j -> a private box -> agent j",
               (20_000, 60_000), 200, 1, hub_pair),
        Family("long-ids", 6, "one agent, n tools all labelled X, ids sharing an 80-character prefix",
               (8_000,), 100, 2, long_ids),
        Family("many-small-boxes", 7, "n boxes of one uniquely named tool each, a clashing pair in box 0, every "
               "box wired into one agent", (30_000, 100_000), 300, 1, many_small_boxes),
        Family("roaming-ring", 9, "n boxes into one agent, box i holding a tool named i and one named i+1 (mod n): "
               "n names each clashing only at the agent, each from two boxes", (8_000,), 200, 2, roaming_ring),
        Family("subsets-interleaved", 10, "family 4 with each pair's label naming the pair before the box, so the "
               "boxes' pairs interleave in name order", (7_752, 15_504), 155, 1, subsets_interleaved),
        Family("giant-chain", 11, "a chain of n boxes into one agent, box i holding tool i, every tool labelled X",
               (16_000, 32_000), 200, 2, giant_chain),
        Family("deep-roots", 12, "a chain of n boxes feeding n agents; tool g into the chain's top, its twin "
               "straight into agent g", (8_000,), 100, 1, deep_roots),
        Family("chain-of-pairs", 13, "n clashing pairs atop a chain of n boxes into one agent", (8_000,), 100, 1,
               chain_of_pairs),
        Family("one-box-wide", 14, "n tools all labelled X in one box, wired into one agent", (16_000,), 100, 2,
               one_box_wide),
        Family("far-consumers", 15, "n boxes of one clashing pair, box g wired into agent g and into one agent "
               "whose id sorts last", (8_000,), 100, 1, far_consumers),
        Family("forked-roots", 16, "a chain of n boxes feeding n agents; tool g into the chain's top, its twin into "
               "a box of agent g's own", (4_000,), 100, 1, forked_roots),
        Family("hub-tool", 17, "one tool X wired into n boxes; box j and a box of its own holding a tool x feed "
               "agent j", (8_000,), 100, 1, hub_tool),
        Family("entry-walk", 18, "a chain of n boxes into one agent, box i holding a tool X; n clashing pairs into "
               "the chain's top, each tool also wired into 8 boxes that reach no consumer", (3_000,), 40, 2, entry_walk),
        Family("subsets-shared", 19, "family 10 with one more tool in every box, all of them labelled Shared",
               (7_752,), 155, 1, subsets_shared),
        Family("parts-chain", 20, "17 boxes of n interleaved clashing pairs atop a chain of n boxes into one agent, "
               "each box of the chain with a clashing pair of its own", (1_000,), 20, 1, parts_chain),
        Family("parts-fan", 21, "17 boxes of n interleaved clashing pairs into one box; n agents fed by it, each "
               "with a clashing pair of its own", (1_000,), 20, 1, parts_fan),
        Family("pair-parts", 22, "k boxes of k interleaved clashing pairs, k the fewest with C(k, 2) >= n; n "
               "agents, each wired to a different pair of boxes", (10_000,), 100, 1, pair_parts),
        Family("giant-taps", 23, "a chain of n boxes, box i holding tool i, every tool labelled X, and wired into "
               "agent i", (2_000,), 100, 2, giant_taps),
        Family("solo-union", 24, "two boxes of n tools each, tool i of one and of the other sharing a name; n agents "
               "wired to both, each with a tool Solo of its own", (5_000,), 100, 1, solo_union),
        Family("solo-dozen", 25, "12 boxes of n interleaved clashing pairs; n agents wired to all 12, each with a "
               "tool Solo of its own", (1_000,), 20, 1, solo_dozen),
        Family("solo-cap", 26, "17 boxes of n / 4 interleaved clashing pairs, 16 of them into one box; n agents fed "
               "by it and by the 17th, each with a tool Solo of its own", (2_000,), 40, 1, solo_cap),
        Family("root-ladder", 27, "a chain of n boxes into one agent, box i also fed by a box of its own holding a "
               "clashing pair", (2_000,), 40, 1, root_ladder),
        Family("wide-roots", 28, "a chain of 10n boxes into n agents, each also fed by the same 16 boxes; tool g "
               "atop the chain, its twin straight into agent g", (1_000,), 20, 1, wide_roots),
        Family("far-eleventh", 29, "n boxes of one clashing pair, box i wired into agents i to i + 9 and into one "
               "agent whose id sorts last", (4_000,), 50, 1, far_eleventh),
        Family("twin-carriers", 30, "a chain of 10n boxes into two boxes of a clashing pair each, both into n "
               "agents; tool g atop the chain, its twin straight into agent g", (2_000,), 20, 1, twin_carriers),
        Family("solo-boxes", 31, "two boxes of n tools each, tool i of one and of the other sharing a name; n "
               "agents wired to both, each also fed by a box of its own holding a clashing pair", (5_000,), 20, 1,
               solo_boxes),
        Family("entry-fan", 32, "a chain of n boxes, each with a leaf of its own, into n agents; a tool wired into "
               "the chain's top and into n dead boxes, its twin straight into every agent", (8_000,), 20, 1, entry_fan),
        Family("orphan-parts", 33, "16 boxes of n interleaved tools whose twins reach another agent, into one box; n "
               "agents fed by it and by a box of their own holding a clashing pair", (1_000,), 20, 1, orphan_parts),
        Family("nine-roots", 34, "a chain of 10n boxes into nine roots, each through two boxes of a clashing pair "
               "each; agent g below root g mod 9; tool g atop the chain, its twin straight into agent g", (3_200,),
               20, 1, nine_roots),
        Family("rung-ladders", 35, "a chain of 10n boxes; n agents, each below a ladder of 17 boxes of its own, every "
               "rung also fed by one box of a clashing pair; a tool atop the chain, its twin at every agent",
               (800,), 20, 1, rung_ladders),
        Family("distinct-sides", 36, "a chain of 10n boxes into n agents, each also fed by the same 16 boxes of a "
               "clashing pair each; tool g atop the chain, its twin straight into agent g", (1_000,), 20, 1,
               distinct_sides),
        Family("held-bases", 37, "two boxes of n tools each, tool i of one and of the other sharing a name, both into "
               "a box F; n agents wired to both, each also fed by a box of its own fed by F and holding a clashing "
               "pair", (4_000,), 20, 1, held_bases),
        Family("crowded-ladders", 38, "family 35 with 5 tools atop the chain, each with a twin at every agent",
               (800,), 20, 1, crowded_ladders),
        Family("split-chains", 39, "two chains of 10n boxes, a tool atop both; n agents, each fed by a box below "
               "each chain's end and by the tool's twin", (1_000,), 20, 1, split_chains),
        Family("ladder-taps", 40, "a ladder of n boxes, a tool atop it and a clashing pair's box into every rung; "
               "agent i fed by rung i alone, with the tool's twin", (8_000,), 20, 1, ladder_taps),
        Family("evicted-ladders", 41, "5 ladders of n boxes, a tool atop each, a clashing pair's box into every rung; "
               "n agents, agent g fed by ladder g mod 5's bottom, with the tool's twin", (2_000,), 20, 1,
               evicted_ladders),
        Family("wide-thrash", 42, "a box of a tool and n side boxes of one tool each, all into 9 boxes; n agents, "
               "agent g fed by box g mod 9, with the tool's twin", (2_000,), 20, 1, wide_thrash),
        Family("wide-splits", 43, "33 chains of n boxes, a tool atop each; n agents, each fed by a box of its own "
               "below each chain's end, and by the tool's twin", (300,), 20, 1, wide_splits),
        Family("wider-splits", 44, "family 43 with 65 chains: more providers of each agent than a root's search "
               "looks at for free", (300,), 20, 1, wider_splits),
        Family("hub-teams", 45, "a box of n tools into n / 16 team boxes of a clashing pair each, all into a hub "
               "fed by the tools' twins too; n agents, each wired to its team's box and to a box of its own fed by "
               "the hub", (4_000,), 160, 1, hub_teams),
        Family("hub-taps", 46, "a box of n tools into n team boxes of a clashing pair each, all into a hub; agent k "
               "wired to team box k, to the hub and to tool k's twin", (4_000,), 100, 1, hub_taps),
        Family("hub-direct", 47, "a box of n tools into n team boxes of a clashing pair each, all into a hub fed by "
               "the tools' twins too; agent k wired to team box k and to the hub", (4_000,), 100, 1, hub_direct),
        Family("tied-taps", 48, "a chain of 70 boxes below n tools, into n team boxes of a clashing pair each, all "
               "into a hub; agent k fed by the hub, by two boxes below the chain's end and by tool k's twin: its "
               "two paths as long", (4_000,), 100, 1, tied_taps),
        Family("dozen-own", 49, "12 boxes of n / 4 interleaved clashing pairs; n agents, each wired to all 12 and "
               "to a box of its own holding a clashing pair", (1_600,), 40, 4, dozen_own),
        Family("shared-word", 50, "20 boxes of n / 4 interleaved clashing pairs, each also holding a tool Shared; n "
               "agents, each wired to a different 10 of the boxes", (1_600,), 40, 1, shared_word),
        Family("linked-boxes", 51, "one agent wired to n boxes of 5 clashing pairs each, names interleaved, box j "
               "holding a tool whose twin is in box j + 1", (2_000,), 40, 1, linked_boxes),
        Family("parts-read", 52, "16 boxes of n / 16 interleaved tools, their twins at one agent; n agents, each "
               "wired to a hub fed by 15 of the boxes, to a shared pair's box and to a box of its own holding a "
               "clashing pair", (4_000,), 64, 1, parts_read),
        Family("hub-shared", 53, "family 47 with a box of a clashing pair wired to every agent too", (4_000,), 100, 1,
               hub_shared),
        Family("diamond-ladder", 54, "a tool atop a ladder of n diamonds, each rung's two boxes holding a clashing "
               "pair; agent k below rung k, with the tool's twin", (4_000,), 40, 1, diamond_ladder),
        Family("cycle-far", 55, "a cycle of n boxes, box i fed by a box of a tool U i; agent k fed by box k and, "
               "through a box of its own, by the twin of U (k + n / 2)", (4_000,), 40, 2, cycle_far),
        Family("cycle-sides", 56, "a cycle of n boxes, each fed by a box of a clashing pair, a tool into box 0; "
               "agent k fed by box k, with the tool's twin", (4_000,), 40, 1, cycle_sides),
        Family("decoy-teams", 57, "family 45 with every team box also feeding the same 40 boxes of a clashing pair "
               "each, all into one more agent", (4_000,), 160, 1, decoy_teams),
        Family("shared-cut", 58, "family 45 with a box of a clashing pair wired to every agent, also feeding 40 "
               "boxes of a clashing pair each, all into one more agent", (4_000,), 160, 1, shared_cut),
        Family("ring-parts", 59, "16 boxes in a ring of n // 16 rows of names, neighbours sharing a name in every "
               "row; n agents, each wired to a different 8 of the boxes", (4_000,), 160, 16, ring_parts),
        Family("deep-decoys", 60, "family 57 with each team box into the hub, and each decoy box into its agent, "
               "through a box of its own holding a clashing pair", (4_000,), 160, 1, deep_decoys),
        Family("two-way-cycle", 61, "family 55 with each box of the cycle also feeding the one before it", (4_000,),
               40, 3, two_way_cycle),
        Family("cycle-renames", 62, "family 55 with a box between each two boxes of the cycle; agent k's twin in a "
               "box also fed by the box before box k, through one more box", (2_000,), 40, 2, cycle_renames),
        Family("lattice-renames", 63, "a lattice of n levels of two boxes, each fed by both above, a tool atop; "
               "agent k fed by level k and, through two boxes, by the tool's twin, the first also fed by level k - 1",
               (2_000,), 40, 1, lattice_renames),
        Family("ring-three", 64, "family 59 with every name held by three neighbouring boxes", (2_000,), 160, 16,
               ring_three),
        Family("ring-pairs", 65, "family 59 with 20 boxes, each agent wired to a different 12 of them", (2_000,),
               200, 20, ring_pairs),
        Family("ring-wide", 66, "family 59 with 24 boxes, each agent wired to a different 18 of them", (2_000,),
               240, 24, ring_wide),
        Family("ring-own", 67, "family 59 with 24 tools of its own at every agent, named like names of the ring "
               "spread over its rows", (1_000,), 160, 16, ring_own),
        Family("lattice-ladder", 68, "a lattice of n levels of two boxes, each fed by both above, a tool atop; "
               "agent k fed by level k, with the tool's twin", (4_000,), 40, 1, lattice_ladder),
        Family("cycle-chained", 69, "family 55 with a box between each two boxes of the cycle", (2_000,), 40, 2,
               cycle_chained),
        Family("cycle-fed-sides", 70, "family 55 with each tool U i into its side box through a box of its own",
               (2_000,), 40, 2, cycle_fed_sides),
        Family("cycle-skip", 71, "family 55 with each box of the cycle also feeding the one two after it",
               (4_000,), 40, 3, cycle_skip),
        Family("cycle-fanout", 72, "family 55 with each tool U i also wired into 17 boxes that feed nothing",
               (1_000,), 40, 2, cycle_fanout),
        Family("ring-crowd", 73, "family 59 with 20 boxes, every name held by 17 neighbours, each agent wired to "
               "a different 10 of them", (1_000,), 200, 20, ring_crowd),
        Family("renames-hub", 74, "family 71 with family 62's twins, each in a box also fed by the box before box "
               "k; a hub fed by box 0 and 260 empty boxes into every agent", (1_000,), 40, 3,
               renames_hub),  # at 4,000 its check takes 213 ms, 15x large's time per byte (the renames search)
        Family("cycle-fan-paths", 75, "family 55 with each tool U i also wired into 17 boxes, each into one more "
               "agent", (1_000,), 40, 2, cycle_fan_paths),
        Family("ring-chained", 76, "family 61 with a box each way between each two boxes of the cycle", (4_000,),
               40, 2, ring_chained),
        Family("renames-fan-hub", 77, "family 62 with family 75's 17 boxes per tool into one more agent and family "
               "74's hub", (1_000,), 40, 2, renames_fan_hub),
        Family("renames-thrice", 78, "family 71 with family 62's twins for three agents per box, each fed by the box "
               "before box k; 260 boxes from each box of the cycle into one more agent, 260 into it from its side "
               "box", (50,), 10, 3,
               renames_thrice),  # 5.0 MB at 50: some 540 nodes and 1,060 edges per box of the cycle
        Family("renames-aside", 79, "family 71 with family 62's twins, each in a box also fed by the box before box "
               "k; 300 boxes into every agent, each fed by a box of its own fed by side box k", (50,), 10, 3,
               renames_aside),  # 4.6 MB at 50: some 600 boxes per agent
        Family("renames-twice", 80, "family 71 with two tools per side box and their twins in one box per agent, "
               "fed by the box before box k and by 260 boxes it feeds, each also into the agent", (50,), 10, 3,
               renames_twice),  # 3.5 MB at 50: some 260 boxes per agent
        Family("ring-direct", 81, "family 61 with each agent's twin wired straight into the agent, no box of its "
               "own", (4_000,), 40, 3, ring_direct),
        Family("cycle-wide-source", 82, "family 55 with each tool U i also wired into a box of its own, into 17 "
               "more agents", (2_000,), 40, 2, cycle_wide_source),
        Family("shared-chain", 83, "family 71 with every box of the cycle into a chain of 300 boxes into every "
               "agent, no box k into agent k; agent k's twin in a box also fed by the box before box k, through 300 "
               "boxes of its own", (100,), 10, 3, shared_chain),  # 3.6 MB at 100: some 300 boxes per agent
        Family("near-roots", 84, "n tools into a box atop a lattice of n levels of two boxes, each fed by both "
               "above; agent i fed by a root of a private lattice of 18 levels below tool i and of 8 roots, each fed "
               "by the lattice's bottom and by tool i through two boxes; its twin through two boxes, the first also "
               "fed by the bottom", (400,), 10, 1, near_roots),
        Family("cycle-top", 85, "family 84 with one tool into a cycle of two boxes atop the lattice, one root "
               "below it per agent, the tool's twin at every agent", (500,), 10, 1, cycle_top),
        Family("skip-one-fed-side", 86, "family 71 with tool U 0 alone into its side box through a box of its own",
               (4_000,), 40, 3, skip_one_fed_side),
        Family("ring-one-fed-side", 87, "family 61 with tool U 0 alone into its side box through a box of its own",
               (4_000,), 40, 3, ring_one_fed_side),
        Family("skip-fanned-fed-side", 88, "family 86 with each tool U i also wired into 17 boxes, each into "
               "one more agent Z", (1_000,), 40, 3, skip_fanned_fed_side),
        Family("ring-fanned-fed-side", 89, "family 87 with each tool U i also wired into 17 boxes, each into "
               "one more agent Z", (1_000,), 40, 3, ring_fanned_fed_side),
        Family("fed-sides-fanned", 90, "family 70 with each tool U i also wired into 17 boxes, each into one "
               "more agent Z", (1_000,), 40, 3, fed_sides_fanned),
        Family("sources-one-tool", 91, "family 61 with each box of the cycle fed down a box below its side box, "
               "one tool U into every side box, agent k's twin of U", (4_000,), 40, 3,
               sources_one_tool),
        Family("rings-one-tool", 92, "n rings of 6 boxes, three of each fed down a box below a side box, one tool "
               "U into every side box, one agent below each ring with a twin of U", (2_000,), 40, 1,
               rings_one_tool),
        Family("ring-wide-sources", 93, "family 91 with a tool U i per box of the cycle, into the side boxes "
               "i to i + 16, agent k's twin of U (k + n / 2)", (2_000,), 40, 3, ring_wide_sources),
        Family("skip-many-fed-sides", 94, "family 71 with 18 boxes below every eighth side box S i, box j into "
               "box i + j of the cycle, box 0 for S i's own edge", (4_000,), 40, 3, skip_many_fed_sides),
        Family("ring-many-fed-sides", 95, "family 61 with 18 boxes below every eighth side box S i, box j into "
               "box i + j of the cycle, box 0 for S i's own edge", (4_000,), 40, 3, ring_many_fed_sides),
        Family("skip-many-fed-sides-fanned", 96, "family 94 with each tool U i also wired into 17 boxes, each into "
               "one more agent Z", (1_000,), 40, 3, skip_many_fed_sides_fanned),
        Family("ring-many-fed-sides-fanned", 97, "family 95 with each tool U i also wired into 17 boxes, each into "
               "one more agent Z", (1_000,), 40, 3, ring_many_fed_sides_fanned),
        Family("ring-many-tops", 98, "a ring of n boxes, a source per 8 above a box above 17 boxes into boxes 8 j "
               "to 8 j + 16 of the ring; tool U j into sources j to j + 16; agent k's twin of U ((k + n / 2) / 8)",
               (4_000,), 136, 8, ring_many_tops),
        Family("ring-wide-tools", 99, "family 61 with a box W i per member, into box i + 1 of the cycle and 17 "
               "more agents Y; tool U i also into boxes W i to W (i + 16)", (1_000,), 40, 3, ring_wide_tools),
        Family("cycle-wide-tools", 100, "family 55 with a box W i per member, into box i + 1 of the cycle and 17 "
               "more agents Y; tool U i also into boxes W i to W (i + 16)", (1_000,), 40, 3, cycle_wide_tools),
        Family("skip-wide-tools", 101, "family 71 with a box W i per member, into box i + 1 of the cycle and 17 "
               "more agents Y; tool U i also into boxes W i to W (i + 16)", (1_000,), 40, 3, skip_wide_tools),
        Family("chain-tops", 102, "a ring of max(6, n + 2) boxes; a source S above a chain of 2 n + 17 boxes into "
               "box 0 and n boxes into the others, listed first; tool U into S and the chain; an agent with U's twin",
               (6_000,), 40, 1, chain_tops),
        Family("nested-tops", 103, "a chain of n + 17 boxes below a source, its last into a box F into a box of each "
               "of n rings of 6; tool U into the chain; an agent per ring with U's twin", (2_500,), 40, 1,
               nested_tops),
        Family("wide-cycles", 104, "n rings of 6, a box Z into a box of each; n boxes X i, each into the same 17 "
               "agents; tool U into Z and every X i; an agent per ring with U's twin", (1_500,), 40, 1, wide_cycles),
        Family("ring-edge-missing", 105, "family 61 without the edge from box 1 of the cycle to box 0", (4_000,),
               40, 3, ring_edge_missing),
        Family("cycle-ties", 106, "family 55 with each tool U i also wired into box i - 1 of the cycle",
               (4_000,), 40, 3, cycle_ties),
        Family("cycle-side-ties", 107, "family 55 with each tool U i also wired into side box S (i + 1), which also "
               "feeds box i + 2 of the cycle through a box of its own", (4_000,), 40, 3, cycle_side_ties),
        Family("cycle-tops-tied", 108, "family 55 with each side box S i also feeding box i + 1 of the cycle "
               "through a box of its own; tool U i also into S (i + 1) to S (i + 16) and box i - 1", (2_000,), 40, 3,
               cycle_tops_tied),
        Family("ring-chained-edge-missing", 109, "family 76 without the box from box 1 of the cycle back to box 0",
               (4_000,), 40, 3, ring_chained_edge_missing),
        Family("long-box-label", 110, "one agent; n tools labelled X in a box whose label is 100 n characters, one "
               "more X in a box of its own", (16_000,), 100, 1, long_box_label),
        Family("ring-split", 111, "family 61 with every box b split in two in series, b -> b~, b~ feeding all b "
               "fed", (4_000,), 40, 3, ring_split),
        Family("ring-chained-split", 112, "family 76 with every box b split in two in series, b -> b~, b~ feeding "
               "all b fed", (3_000,), 40, 3, ring_chained_split),
        Family("ring-edge-missing-split", 113, "family 105 with every box b split in two in series, b -> b~, b~ "
               "feeding all b fed", (4_000,), 40, 3, ring_edge_missing_split),
        Family("skip-split", 114, "family 71 with every box b split in two in series, b -> b~, b~ feeding all b "
               "fed", (4_000,), 40, 3, skip_split),
        Family("renames-hub-chained", 115, "family 74 with a box of its own on every edge from a box to a box",
               (3_000,), 40, 3, renames_hub_chained),
        Family("skip-wide-tools-split", 116, "family 101 with every box b split in two in series, b -> b~, b~ "
               "feeding all b fed", (1_000,), 40, 3, skip_wide_tools_split),
        Family("lattice-wide-tools", 117, "n clashing pairs, each tool into both boxes of the top level of family "
               "68's lattice of n levels (the bottom level into one agent) and into 16 boxes that feed nothing",
               (1_600,), 40, 1, lattice_wide_tools),
        Family("skip-split-into", 118, "family 114 with each tool U i wired into C i~, the box below its member, "
               "instead of S i", (4_000,), 40, 3, skip_split_into),
        Family("cycle-twins", 119, "family 55 with every box b twinned, b^ fed by b's providers and feeding b's "
               "receivers, twins feeding twins", (3_000,), 40, 2, cycle_twins),
        Family("ring-twins", 120, "family 61 with every box b twinned, b^ fed by b's providers and feeding b's "
               "receivers, twins feeding twins", (2_500,), 40, 3, ring_twins),
        Family("skip-twins", 121, "family 71 with every box b twinned, b^ fed by b's providers and feeding b's "
               "receivers, twins feeding twins", (2_500,), 40, 3, skip_twins),
        Family("ring-near-twins", 122, "family 120 with every twin b^ also into an agent of its own",
               (2_500,), 40, 3, ring_near_twins),
    )
}  # fmt: skip
"""The families, by name, in the issue's order, then those found since (numbered from 9 on)."""


@dataclass(frozen=True)
class FormatMeasurement:
    """Family 8 of the issue: ``toolwire check --format F`` (default options)
    on another family's workflow, timed and its peak memory measured."""

    number: int
    family: str
    size: int
    small: int
    formats: Tuple[str, ...]
    seconds_target: float
    rss_target: int
    """Bytes."""


FORMAT_MEASUREMENT = FormatMeasurement(
    number=8,
    family="private-roots-box",
    size=2_000,  # 2,000,000 violations in 1,000 clashes
    small=40,  # 800 violations in 20 clashes
    formats=("text", "json", "sarif", "github", "junit"),
    seconds_target=10.0,
    rss_target=400_000_000,
)
