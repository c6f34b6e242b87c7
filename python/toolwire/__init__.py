"""toolwire: finds clashing tool names in FlowDrop workflows before anything
runs (rule CMP-9 of the FlowDrop Workflow Specification)."""

from ._api import (
    DEFAULT_EDGE_TYPES,
    DEFAULT_PASSTHROUGH_TYPES,
    check,
    check_file,
    check_files,
    check_json,
    check_yaml,
    explain,
    explain_calls,
    explain_file,
    explain_json,
    normalize_name,
)
from ._errors import CatalogueError, CompilationError, PathError, SiteError, ToolNameCollision, WorkflowError
from ._records import CallFinding, CallSeenTool, CallStep, CallTool, CallView, ConsumerView, Location, NodePlace
from ._records import PathPart, Rename
from ._records import SeenTool, Stats, Tool, Violation, WiringWarning
from ._report import Report

__version__ = "0.2.0"

__all__ = [
    "DEFAULT_EDGE_TYPES",
    "DEFAULT_PASSTHROUGH_TYPES",
    "CallFinding",
    "CallSeenTool",
    "CallStep",
    "CallTool",
    "CallView",
    "CatalogueError",
    "CompilationError",
    "ConsumerView",
    "Location",
    "NodePlace",
    "PathError",
    "PathPart",
    "Rename",
    "Report",
    "SeenTool",
    "SiteError",
    "Stats",
    "Tool",
    "ToolNameCollision",
    "Violation",
    "WiringWarning",
    "WorkflowError",
    "check",
    "check_file",
    "check_files",
    "check_json",
    "check_yaml",
    "explain",
    "explain_calls",
    "explain_file",
    "explain_json",
    "normalize_name",
]
