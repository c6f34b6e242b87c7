"""CMP-9 on the worst-case families of issue "Every shape costs what its
file costs" (``toolwire.generate.families``): toolwire reports exactly what
each family's construction says, the pure-Python reference agrees on every
detail at a tiny size (which keeps the constructions' arithmetic honest
too), and the work of a check, counted by the core in basic steps, at most
doubles (2.3x, for rounding and fixed costs) when the family's size does.

The work counters (``report.violations._core.work``, read by
``support.work_done``) are deterministic, so the doubling tests hold on any
machine, under any load, without timing anything."""

from __future__ import annotations

import functools
import json
import math
import random
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolwire
import toolwire.cli
from toolwire import reference
from toolwire._formats import DEFAULT_MAX_CONSUMERS
from toolwire.generate import FAMILIES, FORMAT_MEASUREMENT
from toolwire.generate.family_base import Generated
from toolwire.generate.family_subsets import subset_boxes
from support import without_places, work_done

NAMES = list(FAMILIES)

# A size at which the pure-Python reference checks in milliseconds, yet
# every part of the construction is there (distinct-subsets: two pairs a box).
TINY = {
    "private-roots-chain": 6,
    "private-roots-box": 8,
    "private-roots-few": 6,
    "distinct-subsets": 62,
    "hub-pair": 6,
    "long-ids": 6,
    "many-small-boxes": 8,
    "roaming-ring": 4,
    "subsets-interleaved": 62,
    "giant-chain": 70,  # a giant: more than 64 groups
    "deep-roots": 5,
    "chain-of-pairs": 5,
    "one-box-wide": 6,
    "far-consumers": 4,
    "forked-roots": 5,
    "hub-tool": 6,
    "entry-walk": 5,
    "subsets-shared": 62,
    "parts-chain": 4,
    "parts-fan": 4,
    "pair-parts": 7,
    "giant-taps": 70,
    "solo-union": 4,
    "solo-dozen": 3,
    "solo-cap": 4,
    "root-ladder": 5,
    "wide-roots": 3,
    "far-eleventh": 4,
    "twin-carriers": 3,
    "solo-boxes": 4,
    "entry-fan": 4,
    "orphan-parts": 4,
    "nine-roots": 11,  # an agent below every root
    "rung-ladders": 3,
    "distinct-sides": 3,
    "held-bases": 4,
    "crowded-ladders": 3,
    "split-chains": 3,
    "ladder-taps": 20,
    "evicted-ladders": 20,
    "wide-thrash": 20,
    "wide-splits": 6,
    "wider-splits": 4,
    "hub-teams": 64,
    "hub-taps": 48,
    "hub-direct": 48,
    "tied-taps": 6,
    "dozen-own": 8,
    "shared-word": 12,
    "linked-boxes": 12,
    "parts-read": 32,
    "hub-shared": 48,
    "diamond-ladder": 5,
    "cycle-far": 6,
    "cycle-sides": 5,
    "decoy-teams": 64,
    "shared-cut": 64,
    "ring-parts": 48,
    "deep-decoys": 64,
    "two-way-cycle": 6,
    "cycle-renames": 6,
    "lattice-renames": 5,
    "ring-three": 48,
    "ring-pairs": 60,
    "ring-wide": 72,
    "ring-own": 48,
    "lattice-ladder": 5,
    "cycle-chained": 6,
    "cycle-fed-sides": 6,
    "cycle-skip": 6,
    "cycle-fanout": 6,
    "ring-crowd": 40,
    "renames-hub": 6,
    "cycle-fan-paths": 6,
    "ring-chained": 6,
    "renames-fan-hub": 6,
    "renames-thrice": 6,
    "renames-aside": 6,
    "renames-twice": 6,
    "ring-direct": 6,
    "cycle-wide-source": 6,
    "shared-chain": 6,
    "near-roots": 3,
    "cycle-top": 3,
    "skip-one-fed-side": 6,
    "ring-one-fed-side": 6,
    "skip-fanned-fed-side": 6,
    "ring-fanned-fed-side": 6,
    "fed-sides-fanned": 6,
    "sources-one-tool": 6,
    "rings-one-tool": 3,
    "ring-wide-sources": 20,  # past 17, each tool into 17 distinct side boxes
    "skip-many-fed-sides": 24,  # past 18: three sources, their 18 fed sides into distinct members
    "ring-many-fed-sides": 24,
    "skip-many-fed-sides-fanned": 24,
    "ring-many-fed-sides-fanned": 24,
    "ring-many-tops": 136,  # 17 tops, each tool into 17 of them
    "ring-wide-tools": 20,  # past 17, each tool into 17 distinct boxes W
    "cycle-wide-tools": 20,
    "skip-wide-tools": 20,
    "chain-tops": 6,  # 29 tops, 6 sides: more tops than sides
    "nested-tops": 3,
    "wide-cycles": 17,  # past 16, U's receivers more than FEW_RECEIVERS
    "ring-edge-missing": 6,
    "cycle-ties": 6,
    "cycle-side-ties": 6,
    "cycle-tops-tied": 20,  # past 17, each tool into 17 distinct sources
    "ring-chained-edge-missing": 6,
    "long-box-label": 6,
    "ring-split": 6,
    "ring-chained-split": 6,
    "ring-edge-missing-split": 6,
    "skip-split": 6,
    "renames-hub-chained": 6,
    "skip-wide-tools-split": 20,  # past 17, as skip-wide-tools
    "lattice-wide-tools": 20,  # 38 roots below the top level: past a tool's 32 nested searches
    "skip-split-into": 6,
    "cycle-twins": 6,
    "ring-twins": 6,
    "skip-twins": 6,
    "ring-near-twins": 6,
}

# The doubling tests' n (and 2n): files of a few hundred KB at n, so that
# a check's fixed costs do not hide how its work grows.
DOUBLING = {
    "private-roots-chain": 1_000,  # 0.3 MB
    "private-roots-box": 1_000,  # 0.3 MB; 500,000 violations, 2,000,000 at 2n
    "private-roots-few": 600,  # 0.3 MB
    "distinct-subsets": 496,  # 0.3 MB; 16 pairs a box, 32 at 2n
    "hub-pair": 750,  # 0.3 MB
    "long-ids": 700,  # 0.2 MB
    "many-small-boxes": 1_200,  # 0.3 MB
    "roaming-ring": 800,  # 0.3 MB
    "subsets-interleaved": 496,  # 0.3 MB, as distinct-subsets
    "giant-chain": 1_500,  # 0.35 MB
    "deep-roots": 600,  # 0.3 MB
    "chain-of-pairs": 800,  # 0.3 MB
    "one-box-wide": 2_400,  # 0.3 MB
    "far-consumers": 1_200,  # 0.6 MB (at 600 the tries deepen a level on doubling)
    "forked-roots": 500,  # 0.3 MB
    "hub-tool": 700,  # 0.3 MB
    "entry-walk": 200,  # 0.33 MB
    "subsets-shared": 1_984,  # 1.2 MB (at 496 the sets' fixed costs still show; from 992 to 1,984 the tries deepen a level)
    "parts-chain": 125,  # 0.65 MB
    "parts-fan": 250,  # 1.3 MB (below, the per-agent union tried within its budget hides the growth)
    "pair-parts": 2_000,  # 1.5 MB (work grows as k ** 3 from a file of k ** 2: 2.8x at most)
    "giant-taps": 400,  # 0.13 MB (reading reads n * n / 2 tools: small keeps it quick)
    "solo-union": 1_000,  # 0.56 MB (the boxes meet at n / 32 words: more than 8 from n = 257 on; from 500 to 1,000 the tries deepen a level)
    "solo-dozen": 500,  # 2.2 MB
    "solo-cap": 4_000,  # 6 MB (below, the clashes' renames hide the growth; from 2,000 to 4,000 the tries deepen a level)
    "root-ladder": 250,  # 0.12 MB (its paths cross n * n / 2 roots: small keeps it quick)
    "wide-roots": 250,  # 0.67 MB (its paths cross n * 10 * n boxes: small keeps it quick)
    "far-eleventh": 1_000,  # 1.2 MB
    "twin-carriers": 250,  # 0.38 MB (its paths cross n * 10 * n boxes: small keeps it quick)
    "solo-boxes": 500,  # 0.4 MB (the boxes meet at n / 32 words, as in solo-union)
    "entry-fan": 1_000,  # 0.7 MB
    "orphan-parts": 500,  # 2.5 MB (below, the per-agent union is small beside the file)
    "nine-roots": 200,  # 0.27 MB (its paths cross n * 10 * n boxes: small keeps it quick)
    "rung-ladders": 200,  # 0.9 MB (its paths cross n * 10 * n boxes: small keeps it quick)
    "distinct-sides": 200,  # 0.54 MB (its paths cross n * 10 * n boxes: small keeps it quick)
    "held-bases": 1_000,  # 0.87 MB (unions of inputs held whole, n * n / 64 words, would show from 1,000 on)
    "crowded-ladders": 200,  # 1 MB (its paths cross n * 10 * n boxes: small keeps it quick)
    "split-chains": 200,  # 0.2 MB (its paths cross n * 20 * n boxes: small keeps it quick)
    "ladder-taps": 500,  # 0.2 MB (its paths climb n * n / 2 roots, each laid on the one above)
    "evicted-ladders": 300,  # 0.37 MB
    "wide-thrash": 600,  # 0.73 MB
    "wide-splits": 100,  # 0.6 MB (its agents' trees would cross n * 33 * n boxes: small keeps it quick)
    "wider-splits": 50,  # 0.6 MB (its agents' trees would cross n * 65 * n boxes: small keeps it quick)
    "hub-teams": 1_000,  # 0.82 MB (63 team boxes into the hub, more than a walk reads)
    "hub-taps": 1_000,  # 0.86 MB
    "hub-direct": 1_000,  # 0.86 MB
    "tied-taps": 500,  # 0.57 MB
    "dozen-own": 400,  # 0.9 MB
    "shared-word": 400,  # 0.9 MB
    "linked-boxes": 500,  # 0.9 MB
    "parts-read": 1_280,  # 1.1 MB
    "hub-shared": 2_000,  # 1.9 MB (below, the agents whose team box the walk up finds hide the growth)
    "diamond-ladder": 1_000,  # 1.2 MB
    "cycle-far": 500,  # 0.34 MB
    "cycle-sides": 1_000,  # 0.72 MB (from 500 to 1,000 the tries deepen a level)
    "decoy-teams": 1_000,  # 1 MB (63 team boxes into the hub, each feeding 40 boxes)
    "shared-cut": 1_000,  # 0.91 MB
    "ring-parts": 2_000,  # 1.9 MB (below, the first classes to use each of the 120 pairs of boxes unite them)
    "deep-decoys": 2_000,  # 2.1 MB
    "two-way-cycle": 1_000,  # 0.76 MB
    "cycle-renames": 1_000,  # 0.98 MB
    "lattice-renames": 500,  # 0.44 MB (reading its paths reads n paths off a tree each, n / 2 levels long on average)
    "ring-three": 1_000,  # 1.1 MB
    "ring-pairs": 1_000,  # 1.2 MB
    "ring-wide": 1_000,  # 1.7 MB
    "ring-own": 1_000,  # 4.5 MB
    "lattice-ladder": 500,  # 0.3 MB (its paths were read off a tree each, n * n / 2 boxes, until session 30)
    "cycle-chained": 1_000,  # 0.8 MB
    "cycle-fed-sides": 250,  # 0.2 MB (its paths were read off a tree each, n * n / 2 boxes, until session 30)
    "cycle-skip": 250,  # 0.19 MB (as cycle-fed-sides, over trees whose ways cross, until session 30)
    "cycle-fanout": 1_000,  # 2.6 MB
    "ring-crowd": 250,  # 0.79 MB (its distinct clashes grow as n * n: small keeps it quick)
    "renames-hub": 250,  # 0.28 MB (its paths were read off a tree each, as cycle-skip's, until session 30)
    "cycle-fan-paths": 500,  # 1.9 MB
    "ring-chained": 1_000,  # 0.97 MB
    "renames-fan-hub": 250,  # 1.1 MB (as renames-hub)
    # Families 78 to 80 hold some 260 boxes per agent: the smallest n from
    # which the check grew more than 2.3x at every doubling before session
    # 29's fix (renames-twice: 2.4x from 25, 1.9x from 50).
    "renames-thrice": 25,  # 2.5 MB
    "renames-aside": 50,  # 4.6 MB
    # Twins (session 35) made each agent's 260 boxes one: listing then costs
    # about 100 to 160 steps a path, by where arcs are first asked round the
    # cycle (2.33x from 100, 1.40x from 150).
    "renames-twice": 150,  # 10.5 MB
    # Families 81 and 82: reading their clashes' paths grew 3.9x to 4.0x at
    # every doubling from 250 before session 29's fix to arcs.
    "ring-direct": 1_000,  # 0.65 MB (as two-way-cycle)
    "cycle-wide-source": 500,  # 1.0 MB
    # Family 83 holds some 300 boxes per agent: before session 30's fix the
    # check grew 2.4x from 50, 3.7x from 100, 4.3x from 200.
    "shared-chain": 100,  # 3.6 MB
    # Families 84 and 85: before session 30's race of warm-ups against the
    # root's tree, the check grew 3.9x (near-roots, from 100) and 2.6x
    # (cycle-top, from 125; 3.0x to 3.6x from 250), reading as much.
    "near-roots": 100,  # 1.3 MB
    "cycle-top": 125,  # 1.1 MB
    # Families 86 and 87: one fed side made the skip cycle, and the ring, no
    # arc, and every reading of their paths grew 5.1x and 5.3x (skip) and
    # 5.8x and 5.1x (ring) for twice n from 125 and 250 before session 31's
    # fix to arcs (the check 2.1x).
    "skip-one-fed-side": 250,  # 0.19 MB (as cycle-skip)
    "ring-one-fed-side": 250,  # 0.19 MB
    # Families 88 and 89: 86 and 87 with tools of 18 receivers, more than
    # FEW_RECEIVERS; every reading of their paths grew 4.3x (skip) and 4.4x
    # (ring) for twice n from 250, 6.1x and 4.8x from 125, before session
    # 31's fixes to arcs (the check 2.0x).
    "skip-fanned-fed-side": 250,  # 0.99 MB
    "ring-fanned-fed-side": 250,  # 0.99 MB
    # Family 90: 70 with the same fan; its five readings grew 3.4x to 3.9x
    # for twice n from 250 before session 31's fixes to arcs (the check
    # 2.0x).
    "fed-sides-fanned": 250,  # 1.0 MB
    # Families 91 to 93, from session 31's attack: one tool into every
    # source of a ring's fed sides (91) or of n rings' (92), each tool into
    # 17 of them (93). Reading 91's violations grew 4.3x for twice n, and
    # 92's 3.9x, with the extension of 0a285c2 (its arcs tried every top
    # with fed sides below a tool for each path, and for each cycle); 93's
    # 4.8x before e440efb (no arc for a tool of many receivers into a ring
    # with fed sides). The check 2.0x throughout.
    "sources-one-tool": 500,  # 0.40 MB
    "rings-one-tool": 200,  # 0.48 MB
    "ring-wide-sources": 250,  # 0.52 MB
    # Families 94 to 98, from session 31's fifth attack: more than 16 fed
    # sides below one source (FEW_ENTRIES), of a skip cycle (94, 96) or a
    # ring (95, 97), with every tool of many receivers (96, 97), and a ring
    # of such tops under tools of 17 receivers (98). Their five readings
    # grew 4.8x, 5.4x, 6.9x, 6.0x and 4.9x for twice n (listing: 4.9x to
    # 7.1x) with the extension of 6b6fde2, before 8ea52e9 (each such top's
    # ways down read off trees); with main's 1.85x to 2.11x. The check 2.0x
    # to 2.1x throughout. 98 from 1,000: smaller rings read more, not less.
    "skip-many-fed-sides": 250,  # 0.30 MB
    "ring-many-fed-sides": 250,  # 0.30 MB
    "skip-many-fed-sides-fanned": 125,  # 0.55 MB
    "ring-many-fed-sides-fanned": 125,  # 0.55 MB
    "ring-many-tops": 1_000,  # 1.11 MB
    # Families 99 to 101, from session 32's attack: each tool also wired
    # into 17 boxes (FEW_RECEIVERS) of 18 receivers each (FEW_ENTRIES), one
    # a member of a ring (99), a cycle (100) or a skip cycle (101). Their
    # readings grew 5.1x, 4.2x and 6.3x for twice n (7.8x, 4.2x and 30.7x
    # from 100) with the extension of 8ea52e9, before 75d9723 (no arc for
    # such a tool: every path read off trees); with main's 2.00x, 2.02x and
    # 1.72x. The check 2.0x throughout.
    "ring-wide-tools": 200,  # 0.68 MB
    "cycle-wide-tools": 200,  # 0.67 MB
    "skip-wide-tools": 200,  # 0.68 MB
    # Families 102 to 105, from session 32's attack: one tool U above a
    # chain of tops beside n fed sides of a ring that the forest walk
    # enters after the chain (102), above n rings below one fed side
    # (103), or into n boxes of 17 receivers beside a box into n rings
    # (104); and family 61 with one edge of its ring missing (105). Their
    # readings grew 3.7x to 3.9x (102, 103) and 5.0x (105, 6.8x from 100)
    # with the extension of 6b6fde2, and 104's 3.9x to 4.0x with that of
    # 75d9723 (2.0x with 6b6fde2's: its tool had no arc), all before
    # 7631494 and 1423080; with main's 1.95x to 2.06x. The check 2.0x to
    # 2.2x throughout (105 as 61: ids a digit wider from 1,000).
    "chain-tops": 500,  # 0.37 MB
    "nested-tops": 250,  # 0.41 MB
    "wide-cycles": 200,  # 0.57 MB
    "ring-edge-missing": 250,  # 0.19 MB
    # Families 106 to 108, found in session 33: ways in as short into a
    # one-way cycle (family 55), each tool also wired straight into the
    # member before its own (106), into the next source, which also feeds
    # a member two on down a fed side (107), or, each source so fed, into
    # 17 sources and the member before (108). Their readings grew 3.93x,
    # 3.85x and 3.62x for twice n (listing: 3.68x to 4.04x) with the
    # extension of 5b95f18, before 264d57d (ties left to the search and
    # trees); with main's 2.02x, 2.04x and 2.14x (108's a log factor). The
    # check 2.0x to 2.2x throughout.
    "cycle-ties": 250,  # 0.19 MB
    "cycle-side-ties": 250,  # 0.24 MB
    "cycle-tops-tied": 250,  # 0.54 MB
    # Family 109, session 31's attack (`fed-ring-chained-almost`): family 76
    # with one box of its ring missing. Its reading grew 6.89x and 4.81x
    # for twice n from 100 (and 4.8x past 250) with the extension of
    # 5b95f18 (a ring with an edge missing and chains was no ring); with
    # main's 2.03x and 2.02x. The check 2.04x and 2.07x.
    "ring-chained-edge-missing": 250,  # 0.24 MB
    # Family 110, the attack of session 33 (its finding 1): renames
    # through a box of a label 100 n characters long composed the whole
    # label per tool, n x L (time 3.8x to 4.5x for twice n, uncounted until
    # then); the label cut to the cap first, and the characters counted,
    # 2.0x since (fixes.rs `cmp9_renames_through_a_box_of_a_long_label_...`
    # fails at 4x without the cut).
    "long-box-label": 1_000,  # 0.22 MB
    # Families 111 to 113, the attack of session 33 (its finding 7):
    # families 61, 76 and 105 with every box split in two in series, the
    # two chains below a member (on to the member after, back to the one
    # before) sharing their top box. Their readings grew 4.89x, 4.82x and
    # 4.69x for twice n (7.05x, 6.87x and 6.85x from 100; the violations'
    # listing and readings 4.31x to 4.89x) with the extension of 32da032,
    # before b61926a (no ring took such chains);
    # with main's 2.03x, 2.02x and 2.02x. The check 2.1x throughout.
    "ring-split": 250,  # 0.27 MB
    "ring-chained-split": 250,  # 0.38 MB
    "ring-edge-missing-split": 250,  # 0.27 MB
    # Families 114 to 116, the attack of session 33 (its findings 7 and
    # 9): skip cycles whose members are joined by chains of one box, no
    # skip cycle before 4355c2c. With the extension of 32da032, the split
    # cycle-skip read 4.94x for twice n (4.90x from 125), the split
    # skip-wide-tools 6.27x (5.56x from 100), the violations' listing and
    # readings alike, the check 2.0x to 2.1x; renames-hub with a box on
    # every edge between boxes grew 4.84x in the check itself (6.70x from
    # 125), its readings alike. With 9294646's the readings 2.03x and
    # 2.16x, the check 2.06x.
    "skip-split": 250,  # 0.27 MB
    "renames-hub-chained": 250,  # 0.46 MB
    "skip-wide-tools-split": 200,  # 0.77 MB
    # Family 117, the attack of session 33 (its finding 11): n clashing
    # pairs into the top of family 68's lattice, each tool also into 16
    # boxes that feed nothing (18 receivers, more than FEW_RECEIVERS).
    # With the extension of 9294646, before 5cec48c (no warm-up for such a
    # tool), the check grew 3.94x to 4.02x for twice n from 100 (628
    # million steps at 800), its readings alike; with 5cec48c's 2.17x from
    # 400 and 2.20x from 800, but 2.75x to 2.86x below 400 (the tied
    # lattice's 32 nested searches per tool, a constant that dominates at
    # small n): 400 is the smallest size that holds. The work climbs in
    # steps (2.2x to 2.9x from sizes between 250 and 700; 2.50x from
    # 1,600, 2.39x from 3,200).
    "lattice-wide-tools": 400,  # 1.26 MB
    # Family 118, the attack of session 34 (its finding A): skip-split
    # with each tool into the box below its member, a box of the skip
    # cycle's chains (no arc of the cycle for such a tool before faa6797).
    # With the extension of 5cec48c the readings grew 9.07x for twice n
    # from 125, 5.20x from 250, 5.43x from 500 (83 million steps at
    # 1,000), the violations' listing alike, the check 2.0x to 2.1x; with
    # faa6797's 2.0x.
    "skip-split-into": 250,  # 0.27 MB
    # Families 119 to 121, the attack of session 33 (its transform para):
    # families 55, 61 and 71 with every box twinned, a box of the same
    # providers and receivers beside it, ties at every step of every way.
    # With the extension of 0da06fe, before 8da7c4e (twins vanish from
    # what paths read), the readings grew 4.83x, 4.53x and 5.49x for
    # twice n (5.30x, 6.35x and 9.13x from 125; 650 million steps for
    # ring-twins at 500), the violations' listing and readings alike, the
    # check 2.0x; with 8da7c4e's 2.0x.
    "cycle-twins": 250,  # 0.39 MB
    "ring-twins": 250,  # 0.46 MB
    "skip-twins": 250,  # 0.46 MB
    # Family 122, the attack of session 35 (its transform near): family
    # 120 with every twin also into an agent of its own. With the
    # extension of c8fe2ad, before near twins were cut (session 36), the
    # reading grew 6.32x and 4.54x for twice n from 125 (648 million
    # steps at 500), the check 2.0x; 2.0x since.
    "ring-near-twins": 250,  # 0.54 MB
}

