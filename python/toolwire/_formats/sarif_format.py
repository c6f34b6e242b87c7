"""``--format sarif``: SARIF 2.1.0, as GitHub code scanning ingests it.

One run. ``tool.driver.rules`` lists every rule toolwire knows, once each and
always in the same order, so a result's ``ruleIndex`` means the same thing in
every file toolwire writes. Violations are ``error`` results; warnings are
``warning`` results (``error`` under ``--strict``). Files that could not be
checked are not results, since no rule was broken: they are error
notifications in ``invocations[0]``, which then reports
``executionSuccessful: false``.

GitHub rejects a whole upload when one result has no file location or no
line, so every result has both; see ``_region`` and ``artifact_location``.
It also rejects a run of more than 25,000 results, or a result with more
than 1,000 locations (``locations`` and ``relatedLocations`` together), so
CMP-9 violations with one cause are one result (a clash at 10,000 consumers
names a few in its message and counts the rest), results stop at 25,000 per
run (violations first, file by file, then warnings), and each file that has
findings left out gets a ``warning`` notification in ``invocations[0]``
with their exact numbers and what cut them (``--max-violations``, or that
limit).
A clash across calls (a site check, SEMANTICS section 12) is one result,
after the file's own findings, located at the calling node: its
``relatedLocations`` are the further calls of its chain, the consumer
inside and each tool, each in its own file, linked from the message, and
its ``codeFlows`` walk the chain of calls to the consumer.
Messages show control characters from the input as the text format does
(``common.printable``); the ``properties`` carry ids as they are.
The output holds nothing that changes from one run to the next (no time, no
absolute path unless one was given), so the same input gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path, PurePath
from typing import Any, Dict, List, Optional, TextIO, Tuple
from urllib.parse import quote

from .._errors import error_to_dict
from .._records import CallFinding, ClashGroup, Location, Violation, WiringWarning
from .._report import Report
from .._rules import RULES, Rule
from .common import (
    node_types_unchecked,
    NO_PATH_NAME,
    STDIN,
    STDIN_NAME,
    Finding,
    call_room,
    call_tool_line,
    calls_shown,
    code_counts_of,
    node_id,
    quoted,
    group_scope,
    printable,
    repo_path,
    reported_codes,
    source,
    tool_line,
    violation_findings,
)
from .run import Run

Json = Dict[str, Any]

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/toolwire/"
FINGERPRINT_KEY = "toolwire/v1"
"""The ``partialFingerprints`` key. Bump the version if what is hashed
changes, so GitHub does not match old alerts against new hashes."""

NO_FILE = {STDIN: (quote(STDIN_NAME), "standard input"), None: (quote(NO_PATH_NAME), "not read from a file")}
"""Artifact URI and description for a workflow read from standard input, and
for a report with no path (built through the API). A SARIF result must name
a file for GitHub to take the upload at all; these name none in the
repository, and say so. They are the names every format gives them,
``<stdin>`` and ``<input>``, percent-encoded as a URI must be."""

RULE_IDS: Tuple[str, ...] = tuple(RULES)
"""Every rule in the order ``_rules`` declares them: the ``ruleIndex`` order."""

MAX_RESULTS = 25_000
"""Results per run: GitHub code scanning rejects an upload with more."""
MAX_LOCATIONS = 1_000
"""Locations per result, ``relatedLocations`` included: GitHub rejects more."""


# --- paths --------------------------------------------------------------------


def artifact_uri(path: Optional[str]) -> str:
    """A URI reference for ``path``: relative where the path is (percent-encoded:
    spaces, ``%``, ``#``, ``:``, non-ASCII), ``file://`` where it is absolute."""
    file = source(path)
    if file is None:
        return NO_FILE[path][0]
    relative = repo_path(file)
    if PurePath(relative).is_absolute():
        return Path(relative).as_uri()
    return quote(relative, safe="/")


# --- messages -----------------------------------------------------------------


def _text(text: str) -> str:
    """Plain text for a SARIF message: a single brace would start a
    placeholder (``{0}``), so literal braces are doubled (SARIF 3.11.5)."""
    return text.replace("{", "{{").replace("}", "}}")


def _link_text(text: str) -> str:
    """Text inside an embedded link (``[text](1)``), where a backslash or a
    square bracket must be escaped with a backslash (SARIF 3.11.6)."""
    escaped = text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return _text(escaped)


def _message(text: str) -> Json:
    return {"text": _text(text)}


# --- locations ----------------------------------------------------------------


def artifact_location(path: Optional[str]) -> Json:
    artifact: Json = {"uri": artifact_uri(path)}
    if source(path) is None:
        artifact["description"] = {"text": NO_FILE[path][1]}
    return artifact


def _region(location: Optional[Location]) -> Json:
    if location is None:
        # The workflow was not checked as text (a dict through the API), so
        # there is no line to point at. GitHub drops an alert without a line,
        # and rejects the upload; line 1 of the file is the honest nearest.
        return {"startLine": 1}
    return {"startLine": location.line, "startColumn": location.column}


def _physical(path: Optional[str], location: Optional[Location]) -> Json:
    return {"physicalLocation": {"artifactLocation": artifact_location(path), "region": _region(location)}}


def _fingerprint(*parts: object) -> Dict[str, str]:
    """Lets GitHub recognise one finding across runs, however far it moves
    in the file: what identifies it, never where it is. The file is part of
    it so that identical workflows in two files stay two alerts."""
    digest = hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode("utf-8")).hexdigest()
    return {FINGERPRINT_KEY: digest[:32]}


