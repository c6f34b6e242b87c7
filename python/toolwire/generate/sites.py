"""Sites: several workflows that call each other (docs/SEMANTICS.md section 12),
written as Drupal stores them (``--layout drupal-yaml``): each workflow as
``flowdrop_workflow.flowdrop_workflow.<id>.yml`` with its ``id`` and
``input_ports``, and beside them the node types, one
``flowdrop_node_type.flowdrop_node_type.<id>.yml`` each: an agent type that
accepts tools (``parameters.tool.connectable: true``), a tool type, a Tool Box
type run by ``flowdrop_node_processor:toolbox`` (a passthrough by its executor:
its id is none of the default passthrough ids), and one type per called
workflow W run by ``flowdrop_workflow_executor:flowdrop_workflow:<W>``.

Workflows are written in the Drupal 2.x dialect of section 9 (type in
``data.metadata.node_type_id``, tool edges by their ``-input-tool`` handle).

The families (:data:`SITES`), each a function of one size:

- ``fan-in`` and ``fan-in-calls``: a shared agent workflow ``agent`` (its tool
  port into its agent, its own tool "Search") called from ``n`` places: ``n``
  parent workflows with one call node each, or one parent with ``n`` call
  nodes. Every call node gets two tools of its parent's; one of them, in the
  middle call, is labelled "search": exactly one call finding, in the middle
  parent's report (or the one parent's), brought by one chain.
- ``chain``: workflows ``l0`` to ``l<n>``; each ``li`` below the last has a
  Tool Box named by its tool port and wired into two call nodes that run
  ``l<i+1>``, and its own tool ``x<i>`` (``l0``'s is "x") in that box. The
  last has an agent named by its port with the tools "X", "X1", ... "X<n-1>".
  So ``li`` has exactly one call finding, at that agent, with ``2**(n-i)``
  chains; ``n`` of them in all; no own violation anywhere.
- ``cycle``: ``w`` runs ``v`` runs ``w`` (clash-free), and beside them ``u``
  with a clash of its own at its agent and a call into ``s`` whose own tool
  its tool clashes with: one cycle, one own violation and one call finding.
- ``random``: small seeded sites (boxes, nested calls, several ports of each
  kind, unknown calls, clashes inside and across workflows) for differential
  tests; their expectation is the reference's (``toolwire.reference.site_calls``),
  not the generator's. ``random-cycles``: the same, with calls that may run
  the calling workflow itself or an earlier one.

The other families' expectations (:class:`SiteExpected`) come from their
construction, never from a checker.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Tuple, Union

from .drupal_yaml import NODE_TYPE_FILE, TOOLBOX_EXECUTOR, UUID, WORKFLOW_FILE, document, node_type_entity

CallKey = Tuple[str, str, str, FrozenSet[Tuple[str, str]]]
"""A call finding: consumer workflow, consumer node, name, leaves (each a
(workflow id, node id)); the shape of ``toolwire.reference.CallKey``."""

WORKFLOW_EXECUTOR = "flowdrop_workflow_executor:flowdrop_workflow:{}"
AGENT_TYPE = "ai_agent"
TOOL_TYPE = "http_request"
BOX_TYPE = "tool_box"
"""Not a default passthrough id: only the catalogue makes it one."""


def runner_type(workflow_id: str) -> str:
    """The node type that runs ``workflow_id``, named as FlowDrop for Drupal
    names the types it derives from workflows."""
    return f"flowdrop_workflow_executor_flowdrop_workflow_{workflow_id}"


def node(node_id: str, node_type: str, label: str) -> Dict[str, Any]:
    """A node as FlowDrop for Drupal 2.x exports it (only what is read, and a position)."""
    return {
        "id": node_id,
        "position": {"x": 0, "y": 0},
        "data": {"label": label, "metadata": {"node_type_id": node_type}},
    }


def tool_edge(source: str, target: str) -> Dict[str, Any]:
    """A tool edge, declared by its handles as Drupal exports it."""
    return {
        "id": f"{source}-{target}",
        "source": source,
        "target": target,
        "sourceHandle": f"{source}-output-tool",
        "targetHandle": f"{target}-input-tool",
    }


def workflow(
    workflow_id: str,
    nodes: List[Dict[str, Any]],
    edges: List[Dict[str, Any]],
    ports: Sequence[Tuple[str, str, str]] = (),
) -> Dict[str, Any]:
    """A workflow config entity; ``ports`` are ``(name, node id, port)``."""
    return {
        "uuid": UUID,
        "langcode": "en",
        "status": True,
        "dependencies": {},
        "id": workflow_id,
        "label": workflow_id.replace("_", " ").title(),
        "description": "",
        "nodes": nodes,
        "edges": edges,
        "input_ports": [{"name": name, "node_id": node_id, "port": port} for name, node_id, port in ports],
    }


def node_type(type_id: str, executor: str, accepts_tools: bool) -> Dict[str, Any]:
    """A node-type config entity (docs/SEMANTICS.md section 11)."""
    return node_type_entity(type_id, type_id.replace("_", " ").title(), "processing", executor, accepts_tools)


def base_types() -> List[Dict[str, Any]]:
    """The agent, tool and Tool Box types every site uses."""
    return [
        node_type(AGENT_TYPE, f"flowdrop_node_processor:{AGENT_TYPE}", True),
        node_type(TOOL_TYPE, f"flowdrop_node_processor:{TOOL_TYPE}", False),
        node_type(BOX_TYPE, TOOLBOX_EXECUTOR, True),
    ]


def runner(workflow_id: str) -> Dict[str, Any]:
    """The type of the nodes that run ``workflow_id``; it accepts tools."""
    return node_type(runner_type(workflow_id), WORKFLOW_EXECUTOR.format(workflow_id), True)


@dataclass(frozen=True)
class SiteExpected:
    """What a site check must report, from the site's construction."""

    calls: Dict[str, Dict[CallKey, int]]
    """Per workflow id: its call findings, each with its number of chains."""
    violations: Dict[str, int]
    """Per workflow id: its own CMP-9 violations (as when checked alone)."""
    cycles: FrozenSet[FrozenSet[str]] = frozenset()
    """The cycles of calls, each the set of its workflows."""

    @property
    def call_count(self) -> int:
        return sum(len(found) for found in self.calls.values())


