"""``toolwire explain``: what each consumer will be given, for people
(``text``) and for programs (``json``).

Text: one block per consumer, ``path:line:col: consumer gets N tools``, then
one line per tool (its name, node id, label and place) with its path below,
and a mark on every tool whose name another tool in the same view shares
(a CMP-9 violation). A toolbox asked about (``--consumer``) ``forwards`` its
tools instead: CMP-9 exempts passthroughs, so a name shared there is said to
be a clash at the consumers the tools reach, not at the box."""

from __future__ import annotations

import json
from typing import Sequence, TextIO

from .._records import ConsumerView
from .common import node_id, pad, plural, quoted, text_width
from .text_format import display_path, path_text


def write_text(path: str, views: Sequence[ConsumerView], out: TextIO) -> None:
    shown = display_path(path)
    if not views:
        out.write(f"{shown}: no node receives tools\n")
    for i, view in enumerate(views):
        if i:
            out.write("\n")
        where = "" if view.location is None else f":{view.location.line}:{view.location.column}"
        shared = sum(t.collides for t in view.tools)
        if view.forwards:
            note = f" ({shared} share a name: a CMP-9 clash at each consumer they reach together)" if shared else ""
            verb = "forwards"
        else:
            note = f" ({plural(shared, 'tool')} share a name: CMP-9)" if shared else ""
            verb = "gets"
        out.write(f"{shown}{where}: {node_id(view.consumer)} {verb} {plural(len(view.tools), 'tool')}{note}\n")
        if not view.tools:
            continue
        names = [t.name for t in view.tools]
        ids = [node_id(t.id) for t in view.tools]
        labels = [quoted(t.label) for t in view.tools]
        widths = [max(text_width(c) for c in column) for column in (names, ids, labels)]
        for tool, name, node, label in zip(view.tools, names, ids, labels):
            line = "  ".join(pad(cell, width) for cell, width in zip((name, node, label), widths))
            if tool.location is not None:
                line += f"  at {tool.location.line}:{tool.location.column}"
            if tool.collides:
                line += "  <- shared name"
            out.write(f"  {line.rstrip()}\n")
            out.write(f"  {' ' * widths[0]}  path: {path_text(tool.path, view.box_labels)}\n")


def write_json(path: str, views: Sequence[ConsumerView], out: TextIO) -> None:
    document = {"path": path, "consumers": [v.to_dict() for v in views]}
    json.dump(document, out, ensure_ascii=False, indent=2)
    out.write("\n")
