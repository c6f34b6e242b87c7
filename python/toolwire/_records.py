"""The records a check gives: tools, violations, warnings, counts, clash
groups and consumer views, as named tuples, and the grouping of CMP-9
violations by clash.

The records of a site check (docs/SEMANTICS.md section 12) are here too:
a ``CallFinding`` is a CMP-9 clash that only a call shows (a tool of this
workflow meeting one of a workflow it runs, at a consumer inside it), with
the chain of calls, the consumer and each tool's path across the
boundaries, each place in its own file.

Plain data only: nothing here reads the core (``_report`` builds these
records from it, on demand) or imports another module of the package, so
every module can import the records without an import circle.

A clash: one toolbox holding two tools of the same name, wired into 10,000
agents, makes 10,000 violations (one per consumer and name) with a single
cause and a single fix. A ``ClashGroup`` is that cause: the same name and
the same clashing tools (by id), however each consumer is reached. Every
CMP-9 violation belongs to exactly one group; the report formats show a
group once, naming its consumers, instead of repeating it per consumer.
``group_violations`` is the pure-Python grouping, for reports whose
violations are a plain list (reports built by hand); a report backed by the
core provides its own groups, with the same meaning, as a lazy sequence
(``_report.ClashGroups``), without walking every violation.

One module, though long: every record the public API hands out is here,
so that a reader finds them in one place and no two modules define one
(the reports of a site check add six).
"""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

__all__ = [
    "Location",
    "Tool",
    "Rename",
    "Violation",
    "WiredEdge",
    "WiringWarning",
    "Stats",
    "ClashGroup",
    "SeenTool",
    "ConsumerView",
    "NO_BOXES",
    "group_violations",
    "through",
    "NodePlace",
    "CallStep",
    "PathPart",
    "CallTool",
    "CallFinding",
    "call_message",
]

class Location(NamedTuple):
    """A place in the JSON text checked, both 1-based; the column counts
    characters, as Python's ``json`` module does."""

    line: int
    column: int

    def to_dict(self) -> Dict[str, int]:
        return {"line": self.line, "column": self.column}


def _location_dict(location: Optional[Location]) -> Optional[Dict[str, int]]:
    return None if location is None else location.to_dict()


# A record's ``to_dict(max_path=N)`` shortens each path to N ids, as the
# JSON report's --max-path does (0: whole), reading only its ends.


def path_ends(path: Sequence[str], limit: int) -> Tuple[List[str], int, List[str]]:
    """``path`` as (head, number of ids left out, tail): the whole path as
    the head when it has at most ``limit`` ids (or ``limit`` is 0), else its
    first ``limit // 2`` and last ``limit - limit // 2`` ids. Only the ends
    are read: a path may be a lazy sequence of 100,000 ids."""
    length = len(path)
    if limit <= 0 or length <= limit:
        return list(path[:length]), 0, []
    head = max(1, limit // 2)
    tail = max(1, limit - head)
    return list(path[:head]), length - head - tail, list(path[length - tail :])


def path_json(path: Sequence[str], max_path: int) -> List[Any]:
    """The JSON form of a path: its ids, with ``{"omitted": N}`` in place of
    the middle of one longer than ``max_path`` ids."""
    head, omitted, tail = path_ends(path, max_path)
    if not omitted:
        return head
    gap: Dict[str, int] = {"omitted": omitted}
    return [*head, gap, *tail]


class Tool(NamedTuple):
    """A tool that reaches a consumer."""

    id: str
    label: str
    """The label as written (``data.label``, or the node id when it has none)."""
    path: Sequence[str]
    """A shortest chain of node ids over tool edges: ``[tool, box, ..., consumer]``.
    In a report from the core it is a ``ToolPath``: its length is known at
    once, and its ids are read from the core when indexed or iterated."""
    location: Optional[Location] = None
    """Where the tool's node object starts (for a node that is never declared,
    the first tool edge naming it); None when the input was not text."""

    def to_dict(self, max_path: int = 0) -> Dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "path": path_json(self.path, max_path),
            "location": _location_dict(self.location),
        }


class Rename(NamedTuple):
    """One step of a suggested fix: give node ``node`` the label ``new_label``
    (whose tool name is ``new_name``) instead of ``label``."""

    node: str
    label: str
    new_label: str
    new_name: str

    def to_dict(self) -> Dict[str, str]:
        return dict(self._asdict())


class WiredEdge(NamedTuple):
    """A tool edge into a node, as a CMP-10 violation lists it: its index in
    ``edges``, its ``id`` (None without one) and the node it brings a tool
    from."""

    edge: int
    edge_id: Optional[str]
    source: str

    def to_dict(self) -> Dict[str, Any]:
        return {"edge": self.edge, "edge_id": self.edge_id, "source": self.source}


