"""
Records where the standard library expects named tuples: type hints, enum
mix-ins, pydoc, sqlite3 and csv. Each test runs against a typing.NamedTuple
and a Record with the same fields. (Third-party libraries: tests/clients/.)
"""

import csv
import enum
import inspect
import io
import pydoc
import re
import sqlite3
import sys
import types
import typing
from typing import Annotated, Generic, NamedTuple, TypeVar

import pytest

from records import Record, _layout

T = TypeVar("T")
# PyPy 3.9 runs the suite too (tests/scripts/run_on_pypy.sh).
NEEDS_GET_ANNOTATIONS = pytest.mark.skipif(
    not hasattr(inspect, "get_annotations"), reason="inspect.get_annotations is new in 3.10"
)
BASES = pytest.mark.parametrize("base", [NamedTuple, Record], ids=["NamedTuple", "Record"])


class Point(Record):
    x: int
    y: int = 0


class Point3(Point):
    z: "float" = 0.0


class Pair(Record, Generic[T]):
    first: T
    second: T


POSTPONED = """
from __future__ import annotations

from records import Record


class Point(Base):
    x: int
    y: tuple[Point, ...] = ()


class Segment(Base):
    start: Point
    ends: list[Point]
"""


def postponed_module(base, monkeypatch):
    """Run POSTPONED as an importable module whose classes have *base* as their base."""
    module = types.ModuleType(f"postponed_{base.__name__}")
    module.Base = base
    monkeypatch.setitem(sys.modules, module.__name__, module)
    exec(compile(POSTPONED, f"<{module.__name__}>", "exec", dont_inherit=True), vars(module))
    return module


class TestTypeHints:
    """typing.get_type_hints gives exactly the fields and their types."""

    @BASES
    def test_fields_and_types(self, base):
        """Real and string annotations are resolved; nothing of the base class appears."""

        class Item(base):
            name: str
            price: "float"
            tags: "tuple[str, ...]" = ()

        assert {"name": str, "price": float, "tags": tuple[str, ...]} == typing.get_type_hints(
            Item
        )

    @BASES
    def test_postponed_annotations(self, base, monkeypatch):
        """Annotations under `from __future__ import annotations` resolve, forward references too."""
        module = postponed_module(base, monkeypatch)
        assert {"x": int, "y": tuple[module.Point, ...]} == typing.get_type_hints(module.Point)
        assert {"start": module.Point, "ends": list[module.Point]} == typing.get_type_hints(
            module.Segment
        )

    @BASES
    def test_extras(self, base):
        """include_extras keeps Annotated metadata."""

        class Measure(base):
            value: Annotated[float, "metres"]

        assert {"value": Annotated[float, "metres"]} == typing.get_type_hints(
            Measure, include_extras=True
        )
        assert {"value": float} == typing.get_type_hints(Measure)

    @pytest.mark.skipif(sys.version_info < (3, 11), reason="generic NamedTuple needs 3.11")
    def test_generic_like_namedtuple(self):
        """A generic record's hints are its type variables, as a generic NamedTuple's."""

        class PairNT(NamedTuple, Generic[T]):
            first: T
            second: T

        assert typing.get_type_hints(PairNT) == typing.get_type_hints(Pair)
        assert {"first": T, "second": T} == typing.get_type_hints(Pair)

    def test_inherited_fields(self):
        """A subclass's hints add its fields to its base's, in field order."""
        hints = typing.get_type_hints(Point3)
        assert {"x": int, "y": int, "z": float} == hints
        assert list(Point3._fields) == list(hints)

    def test_define(self):
        """Record.define classes have hints, string types resolved in the caller's module."""
        Sized = Record.define("Sized", [("name", str), ("size", "int")], defaults={"size": 0})
        assert {"name": str, "size": int} == typing.get_type_hints(Sized)

    def test_record_contributes_nothing(self):
        """Record itself has no annotations at run time."""
        assert {} == typing.get_type_hints(Record)
        assert {} == vars(Record).get("__annotations__", {})

    @NEEDS_GET_ANNOTATIONS
    def test_record_has_no_annotations(self):
        """inspect.get_annotations finds nothing on Record."""
        assert {} == inspect.get_annotations(Record)

    @NEEDS_GET_ANNOTATIONS
    def test_get_annotations_is_the_class_body(self):
        """inspect.get_annotations gives the class body's own annotations, as written."""
        assert {"x": int, "y": int} == inspect.get_annotations(Point)
        assert {"z": "float"} == inspect.get_annotations(Point3)
        assert {"z": float} == inspect.get_annotations(Point3, eval_str=True)


