"""Options of ``toolwire check`` and ``toolwire explain`` that say what is
checked and what is reported, and how each is resolved from the command
line, the configuration file and the defaults (kept apart from
``_check_command`` and ``_explain_command``, which run the commands).

Node and edge types come in pairs: ``--edge-type T`` adds one type to the
list, ``--edge-types A,B`` replaces the list (the defaults, or the
configuration file's ``edge-types``); the same for passthrough types. An
empty type is refused: no node type or ``data.edgeType`` is ``""``.
``tool_availability`` is recognised whatever the list says, since EDGE-5
makes it a tool edge before anything else; the effective list shown (in
``-v`` output and the JSON report) says so by holding it.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, TextIO, TypeVar

from . import _select
from ._api import DEFAULT_EDGE_TYPES, DEFAULT_PASSTHROUGH_TYPES, TOOL_EDGE_TYPE
from ._config import Settings, resolve
from ._report import Report

T = TypeVar("T")


# --- node and edge types ----------------------------------------------------------


def _one_type(text: str) -> str:
    """``--edge-type``, ``--passthrough-type``: one non-empty type."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty type: no node type or data.edgeType is empty")
    if "," in text:
        raise argparse.ArgumentTypeError(
            f"{text!r} holds a comma: give one type each time, or a comma-separated list to the plural option"
        )
    return text


def _type_list(text: str) -> List[str]:
    """``--edge-types``, ``--passthrough-types``: comma-separated non-empty types."""
    types = [item.strip() for item in text.split(",")]
    if not any(types):
        raise argparse.ArgumentTypeError("no type given: an empty list is not a list of types")
    if not all(types):
        raise argparse.ArgumentTypeError(f"an empty type in {text!r}")
    return types


def add_type_options(parser: argparse.ArgumentParser) -> None:
    """``--passthrough-type(s)`` and ``--edge-type(s)``."""
    group = parser.add_argument_group("node and edge types")
    group.add_argument(
        "--passthrough-type",
        action="append",
        type=_one_type,
        metavar="TYPE",
        help="add a node type that forwards its tools to the list; repeat for several",
    )
    group.add_argument(
        "--passthrough-types",
        type=_type_list,
        metavar="A,B",
        help="the node types that forward their tools, replacing the list "
        f"(default: {','.join(DEFAULT_PASSTHROUGH_TYPES)})",
    )
    group.add_argument(
        "--edge-type",
        action="append",
        type=_one_type,
        metavar="TYPE",
        help="add a recognised data.edgeType to the list; repeat for several",
    )
    group.add_argument(
        "--edge-types",
        type=_type_list,
        metavar="A,B",
        help=f"the recognised data.edgeType values, replacing the list (default: {','.join(DEFAULT_EDGE_TYPES)}); "
        f"{TOOL_EDGE_TYPE} is recognised whatever the list says (EDGE-5)",
    )


def _resolved(replacing: Optional[List[str]], configured: Optional[List[str]], defaults: Sequence[str],
              added: Optional[List[str]]) -> List[str]:  # fmt: skip
    base = replacing if replacing is not None else configured if configured is not None else list(defaults)
    return list(dict.fromkeys([*base, *(added or [])]))


def types(args: argparse.Namespace, settings: Settings) -> Dict[str, List[str]]:
    """The checking functions' ``passthrough_types`` and ``edge_types``:
    the plural option, else the configuration file, else the defaults, with
    what the singular option adds."""
    return {
        "passthrough_types": _resolved(
            args.passthrough_types, settings.passthrough_types, DEFAULT_PASSTHROUGH_TYPES, args.passthrough_type
        ),
        "edge_types": _resolved(args.edge_types, settings.edge_types, DEFAULT_EDGE_TYPES, args.edge_type),
    }


def recognised(edge_types: Sequence[str]) -> List[str]:
    """The edge types a check recognises given ``edge_types``: those, and
    ``tool_availability`` (last) when they do not name it."""
    return list(dict.fromkeys([*edge_types, TOOL_EDGE_TYPE]))


# --- what is reported ---------------------------------------------------------------