NO_BOXES: Mapping[str, str] = MappingProxyType({})
"""No toolbox labels: the one empty mapping every record without any shares."""


class Violation(NamedTuple):
    """One reason a workflow is refused.

    ``rule == "CMP-9"``: ``consumer``, ``name`` and ``tools`` (two or more,
    sorted by id) are set, and ``fix`` renames all but one of the tools so
    that every name is unique wherever they arrive. ``rule == "EDGE-5"``:
    ``edge`` (its index), ``edge_id`` and ``edge_type`` are set, and
    ``suggestion`` is the closest recognised edge type, if one is close.
    ``rule == "CMP-10"``: tools are wired to a node whose type (by the
    node-type catalogue) does not accept tools; ``consumer`` is that node,
    ``node_type`` its type, ``defined_at`` where the catalogue defines the
    type (``file:line:column``) and ``wired_edges`` every tool edge into
    the node, in edge order.

    ``location`` is the consumer's node object (or, for a consumer that is
    never declared, the first tool edge into it) for CMP-9 and CMP-10, the
    edge for EDGE-5; None when the input was not text.
    """

    rule: str
    message: str
    consumer: Optional[str] = None
    name: Optional[str] = None
    tools: Sequence[Tool] = ()
    edge: Optional[int] = None
    edge_id: Optional[str] = None
    edge_type: Optional[str] = None
    location: Optional[Location] = None
    fix: Sequence[Rename] = ()
    suggestion: Optional[str] = None
    box_labels: Mapping[str, str] = NO_BOXES
    """CMP-9: the ``data.label`` of each toolbox on the tools' paths whose
    label is not its id, by id, for showing paths in words (on paths of up to
    64 nodes: a longer one is a machine-made chain nobody reads hop by hop)."""
    node_type: Optional[str] = None
    defined_at: Optional[str] = None
    wired_edges: Sequence[WiredEdge] = ()

    @property
    def help(self) -> Optional[str]:
        """The suggested fix in words, or None when there is none."""
        if self.fix:
            return "rename " + ", ".join(f"{_quoted(r.node)} to {_quoted(r.new_label)}" for r in self.fix)
        if self.suggestion is not None:
            return f"did you mean {_quoted(self.suggestion)}?"
        return None

    def to_dict(self, max_path: int = 0) -> Dict[str, Any]:
        """The violation as the JSON report has it, each tool's path
        shortened to ``max_path`` ids (0: whole)."""
        if self.rule == "CMP-10":
            return {
                "rule": self.rule,
                "consumer": self.consumer,
                "node_type": self.node_type,
                "message": self.message,
                "location": _location_dict(self.location),
                "defined_at": self.defined_at,
                "edges": [e.to_dict() for e in self.wired_edges],
            }
        if self.rule == "CMP-9":
            return {
                "rule": self.rule,
                "consumer": self.consumer,
                "name": self.name,
                "message": self.message,
                "location": _location_dict(self.location),
                "tools": [t.to_dict(max_path) for t in self.tools],
                "box_labels": dict(self.box_labels),
                "fix": [r.to_dict() for r in self.fix],
            }
        return {
            "rule": self.rule,
            "edge": self.edge,
            "edge_id": self.edge_id,
            "edge_type": self.edge_type,
            "message": self.message,
            "location": _location_dict(self.location),
            "suggestion": self.suggestion,
        }


def _quoted(text: str) -> str:
    """A string as a JSON literal, as the core quotes ids and labels."""
    return json.dumps(text, ensure_ascii=False)


class WiringWarning(NamedTuple):
    """Worth knowing, never a refusal (unless the CLI runs with ``--strict``).

    ``code`` is ``"R8"`` when a tool edge names a node that is never declared
    (``edge`` is that edge's index); ``"NAME-LOSSY"`` when a tool's label
    loses characters on the way to its name (non-ASCII characters are
    dropped: ``"Café" -> caf``); ``"NAME-UNNAMED"`` when nothing is left of
    it but ``unnamed_tool``; ``"DUPLICATE-KEY"`` when a key toolwire reads
    appears twice in one object of the JSON text (the last value is read;
    ``node`` is the node's id, or ``""`` outside a node, and ``edge`` the
    edge's index in an edge). ``location`` is the edge (R8), the repeated
    key (DUPLICATE-KEY) or the node. ``"CMP-10-UNKNOWN"``: nodes receiving
    tool edges have a type the node-type catalogue does not know (or no
    type), so CMP-10 was not checked at them; one warning per type, ``node``
    the first of them by id, located there."""

    code: str
    node: str
    edge: Optional[int]
    message: str
    location: Optional[Location] = None

    def to_dict(self) -> Dict[str, Any]:
        return {
            "code": self.code,
            "node": self.node,
            "edge": self.edge,
            "message": self.message,
            "location": _location_dict(self.location),
        }