@dataclass
class Site:
    """Workflows and node types (both as config entities), and, for the
    deterministic families, what a check must report."""

    workflows: List[Dict[str, Any]]
    node_types: List[Dict[str, Any]]
    expected: Optional[SiteExpected] = None
    files: Dict[str, str] = field(default_factory=dict)
    """Workflow id -> the file it was written to (set by :meth:`write`)."""

    def catalogue(self) -> Dict[str, Dict[str, Any]]:
        """The node types as ``toolwire.reference.site_calls`` takes them,
        read from the entities as SEMANTICS 11 and 12 read them."""
        prefix = WORKFLOW_EXECUTOR.format("")
        found: Dict[str, Dict[str, Any]] = {}
        for entity in self.node_types:
            executor = entity["executor_plugin"]
            found[entity["id"]] = {
                "accepts_tools": entity["parameters"]["tool"]["connectable"] is True,
                "passthrough": executor == TOOLBOX_EXECUTOR,
                "runs": executor[len(prefix) :] if executor.startswith(prefix) else None,
            }
        return found

    def write(self, directory: Union[str, "os.PathLike[str]"]) -> Dict[str, str]:
        """Writes the site into ``directory`` (made if missing) and returns
        workflow id -> file path (also kept in :attr:`files`)."""
        os.makedirs(directory, exist_ok=True)
        for entity in self.node_types:
            _write(os.path.join(directory, NODE_TYPE_FILE.format(entity["id"])), document(entity))
        for entity in self.workflows:
            path = os.path.join(directory, WORKFLOW_FILE.format(entity["id"]))
            _write(path, document(entity))
            self.files[entity["id"]] = path
        return dict(self.files)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


