"""``--format github``: GitHub Actions workflow commands, which the runner
turns into annotations on the lines of the pull request.

One line per finding and nothing else: every line on stdout is a command, so
the output can be counted or filtered line by line, and the exit status
carries the verdict. An accepted run prints nothing.

    ::error file=flows/a.json,line=10,col=5,title=CMP-9::2 tools reaching ...%0Ahelp: rename ...

Violations are ``::error``; warnings are ``::warning`` (``::error`` under
``--strict``); a file that could not be checked is ``::error`` titled
``toolwire``. The second line of each message is the help: the finding's
own fix when it has one, else what its rule says to do, since the annotation
is all a reviewer sees. ``line``/``col`` are left out when the location is not
known, and ``file`` when the workflow came from standard input.
"""

from __future__ import annotations

from typing import List, Optional, TextIO

from .._report import Location, Report, _error_to_dict
from . import Run
from .common import finding_help, repo_path, source


def escape_data(text: str) -> str:
    """The message after ``::``: the runner reads up to the end of the line,
    so line breaks are encoded, and ``%`` first so the codes stay readable."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value, which ``,`` and ``:`` would end early."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(
    kind: str, message: str, *, title: str, path: Optional[str] = None, location: Optional[Location] = None
) -> str:
    properties: List[str] = []
    file = source(path)
    if file is not None:
        properties.append(f"file={escape_property(repo_path(file))}")
        # A line means nothing without a file to put it in.
        if location is not None:
            properties.append(f"line={location.line}")
            properties.append(f"col={location.column}")
    properties.append(f"title={escape_property(title)}")
    return f"::{kind} {','.join(properties)}::{escape_data(message)}\n"


def _with_help(message: str, code: str, own_help: Optional[str]) -> str:
    hint = finding_help(code, own_help)
    return message if hint is None else f"{message}\nhelp: {hint}"


def _commands(report: Report, strict: bool) -> List[str]:
    if report.error is not None:
        error = _error_to_dict(report.error)
        known = error["line"] is not None and error["column"] is not None
        at = Location(error["line"], error["column"]) if known else None
        return [command("error", error["message"], title="toolwire", path=report.path, location=at)]
    lines = [
        command("error", _with_help(v.message, v.rule, v.help), title=v.rule, path=report.path, location=v.location)
        for v in report.violations
    ]
    warning = "error" if strict else "warning"
    lines.extend(
        command(warning, _with_help(w.message, w.code, None), title=w.code, path=report.path, location=w.location)
        for w in report.warnings
    )
    return lines


def write(run: Run, out: TextIO) -> None:
    for report in run.reports:
        out.writelines(_commands(report, run.strict))
