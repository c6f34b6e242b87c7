"""The Drupal YAML layout: a workflow as ``drush config:export`` writes the
config entity ``flowdrop_workflow.flowdrop_workflow.<id>.yml`` (docs/SEMANTICS.md
section 10), and, beside it, a node-type catalogue (section 11).

Drupal serialises config with Symfony's YAML dumper: block style, two spaces
of indentation, a sequence item that is a mapping written as ``-`` alone on
its line with the mapping below it, an empty array as ``{  }``, a string plain
unless something in it needs quotes (then single quotes, or double quotes
when it holds control characters or when they are shorter), and a multi-line
string as a literal block. :func:`scalar` and :func:`block` do the same, and
quote what a YAML 1.1 reader (PyYAML) or a YAML 1.2 one would take for a
number (``0o17``, ``0b1``, ``1_000``, ``.inf``), so that both read exactly
the generated strings. On the real exports of ``/work/shared`` the result is
byte for byte what Drupal wrote (tests/test_generate_yaml.py).

Records are not emitted one value at a time: that would cost ten times what
the JSON writer spends on a record. Each entry of a dialect's JSON record
tables (:class:`~toolwire.generate.dialects.Dialect`) is rendered once with
placeholder characters for the per-record values (id, type, label, endpoints),
parsed back, and emitted as YAML with those placeholders turned into fields of
a compiled f-string (:func:`yaml_dialect`). A YAML record is therefore the
same tree as its JSON record by construction, with the same noise, key order
and values, and the writer's loops serve both layouts.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any, Callable, Dict, Iterator, List, Tuple

from .dialects import TOOL_TYPES, Dialect, EdgeEntry, NodeEntry

INDENT = "  "

# Strings that YAML 1.1 (yes/no/on/off) or 1.2 read as booleans or null, and
# Symfony's own list (it quotes y and n too).
_WORDS = frozenset({"null", "~", "true", "false", "y", "n", "yes", "no", "on", "off"})
# Characters Symfony escapes in double quotes; then what YAML cannot hold raw
# at all (the other C1 controls, surrogates, U+FFFE, U+FFFF) and the
# byte-order mark, which YAML 1.2 forbids inside a document.
_DOUBLE = re.compile("[\x00-\x1f\x7f-\x9f\xa0\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
# Symfony's reasons for single quotes: whitespace or an indicator anywhere,
# or an indicator first.
_SINGLE = re.compile(r"[\s'\":{}\[\],&*#?]|\A[-?|<>=!%@`]")
# What some reader takes for a number or a date, which Symfony quotes too
# (PHP's is_numeric, its int, hex and timestamp patterns): decimal, with
# YAML 1.1's underscores; 0x, 0o (YAML 1.2) and 0b (1.1) integers; .inf
# and .nan; a date. (Sexagesimal 1:30 and times hold a colon: quoted above.)
_NUMBERISH = re.compile(
    r"[-+]?(?:\.[0-9_]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?0[xob][0-9a-fA-F_]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
)
# Most ids, types and handles: plain whatever the reader, decided at once.
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9]*[_./-][A-Za-z0-9_./-]*\Z")
_ESCAPES = {
    "\x00": "\\0", "\x07": "\\a", "\x08": "\\b", "\t": "\\t", "\n": "\\n", "\x0b": "\\v", "\x0c": "\\f",
    "\r": "\\r", "\x1b": "\\e", "\x85": "\\N", "\xa0": "\\_", "\u2028": "\\L", "\u2029": "\\P",
    "\\": "\\\\", '"': '\\"',
}  # fmt: skip
_TO_ESCAPE = re.compile(r'[\\"]|' + _DOUBLE.pattern)


def _escape(match: "re.Match[str]") -> str:
    ch = match.group()
    known = _ESCAPES.get(ch)
    if known is not None:
        return known
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def _double(text: str) -> str:
    return '"' + _TO_ESCAPE.sub(_escape, text) + '"'


def scalar(text: str) -> str:
    """``text`` as one YAML scalar on one line, quoted as Drupal's dumper
    quotes it (see the module's docstring for the few more it quotes)."""
    if _PLAIN.match(text):
        return text
    if not text:
        return "''"
    if _DOUBLE.search(text):
        return _double(text)
    if text.lower() in _WORDS or _SINGLE.search(text) or _NUMBERISH.fullmatch(text):
        single = "'" + text.replace("'", "''") + "'"
        if "'" in text:
            # Symfony's choice too: double quotes when they come out shorter.
            double = _double(text)
            if len(double) < len(single):
                return double
        return single
    return text


def _literal_lines(text: str) -> List[str]:
    """The header and lines of ``text`` as a literal block, or ``[]`` when
    it is better quoted. The header chomps as Drupal's does: ``|-`` without
    a final line break, ``|`` with one, ``|+`` with more (kept as empty
    lines). Quoted instead: no line break, a carriage return, characters a
    literal block cannot carry, nothing but line breaks, a line of spaces
    alone, or a first line of content starting with a space (it would need
    an indentation indicator) or a tab (libyaml, finding the block's
    indentation, refuses it)."""
    if "\n" not in text or "\r" in text or not text.strip("\n"):
        return []
    if _DOUBLE.search(text.replace("\n", "").replace("\t", "")):
        return []
    lines = text.split("\n")
    if any(line and not line.strip(" ") for line in lines) or next(line for line in lines if line)[0] in " \t":
        return []
    if not text.endswith("\n"):
        return ["|-", *lines]
    return ["|+" if text.endswith("\n\n") else "|", *lines[:-1]]


def _inline(value: Any) -> str:
    """A scalar value (or an empty container) on one line."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        if text in ("inf", "-inf", "nan"):
            return {"inf": ".inf", "-inf": "-.inf", "nan": ".nan"}[text]
        # 1e+300 is a string to YAML 1.1, which wants a dot in every float.
        if "." not in text:
            mantissa, _, exponent = text.partition("e")
            text = f"{mantissa}.0e{exponent}" if exponent else f"{mantissa}.0"
        return text
    if isinstance(value, str):
        return scalar(value)
    if not value:
        return "{  }"  # PHP's empty array: Drupal cannot tell [] from {}
    raise TypeError(f"not a scalar: {type(value).__name__}")


def _after_key(item: Any, indent: str) -> str:
    """What follows ``key:`` or ``-`` for a scalar or empty ``item`` in a
    block at ``indent``: `` value``, or a literal block's header and its
    lines (Drupal leaves a literal block's empty lines unindented)."""
    literal = _literal_lines(item) if isinstance(item, str) else []
    if not literal:
        return " " + _inline(item)
    inner = indent + INDENT
    return " " + literal[0] + "".join("\n" + (inner + line if line else "") for line in literal[1:])


def block(value: Any, indent: str = "") -> Iterator[str]:
    """The lines of a non-empty mapping or sequence in Drupal's block style,
    each starting with ``indent``; nested blocks two spaces further in."""
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    for key, item in items:
        head = indent + ("-" if key is None else scalar(key) + ":")
        if isinstance(item, (dict, list)) and item:
            yield head
            yield from block(item, indent + INDENT)
        else:
            yield head + _after_key(item, indent)


def document(mapping: Dict[str, Any]) -> str:
    """A whole YAML document: ``mapping`` at the top level."""
    return "".join(line + "\n" for line in block(mapping))


# -- record templates ------------------------------------------------------

# Placeholders for the per-record values, from the Private Use Area: no JSON
# table entry holds one, so finding one means "a field goes here".
_HOLES = {"\ue000": "nid", "\ue001": "ntype", "\ue002": "label", "\ue010": "k", "\ue011": "src", "\ue012": "dst"}
_HOLE = re.compile("[" + "".join(_HOLES) + "]")


def _label(label: str, indent: str) -> str:
    """A label as the writer passes it (JSON text, quotes included) as what
    follows its key in a block at ``indent``. Most labels have no escape,
    and their text is what is between the quotes."""
    return _after_key(label[1:-1] if "\\" not in label else json.loads(label), indent)


class _Template:
    """A YAML record template under construction: literal text, and fields
    that become ``{...}`` of an f-string."""

    def __init__(self) -> None:
        self.pieces: List[str] = []
        self.constants: Dict[str, str] = {}

    def text(self, literal: str) -> None:
        self.pieces.append(literal.replace("{", "{{").replace("}", "}}"))

    def constant(self, value: str) -> str:
        name = f"_c{len(self.constants)}"
        self.constants[name] = value
        return name

    def field(self, value: str, indent: str) -> None:
        """What follows a key whose value holds placeholders: quoted when the
        record is written, from the values it gets then. A label may need a
        literal block, so it is told its indentation."""
        if value == "\ue002":
            self.pieces.append("{_label(label, " + self.constant(indent) + ")}")
            return
        holes = _HOLE.findall(value)
        parts = []
        for i, literal in enumerate(_HOLE.split(value)):
            if literal:
                parts.append(self.constant(literal))
            if i < len(holes):
                parts.append(f"str({_HOLES[holes[i]]})" if holes[i] == "\ue010" else _HOLES[holes[i]])
        self.pieces.append(" {_scalar(" + " + ".join(parts) + ")}")

    def compile(self, params: str) -> Callable[..., str]:
        namespace: Dict[str, Any] = {"_scalar": scalar, "_label": _label, **self.constants}
        # Source made from our own record tables, never from input (as
        # dialects._compile): an f-string is parsed once, not per record.
        function: Callable[..., str] = eval(f"lambda {params}: f{''.join(self.pieces)!r}", namespace)
        return function


def _record(value: Dict[str, Any], params: str) -> Callable[..., str]:
    """A function writing ``value`` (a JSON record with placeholders) as one
    item of a top-level sequence: ``  -`` and its mapping, without the final
    line break (the writer joins records with one)."""
    template = _Template()
    template.text(INDENT + "-")
    _emit(template, value, INDENT * 2)
    return template.compile(params)


def _emit(template: _Template, value: Any, indent: str) -> None:
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    for key, item in items:
        template.text("\n" + indent + ("-" if key is None else scalar(key) + ":"))
        if isinstance(item, (dict, list)) and item:
            _emit(template, item, indent + INDENT)
        elif isinstance(item, str) and _HOLE.search(item):
            template.field(item, indent)
        else:
            template.text(_after_key(item, indent))


def _node_entry(entry: NodeEntry) -> NodeEntry:
    render, config, where = entry
    value = json.loads(render("\ue000", "\ue001", '"\ue002"', config, where))
    return (_record(value, "nid, ntype, label, config, where"), "", "")


def _edge_entry(entry: EdgeEntry) -> EdgeEntry:
    render, extra = entry
    value = json.loads(render("\ue010", "\ue011", "\ue012", extra))
    return (_record(value, "k, src, dst, extra"), "")


def yaml_dialect(fmt: Dialect) -> Dialect:
    """``fmt`` writing YAML records: each table entry turned into its YAML
    twin, at the same index, so record ``n`` gets the same noise in both
    layouts. Ids and id helpers are shared."""
    # Entries repeat (a table of 256 drawn from a few renderers and noise
    # snippets): each distinct one is converted once.
    converted: Dict[Tuple[Any, ...], Any] = {}

    def once(entry: Any, convert: Callable[[Any], Any]) -> Any:
        key = (id(entry[0]), *entry[1:])
        if key not in converted:
            converted[key] = convert(entry)
        return converted[key]

    twin = copy.copy(fmt)
    twin.nodes = {kind: [once(e, _node_entry) for e in table] for kind, table in fmt.nodes.items()}
    twin.edges = {form: [once(e, _edge_entry) for e in table] for form, table in fmt.edges.items()}
    return twin


# -- the document around the records ----------------------------------------

# Fixed, so that a seed gives the same bytes: created and changed are the
# Unix time of 2026-01-01, when no real clock is wanted.
_EPOCH = 1767225600
UUID = "00000000-0000-4000-8000-000000000000"


def workflow_head(workflow_id: str, label: str, description: str) -> str:
    """The config entity's keys before ``nodes``, in Drupal's order."""
    return document(
        {
            "uuid": UUID,
            "langcode": "en",
            "status": True,
            "dependencies": {},
            "id": workflow_id,
            "label": label,
            "description": description,
        }
    )


def workflow_tail(noise: bool) -> str:
    """The keys after ``edges``. With noise, ``metadata`` nests keys named
    ``nodes`` and ``edges`` that a reader must not take for the workflow's."""
    metadata: Dict[str, Any] = (
        {"generator": "toolwire.generate", "nodes": "ignored", "edges": {"x": [1, 2]}} if noise else {}
    )
    return document({"metadata": metadata, "created": _EPOCH, "changed": _EPOCH, "uid": 0})


def section_head(name: str) -> str:
    return f"{name}:\n"


def empty_section(name: str) -> str:
    return f"{name}: {{  }}\n"


WORKFLOW_FILE = "flowdrop_workflow.flowdrop_workflow.{}.yml"
NODE_TYPE_FILE = "flowdrop_node_type.flowdrop_node_type.{}.yml"
TOOLBOX_EXECUTOR = "flowdrop_node_processor:toolbox"


def node_type_entity(type_id: str, label: str, category: str, executor: str, accepts_tools: bool) -> Dict[str, Any]:
    """A node-type config entity as Drupal exports it (docs/SEMANTICS.md
    section 11): it accepts tools when ``accepts_tools``; ``executor`` is its
    ``executor_plugin``."""
    return {
        "uuid": UUID,
        "langcode": "en",
        "status": True,
        "dependencies": {},
        "id": type_id,
        "label": label,
        "description": f"{label} (written by toolwire generate)",
        "category": category,
        "plugin_version": "1.0.0",
        "enabled": True,
        "parameters": {
            "tool": {"configurable": False, "connectable": accepts_tools, "required": False},
            "input": {"configurable": True, "connectable": True, "required": False, "default": ""},
        },
        "outputs": {"tool": {"exposed": True}, "result": {"exposed": True}},
        "tags": {},
        "executor_plugin": executor,
        "visual_type": "default",
        "supported_visual_types": ["default"],
    }


def node_types(fmt: Dialect) -> List[Tuple[str, Dict[str, Any]]]:
    """The node-type catalogue of the types ``fmt`` writes, as Drupal config
    (file name, entity): agents accept tools (``parameters.tool.connectable:
    true``), the Tool Box too and runs the toolbox processor (a passthrough
    whatever its id, section 11), tools and the chat nodes accept none. With
    it, a check of the directory finds no CMP-10 violation and nothing
    unknown: every node wired a tool accepts tools."""

    types = [
        node_type_entity(fmt.agent_type, "Agent", "agents", f"flowdrop_node_processor:{fmt.agent_type}", True),
        node_type_entity(fmt.box_type, "Tool Box", "tools", TOOLBOX_EXECUTOR, True),
        *(
            node_type_entity(t, t.replace("_", " ").title(), "tools", f"flowdrop_node_processor:{t}", False)
            for t in TOOL_TYPES
        ),
        node_type_entity("chat_input", "Chat Input", "inputs", "flowdrop_node_processor:chat_input", False),
        node_type_entity("text_output", "Text Output", "outputs", "flowdrop_node_processor:text_output", False),
    ]
    return [(NODE_TYPE_FILE.format(t["id"]), t) for t in types]


def workflow_file_id(name: str, default: str) -> str:
    """The id a file named ``name`` gives its workflow: ``<id>`` of
    ``flowdrop_workflow.flowdrop_workflow.<id>.yml``, else ``default``."""
    prefix, suffix = WORKFLOW_FILE.split("{}")
    if name.startswith(prefix) and name.endswith(suffix) and len(name) > len(prefix) + len(suffix):
        return name[len(prefix) : -len(suffix)]
    return default


_MACHINE_NAME = re.compile(r"[a-z0-9_]+\Z")


def valid_id(workflow_id: str) -> bool:
    """Whether ``workflow_id`` is a Drupal machine name, as config ids are."""
    return bool(_MACHINE_NAME.match(workflow_id))
