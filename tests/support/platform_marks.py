"""Markers for what only some interpreters can check (see tests/README.md)."""

import platform
import sys

import pytest

import records
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

#: Whether a record's fields are member descriptors here: with the C
#: accelerator from 3.11 on (on 3.10, _tuplegetter reads faster).
MEMBER_FIELDS = records.ACCELERATED and sys.version_info >= (3, 11)

#: Tests of member-descriptor fields and the room they need.
member_fields = pytest.mark.skipif(
    not MEMBER_FIELDS, reason="fields are member descriptors with the accelerator, 3.11+"
)

#: Tests of the C accelerator itself (skipped on the pure-Python path).
accelerated = pytest.mark.skipif(not records.ACCELERATED, reason=records.ACCELERATOR)
