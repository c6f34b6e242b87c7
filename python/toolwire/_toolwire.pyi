# The Rust extension module (src/python/mod.rs). Private: use the functions in
# toolwire/__init__.py, which validate arguments and wrap reports.
from typing import Any, Dict, List, Tuple

__all__ = ["check_mapping", "check_json", "check_file", "check_files", "explain_json", "explain_file", "normalize_name", "phase_times", "DEFAULT_PASSTHROUGH_TYPES", "DEFAULT_EDGE_TYPES"]

# (violations, warnings, stats); the shapes are in src/python/mod.rs.
_CoreReport = Tuple[List[Tuple[Any, ...]], List[Tuple[str, str, int | None, str, Any]], Tuple[int, int, int, int, int]]

DEFAULT_PASSTHROUGH_TYPES: List[str]
DEFAULT_EDGE_TYPES: List[str]

def check_mapping(workflow: Any, passthrough_types: List[str], edge_types: List[str]) -> _CoreReport: ...
def check_json(data: str | bytes, passthrough_types: List[str], edge_types: List[str]) -> _CoreReport: ...
def check_file(path: str, passthrough_types: List[str], edge_types: List[str]) -> _CoreReport: ...
def check_files(
    paths: List[str], passthrough_types: List[str], edge_types: List[str], jobs: int
) -> List[_CoreReport | Exception]: ...
# (consumer, (line, column) | None, [(name, id, label, [path], (line, column) | None, collides)], [(box, label)])
_CoreView = Tuple[str, Any, List[Tuple[str, str, str, List[str], Any, bool]], List[Tuple[str, str]]]

def explain_json(
    data: str | bytes, consumer: str | None, passthrough_types: List[str], edge_types: List[str]
) -> List[_CoreView]: ...
def explain_file(
    path: str, consumer: str | None, passthrough_types: List[str], edge_types: List[str]
) -> List[_CoreView]: ...
def normalize_name(label: str) -> str: ...
def phase_times(path: str, passthrough_types: List[str], edge_types: List[str]) -> Dict[str, float]: ...
