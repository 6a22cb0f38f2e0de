"""
CPython's own namedtuple tests, run against records.namedtuple.

`Lib/test/test_collections.py::TestNamedTuple` of the running interpreter is
subclassed, with the module's `namedtuple`, its pickling fixture `TestNT` and
`collections.namedtuple` rebound to `records.namedtuple` for each test.
No test is excluded.
"""

import collections
import unittest
import unittest.mock

from test import test_collections as cpython

import records


class TestCPythonNamedTuple(cpython.TestNamedTuple):
    """Every TestNamedTuple test, with records.namedtuple in place."""

    def setUp(self):
        super().setUp()
        patches = [
            unittest.mock.patch.object(cpython, "namedtuple", records.namedtuple),
            unittest.mock.patch.object(collections, "namedtuple", records.namedtuple),
            unittest.mock.patch.object(
                cpython, "TestNT", records.namedtuple("TestNT", "x y z", module=cpython.__name__)
            ),
        ]
        for patch in patches:
            patch.start()
            self.addCleanup(patch.stop)


def test_rebinding_reaches_the_tests():
    """The rebound names are records' inside the CPython test module."""
    from test import test_collections

    case = TestCPythonNamedTuple("test_factory")
    case.setUp()
    try:
        assert test_collections.namedtuple is records.namedtuple
        # records' constructor code: a compiled template, or a written-out one
        filename = test_collections.TestNT.__new__.__code__.co_filename
        assert filename.startswith("<records") or filename == records._precompiled.__file__
    finally:
        case.doCleanups()
    assert test_collections.namedtuple is collections.namedtuple
