"""The Python package's own shape (issue 24): no import circle among its
modules, and no module reaching into another module's private names.

Read from the source with ``ast``, not by importing, so an import hidden
inside a function (the way a circle is usually papered over) counts as
much as one at the top of a file, and so does one under ``TYPE_CHECKING``.
A private name is one with a leading underscore; the package's private
*modules* (``_report``, ``_toolwire``) are its convention for what is not
public API and may be imported, but the underscored names inside a module
are that module's own."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "toolwire"

# namedtuple's API is underscored so as not to clash with field names; it is
# public all the same.
NAMEDTUPLE_API = {"_asdict", "_replace", "_fields", "_make", "_field_defaults"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> Dict[str, Path]:
    found = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    # The compiled extension is a module too: imports of it are edges.
    found["toolwire._toolwire"] = PACKAGE / "_toolwire.pyi"
    return found


MODULES = modules()


def resolve(importer: str, is_package: bool, level: int, module: Optional[str]) -> str:
    """The absolute name of ``from <level dots><module> import ...``."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _is_import_module(function: ast.expr) -> bool:
    return (isinstance(function, ast.Attribute) and function.attr == "import_module") or (
        isinstance(function, ast.Name) and function.id == "import_module"
    )


class Imports:
    """What one module imports from the package: the modules (edges of the
    graph), the names it binds to package modules or to things imported from
    them, and the private names it imports."""

    def __init__(self, name: str, path: Path) -> None:
        self.name = name
        self.tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        self.edges: Dict[str, int] = {}
        self.bound: Dict[str, str] = {}
        self.private_imports: List[Tuple[int, str]] = []
        self.unreadable: List[Tuple[int, str]] = []
        is_package = path.name == "__init__.py"
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in MODULES:
                        self.edges.setdefault(alias.name, node.lineno)
                        if alias.asname:
                            self.bound[alias.asname] = alias.name
            elif isinstance(node, ast.ImportFrom):
                source = resolve(name, is_package, node.level, node.module)
                if source not in MODULES:
                    continue
                for alias in node.names:
                    submodule = f"{source}.{alias.name}"
                    bound = alias.asname or alias.name
                    if submodule in MODULES:
                        self.edges.setdefault(submodule, node.lineno)
                        self.bound[bound] = submodule
                        continue
                    self.edges.setdefault(source, node.lineno)
                    self.bound[bound] = f"{source}:{alias.name}"
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        self.private_imports.append((node.lineno, f"{source}.{alias.name}"))
            elif isinstance(node, ast.Call) and _is_import_module(node.func):
                self._dynamic(node, is_package)

    def _dynamic(self, call: ast.Call, is_package: bool) -> None:
        """``importlib.import_module(...)``: a constant name is an edge; a
        name made from ``__name__`` in a package (``f"{__name__}.{x}"``) may be
        any module under it, so it is an edge to each. Anything else is a name
        this test cannot read, which it refuses."""
        argument = call.args[0] if len(call.args) == 1 and not call.keywords else None
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str) and argument.value in MODULES:
            self.edges.setdefault(argument.value, call.lineno)
            return
        if (
            is_package
            and isinstance(argument, ast.JoinedStr)
            and isinstance(argument.values[0], ast.FormattedValue)
            and isinstance(argument.values[0].value, ast.Name)
            and argument.values[0].value.id == "__name__"
        ):
            for module in MODULES:
                if module.startswith(self.name + "."):
                    self.edges.setdefault(module, call.lineno)
            return
        self.unreadable.append((call.lineno, ast.unparse(call)))

    def own_names(self) -> Set[str]:
        """Every name this module defines or assigns anywhere: its private
        names are those it may read on any object."""
        names: Set[str] = set()
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                # __slots__ entries
                names.add(node.value)
        return names

    def private_reads(self) -> Iterator[Tuple[int, str]]:
        """``x._name`` where ``_name`` is not this module's own: read through a
        name bound to another package module (``_api._names``,
        ``Report._failed``), or through any object whose private attribute
        this module never defines (``violations._core``)."""
        own = self.own_names()
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Attribute):
                continue
            attr = node.attr
            if not attr.startswith("_") or attr.startswith("__") or attr in NAMEDTUPLE_API:
                continue
            base = node.value
            if isinstance(base, ast.Name) and base.id in self.bound:
                yield node.lineno, f"{base.id}.{attr} ({self.bound[base.id]})"
            elif attr not in own and not (isinstance(base, ast.Name) and base.id in ("self", "cls")):
                yield node.lineno, f"{ast.unparse(base)}.{attr}"


