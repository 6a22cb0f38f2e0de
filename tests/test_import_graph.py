"""No module of a package imports itself back at run time, however indirectly."""

import ast
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import records

ROOT = Path(__file__).parent.parent


def runtime_import_cycles(directory, package):
    """
    Return the import cycles among the modules of *package*, read from *directory*.

    Every import of the package's own modules counts, relative or absolute,
    at module level, in a function or in a ``try``, except under
    ``if TYPE_CHECKING:``. Subpackages are read too. Each cycle is a list of
    imports, ``"pkg.a:3 imports pkg.b"``, from the first of its modules in
    sorted order back to it; one cycle is given per group of modules that
    import each other.
    """
    graph = _import_graph(Path(directory), package)
    return [_cycle_through(graph, group) for group in _strongly_connected(graph)]


def _modules(directory, package):
    """Map each module's dotted name to its file (subpackages with an __init__.py)."""
    found = {}
    for path in sorted(directory.rglob("*.py")):
        parts = path.relative_to(directory).with_suffix("").parts
        if not all(
            (directory.joinpath(*parts[:i]) / "__init__.py").exists() for i in range(len(parts))
        ):
            continue  # not under a regular package
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((package, *parts))] = path
    return found


def _runtime_imports(tree):
    """Yield the Import and ImportFrom nodes of *tree* outside ``if TYPE_CHECKING:``."""
    pending = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            pending.extend(node.orelse)
        else:
            pending.extend(ast.iter_child_nodes(node))


def _is_type_checking(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_graph(directory, package):
    """Map each module to the modules of the package it imports, with the first line of each."""
    modules = _modules(directory, package)
    graph = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        # The module and the packages around it are already running when it
        # runs: importing them binds a name, reading from them needs them done.
        running = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 2)}
        edges = {}
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node, name, is_package, modules, running):
                edges[target] = min(edges.get(target, node.lineno), node.lineno)
        graph[name] = edges
    return graph


def _targets(node, name, is_package, modules, running):
    """Return the modules of the package whose code an import statement may run."""
    if isinstance(node, ast.Import):
        imported = [(alias.name, ()) for alias in node.names]
    else:
        if node.level:
            base = name.split(".") if is_package else name.split(".")[:-1]
            if node.level - 1 >= len(base):
                return set()  # above the top of the package read
            base = base[: len(base) - node.level + 1]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module
        imported = [(module, [alias.name for alias in node.names])]
    targets = set()
    for module, names in imported:
        parts = module.split(".")
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            if prefix in modules and prefix not in running:
                targets.add(prefix)
        for attribute in names:
            if f"{module}.{attribute}" in modules:
                targets.add(f"{module}.{attribute}")
            elif module in modules and module != name:
                targets.add(module)  # reads a name the module defines: it must have run
    return targets


def _strongly_connected(graph):
    """Return the groups of modules that import each other, each sorted, in sorted order."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
                on_stack.discard(group[-1])
            if len(group) > 1 or module in graph[module]:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(groups)


def _cycle_through(graph, group):
    """Return the shortest chain of imports from the group's first module back to it."""
    start = group[0]
    paths = {start: [start]}
    queue = [start]
    for module in queue:
        for target in sorted(graph[module]):
            if target == start:
                chain = [*paths[module], start]
                return [
                    f"{source}:{graph[source][imported]} imports {imported}"
                    for source, imported in zip(chain, chain[1:])  # noqa: RUF007 - pairwise is 3.10+, PyPy 3.9 runs the suite
                ]
            if target in group and target not in paths:
                paths[target] = [*paths[module], target]
                queue.append(target)
    raise AssertionError(f"no cycle through {start}")  # a group always has one


@pytest.mark.parametrize("package", ["records", "records.mypy"])
def test_no_runtime_import_cycle(package):
    """The package's modules import each other as a stack, never back up."""
    directory = ROOT.joinpath(*package.split("."))
    assert (directory / "__init__.py").exists()
    assert [] == runtime_import_cycles(directory, package)


def test_accelerator_loader_stands_at_the_bottom():
    """records._accelerator, which any module may ask whether C is loaded, imports none of them."""
    assert {} == _import_graph(ROOT / "records", "records")["records._accelerator"]


#: What ``import records`` loads in a fresh interpreter, beside the package:
#: ``Record``, ``field()`` and the C module, and of the standard library only
#: ``__future__``. Start-up is what records is for: a module joins this list
#: only on purpose (benchmarks/process_startup.py measures what it costs).
IMPORT_PATH = {
    "records._accelerator", "records._accelerator_c", "records._fields", "records._record",
    "__future__",
}  # fmt: skip

