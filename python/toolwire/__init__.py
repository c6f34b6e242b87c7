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
    explain_file,
    explain_json,
    normalize_name,
)
from ._errors import CatalogueError, CompilationError, PathError, ToolNameCollision, WorkflowError
from ._records import ConsumerView, Location, Rename, SeenTool, Stats, Tool, Violation, WiringWarning
from ._report import Report

__version__ = "0.2.0"

__all__ = [
    "DEFAULT_EDGE_TYPES",
    "DEFAULT_PASSTHROUGH_TYPES",
    "CatalogueError",
    "CompilationError",
    "ConsumerView",
    "Location",
    "PathError",
    "Rename",
    "Report",
    "SeenTool",
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
    "explain_file",
    "explain_json",
    "normalize_name",
]
