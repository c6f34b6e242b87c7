"""``toolwire explain``: what each consumer will be given, for people
(``text``) and for programs (``json``).

Text: one block per consumer, ``path:line:col: consumer gets N tools``, then
one line per tool (its name, node id, label and place) with its path below,
and a mark on every tool whose name another tool in the same view shares
(a CMP-9 violation). A toolbox asked about (``--consumer``) ``forwards`` its
tools instead: CMP-9 exempts passthroughs, so a name shared there is said to
be a clash at the consumers the tools reach, not at the box.

In a site (SEMANTICS 12) the views are followed by the per-call views
(``CallView``): per consumer inside that a ``tool`` input port reaches, per
call into the workflow, what it sees there, its own tools and the caller's
with each tool's workflow, place and path across the call, and one line
when the caller's own ports hand the calling node more (one level only).

JSON: one document, ``{"path": ..., "consumers": [view, ...]}``, and
``"calls": [call view, ...]`` when the workflow was explained in a site
(docs/explain.schema.json), indented by two.

Both take the views as an iterable and write each as it comes, so a
workflow of thousands of consumers is written while the later views are
still being made, and is never held whole."""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Optional, TextIO

from .._records import CallView, ConsumerView
from .common import json_string, node_id, of_workflow, part_words, place, plural, quoted, shortened, text_width
from .text_format import LONGEST_SHOWN_PATH, column_width, display_path, padded_width, node_text, path_text, shown_id, shown_label


def write_text(
    path: str, views: Iterable[ConsumerView], out: TextIO, calls: Optional[Iterable[CallView]] = None
) -> None:
    """``calls``: the per-call views, when the workflow is explained in a
    site; read once the views are written."""
    shown = display_path(path)
    written = False
    for view in views:
        if written:
            out.write("\n")
        written = True
        out.write(_block(shown, view))
    if not written:
        out.write(f"{shown}: no node receives tools\n")
    for call in calls or ():
        out.write("\n" + _call_block(shown, call))


def _call_block(shown: str, view: CallView) -> str:
    """What one consumer inside sees in one call, each line ending in a
    newline: a header naming the call, a line per tool (its name, id,
    label, workflow and place) with its path across the call below it, and
    the calls further out counted on a line of their own."""
    consumer, call = view.consumer, view.call
    where = "" if consumer.location is None else f":{consumer.location.line}:{consumer.location.column}"
    shared = sum(t.collides for t in view.tools)
    note = f" ({plural(shared, 'tool')} share a name: CMP-9)" if shared else ""
    lines = [
        f"{shown}{where}: {node_id(consumer.node)} gets {plural(len(view.tools), 'tool')} in the call from "
        f"{node_id(call.node)} of workflow {quoted(call.workflow)} ({place(call.file, call.location)}){note}\n"
    ]
    home = consumer.workflow
    # Shortened and padded as the text format's tool lines are.
    columns = [
        [shortened(t.name) for t in view.tools],
        [shown_id(t.id) for t in view.tools],
        [shown_label(t.label) for t in view.tools],
        [of_workflow(t.workflow, home) for t in view.tools],
    ]
    widths = [column_width(column) for column in columns]
    for i, tool in enumerate(view.tools):
        cells = [column[i] + " " * (width - text_width(column[i])) for column, width in zip(columns, widths)]
        line = "  ".join(cells) + f"  at {place(tool.file, tool.location)}"
        if tool.collides:
            line += "  <- shared name"
        parts = [part_words(part, LONGEST_SHOWN_PATH) for part in tool.path]
        # Each part after the first is inside the workflow called: named.
        parts[1:] = [f"{node_id(part.workflow)}: {words}" for part, words in zip(tool.path[1:], parts[1:])]
        lines.append(f"  {line}\n  {' ' * widths[0]}  path: {' => '.join(parts)}\n")
    if view.outer_calls:
        calls = plural(view.outer_calls, "call")
        hand = "hands" if view.outer_calls == 1 else "hand"
        caller = quoted(call.workflow)
        lines.append(
            f"  and whatever the {calls} into workflow {caller} {hand} to {node_id(call.node)} "
            f"(one level is shown: explain workflow {caller} to see them)\n"
        )
    return "".join(lines)