#: What the first plain class statement loads besides, with the C accelerator:
#: the modules of the helpers the C class builder reads before a build
#: (BUILDER_FIELDS in records/_c/builder_helpers.h; _pickling tells copyreg
#: how fields pickle, which must hold before a record class can be pickled),
#: and from 3.14 on the one that evaluates deferred annotations; not
#: ``_builder``, the seal's modules, ``_rules`` or ``keyword``.
CLASS_PATH = {
    "records._accessors", "records._codegen", "records._pickling", "records._precompiled",
    "_collections", "copyreg",
} | ({"records._annotations"} if sys.version_info >= (3, 14) else set())  # fmt: skip

#: What ``records.namedtuple``'s first call loads besides, with the C accelerator.
NAMEDTUPLE_PATH = {"records._namedtuple", "records._compat", "keyword"}


def _loaded_step_by_step(*steps):
    """
    Run *steps* (code) one after the other in a fresh interpreter, as a
    program runs (no development mode, whose checks load codecs), and return
    the modules each step loaded.
    """
    code = "import sys\nloaded = set(sys.modules)\n" + "".join(
        f"{step}\nprint(' '.join(sorted(set(sys.modules) - loaded)))\nloaded = set(sys.modules)\n"
        for step in steps
    )
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDEVMODE"}
    output = subprocess.check_output([sys.executable, "-c", code], env=environment, text=True)
    # A debug build checks the encoding CPython's loader encodes an extension's
    # name with, and so loads that codec with the C accelerator (3.10, 3.11).
    debug_codec = {"encodings.ascii"} if hasattr(sys, "gettotalrefcount") else set()
    return [set(line.split()) - debug_codec for line in output.splitlines()]


def _on_c_path():
    return records.ACCELERATED


def test_import_records_loads_the_class_path_alone():
    """A fresh ``import records`` loads IMPORT_PATH, and on the pure path no C module."""
    (loaded,) = _loaded_step_by_step("import records")
    loaded.discard("records")
    expected = set(IMPORT_PATH)
    if not _on_c_path():
        expected.discard("records._accelerator_c")
    # Another interpreter may have some of the standard library's loaded at start-up.
    assert expected - loaded <= {"__future__"}
    assert loaded <= expected, sorted(loaded - expected)


def test_import_as_namedtuple_loads_the_module_alone():
    """``import records.as_namedtuple`` loads what ``import records`` does, and itself."""
    _, loaded = _loaded_step_by_step("import records", "import records.as_namedtuple")
    assert {"records.as_namedtuple"} == loaded


def test_what_the_first_class_and_namedtuple_load():
    """
    With the C accelerator, a plain class statement loads CLASS_PATH and
    ``records.namedtuple`` NAMEDTUPLE_PATH; the Python class builder, its
    seal and the public helpers load only when asked for.
    """
    if not _on_c_path():
        pytest.skip("the C class builder: CPython with the accelerator")
    steps = _loaded_step_by_step(
        "import records\nfrom records import Record",
        "class P(Record):\n    x: int\n    y: 'list[int]' = ()",
        "records.namedtuple('Q', 'a b')",
        "class V(Record):\n    x: 'typing.ClassVar[int]' = 0",
        "records.fields(P)",
    )
    _, first_class, first_namedtuple, left_to_python, helpers = steps
    # Another interpreter may have some of the standard library's loaded at start-up.
    assert CLASS_PATH - first_class <= {"_collections", "copyreg"}
    assert first_class <= CLASS_PATH, sorted(first_class - CLASS_PATH)
    assert NAMEDTUPLE_PATH - first_namedtuple <= {"keyword"}
    assert first_namedtuple <= NAMEDTUPLE_PATH, sorted(first_namedtuple - NAMEDTUPLE_PATH)
    # A ClassVar is built in Python: records._builder, read when first called.
    assert "records._builder" in left_to_python
    # (From 3.14 on, fields() evaluates the types through annotationlib.)
    assert {module for module in helpers if module.startswith("records")} == {"records._funcs"}


ARCHITECTURE = ROOT / "docs" / "pages" / "architecture.md"
FLOOR = re.compile(r"^(?:floor (?P<floor>\d+)|beside)\s+(?P<rest>.*)$")