# --- fan-in ------------------------------------------------------------------

SHARED = "agent"
"""The shared agent workflow's id in the fan-in sites."""


def _shared_agent() -> Dict[str, Any]:
    nodes = [node("agent.1", AGENT_TYPE, "Agent"), node("search.1", TOOL_TYPE, "Search")]
    ports = [("messages", "agent.1", "messages"), ("tool", "agent.1", "tool")]
    return workflow(SHARED, nodes, [tool_edge("search.1", "agent.1")], ports)


def _call_tools(k: int, width: int, renamed: bool) -> List[Tuple[str, str]]:
    """The two tools of call ``k``: (node id, label); the first one is
    labelled "search" in the renamed call."""
    n = f"{k:0{width}d}"
    return [(f"fetch.{n}", "search" if renamed else f"Fetch page {n}"), (f"mail.{n}", f"Send mail {n}")]


def fan_in(n: int, one_parent: bool = False) -> Site:
    """``agent`` called from ``n`` places: ``n`` parents ``p<k>`` with one
    call node each, or (``one_parent``) one parent ``p`` with ``n``."""
    if n < 1:
        raise ValueError("a fan-in site needs at least one call")
    width = len(str(n - 1))
    middle = n // 2
    workflows = [_shared_agent()]
    expected: Dict[str, Dict[CallKey, int]] = {SHARED: {}}
    violations = {SHARED: 0}
    parent_nodes: List[Dict[str, Any]] = []
    parent_edges: List[Dict[str, Any]] = []
    for k in range(n):
        call = f"run_agent.{k:0{width}d}"
        tools = _call_tools(k, width, k == middle)
        nodes = [node(call, runner_type(SHARED), "Run agent")] + [node(t, TOOL_TYPE, label) for t, label in tools]
        edges = [tool_edge(t, call) for t, _ in tools]
        parent = "p" if one_parent else f"p{k:0{width}d}"
        if one_parent:
            parent_nodes += nodes
            parent_edges += edges
        else:
            workflows.append(workflow(parent, nodes, edges))
            expected[parent] = {}
            violations[parent] = 0
        if k == middle:
            clash = (SHARED, "agent.1", "search", frozenset({(parent, tools[0][0]), (SHARED, "search.1")}))
            expected[parent] = {clash: 1}
    if one_parent:
        workflows.append(workflow("p", parent_nodes, parent_edges))
        violations["p"] = 0
    return Site(workflows, base_types() + [runner(SHARED)], SiteExpected(expected, violations))


# --- chain -----------------------------------------------------------------


def _level(i: int) -> str:
    return f"l{i}"


def _own_tool_label(i: int) -> str:
    return "x" if i == 0 else f"x{i}"


def chain(n: int = 20) -> Site:
    """Workflows ``l0`` .. ``l<n>``, two calls per level: ``2**n`` chains
    from ``l0`` (see the module's docstring)."""
    if n < 1:
        raise ValueError("a chain site needs at least one level of calls")
    workflows = []
    types = base_types()
    expected: Dict[str, Dict[CallKey, int]] = {}
    last = _level(n)
    for i in range(n):
        nodes = [node("box.1", BOX_TYPE, "Tool Box"), node("tool.1", TOOL_TYPE, _own_tool_label(i))]
        edges = [tool_edge("tool.1", "box.1")]
        for c in ("call.1", "call.2"):
            nodes.append(node(c, runner_type(_level(i + 1)), f"Run level {i + 1}"))
            edges.append(tool_edge("box.1", c))
        workflows.append(workflow(_level(i), nodes, edges, [("tool", "box.1", "tool")]))
        types.append(runner(_level(i + 1)))
        leaves = frozenset({(_level(i), "tool.1"), (last, f"tool.{i}")})
        expected[_level(i)] = {(last, "agent.1", normalize(_own_tool_label(i)), leaves): 2 ** (n - i)}
    nodes = [node("agent.1", AGENT_TYPE, "Agent")]
    edges = []
    for i in range(n):
        nodes.append(node(f"tool.{i}", TOOL_TYPE, _own_tool_label(i).upper()))
        edges.append(tool_edge(f"tool.{i}", "agent.1"))
    workflows.append(workflow(last, nodes, edges, [("tool", "agent.1", "tool")]))
    expected[last] = {}
    return Site(workflows, types, SiteExpected(expected, {w: 0 for w in expected}))


