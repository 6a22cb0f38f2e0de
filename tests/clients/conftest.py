"""
The clients suite: records beside the libraries people use named tuples with.

Each test runs the same assertions against a ``typing.NamedTuple`` and a
``records.Record`` with the same fields (the ``models`` fixture), and tox's
``clients`` environment runs the suite on both paths: with the C accelerator
and with ``--pure-python``.

These tests need the libraries of the ``clients`` extra, and are collected
only where ``RECORDS_CLIENTS`` is set (as the ``clients`` environment does;
``RECORDS_CLIENTS=1 pytest tests/clients`` by hand). There, a missing library
is an error, never a skip. Elsewhere they stay out of the run, so that the
libraries (numpy loads ctypes, for one) never share a process with the main
suite.
"""

import os

import pytest

from clients.support import KINDS, docs_recipe, load_models, missing_libraries

enabled = bool(os.environ.get("RECORDS_CLIENTS"))
missing = missing_libraries() if enabled else []
if missing:
    msg = f"RECORDS_CLIENTS is set, but these libraries are missing: {', '.join(missing)}"
    raise ImportError(msg)
# These two are modules, not tests (models.py holds a generic NamedTuple,
# which needs Python 3.11, so it must not be imported for doctests elsewhere).
collect_ignore = ["models.py", "support.py"]
collect_ignore_glob = [] if enabled else ["test_*.py"]


@pytest.fixture(params=KINDS, scope="session")
def models(request):
    """The shared classes, with typing.NamedTuple or with records.Record as their base."""
    return load_models(request.param)


@pytest.fixture(scope="session")
def recipes():
    """The recipes of the "Records and other libraries" page, by library."""
    return {name: docs_recipe(name) for name in ("msgspec", "cattrs")}
