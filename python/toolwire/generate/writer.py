"""Writing a plan out as JSON or as Drupal YAML (``drupal_yaml``: the same
loops, over record tables compiled for YAML), :func:`generate` and
:func:`generate_site`.

Speed: a 1M-node file takes a few seconds. The graph is regular (agent ``a``
owns tools ``a*T .. a*T+T-1``; stack ``s`` owns a fixed block of boxes and
tools), so nodes and edges are computed arithmetically when written; only the
irregular extras (injected tools, diamonds, cycles, agents as tools) are kept
in lists. Each record is one call of an f-string function compiled once from
a template, over pre-escaped pieces, and records are written in chunks of a
few megabytes; ``json.dumps`` runs once per cached label head or noise
snippet, never per record.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import IO, Any, Callable, Dict, List, Optional, Tuple, Union

from . import drupal_yaml
from .dialects import TOOL_TYPES, Dialect
from .expected import Expected
from .options import PRESETS, Options
from .plan import Plan

_CHUNK_RECORDS = 16384  # ~2-4 MB per write
DEFAULT_WORKFLOW_ID = "generated"


class _ArrayWriter:
    """Writes one array of records in large chunks: JSON records one a line
    joined by ``,\n``; YAML records (several lines each) joined by ``\n``,
    after ``opening``, which is written only if there is a record (an empty
    YAML sequence is written otherwise, as ``{  }``)."""

    def __init__(
        self,
        write: Callable[[bytes], Any],
        advance: Optional[Callable[[int], None]] = None,
        separator: str = ",\n",
        opening: str = "",
    ) -> None:
        self._write = write
        self._advance = advance
        self._separator = separator
        self._opening = opening
        self.parts: List[str] = []
        self._first = True
        self.count = 0

    def flush(self) -> None:
        if self.parts:
            text = self._separator.join(self.parts)
            self._write((self._opening + text if self._first else self._separator + text).encode())
            self._first = False
            self.count += len(self.parts)
            if self._advance is not None:
                self._advance(len(self.parts))  # once per chunk: nothing per record
            self.parts = []

    def flush_if_full(self) -> None:
        if len(self.parts) >= _CHUNK_RECORDS:
            self.flush()


def _write_nodes(plan: Plan, fmt: Dialect, out: _ArrayWriter) -> int:
    # The hot loops inline the id and noise lookups and make labels a batch
    # at a time: a method call per record would cost as much as formatting it.
    o, namer = plan.o, plan.namer
    A, T, S, D = o.agents, o.tools_per_agent, o.toolboxes, o.box_depth
    tool_labels = namer.tool_labels
    tp, types, ntypes = fmt.tool_prefix, TOOL_TYPES, len(TOOL_TYPES)
    tools, mask = fmt.nodes["tool"], fmt.mask
    pool = o.name_pool
    parts = out.parts
    agents, agent_prefix, agent_type = fmt.nodes["agent"], fmt.agent_prefix, fmt.agent_type
    for a in range(A):
        render, config, where = agents[(a * 40503) & mask]
        parts.append(render(f"{agent_prefix}{a}", agent_type, namer.agent_label(a), config, where))
        numbers = range(a * T, a * T + T)
        indices = [plan.direct_index(a, j) for j in range(T)] if pool else numbers
        for n, label in zip(numbers, tool_labels(indices)):
            render, config, where = tools[(n * 40503) & mask]
            tt = n % ntypes
            parts.append(render(f"{tp[tt]}{n}", types[tt], label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    boxes, box_prefix, box_type = fmt.nodes["box"], fmt.box_prefix, fmt.box_type
    for s in range(S):
        first = plan.stack_tool(s, 0)
        for b in range(s * D, s * D + D):
            render, config, where = boxes[(b * 40503) & mask]
            # A box's own label never counts: some boxes borrow the label of
            # a tool they forward, a trap for a checker that counts it.
            if b % 3 == 0 and plan.per_stack:
                label = namer.tool_label(pool + first, namer.var(b * 7919))
            else:
                label = '"Tool Box"'
            parts.append(render(f"{box_prefix}{b}", box_type, label, config, where))
            if len(parts) >= _CHUNK_RECORDS:
                out.flush()
                parts = out.parts
        numbers = range(first, first + plan.per_stack)
        for n, label in zip(numbers, tool_labels(range(pool + first, pool + first + plan.per_stack))):
            render, config, where = tools[(n * 40503) & mask]
            tt = n % ntypes
            parts.append(render(f"{tp[tt]}{n}", types[tt], label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for b in range(S * D, S * D + plan.hostile_boxes):
        render, config, where = boxes[(b * 40503) & mask]
        label = '"Clash Box"' if b == plan.clash_box else '"Tool Box"'
        parts.append(render(f"{box_prefix}{b}", box_type, label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for p in range(plan.pairs):
        # "Tool 7" and "tool-7": both named tool_7 (a family of names of its
        # own: "tool" is no verb, no role and no verb+noun).
        n = plan.n_struct + 2 * p
        render, config, where = tools[(n * 40503) & mask]
        tt = n % ntypes
        parts.append(render(f"{tp[tt]}{n}", types[tt], f'"Tool {p}"', config, where))
        n += 1
        render, config, where = tools[(n * 40503) & mask]
        tt = n % ntypes
        parts.append(render(f"{tp[tt]}{n}", types[tt], f'"tool-{p}"', config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for bid, label, b in plan.extra_boxes:
        render, config, where = boxes[(b * 40503) & mask]
        parts.append(render(bid, box_type, label, config, where))
    for nid, ntype, label, n in plan.extra_tools:
        render, config, where = tools[(n * 40503) & mask]
        parts.append(render(nid, ntype, label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    decoys = list(plan.decoys())
    numbers = range(plan.look_base, plan.look_base + len(decoys))
    look_alikes = [plan.look_alike(a, m) for m, (_, a) in enumerate(decoys)]
    for n, label in zip(numbers, tool_labels(look_alikes)):
        render, config, where = tools[(n * 40503) & mask]
        tt = n % ntypes
        parts.append(render(f"{tp[tt]}{n}", types[tt], label, config, where))
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    others = fmt.nodes["other"]
    for k in range(plan.io_nodes()):
        render, config, where = others[(k * 40503) & mask]
        parts.append(render(fmt.data_id("chat_input", k), "chat_input", '"Chat Input"', config, where))
        parts.append(render(fmt.data_id("text_output", k), "text_output", '"Text Output"', config, where))
    out.flush()
    return out.count


def _write_edges(plan: Plan, fmt: Dialect, out: _ArrayWriter) -> Tuple[int, int]:
    """Writes every edge; returns (edges, tool edges)."""
    o = plan.o
    A, T, S, D = o.agents, o.tools_per_agent, o.toolboxes, o.box_depth
    tp, ntypes, mask = fmt.tool_prefix, len(TOOL_TYPES), fmt.mask
    tools = fmt.edges["tool"]
    agent_prefix, box_prefix = fmt.agent_prefix, fmt.box_prefix
    parts = out.parts
    k = 0
    for a in range(A):
        agent = f"{agent_prefix}{a}"
        for n in range(a * T, a * T + T):
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, f"{tp[n % ntypes]}{n}", agent, extra))
            k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for s in range(S):
        boxes = [f"{box_prefix}{b}" for b in range(s * D, s * D + D)]
        first = plan.stack_tool(s, 0)
        for t in range(plan.per_stack):
            n = first + t
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, f"{tp[n % ntypes]}{n}", boxes[plan.box_of_tool(t)], extra))
            k += 1
        for level in range(1, D):
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, boxes[level], boxes[level - 1], extra))
            k += 1
            if len(parts) >= _CHUNK_RECORDS:
                out.flush()
                parts = out.parts
        top = boxes[0]
        for a in plan.receivers(s):
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, top, f"{agent_prefix}{a}", extra))
            k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for p in range(plan.pairs):
        box = f"{box_prefix}{plan.pair_box(p)}"
        for n in (plan.n_struct + 2 * p, plan.n_struct + 2 * p + 1):
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, f"{tp[n % ntypes]}{n}", box, extra))
            k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    for b in range(plan.chain_base + 1, plan.chain_base + o.chain_depth):
        render, extra = tools[(k * 40503) & mask]
        parts.append(render(k, f"{box_prefix}{b}", f"{box_prefix}{b - 1}", extra))
        k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    receivers = [f"{agent_prefix}{a}" for a in plan.hostile_receivers]
    for head in plan.hostile_heads():
        box = f"{box_prefix}{head}"
        for agent in receivers:
            render, extra = tools[(k * 40503) & mask]
            parts.append(render(k, box, agent, extra))
            k += 1
            if len(parts) >= _CHUNK_RECORDS:
                out.flush()
                parts = out.parts
    for src, dst in plan.extra_edges:
        render, extra = tools[(k * 40503) & mask]
        parts.append(render(k, src, dst, extra))
        k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    tool_edges = k
    io = plan.io_nodes()
    edges = fmt.edges
    m = 0
    for e in range(o.non_tool_edges):
        form, a = plan.non_tool(e)
        c = e % io
        if form == "io":
            src, dst, form = fmt.data_id("chat_input", c), fmt.data_id("text_output", c), "data"
        elif form == "data":
            src, dst = f"{agent_prefix}{a}", f"{agent_prefix}{(a + 1) % A}"
        elif form == "trigger":
            src, dst = fmt.data_id("chat_input", c), f"{agent_prefix}{a}"
        elif form == "output":
            src, dst = f"{agent_prefix}{a}", fmt.data_id("text_output", c)
        else:
            src, dst = fmt.tool_id(plan.look_base + m), f"{agent_prefix}{a}"
            m += 1
        render, extra = edges[form][(k * 40503) & mask]
        parts.append(render(k, src, dst, extra))
        k += 1
        if len(parts) >= _CHUNK_RECORDS:
            out.flush()
            parts = out.parts
    out.flush()
    return out.count, tool_edges


_HEADER = (
    '{"id":"generated","label":"Generated workflow","uuid":"00000000-0000-4000-8000-000000000000",'
    '"status":true,"dependencies":{"config":["flowdrop_node_type.flowdrop_node_type.toolbox"]},\n'
)
_FOOTER = ',\n"metadata":{"generator":"toolwire.generate","nodes":"ignored","edges":{"x":[1,2]}}'


def _write_json(plan: Plan, write: Callable[[bytes], Any], advance: Optional[Callable[[int], None]]) -> Dict[str, int]:
    noise = plan.o.noise
    write(_HEADER.encode() if noise else b"{")
    counts: Dict[str, int] = {}
    sections = ("edges", "nodes") if plan.edges_first else ("nodes", "edges")
    for i, section in enumerate(sections):
        write(f'{"," if i else ""}\n"{section}":[\n'.encode())
        array = _ArrayWriter(write, advance)
        if section == "nodes":
            counts["nodes"] = _write_nodes(plan, plan.fmt, array)
        else:
            counts["edges"], counts["tool_edges"] = _write_edges(plan, plan.fmt, array)
        write(b"\n]")
    write((_FOOTER if noise else "").encode() + b"}\n")
    return counts


def _write_yaml(
    plan: Plan, write: Callable[[bytes], Any], advance: Optional[Callable[[int], None]], workflow_id: str
) -> Dict[str, int]:
    """The Drupal layout (drupal_yaml): the config entity's keys in Drupal's
    order, nodes before edges as Drupal always writes them (the JSON
    layout's seeded swap of the two is a JSON matter), each record the YAML
    twin of its JSON record."""
    fmt = drupal_yaml.yaml_dialect(plan.fmt)
    o = plan.o
    description = f"toolwire generate: {o.agents} agents, {o.dialect} dialect" if o.noise else ""
    write(drupal_yaml.workflow_head(workflow_id, "Generated workflow", description).encode())
    counts: Dict[str, int] = {}
    for section in ("nodes", "edges"):
        array = _ArrayWriter(write, advance, "\n", drupal_yaml.section_head(section))
        if section == "nodes":
            counts["nodes"] = _write_nodes(plan, fmt, array)
        else:
            counts["edges"], counts["tool_edges"] = _write_edges(plan, fmt, array)
        write(b"\n" if array.count else drupal_yaml.empty_section(section).encode())
    write(drupal_yaml.workflow_tail(o.noise).encode())
    return counts


def _write(
    plan: Plan,
    write: Callable[[bytes], Any],
    advance: Optional[Callable[[int], None]] = None,
    workflow_id: str = DEFAULT_WORKFLOW_ID,
) -> Expected:
    if plan.o.layout == "drupal-yaml":
        counts = _write_yaml(plan, write, advance, workflow_id)
    else:
        counts = _write_json(plan, write, advance)
    o = plan.o
    return Expected(
        violations=plan.violations(),
        nodes=counts["nodes"],
        edges=counts["edges"],
        tool_edges=counts["tool_edges"],
        consumers=sum(plan.consumer_agents),
        passthroughs=o.toolboxes * o.box_depth + plan.hostile_boxes + len(plan.extra_boxes),
    )


def generate(
    out: Union[str, "os.PathLike[str]", IO[bytes]],
    options: Union[Options, str] = "small",
    *,
    seed: int = 0,
) -> Expected:
    """Writes a workflow to ``out`` (a path, or a binary file object) and
    returns what toolwire must report on it. ``options`` is an
    :class:`Options` or the name of a preset. Same options and seed, same bytes.

    With ``layout="drupal-yaml"`` the workflow is Drupal config; its ``id`` is
    ``<id>`` when ``out`` is named ``flowdrop_workflow.flowdrop_workflow.<id>.yml``,
    ``generated`` otherwise (:func:`generate_site` writes a whole directory)."""
    return generate_plan(out, Plan(_options(options), seed))


def _options(options: Union[Options, str]) -> Options:
    if isinstance(options, str):
        if options not in PRESETS:
            raise ValueError(f"unknown preset {options!r}; known: {', '.join(PRESETS)}")
        return PRESETS[options]
    return options


def generate_plan(
    out: Union[str, "os.PathLike[str]", IO[bytes]], plan: Plan, advance: Optional[Callable[[int], None]] = None
) -> Expected:
    """:func:`generate` from a plan, calling ``advance(records)`` after each chunk written."""
    if isinstance(out, (str, os.PathLike)):
        workflow_id = drupal_yaml.workflow_file_id(os.path.basename(os.fspath(out)), DEFAULT_WORKFLOW_ID)
        with open(out, "wb", buffering=1 << 22) as f:
            return _write(plan, f.write, advance, workflow_id)
    return _write(plan, out.write, advance)


def generate_site(
    directory: Union[str, "os.PathLike[str]"],
    options: Union[Options, str] = "small",
    *,
    seed: int = 0,
    workflow_id: str = DEFAULT_WORKFLOW_ID,
) -> Expected:
    """Writes a small Drupal site's config into ``directory`` (made if
    missing): the workflow as ``flowdrop_workflow.flowdrop_workflow.<workflow_id>.yml``
    and the node-type catalogue of the types it uses beside it. ``options``
    are written in the ``drupal-yaml`` layout whatever their ``layout``."""
    return generate_site_plan(directory, Plan(replace(_options(options), layout="drupal-yaml"), seed), workflow_id)


def generate_site_plan(
    directory: Union[str, "os.PathLike[str]"],
    plan: Plan,
    workflow_id: str = DEFAULT_WORKFLOW_ID,
    advance: Optional[Callable[[int], None]] = None,
) -> Expected:
    """:func:`generate_site` from a plan (whose layout must be ``drupal-yaml``)."""
    if plan.o.layout != "drupal-yaml":
        raise ValueError(f"a site is written in the drupal-yaml layout, not {plan.o.layout!r}")
    if not drupal_yaml.valid_id(workflow_id):
        raise ValueError(f"workflow id {workflow_id!r} is not a Drupal machine name (lowercase letters, digits, _)")
    os.makedirs(directory, exist_ok=True)
    for name, entity in drupal_yaml.node_types(plan.fmt):
        with open(os.path.join(directory, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(drupal_yaml.document(entity))
    path = os.path.join(directory, drupal_yaml.WORKFLOW_FILE.format(workflow_id))
    with open(path, "wb", buffering=1 << 22) as out:
        return _write(plan, out.write, advance, workflow_id)