def normalize(label: str) -> str:
    """The tool name of the generator's own labels (ASCII letters, digits,
    spaces): lowercase, runs of anything else one ``_``, trimmed."""
    name = "".join(c if c.isascii() and c.isalnum() else " " for c in label.lower())
    return "_".join(name.split()) or "unnamed_tool"


# --- cycle -----------------------------------------------------------------


def cycle(n: int = 2) -> Site:
    """``w`` runs ``v`` runs ``w``, each with a tool of its own handed on;
    and apart, ``u`` (an own clash, and a call into ``s`` that brings a
    clash). ``n`` is unused: the shape has one size."""
    del n
    types = base_types() + [runner(w) for w in ("w", "v", "s")]
    workflows = []
    for me, other in (("w", "v"), ("v", "w")):
        nodes = [
            node("agent.1", AGENT_TYPE, "Agent"),
            node("tool.1", TOOL_TYPE, f"Tool of {me}"),
            node("call.1", runner_type(other), f"Run {other}"),
        ]
        edges = [tool_edge("tool.1", "agent.1"), tool_edge("tool.1", "call.1")]
        workflows.append(workflow(me, nodes, edges, [("tool", "agent.1", "tool")]))
    u_nodes = [
        node("agent.1", AGENT_TYPE, "Agent"),
        node("lookup.1", TOOL_TYPE, "Lookup"),
        node("lookup.2", TOOL_TYPE, "LOOKUP"),
        node("weather.1", TOOL_TYPE, "Weather"),
        node("call.1", runner_type("s"), "Run s"),
    ]
    u_edges = [tool_edge("lookup.1", "agent.1"), tool_edge("lookup.2", "agent.1"), tool_edge("weather.1", "call.1")]
    workflows.append(workflow("u", u_nodes, u_edges))
    s_nodes = [node("agent.1", AGENT_TYPE, "Agent"), node("weather.1", TOOL_TYPE, "weather")]
    workflows.append(workflow("s", s_nodes, [tool_edge("weather.1", "agent.1")], [("tool", "agent.1", "tool")]))
    clash = ("s", "agent.1", "weather", frozenset({("u", "weather.1"), ("s", "weather.1")}))
    expected = SiteExpected(
        calls={"w": {}, "v": {}, "u": {clash: 1}, "s": {}},
        violations={"w": 0, "v": 0, "u": 1, "s": 0},
        cycles=frozenset({frozenset({"w", "v"})}),
    )
    return Site(workflows, types, expected)


# --- random ----------------------------------------------------------------

# Few names, each in several spellings, so that clashes are frequent.
_LABELS = ("Search", "search", "SEARCH!", "Fetch", "fetch", "Mail", "mail-", "Weather", "Lookup", "look up")


