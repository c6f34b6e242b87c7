"""A pure-Python reference implementation of the toolwire check.

This module is docs/SEMANTICS.md in executable form: rule CMP-9 (tool names are
unique per consumer, after flattening tool wiring through passthroughs) and
the rules it rests on (EDGE-1, EDGE-2, EDGE-5, R2, R8). It is here for two
things:

- it is the oracle of the differential tests (``tests/test_differential.py``),
  which run thousands of random workflows through it and through the Rust
  core and require identical reports, message strings included;
- it is the baseline the benchmarks measure the Rust core against.

:func:`site_calls` is SEMANTICS section 12 the same way: it builds each
workflow's expansion literally, a fresh copy per call, nested, and applies
sections 4-6 to it. Its cost is the number of call chains, which can be
exponential in the site's size: it is the oracle for small sites only.
One module, though long: both oracles share the reading of a workflow
(dialects, edge classification, names), which must be the same code for the
two to agree with each other.

So it is deliberately naive: plain dicts, sets and lists, one breadth-first
walk per consumer, no caching and no pruning. Where docs/SEMANTICS.md leaves a
choice open (which input error comes first, which of several shortest paths
is shown, how messages are worded), it does what the Rust core does, so that
any difference between the two is a bug in one of them.

Not modelled: a ``str`` holding a lone surrogate, which is not text; the core
refuses one in any field it reads.

    >>> from toolwire import reference
    >>> reference.check({"nodes": [{"id": "t", "data": {"label": "Search"}}]}).ok
    True
"""

from __future__ import annotations

import json
import re
from collections import defaultdict, deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Dict, FrozenSet, Iterable, List, Optional, Set, Tuple, Union

# Nothing here comes from the Rust extension, directly or through `_api`
# (which loads it): the defaults below are written from docs/SEMANTICS.md, so a
# wrong default in the core shows up as a difference instead of being shared.
# (tests/test_differential.py imports this module with the extension blocked.)
from ._errors import WorkflowError
from ._records import Stats, Tool, Violation, WiringWarning
from ._report import Report

__all__ = [
    "DEFAULT_EDGE_TYPES",
    "DEFAULT_PASSTHROUGH_TYPES",
    "CallKey",
    "SiteCalls",
    "check",
    "cycle_groups",
    "normalize_name",
    "site_calls",
]

TOOL_EDGE_TYPE = "tool_availability"
"""The declaration that makes an edge a tool edge whatever its handles say."""
DEFAULT_PASSTHROUGH_TYPES = ("toolbox", "flowdrop_node_processor_toolbox")
"""Node types that forward every tool wired into them (SEMANTICS 4): the
spec example's ``toolbox`` and FlowDrop for Drupal's Tool Box node."""
DEFAULT_EDGE_TYPES = ("data", "trigger", "loopback", "error", TOOL_EDGE_TYPE)
"""``data.edgeType`` values recognised by EDGE-5 (SEMANTICS 3)."""
TOOL_HANDLE_SUFFIX = "-input-tool"
"""The port suffix of a tool handle, matched exactly at the end (EDGE-1)."""
UNIVERSAL_NODE = "universalNode"
"""The type of an enriched node (SCH-25), whose real type is in its metadata."""
UNNAMED_TOOL = "unnamed_tool"


# --- SEMANTICS 5: names ------------------------------------------------------

# Not str.lower(), which also folds non-ASCII letters ("İ" even becomes "i̇",
# which holds an ASCII "i"): PHP's strtolower changes A-Z only.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_NOT_NAME_CHARACTERS = re.compile(r"[^a-z0-9]+")


def normalize_name(label: str) -> str:
    """The tool name a label becomes: ``"Web Search"`` -> ``"web_search"``."""
    name = _NOT_NAME_CHARACTERS.sub("_", label.translate(_ASCII_LOWER)).strip("_")
    return name or UNNAMED_TOOL


def _quote(text: str) -> str:
    """``text`` as messages show ids, labels, names and edge types: as a JSON
    string literal, with only ``"``, ``\\`` and control characters escaped."""
    return json.dumps(text, ensure_ascii=False)