class Stats(NamedTuple):
    nodes: int
    edges: int
    tool_edges: int
    consumers: int
    passthroughs: int
    node_types_checked: bool = False
    """Whether CMP-10 was checked: only against a node-type catalogue
    (``node_types=``); without one, tools wired to a node whose type cannot
    take them go unnoticed, and the reports say so. Not among the counts
    ``to_dict`` gives: the reports write it beside them."""

    def to_dict(self) -> Dict[str, int]:
        """The counts (a file's ``stats`` in the JSON report)."""
        counts = self._asdict()
        del counts["node_types_checked"]
        return dict(counts)


class SeenTool(NamedTuple):
    """A tool as one consumer sees it (``explain``)."""

    name: str
    """The tool name the model is given."""
    id: str
    label: str
    path: List[str]
    """A shortest chain of node ids over tool edges: ``[tool, box, ..., consumer]``."""
    location: Optional[Location]
    collides: bool
    """Another tool in the same view has the same name (a CMP-9 violation)."""

    def to_dict(self) -> Dict[str, Any]:
        return {**self._asdict(), "path": list(self.path), "location": _location_dict(self.location)}


class ConsumerView(NamedTuple):
    """Every tool one consumer will be given, flattened through toolboxes,
    by name and then id."""

    consumer: str
    location: Optional[Location]
    tools: List[SeenTool]
    box_labels: Mapping[str, str] = NO_BOXES
    """The ``data.label`` of each toolbox on the paths, as in ``Violation``."""
    forwards: bool = False
    """The node is a passthrough (a toolbox): ``tools`` is what it forwards.
    Names shared among them are no violation at the box (CMP-9 exempts
    passthroughs), only at each consumer they reach together."""

    def to_dict(self) -> Dict[str, Any]:
        return {
            "consumer": self.consumer,
            "location": _location_dict(self.location),
            "tools": [t.to_dict() for t in self.tools],
            "box_labels": dict(self.box_labels),
            "forwards": self.forwards,
        }


class ClashGroup(NamedTuple):
    """CMP-9 violations with one cause: the same ``name`` and the same
    clashing tools, at every consumer they reach together."""

    name: str
    tools: Sequence[Tool]
    """The clashing tools, sorted by id, as in the group's first violation
    (so their paths lead to its first consumer)."""
    through: Optional[str]
    """The id of the toolbox where the clashing tools meet, when they meet in
    one box only; None when they first meet at the consumers themselves, or
    in several places."""
    consumers: Sequence[str]
    """Every consumer the clash reaches, sorted by id. May be a lazy
    sequence with an exact ``len()``: index or slice it, do not walk it."""
    first: Violation
    """The group's first violation (its first consumer): location, fix,
    box labels, help."""

    # Shadows tuple.count(value) on purpose: what a group's count means is
    # how many violations it stands for; nobody counts a group's fields.
    @property
    def count(self) -> int:  # type: ignore[override]
        """How many violations the group stands for (one per consumer)."""
        return len(self.consumers)


def through(tools: Sequence[Tool]) -> Optional[str]:
    """Where tools meet, read off their paths to one consumer: the first box
    on the first tool's path that is on every other tool's path too (the
    consumer, at the end, is no box); None when there is none. A checked
    report knows more (where the tools meet for every consumer, and whether
    that is one box only); this is for reports built by hand."""
    if not tools:
        return None
    others = [set(tool.path[1:-1]) for tool in tools[1:]]
    for box in tools[0].path[1:-1]:
        if all(box in other for other in others):
            return box
    return None


_Key = Tuple[str, Tuple[str, ...]]


def group_violations(violations: Sequence[Violation]) -> List[ClashGroup]:
    """The CMP-9 violations of ``violations`` grouped by (name, tool ids), in
    the order of each group's first violation; consumers sorted by id;
    ``through`` from the first violation's paths. A list, one entry per
    group: meant for list-backed reports, whose violations are all in memory
    already."""
    firsts: Dict[_Key, Violation] = {}
    consumers: Dict[_Key, List[str]] = {}
    for violation in violations:
        if violation.rule != "CMP-9" or violation.consumer is None or violation.name is None:
            continue
        key = (violation.name, tuple(t.id for t in violation.tools))
        if key not in firsts:
            firsts[key] = violation
            consumers[key] = []
        consumers[key].append(violation.consumer)
    return [
        ClashGroup(key[0], first.tools, through(first.tools), sorted(consumers[key]), first)
        for key, first in firsts.items()
    ]