def documented_stack():
    """
    Read the stack drawn in docs/pages/architecture.md: each top-level module
    of records (``__init__`` for the package) with its floor, ``None`` for
    those drawn beside the stack.
    """
    floors = {}
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        found = FLOOR.match(line)
        if found:
            names = re.split(r"\s{2,}", found["rest"].strip())[0].split()
            floor = None if found["floor"] is None else int(found["floor"])
            floors.update(dict.fromkeys(names, floor))
    return floors


def _top_level(module):
    """Return the first module under the package (its own name is ``__init__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_the_documented_stack_is_the_code():
    """
    The architecture page draws every module of records, and each module on
    a floor imports only modules on floors below it, never one drawn beside.
    """
    floors = documented_stack()
    graph = _import_graph(ROOT / "records", "records")
    assert sorted({_top_level(module) for module in graph}) == sorted(floors)
    wrong = []
    for module, edges in graph.items():
        floor = floors[_top_level(module)]
        if floor is None:
            continue
        for target in edges:
            target_floor = floors[_top_level(target)]
            if _top_level(target) != _top_level(module) and (
                target_floor is None or target_floor >= floor
            ):
                wrong.append(f"{module} (floor {floor}) imports {target} ({target_floor})")
    assert [] == wrong


def _write_package(tmp_path, files):
    directory = tmp_path / "pkg"
    for name, source in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    return directory


def test_cycle_is_found_and_named(tmp_path):
    """A loop through a lazy, a try and an absolute import is reported with its lines."""
    directory = _write_package(
        tmp_path,
        {
            "__init__.py": "from .a import run\n",
            "a.py": "from . import b\n",
            "b.py": """\
                try:
                    import fast
                except ImportError:
                    fast = None

                def later():
                    from .sub.c import thing
                """,
            "sub/__init__.py": "",
            "sub/c.py": "\n\nfrom pkg.a import run\n",
        },
    )
    assert [
        ["pkg.a:1 imports pkg.b", "pkg.b:7 imports pkg.sub.c", "pkg.sub.c:3 imports pkg.a"]
    ] == runtime_import_cycles(directory, "pkg")

    (directory / "b.py").write_text(
        "try:\n    from .sub import c\nexcept ImportError:\n    pass\n", encoding="utf-8"
    )
    assert [
        ["pkg.a:1 imports pkg.b", "pkg.b:2 imports pkg.sub.c", "pkg.sub.c:3 imports pkg.a"]
    ] == runtime_import_cycles(directory, "pkg")


def test_type_checking_back_import_is_no_cycle(tmp_path):
    """An import under ``if TYPE_CHECKING:`` runs only for type checkers; its else branch runs."""
    files = {
        "__init__.py": "from .a import run\n",
        "a.py": "from .b import helper\n\ndef run(): ...\n",
        "b.py": textwrap.dedent(
            """\
            import typing

            TYPE_CHECKING = False
            if TYPE_CHECKING:
                from .a import run
            if typing.TYPE_CHECKING:
                from pkg.a import run

            def helper(): ...
            """
        ),
    }
    assert [] == runtime_import_cycles(_write_package(tmp_path, files), "pkg")

    files["b.py"] += "if TYPE_CHECKING:\n    pass\nelse:\n    from .a import run\n"
    assert [["pkg.a:1 imports pkg.b", "pkg.b:13 imports pkg.a"]] == runtime_import_cycles(
        _write_package(tmp_path, files), "pkg"
    )


def test_package_imports_of_a_running_module(tmp_path):
    """
    A submodule taken from its own package is no loop; a name read from the
    package's ``__init__`` is, since the package is still running.
    """
    files = {
        "__init__.py": "from . import a\nVERSION = 1\n",
        "a.py": "from . import b\nimport pkg.b\nimport pkg\n",
        "b.py": "",
    }
    assert [] == runtime_import_cycles(_write_package(tmp_path, files), "pkg")

    files["b.py"] = "from pkg import VERSION\n"
    assert [
        ["pkg:1 imports pkg.a", "pkg.a:1 imports pkg.b", "pkg.b:1 imports pkg"]
    ] == runtime_import_cycles(_write_package(tmp_path, files), "pkg")


def test_imports_outside_the_package_are_left_out(tmp_path):
    """Imports of other packages, and relative imports above the one read, are no edges."""
    files = {
        "__init__.py": "from .. import records\nfrom os import path\nimport json\n",
        "a.py": "from ... import anything\n",
    }
    assert [] == runtime_import_cycles(_write_package(tmp_path, files), "pkg")
