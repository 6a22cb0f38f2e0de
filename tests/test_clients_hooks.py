"""
The hooks records give other libraries (records._interop) import none of them,
and speak their protocols. (The libraries themselves: tests/clients/.)
"""

import collections
import subprocess
import sys

from clients.support import LIBRARIES as CLIENT_LIBRARIES

import records
from records import Record

#: The libraries of the clients group, and pydantic's core, which the hook imports.
LIBRARIES = (*CLIENT_LIBRARIES, "pydantic_core")


class Point(Record):
    x: int
    y: int = 0


class Labelled(Point):
    def __repr__(self):
        return "labelled"


def test_import_records_imports_no_library():
    """Neither `import records` nor using records imports any of the libraries, or _interop."""
    code = (
        "import sys, records\n"
        "class P(records.Record):\n"
        "    x: int\n"
        "    tags: list = records.field(default_factory=list)\n"
        "repr(P(1)._replace(x=2)); records.namedtuple('N', 'a')(1)\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    loaded = set(subprocess.check_output([sys.executable, "-c", code], text=True).split())
    assert "records" in loaded
    assert set() == loaded & {*LIBRARIES, "records._interop"}


class TestRichRepr:
    """__rich_repr__ gives rich the fields, unless the class has its own __repr__."""

    def test_record_fields(self):
        """A record yields (name, value) for each field, in order."""
        assert [("x", 1), ("y", 2)] == list(Point(1, 2).__rich_repr__())

    def test_own_repr_declines(self):
        """A class with its own __repr__ returns None: rich then prints its repr."""
        assert Labelled(1).__rich_repr__() is None

    def test_namedtuple_fields(self):
        """records.namedtuple classes and their plain subclasses yield their fields."""
        cls = records.namedtuple("Row", "a b")

        class Sub(cls):
            __slots__ = ()

        assert [("a", 1), ("b", 2)] == list(cls(1, 2).__rich_repr__())
        assert [("a", 1), ("b", 2)] == list(Sub(1, 2).__rich_repr__())

    def test_namedtuple_own_repr_declines(self):
        """A records.namedtuple subclass with its own __repr__ returns None."""

        class Custom(records.namedtuple("Row", "a b")):
            __slots__ = ()

            def __repr__(self):
                return "custom"

        assert Custom(1, 2).__rich_repr__() is None

    def test_the_only_addition_to_namedtuple(self):
        """
        Beside collections.namedtuple's class, records.namedtuple's adds only
        __rich_repr__ (and with the accelerator, __copy__, __deepcopy__ and
        __reduce_ex__ in C; it pickles as collections' does, byte for byte).
        """
        ours, theirs = records.namedtuple("Row", "a b"), collections.namedtuple("Row", "a b")
        extra = set(vars(ours)) - set(vars(theirs))
        if sys.version_info < (3, 10):  # noqa: UP036 - PyPy 3.9's collections has no __match_args__
            extra.discard("__match_args__")
        in_c = {"__copy__", "__deepcopy__", "__reduce_ex__"} if records.ACCELERATED else set()
        assert {"__rich_repr__", *in_c} == extra
        assert set(vars(theirs)) <= set(vars(ours))


class FakeHandler:
    """Stands in for pydantic's schema handler, with the schema pydantic makes for a named tuple."""

    def __init__(self, schema):
        self.schema = schema

    def __call__(self, source):
        return self.schema

    def resolve_ref_schema(self, schema):
        return schema


def test_pydantic_hook_without_factories_returns_pydantic_schema():
    """
    For a record without factory fields, the hook returns the schema pydantic
    made, unchanged, and imports nothing of pydantic.
    """
    schema = {"type": "named-tuple", "cls": Point, "fields": []}
    assert schema is Point.__get_pydantic_core_schema__(Point, FakeHandler(schema))