GROWTH = 2.3
"""The most the work may grow when the size doubles: twice, and a margin for
integer sizes (n // 2 pairs, n // 31) and fixed costs."""


def test_every_family_has_its_sizes() -> None:
    assert set(TINY) == set(DOUBLING) == set(FAMILIES)
    # The issue's seven, then those found since, from 9 on (8 is the formats').
    assert [f.number for f in FAMILIES.values()] == list(range(1, 8)) + list(range(9, len(FAMILIES) + 2))


@functools.lru_cache(maxsize=None)
def built(name: str, n: int) -> Generated:
    return FAMILIES[name].build(n)


Found = Tuple[str, str, Tuple[str, ...]]


def found(violation: toolwire.Violation) -> Found:
    return violation.consumer or "", violation.name or "", tuple(t.id for t in violation.tools)


def check_json(data: bytes, tmp_path: Path) -> toolwire.Report:
    return toolwire.check_json(data)


def check_file(data: bytes, tmp_path: Path) -> toolwire.Report:
    path = tmp_path / "family.json"
    path.write_bytes(data)
    return toolwire.check_file(path)


ENTRY_POINTS: Dict[str, Callable[[bytes, Path], toolwire.Report]] = {
    "check_json": check_json,
    "check_file": check_file,
}


# -- the answers -------------------------------------------------------------------


@pytest.mark.parametrize("family", NAMES)
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_cmp9_family_violations_and_first_as_constructed(tmp_path: Path, entry: str, family: str) -> None:
    n = FAMILIES[family].small
    data, expected = built(family, n)
    report = ENTRY_POINTS[entry](data, tmp_path)
    assert len(report.violations) == expected.violations
    assert found(report.violations[0]) == expected.first
    assert report.stats is not None and report.stats.to_dict() == expected.stats()


@pytest.mark.parametrize("family", NAMES)
@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_cmp9_family_distinct_clashes_as_constructed(tmp_path: Path, entry: str, family: str) -> None:
    # One group per distinct clash (a name and the tools sharing it),
    # however many consumers see it, and whatever private box each comes
    # through.
    data, expected = built(family, FAMILIES[family].small)
    report = ENTRY_POINTS[entry](data, tmp_path)
    groups = len(list(report.clash_groups()))
    assert groups == expected.clashes, f"{groups} clash groups for {expected.clashes} distinct clashes"


def distinct_clashes(violations: List[toolwire.Violation]) -> int:
    return len({(v.name, tuple(t.id for t in v.tools)) for v in violations if v.rule == "CMP-9"})


@pytest.mark.parametrize("family", NAMES)
def test_cmp9_family_tiny_report_equals_the_reference(family: str) -> None:
    data, expected = built(family, TINY[family])
    ours = toolwire.check_json(data)
    theirs = reference.check(json.loads(data))
    assert without_places(ours) == without_places(theirs)
    # The reference lists every violation: the construction's arithmetic
    # is checked against it, clashes included.
    listed = list(theirs.violations)
    assert len(listed) == expected.violations
    assert found(listed[0]) == expected.first
    assert distinct_clashes(listed) == expected.clashes
    assert theirs.stats is not None and theirs.stats.to_dict() == expected.stats()


# Ladders past the free passes and roots whose providers' paths compete: the
# families whose paths are laid on paths remembered up to a root (paths.rs
# ``Paths::above``), at sizes whose paths climb more roots than are passed
# on for free.
REMEMBERED_PATHS = {
    "ladder-taps": 60,
    "root-ladder": 40,
    "evicted-ladders": 40,
    "rung-ladders": 4,
    "crowded-ladders": 4,
    "nine-roots": 20,
    "split-chains": 4,
    "wide-splits": 8,
    "wider-splits": 12,  # more agents, each read off its own tree, than trees are kept
}


def paths_by_violation(
    report: toolwire.Report, order: Sequence[int], tools_first: bool = False
) -> Dict[Tuple[str, str], List[Tuple[str, List[str]]]]:
    violations = report.violations
    found = [(violations[i], violations[i].tools) for i in order]  # paths not read yet
    read = {}
    for v, tools in found if tools_first else ((violations[i], None) for i in order):
        read[(v.consumer or "", v.name or "")] = [(t.id, list(t.path)) for t in (tools or v.tools)]
    return read


@pytest.mark.parametrize("order", ["forwards", "backwards", "shuffled", "tools-first"])
@pytest.mark.parametrize("family", list(REMEMBERED_PATHS))
def test_cmp9_paths_read_in_any_order_are_the_references(family: str, order: str) -> None:
    # A path passed on at a root is laid on the path remembered up to that
    # root by whichever consumer was read first: every order must give
    # every path the reference gives.
    data, _ = built(family, REMEMBERED_PATHS[family])
    theirs = reference.check(json.loads(data))
    ours = toolwire.check_json(data)
    count = len(ours.violations)
    assert count == len(theirs.violations)
    indices = list(range(count))
    if order == "backwards":
        indices.reverse()
    elif order == "shuffled":
        indices = [i * 7919 % count for i in range(count)] if count % 7919 else indices[::-1]
    assert sorted(indices) == list(range(count))
    # tools-first: every violation's tools taken, then their paths read, by
    # when trees they were read off may have been made again.
    read = paths_by_violation(ours, indices, tools_first=order == "tools-first")
    assert read == paths_by_violation(theirs, range(count))


@st.composite
def layered_boxes(draw: st.DrawFn) -> str:
    """Boxes in layers, each fed by up to three earlier ones (so many are
    path roots, some reached along several routes), tools of four names
    into random boxes, and agents each fed by one to three boxes."""
    boxes = draw(st.integers(2, 30))
    edges: List[Dict[str, object]] = []

    def wire(source: str, target: str) -> None:
        edges.append({"source": source, "target": target, "data": {"edgeType": "tool_availability"}})

    nodes: List[Dict[str, object]] = [{"id": f"b{i:02}", "type": "toolbox"} for i in range(boxes)]
    for i in range(1, boxes):
        for p in sorted(set(draw(st.lists(st.integers(0, i - 1), max_size=3)))):
            wire(f"b{p:02}", f"b{i:02}")
    for t in range(draw(st.integers(2, 12))):
        nodes.append({"id": f"t{t:02}", "type": "tool", "data": {"label": "ABCD"[draw(st.integers(0, 3))]}})
        for b in sorted(set(draw(st.lists(st.integers(0, boxes - 1), min_size=1, max_size=2)))):
            wire(f"t{t:02}", f"b{b:02}")
    for a in range(draw(st.integers(1, 12))):
        nodes.append({"id": f"a{a:02}", "type": "agent"})
        for b in sorted(set(draw(st.lists(st.integers(0, boxes - 1), min_size=1, max_size=3)))):
            wire(f"b{b:02}", f"a{a:02}")
    return json.dumps({"nodes": nodes, "edges": edges})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=layered_boxes(), seed=st.integers(0, 10**6))
