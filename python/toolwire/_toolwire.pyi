# The Rust extension module (src/python/mod.rs). Private: use the functions in
# toolwire/__init__.py, which validate arguments and wrap reports.
from typing import Any, Dict, List, Tuple

__all__ = ["check_mapping", "check_json", "check_file", "check_files", "normalize_name", "phase_times", "DEFAULT_PASSTHROUGH_TYPES", "DEFAULT_EDGE_TYPES"]

# (violations, warnings, stats); the shapes are in src/python/mod.rs.
_CoreReport = Tuple[List[Tuple[Any, ...]], List[Tuple[str, str, int, str]], Tuple[int, int, int, int, int]]

DEFAULT_PASSTHROUGH_TYPES: List[str]
DEFAULT_EDGE_TYPES: List[str]

def check_mapping(workflow: Any, passthrough_types: List[str], edge_types: List[str]) -> _CoreReport: ...
def check_json(data: str | bytes, passthrough_types: List[str], edge_types: List[str]) -> _CoreReport: ...
def check_file(path: str, passthrough_types: List[str], edge_types: List[str]) -> _CoreReport: ...
def check_files(
    paths: List[str], passthrough_types: List[str], edge_types: List[str], jobs: int
) -> List[_CoreReport | Exception]: ...
def normalize_name(label: str) -> str: ...
def phase_times(path: str, passthrough_types: List[str], edge_types: List[str]) -> Dict[str, float]: ...
