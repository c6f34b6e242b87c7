# The Rust extension module (src/python/mod.rs). Private: use the functions in
# toolwire/__init__.py, which validate arguments and wrap reports.
from typing import Dict, List, Optional, Tuple, final

__all__ = [
    "check_mapping",
    "check_json",
    "check_yaml",
    "check_file",
    "check_files",
    "check_files_encoded",
    "check_site",
    "check_site_encoded",
    "read_site",
    "explain_json",
    "explain_file",
    "explain_mapping",
    "normalize_name",
    "phase_times",
    "load_node_types",
    "NodeTypeCatalogue",
    "CoreReport",
    "CoreViolation",
    "CoreTool",
    "CoreRename",
    "CoreWarning",
    "CoreStats",
    "CoreGroup",
    "ViewStream",
    "SiteFacts",
    "DEFAULT_PASSTHROUGH_TYPES",
    "DEFAULT_EDGE_TYPES",
]

_At = Optional[Tuple[int, int]]

DEFAULT_PASSTHROUGH_TYPES: List[str]
DEFAULT_EDGE_TYPES: List[str]

@final
class CoreRename:
    @property
    def node(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def new_label(self) -> str: ...
    @property
    def new_name(self) -> str: ...

@final
class CoreTool:
    @property
    def id(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def location(self) -> _At: ...
    @property
    def path_len(self) -> int: ...

@final
class CoreViolation:
    @property
    def rule(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def location(self) -> _At: ...
    @property
    def consumer(self) -> Optional[str]: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def tools(self) -> List[CoreTool]: ...
    @property
    def fix(self) -> List[CoreRename]: ...
    @property
    def box_labels(self) -> List[Tuple[str, str]]: ...
    @property
    def group(self) -> Optional[int]: ...
    @property
    def edge(self) -> Optional[int]: ...
    @property
    def edge_id(self) -> Optional[str]: ...
    @property
    def edge_type(self) -> Optional[str]: ...
    @property
    def suggestion(self) -> Optional[str]: ...
    @property
    def node_type(self) -> Optional[str]: ...
    @property
    def defined_at(self) -> Optional[str]: ...
    @property
    def wired_edges(self) -> List[Tuple[int, Optional[str], str]]: ...

@final
class CoreWarning:
    @property
    def code(self) -> str: ...
    @property
    def node(self) -> str: ...
    @property
    def edge(self) -> Optional[int]: ...
    @property
    def message(self) -> str: ...
    @property
    def location(self) -> _At: ...

@final
class CoreStats:
    @property
    def nodes(self) -> int: ...
    @property
    def edges(self) -> int: ...
    @property
    def tool_edges(self) -> int: ...
    @property
    def consumers(self) -> int: ...
    @property
    def passthroughs(self) -> int: ...

@final
class CoreGroup:
    @property
    def name(self) -> str: ...
    @property
    def through(self) -> Optional[str]: ...
    @property
    def count(self) -> int: ...
    @property
    def first(self) -> int: ...

@final
class CoreReport:
    @property
    def violation_count(self) -> int: ...
    def violation(self, index: int) -> CoreViolation: ...
    def tool_path(self, index: int, tool: int, start: int, stop: int) -> List[str]: ...
    @property
    def warning_count(self) -> int: ...
    def warnings(self, start: int, stop: int) -> List[CoreWarning]: ...
    @property
    def node_types_checked(self) -> bool: ...
    @property
    def stats(self) -> CoreStats: ...
    # Deterministic work counters by name, then "total" (empty when shipped).
    @property
    def work(self) -> Dict[str, int]: ...
    @property
    def group_count(self) -> int: ...
    def group(self, group: int) -> CoreGroup: ...
    def group_consumers(self, group: int, start: int, stop: int) -> List[str]: ...
    # toolwire.dask's wire: the findings as bytes, or the violation count
    # when they name more than ``budget`` ids; and back.
    def encode(self, budget: int) -> bytes | int: ...
    @staticmethod
    def decode(data: bytes) -> CoreReport: ...

# A view as it crosses over: (consumer, location, tools, box_labels,
# forwards), each tool (name, id, label, path, location, collides).
_SeenToolTuple = Tuple[str, str, str, List[str], _At, bool]
_ViewTuple = Tuple[str, _At, List[_SeenToolTuple], List[Tuple[str, str]], bool]

@final
class ViewStream:
    @property
    def count(self) -> int: ...
    @property
    def made(self) -> int: ...
    def __iter__(self) -> ViewStream: ...
    def __next__(self) -> List[_ViewTuple]: ...

@final
class NodeTypeCatalogue:
    def __len__(self) -> int: ...
    def types(self) -> List[Tuple[str, bool, bool, str, int, int]]: ...

def load_node_types(paths: List[str]) -> NodeTypeCatalogue: ...
def check_mapping(
    workflow: object,
    passthrough_types: List[str],
    edge_types: List[str],
    node_types: Optional[NodeTypeCatalogue] = None,
) -> CoreReport: ...
def check_json(
    data: str | bytes,
    passthrough_types: List[str],
    edge_types: List[str],
    node_types: Optional[NodeTypeCatalogue] = None,
) -> CoreReport: ...
def check_yaml(
    data: str | bytes,
    passthrough_types: List[str],
    edge_types: List[str],
    node_types: Optional[NodeTypeCatalogue] = None,
) -> CoreReport: ...
def check_file(
    path: str,
    passthrough_types: List[str],
    edge_types: List[str],
    input_format: str | None = None,
    node_types: Optional[NodeTypeCatalogue] = None,
) -> CoreReport: ...
def check_files(
    paths: List[str],
    passthrough_types: List[str],
    edge_types: List[str],
    jobs: int,
    input_format: str | None = None,
    node_types: Optional[NodeTypeCatalogue] = None,
) -> List[CoreReport | Exception]: ...
def check_files_encoded(
    paths: List[str],
    passthrough_types: List[str],
    edge_types: List[str],
    jobs: int,
    budget: int,
    node_types: Optional[NodeTypeCatalogue] = None,
) -> List[bytes | int | Exception]: ...
_StepTuple = Tuple[str, str, str, _At, str]
_PlaceTuple = Tuple[str, str, str, _At]
_PartTuple = Tuple[str, str, List[Tuple[str, _At]]]
_CallToolTuple = Tuple[str, str, str, str, _At, List[_PartTuple]]
# (name, chains, chain, consumer, tools): one clash across calls (SEMANTICS 12).
_CallTuple = Tuple[str, int, List[_StepTuple], _PlaceTuple, List[_CallToolTuple]]
# (code, node, message, at)
_SiteWarningTuple = Tuple[str, str, str, _At]

def check_site(
    paths: List[str],
    passthrough_types: List[str],
    edge_types: List[str],
    jobs: int,
    input_format: str | None = None,
    node_types: Optional[NodeTypeCatalogue] = None,
) -> Tuple[
    List[CoreReport | Exception],
    List[List[_CallTuple]],
    List[List[_SiteWarningTuple]],
    List[Tuple[str, List[str], List[str]]],
]: ...
def check_site_encoded(
    paths: List[str],
    names: List[str],
    passthrough_types: List[str],
    edge_types: List[str],
    jobs: int,
    budget: int,
    node_types: Optional[NodeTypeCatalogue] = None,
) -> Tuple[
    List[bytes | int | Exception],
    List[List[_CallTuple]],
    List[List[_SiteWarningTuple]],
    List[Tuple[str, List[str], List[str]]],
]: ...
# (name, workflow, file, id, label, at, parts, collides): a tool one consumer
# inside a called workflow sees in one call.
_CallSeenToolTuple = Tuple[str, str, str, str, str, _At, List[_PartTuple], bool]
# (consumer, call, tools, outer_calls): what it sees in that call.
_CallViewTuple = Tuple[_PlaceTuple, _StepTuple, List[_CallSeenToolTuple], int]

@final
class SiteFacts:
    def __len__(self) -> int: ...
    def call_views(self, explained: int, consumer: str | None = None) -> List[_CallViewTuple]: ...

def read_site(
    paths: List[str],
    passthrough_types: List[str],
    edge_types: List[str],
    jobs: int,
    input_format: str | None = None,
    node_types: Optional[NodeTypeCatalogue] = None,
) -> Tuple[SiteFacts, List[Tuple[int, Exception]]]: ...
def explain_json(
    data: str | bytes,
    consumer: str | None,
    passthrough_types: List[str],
    edge_types: List[str],
    chunk_tools: int,
    input_format: str | None = None,
    node_types: NodeTypeCatalogue | None = None,
) -> ViewStream: ...
def explain_file(
    path: str,
    consumer: str | None,
    passthrough_types: List[str],
    edge_types: List[str],
    chunk_tools: int,
    input_format: str | None = None,
    node_types: NodeTypeCatalogue | None = None,
) -> ViewStream: ...
def explain_mapping(
    workflow: object,
    consumer: str | None,
    passthrough_types: List[str],
    edge_types: List[str],
    chunk_tools: int,
    node_types: NodeTypeCatalogue | None = None,
) -> ViewStream: ...
def normalize_name(label: str) -> str: ...
def phase_times(path: str, passthrough_types: List[str], edge_types: List[str]) -> Dict[str, float]: ...
