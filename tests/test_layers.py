"""The package's layers and the one direction of their imports, read from the source with ast.

    core (standard library only) <- io <- engine <- folders <- importers <- tables (pandas)
    <- render <- recording <- usecases <- workbook <- cli

io reads and writes files with the standard library (and jsonschema): no numpy, pyarrow or
duckdb, which belong to the engine's columnar wing; ragscore.folders (load, save, upgrade)
hands io the engine's Parquet runs codec; an importer sits above the engine and asks it for
a column reader.

A module may import from its own layer and the layers below it, never from a layer above;
the core imports nothing outside the standard library; and no module imports, however
indirectly and even inside a function, a module that imports it back (no import circle).
"""
import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ragscore"
LAYERS = ["ragscore.core", "ragscore.io", "ragscore.engine", "ragscore.folders",
          "ragscore.importers",
          "ragscore.tables", "ragscore.render", "ragscore.recording", "ragscore.usecases",
          "ragscore.workbook", "ragscore.top"]
#: Modules on top of everything: the command line and the public entry points.
TOP = {"ragscore", "ragscore.__main__", "ragscore.reports", "ragscore.plots"}
#: The command line: a package on top of everything.
CLI = "ragscore.cli"
#: Third-party packages each layer may use (the standard library is always allowed).
THIRD_PARTY = {
    "ragscore.core": set(),
    "ragscore.io": {"jsonschema", "referencing"},
    "ragscore.engine": {"numpy", "pyarrow", "duckdb", "dask", "pandas"},
    "ragscore.folders": set(),
    "ragscore.importers": set(),
    "ragscore.tables": {"numpy", "pandas", "scipy"},
    "ragscore.render": {"numpy", "pandas", "matplotlib"},
    "ragscore.usecases": set(),
    "ragscore.workbook": {"numpy", "pandas", "matplotlib", "ipywidgets", "IPython"},
    "ragscore.recording": set(),
    "ragscore.top": {"numpy", "pandas"},
}


def module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(name):
    if name in TOP or name == CLI or name.startswith(CLI + "."):
        return "ragscore.top"
    return next(layer for layer in LAYERS if name == layer or name.startswith(layer + "."))


def imports_of(path, name=None):
    """Absolute names of everything ``path`` imports (relative imports resolved); ``name``
    is the module's dotted name (by default, from its place in the package)."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                found += [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            else:
                found.append(node.module)
    return found


def violations(path, name=None):
    """Every import of ``path`` that points up a layer or reaches a package its layer may
    not use."""
    name = name or module_name(path)
    layer = layer_of(name)
    found = []
    for target in imports_of(path, name):
        root = target.split(".")[0]
        if root == "ragscore":
            if target != "ragscore" and LAYERS.index(layer_of(target)) > LAYERS.index(layer):
                found.append(f"{name} -> {target} (up a layer)")
        elif root not in sys.stdlib_module_names and root not in THIRD_PARTY[layer]:
            found.append(f"{name} -> {target} (not allowed in {layer})")
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_belongs_to_a_layer():
    for path in MODULES:
        assert layer_of(module_name(path)) in LAYERS, path


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down_only(path):
    assert violations(path) == []


def test_the_core_imports_only_the_standard_library():
    assert THIRD_PARTY["ragscore.core"] == set()
    for path in (PACKAGE / "core").rglob("*.py"):
        for target in imports_of(path):
            assert target.split(".")[0] in sys.stdlib_module_names \
                or target.startswith("ragscore.core"), f"{module_name(path)} imports {target}"


def test_io_imports_no_array_library(tmp_path):
    """The columnar wing is the engine's: io reads and writes files without numpy, pyarrow or
    duckdb, and the checker refuses each of them there."""
    fake = tmp_path / "columns.py"
    fake.write_text("import numpy\nimport pyarrow.compute\nfrom duckdb import connect\n")
    assert violations(fake, "ragscore.io.columns") == [
        f"ragscore.io.columns -> {name} (not allowed in ragscore.io)"
        for name in ("numpy", "pyarrow.compute", "duckdb")]


def test_the_checker_notices_an_upward_import_and_a_third_party_one(tmp_path):
    fake = tmp_path / "counts.py"
    fake.write_text("from ..tables.scores import score_runs\nimport pandas\nimport json\n")
    assert violations(fake, "ragscore.core.counts") == [
        "ragscore.core.counts -> ragscore.tables.scores (up a layer)",
        "ragscore.core.counts -> pandas (not allowed in ragscore.core)"]


def import_graph():
    """``{module: set of ragscore modules it imports}`` over the whole package (imports
    inside functions included)."""
    names = {module_name(path): path for path in MODULES}
    graph = {}
    for name, path in names.items():
        targets = set()
        for target in imports_of(path, name):
            while target and target not in names:  # "from .x import name": the module x
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith("ragscore"):
                targets.add(target)
        graph[name] = targets
    return graph


def circles(graph):
    """The import circles of ``graph``: each a sorted list of the modules in it (strongly
    connected components of more than one module)."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_is_in_an_import_circle():
    graph = import_graph()
    graph.pop("ragscore", None)  # the package's entry point only re-exports
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


#: The longest a module of the package may be, in lines.
LONGEST_MODULE = 500


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_500_lines(path):
    assert len(path.read_text().splitlines()) <= LONGEST_MODULE


@pytest.mark.exhaustive
def test_every_module_imports_on_its_own():
    """Each module imported first, in a fresh interpreter (as `import ragscore` now loads
    nothing, any module may be the first): a circle through a package's __init__ that an
    earlier import used to hide (core.trials -> core.metrics -> core.trials) fails here."""
    import subprocess

    names = [module_name(path) for path in MODULES]
    failed = [name for name in names
              if subprocess.run([sys.executable, "-c", f"import {name}"],
                                capture_output=True).returncode]
    assert failed == []
