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

import os

import pytest
from clients_support import KINDS, docs_recipe, load_models, missing_libraries

missing = missing_libraries()
if missing and os.environ.get("RECORDS_CLIENTS"):
    msg = f"RECORDS_CLIENTS is set, but these libraries are missing: {', '.join(missing)}"
    raise ImportError(msg)
# The helpers are modules, not tests (models.py holds a generic NamedTuple,
# which needs Python 3.11, so it must not be imported for doctests elsewhere).
collect_ignore = ["models.py", "clients_support.py"]
collect_ignore_glob = ["test_*.py"] if missing else []


@pytest.fixture(params=KINDS, scope="session")
def models(request):
    """The shared classes, with typing.NamedTuple or with records.Record as their base."""
    return load_models(request.param)


@pytest.fixture(scope="session")
def recipes():
    """The recipes of the "Records and other libraries" page, by library."""
    return {name: docs_recipe(name) for name in ("msgspec", "cattrs")}
