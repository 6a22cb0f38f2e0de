"""
The clients suite: records beside the libraries people use named tuples with.

Each test runs the same assertions against a ``typing.NamedTuple`` and a
``records.Record`` with the same fields (the ``models`` fixture), and tox's
``clients`` environment runs the suite on both paths: with the C accelerator
and with ``--pure-python``.

These tests need the libraries of the ``clients`` extra. They are collected
only where all of them are installed; with ``RECORDS_CLIENTS`` set (as the
``clients`` environment does) a missing one is an error, never a skip.
"""

import importlib.util
import os
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
LIBRARIES = (
    "beartype",
    "cattrs",
    "cloudpickle",
    "dill",
    "hypothesis",
    "joblib",
    "msgspec",
    "pandas",
    "pydantic",
    "rich",
    "typeguard",
)

missing = [name for name in LIBRARIES if importlib.util.find_spec(name) is None]
if missing and os.environ.get("RECORDS_CLIENTS"):
    msg = f"RECORDS_CLIENTS is set, but these libraries are missing: {', '.join(missing)}"
    raise ImportError(msg)
collect_ignore_glob = ["test_*.py"] if missing else []

KINDS = ("NamedTuple", "Record")


def load_models(kind: str):
    """
    Return tests/clients/models.py loaded as module ``models_<kind>``, whose
    classes have *kind* as their base; registered in sys.modules, so that
    pickle and the type-hint resolvers find it like any module.
    """
    name = f"models_{kind.lower()}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / "models.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(params=KINDS, scope="session")
def models(request):
    """The shared classes, with typing.NamedTuple or with records.Record as their base."""
    return load_models(request.param)


RECIPE = re.compile(r"```python\n(# Recipe: (?P<name>[^\n]+)\n.*?)```", re.DOTALL)


def docs_recipe(name: str) -> dict:
    """
    Run the code block of the "Records and other libraries" page that starts
    with ``# Recipe: <name>`` and return its namespace: the tests use the
    recipe exactly as the page shows it.
    """
    page = (HERE.parent.parent / "docs" / "pages" / "libraries.md").read_text()
    for match in RECIPE.finditer(page):
        if match["name"] == name:
            namespace = {"__name__": f"recipe_{name.replace(' ', '_')}"}
            exec(compile(match[1], f"<libraries.md recipe {name}>", "exec"), namespace)
            return namespace
    msg = f"no '# Recipe: {name}' block in docs/pages/libraries.md"
    raise LookupError(msg)


@pytest.fixture(scope="session")
def recipes():
    """The recipes of the "Records and other libraries" page, by library."""
    return {name: docs_recipe(name) for name in ("msgspec", "cattrs")}