def _block(shown: str, view: ConsumerView) -> str:
    """One consumer's lines, each ending in a newline."""
    where = "" if view.location is None else f":{view.location.line}:{view.location.column}"
    shared = sum(t.collides for t in view.tools)
    if view.forwards:
        note = f" ({shared} share a name: a CMP-9 clash at each consumer they reach together)" if shared else ""
        verb = "forwards"
    else:
        note = f" ({plural(shared, 'tool')} share a name: CMP-9)" if shared else ""
        verb = "gets"
    lines = [f"{shown}{where}: {node_id(view.consumer)} {verb} {plural(len(view.tools), 'tool')}{note}\n"]
    if not view.tools:
        return lines[0]
    # Shortened and padded as the text format's tool lines are.
    columns = [
        [shortened(t.name) for t in view.tools],
        [shown_id(t.id) for t in view.tools],
        [shown_label(t.label) for t in view.tools],
    ]
    # Each cell padded to its column's width, measured once.
    cell_widths = [[text_width(cell) for cell in column] for column in columns]
    widths = [padded_width(owns) for owns in cell_widths]
    padded = [
        [cell + " " * (width - own) for cell, own in zip(column, owns)]
        for column, owns, width in zip(columns, cell_widths, widths)
    ]
    below = " " * widths[0]
    paths = _Paths(view)
    for tool, name, node, label in zip(view.tools, *padded):
        line = f"{name}  {node}  {label}"
        if tool.location is not None:
            line += f"  at {tool.location.line}:{tool.location.column}"
        if tool.collides:
            line += "  <- shared name"
        lines.append(f"  {line.rstrip()}\n  {below}  path: {paths.text(tool.path)}\n")
    return "".join(lines)


class _Paths:
    """A view's paths as the text format shows them (``path_text``). The
    tools of a view mostly arrive through the same few toolboxes, so each
    node is shown once per view and its text reused."""

    def __init__(self, view: ConsumerView) -> None:
        self._labels = view.box_labels
        self._nodes: Dict[str, str] = {}

    def text(self, path: List[str]) -> str:
        if len(path) > LONGEST_SHOWN_PATH:
            return path_text(path, self._labels)  # its middle is counted, not shown
        nodes = self._nodes
        shown = []
        for node in path:
            text = nodes.get(node)
            if text is None:
                text = nodes[node] = node_text(node, self._labels.get(node))
            shown.append(text)
        return " -> ".join(shown)


def write_json(
    path: str, views: Iterable[ConsumerView], out: TextIO, calls: Optional[Iterable[CallView]] = None
) -> None:
    """The document ``json.dump(document, out, ensure_ascii=False, indent=2)``
    would write, byte for byte, written one view at a time; with ``calls``
    (a workflow explained in a site), its ``"calls"`` too."""
    out.write('{\n  "path": ' + _string(path) + ',\n  "consumers": [')
    written = False
    for view in views:
        out.write(",\n    " if written else "\n    ")
        written = True
        out.write(_view_json(view))
    out.write("\n  ]" if written else "]")
    if calls is not None:
        out.write(',\n  "calls": [')
        written = False
        for call in calls:
            out.write(",\n    " if written else "\n    ")
            written = True
            # Per-call views are few beside the views: the encoder's own
            # indenting is fast enough, moved two levels in.
            out.write(json.dumps(call.to_dict(), ensure_ascii=False, indent=2).replace("\n", "\n    "))
        out.write("\n  ]" if written else "]")
    out.write("\n}\n")


_string = json_string
"""A string as ``json.dumps(..., ensure_ascii=False)`` writes it (at C speed)."""


def _location_json(location: Optional[Any], indent: str) -> str:
    if location is None:
        return "null"
    return f'{{\n{indent}  "line": {location.line},\n{indent}  "column": {location.column}\n{indent}}}'


def _view_json(view: ConsumerView) -> str:
    """``view.to_dict()`` as ``json.dumps(indent=2)`` writes it four levels
    in (a view sits at depth 2 of the document), without its first indent.
    Python's own encoder takes a slow path when it indents; the shape of a
    view is fixed, so it is written here, with the strings encoded by
    ``json``. tests/test_explain.py holds it to ``json.dumps``."""
    i = "    "  # the view's own indent
    parts = [f'{{\n{i}  "consumer": {_string(view.consumer)},\n{i}  "location": {_location_json(view.location, i + "  ")},\n{i}  "tools": ']
    if view.tools:
        t = i + "    "  # a tool's indent
        tools = []
        for tool in view.tools:
            path = f",\n{t}    ".join(map(_string, tool.path))
            path = f"[\n{t}    {path}\n{t}  ]" if tool.path else "[]"
            tools.append(
                f'{{\n{t}  "name": {_string(tool.name)},\n{t}  "id": {_string(tool.id)},\n'
                f'{t}  "label": {_string(tool.label)},\n{t}  "path": {path},\n'
                f'{t}  "location": {_location_json(tool.location, t + "  ")},\n'
                f'{t}  "collides": {"true" if tool.collides else "false"}\n{t}}}'
            )
        parts.append(f"[\n{t}" + f",\n{t}".join(tools) + f"\n{i}  ]")
    else:
        parts.append("[]")
    parts.append(f',\n{i}  "box_labels": ')
    if view.box_labels:
        boxes = f",\n{i}    ".join(f"{_string(box)}: {_string(label)}" for box, label in view.box_labels.items())
        parts.append(f"{{\n{i}    {boxes}\n{i}  }}")
    else:
        parts.append("{}")
    parts.append(f',\n{i}  "forwards": {"true" if view.forwards else "false"}\n{i}}}')
    return "".join(parts)