def test_cmp9_paths_read_in_any_order_are_the_references_on_layered_boxes(data: str, seed: int) -> None:
    # Paths laid on paths remembered up to a root, and searches among a
    # root's carrying providers, whatever order the violations are read in.
    theirs = reference.check(json.loads(data))
    ours = toolwire.check_json(data)
    count = len(ours.violations)
    assert count == len(theirs.violations)
    indices = sorted(range(count), key=lambda i: (i * 2654435761 + seed) % 4294967291)
    assert paths_by_violation(ours, indices, tools_first=seed % 2 == 0) == paths_by_violation(theirs, range(count))


def split_rungs(rungs: int) -> str:
    """A ladder of ``rungs`` boxes ``r{i}``, each fed by the one above, by
    a box ``s{i}`` fed by the one above alone, and by a box ``Q`` of a
    clashing pair; a tool ``t`` "Key" into the top rung; agent ``a{i}`` fed
    by rung ``i`` alone, with its tool ``e{i}`` "key". Every rung is a root
    two of whose providers bring ``t`` from different boxes above, equally
    near: each agent's path is found by comparing two paths up the whole
    ladder."""
    nodes: List[Dict[str, object]] = [
        {"id": "t", "type": "tool", "data": {"label": "Key"}},
        {"id": "Q", "type": "toolbox"},
        {"id": "k0", "type": "tool", "data": {"label": "Q k"}},
        {"id": "k1", "type": "tool", "data": {"label": "q-k"}},
    ]
    edges: List[Dict[str, object]] = []

    def wire(source: str, target: str) -> None:
        edges.append({"source": source, "target": target, "data": {"edgeType": "tool_availability"}})

    wire("k0", "Q")
    wire("k1", "Q")
    wire("t", "r0000")
    for i in range(rungs):
        nodes.append({"id": f"r{i:04}", "type": "toolbox"})
        if i:
            nodes.append({"id": f"s{i:04}", "type": "toolbox"})
            wire(f"r{i - 1:04}", f"s{i:04}")
            wire(f"r{i - 1:04}", f"r{i:04}")
            wire(f"s{i:04}", f"r{i:04}")
        wire("Q", f"r{i:04}")
        nodes += [{"id": f"a{i:04}", "type": "agent"}, {"id": f"e{i:04}", "type": "tool", "data": {"label": "key"}}]
        wire(f"r{i:04}", f"a{i:04}")
        wire(f"e{i:04}", f"a{i:04}")
    return json.dumps({"nodes": nodes, "edges": edges})


def test_cmp9_paths_below_split_rungs_are_the_references_and_cost_their_number() -> None:
    # Before paths were laid on paths remembered up to a root, reading
    # these grew 4x for twice the rungs (a search at every rung, each
    # finding both paths up the ladder anew).
    data = split_rungs(30)
    ours, theirs = toolwire.check_json(data), reference.check(json.loads(data))
    assert len(ours.violations) == len(theirs.violations) == 60  # key and q_k at each agent
    assert paths_by_violation(ours, range(60)) == paths_by_violation(theirs, range(60))

    def reading(rungs: int) -> int:
        report = toolwire.check_json(split_rungs(rungs))
        before = work_done(report)
        violations = report.violations
        read_as_formats_do([t for i in range(len(violations)) for t in violations[i].tools])
        return work_done(report) - before

    once, twice = reading(400), reading(800)
    assert twice <= GROWTH * once, f"{twice / once:.2f}x the work for twice the rungs"


def crowded_ladder(rungs: int, tools: int) -> str:
    """A ladder of ``rungs`` boxes, each fed by the one above and by a box
    ``Q`` of a clashing pair; ``tools`` tools ``t{j}`` "Key j" into the top
    rung; agent ``a{i}`` fed by rung ``i`` alone, with a twin ``e{i}-{j}``
    "key-j" of every tool."""
    nodes: List[Dict[str, object]] = [{"id": "Q", "type": "toolbox"}]
    edges: List[Dict[str, object]] = []

    def wire(source: str, target: str) -> None:
        edges.append({"source": source, "target": target, "data": {"edgeType": "tool_availability"}})

    for k, label in (("k0", "Q k"), ("k1", "q-k")):
        nodes.append({"id": k, "type": "tool", "data": {"label": label}})
        wire(k, "Q")
    for j in range(tools):
        nodes.append({"id": f"t{j:02}", "type": "tool", "data": {"label": f"Key {j}"}})
        wire(f"t{j:02}", "r0000")
    for i in range(rungs):
        nodes += [{"id": f"r{i:04}", "type": "toolbox"}, {"id": f"a{i:04}", "type": "agent"}]
        wire("Q", f"r{i:04}")
        if i:
            wire(f"r{i - 1:04}", f"r{i:04}")
        wire(f"r{i:04}", f"a{i:04}")
        for j in range(tools):
            nodes.append({"id": f"e{i:04}-{j:02}", "type": "tool", "data": {"label": f"key-{j}"}})
            wire(f"e{i:04}-{j:02}", f"a{i:04}")
    return json.dumps({"nodes": nodes, "edges": edges})


def test_cmp9_paths_up_a_ladder_stay_right_when_what_is_remembered_is_forgotten() -> None:
    # 24 tools climbing 600 roots: more paths up to a root than are
    # remembered (paths.rs REMEMBERED_PER_NODE), so they are forgotten
    # several times over while the paths are read, in an order that jumps
    # about the ladder; every path is still the ladder down to its agent.
    rungs, tools = 600, 24
    report = toolwire.check_json(crowded_ladder(rungs, tools))
    violations = report.violations
    assert len(violations) == rungs * (tools + 1)
    for i in (v * 7919 % len(violations) for v in range(len(violations))):
        v = violations[i]
        agent = int((v.consumer or "")[1:])
        for t in v.tools:
            if t.id.startswith("t"):
                assert list(t.path) == [t.id] + [f"r{r:04}" for r in range(agent + 1)] + [v.consumer]


# -- the work of a check, as the size doubles ----------------------------------------


def check_work(family: str, n: int) -> Tuple[int, int]:
    """The check's work, and the size the cost model bounds it by: the
    input's nodes and edges, and the distinct clashes' tools (each clash
    once, however many consumers see it)."""
    data, expected = built(family, n)
    report = toolwire.check_json(data)
    work = work_done(report)  # first: the counts accumulate as the report is read
    assert len(report.violations) == expected.violations and report.stats is not None
    clashed_tools = sum(len(group.first.tools) for group in report.clash_groups())
    return work, report.stats.nodes + report.stats.edges + clashed_tools


def allowed_growth(size_once: int, size_twice: int) -> float:
    """GROWTH, for a family whose size (what the cost model bounds the work
    by) doubles with n; in proportion, for one whose distinct clashes grow
    faster than its file (a clash of i tools at each of n consumers: the
    report itself lists n * n / 2 tools)."""
    return GROWTH * max(1.0, size_twice / size_once / 2)


Measure = Callable[[str, int], Tuple[int, int]]


def assert_doubling(family: str, what: str, measure: Measure, n: Optional[int] = None) -> None:
    """Doubling n (``DOUBLING[family]`` unless given) grows the work of
    ``measure`` (its work, and the size the cost model bounds it by) at
    most as ``allowed_growth`` says."""
    n = n or DOUBLING[family]
    (once, size_once), (twice, size_twice) = measure(family, n), measure(family, 2 * n)
    allowed = allowed_growth(size_once, size_twice)
    assert twice <= allowed * once, (
        f"CMP-9 on {family}: {what} took {twice / max(once, 1):.2f}x the work at n = {2 * n} ({twice} steps) "
        f"as at n = {n} ({once} steps); at most {allowed:.2f}x (sizes {size_once}, {size_twice})"
    )


def assert_work_at_most_doubles(family: str) -> None:
    assert_doubling(family, "the check", check_work)


def test_cmp9_work_doubles_at_most_2_3x_private_roots_chain() -> None:
    assert_work_at_most_doubles("private-roots-chain")


def test_cmp9_work_doubles_at_most_2_3x_private_roots_box() -> None:
    assert_work_at_most_doubles("private-roots-box")


def test_cmp9_work_doubles_at_most_2_3x_private_roots_few() -> None:
    assert_work_at_most_doubles("private-roots-few")


def test_cmp9_work_doubles_at_most_2_3x_distinct_subsets() -> None:
    assert_work_at_most_doubles("distinct-subsets")


def test_cmp9_work_doubles_at_most_2_3x_hub_pair() -> None:
    assert_work_at_most_doubles("hub-pair")


def test_cmp9_work_doubles_at_most_2_3x_long_ids() -> None:
    assert_work_at_most_doubles("long-ids")


def test_cmp9_work_doubles_at_most_2_3x_many_small_boxes() -> None:
    assert_work_at_most_doubles("many-small-boxes")


def test_cmp9_work_doubles_at_most_2_3x_roaming_ring() -> None:
    assert_work_at_most_doubles("roaming-ring")


def test_cmp9_work_doubles_at_most_2_3x_subsets_interleaved() -> None:
    assert_work_at_most_doubles("subsets-interleaved")


def test_cmp9_work_doubles_at_most_2_3x_giant_chain() -> None:
    assert_work_at_most_doubles("giant-chain")


def test_cmp9_work_doubles_at_most_2_3x_deep_roots() -> None:
    assert_work_at_most_doubles("deep-roots")


def test_cmp9_work_doubles_at_most_2_3x_chain_of_pairs() -> None:
    assert_work_at_most_doubles("chain-of-pairs")


def test_cmp9_work_doubles_at_most_2_3x_one_box_wide() -> None:
    assert_work_at_most_doubles("one-box-wide")


def test_cmp9_work_doubles_at_most_2_3x_far_consumers() -> None:
    assert_work_at_most_doubles("far-consumers")


def test_cmp9_work_doubles_at_most_2_3x_forked_roots() -> None:
    assert_work_at_most_doubles("forked-roots")


def test_cmp9_work_doubles_at_most_2_3x_hub_tool() -> None:
    assert_work_at_most_doubles("hub-tool")


def test_cmp9_work_doubles_at_most_2_3x_entry_walk() -> None:
    assert_work_at_most_doubles("entry-walk")


def test_cmp9_work_doubles_at_most_2_3x_subsets_shared() -> None:
    assert_work_at_most_doubles("subsets-shared")


def test_cmp9_work_doubles_at_most_2_3x_parts_chain() -> None:
    assert_work_at_most_doubles("parts-chain")


def test_cmp9_work_doubles_at_most_2_3x_parts_fan() -> None:
    assert_work_at_most_doubles("parts-fan")


def test_cmp9_work_doubles_at_most_2_3x_pair_parts() -> None:
    assert_work_at_most_doubles("pair-parts")


def test_cmp9_work_doubles_at_most_2_3x_giant_taps() -> None:
    assert_work_at_most_doubles("giant-taps")


def test_cmp9_work_doubles_at_most_2_3x_solo_union() -> None:
    assert_work_at_most_doubles("solo-union")


def test_cmp9_work_doubles_at_most_2_3x_solo_dozen() -> None:
    assert_work_at_most_doubles("solo-dozen")


def test_cmp9_work_doubles_at_most_2_3x_solo_cap() -> None:
    assert_work_at_most_doubles("solo-cap")


def test_cmp9_work_doubles_at_most_2_3x_root_ladder() -> None:
    assert_work_at_most_doubles("root-ladder")


def test_cmp9_work_doubles_at_most_2_3x_wide_roots() -> None:
    assert_work_at_most_doubles("wide-roots")


def test_cmp9_work_doubles_at_most_2_3x_far_eleventh() -> None:
    assert_work_at_most_doubles("far-eleventh")


def test_cmp9_work_doubles_at_most_2_3x_twin_carriers() -> None:
    assert_work_at_most_doubles("twin-carriers")


def test_cmp9_work_doubles_at_most_2_3x_solo_boxes() -> None:
    assert_work_at_most_doubles("solo-boxes")


def test_cmp9_work_doubles_at_most_2_3x_entry_fan() -> None:
    assert_work_at_most_doubles("entry-fan")


def test_cmp9_work_doubles_at_most_2_3x_orphan_parts() -> None:
    assert_work_at_most_doubles("orphan-parts")


def test_cmp9_work_doubles_at_most_2_3x_nine_roots() -> None:
    assert_work_at_most_doubles("nine-roots")


def test_cmp9_work_doubles_at_most_2_3x_rung_ladders() -> None:
    assert_work_at_most_doubles("rung-ladders")


def test_cmp9_work_doubles_at_most_2_3x_distinct_sides() -> None:
    assert_work_at_most_doubles("distinct-sides")


def test_cmp9_work_doubles_at_most_2_3x_held_bases() -> None:
    assert_work_at_most_doubles("held-bases")


def test_cmp9_work_doubles_at_most_2_3x_crowded_ladders() -> None:
    assert_work_at_most_doubles("crowded-ladders")


def test_cmp9_work_doubles_at_most_2_3x_split_chains() -> None:
    assert_work_at_most_doubles("split-chains")


def test_cmp9_work_doubles_at_most_2_3x_ladder_taps() -> None:
    assert_work_at_most_doubles("ladder-taps")


def test_cmp9_work_doubles_at_most_2_3x_evicted_ladders() -> None:
    assert_work_at_most_doubles("evicted-ladders")


def test_cmp9_work_doubles_at_most_2_3x_wide_thrash() -> None:
    assert_work_at_most_doubles("wide-thrash")


def test_cmp9_work_doubles_at_most_2_3x_wide_splits() -> None:
    assert_work_at_most_doubles("wide-splits")


def test_cmp9_work_doubles_at_most_2_3x_wider_splits() -> None:
    assert_work_at_most_doubles("wider-splits")


def test_cmp9_work_doubles_at_most_2_3x_hub_teams() -> None:
    assert_work_at_most_doubles("hub-teams")


def test_cmp9_work_doubles_at_most_2_3x_hub_taps() -> None:
    assert_work_at_most_doubles("hub-taps")


def test_cmp9_work_doubles_at_most_2_3x_hub_direct() -> None:
    assert_work_at_most_doubles("hub-direct")


def test_cmp9_work_doubles_at_most_2_3x_tied_taps() -> None:
    assert_work_at_most_doubles("tied-taps")


def test_cmp9_work_doubles_at_most_2_3x_dozen_own() -> None:
    assert_work_at_most_doubles("dozen-own")


def test_cmp9_work_doubles_at_most_2_3x_shared_word() -> None:
    assert_work_at_most_doubles("shared-word")


def test_cmp9_work_doubles_at_most_2_3x_linked_boxes() -> None:
    assert_work_at_most_doubles("linked-boxes")


def test_cmp9_work_doubles_at_most_2_3x_parts_read() -> None:
    assert_work_at_most_doubles("parts-read")


def test_cmp9_work_doubles_at_most_2_3x_hub_shared() -> None:
    assert_work_at_most_doubles("hub-shared")


def test_cmp9_work_doubles_at_most_2_3x_diamond_ladder() -> None:
    assert_work_at_most_doubles("diamond-ladder")


def test_cmp9_work_doubles_at_most_2_3x_cycle_far() -> None:
    assert_work_at_most_doubles("cycle-far")


def test_cmp9_work_doubles_at_most_2_3x_cycle_sides() -> None:
    assert_work_at_most_doubles("cycle-sides")