# --- call findings (CMP-9 across workflows, SEMANTICS section 12) -------------------


class NodePlace(NamedTuple):
    """A node of a workflow of the site: the consumer inside a call."""

    workflow: str
    """The id of the workflow the node is in."""
    file: str
    """The file that workflow was read from, as the check was given it."""
    node: str
    """The node's id in that workflow."""
    location: Optional[Location]
    """Where the node's object starts in ``file``; None when not known."""

    def to_dict(self) -> Dict[str, Any]:
        location = _location_dict(self.location)
        return {"workflow": self.workflow, "file": self.file, "node": self.node, "location": location}


class CallStep(NamedTuple):
    """One call of a chain: node ``node`` of workflow ``workflow`` runs
    workflow ``runs``."""

    workflow: str
    file: str
    """The file ``workflow`` was read from."""
    node: str
    """The calling node, in ``workflow``."""
    location: Optional[Location]
    """Where the calling node's object starts in ``file``."""
    runs: str
    """The id of the workflow the node runs."""

    def to_dict(self) -> Dict[str, Any]:
        return {
            "workflow": self.workflow,
            "file": self.file,
            "node": self.node,
            "location": _location_dict(self.location),
            "runs": self.runs,
        }


class PathPart(NamedTuple):
    """The stretch of a tool's path inside one workflow: ``[leaf, ...,
    call node]`` in the leaf's workflow, ``[port node, ..., next call node
    or consumer]`` in each workflow called."""

    workflow: str
    file: str
    """The file ``workflow`` was read from."""
    nodes: Sequence[str]
    """Node ids of ``workflow``, in the order the tool passes them."""
    locations: Sequence[Optional[Location]]
    """Where each of ``nodes`` starts in ``file`` (None when not known)."""

    def to_dict(self, max_path: int = 0) -> Dict[str, Any]:
        """``nodes`` and ``locations`` shortened alike to ``max_path`` items
        (0: whole), ``{"omitted": N}`` in the middle of both."""
        head, omitted, tail = path_ends(self.nodes, max_path)
        locations = [_location_dict(at) for at in self.locations]
        if omitted:
            gap: Dict[str, int] = {"omitted": omitted}
            end = len(locations) - len(tail)
            return {
                "workflow": self.workflow,
                "file": self.file,
                "nodes": [*head, gap, *tail],
                "locations": [*locations[: len(head)], gap, *locations[end:]],
            }
        return {"workflow": self.workflow, "file": self.file, "nodes": head, "locations": locations}


class CallTool(NamedTuple):
    """A tool of a call finding: a leaf of workflow ``workflow`` and the way
    it reaches the consumer, across calls."""

    workflow: str
    """The id of the workflow the tool is a node of."""
    file: str
    id: str
    """The tool's node id in ``workflow``."""
    label: str
    """The label as written (the node id when it has none)."""
    location: Optional[Location]
    """Where the tool's node starts in ``file``."""
    path: Sequence[PathPart]
    """One part per workflow the tool passes through, in order: its path
    crosses each call as ``[leaf, ..., N] => W: [I, ..., C]``."""

    def to_dict(self, max_path: int = 0) -> Dict[str, Any]:
        return {
            "workflow": self.workflow,
            "file": self.file,
            "id": self.id,
            "label": self.label,
            "location": _location_dict(self.location),
            "path": [part.to_dict(max_path) for part in self.path],
        }


