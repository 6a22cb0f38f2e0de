"""Markers for what only some interpreters can check (see tests/README.md)."""

import platform

import pytest

from records import _layout

PYPY = platform.python_implementation() == "PyPy"

#: Exact-size and no-__dict__ checks need the layout patch (CPython 3.10-3.13).
needs_layout_patch = pytest.mark.skipif(
    not _layout.supported(),
    reason="no layout patch here (PyPy, unknown CPython): instances keep a __dict__ slot",
)

#: sys.getsizeof, sys.getallocatedblocks and CPython's garbage collector.
cpython_only = pytest.mark.skipif(
    PYPY, reason="PyPy has no sys.getsizeof/getallocatedblocks, and another GC"
)

#: Literal argument-error texts are CPython's; elsewhere parity with
#: collections.namedtuple is checked instead (test_messages_match_namedtuple).
cpython_messages = pytest.mark.skipif(PYPY, reason="PyPy words argument errors differently")
