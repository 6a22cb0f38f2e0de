"""
The modules of each package import one another as a stack: no runtime
import cycle.

An import counts wherever it is written (at the top of a module, or lazily
inside a function or class), except under ``if TYPE_CHECKING:``, which never
runs. ``from package import name`` counts as an import of the submodule
*name* where there is one, and of the package otherwise; the package a
module belongs to, which Python imports first, is not counted (every
package's ``__init__`` imports its own modules). Imports whose names are
computed at run time (``__import__(f"records.{module}")``) are not seen.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _module_names(directory, package):
    """Map the dotted name of every module of *package* (in *directory*) to its file."""
    modules = {}
    for path in sorted(directory.rglob("*.py")):
        parts = [package, *path.relative_to(directory).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(node, module, is_package):
    """The dotted names *node* (an import statement in *module*) may import."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = module if is_package else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    target = node.module if not node.level else ".".join(filter(None, [base, node.module]))
    return [target, *(f"{target}.{alias.name}" for alias in node.names)]


def runtime_imports(directory, package):
    """
    Return, for every module of *package* (whose files are in *directory*),
    the modules of the package it imports at run time.
    """
    modules = _module_names(directory, package)
    graph = {}
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        found = set()
        pending = list(ast.iter_child_nodes(ast.parse(path.read_text(encoding="utf-8"))))
        while pending:
            node = pending.pop()
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                pending.extend(node.orelse)
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [name for name in _imported(node, module, is_package) if name in modules]
                # from package import submodule: not the package itself,
                # unless a name imported is no submodule.
                submodules_only = len(names) - 1 == len(node.names)
                found.update(
                    names[1:] if isinstance(node, ast.ImportFrom) and submodules_only else names
                )
            pending.extend(ast.iter_child_nodes(node))
        found.discard(module)
        graph[module] = found
    return graph


def runtime_cycles(directory, package):
    """
    Return the runtime import cycles among the modules of *package* (in
    *directory*): each as a list of modules, every one importing the next and
    the last the first. Empty when the modules form a stack.
    """
    graph = runtime_imports(directory, package)
    cycles = []
    done = set()
    for start in sorted(graph):
        if start in done:
            continue
        # Depth first, from start: a module met again on the current path closes a cycle.
        path, on_path, stack = [], set(), [(start, iter(sorted(graph[start])))]
        path.append(start)
        on_path.add(start)
        while stack:
            module, successors = stack[-1]
            successor = next(successors, None)
            if successor is None:
                stack.pop()
                on_path.discard(path.pop())
                done.add(module)
            elif successor in on_path:
                cycles.append(path[path.index(successor) :])
            elif successor not in done:
                path.append(successor)
                on_path.add(successor)
                stack.append((successor, iter(sorted(graph[successor]))))
    return cycles


@pytest.mark.parametrize("package", ["records", "records.mypy"])
def test_no_runtime_import_cycle(package):
    """Each package's modules import one another as a stack, subpackages included."""
    directory = ROOT.joinpath(*package.split("."))
    assert [] == runtime_cycles(directory, package)


def test_accelerator_loader_imports_nothing_of_records():
    """records._accelerator, which every module may ask, stands at the bottom."""
    graph = runtime_imports(ROOT / "records", "records")
    assert set() == graph["records._accelerator"]


def test_install_is_imported_by_the_package_alone():
    """records._install stands at the top: only records/__init__.py imports it."""
    graph = runtime_imports(ROOT / "records", "records")
    assert {"records"} == {
        module for module, imports in graph.items() if "records._install" in imports
    }


def _write(directory, files):
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_lazy_imports_count_and_type_checking_ones_do_not(tmp_path):
    """A lazy import inside a function closes a cycle; one under TYPE_CHECKING does not."""
    package = tmp_path / "pkg"
    _write(
        package,
        {
            "__init__.py": "from . import a\n",
            "a.py": "from . import b\n",
            "b.py": "def f():\n    from .a import g\n",
            "c.py": "from .b import f\nTYPE_CHECKING = False\nif TYPE_CHECKING:\n    from . import d\n",
            "d.py": "from .c import x\n",
        },
    )
    graph = runtime_imports(package, "pkg")
    assert {"pkg.a"} == graph["pkg"]
    assert {"pkg.b"} == graph["pkg.c"]
    assert [["pkg.a", "pkg.b"]] == runtime_cycles(package, "pkg")


def test_cycles_through_subpackages_and_the_package_are_found(tmp_path):
    """A module that imports its package, which imports it, is a cycle; so is one across subpackages."""
    package = tmp_path / "pkg"
    _write(
        package,
        {
            "__init__.py": "from .sub.x import y\n",
            "sub/__init__.py": "",
            "sub/x.py": "import pkg.sub.z\ny = 1\n",
            "sub/z.py": "def f():\n    import pkg\n",
        },
    )
    assert [["pkg", "pkg.sub.x", "pkg.sub.z"]] == runtime_cycles(package, "pkg")
    assert [] == runtime_cycles(package / "sub", "pkg.sub")