# --- SEMANTICS 1-3: reading the workflow -------------------------------------


class _Missing:
    """An absent key: messages call it "missing", which ``null`` is not."""

    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()
Field = Union[_Missing, Any]


def _get(obj: Mapping[str, Any], key: str) -> Field:
    # A dict subclass is read as a dict, without its own __getitem__, as the
    # core reads it; any other Mapping through [].
    if isinstance(obj, dict):
        return dict.get(obj, key, _MISSING)
    try:
        return obj[key]
    except KeyError:
        return _MISSING


def _kind(value: Any) -> str:
    """The JSON type of a value, as input-error messages name it."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return "a string"
    # Before int: True is an int to Python but a boolean to JSON.
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return "a value JSON cannot hold"


def _describe(value: Field) -> str:
    """What a field that must be a non-empty string was instead."""
    if value is _MISSING:
        return "missing"
    if value == "":
        return "an empty string"
    return _kind(value)


def _string(value: Field) -> Optional[str]:
    """The value when it is a string; anything else counts as absent."""
    return value if isinstance(value, str) else None


def _non_empty(value: Field) -> Optional[str]:
    return value if isinstance(value, str) and value else None


def _object(value: Field) -> Optional[Mapping[str, Any]]:
    """The value when it is a JSON object; anything else counts as absent."""
    return value if isinstance(value, Mapping) else None


@dataclass(frozen=True)
class _Node:
    index: int
    id: Field
    label: Optional[str]
    """``data.label`` when it is a non-empty string."""
    passthrough: bool


@dataclass(frozen=True)
class _ToolEdge:
    index: int
    id: Optional[str]
    source: Field
    target: Field


@dataclass(frozen=True)
class _UnknownEdgeType:
    index: int
    id: Optional[str]
    edge_type: str


@dataclass
class _Document:
    """What the check reads of a workflow whose shape is right."""

    nodes: List[_Node]
    tool_edges: List[_ToolEdge]
    unknown_edge_types: List[_UnknownEdgeType]
    edge_count: int


def _elements(workflow: Mapping[str, Any], key: str) -> List[Any]:
    """``nodes`` or ``edges``: an array; absent or ``null`` is empty (EDGE-2)."""
    value = _get(workflow, key)
    if value is _MISSING or value is None:
        return []
    if isinstance(value, list):
        return list(value)
    if isinstance(value, Mapping):
        # Drupal's config exports write an empty PHP array as `{}`.
        if not value:
            return []
        raise WorkflowError(f"`{key}` must be an array, got a non-empty object")
    raise WorkflowError(f"`{key}` must be an array, got {_kind(value)}")


def _node_type(node: Mapping[str, Any]) -> Optional[str]:
    """``type``, unless it is ``universalNode`` (SCH-25) or not a string; then
    the first string among ``data.metadata.node_type_id`` and
    ``data.metadata.id`` (SEMANTICS 2, decision from real exports)."""
    declared = _string(_get(node, "type"))
    if declared is not None and declared != UNIVERSAL_NODE:
        return declared
    data = _object(_get(node, "data"))
    metadata = _object(_get(data, "metadata")) if data is not None else None
    if metadata is None:
        return None
    for key in ("node_type_id", "id"):
        found = _string(_get(metadata, key))
        if found is not None:
            return found
    return None


def _read_node(node: Any, index: int, passthrough_types: Set[str]) -> _Node:
    if not isinstance(node, Mapping):
        raise WorkflowError(f"node {index}: must be an object, got {_kind(node)}")
    data = _object(_get(node, "data"))
    node_type = _node_type(node)
    return _Node(
        index=index,
        id=_get(node, "id"),
        label=_non_empty(_get(data, "label")) if data is not None else None,
        passthrough=node_type is not None and node_type in passthrough_types,
    )


def _read_edge(edge: Any, index: int, recognised: Set[str], doc: _Document) -> None:
    """Classifies an edge (SEMANTICS 3) and keeps it when it matters."""
    if not isinstance(edge, Mapping):
        raise WorkflowError(f"edge {index}: must be an object, got {_kind(edge)}")
    data = _object(_get(edge, "data"))
    declared = _string(_get(data, "edgeType")) if data is not None else None
    edge_id = _string(_get(edge, "id"))
    if declared == TOOL_EDGE_TYPE:
        is_tool = True
    elif declared:
        # A recognised declaration decides; an unrecognised one is refused,
        # and never falls back to the handle (EDGE-5).
        if declared not in recognised:
            doc.unknown_edge_types.append(_UnknownEdgeType(index, edge_id, declared))
        is_tool = False
    else:
        handle = _string(_get(edge, "targetHandle"))
        is_tool = handle is not None and handle.endswith(TOOL_HANDLE_SUFFIX)
    if is_tool:
        doc.tool_edges.append(_ToolEdge(index, edge_id, _get(edge, "source"), _get(edge, "target")))


def _read(workflow: Any, passthrough_types: Set[str], recognised: Set[str]) -> _Document:
    """The fields docs/SEMANTICS.md names, or the first shape error: the top
    level, then ``nodes`` and each node, then ``edges`` and each edge."""
    if not isinstance(workflow, Mapping):
        raise WorkflowError(f"the workflow must be a JSON object, got {_kind(workflow)}")
    nodes = [_read_node(node, index, passthrough_types) for index, node in enumerate(_elements(workflow, "nodes"))]
    edges = _elements(workflow, "edges")
    doc = _Document(nodes=nodes, tool_edges=[], unknown_edge_types=[], edge_count=len(edges))
    for index, edge in enumerate(edges):
        _read_edge(edge, index, recognised, doc)
    return doc


# --- The tool graph ------------------------------------------------------------


def _edge_name(index: int, edge_id: Optional[str]) -> str:
    return f"edge {index}" if edge_id is None else f"edge {index} (id {_quote(edge_id)})"


@dataclass
class _Graph:
    """Every node by id, declared or named only by a tool edge, with the tool
    edges between them."""

    labels: Dict[str, str]
    passthroughs: Set[str]
    declared: int
    providers: Dict[str, List[str]]
    """Tool edges by receiver."""
    receivers: Dict[str, List[str]]
    """Tool edges by provider."""
    warnings: List[WiringWarning]
    tool_edge_count: int


def _build_graph(doc: _Document) -> _Graph:
    """Checks ids (R2), then tool-edge endpoints in edge order."""
    labels: Dict[str, str] = {}
    first_index: Dict[str, int] = {}
    passthroughs: Set[str] = set()
    for node in doc.nodes:
        # Each id is checked before it is compared with the earlier ones.
        node_id = _non_empty(node.id)
        if node_id is None:
            raise WorkflowError(f"node {node.index}: `id` must be a non-empty string, got {_describe(node.id)}")
        if node_id in first_index:
            raise WorkflowError(
                f"duplicate node id {_quote(node_id)}: nodes {first_index[node_id]} and {node.index} (R2)"
            )
        first_index[node_id] = node.index
        labels[node_id] = node.label if node.label is not None else node_id
        if node.passthrough:
            passthroughs.add(node_id)

    warnings: List[WiringWarning] = []

    def endpoint(edge: _ToolEdge, end: str, value: Field) -> str:
        node_id = _non_empty(value)
        if node_id is None:
            raise WorkflowError(
                f"{_edge_name(edge.index, edge.id)}: a tool edge needs a non-empty string `{end}`, "
                f"got {_describe(value)}"
            )
        if node_id not in labels:
            # SEMANTICS 2 (decision): a node named only by a tool edge has no
            # type and is labelled by its id; R8 makes that a warning.
            labels[node_id] = node_id
            message = (
                f"node {_quote(node_id)} is wired by tool edge {edge.index} but never declared in `nodes`; "
                "it is checked as a node with no type, and its id is its label"
            )
            warnings.append(WiringWarning(code="R8", node=node_id, edge=edge.index, message=message))
        return node_id

    providers: Dict[str, List[str]] = defaultdict(list)
    receivers: Dict[str, List[str]] = defaultdict(list)
    for edge in doc.tool_edges:
        # Source first: it is named in the error when both ends are bad, and
        # its warning comes first when both ends are new.
        source = endpoint(edge, "source", edge.source)
        target = endpoint(edge, "target", edge.target)
        providers[target].append(source)
        receivers[source].append(target)
    return _Graph(
        labels=labels,
        passthroughs=passthroughs,
        declared=len(doc.nodes),
        providers=providers,
        receivers=receivers,
        warnings=warnings,
        tool_edge_count=len(doc.tool_edges),
    )


# --- SEMANTICS 4 and 6: CMP-9 --------------------------------------------------


def _upstream(graph: _Graph, consumer: str) -> Tuple[Dict[str, int], Set[str]]:
    """One breadth-first walk upstream from ``consumer``, entering
    passthroughs only. Returns how many hops each passthrough that forwards
    into the consumer is from it (the consumer itself: 0), and the
    consumer's flattened set: every non-passthrough provider met on the way,
    the consumer itself included when a self-loop or a cycle feeds it back."""
    distance = {consumer: 0}
    leaves: Set[str] = set()
    queue = deque([consumer])
    while queue:
        current = queue.popleft()
        for provider in graph.providers.get(current, ()):
            if provider not in graph.passthroughs:
                leaves.add(provider)
            elif provider not in distance:
                distance[provider] = distance[current] + 1
                queue.append(provider)
    return distance, leaves


def _shortest_path(graph: _Graph, leaf: str, consumer: str, distance: Dict[str, int]) -> List[str]:
    """``[leaf, P1, ..., Pk, consumer]``, stepping each time to the receiver
    nearest the consumer and, among equals, to the smallest id: the shortest
    path that is first in code point order (decision: it then depends
    neither on hashing nor on edge order)."""
    path = [leaf]
    current = leaf
    # At least one step, even when the leaf is the consumer itself.
    while True:
        # `distance` holds only the consumer and the passthroughs that reach
        # it, so no other node is ever a step.
        step = min((distance[n], n) for n in graph.receivers.get(current, ()) if n in distance)[1]
        path.append(step)
        if step == consumer:
            return path
        current = step


def _collisions(graph: _Graph, consumer: str) -> List[Violation]:
    """CMP-9 at one consumer: a violation per name that two or more distinct
    leaves of its flattened set share, by name."""
    distance, leaves = _upstream(graph, consumer)
    by_name: Dict[str, List[str]] = defaultdict(list)
    for leaf in leaves:
        by_name[normalize_name(graph.labels[leaf])].append(leaf)
    found = []
    for name, holders in sorted(by_name.items()):
        if len(holders) < 2:
            continue
        tools = [
            Tool(id=leaf, label=graph.labels[leaf], path=_shortest_path(graph, leaf, consumer, distance))
            for leaf in sorted(holders)
        ]
        listed = ", ".join(f"{_quote(t.id)} ({_quote(t.label)})" for t in tools)
        message = f"{len(tools)} tools reaching {_quote(consumer)} share the name {_quote(name)}: {listed}"
        found.append(Violation(rule="CMP-9", message=message, consumer=consumer, name=name, tools=tools))
    return found


def _unknown_edge_type(edge: _UnknownEdgeType, recognised: Set[str]) -> Violation:
    message = (
        f"{_edge_name(edge.index, edge.id)} declares data.edgeType {_quote(edge.edge_type)}, "
        f"which is not a recognised edge type (recognised: {', '.join(sorted(recognised))})"
    )
    return Violation(rule="EDGE-5", message=message, edge=edge.index, edge_id=edge.id, edge_type=edge.edge_type)


def _option(option: str, values: Iterable[str]) -> List[str]:
    """A ``passthrough_types`` or ``edge_types`` value as a list, refused as
    the public API refuses it, so a misuse fails alike."""
    # A bare string is an iterable of characters: almost certainly a mistake.
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{option} must be a collection of strings, not a single string")
    listed = list(values)
    for value in listed:
        if not isinstance(value, str):
            raise TypeError(f"{option} must contain strings, got {type(value).__name__}")
    return listed


def check(
    workflow: Mapping[str, Any],
    *,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
) -> Report:
    """Checks an already-parsed workflow as ``toolwire.check`` does: the same
    ``Report``, or the same ``WorkflowError`` for input errors."""
    passthrough = set(_option("passthrough_types", passthrough_types))
    # tool_availability is recognised whatever the caller lists (EDGE-5).
    recognised = set(_option("edge_types", edge_types)) | {TOOL_EDGE_TYPE}

    doc = _read(workflow, passthrough, recognised)
    graph = _build_graph(doc)

    # Edge classification comes before flattening, so EDGE-5 comes first.
    violations = [_unknown_edge_type(edge, recognised) for edge in doc.unknown_edge_types]
    consumers = sorted(node for node in graph.providers if node not in graph.passthroughs)
    for consumer in consumers:
        violations.extend(_collisions(graph, consumer))

    stats = Stats(
        nodes=graph.declared,
        edges=doc.edge_count,
        tool_edges=graph.tool_edge_count,
        consumers=len(consumers),
        passthroughs=len(graph.passthroughs),
    )
    return Report(violations=violations, warnings=graph.warnings + _name_warnings(graph), stats=stats)


def _name_warnings(graph: _Graph) -> List[WiringWarning]:
    """NAME-LOSSY and NAME-UNNAMED (toolwire's own warnings, not spec rules):
    tools whose label loses letters on the way to its name, by node id."""
    found = []
    tools = sorted(node for node in graph.receivers if node not in graph.passthroughs)
    for node in tools:
        label = graph.labels[node]
        name = normalize_name(label)
        if not any(c.isascii() and c.isalnum() for c in label):
            code, why = "NAME-UNNAMED", "it has no ASCII letter or digit, and every such tool is called the same"
        elif not label.isascii():
            code, why = "NAME-LOSSY", "non-ASCII characters are dropped from tool names"
        else:
            continue
        message = f"tool {_quote(node)} is labelled {_quote(label)}, which becomes the name {_quote(name)}: {why}"
        found.append(WiringWarning(code=code, node=node, edge=None, message=message))
    return found


# --- SEMANTICS 12: tools that cross into a sub-workflow ------------------------

CallKey = Tuple[str, str, str, FrozenSet[Tuple[str, str]]]
"""A call finding as SEMANTICS 12 identifies it: the consumer's workflow and
node id, the shared name, and every leaf of that name, each a
``(workflow id, node id)``. Chains that bring the same key are one finding."""

CallChain = Tuple[Tuple[str, str], ...]
"""The call nodes from the report's own workflow down to the consumer's:
``((workflow, node), ...)``, each node running the next workflow."""

WORKFLOW_EXECUTOR = "flowdrop_workflow_executor:flowdrop_workflow:"
"""The ``executor_plugin`` prefix of a node type backed by a workflow: the
rest is the id of the workflow it runs (SEMANTICS 12)."""
TOOL_PORT = "tool"
"""The ``port`` of an ``input_ports`` entry that hands tools on."""


@dataclass
class SiteCalls:
    """What :func:`site_calls` finds in a site."""

    calls: Dict[str, Dict[CallKey, int]]
    """Per workflow id P: P's call findings, each with the exact number of
    call chains that bring it."""
    chains: Dict[str, Dict[CallKey, CallChain]]
    """Per workflow id P and finding: the shortest chain that brings it
    (fewest calls; among equals, the smallest sequence of (workflow id,
    node id))."""
    cycles: Set[FrozenSet[str]]
    """Each cycle of calls met, as the set of the workflows on it (every
    elementary cycle: the expansions follow every chain that does not
    return). :func:`cycle_groups` merges those that share a workflow."""
    unknown: Dict[str, List[Tuple[str, str]]]
    """Per workflow id: its ``(node id, workflow id)`` calls to a workflow
    that is not in the site, by node id (not followed)."""


@dataclass
class _SiteWorkflow:
    id: str
    graph: _Graph
    calls: Dict[str, str]
    """Call node id -> the workflow its type runs, in the site or not."""
    ports: List[str]
    """Node ids that ``tool`` input ports name, each once, in port order."""


def _tool_ports(workflow: Mapping[str, Any], graph: _Graph) -> List[str]:
    """The nodes that ``input_ports`` entries with ``port: tool`` name. An
    entry that cannot be read, or names no node, passes nothing."""
    ports: List[str] = []
    entries = _get(workflow, "input_ports")
    if not isinstance(entries, list):
        return ports
    for entry in entries:
        if not isinstance(entry, Mapping) or _get(entry, "port") != TOOL_PORT:
            continue
        node_id = _non_empty(_get(entry, "node_id"))
        if node_id is not None and node_id in graph.labels and node_id not in ports:
            ports.append(node_id)
    return ports


def _site_workflow(
    workflow: Mapping[str, Any], runs: Mapping[str, str], passthrough: Set[str], recognised: Set[str]
) -> _SiteWorkflow:
    workflow_id = _get(workflow, "id") if isinstance(workflow, Mapping) else _MISSING
    if not isinstance(workflow_id, str) or not workflow_id:
        raise WorkflowError(f"a workflow of a site needs a non-empty string `id`, got {_describe(workflow_id)}")
    graph = _build_graph(_read(workflow, passthrough, recognised))
    calls: Dict[str, str] = {}
    for node in _elements(workflow, "nodes"):
        node_id, node_type = _non_empty(_get(node, "id")), _node_type(node)
        if node_id is not None and node_type is not None and node_type in runs:
            calls[node_id] = runs[node_type]
    return _SiteWorkflow(workflow_id, graph, calls, _tool_ports(workflow, graph))


# A node of an expansion: the chain of calls whose copy holds it (empty for
# the expanded workflow's own nodes), its workflow and its id there.
_Instance = Tuple[CallChain, str, str]


def site_calls(
    workflows: Iterable[Mapping[str, Any]],
    catalogue: Mapping[str, Mapping[str, Any]],
    *,
    passthrough_types: Iterable[str] = DEFAULT_PASSTHROUGH_TYPES,
    edge_types: Iterable[str] = DEFAULT_EDGE_TYPES,
) -> SiteCalls:
    """The call findings of every workflow of a site, by inlining
    (SEMANTICS 12). ``workflows`` are parsed workflows with their ``id``
    and ``input_ports``; ``catalogue`` maps a node type id to
    ``{"accepts_tools": bool, "passthrough": bool, "runs": workflow id or
    None}``. A type the catalogue marks ``passthrough`` forwards tools as
    ``passthrough_types`` do (SEMANTICS 11). A workflow's own violations are
    not here: they are :func:`check`'s, exactly as when it is checked alone.
    Raises ``WorkflowError`` for a workflow that cannot be read, without an
    id, or with the id of another."""
    passthrough = set(_option("passthrough_types", passthrough_types))
    passthrough |= {t for t, entry in catalogue.items() if entry.get("passthrough")}
    recognised = set(_option("edge_types", edge_types)) | {TOOL_EDGE_TYPE}
    runs = {t: entry["runs"] for t, entry in catalogue.items() if isinstance(entry.get("runs"), str)}
    site: Dict[str, _SiteWorkflow] = {}
    for workflow in workflows:
        read = _site_workflow(workflow, runs, passthrough, recognised)
        if read.id in site:
            raise WorkflowError(f"workflow id {_quote(read.id)} is defined twice in the site")
        site[read.id] = read
    found = SiteCalls(calls={}, chains={}, cycles=set(), unknown={})
    groups = _cycle_groups_of(site)
    found.cycles = set(groups.values())
    for workflow_id in sorted(site):
        _expand_and_check(site, workflow_id, found, groups)
    return found


def _cycle_groups_of(site: Dict[str, "_SiteWorkflow"]) -> Dict[str, FrozenSet[str]]:
    """Per workflow on a cycle of calls, the workflows of its cycle group:
    those it reaches through calls and that reach it back (itself included).
    By plain reachability, one search per workflow: the reference is for
    small sites."""
    reach: Dict[str, Set[str]] = {}
    for start in site:
        seen: Set[str] = set()
        todo = [called for called in site[start].calls.values() if called in site]
        while todo:
            w = todo.pop()
            if w not in seen:
                seen.add(w)
                todo.extend(called for called in site[w].calls.values() if called in site)
        reach[start] = seen
    return {w: frozenset({w} | {v for v in reach[w] if w in reach[v]}) for w in site if w in reach[w]}


def _expand_and_check(
    site: Dict[str, _SiteWorkflow], top: str, found: SiteCalls, groups: Dict[str, FrozenSet[str]]
) -> None:
    """Builds ``top``'s expansion and records its call findings in ``found``."""
    providers: Dict[_Instance, List[_Instance]] = defaultdict(list)
    # (call node, the chain of its copy, the workflow copied), parents first.
    copies: List[Tuple[_Instance, CallChain, str]] = []
    found.unknown[top] = sorted((node, w) for node, w in site[top].calls.items() if w not in site)

    def inline(chain: CallChain, workflow_id: str) -> None:
        workflow = site[workflow_id]
        for target, sources in workflow.graph.providers.items():
            providers[(chain, workflow_id, target)].extend((chain, workflow_id, s) for s in sources)
        for node, called in sorted(workflow.calls.items()):
            if called not in site:
                continue  # unknown: not followed
            if called in groups.get(workflow_id, ()):
                # Decision 22 (docs/CONFORMANCE.md): a call between two
                # workflows of one cycle group is not followed (the group is
                # an error of the site), so no chain returns to a workflow
                # on it; calls into and out of the group are followed.
                continue
            inner = chain + ((workflow_id, node),)
            # Appended before recursing, so every copy comes after the copy
            # that holds its call node.
            copies.append(((chain, workflow_id, node), inner, called))
            inline(inner, called)

    inline((), top)
    # Every tool edge into a call node also runs into each node of its copy
    # that a tool port names. Parents first: the edges a call node got from
    # its own copy's ports are in place before they are handed on.
    for call, inner, called in copies:
        for port in site[called].ports:
            providers[(inner, called, port)].extend(providers[call])

    def passes(instance: _Instance) -> bool:
        return instance[2] in site[instance[1]].graph.passthroughs

    calls: Dict[CallKey, int] = {}
    chains: Dict[CallKey, CallChain] = {}
    for consumer in list(providers):
        chain, workflow_id, node = consumer
        if not chain or passes(consumer):
            continue  # P's own consumers are P's own check; boxes are never checked
        leaves: Set[Tuple[str, str]] = set()
        seen = {consumer}
        queue = deque([consumer])
        while queue:
            for provider in providers.get(queue.popleft(), ()):
                if not passes(provider):
                    leaves.add((provider[1], provider[2]))
                elif provider not in seen:
                    seen.add(provider)
                    queue.append(provider)
        by_name: Dict[str, Set[Tuple[str, str]]] = defaultdict(set)
        for leaf in leaves:
            by_name[normalize_name(site[leaf[0]].graph.labels[leaf[1]])].add(leaf)
        for name, holders in by_name.items():
            # SEMANTICS 12: P's finding needs one of P's own leaves and one of
            # another workflow's; a clash of the others alone is theirs.
            if any(w == top for w, _ in holders) and any(w != top for w, _ in holders):
                key = (workflow_id, node, name, frozenset(holders))
                calls[key] = calls.get(key, 0) + 1
                if key not in chains or (len(chain), chain) < (len(chains[key]), chains[key]):
                    chains[key] = chain
    found.calls[top] = calls
    found.chains[top] = chains


def cycle_groups(cycles: Iterable[FrozenSet[str]]) -> Set[FrozenSet[str]]:
    """Cycles that share a workflow, merged: the workflows of each strongly
    connected group of calls that holds a cycle. Two cycles through one
    workflow (W runs V runs W, W runs U runs W) are then one group, which
    is how a site can name each cycle once without naming a workflow twice."""
    groups: List[Set[str]] = []
    for cycle in cycles:
        merged = set(cycle)
        for group in [g for g in groups if g & merged]:
            merged |= group
            groups.remove(group)
        groups.append(merged)
    return {frozenset(g) for g in groups}
