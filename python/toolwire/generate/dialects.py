"""Dialects: how each export form (spec, editor, drupal) writes ids, nodes
and edges, with or without the noise a check must skip."""

from __future__ import annotations

import json
import random
import string
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

TOOL_TYPES = (
    "http_request", "web_search", "calculator", "sql_query", "code_interpreter", "send_mail",
    "calendar_lookup", "vector_search", "file_reader", "weather_api", "translator", "image_gen",
    "workflow_executor",
)  # fmt: skip
_PASSTHROUGH = {"spec": "toolbox", "editor": "toolbox", "drupal": "flowdrop_node_processor_toolbox"}
_AGENT = {"spec": "ai_agent", "editor": "ai_agent", "drupal": "flowdrop_node_processor_reason"}
# Id prefixes. The spec's examples write `tool_a`, `box_1`; the editor's
# `t.1`, `box.1`; Drupal exports `<node type>.<n>`.
_ID_SEP = {"spec": "_", "editor": ".", "drupal": "."}

# Records pick their noise from seeded tables of this many entries, indexed
# by a multiplicative hash of the record number: one lookup per record.
_TABLE = 256


def _noise_snippets() -> Dict[str, List[str]]:
    """Pre-escaped ``config`` payloads the check must skip, per node kind. Some
    hide look-alikes of the fields the check reads (nested ``nodes``/``edges``,
    ``type: toolbox``, ``edgeType``, ``-input-tool`` handles, labels) and every
    JSON escape, so a scanner that is not strict about nesting fails."""

    def ports(outputs: Sequence[str], inputs: Sequence[str]) -> Dict[str, Any]:
        return {
            "outputs": [{"id": p, "exposed": p == "tool"} for p in outputs],
            "inputs": [{"id": p} for p in inputs],
        }

    tool_configs: List[Dict[str, Any]] = [
        {"url": "", "method": "GET", "timeout": 30, "ports": ports(["body", "tool"], ["url"])},
        {"query": "", "top_k": 5, "threshold": 0.75},
        {"maxRetries": 0, "requiresConfirmation": "waive"},
        {"expression": "a * (b + 1)", "precision": -0.0, "scale": 1e300, "big": 12345678901234567890},
        {"nested": {"id": "decoy", "type": "toolbox", "data": {"label": "Web Search", "edgeType": "tool_availability"}}},
        {"targetHandle": "agent.1-input-tool", "edges": [], "nodes": [{"id": "x"}]},
        {"prompt": 'He said "hi" \\ then left.\n\tTab, é, 😀, \u2028, \x00.'},
        {"headers": {}, "empty": [], "deep": [[[[[[{"a": [None, True, False]}]]]]]]},
    ]
    agent_configs: List[Dict[str, Any]] = [
        {"model": "claude-haiku-4-5", "temperature": 0, "maxTokens": 200000},
        {"systemPrompt": "You are a careful agent.\nUse the tools; cite \"sources\" \\ never guess. ✓"},
        {"subworkflow": {"nodes": [{"id": "ghost", "type": "toolbox", "data": {"label": "Get User"}}],
                         "edges": [{"source": "ghost", "target": "x", "data": {"edgeType": "tool_availability"}}]}},
        {"loop": {"max_iterations": 8, "stop_on": ["final_answer", "error"]}},
    ]  # fmt: skip
    box_configs: List[Dict[str, Any]] = [{"mode": "all"}, {"tools": [], "expose": True}]

    def dump(objs: Sequence[Dict[str, Any]], ascii: bool) -> List[str]:
        return [',"config":' + json.dumps(o, ensure_ascii=ascii, separators=(",", ":")) for o in objs]

    return {
        "tool": dump(tool_configs, False) + dump(tool_configs, True),
        "agent": dump(agent_configs, False) + dump(agent_configs, True),
        "box": dump(box_configs, False),
        "other": [',"config":{"nodeType":"default"}'],
    }


_EDGE_NOISE = (
    ',"style":"stroke: var(--fd-edge-tool); stroke-dasharray: 5 3;","markerEnd":{"type":"arrowclosed","width":16}',
    ',"class":"flowdrop--edge--data"',
    ',"animated":false,"selected":false',
)