def graph() -> Dict[str, Imports]:
    return {name: Imports(name, path) for name, path in MODULES.items() if path.suffix == ".py"}


def cycles(edges: Dict[str, List[str]]) -> List[List[str]]:
    """The import circles: each strongly connected component of more than
    one module (or a module importing itself), by Tarjan's algorithm."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, []):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1 or node in edges.get(node, []):
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_package_is_found() -> None:
    # Guards the tests below against passing on an empty tree.
    assert {"toolwire", "toolwire._api", "toolwire.cli", "toolwire._formats.common", "toolwire.dask"} <= set(MODULES)
    imports = graph()
    assert "toolwire._api" in imports["toolwire"].edges


def test_no_import_circle() -> None:
    imports = graph()
    # _formats.writer imports each format by name: those count as imports.
    assert "toolwire._formats.text_format" in imports["toolwire._formats"].edges
    assert [f"{name}:{line}: {call}" for name, i in sorted(imports.items()) for line, call in i.unreadable] == []
    edges = {name: sorted(i.edges) for name, i in imports.items()}
    assert cycles(edges) == []


def test_no_module_imports_another_modules_private_name() -> None:
    found = [f"{name}:{line}: {what}" for name, i in sorted(graph().items()) for line, what in i.private_imports]
    assert found == []


def test_no_module_reads_another_modules_private_attribute() -> None:
    found = [f"{name}:{line}: {what}" for name, i in sorted(graph().items()) for line, what in i.private_reads()]
    assert found == []


@pytest.mark.parametrize(
    "source, problem",
    [
        ("from ._report import _quoted\n", "private import"),
        ("from . import _api\nx = _api._names\n", "private read"),
        ("from ._report import Report\nReport._failed('-', None)\n", "private read"),
        ("def f(v):\n    return v._core\n", "private read"),
        ("import importlib\nimportlib.import_module(name)\n", "unreadable import"),
    ],
)
def test_the_checks_see_what_they_look_for(tmp_path: Path, source: str, problem: str) -> None:
    # The checks must be able to fail: each of these is flagged.
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    probe = Imports("toolwire.probe", path)
    if problem == "private import":
        assert probe.private_imports
    elif problem == "unreadable import":
        assert probe.unreadable
    else:
        assert list(probe.private_reads())


def test_a_circle_is_found() -> None:
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert cycles({"a": ["a"]}) == [["a"]]
    assert cycles({"a": ["b"], "b": [], "c": ["a", "b"]}) == []


def test_a_circle_through_a_function_level_import_is_found(tmp_path: Path) -> None:
    # The shape issue 24 found: _report imported _groups inside a function,
    # _groups imported _report at the top.
    (tmp_path / "a.py").write_text("from .b import B\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("def f():\n    from .a import A\n", encoding="utf-8")
    (tmp_path / "__init__.py").write_text("", encoding="utf-8")
    saved = dict(MODULES)
    MODULES.update({"toolwire.a": tmp_path / "a.py", "toolwire.b": tmp_path / "b.py"})
    try:
        a, b = Imports("toolwire.a", tmp_path / "a.py"), Imports("toolwire.b", tmp_path / "b.py")
    finally:
        MODULES.clear()
        MODULES.update(saved)
    assert cycles({"toolwire.a": sorted(a.edges), "toolwire.b": sorted(b.edges)}) == [["toolwire.a", "toolwire.b"]]