# --- results ------------------------------------------------------------------


def _rule_ref(rule_id: str) -> Json:
    ref: Json = {"ruleId": rule_id}
    if rule_id in RULES:
        ref["ruleIndex"] = RULE_IDS.index(rule_id)
    return ref


def _violation(report: Report, v: Violation, max_path: int = 64) -> Json:
    return _result(report, v, None, max_path)


def _group(report: Report, group: ClashGroup, max_path: int) -> Json:
    return _result(report, group.first, group, max_path)


def _result(report: Report, v: Violation, group: Optional[ClashGroup], max_path: int) -> Json:
    """The result of one violation, or of a clash group (at its first
    violation, naming the consumers it reaches)."""
    uri = artifact_uri(report.path)
    text = _text(printable(v.message))
    result: Json = {**_rule_ref(v.rule), "level": "error"}
    # One location of the result is its own: the rest may be tools.
    tools = list(v.tools[: MAX_LOCATIONS - 1])
    if v.rule == "CMP-9":
        if group is not None and group.count > 1:
            text += "\nthe same clash " + _text(group_scope(group))
        # GitHub shows related locations only when the message links to them.
        links = ", ".join(f"[{_link_text(printable(t.id))}]({i})" for i, t in enumerate(tools, 1))
        if len(v.tools) > len(tools):
            links += f" and {len(v.tools) - len(tools):,} more"
        text += f"\ntools: {links}"
        # The first consumer identifies a group within its file: each
        # (consumer, name) is in exactly one group. A clash at one consumer
        # keeps the fingerprint it had before clashes were grouped.
        fingerprint = _fingerprint(uri, v.rule, v.consumer, v.name)
        properties: Json = {"consumer": v.consumer, "name": v.name, "tools": [t.id for t in v.tools]}
        if group is not None:
            properties["consumerCount"] = group.count
            properties["through"] = group.through
    elif v.rule == "CMP-10":
        # One result per receiving node, which identifies it in its file.
        fingerprint = _fingerprint(uri, v.rule, v.consumer, v.node_type)
        properties = {
            "node": v.consumer,
            "nodeType": v.node_type,
            "definedAt": v.defined_at,
            "edges": [e.to_dict() for e in v.wired_edges],
        }
    else:
        # An edge's id survives edges being added before it; its index does not.
        edge = v.edge_id if v.edge_id is not None else v.edge
        fingerprint = _fingerprint(uri, v.rule, edge, v.edge_type)
        properties = {"edge": v.edge, "edgeId": v.edge_id, "edgeType": v.edge_type, "suggestion": v.suggestion}
    if v.help is not None:
        text += "\nhelp: " + _text(printable(v.help))
    result["message"] = {"text": text}
    result["locations"] = [_physical(report.path, v.location)]
    if tools:
        result["relatedLocations"] = [
            {"id": i, **_physical(report.path, t.location), "message": _message(tool_line(t, max_path))}
            for i, t in enumerate(tools, 1)
        ]
    result["partialFingerprints"] = fingerprint
    result["properties"] = properties
    return result


def _finding(report: Report, finding: Finding, max_path: int) -> Json:
    if isinstance(finding, ClashGroup):
        return _group(report, finding, max_path)
    return _violation(report, finding, max_path)