class CallFinding(NamedTuple):
    """A CMP-9 clash that only a call shows (SEMANTICS section 12): tools of
    this workflow and of a workflow it runs (directly or through further
    calls) share ``name`` at ``consumer``, a consumer inside the called
    workflow. It belongs to the report of the workflow whose node starts
    the chain, and is located there (``location``).

    ``rule`` is always ``"CMP-9"``. ``chains`` is the exact number of call
    chains that bring this same clash (a Python int: it may exceed 2**64);
    ``chain`` is the shortest of them, ``chain[0]`` a node of this
    workflow."""

    rule: str
    message: str
    name: str
    """The tool name the tools share."""
    chain: Sequence[CallStep]
    """The calls from this workflow to the consumer's workflow, in order."""
    consumer: NodePlace
    """The consumer inside, in the last workflow of the chain."""
    tools: Sequence[CallTool]
    """The clashing tools, sorted by (workflow, id)."""
    chains: int = 1

    @property
    def location(self) -> Optional[Location]:
        """Where the finding is: the calling node that starts its chain."""
        return self.chain[0].location if self.chain else None

    @property
    def workflow(self) -> str:
        """The id of the workflow whose report holds the finding."""
        return self.chain[0].workflow if self.chain else self.consumer.workflow

    @property
    def help(self) -> str:
        """What to do, in words: rename all but one of the tools."""
        return f"rename {'one' if len(self.tools) == 2 else 'all but one'} of {_call_tools(self.tools, self.workflow)}"

    def to_dict(self, max_path: int = 0) -> Dict[str, Any]:
        """The finding as the JSON report has it, each part of each tool's
        path shortened to ``max_path`` nodes (0: whole)."""
        return {
            "rule": self.rule,
            "name": self.name,
            "message": self.message,
            "location": _location_dict(self.location),
            "chains": self.chains,
            "chain": [step.to_dict() for step in self.chain],
            "consumer": self.consumer.to_dict(),
            "tools": [tool.to_dict(max_path) for tool in self.tools],
        }


class CallSeenTool(NamedTuple):
    """A tool as a consumer inside a called workflow sees it in one call
    (``explain_calls``): one of that workflow's own, or one of the caller's
    wired to the calling node."""

    name: str
    """The tool name the model is given."""
    workflow: str
    """The id of the workflow the tool is a node of."""
    file: str
    id: str
    """The tool's node id in ``workflow``."""
    label: str
    location: Optional[Location]
    """Where the tool's node starts in ``file``."""
    path: Sequence[PathPart]
    """``[tool, ..., consumer]`` for a tool of the called workflow;
    ``[tool, ..., N]`` then ``[port node, ..., consumer]`` for one of the
    caller's (``[leaf, ..., N] => W: [I, ..., C]``)."""
    collides: bool
    """Another tool of the same view has the same name (CMP-9)."""

    def to_dict(self) -> Dict[str, Any]:
        return {
            "name": self.name,
            "workflow": self.workflow,
            "file": self.file,
            "id": self.id,
            "label": self.label,
            "location": _location_dict(self.location),
            "path": [part.to_dict() for part in self.path],
            "collides": self.collides,
        }


class CallView(NamedTuple):
    """What one consumer inside a called workflow sees in one call into it
    (SEMANTICS 12, one level): its own tools and those the call's workflow
    wires to the calling node, by name, then workflow, then id."""

    consumer: NodePlace
    """The consumer, in the workflow explained: a node one of its ``tool``
    input ports reaches."""
    call: CallStep
    """The call: a node of another workflow of the site that runs it."""
    tools: Sequence[CallSeenTool]
    outer_calls: int = 0
    """How many calls into the caller's workflow hand their tools on to the
    calling node too (through its own ``tool`` ports): those tools reach the
    consumer as well, but are one level further out and not listed (explain
    the caller's workflow to see them at the calling node)."""

    def to_dict(self) -> Dict[str, Any]:
        return {
            "consumer": self.consumer.to_dict(),
            "call": self.call.to_dict(),
            "tools": [t.to_dict() for t in self.tools],
            "outer_calls": self.outer_calls,
        }


def _of_workflow(workflow: str, home: str) -> str:
    return "of this workflow" if workflow == home else f"of workflow {_quoted(workflow)}"


def _call_tools(tools: Sequence[CallTool], home: str) -> str:
    """``"a" ("A") of this workflow and "b" ("B") of workflow "w"``."""
    named = [f"{_quoted(t.id)} ({_quoted(t.label)}) {_of_workflow(t.workflow, home)}" for t in tools]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"


def call_message(
    name: str, chain: Sequence[CallStep], consumer: NodePlace, tools: Sequence[CallTool], chains: int
) -> str:
    """A call finding's message, in the manner of a CMP-9 violation's: how
    many tools reach which consumer of which workflow, through which call
    of this workflow, the name they share, each tool with its workflow, and
    how many chains of calls bring the clash when more than one does."""
    home = chain[0].workflow if chain else consumer.workflow
    start = f" in a call from {_quoted(chain[0].node)}" if chain else ""
    through = ""
    if len(chain) > 1:
        through = " through " + ", ".join(f"{_quoted(s.node)} of workflow {_quoted(s.workflow)}" for s in chain[1:])
    message = (
        f"{len(tools)} tools reaching {_quoted(consumer.node)} of workflow {_quoted(consumer.workflow)}{start}"
        f"{through} share the name {_quoted(name)}: {_call_tools(tools, home)}"
    )
    if chains > 1:
        message += f"; {chains:,} chains of calls bring this clash, the shortest shown"
    return message