def test_cmp9_work_doubles_at_most_2_3x_decoy_teams() -> None:
    assert_work_at_most_doubles("decoy-teams")


def test_cmp9_work_doubles_at_most_2_3x_shared_cut() -> None:
    assert_work_at_most_doubles("shared-cut")


def test_cmp9_work_doubles_at_most_2_3x_ring_parts() -> None:
    assert_work_at_most_doubles("ring-parts")


def test_cmp9_work_doubles_at_most_2_3x_deep_decoys() -> None:
    assert_work_at_most_doubles("deep-decoys")


def test_cmp9_work_doubles_at_most_2_3x_two_way_cycle() -> None:
    assert_work_at_most_doubles("two-way-cycle")


def test_cmp9_work_doubles_at_most_2_3x_cycle_renames() -> None:
    assert_work_at_most_doubles("cycle-renames")


def test_cmp9_work_doubles_at_most_2_3x_lattice_renames() -> None:
    assert_work_at_most_doubles("lattice-renames")


def test_cmp9_work_doubles_at_most_2_3x_ring_three() -> None:
    assert_work_at_most_doubles("ring-three")


def test_cmp9_work_doubles_at_most_2_3x_ring_pairs() -> None:
    assert_work_at_most_doubles("ring-pairs")


def test_cmp9_work_doubles_at_most_2_3x_ring_wide() -> None:
    assert_work_at_most_doubles("ring-wide")


def test_cmp9_work_doubles_at_most_2_3x_ring_own() -> None:
    assert_work_at_most_doubles("ring-own")


def test_cmp9_work_doubles_at_most_2_3x_lattice_ladder() -> None:
    assert_work_at_most_doubles("lattice-ladder")


def test_cmp9_work_doubles_at_most_2_3x_cycle_chained() -> None:
    assert_work_at_most_doubles("cycle-chained")


def test_cmp9_work_doubles_at_most_2_3x_cycle_fed_sides() -> None:
    assert_work_at_most_doubles("cycle-fed-sides")


def test_cmp9_work_doubles_at_most_2_3x_cycle_skip() -> None:
    assert_work_at_most_doubles("cycle-skip")


def test_cmp9_work_doubles_at_most_2_3x_cycle_fanout() -> None:
    assert_work_at_most_doubles("cycle-fanout")


def test_cmp9_work_doubles_at_most_2_3x_ring_crowd() -> None:
    assert_work_at_most_doubles("ring-crowd")


def test_cmp9_work_doubles_at_most_2_3x_renames_hub() -> None:
    assert_work_at_most_doubles("renames-hub")


def test_cmp9_work_doubles_at_most_2_3x_cycle_fan_paths() -> None:
    assert_work_at_most_doubles("cycle-fan-paths")


def test_cmp9_work_doubles_at_most_2_3x_ring_chained() -> None:
    assert_work_at_most_doubles("ring-chained")


def test_cmp9_work_doubles_at_most_2_3x_renames_fan_hub() -> None:
    assert_work_at_most_doubles("renames-fan-hub")


def test_cmp9_work_doubles_at_most_2_3x_renames_thrice() -> None:
    assert_work_at_most_doubles("renames-thrice")


def test_cmp9_work_doubles_at_most_2_3x_renames_aside() -> None:
    assert_work_at_most_doubles("renames-aside")


def test_cmp9_work_doubles_at_most_2_3x_renames_twice() -> None:
    assert_work_at_most_doubles("renames-twice")


def test_cmp9_work_doubles_at_most_2_3x_ring_direct() -> None:
    assert_work_at_most_doubles("ring-direct")


def test_cmp9_work_doubles_at_most_2_3x_cycle_wide_source() -> None:
    assert_work_at_most_doubles("cycle-wide-source")


def test_cmp9_work_doubles_at_most_2_3x_shared_chain() -> None:
    assert_work_at_most_doubles("shared-chain")


def test_cmp9_work_doubles_at_most_2_3x_near_roots() -> None:
    assert_work_at_most_doubles("near-roots")


def test_cmp9_work_doubles_at_most_2_3x_cycle_top() -> None:
    assert_work_at_most_doubles("cycle-top")


def test_cmp9_work_doubles_at_most_2_3x_skip_one_fed_side() -> None:
    assert_work_at_most_doubles("skip-one-fed-side")


def test_cmp9_work_doubles_at_most_2_3x_ring_one_fed_side() -> None:
    assert_work_at_most_doubles("ring-one-fed-side")


def test_cmp9_work_doubles_at_most_2_3x_skip_fanned_fed_side() -> None:
    assert_work_at_most_doubles("skip-fanned-fed-side")


def test_cmp9_work_doubles_at_most_2_3x_ring_fanned_fed_side() -> None:
    assert_work_at_most_doubles("ring-fanned-fed-side")


def test_cmp9_work_doubles_at_most_2_3x_fed_sides_fanned() -> None:
    assert_work_at_most_doubles("fed-sides-fanned")


def test_cmp9_work_doubles_at_most_2_3x_sources_one_tool() -> None:
    assert_work_at_most_doubles("sources-one-tool")


def test_cmp9_work_doubles_at_most_2_3x_rings_one_tool() -> None:
    assert_work_at_most_doubles("rings-one-tool")


def test_cmp9_work_doubles_at_most_2_3x_ring_wide_sources() -> None:
    assert_work_at_most_doubles("ring-wide-sources")


def test_cmp9_work_doubles_at_most_2_3x_skip_many_fed_sides() -> None:
    assert_work_at_most_doubles("skip-many-fed-sides")


def test_cmp9_work_doubles_at_most_2_3x_ring_many_fed_sides() -> None:
    assert_work_at_most_doubles("ring-many-fed-sides")


def test_cmp9_work_doubles_at_most_2_3x_skip_many_fed_sides_fanned() -> None:
    assert_work_at_most_doubles("skip-many-fed-sides-fanned")


def test_cmp9_work_doubles_at_most_2_3x_ring_many_fed_sides_fanned() -> None:
    assert_work_at_most_doubles("ring-many-fed-sides-fanned")


def test_cmp9_work_doubles_at_most_2_3x_ring_many_tops() -> None:
    assert_work_at_most_doubles("ring-many-tops")


def test_cmp9_work_doubles_at_most_2_3x_ring_wide_tools() -> None:
    assert_work_at_most_doubles("ring-wide-tools")


def test_cmp9_work_doubles_at_most_2_3x_cycle_wide_tools() -> None:
    assert_work_at_most_doubles("cycle-wide-tools")


def test_cmp9_work_doubles_at_most_2_3x_skip_wide_tools() -> None:
    assert_work_at_most_doubles("skip-wide-tools")


def test_cmp9_work_doubles_at_most_2_3x_chain_tops() -> None:
    assert_work_at_most_doubles("chain-tops")


def test_cmp9_work_doubles_at_most_2_3x_nested_tops() -> None:
    assert_work_at_most_doubles("nested-tops")


def test_cmp9_work_doubles_at_most_2_3x_wide_cycles() -> None:
    assert_work_at_most_doubles("wide-cycles")


def test_cmp9_work_doubles_at_most_2_3x_ring_edge_missing() -> None:
    assert_work_at_most_doubles("ring-edge-missing")


def test_cmp9_work_doubles_at_most_2_3x_cycle_ties() -> None:
    assert_work_at_most_doubles("cycle-ties")


def test_cmp9_work_doubles_at_most_2_3x_cycle_side_ties() -> None:
    assert_work_at_most_doubles("cycle-side-ties")


def test_cmp9_work_doubles_at_most_2_3x_cycle_tops_tied() -> None:
    assert_work_at_most_doubles("cycle-tops-tied")


def test_cmp9_work_doubles_at_most_2_3x_ring_chained_edge_missing() -> None:
    assert_work_at_most_doubles("ring-chained-edge-missing")


def test_cmp9_work_doubles_at_most_2_3x_long_box_label() -> None:
    assert_work_at_most_doubles("long-box-label")


def test_cmp9_work_doubles_at_most_2_3x_ring_split() -> None:
    assert_work_at_most_doubles("ring-split")


def test_cmp9_work_doubles_at_most_2_3x_ring_chained_split() -> None:
    assert_work_at_most_doubles("ring-chained-split")


def test_cmp9_work_doubles_at_most_2_3x_ring_edge_missing_split() -> None:
    assert_work_at_most_doubles("ring-edge-missing-split")


def test_cmp9_work_doubles_at_most_2_3x_skip_split() -> None:
    assert_work_at_most_doubles("skip-split")


def test_cmp9_work_doubles_at_most_2_3x_renames_hub_chained() -> None:
    assert_work_at_most_doubles("renames-hub-chained")


def test_cmp9_work_doubles_at_most_2_3x_skip_wide_tools_split() -> None:
    assert_work_at_most_doubles("skip-wide-tools-split")


def test_cmp9_work_doubles_at_most_2_3x_lattice_wide_tools() -> None:
    assert_work_at_most_doubles("lattice-wide-tools")


def test_cmp9_work_doubles_at_most_2_3x_skip_split_into() -> None:
    assert_work_at_most_doubles("skip-split-into")


def test_cmp9_work_doubles_at_most_2_3x_cycle_twins() -> None:
    assert_work_at_most_doubles("cycle-twins")


def test_cmp9_work_doubles_at_most_2_3x_ring_twins() -> None:
    assert_work_at_most_doubles("ring-twins")


def test_cmp9_work_doubles_at_most_2_3x_skip_twins() -> None:
    assert_work_at_most_doubles("skip-twins")


def test_cmp9_work_doubles_at_most_2_3x_ring_near_twins() -> None:
    assert_work_at_most_doubles("ring-near-twins")


def boxes_holding_what_formed(pairs: int, boxes: int, agents: int) -> str:
    """Boxes ``I1`` and ``I2`` whose ``pairs`` tools clash pair by pair,
    both into a box ``F`` (where the clashes form); ``agents`` agents each
    wired to both and to ``boxes`` boxes of their own, each fed by ``F``
    (so it holds every clash whole) and holding a clashing pair of its
    own, whose name sorts after all of theirs. The agents share ``I1`` and
    ``I2`` as a base, whose clashes stay pending (they form in ``F``
    alone, and every agent's boxes hold them whole), so telling them again
    for every agent, or once for every box, would cost far more than the
    file (build.rs ``base_affordable``, tokens.rs ``held_whole``)."""
    nodes: List[Dict[str, object]] = [{"id": "I1", "type": "toolbox"}, {"id": "I2", "type": "toolbox"}]
    edges: List[Dict[str, object]] = []

    def tool(node: str, label: str, into: str) -> None:
        nodes.append({"id": node, "type": "tool", "data": {"label": label}})
        edges.append({"source": node, "target": into, "data": {"edgeType": "tool_availability"}})

    def wire(source: str, target: str) -> None:
        edges.append({"source": source, "target": target, "data": {"edgeType": "tool_availability"}})

    for j in range(pairs):
        tool(f"p{j}", f"K {j:05}", "I1")
        tool(f"q{j}", f"k-{j:05}", "I2")
        tool(f"f{j}", f"K {j:05} z", "I1")
    nodes.append({"id": "F", "type": "toolbox"})
    wire("I1", "F")
    wire("I2", "F")
    for k in range(agents):
        nodes.append({"id": f"a{k}", "type": "agent"})
        wire("I1", f"a{k}")
        wire("I2", f"a{k}")
        for i in range(boxes):
            box = f"J{k}_{i}"
            nodes.append({"id": box, "type": "toolbox"})
            wire("F", box)
            wire(box, f"a{k}")
            tool(f"x{k}_{i}", f"Z {k} {i}", box)
            tool(f"y{k}_{i}", f"z-{k}-{i}", box)
    return json.dumps({"nodes": nodes, "edges": edges})


def test_cmp9_pending_clashes_held_whole_by_many_boxes_cost_what_the_file_costs() -> None:
    # Doubling both the clashes and each agent's boxes doubles the file and
    # at most doubles the work; it would quadruple were the base's clashes
    # told again for each agent, or once for each box.
    def work(pairs: int, boxes: int) -> int:
        report = toolwire.check_json(boxes_holding_what_formed(pairs, boxes, 10))
        assert len(report.violations) == 10 * (pairs + boxes)
        for group in report.clash_groups():  # each box's pair forms in it; the base's in F alone
            assert group.through == ("J" + group.name[2:] if group.name.startswith("z_") else "F"), group.name
        return work_done(report)

    once, twice = work(200, 40), work(400, 80)
    assert twice <= GROWTH * once, f"{twice / once:.2f}x the work for twice the clashes and boxes"


def big_boxes_held_through_a_chain(n: int, chain: int, sides: str) -> str:
    """Family 37 (``held-bases``) with a chain of ``chain`` boxes ``C{i}``
    between ``F`` and the agents' boxes, each holding a clashing pair of its
    own, and each also fed by a side box holding a clashing pair: none
    (``sides="none"``), one box ``Q`` for all of them (``"shared"``), or one
    of its own (``"own"``). Every agent's box holds ``I1`` and ``I2`` whole,
    ``chain + 2`` classes up, further than a walk of 32 steps goes
    (upstream.rs ``WALK``). Without side boxes, or with ``Q`` (which each
    box holds whole through the one above, so it is left out of their
    inputs), the chain's boxes each pass on one input and feed nothing
    else, and the walk climbs the chain in one step (``Climbs``); with side
    boxes of their own it does not: the first agent's walk runs out, and
    what is above the chain's end is made once for all agents (``Above``).
    Each agent sees ``n + 1`` clashes and those of the chain."""
    nodes: List[Dict[str, object]] = [{"id": b, "type": "toolbox"} for b in ("I1", "I2", "F")]
    edges: List[Dict[str, object]] = []

    def wire(source: str, target: str) -> None:
        edges.append({"source": source, "target": target, "data": {"edgeType": "tool_availability"}})

    def pair(box: str, upper: str, lower: str) -> None:
        nodes.append({"id": box, "type": "toolbox"})
        for node, label in ((f"{box}x", upper), (f"{box}y", lower)):
            nodes.append({"id": node, "type": "tool", "data": {"label": label}})
            wire(node, box)

    for j in range(n):
        nodes += [{"id": f"p{j}", "type": "tool", "data": {"label": f"K {j:05}"}}]
        nodes += [{"id": f"q{j}", "type": "tool", "data": {"label": f"k-{j:05}"}}]
        wire(f"p{j}", "I1")
        wire(f"q{j}", "I2")
    wire("I1", "F")
    wire("I2", "F")
    if sides == "shared":
        pair("Q", "Q q", "q-q")
    above = "F"
    for i in range(chain):
        pair(f"C{i}", f"C {i:05}", f"c-{i:05}")
        wire(above, f"C{i}")
        if sides == "own":
            pair(f"S{i}", f"S {i:05}", f"s-{i:05}")
        if sides != "none":
            wire("Q" if sides == "shared" else f"S{i}", f"C{i}")
        above = f"C{i}"
    for k in range(n):
        nodes.append({"id": f"a{k}", "type": "agent"})
        pair(f"R{k}", f"Z {k:05}", f"z-{k:05}")
        wire(above, f"R{k}")
        for source in ("I1", "I2", f"R{k}"):
            wire(source, f"a{k}")
    return json.dumps({"nodes": nodes, "edges": edges})