def _call(report: Report, finding: CallFinding, max_path: int) -> Json:
    """A clash across calls: at the calling node in this file; the further
    calls of its chain, the consumer inside and each tool related in their
    own files and linked from the message; the chain as a code flow."""
    home = finding.workflow
    consumer = finding.consumer
    related: List[Tuple[str, Json, str]] = []
    """(what the message calls it, its physical location, its message)."""
    for step in finding.chain[1:]:
        said = f"{node_id(step.node)} of workflow {quoted(step.workflow)} runs workflow {quoted(step.runs)}"
        related.append((step.node, _physical(step.file, step.location), said))
    said = f"the consumer {node_id(consumer.node)} of workflow {quoted(consumer.workflow)}"
    related.append((consumer.node, _physical(consumer.file, consumer.location), said))
    first_tool = len(related) + 1
    for tool in finding.tools:
        related.append((tool.id, _physical(tool.file, tool.location), call_tool_line(tool, home, max_path)))
    kept = related[: MAX_LOCATIONS - 1]  # one location of the result is its own

    def links(start: int, stop: int) -> str:
        shown = [f"[{_link_text(printable(kept[i - 1][0]))}]({i})" for i in range(start, min(stop, len(kept) + 1))]
        more = max(0, stop - max(start, len(kept) + 1))
        return ", ".join(shown) + (f" and {more:,} more" if more else "")

    lines = [_text(printable(finding.message))]
    if len(finding.chain) > 1:
        lines.append(f"through: {links(1, len(finding.chain))}")
    lines.append(f"consumer: {links(len(finding.chain), first_tool)}")
    lines.append(f"tools: {links(first_tool, len(related) + 1)}")
    # The message says how many chains bring the clash, when more than one.
    lines.append("help: " + _text(printable(finding.help)))
    steps = [
        {
            "location": {
                **_physical(step.file, step.location),
                "message": _message(printable(f"{node_id(step.node)} runs workflow {quoted(step.runs)}")),
            }
        }
        for step in finding.chain
    ]
    steps.append({"location": {**_physical(consumer.file, consumer.location), "message": _message(printable(said))}})
    uri = artifact_uri(report.path)
    start = finding.chain[0].node if finding.chain else None
    return {
        **_rule_ref(finding.rule),
        "level": "error",
        "message": {"text": "\n".join(lines)},
        "locations": [_physical(report.path, finding.location)],
        "relatedLocations": [
            {"id": i, **physical, "message": _message(text)} for i, (_, physical, text) in enumerate(kept, 1)
        ],
        "codeFlows": [{"threadFlows": [{"locations": steps}]}],
        # The calling node, the consumer inside and the name identify a
        # clash across calls in its file, wherever the nodes move.
        "partialFingerprints": _fingerprint(
            uri, finding.rule, "call", start, consumer.workflow, consumer.node, finding.name
        ),
        "properties": {
            "name": finding.name,
            "chains": finding.chains,
            "chain": [step.to_dict() for step in finding.chain],
            "consumer": consumer.to_dict(),
            "tools": [{"workflow": t.workflow, "id": t.id} for t in finding.tools],
        },
    }


def _warning(report: Report, w: WiringWarning, strict: bool) -> Json:
    # One node can repeat several keys, and edges and the top level have no
    # node: a repeated key is told apart by its message, which names both.
    what = (w.node, w.message) if w.code == "DUPLICATE-KEY" else (w.node,)
    return {
        **_rule_ref(w.code),
        "level": "error" if strict else "warning",
        "message": _message(printable(w.message)),
        "locations": [_physical(report.path, w.location)],
        "partialFingerprints": _fingerprint(artifact_uri(report.path), w.code, *what),
        "properties": {"node": w.node, "edge": w.edge},
    }


def _notification(report: Report, error: Exception) -> Json:
    """A file that could not be checked. Notifications are not alerts, so
    unlike results they carry no region when the error has no line."""
    described = error_to_dict(error)
    physical: Json = {"artifactLocation": artifact_location(report.path)}
    if described["line"] is not None:
        physical["region"] = {"startLine": described["line"]}
        if described["column"] is not None:
            physical["region"]["startColumn"] = described["column"]
    locations = [{"physicalLocation": physical}]
    # A site error (a cycle of calls) is in every file of the workflows on it.
    for file in described.get("files", ()):
        locations.append({"physicalLocation": {"artifactLocation": artifact_location(file)}})
    return {"level": "error", "message": _message(printable(described["message"])), "locations": locations}