@BASES
def test_enum_mixin(base):
    """A record can be an Enum's data type, as a named tuple can: members are records."""

    class Vector(base):
        dx: int
        dy: int

    class Direction(Vector, enum.Enum):
        NORTH = (0, 1)
        EAST = (1, 0)

    assert ["NORTH", "EAST"] == [member.name for member in Direction]
    assert Direction.EAST is Direction((1, 0)) is Direction["EAST"]
    assert (1, 0) == Direction.EAST and 1 == Direction.EAST.dx
    assert Vector(1, 0) == Direction.EAST.value
    assert {"dx": 1, "dy": 0} == Direction.EAST._asdict()
    assert "<Direction.NORTH: Vector(dx=0, dy=1)>" == repr(Direction.NORTH)


HELP_ENTRY = re.compile(r"^ \|  (\w+)(?: = |\(|$)", re.MULTILINE)
#: What help() lists for a record beyond what it lists for a typing.NamedTuple:
#: record API (the functional form, the field factories) and the hooks of other
#: libraries, each documented.
RECORD_EXTRAS = {
    "__copy__",
    "__deepcopy__",
    "__get_pydantic_core_schema__",
    "__init_subclass__",
    "__reduce__",
    "__sizeof__",
    "__record_factories__",
    "__record_built__",  # records built the class, as dataclasses' __dataclass_fields__ says
    "__replace__",  # on every version; named tuples have it from 3.13
    "__rich_repr__",
    "__setattr__",  # these two name the field an assignment or del tries to change,
    "__delattr__",  # as a frozen dataclass's do
    "define",
}


@BASES
def test_help_lists_no_internals(base):
    """help() shows a record like a named tuple: fields and API, no internals."""

    class Shape(base):
        """A shape."""

        name: str
        sides: int = 0

    text = pydoc.render_doc(Shape, renderer=pydoc.plaintext)
    listed = set(HELP_ENTRY.findall(text)) - {"Shape"}
    assert {
        "name",
        "sides",
        "_fields",
        "_field_defaults",
        "_make",
        "_replace",
        "_asdict",
    } <= listed
    if base is Record:

        class ShapeNT(NamedTuple):
            """A shape."""

            name: str
            sides: int = 0

        expected = set(HELP_ENTRY.findall(pydoc.render_doc(ShapeNT, renderer=pydoc.plaintext)))
        if not _layout.supported():
            # Without the layout patch (PyPy, an unknown CPython) instances keep
            # a __dict__ slot (PyPy: and weak references).
            expected |= {"__dict__", "__weakref__"}
        if sys.version_info < (3, 10):  # noqa: UP036 - PyPy 3.9 runs the suite
            expected.add("__match_args__")  # named tuples have it from 3.10
        assert set() == listed - expected - RECORD_EXTRAS
    assert "super().__new__" not in text  # the docstring of Record.__new__ is for users


@BASES
def test_sqlite3_row_factory(base):
    """A row factory makes records of query results."""

    class Row(base):
        id: int
        name: str

    connection = sqlite3.connect(":memory:")
    try:
        connection.row_factory = lambda cursor, row: Row._make(row)
        rows = connection.execute("select 1, 'ann' union all select 2, 'bob'").fetchall()
    finally:
        connection.close()
    assert [Row(1, "ann"), Row(2, "bob")] == rows
    assert Row is type(rows[0])


@BASES
def test_csv_rows_through_make(base):
    """csv rows become records through _make; a short row is refused."""

    class Person(base):
        name: str
        city: str

    reader = csv.reader(io.StringIO("ann,Oslo\nbob,Rome\n"))
    assert [Person("ann", "Oslo"), Person("bob", "Rome")] == list(map(Person._make, reader))
    with pytest.raises(TypeError, match="Expected 2 arguments, got 1"):
        Person._make(next(csv.reader(io.StringIO("cy\n"))))
    rows = csv.DictReader(io.StringIO("name,city\ndee,Lima\n"))
    assert [Person("dee", "Lima")] == [Person(**row) for row in rows]