def _compile(template: str, params: str) -> Callable[..., str]:
    """Turns a ``str.format`` template over ``{0}``, ``{1}``... into a
    function of ``params`` built on an f-string. ``str.format`` parses its
    template on every call, which is most of the cost of a record; an
    f-string is parsed once. (The same technique as ``dataclasses``: source
    generated from our own constant templates, never from input.)"""
    names = params.split(", ")
    pieces = []
    for literal, field, _, _ in string.Formatter().parse(template):
        pieces.append(_braces(literal))
        if field is not None:
            pieces.append("{" + names[int(field)] + "}")
    function: Callable[..., str] = eval(f"lambda {params}: f{''.join(pieces)!r}")
    return function


def _braces(text: str) -> str:
    """``text`` made literal inside a ``str.format`` template."""
    return text.replace("{", "{{").replace("}", "}}")


def _node_template(dialect: str, swapped: bool) -> str:
    """A node record as a ``str.format`` template over (id, type, label JSON,
    config noise, position noise), for :func:`_compile`."""
    if dialect == "spec":
        head, data = '"id":"{0}","type":"{1}"', '"data":{{"label":{2}{3}}}'
    elif dialect == "editor":
        head, data = '"id":"{0}","type":"universalNode"', '"data":{{"label":{2},"metadata":{{"id":"{1}"}}{3}}}'
    else:
        head, data = '"id":"{0}"', '"data":{{"label":{2}{3},"metadata":{{"node_type_id":"{1}"}}}}'
    if swapped:  # key order must not matter
        return "{{" + data + "{4}," + head + "}}"
    return "{{" + head + "{4}," + data + "}}"


def _edge_template(eid: str, handles: Optional[Tuple[str, str]], data: str, swapped: bool) -> str:
    """An edge record as a template over (number, source, target, noise), for
    :func:`_compile`. Handles repeat the endpoints, as every editor export does."""
    h = f',"sourceHandle":"{{1}}-output-{handles[0]}","targetHandle":"{{2}}-input-{handles[1]}"' if handles else ""
    d = _braces(data)
    if swapped:
        return '{{"data":' + d + ',"target":"{2}","source":"{1}"' + h + ',"id":"' + eid + '{0}"{3}}}'
    return '{{"id":"' + eid + '{0}","source":"{1}","target":"{2}"' + h + ',"data":' + d + "{3}}}"


Renderer = Callable[..., str]
NodeEntry = Tuple[Renderer, str, str]  # (render, config noise, position noise)
EdgeEntry = Tuple[Renderer, str]  # (render, noise)