def _capped(run: Run, report: Report, violations: int, by_cap: bool, warnings: int, calls: int = 0) -> Json:
    """What a file's results leave out, with exact numbers and, for each,
    why: ``--max-violations`` when it is what cut the file's violations
    (`by_cap`), else GitHub's limit of results per run, which is also
    what cuts warnings."""
    limit = f"at most {MAX_RESULTS:,} results per run, the most GitHub code scanning accepts"
    left: Dict[str, List[str]] = {}
    """What is left out, by why."""
    if violations:
        why = limit
        if by_cap:
            assert run.max_violations is not None
            findings = f"{run.max_violations:,} finding{'' if run.max_violations == 1 else 's'}"
            why = f"--max-violations {run.max_violations}: at most {findings} per file"
        left.setdefault(why, []).append(f"{violations:,} of its {report.violation_count:,} violations")
    if calls:
        why = limit
        if by_cap:
            assert run.max_violations is not None
            findings = f"{run.max_violations:,} finding{'' if run.max_violations == 1 else 's'}"
            why = f"--max-violations {run.max_violations}: at most {findings} per file"
        left.setdefault(why, []).append(f"{calls:,} of its {len(report.calls):,} clashes across calls")
    if warnings:
        left.setdefault(limit, []).append(f"{warnings:,} of its {len(report.warnings):,} warnings")
    said = [f"{' and '.join(what)} are not listed as results ({why})" for why, what in left.items()]
    text = (
        f"{'; '.join(said)}; a CMP-9 result stands for every consumer its clash reaches. "
        "`toolwire check --format json --json-violations each` lists every violation."
    )
    properties = {"violationsOmitted": violations, "warningsOmitted": warnings}
    if report.calls:
        properties["callsOmitted"] = calls  # only from a site check: other runs read as before
    return {
        "level": "warning",
        "message": _message(text),
        "locations": [{"physicalLocation": {"artifactLocation": artifact_location(report.path)}}],
        "properties": properties,
    }


def _rule(rule: Rule) -> Json:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": _message(rule.summary),
        "fullDescription": _message(f"{rule.summary} {rule.help}"),
        "help": {
            "text": _text(rule.help),
            "markdown": _text(f"**{rule.summary}**\n\n{rule.help}\n\n[Rule reference]({rule.help_uri})"),
        },
        "helpUri": rule.help_uri,
        "defaultConfiguration": {"level": rule.level},
    }


def document(run: Run) -> Json:
    # Imported here rather than at the top, so that the package's __init__
    # may import the formats one day without an import cycle.
    from .. import __version__

    results: List[Json] = []
    notifications: List[Json] = []
    # Which findings fit: violations first, file by file, then warnings with
    # what is left of MAX_RESULTS, so that warnings never crowd out errors.
    budget = MAX_RESULTS
    shown: Dict[int, Tuple[List[Finding], int, bool]] = {}
    calls: Dict[int, Tuple[List[CallFinding], int]] = {}
    for index, report in enumerate(run.reports):
        if report.error is None:
            # Whichever is smaller cuts the file's findings: --max-violations
            # or what is left of GitHub's limit.
            by_cap = run.max_violations is not None and run.max_violations <= budget
            limit = run.max_violations if by_cap else budget
            findings, left_out = violation_findings(report, limit)
            shown[index] = (findings, left_out, by_cap)
            budget -= len(findings)
            # Its clashes across calls after them, one finding each.
            kept, calls_left = calls_shown(report, call_room(limit, len(findings)))
            calls[index] = (list(kept), calls_left)
            budget -= len(kept)
    warned: Dict[int, int] = {}
    for index, report in enumerate(run.reports):
        if report.error is None:
            warned[index] = min(len(report.warnings), budget)
            budget -= warned[index]
    capped: List[Json] = []
    for index, report in enumerate(run.reports):
        if report.error is not None:
            notifications.append(_notification(report, report.error))
            continue
        findings, left_out, by_cap = shown[index]
        results.extend(_finding(report, f, run.max_path) for f in findings)
        kept, calls_left = calls[index]
        results.extend(_call(report, c, run.max_path) for c in kept)
        warnings = report.warnings[: warned[index]]
        results.extend(_warning(report, w, run.strict) for w in warnings)
        if left_out or calls_left or len(warnings) < len(report.warnings):
            not_listed = len(report.warnings) - len(warnings)
            capped.append(_capped(run, report, left_out, by_cap, not_listed, calls_left))
    failed = bool(notifications)
    notifications.extend(capped)
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "toolwire",
                        "version": __version__,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule(RULES[i]) for i in RULE_IDS],
                    }
                },
                "invocations": [
                    {"executionSuccessful": not failed, "toolExecutionNotifications": notifications}
                ],
                # Columns count characters, as Python's json module does;
                # SARIF's default is UTF-16 code units.
                "columnKind": "unicodeCodePoints",
                "results": results,
                # What was asked of the run (--select/--ignore, --quiet) and
                # the findings of each code, warnings --quiet left out included.
                # Whether CMP-10 was checked: only against a catalogue.
                "properties": {
                    "codes": reported_codes(run),
                    "quiet": run.quiet,
                    "codeCounts": code_counts_of(run),
                    "nodeTypesChecked": node_types_unchecked(run) == 0,
                },
            }
        ],
    }


def write(run: Run, out: TextIO) -> None:
    json.dump(document(run), out, ensure_ascii=False, indent=2)
    out.write("\n")
