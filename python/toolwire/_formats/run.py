"""What every format renders: a ``Run``, one ``toolwire check`` invocation
(its reports and the options that shape them), and the option values the
formats and the CLI share. Its own module so that the formats, which
``_formats.writer`` imports by name, never import the package that imports
them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional, Sequence

from .._report import Report

FORMATS = ("text", "json", "sarif", "github", "junit")
DEFAULT_MAX_PATH = 64
DEFAULT_MAX_CONSUMERS = 100
JSON_VIOLATIONS = ("clashes", "each")
"""How ``--format json`` lists CMP-9 violations (``--json-violations``):
each clash once, with its consumers (the default), or each (consumer,
name) on its own."""


@dataclass(frozen=True)
class Run:
    """One ``toolwire check`` invocation, as the formats see it."""

    reports: Sequence[Report]
    """One per path, in the order given."""
    elapsed: float
    """Seconds spent checking."""
    strict: bool = False
    """Warnings fail a file too."""
    colour: bool = False
    """Only the text format uses it."""
    max_violations: Optional[int] = None
    """At most this many findings listed per file (``--max-violations``): an
    EDGE-5 violation, or a clash (CMP-9 violations with one cause); in json
    with ``json_violations="each"``, violations. None: no limit."""
    max_path: int = DEFAULT_MAX_PATH
    """A path longer than this many ids is shown as its head and tail with
    the number left out (``--max-path``); 0: no limit."""
    json_violations: str = JSON_VIOLATIONS[0]
    """json only: ``clashes`` lists each CMP-9 clash once, ``each`` every
    violation (``--json-violations``)."""
    max_consumers: int = DEFAULT_MAX_CONSUMERS
    """json only: the consumers listed per clash (``--max-consumers``); the
    rest are counted. 0: no limit."""
    timing: bool = False
    """The text summary says how long the check took (``--timing``); off by
    default, so that the same input gives the same bytes every time."""

    quiet: bool = False
    """``--quiet``: warnings that do not fail a file were taken out of the
    reports (``hidden_warnings`` of them), and accepted files are not
    listed; the summary still counts them."""
    hidden_warnings: int = 0
    """Warnings ``--quiet`` took out of the reports, over every file."""
    counts: Optional[Mapping[str, int]] = None
    """Findings of each code over every file, warnings taken out by
    ``--quiet`` included (``_select.code_counts`` before ``--quiet``); None:
    count the reports'."""
    codes: Optional[Sequence[str]] = None
    """The codes reported (``--select``/``--ignore``); None: every code."""
    config_file: Optional[str] = None
    """The configuration file read, as it is shown; None: none."""
    edge_types: Optional[Sequence[str]] = None
    """The recognised ``data.edgeType`` values the check used,
    ``tool_availability`` included; None: the defaults."""
    passthrough_types: Optional[Sequence[str]] = None
    """The node types the check took as passthroughs; None: the defaults."""

    def failed(self, report: Report) -> bool:
        """Whether `report` fails the run: an input error, a violation, or a
        warning under ``strict``."""
        return not report.ok or (self.strict and bool(report.warnings))