class Dialect:
    """How one dialect writes ids, nodes and edges, with or without noise.

    ``nodes[kind]`` and ``edges[form]`` are tables of ``_TABLE`` entries;
    record ``n`` uses entry ``(n * 40503) & mask`` (the writers inline it).
    Edge forms: ``tool`` (tool wiring, in the dialect's usual
    way and its variants), ``data``, ``trigger`` and ``output`` (non-tool),
    ``decoy-handle`` (a tool-looking handle that is not ``-input-tool``:
    ``-input-tools``, ``-input-tool_calls``...) and ``decoy-declared`` (a
    recognised non-tool ``edgeType`` on a ``-input-tool`` handle)."""

    def __init__(self, dialect: str, noise: bool, rng: random.Random) -> None:
        self.dialect = dialect
        self.noise = noise
        self.box_type = _PASSTHROUGH[dialect]
        self.agent_type = _AGENT[dialect]
        sep = _ID_SEP[dialect]
        if dialect == "drupal":
            self.tool_prefix = [t + sep for t in TOOL_TYPES]
            self.agent_prefix, self.box_prefix = self.agent_type + sep, self.box_type + sep
        else:
            self.tool_prefix = ["tool" + sep] * len(TOOL_TYPES)
            self.agent_prefix, self.box_prefix = "agent" + sep, "box" + sep
        self.sep = sep
        self.nodes = self._node_tables(rng)
        self.edges = self._edge_tables(rng)
        self.mask = _TABLE - 1

    def tool_id(self, n: int) -> str:
        return f"{self.tool_prefix[n % len(TOOL_TYPES)]}{n}"

    def agent_id(self, a: int) -> str:
        return f"{self.agent_prefix}{a}"

    def box_id(self, b: int) -> str:
        return f"{self.box_prefix}{b}"

    def data_id(self, kind: str, k: int) -> str:
        return f"{kind}{self.sep}{k}"

    def _node_tables(self, rng: random.Random) -> Dict[str, List[NodeEntry]]:
        plain = _compile(_node_template(self.dialect, False), "nid, ntype, label, config, where")
        if not self.noise:
            return {kind: [(plain, "", "")] * _TABLE for kind in ("agent", "tool", "box", "other")}
        swapped = _compile(_node_template(self.dialect, True), "nid, ntype, label, config, where")
        tables: Dict[str, List[NodeEntry]] = {}
        for kind, configs in _noise_snippets().items():
            table: List[NodeEntry] = []
            for _ in range(_TABLE):
                # Light on average (about 60 bytes a node), as large exports
                # are: everyone has a position, some have a size or a config.
                where = f',"position":{{"x":{rng.randrange(-2000, 2000)},"y":{rng.randrange(-1500, 1500)}}}'
                if rng.random() < 0.2:
                    where += f',"measured":{{"width":280,"height":{rng.randrange(200, 400)}}}'
                config = rng.choice(configs) if rng.random() < 0.2 else ""
                table.append((swapped if rng.random() < 0.2 else plain, config, where))
            tables[kind] = table
        return tables

    def _edge_tables(self, rng: random.Random) -> Dict[str, List[EdgeEntry]]:
        spec, noise = self.dialect == "spec", self.noise
        eid = "xy-edge__" if self.dialect == "drupal" else "e"
        tool_handles = ("tool", "tool")

        def styled(tag: str) -> str:
            return f'{{"metadata":{{"edgeType":"{tag}"}}}}'

        compiled: Dict[str, Renderer] = {}
        tables: Dict[str, List[EdgeEntry]] = {}
        for form in ("tool", "data", "trigger", "output", "decoy-handle", "decoy-declared"):
            table: List[EdgeEntry] = []
            for _ in range(_TABLE):
                r = rng.random()
                handles: Optional[Tuple[str, str]] = tool_handles
                if form == "tool":
                    if spec:
                        data = '{"edgeType":"tool_availability"}'
                        handles = tool_handles if noise and r < 0.5 else None
                    elif self.dialect == "editor" and r < 1 / 16:
                        # The declaration wins over a handle that is not a tool handle (EDGE-5 rule 1).
                        handles = ("tool", "tools")
                        data = '{"edgeType":"tool_availability","metadata":{"edgeType":"tool"}}'
                    else:
                        # Real exports sometimes style a tool edge as data: the styling tag is never read.
                        data = styled("data" if r > 15 / 16 else "tool")
                elif form in ("data", "trigger", "output"):
                    tag = "trigger" if form == "trigger" else "data"
                    handles = (tag, "trigger" if form == "trigger" else "prompt")
                    data = f'{{"edgeType":"{tag}"}}' if spec else styled(tag)
                    if spec and not noise:
                        handles = None
                elif form == "decoy-handle":
                    handles = ("tool", rng.choice(("tools", "tool_calls", "tool-2", "toolbox", "tool ", "TOOL")))
                    data = styled("tool")
                else:
                    decl = rng.choice(("data", "trigger", "loopback", "error"))
                    data = f'{{"edgeType":"{decl}","metadata":{{"edgeType":"tool"}}}}'
                swapped = noise and rng.random() < 0.2
                extra = rng.choice(_EDGE_NOISE) if noise and rng.random() < 0.15 else ""
                template = _edge_template(eid, handles, data, swapped)
                if template not in compiled:
                    compiled[template] = _compile(template, "k, src, dst, extra")
                table.append((compiled[template], extra))
            tables[form] = table
        return tables