def _selectors(text: str) -> List[str]:
    try:
        return _select.parse(text)
    except _select.SelectorError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_selection_options(parser: argparse.ArgumentParser) -> None:
    """``--select``, ``--ignore``, ``--quiet`` (``check`` only)."""
    group = parser.add_argument_group("what is reported")
    family = ", ".join(_select.FAMILIES)
    group.add_argument(
        "--select",
        action="append",
        type=_selectors,
        metavar="CODES",
        help=f"report only these codes, comma-separated: {', '.join(_select.CODES)}, or a family ({family}) "
        "for all its codes (default: all); replaces the configuration's select",
    )
    group.add_argument(
        "--ignore",
        action="append",
        type=_selectors,
        metavar="CODES",
        help="do not report these codes, comma-separated; an ignored finding is not listed, not counted "
        "and fails nothing",
    )
    group.add_argument(
        "--quiet",
        "-q",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="list violations and the summary only: warnings are counted, not listed (under --strict, "
        "where they fail a file, they are listed)",
    )


def _joined(given: Optional[List[List[str]]]) -> Optional[List[str]]:
    return None if given is None else [selector for selectors in given for selector in selectors]


def selection(args: argparse.Namespace, settings: Settings) -> _select.Selection:
    """The codes reported: the configuration file's ``select`` and
    ``ignore``, then the command line's (``_select.selected``)."""
    layers: List[_select.Layer] = [(settings.select, settings.ignore), (_joined(args.select), _joined(args.ignore))]
    return _select.Selection(_select.selected(layers))


# --- verbose ---------------------------------------------------------------------


def add_verbose_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="say on standard error which configuration file was read and the lists the check used",
    )


def configuration_words(args: argparse.Namespace, settings: Settings) -> str:
    """Which configuration file was read, or why none was."""
    if settings.source is not None:
        return f"{settings.shown_source()} ([tool.toolwire])"
    if args.no_config:
        return "none (--no-config)"
    return "none (no pyproject.toml with a [tool.toolwire] table from here up to the repository root)"


def tell(args: argparse.Namespace, settings: Settings, options: Dict[str, Any],
         codes: Optional[Sequence[str]] = None, out: Optional[TextIO] = None,
         node_types: Optional[Sequence[str]] = None) -> None:  # fmt: skip
    """``-v``: the configuration and the effective lists, on standard error."""
    if not args.verbose:
        return
    lines = [
        f"configuration: {configuration_words(args, settings)}",
        f"passthrough types: {', '.join(options['passthrough_types']) or '(none)'}",
        f"edge types: {', '.join(recognised(options['edge_types']))}",
    ]
    if node_types is not None:
        lines.append(f"node-type catalogue (CMP-10): {', '.join(node_types)}")
    if codes is not None:
        lines.append(f"codes reported: {', '.join(codes) or '(none)'}")
    (out or sys.stderr).writelines(f"toolwire: {line}\n" for line in lines)


def narrowed(reports: Sequence[Report], selection: _select.Selection, quiet: bool, strict: bool) -> Narrowed:
    """The reports as the run reports them: without what the selection
    leaves out, counted, then, under ``--quiet`` (and not ``--strict``),
    without their warnings."""
    selected = [selection.apply(report) for report in reports]
    counts = _select.code_counts(selected)
    if not quiet or strict:
        return Narrowed(selected, counts, 0)
    hidden = sum(len(r.warnings) for r in selected)
    quieted = [r if not r.warnings else dataclasses.replace(r, warnings=[]) for r in selected]
    return Narrowed(quieted, counts, hidden)


class Narrowed(NamedTuple):
    reports: List[Report]
    counts: Dict[str, int]
    """Findings of each code, warnings hidden by --quiet included."""
    hidden_warnings: int
    """Warnings --quiet took out."""


# --- command line, then configuration file, then default --------------------------


def pick(given: Optional[T], configured: Optional[T], default: T) -> T:
    """Command line, then configuration file, then default: the first one set."""
    if given is not None:
        return given
    return configured if configured is not None else default


def read_settings(args: argparse.Namespace) -> Settings:
    """The configuration ``--config`` or ``--no-config`` asks for, or the
    nearest pyproject.toml's. Raises ``ConfigError`` when it is wrong."""
    return Settings() if args.no_config else resolve(args.config, Path.cwd())