@pytest.mark.parametrize("sides", ["none", "shared", "own"])
def test_cmp9_big_boxes_held_whole_through_a_chain_of_boxes_cost_what_the_file_costs(sides: str) -> None:
    # The reference agrees at a tiny size; doubling n at least doubles the
    # file and at most doubles the work (unions of I1 and I2 into each
    # agent's box would cost n * n / 64 words).
    tiny = big_boxes_held_through_a_chain(3, 40, sides)
    assert without_places(toolwire.check_json(tiny)) == without_places(reference.check(json.loads(tiny)))
    chain_clashes = {"none": 40, "shared": 41, "own": 80}[sides]

    def work(n: int) -> int:
        report = toolwire.check_json(big_boxes_held_through_a_chain(n, 40, sides))
        assert len(report.violations) == n * (n + 1 + chain_clashes)
        return work_done(report)

    once, twice = work(1_000), work(2_000)
    assert twice <= GROWTH * once, f"{twice / once:.2f}x the work for twice the agents and pairs"


def reading_work(family: str, n: int) -> Tuple[int, int]:
    """The work of reading every distinct clash's tools and their paths as
    the report formats read them (each path's length and its two ends),
    and how much was read (`read_as_formats_do`)."""
    report = toolwire.check_json(built(family, n).data)
    before = work_done(report)
    tools = sum(read_as_formats_do(group.tools) for group in report.clash_groups())
    return work_done(report) - before, tools


def read_as_formats_do(tools: Sequence[toolwire.Tool]) -> int:
    """Reads each tool's path as the formats do (its length and its two
    ends); returns how much was read: each tool, and the nodes of its path
    read (at most 64). A path is read in time proportional to its length
    (issue 20), so where paths grow longer with n, as far round a cycle as
    it is long, reading grows with them: once the reading cost little
    more than that (session 37: `renames-aside`, 83 steps a tool at 50,
    where it had been 2,019), counting tools alone would hold it to less
    than the paths it reads."""
    read = 0
    for tool in tools:
        path = tool.path
        read += 1 + min(len(path), 64)
        path[:32]
        path[-32:]
    return read


@pytest.mark.parametrize("family", NAMES)
def test_cmp9_path_reading_work_doubles_at_most_2_3x(family: str) -> None:
    assert_doubling(family, "reading the clashes' tools and paths", reading_work)


def boxes_apart(data: bytes) -> bytes:
    """``data`` with every box that feeds only agents, and feeds the same
    agents as another box fed by the same boxes, wired instead into an
    agent of its own: no longer twins (src/collisions/twins.rs)."""
    workflow = json.loads(data)
    kind = {node["id"]: node.get("type") for node in workflow["nodes"]}
    into: Dict[str, Set[str]] = {}
    fed_by: Dict[str, Set[str]] = {}
    for edge in workflow["edges"]:
        into.setdefault(edge["source"], set()).add(edge["target"])
        fed_by.setdefault(edge["target"], set()).add(edge["source"])
    by_wiring: Dict[Tuple[FrozenSet[str], FrozenSet[str]], List[str]] = {}
    for box in (b for b, t in kind.items() if t == "toolbox"):
        receivers = into.get(box, set())
        if receivers and all(kind.get(r) != "toolbox" for r in receivers):
            providers = frozenset(p for p in fed_by.get(box, ()) if kind.get(p) == "toolbox")
            by_wiring.setdefault((providers, frozenset(receivers)), []).append(box)
    apart = {box for boxes in by_wiring.values() if len(boxes) > 1 for box in boxes}
    workflow["edges"] = [e for e in workflow["edges"] if e["source"] not in apart]
    for box in sorted(apart):
        workflow["nodes"].append({"id": f"{box}-own", "type": "agent"})
        workflow["edges"].append({"source": box, "target": f"{box}-own", "data": {"edgeType": "tool_availability"}})
    return json.dumps(workflow).encode()


def boxes_into_themselves(data: bytes) -> bytes:
    """``data`` with every box also wired into itself (the session 35
    attack's `selfbox`): no consumer's set and no shortest path changes."""
    workflow = json.loads(data)
    boxes = [node["id"] for node in workflow["nodes"] if node.get("type") == "toolbox"]
    workflow["edges"] += [{"source": b, "target": b, "data": {"edgeType": "tool_availability"}} for b in boxes]
    return json.dumps(workflow).encode()


def near_twins(data: bytes, own_tools: bool = False) -> bytes:
    """``data`` with every box given a *near twin* (the session 35 attack's
    `near`): a box fed by the same boxes and tools and feeding the same
    boxes and consumers (the twins of those boxes included), and an agent
    of its own besides. No other consumer's set and no path to one
    changes; each near twin's own agent sees what the box does. With
    ``own_tools``, each near twin also holds a tool of its own, "Own k"
    (``k`` the box's place by id, so that no two such names are one, as
    "Own C1" and "Own C1~" would be), whose twin "own-k" is wired straight
    into the near twin's agent."""
    workflow = json.loads(data)
    boxes = {node["id"] for node in workflow["nodes"] if node.get("type") == "toolbox"}
    twin = {box: f"{box}~near" for box in boxes}
    wired = [
        (source, target)
        for edge in workflow["edges"]
        for source in ([edge["source"], twin[edge["source"]]] if edge["source"] in twin else [edge["source"]])
        for target in ([edge["target"], twin[edge["target"]]] if edge["target"] in twin else [edge["target"]])
    ]
    for place, box in enumerate(sorted(boxes)):
        workflow["nodes"] += [{"id": twin[box], "type": "toolbox"}, {"id": f"{twin[box]}-own", "type": "agent"}]
        wired.append((twin[box], f"{twin[box]}-own"))
        if own_tools:
            workflow["nodes"] += [
                {"id": f"{twin[box]}-tool", "type": "tool", "data": {"label": f"Own {place}"}},
                {"id": f"{twin[box]}-pair", "type": "tool", "data": {"label": f"own-{place}"}},
            ]
            wired += [(f"{twin[box]}-tool", twin[box]), (f"{twin[box]}-pair", f"{twin[box]}-own")]
    workflow["edges"] = [
        {"source": source, "target": target, "data": {"edgeType": "tool_availability"}} for source, target in wired
    ]
    return json.dumps(workflow).encode()


# giant-chain's near twins each see a clash of their own, n x n tools in
# all: read at a tenth of its doubling size.
NEAR_TWINS_SCALE = {"giant-chain": 10}