def random_site(seed: int, cycles: bool = False) -> Site:
    """A small random site: 2 to 5 workflows, each calling only later ones
    (no cycle), with tools, agents, Tool Boxes (some of the default
    ``flowdrop_node_processor_toolbox`` type), call nodes (some running a
    workflow not in the site), tool ports naming agents, boxes, call nodes
    or tools, and ports of other kinds. With ``cycles``, a call may also
    run the workflow itself or an earlier one. No expectation: the
    reference's."""
    rng = random.Random(seed)
    count = rng.randint(2, 5)
    ids = [f"w{i}" for i in range(count)]
    workflows = []
    for i, me in enumerate(ids):
        nodes: List[Dict[str, Any]] = []
        kinds: Dict[str, str] = {}

        def add(kind: str, node_type: str, label: str) -> str:
            node_id = f"{kind}.{sum(1 for k in kinds.values() if k == kind) + 1}"
            nodes.append(node(node_id, node_type, label))
            kinds[node_id] = kind
            return node_id

        for _ in range(rng.randint(1, 4)):
            add("tool", TOOL_TYPE, rng.choice(_LABELS))
        for _ in range(rng.randint(1, 2)):
            add("agent", AGENT_TYPE, "Agent")
        for _ in range(rng.randint(0, 2)):
            add("box", rng.choice((BOX_TYPE, BOX_TYPE, "flowdrop_node_processor_toolbox")), "Tool Box")
        later = ids[i + 1 :]
        for _ in range(rng.randint(0, 3) if later else rng.randint(0, 1)):
            called = rng.choice(later) if later and rng.random() < 0.9 else "missing"
            if cycles and rng.random() < 0.3:
                called = rng.choice(ids[: i + 1])
            add("call", runner_type(called), f"Run {called}")
        by_kind = {k: [n for n, kk in kinds.items() if kk == k] for k in ("tool", "agent", "box", "call")}
        receivers = by_kind["agent"] + by_kind["box"] + by_kind["call"]
        edges: List[Dict[str, Any]] = []
        wired = set()

        def wire(source: str, target: str) -> None:
            if source != target and (source, target) not in wired:
                wired.add((source, target))
                edges.append(tool_edge(source, target))

        for t in by_kind["tool"]:
            for target in rng.sample(receivers, rng.randint(1, min(2, len(receivers)))):
                wire(t, target)
        for b in by_kind["box"]:
            for target in rng.sample(receivers, rng.randint(0, min(2, len(receivers)))):
                wire(b, target)
        if len(by_kind["agent"]) > 1 and rng.random() < 0.2:
            wire(by_kind["agent"][0], by_kind["agent"][1])  # an agent as another's tool: a leaf
        ports: List[Tuple[str, str, str]] = []
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            ports.append(("tool", rng.choice(receivers + by_kind["tool"]), "tool"))
        if rng.random() < 0.5:
            ports.append(("messages", rng.choice(by_kind["agent"]), "messages"))
        workflows.append(workflow(me, nodes, edges, ports))
    # "missing" is in the catalogue but not in the site: its calls are unknown.
    types = base_types() + [runner(w) for w in (*ids, "missing")]
    types.append(node_type("flowdrop_node_processor_toolbox", TOOLBOX_EXECUTOR, True))
    return Site(workflows, types)


class SiteFamily(NamedTuple):
    """A site family: how to build it from its size, and its sizes."""

    build: Callable[[int], Site]
    size: int
    """The size of the issue (``random``: the seed)."""
    small: int
    """A size the smoke tests use."""
    description: str


SITES: Dict[str, SiteFamily] = {
    "fan-in": SiteFamily(fan_in, 10_000, 10, "n parents each calling the shared agent workflow once"),
    "fan-in-calls": SiteFamily(
        lambda n: fan_in(n, one_parent=True), 10_000, 10, "one parent calling the shared agent workflow n times"
    ),
    "chain": SiteFamily(chain, 20, 4, "n + 1 workflows, two calls per level: 2**n call chains"),
    "cycle": SiteFamily(cycle, 2, 2, "w runs v runs w, and an unrelated caller with clashes"),
    "random": SiteFamily(random_site, 0, 0, "a small random site; n is the seed"),
    "random-cycles": SiteFamily(
        lambda n: random_site(n, cycles=True), 0, 0, "a small random site whose calls may form cycles; n is the seed"
    ),
}
