"""Deterministic synthetic FlowDrop workflows, realistic and adversarial.

``generate(out, options, seed=...)`` writes one workflow (a JSON object with
``nodes`` and ``edges``, or with ``layout="drupal-yaml"`` the Drupal config
entity of docs/SEMANTICS.md section 10) in any of the three dialects of
docs/SEMANTICS.md section 9 and returns :class:`Expected`: the CMP-9 violations toolwire must report and
the statistics it must count. The expectation is known *by construction*: the
generator decides every collision, it never runs a checker on its output.

How the names stay collision-free by construction
-------------------------------------------------
Every tool gets a *name index* ``i``. Its sanitised name (docs/SEMANTICS.md section 5)
is a function of ``i`` alone and distinct indices always give distinct names:
``<verb>_<noun>[_<k>]`` (or ``<verb><noun>[_<k>]`` for camel-case labels),
where ``k = i // (verbs * nouns)`` is written out only when non-zero and no
word contains a digit or an underscore, so the name spells ``i`` back. Labels
differ from names only by ASCII case, separator runs, and decorations placed
where a separator already is (so they merge into it): that is the whole of
what sanitising removes, so every label of index ``i`` has the same name.

Non-injected tools get indices that are unique in the whole workflow, except
with ``name_pool`` where the agents' own tools draw from a few shared indices
(distinct within each agent). Agents used as tools get ``<role>_agent[_<k>]``
names, whose first word is never a verb. So the only collisions are the ones
the generator injects, each recorded with every consumer that sees it.

Findings larger than the file
-----------------------------
``clash_pairs``, ``chain_depth``, ``chain_pairs``, ``chain_levels`` and
``clash_fanout`` build workflows whose report dwarfs them (the presets
``clash-fanout``, ``clash-fanout-small``, ``deep-fanout``,
``deep-fanout-100k``, ``clash-deep``): a clash box of pairs labelled ``Tool p``
and ``tool-p`` and a chain of boxes with such pairs at its far end and along
it, both wired into the same ``clash_fanout`` agents. Every one of those
agents sees every pair, so the violations are a product, consumers times
names, and :class:`Expected` keeps them as one (:class:`ViolationGrid`):
ten million expected violations cost a few hundred kilobytes, not gigabytes.

Worst-case families
-------------------
``families`` (:data:`FAMILIES`) holds the small regular workflows of issue
"Every shape costs what its file costs", each a function of one size
``n`` returning its JSON bytes and what toolwire must report
(:class:`FamilyExpected`: counts, distinct clashes and the first
violation, worked out from the construction). ``toolwire generate
--family NAME [--size N]`` writes one.

Sites
-----
``sites`` (:data:`~toolwire.generate.sites.SITES`) writes several workflows
that call each other, as a Drupal config directory with their node types
(docs/SEMANTICS.md section 12; ``toolwire generate --site NAME``): a
workflow called from 10,000 places, 2**20 call chains, a cycle, and small
random sites for the differential tests.

The modules
-----------
``options`` (:class:`Options`, :data:`PRESETS`), ``expected``
(:class:`Expected` and its compact violations), ``names`` (names and
labels), ``dialects`` (how records are written), ``plan`` (every decision,
made before writing), ``writer`` (:func:`generate`, :func:`generate_site`;
its docstring says why it is fast), ``drupal_yaml`` (the Drupal layout and
its node-type catalogue) and ``command`` (``toolwire generate``). This
package is imported by
the tests, the benchmarks and ``toolwire generate`` alone: the other commands
never load it.
"""

from .expected import Expected, ExpectedViolation, ExpectedViolations, ViolationGrid
from .families import FAMILIES, FORMAT_MEASUREMENT, Family, FamilyExpected
from .options import COLLISION_KINDS, DIALECTS, LABEL_STYLES, LAYOUTS, PRESETS, Options
from .writer import generate, generate_site

__all__ = [
    "COLLISION_KINDS",
    "DIALECTS",
    "FAMILIES",
    "FORMAT_MEASUREMENT",
    "LABEL_STYLES",
    "LAYOUTS",
    "PRESETS",
    "Expected",
    "ExpectedViolation",
    "ExpectedViolations",
    "Family",
    "FamilyExpected",
    "Options",
    "ViolationGrid",
    "generate",
    "generate_site",
]