@pytest.mark.parametrize(
    "family", ["cycle-far", "two-way-cycle", "ring-chained", "ring-wide-tools", "ring-one-fed-side", "giant-chain"]
)
def test_cmp9_near_twins_cost_what_their_family_does(family: str) -> None:
    # Near twins (src/collisions/twins.rs) tie with their boxes toward
    # every consumer but their own: before session 36, the check and
    # reading grew 4.2x to 6.7x per doubling on these cycles and rings at
    # half their doubling sizes (2.2 billion steps at 1,000 on
    # two-way-cycle), and 51x on giant-chain from 75 (each of its n x n
    # tools cost its path's length). Their edges no walk takes are cut.
    scale = NEAR_TWINS_SCALE.get(family, 1)
    data = near_twins(built(family, TINY[family]).data)
    assert without_places(toolwire.check_json(data)) == without_places(reference.check(json.loads(data)))

    def work(family: str, n: int) -> Tuple[int, int]:
        report = toolwire.check_json(near_twins(built(family, n // scale).data))
        tools = sum(read_as_formats_do(group.tools) for group in report.clash_groups())
        return work_done(report), tools  # the check's work and the reading's, for the tools read

    assert_doubling(family, "the check and reading the clashes' paths, every box with a near twin", work)


def assert_transformed_agrees_and_doubles(
    family: str, transform: Callable[[bytes], bytes], what: str, n: Optional[int] = None
) -> None:
    """``family`` through ``transform``: the reference agrees at its tiny
    size, and the check with the reading of every clash's paths at most
    doubles (as ``assert_doubling`` allows) for twice n (its doubling size
    unless given)."""
    data = transform(built(family, TINY[family]).data)
    assert without_places(toolwire.check_json(data)) == without_places(reference.check(json.loads(data)))

    def work(family: str, n: int) -> Tuple[int, int]:
        report = toolwire.check_json(transform(built(family, n).data))
        tools = sum(read_as_formats_do(group.tools) for group in report.clash_groups())
        return work_done(report), tools  # the check's work and the reading's, for the tools read

    assert_doubling(family, f"the check and reading the clashes' paths, {what}", work, n)


def boxes_below_two_members(data: bytes) -> bytes:
    """``data`` (a family of a cycle of boxes ``C...``) with, for every
    member, a box fed by the members either side of it into an agent of
    its own, and every tool ``U...`` given a twin of the same label wired
    as it is: each such agent sees every clash of a U and its twin."""
    workflow = json.loads(data)
    members = sorted(n["id"] for n in workflow["nodes"] if n["id"].startswith("C") and n.get("type") == "toolbox")
    tools = [n for n in workflow["nodes"] if n["id"].startswith("U") and n.get("type") == "tool"]
    wire = lambda source, target: {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}
    workflow["nodes"] += [{**tool, "id": f"{tool['id']}~c"} for tool in tools]
    named = {tool["id"] for tool in tools}
    workflow["edges"] += [wire(f"{e['source']}~c", e["target"]) for e in workflow["edges"] if e["source"] in named]
    for i, member in enumerate(members):
        below, agent = f"Zz{member}", f"Yy{member}"
        workflow["nodes"] += [{"id": below, "type": "toolbox"}, {"id": agent, "type": "agent"}]
        before, after = members[i - 1], members[(i + 1) % len(members)]
        workflow["edges"] += [wire(before, below), wire(after, below), wire(below, agent)]
    return json.dumps(workflow).encode()


@pytest.mark.parametrize("family", ["two-way-cycle", "ring-chained"])
def test_cmp9_boxes_fed_by_two_ring_members_cost_what_the_ring_does(family: str) -> None:
    # A box fed by two members of a ring, walked from when its own paths
    # were asked, left the member it met first remembered as in no ring,
    # and every path round the ring was read off trees: 3.9x and 4.5x per
    # doubling on two-way-cycle (155 million steps to read at 400) until
    # session 36. How the session's attack's near_tools_apart grew.
    assert_transformed_agrees_and_doubles(family, boxes_below_two_members, "boxes below two members")


def twinned_then_split(data: bytes) -> bytes:
    """``data`` with every box ``b`` given a twin ``b^pt`` (fed by what
    feeds ``b`` and its twin, feeding what ``b`` feeds and its twin, tools
    wired into both), then every box split in two in series: ``b ->
    b~ps``, ``b~ps`` feeding all ``b`` fed (the session 35 attack's
    ``para+split``). No two boxes are then twins, yet each copy is as near
    every consumer as the box it copies, and no walk enters a copy: no
    answer changes."""
    workflow = json.loads(data)
    boxes = {node["id"] for node in workflow["nodes"] if node.get("type") == "toolbox"}
    copies = lambda v: [v, f"{v}^pt"] if v in boxes else [v]
    twinned = [(s, t) for e in workflow["edges"] for s in copies(e["source"]) for t in copies(e["target"])]
    workflow["nodes"] += [{"id": f"{b}^pt", "type": "toolbox"} for b in sorted(boxes)]
    workflow["edges"] = [
        {"source": source, "target": target, "data": {"edgeType": "tool_availability"}} for source, target in twinned
    ]
    return split_in_two(json.dumps(workflow).encode())


def split_in_two(data: bytes, suffix: str = "~ps") -> bytes:
    """``data`` with every box split in two in series: ``b -> b~ps``,
    ``b~ps`` feeding all ``b`` fed (another ``suffix`` to split again).
    Every way is one box longer for each box it passes, so no answer
    changes."""
    workflow = json.loads(data)
    boxes = sorted(node["id"] for node in workflow["nodes"] if node.get("type") == "toolbox")
    split = set(boxes)
    wired = [(f"{e['source']}{suffix}" if e["source"] in split else e["source"], e["target"]) for e in workflow["edges"]]
    wired += [(b, f"{b}{suffix}") for b in boxes]
    workflow["nodes"] += [{"id": f"{b}{suffix}", "type": "toolbox"} for b in boxes]
    workflow["edges"] = [
        {"source": source, "target": target, "data": {"edgeType": "tool_availability"}} for source, target in wired
    ]
    return json.dumps(workflow).encode()


def twinned_and_chained_beside_wide_boxes(data: bytes) -> bytes:
    """``data`` with every box given a twin as ``twinned_then_split`` does,
    then split into a chain of 13 boxes in series (13 rounds of joins tie a
    twin's chain to its box's), beside a part of its own four times its
    edges: two alike chains of 20 boxes into an agent, tied a level a
    round, and boxes that each feed every box of both (each with a tool
    "Gadget" and an agent of its own), whose fingerprints every tie moves
    (the session 37 attack's ``para+chain12+gad4``)."""
    workflow = json.loads(twinned_then_split(data))
    boxes = sorted(n["id"] for n in workflow["nodes"] if n.get("type") == "toolbox" and not n["id"].endswith("~ps"))
    # The split's halves become the last of 13.
    chained = {f"{b}~ps": [f"{b}~c{i}" for i in range(1, 12)] for b in boxes}
    wired = [(e["source"], e["target"]) for e in workflow["edges"] if not e["target"].endswith("~ps")]
    for b in boxes:
        links = [b, *chained[f"{b}~ps"], f"{b}~ps"]
        wired += list(zip(links, links[1:]))
        workflow["nodes"] += [{"id": c, "type": "toolbox"} for c in chained[f"{b}~ps"]]
    chains = [[f"!g{c}{i:03}" for i in range(20)] for c in "AB"]
    wide = max(1, 4 * len(wired) // 42)
    workflow["nodes"] += [{"id": "!gagent", "type": "agent"}] + [{"id": v, "type": "toolbox"} for ch in chains for v in ch]
    for chain in chains:
        wired += list(zip(chain, chain[1:])) + [(chain[-1], "!gagent")]
    for j in range(wide):
        box, agent, tool = f"!gW{j:06}", f"!ge{j:06}", f"!gt{j:06}"
        workflow["nodes"] += [
            {"id": box, "type": "toolbox"},
            {"id": agent, "type": "agent"},
            {"id": tool, "type": "tool", "data": {"label": "Gadget"}},
        ]
        wired += [(tool, box), (box, agent)] + [(box, v) for chain in chains for v in chain]
    workflow["edges"] = [
        {"source": source, "target": target, "data": {"edgeType": "tool_availability"}} for source, target in wired
    ]
    return json.dumps(workflow).encode()


@pytest.mark.parametrize("family", ["cycle-sides", "cycle-far", "two-way-cycle", "ring-chained", "ring-near-twins"])
def test_cmp9_boxes_twinned_then_split_cost_what_their_family_does(family: str) -> None:
    # Twins, then every box split in series: b and b^pt are fed alike but
    # feed different halves, the halves feed alike but are fed apart, so no
    # two are twins, and every path was read off trees of roots tied in
    # pairs (src/collisions/entered.rs). Before session 37, cycle-sides'
    # check grew 3.9x per doubling (875 million steps at 1,000), and the
    # reading of cycle-far, two-way-cycle and ring-chained 4.0x to 4.9x.
    assert_transformed_agrees_and_doubles(family, twinned_then_split, "every box twinned, then split in two")


@pytest.mark.parametrize("family", ["cycle-far", "two-way-cycle", "ring-chained", "lattice-wide-tools"])
def test_cmp9_near_twins_split_in_two_cost_what_their_family_does(family: str) -> None:
    # A near twin's half is fed by the near twin, its box's half by the
    # box: no near twins, no alike boxes, and every half after them tied
    # with a near twin's toward every consumer but its own. Before session
    # 38 reading grew 5.9x then 4.9x per doubling from 62 on two-way-cycle
    # (178 million steps at 248, 0.8 MB), and ring-near-twins twinned then
    # split 8.6x. A near twin's chain is in its box's shadow now, and its
    # edges no walk takes are cut (src/collisions/shadows.rs).
    assert_transformed_agrees_and_doubles(
        family, lambda data: split_in_two(near_twins(data)), "every box with a near twin, then split in two"
    )


def near_twins_of_boxes_with_tools_of_their_own(data: bytes) -> bytes:
    """``data`` with every box given a near twin (``near_twins``), then
    every box but the near twins given a tool "Kept b" of its own, whose
    twin "kept-b" is wired into an agent the box feeds too (the session 38
    attack's ``keptown``): a box fed by more than its near twin."""
    workflow = json.loads(near_twins(data))
    kept = sorted(n["id"] for n in workflow["nodes"] if n.get("type") == "toolbox" and not n["id"].endswith("~near"))
    wire = lambda source, target: {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}
    for box in kept:
        tool, pair, agent = f"{box}-kt", f"{box}-kp", f"{box}-ka"
        workflow["nodes"] += [
            {"id": tool, "type": "tool", "data": {"label": f"Kept {box}"}},
            {"id": pair, "type": "tool", "data": {"label": f"kept-{box}"}},
            {"id": agent, "type": "agent"},
        ]
        workflow["edges"] += [wire(tool, box), wire(pair, agent), wire(box, agent)]
    return json.dumps(workflow).encode()


@pytest.mark.parametrize("family", ["cycle-far", "two-way-cycle", "chain-of-pairs"])
def test_cmp9_near_twins_of_boxes_with_tools_of_their_own_split_in_two_cost_what_their_family_does(
    family: str,
) -> None:
    # The session 38 attack's keptown: a box holding a tool of its own is
    # fed by more than its near twin, and no fingerprint of what feeds
    # them met. Reading grew 6.5x then 5.9x per doubling from 31 on
    # two-way-cycle (36 million steps at 124) at 99241e4, as before it.
    assert_transformed_agrees_and_doubles(
        family,
        lambda data: split_in_two(near_twins_of_boxes_with_tools_of_their_own(data)),
        "near twins of boxes with tools of their own, then split in two",
    )


@pytest.mark.parametrize("family", ["cycle-far", "two-way-cycle", "ring-chained", "chain-of-pairs"])
def test_cmp9_near_twins_with_tools_of_their_own_split_in_two_cost_what_their_family_does(family: str) -> None:
    # A near twin holding a tool of its own is fed by more than its box,
    # so its chain was in no shadow, and every half after it was tied with
    # its half toward every consumer but its own: reading grew 5.9x then
    # 4.9x per doubling from 62 on two-way-cycle (179 million steps at
    # 248, 1.1 MB) before session 39. The tool's name clashes only at the
    # near twin's own agent, below it, so its walks are read only there
    # (shadows.rs, case (c)).
    assert_transformed_agrees_and_doubles(
        family,
        lambda data: split_in_two(near_twins(data, own_tools=True)),
        "near twins with tools of their own, then split in two",
    )


def beside_a_name_of_many_leaves(data: bytes, k: int, boxed: int = 1) -> bytes:
    """``data`` with a part of its own declared first (the session 39
    attack's ``poison``): ``boxed`` tools "Poison", each wired into a box
    ``!x...`` of its own alone, which feeds an agent of its own and the box
    ``!z``, as ``!y`` does (so each box is paired with ``!y``); and ``k``
    tools "poison", wired straight into the first box's agent when
    ``boxed`` is 1 (one consumer below its box, case (c) of shadows.rs),
    else each into an agent of its own; those first, by node order."""
    wire = lambda source, target: {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}
    nodes = [{"id": f"!{b}", "type": "toolbox"} for b in "yzw"]
    nodes += [
        {"id": "!d", "type": "agent"},
        {"id": "!T", "type": "tool", "data": {"label": "PQ"}},
        {"id": "!T2", "type": "tool", "data": {"label": "pq"}},
    ]
    edges = [wire(*e) for e in [("!y", "!z"), ("!w", "!y"), ("!T", "!w"), ("!z", "!d"), ("!T2", "!d")]]
    mates: List[Dict[str, object]] = []
    for j in range(k):  # first: read before the boxed ones, by node order
        mate = f"!M{j:06d}"
        mates.append({"id": mate, "type": "tool", "data": {"label": "poison"}})
        if boxed == 1:
            edges.append(wire(mate, "!a000000"))
        else:
            nodes.append({"id": f"!c{j:06d}", "type": "agent"})
            edges.append(wire(mate, f"!c{j:06d}"))
    nodes = mates + nodes
    for i in range(boxed):
        tool, box, agent = f"!L{i:06d}", f"!x{i:06d}", f"!a{i:06d}"
        nodes += [
            {"id": tool, "type": "tool", "data": {"label": "Poison"}},
            {"id": box, "type": "toolbox"},
            {"id": agent, "type": "agent"},
        ]
        edges += [wire(tool, box), wire(box, "!z"), wire(box, agent)]
    workflow = json.loads(data)
    workflow["nodes"] = nodes + workflow["nodes"]
    workflow["edges"] = edges + workflow["edges"]
    return json.dumps(workflow).encode()


@pytest.mark.parametrize("boxed_each", [False, True])
def test_cmp9_a_name_of_many_leaves_below_boxes_is_told_once(boxed_each: bool) -> None:
    # The session 39 attack on shadows' case (c): k tools of one name
    # wired into one agent below the box holding another were each climbed
    # from, the agent's k providers read each time (4.0x the check's work
    # per doubling, 16 billion steps at 18 MB); with k of its leaves each
    # in a box of its own, the k others were read for each. Each name is
    # told once now.
    def work(family: str, k: int) -> Tuple[int, int]:
        data = beside_a_name_of_many_leaves(b'{"nodes": [], "edges": []}', k, k if boxed_each else 1)
        return work_done(toolwire.check_json(data)), len(data)

    assert_doubling("a name of many leaves", "the check", work, 16_000)


@pytest.mark.parametrize("boxed_each", [False, True])
def test_cmp9_near_twins_split_in_two_beside_a_name_of_many_leaves_cost_what_their_family_does(boxed_each: bool) -> None:
    # The same part, its k about a sixth of the file's size in tools, spent
    # the budget the shadows' pairs share on its first pair: no pair was
    # asked after it, and near twins with tools of their own split in two
    # read as before session 38 (178 million steps at 248 on two-way-cycle,
    # 5.85x per doubling). Case (c) keeps a budget of its own.
    def transform(data: bytes) -> bytes:
        twinned = split_in_two(near_twins(data, own_tools=True))
        k = int(10 * math.sqrt(len(twinned) / 100))
        return beside_a_name_of_many_leaves(twinned, k, k if boxed_each else 1)

    assert_transformed_agrees_and_doubles(
        "two-way-cycle", transform, "near twins with tools of their own split in two, beside a name of many leaves", 248
    )


def hub_into_every_box(data: bytes) -> bytes:
    """``data`` with a box ``~hub`` wired into every box, fed by a box
    ``~hubsrc`` holding a clashing pair ("Hub Clash", "hub-clash"): every
    consumer sees one clash more, and every box has one provider more
    (the session 37 attack's ``hub1``)."""
    workflow = json.loads(data)
    boxes = sorted(node["id"] for node in workflow["nodes"] if node.get("type") == "toolbox")
    workflow["nodes"] += [
        {"id": "~hub", "type": "toolbox"},
        {"id": "~hubsrc", "type": "toolbox"},
        {"id": "~hubtool", "type": "tool", "data": {"label": "Hub Clash"}},
        {"id": "~hubtwin", "type": "tool", "data": {"label": "hub-clash"}},
    ]
    wired = [("~hubtool", "~hubsrc"), ("~hubtwin", "~hubsrc"), ("~hubsrc", "~hub")] + [("~hub", b) for b in boxes]
    workflow["edges"] += [{"source": s, "target": t, "data": {"edgeType": "tool_availability"}} for s, t in wired]
    return json.dumps(workflow).encode()


def beside_boxes_into_every_box_of_a_part(data: bytes, k: int = 40, share: float = 0.25) -> bytes:
    """``data`` with a part of its own (the session 39 attack's ``burner``):
    ``k`` boxes ``!P...``, each holding a tool (named as a tool far off, so
    that it is a final leaf clashing nowhere near) and feeding an agent of
    its own, and every one of them wired into every box ``!R...`` of the
    part, ``share`` as many as ``data`` has boxes, and into each one's
    agent: every such edge is passed by, and none has a witness."""
    workflow = json.loads(data)
    wire = lambda source, target: {"source": source, "target": target, "data": {"edgeType": "tool_availability"}}
    count = sum(1 for node in workflow["nodes"] if node.get("type") == "toolbox")
    ps, rs = [f"!P{i:03}" for i in range(k)], [f"!R{j:06}" for j in range(max(1, int(count * share)))]
    workflow["nodes"] += [{"id": box, "type": "toolbox"} for box in ps + rs]
    workflow["nodes"] += [{"id": f"{box}a", "type": "agent"} for box in ps + rs]
    for p in ps:
        workflow["nodes"] += [
            {"id": f"{p}t", "type": "tool", "data": {"label": f"Own {p}"}},
            {"id": f"{p}f", "type": "tool", "data": {"label": f"Own {p}"}},
            {"id": f"{p}g", "type": "agent"},
        ]
        workflow["edges"] += [wire(f"{p}t", p), wire(p, f"{p}a"), wire(f"{p}f", f"{p}g")]
        workflow["edges"] += [wire(p, r) for r in rs] + [wire(p, f"{r}a") for r in rs]
    workflow["edges"] += [wire(r, f"{r}a") for r in rs]
    return json.dumps(workflow).encode()


def test_cmp9_a_hub_into_every_box_split_in_two_costs_what_its_family_does_beside_a_part_of_many_candidates() -> None:
    # The session 39 attack on shortcuts: the part's 40 x n candidates,
    # each with 40 providers to read for a witness, spent the one budget
    # the pass had for the whole workflow, and nothing beside the part was
    # cut (reading 3.48x then 3.71x per doubling). Each box has an
    # allowance of its own now.
    assert_transformed_agrees_and_doubles(
        "cycle-sides",
        lambda data: beside_boxes_into_every_box_of_a_part(hub_into_every_box(split_in_two(data))),
        "a hub into every box split in two, beside boxes passed by",
        250,
    )


@pytest.mark.parametrize(
    "family, splits", [("cycle-sides", 1), ("cycle-far", 1), ("cycle-chained", 1), ("cycle-sides", 2), ("cycle-far", 2)]
)
def test_cmp9_a_hub_into_every_box_split_in_two_costs_what_its_family_does(family: str, splits: int) -> None:
    # The session 37 attack's split+hub1: every half of the cycle a root
    # (the hub feeds it) and every side's half one of two providers, so no
    # cycle of roots fed only down chains from sources, and each group's
    # first violation read its path root by root: 3.6x then 3.8x the
    # reading per doubling on cycle-sides from 125 (2.67 million steps at
    # 500) before session 39. The hub's edges into boxes whose receivers
    # it all feeds are never walked, and cut where a kept way still brings
    # what it carries (src/collisions/shortcuts.rs). Split twice (three
    # boxes in series), the hub's edge into each middle box was proved only
    # by the edge into the first, itself cut, and stayed (the session 39
    # attack on shortcuts: 3.7x to 3.9x per doubling): a cut proves the
    # cuts after it now.
    def transform(data: bytes) -> bytes:
        for split in range(splits):
            data = split_in_two(data, f"~s{split}")
        return hub_into_every_box(data)

    assert_transformed_agrees_and_doubles(family, transform, f"a hub into every box, every box split {splits + 1} ways")


def test_cmp9_a_moved_tools_first_box_is_on_its_path_for_renames_though_alike_a_box_before_it() -> None:
    # The session 37 attack's second round: k and n are near twins (fed by
    # the tools alike; n into ee too), so n is cut from m and t and u are
    # moved onto k, n put back as their first box. Cut from m, n feeds ee
    # alone as b does, and b is first by id: no walk enters n, and n was
    # cut and told to renames as on no path. But t and u both come to ac
    # through n, so u is not qualified by n's label (CONFORMANCE 15).
    boxes = {"b": "BoxB", "k": "BoxK", "n": "BoxN", "m": "BoxM"}
    nodes = [{"id": b, "type": "toolbox", "data": {"label": label}} for b, label in boxes.items()]
    nodes += [{"id": t, "type": "tool", "data": {"label": label}} for t, label in [("t", "X"), ("u", "x"), ("v", "X!")]]
    nodes += [{"id": "ac", "type": "agent"}, {"id": "ee", "type": "agent"}]
    wired = [("t", "n"), ("t", "b"), ("u", "n"), ("u", "b"), ("v", "k"), ("k", "m"), ("n", "m"), ("m", "ac")]
    wired += [("n", "ee"), ("b", "ee")]
    edges = [{"source": s, "target": t, "data": {"edgeType": "tool_availability"}} for s, t in wired]
    data = json.dumps({"nodes": nodes, "edges": edges})
    report = toolwire.check_json(data)
    assert without_places(report) == without_places(reference.check(json.loads(data)))
    first = report.to_dict()["violations"][0]
    assert first["consumer"] == "ac"
    assert {fix["node"]: fix["new_label"] for fix in first["fix"]}["u"] == "x (u)"


def test_cmp9_tying_boxes_costs_their_edges_whatever_the_rounds() -> None:
    # Fingerprinted afresh each round, the part beside spent the ties'
    # budget before the twins' chains were tied, and cycle-sides so made
    # was read off trees: 3.65x then 3.93x per doubling from 64 (331
    # million steps at 256, 7.9 MB) at f18d1db. Fingerprints kept as ties
    # relabel cost each edge O(log N) moves (src/collisions/entered.rs).
    assert_transformed_agrees_and_doubles(
        "cycle-sides", twinned_and_chained_beside_wide_boxes, "twinned and chained beside wide boxes", n=64
    )


@pytest.mark.parametrize("family", ["cycle-far", "two-way-cycle", "lattice-wide-tools"])
def test_cmp9_near_twins_with_tools_of_their_own_cost_what_their_family_does(family: str) -> None:
    # A near twin's own tool is not wired into the box it is a near twin
    # of: it is read as wired into that box too (its kept twin), and the
    # near twin is cut all the same (session 36). Before, it kept every
    # edge: reading grew 5.2x then 4.4x per doubling on cycle-far from
    # 125 (224 million steps at 500).
    assert_transformed_agrees_and_doubles(family, lambda data: near_twins(data, own_tools=True), "near twins with tools of their own")


@pytest.mark.parametrize("family", ["ring-three", "ring-parts"])
def test_cmp9_a_box_beside_its_near_twin_of_a_tool_more_is_not_joined(family: str) -> None:
    # A near twin holding a tool of its own holds all its box does and
    # more, and every agent of the ring is wired to both: 16 inputs whose
    # parts meet in every word, united per agent. The check grew 3.45x
    # (ring-three) and 3.05x (ring-parts) per doubling from 1,000 (23.9
    # million steps at 2,000, 4.3 MB) until session 40; the box is now
    # left out of the agent's union (src/collisions/covered.rs).
    assert_transformed_agrees_and_doubles(
        family, lambda data: near_twins(data, own_tools=True), "near twins with tools of their own", n=1_000
    )


class RingBoxes:
    """A workflow of ring boxes being built: boxes ``S0..`` of ``rows``
    rows of names, each name held by two neighbours (so neighbours meet in
    every word), then boxes fed by them and clashing pairs of tools."""

    def __init__(self, boxes: int, rows: int) -> None:
        self.nodes: List[Dict[str, Any]] = [{"id": f"S{j}", "type": "toolbox"} for j in range(boxes)]
        self.wired: List[Tuple[str, str]] = []
        for row in range(rows):
            for c in range(boxes):
                name = f"Ring {boxes * row + c:06d}"
                self.tool(f"u{row}-{c}", name, f"S{c}")
                self.tool(f"v{row}-{c}", name, f"S{(c - 1) % boxes}")

    def node(self, node: str, kind: str, *fed_by: str) -> None:
        self.nodes.append({"id": node, "type": kind})
        self.wired.extend((source, node) for source in fed_by)

    def tool(self, node: str, label: str, *targets: str) -> None:
        self.nodes.append({"id": node, "type": "tool", "data": {"label": label}})
        self.wired.extend((node, target) for target in targets)

    def pair(self, tag: str, *targets: str) -> None:
        self.tool(f"{tag}-p", f"Pair {tag}", *targets)
        self.tool(f"{tag}-q", f"pair-{tag}", *targets)

    def data(self) -> bytes:
        edges = [{"source": s, "target": t, "data": {"edgeType": "tool_availability"}} for s, t in self.wired]
        return json.dumps({"nodes": self.nodes, "edges": edges}).encode()


def covers_chosen_per_agent(
    n: int,
    covers: int = 15,
    covered_too: bool = True,
    boxes: int = 3,
    covered: int = 2,
    levels: int = 1,
    named_like_box: int = 0,
    through: int = 0,
    shared_names: int = 0,
) -> bytes:
    """``boxes`` ring boxes ``S0..`` of ``n // boxes`` rows of names; boxes
    ``H0..``, each fed by its ``S`` and a clashing pair of its own; the
    first ``covered`` of them each with ``covers`` covers (fed by what
    feeds it and a pair of their own); ``n`` agents, agent i wired to every
    ``H``, to one cover of each covered box (the digits of i in base
    ``covers``), and to a box of its own holding a pair (the session 40
    attack's ``cpa-k3d2``, and ``cpa,K=4,D=3`` with four boxes, three
    covered); without ``covered_too``, not to the covered boxes; with
    ``levels`` above 1, each cover has a cover of its own (fed by it and a
    pair), and so on, and the agents are wired to the last ones; with
    ``named_like_box``, cover g of
    box j holds that many tools more, named like the box's names in rows
    g, g + 37, ... (of its rows), column j (each shared with its
    neighbour: the session 41 attack's ``c41,ownname=ring``, and with 9,
    the session 42 attack's ``meet,ownk=9``); with ``through``, the boxes and covers reach
    each agent through a box shared by that many agents (the session 42
    attack's ``via``); with ``shared_names``, the covers of box j each
    hold that many tools more, named alike in all of them (the attack's
    ``ownname=same``)."""
    w = RingBoxes(boxes, max(1, n // boxes))
    for j in range(boxes):
        w.node(f"H{j}", "toolbox", f"S{j}")
        w.pair(f"h{j}", f"H{j}")
    last: Dict[Tuple[int, int], str] = {}
    for j in range(covered):
        for g in range(covers):
            cover = f"Y{j}-{g}"
            w.node(cover, "toolbox", f"S{j}", f"h{j}-p", f"h{j}-q")
            w.pair(f"y{j}-{g}", cover)
            for k in range(named_like_box):
                row = (g + 37 * k) % max(1, n // boxes)
                w.tool(f"y{j}-{g}-r{k or ''}", f"ring-{boxes * row + j:06d}", cover)
            for k in range(shared_names):
                w.tool(f"y{j}-{g}-s{k}", f"Shared {j} {k}", cover)
            for level in range(1, levels):
                upper = f"Z{j}-{g}" if level == 1 else f"Z{level}.{j}-{g}"
                w.node(upper, "toolbox", cover)
                w.pair(upper.lower(), upper)
                cover = upper
            last[j, g] = cover
    for i in range(n):
        agent, own = f"a{i:05d}", f"s{i:05d}"
        w.nodes += [{"id": agent, "type": "agent"}, {"id": own, "type": "toolbox"}]
        inputs = agent
        if through:
            inputs = f"M{i // through:05d}"
            if i % through == 0:
                w.nodes.append({"id": inputs, "type": "toolbox"})
            w.wired.append((inputs, agent))
        if inputs == agent or i % through == 0:
            k = i - i % through if through else i
            w.wired += [(f"H{j}", inputs) for j in range(0 if covered_too else covered, boxes)]
            w.wired += [(last[j, k // covers**j % covers], inputs) for j in range(covered)]
        w.wired.append((own, agent))
        w.pair(f"s{i}", own)
    return w.data()


def assert_right_then_doubling(family: str, workflow: Callable[[int], bytes], n: int) -> None:
    """``workflow(60)`` checks as the reference does, and doubling its size
    from ``n`` grows the check's work no more than `assert_doubling`
    allows."""
    data = workflow(60)
    assert without_places(toolwire.check_json(data)) == without_places(reference.check(json.loads(data)))

    def work(_: str, size: int) -> Tuple[int, int]:
        data = workflow(size)
        return work_done(toolwire.check_json(data)), len(data)

    assert_doubling(family, "the check", work, n=n)


def test_cmp9_a_box_every_agent_shares_is_left_out_for_covers_chosen_per_agent() -> None:
    # Each agent's covers of H0 and H1 hold all H0 and H1 hold. Left out
    # for them in the first version of src/collisions/covered.rs, H0 and H1
    # left the agents only H2 in common: each agent joined its three big
    # inputs anew, 2.46x, 2.84x then 3.74x the work per doubling from 1,000
    # (141 million steps at 8,000). Session 40 then kept an input for a
    # cover fewer classes use; since session 41 each cover is held by the
    # box it covers (build.rs, `based_parts`), and the input is left out.
    assert_right_then_doubling("covers-chosen-per-agent", covers_chosen_per_agent, 2_000)


# Ways of choosing covers per agent: `covers_chosen_per_agent`'s arguments
# beside four boxes, three of them covered.
COVERS_CHOSEN: Dict[str, Dict[str, Any]] = {
    "covered-too": {},
    "covers-alone": {"covered_too": False},
    "nested": {"covered_too": False, "levels": 2},
    "four-deep": {"levels": 4},
    "ten-deep": {"levels": 10},
    "named-like-box": {"named_like_box": 1},
    "nine-names-like-box": {"named_like_box": 9},
    "through-a-box": {"through": 2},
    "ten-crowded-names": {"covers": 20, "shared_names": 10},
}


@pytest.mark.parametrize("shape", COVERS_CHOSEN)
def test_cmp9_covers_chosen_per_agent_are_held_by_the_box_they_cover(shape: str) -> None:
    # Four boxes, three with 15 covers each: 3,375 combinations of covers,
    # so until they run out nearly every agent's inputs are a combination
    # of their own. Each cover was a part of its own: the 15 covers of a
    # box and its neighbour's all held every name the two share, too many
    # holders to follow, so each agent united its big inputs anew: 4.1x,
    # 6.4x then 8.8x the work per doubling from 1,000 (554 million steps at
    # 8,000, 10.8 MB). A cover made of its box and a few tools of its own
    # is held as those two, and the box's holders' meetings are made once;
    # a cover of a cover, as the box at the bottom and the tools added on
    # the way (3.94x then 4.15x per doubling from 1,000 when only one
    # level was undone). A cover whose own tool is named like one of its
    # box's meets the box there, and stayed a part of its own until
    # session 42 (3.9x then 4.1x from 1,000: 116 million steps at 4,000):
    # its own set now takes the box's tools of that name, and the cover
    # is held as the box and that. Four covers deep, an agent's covers
    # held as their pieces made 18 parts, past the 16 of a class that was
    # always united: every part counted as big, and the agent's box of its
    # own, seen once, made it unite (the session 42 attack; 6.2x per
    # doubling at 4,000). The limit counts a cover as one part. Ten deep,
    # past the 8 levels a part was followed down, each agent's covers
    # were parts of their own again (4.1x); a cover of a cover is now
    # remembered as the box at the bottom and all the own sets above it,
    # however deep. Covers that reach agents through a box shared by two
    # were held as pieces by agents alone, and that box united them once
    # per combination (3.8x per doubling at 4,000); any class holds them
    # so now. Twenty
    # covers of a box sharing ten names crowd them (more than 16
    # holders), and a class with two parts of more than 8 crowded names
    # each was united: 4.2x per doubling at 4,000; 64 are listed now.
    def workflow(n: int) -> bytes:
        return covers_chosen_per_agent(n, boxes=4, covered=3, **COVERS_CHOSEN[shape])

    assert_right_then_doubling(f"covers-chosen-per-agent, four boxes, {shape}", workflow, 2_000)


def many_covers_of_one_box(n: int, covers: int = 20, picked: int = 10) -> bytes:
    """Three ring boxes ``S0..`` of ``n // 3`` rows of names; boxes ``H0..``,
    each fed by its ``S`` and a clashing pair of its own; ``covers`` covers
    of ``H0`` (fed by it and a pair of their own); ``n`` agents, each wired
    to ``H1``, ``H2``, ``picked`` covers of ``H0`` (a different choice
    each) and a box of its own holding a pair (the session 42 attack's
    ``many``)."""
    w = RingBoxes(3, max(1, n // 3))
    for j in range(3):
        w.node(f"H{j}", "toolbox", f"S{j}")
        w.pair(f"h{j}", f"H{j}")
    for g in range(covers):
        w.node(f"Y{g}", "toolbox", "H0")
        w.pair(f"y{g}", f"Y{g}")
    choose = random.Random(5)
    for i in range(n):
        agent, own = f"a{i:05d}", f"s{i:05d}"
        w.nodes += [{"id": agent, "type": "agent"}, {"id": own, "type": "toolbox"}]
        w.wired += [("H1", agent), ("H2", agent), (own, agent)]
        w.wired += [(f"Y{g}", agent) for g in choose.sample(range(covers), picked)]
        w.pair(f"s{i}", own)
    return w.data()


def test_cmp9_many_covers_of_one_box_and_a_box_of_its_own_are_held_by_their_holders() -> None:
    # Thirteen inputs are 78 pairs, more than are compared, so each agent
    # walked every word of its inputs to find where they meet, until
    # session 42: its box of its own, seen once, had not been walked by
    # the holders, which tell where the others meet (3.7x per doubling
    # from 1,000; 1.48 billion steps at 8,000). A part that small is
    # walked by the holders at once, so the class is held by them.
    assert_right_then_doubling("many-covers-of-one-box", many_covers_of_one_box, 2_000)


def a_cover_per_agent(n: int, boxes: int = 2, levels: int = 0, spares: int = 1, fed_by_box: bool = False) -> bytes:
    """``boxes`` ring boxes ``S0..`` of ``n // boxes`` rows of names;
    boxes ``B0..``, each fed by its ``S`` and a clashing pair of its own;
    ``n`` agents, agent i wired to every ``B`` and to a box of its own,
    ``P{i}``, a cover of ``B{i % boxes}`` (fed by what feeds it and a pair
    of its own: the session 40 attack's ``cover-drops-base``). With
    ``levels``, the ``B`` reach the agents through that many boxes ``Q0..``,
    each fed by the one before (the first by the ``B``) and by ``spares``
    boxes of a pair each (the session 42 attack's ``made``). With
    ``fed_by_box``, each cover is fed by its box itself (the session 42
    attack's ``meet,perag=1``)."""
    w = RingBoxes(boxes, max(1, n // boxes))
    for j in range(boxes):
        w.node(f"B{j}", "toolbox", f"S{j}")
        w.pair(f"b{j}", f"B{j}")
    base = [f"B{j}" for j in range(boxes)]
    for level in range(levels):
        for k in range(spares):
            w.node(f"X{level}-{k}", "toolbox")
            w.pair(f"x{level}-{k}", f"X{level}-{k}")
        w.node(f"Q{level}", "toolbox", *base, *(f"X{level}-{k}" for k in range(spares)))
        base = [f"Q{level}"]
    for i in range(n):
        agent, cover, j = f"a{i:05d}", f"P{i:05d}", i % boxes
        w.nodes += [{"id": agent, "type": "agent"}, {"id": cover, "type": "toolbox"}]
        w.wired += [(box, agent) for box in base]
        if fed_by_box:
            w.wired += [(f"B{j}", cover), (cover, agent)]
        else:
            w.wired += [(f"S{j}", cover), (f"b{j}-p", cover), (f"b{j}-q", cover), (cover, agent)]
        w.pair(f"p{i}", cover)
    return w.data()


@pytest.mark.parametrize("boxes, fed_by_box", [(2, False), (4, False), (4, True)], ids=["2", "4", "4-fed-by-box"])
def test_cmp9_a_cover_beside_the_box_it_covers_adds_only_its_own_tools(boxes: int, fed_by_box: bool) -> None:
    # Every agent wired to the same boxes, which are united once as their
    # shared base, and to a cover of one of them of its own (too many
    # covers to look for: the box is kept). Each agent united its cover
    # with the base, as large as the box: 2.23x, 2.46x then 2.60x the work
    # per doubling from 2,000 until session 41 (18 million steps at
    # 16,000). The base is remembered as united from the boxes, so each
    # agent adds its cover's own tools to it, not the cover. With four
    # boxes and covers fed by their box itself, the base is only the
    # boxes no cover covers, and each agent's cover, meeting it in every
    # word, was united with it: 3.6x then 3.8x per doubling from 1,000
    # until session 42 (the attack's `meet,perag=1`); a base joined to
    # covers is held by the holders now, as a class of no own tools is.
    def workflow(n: int) -> bytes:
        return a_cover_per_agent(n, boxes, fed_by_box=fed_by_box)

    assert_right_then_doubling(f"a-cover-per-agent, {boxes} boxes, fed by box: {fed_by_box}", workflow, 4_000)


@pytest.mark.parametrize("levels, spares", [(2, 1), (1, 16)], ids=["a-base-of-a-base", "eighteen-inputs"])
def test_cmp9_a_cover_beside_a_base_holding_the_box_it_covers_adds_only_its_own_tools(levels: int, spares: int) -> None:
    # The boxes reach the agents through a box that unites them (and a
    # pair), or through two, one fed by the other. Only the sets a set was
    # united from were remembered, not theirs, and not those of a union
    # of more than 16: each agent united its cover with the base again,
    # 2.44x, 2.58x then 2.93x the work per doubling from 4,000 on two
    # levels, 2.42x, 2.57x then 2.92x on 18 inputs (the session 42
    # attack). A union now remembers what its parts were united from too,
    # up to 64 sets in all.
    assert_right_then_doubling(
        f"a-cover-per-agent through {levels} unions", lambda n: a_cover_per_agent(n, 2, levels, spares), 8_000
    )


def test_cmp9_a_base_of_parts_every_agent_unites_is_united_once() -> None:
    # The same agents wired to the covers and H2 alone: each combination
    # of covers is a base held as parts, and past the first few agents
    # the name-crowded parts of each agent's join were united anew, the
    # three big boxes each time: 2.48x, 2.87x and 3.76x the work per
    # doubling from 1,000 until session 40 (140 million steps at 8,000).
    # Such a base is united once, and each agent joins its own box to it.
    assert_right_then_doubling(
        "covers-chosen-per-agent, not wired to what they cover",
        lambda n: covers_chosen_per_agent(n, covered_too=False),
        2_000,
    )


@pytest.mark.parametrize("family", ["chain-of-pairs", "cycle-far", "lattice-wide-tools", "diamond-ladder"])
def test_cmp9_boxes_wired_into_themselves_cost_what_their_family_does(family: str) -> None:
    # A box wired into itself was its own provider, never a link of a
    # chain: every family's paths were read root by root, 4x to 9.7x the
    # work per doubling (80 of 116 families). The edge is read as absent.
    assert_transformed_agrees_and_doubles(family, boxes_into_themselves, "every box wired into itself")


def test_cmp9_wide_cycles_with_its_boxes_apart_reads_in_at_most_double_the_work() -> None:
    # Family 104's tool is wired into n boxes that each feed the same 17
    # agents: twins, all but one on no path, so the family no longer makes
    # it a tool of many receivers (session 35). With each box into an agent
    # of its own it is one again, and its ways into the rings are read as
    # family 104 was made to read them.
    data = boxes_apart(built("wide-cycles", TINY["wide-cycles"]).data)
    assert without_places(toolwire.check_json(data)) == without_places(reference.check(json.loads(data)))

    def reading(family: str, n: int) -> Tuple[int, int]:
        report = toolwire.check_json(boxes_apart(built(family, n).data))
        before = work_done(report)
        tools = sum(read_as_formats_do(group.tools) for group in report.clash_groups())
        return work_done(report) - before, tools

    assert_doubling("wide-cycles", "reading the clashes' tools and paths, its boxes apart", reading)


VIOLATIONS_READ = 4_000
"""Up to this many violations, every one's paths are read; beyond, an
evenly spaced sample of this many (as the benchmark does)."""


def sampled_violations(count: int, scattered: bool) -> Sequence[int]:
    """Every violation, or past ``VIOLATIONS_READ`` an evenly spaced sample
    of that many; ``scattered``, each moved within its stretch of the
    report by a stride prime to the spacing. Where every consumer sees the
    same names, the evenly spaced sample reads the same few names' tools
    at each consumer; scattered, it reads a different tool at each (as an
    API caller picking violations may), each path found anew."""
    if count <= VIOLATIONS_READ:
        return range(count)
    step = count // VIOLATIONS_READ
    return [i * count // VIOLATIONS_READ + ((i * 7919) % step if scattered else 0) for i in range(VIOLATIONS_READ)]


def violations_reading_work(family: str, n: int, scattered: bool = False, reversed_: bool = False) -> Tuple[int, int]:
    """The work of reading the sampled violations' tools and paths, in
    report order (the order a format reads them in), or ``reversed_``, from
    the last to the first (an API caller may read in any order: a path
    read first is then the one that climbs furthest), and how much was
    read (`read_as_formats_do`). Unlike the clashes' first violations, these reach every
    consumer, each tool by the consumer's own path."""
    report = toolwire.check_json(built(family, n).data)
    violations = report.violations
    before = work_done(report)
    order = list(sampled_violations(len(violations), scattered))
    if reversed_:
        order.reverse()
    tools = sum(read_as_formats_do(violations[i].tools) for i in order)
    return work_done(report) - before, tools


@pytest.mark.parametrize("family", NAMES)
def test_cmp9_violation_path_reading_work_doubles_at_most_2_3x(family: str) -> None:
    assert_doubling(family, "reading the violations' tools and paths", violations_reading_work)


@pytest.mark.parametrize("family", NAMES)
def test_cmp9_scattered_violation_path_reading_work_doubles_at_most_2_3x(family: str) -> None:
    assert_doubling(
        family, "reading scattered violations' tools and paths", lambda f, n: violations_reading_work(f, n, True)
    )


@pytest.mark.parametrize("family", NAMES)
def test_cmp9_reversed_violation_path_reading_work_doubles_at_most_2_3x(family: str) -> None:
    assert_doubling(
        family,
        "reading the violations' tools and paths from the last to the first",
        lambda f, n: violations_reading_work(f, n, reversed_=True),
    )


LISTED = 100_000
"""Violations listed in report order (all of them, up to this many)."""


def listing_work(family: str, n: int) -> Tuple[int, int]:
    """The work of listing the violations in report order, each one's
    consumer, name and tools' ids (as a listing of every violation does,
    without the paths), and what was listed: violations and tools."""
    report = toolwire.check_json(built(family, n).data)
    violations = report.violations
    listed = 0
    before = work_done(report)
    for i in range(min(len(violations), LISTED)):
        violation = violations[i]
        listed += 1 + len([tool.id for tool in violation.tools])
    return work_done(report) - before, listed


@pytest.mark.parametrize("family", NAMES)
def test_cmp9_violation_listing_work_doubles_at_most_2_3x(family: str) -> None:
    assert_doubling(family, "listing the violations", listing_work)


def consumers_read(family: str, n: int, shown: int) -> Tuple[int, int]:
    """The work of reading every distinct clash's first ``shown``
    consumers and their count, and the size the cost model bounds it by:
    how many were read, and the sets' nodes (past a clash's first ten, its
    consumers may be listed from the sets, once for every clash)."""
    report = toolwire.check_json(built(family, n).data)
    set_nodes = report.violations._core.work["set_nodes"]  # the check's
    groups = list(report.clash_groups())  # each built once, its first violation with it
    before = work_done(report)
    read = 0
    for group in groups:
        read += len(group.consumers[:shown])
        len(group.consumers)
    return work_done(report) - before, read + (set_nodes if shown > 10 else 0)


@pytest.mark.parametrize("family", NAMES)
def test_cmp9_consumer_reading_work_doubles_at_most_2_3x(family: str) -> None:
    # As the report formats show them (text: ten, the rest counted).
    assert_doubling(family, "reading the clashes' first consumers", lambda f, n: consumers_read(f, n, 10))


@pytest.mark.parametrize("family", NAMES)
def test_cmp9_json_consumer_listing_work_doubles_at_most_2_3x(family: str) -> None:
    # As the json report lists them by default: past the first ten, where
    # a clash's consumers may be rare among those with a violation.
    what = f"listing the clashes' first {DEFAULT_MAX_CONSUMERS} consumers"
    assert_doubling(family, what, lambda f, n: consumers_read(f, n, DEFAULT_MAX_CONSUMERS))


# -- the families are the issue's -------------------------------------------------

# The file sizes the issue gives, in MB, at the sizes it gives: the
# constructions write the same shapes at about the same size.
ISSUE_MB = {
    "private-roots-chain": 5.2,
    "private-roots-box": 2.8,
    "private-roots-few": 3.8,
    "distinct-subsets": 9.0,
    "hub-pair": 8.0,
    "long-ids": 2.3,
    "many-small-boxes": 7.0,
    # Found since: the file at the family's first size.
    "roaming-ring": 3.1,
    "subsets-interleaved": 4.6,
    "giant-chain": 3.9,
    "deep-roots": 3.9,
    "chain-of-pairs": 3.1,
    "one-box-wide": 2.0,
    "far-consumers": 3.9,
    "forked-roots": 2.4,
    "hub-tool": 3.6,
    "entry-walk": 5.1,
    "subsets-shared": 4.6,
    "parts-chain": 5.2,
    "parts-fan": 5.2,
    "pair-parts": 7.7,
    "giant-taps": 0.7,  # 3.5 at 10,000, where its clashes hold fifty million tools
    "solo-union": 2.9,
    "solo-dozen": 4.5,
    "solo-cap": 3.0,
    "root-ladder": 1.0,
    "wide-roots": 2.7,
    "far-eleventh": 4.7,
    "twin-carriers": 3.2,
    "solo-boxes": 4.1,
    "entry-fan": 5.7,
    "orphan-parts": 5.0,
    "nine-roots": 4.8,
    "rung-ladders": 3.7,
    "distinct-sides": 2.7,
    "held-bases": 3.6,
    "crowded-ladders": 4.1,
    "split-chains": 2.8,
    "ladder-taps": 3.4,
    "evicted-ladders": 2.4,
    "wide-thrash": 2.4,
    "wide-splits": 3.1,
    "wider-splits": 6.1,
    "hub-teams": 3.4,
    "hub-taps": 3.6,
    "hub-direct": 3.5,
    "tied-taps": 4.5,
    "dozen-own": 3.6,
    "shared-word": 3.6,
    "linked-boxes": 3.5,
    "parts-read": 3.4,
    "hub-shared": 3.8,
    "diamond-ladder": 5.0,
    "cycle-far": 2.8,
    "cycle-sides": 2.9,
    "decoy-teams": 4.1,
    "shared-cut": 3.7,
    "ring-parts": 3.7,
    "deep-decoys": 4.3,
    "two-way-cycle": 3.1,
    "cycle-renames": 2.0,
    "lattice-renames": 1.8,
    "ring-three": 2.2,
    "ring-pairs": 2.5,
    "ring-wide": 3.4,
    "ring-own": 4.5,
    "lattice-ladder": 2.5,
    "cycle-chained": 1.6,
    "cycle-fed-sides": 1.6,
    "cycle-skip": 3.1,
    "cycle-fanout": 2.6,
    "ring-crowd": 3.3,
    "renames-hub": 1.04,
    "cycle-fan-paths": 3.9,
    "ring-chained": 3.9,
    "renames-fan-hub": 4.3,
    "renames-thrice": 5.0,
    "renames-aside": 4.62,
    "renames-twice": 3.52,
    "ring-direct": 2.68,
    "cycle-wide-source": 4.18,
    "shared-chain": 3.6,
    "near-roots": 5.2,
    "cycle-top": 4.43,
    "skip-one-fed-side": 3.12,
    "ring-one-fed-side": 3.12,
    "skip-fanned-fed-side": 3.96,
    "ring-fanned-fed-side": 3.96,
    "fed-sides-fanned": 3.99,
    "sources-one-tool": 3.30,
    "rings-one-tool": 4.90,
    "ring-wide-sources": 4.25,
    "skip-many-fed-sides": 4.85,
    "ring-many-fed-sides": 4.85,
    "skip-many-fed-sides-fanned": 4.38,
    "ring-many-fed-sides-fanned": 4.38,
    "ring-many-tops": 4.57,
    "ring-wide-tools": 3.40,
    "cycle-wide-tools": 3.32,
    "skip-wide-tools": 3.40,
    "chain-tops": 4.52,
    "nested-tops": 4.20,
    "wide-cycles": 4.32,
    "ring-edge-missing": 3.12,
    "cycle-ties": 3.12,
    "cycle-side-ties": 3.87,
    "cycle-tops-tied": 4.40,
    "ring-chained-edge-missing": 4.00,
    "long-box-label": 3.62,
    "ring-split": 4.49,
    "ring-chained-split": 4.70,
    "ring-edge-missing-split": 4.49,
    "skip-split": 4.49,
    "renames-hub-chained": 5.12,
    "skip-wide-tools-split": 3.86,
    "lattice-wide-tools": 5.12,
    "skip-split-into": 4.49,
    "cycle-twins": 4.76,
    "ring-twins": 4.75,
    "skip-twins": 4.75,
    "ring-near-twins": 5.6,
}


@pytest.mark.parametrize("family", NAMES)
def test_families_at_the_issue_size_are_the_issue_files(family: str) -> None:
    f = FAMILIES[family]
    data, expected = f.build(f.size)
    assert abs(len(data) / 1e6 - ISSUE_MB[family]) <= 0.1 * ISSUE_MB[family]
    assert expected.tool_edges == expected.edges and expected.violations >= 1


def test_distinct_subsets_at_the_issue_size_is_every_5_subset_of_20_boxes_of_500_pairs() -> None:
    expected = FAMILIES["distinct-subsets"].build(15_504).expected
    assert subset_boxes(15_504) == 20
    assert expected.consumers == 15_504 and expected.passthroughs == 20
    assert expected.clashes == 20 * 500 and expected.violations == 15_504 * 5 * 500


def test_the_format_measurement_is_family_2_at_two_million_violations() -> None:
    measured = FORMAT_MEASUREMENT
    expected = FAMILIES[measured.family].build(measured.size).expected
    assert (measured.number, expected.violations, expected.clashes) == (8, 2_000_000, 1_000)


@pytest.mark.parametrize("family", NAMES)
def test_families_are_deterministic(family: str) -> None:
    n = TINY[family]
    assert FAMILIES[family].build(n) == FAMILIES[family].construction(n)
    assert built(family, n).data == FAMILIES[family].build(n).data


def test_a_family_below_its_minimum_size_is_refused() -> None:
    with pytest.raises(ValueError, match="long-ids needs a whole size of at least 2"):
        FAMILIES["long-ids"].build(1)
    with pytest.raises(ValueError, match="at least 1"):
        FAMILIES["hub-pair"].build(0)


def test_cli_writes_a_family_and_its_expectation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, expect = tmp_path / "w.json", tmp_path / "expect.json"
    argv = ["generate", "--family", "private-roots-box", "--size", "40", "--expect", str(expect), str(out)]
    assert toolwire.cli.main(argv) == 0
    data, expected = built("private-roots-box", 40)
    assert out.read_bytes() == data
    assert json.loads(expect.read_text(encoding="utf-8")) == expected.to_dict()
    assert "800 expected violations in 20 distinct clashes, the first at a00 named tool_00: t00a, t00b" in (
        capsys.readouterr().err
    )


def test_cli_refuses_preset_options_beside_a_family(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.json"
    assert toolwire.cli.main(["generate", "--family", "hub-pair", "--seed", "3", "--agents", "2", str(out)]) == 2
    assert "--family takes no generator option (--seed, --agents)" in capsys.readouterr().err
    assert toolwire.cli.main(["generate", "--size", "3", str(out)]) == 2
    assert "--size is the size of a --family" in capsys.readouterr().err
    assert not out.exists()


def test_expectations_survive_json(tmp_path: Path) -> None:
    expected = built("long-ids", TINY["long-ids"]).expected
    assert type(expected).from_dict(json.loads(json.dumps(expected.to_dict()))) == expected
