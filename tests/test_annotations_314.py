"""
Deferred annotations (PEP 649/749, CPython 3.14+): records read them without
evaluating them, and users see them as they see a typing.NamedTuple's.
"""

import annotationlib
import inspect
import typing

import pytest

from records import Record, field, fields

calls = []


def side_effect():
    calls.append(1)
    return int


class Early(Record):
    """Names a class defined later in this module, without quotes."""

    later: Later
    items: list[Later] = field(default_factory=list)


class EarlyTuple(typing.NamedTuple):
    later: Later
    items: list[Later] = []


class Later:
    pass


class Point(Record):
    x: int
    y: int = 0


class PointTuple(typing.NamedTuple):
    x: int
    y: int = 0


class Point3(Point):
    w: str = ""
    count: typing.ClassVar[int] = 5


class TestDeferred:
    """Fields come from deferred annotations; nothing is evaluated to find them."""

    def test_forward_reference_without_quotes(self):
        """A name defined after the class is a field's annotation, resolved when asked."""
        assert ("later", "items") == Early._fields
        assert {"later": Later, "items": list[Later]} == typing.get_type_hints(Early)
        assert typing.get_type_hints(EarlyTuple) == typing.get_type_hints(Early)

    def test_nothing_is_evaluated_to_find_fields(self):
        """An annotation that calls a function is not called by the class statement."""

        class Lazy(Record):
            x: side_effect()

        assert ("x",) == Lazy._fields
        assert [] == calls
        assert {"x": int} == annotationlib.get_annotations(Lazy)
        assert [1] == calls

    def test_classvar_is_not_a_field(self):
        """ClassVar is recognised in deferred annotations."""
        assert ("x", "y", "w") == Point3._fields
        assert 5 == Point3.count

    @pytest.mark.parametrize(
        "format",
        list(annotationlib.Format)[:1]
        + [annotationlib.Format.FORWARDREF, annotationlib.Format.STRING],
    )
    def test_get_annotations_like_named_tuple(self, format):
        """annotationlib gives the class's own annotations, in every format, as for NamedTuple."""
        assert annotationlib.get_annotations(PointTuple, format=format) == (
            annotationlib.get_annotations(Point, format=format)
        )

    def test_get_type_hints_like_named_tuple(self):
        """typing.get_type_hints gives the fields and the ClassVar, inherited ones included."""
        assert typing.get_type_hints(PointTuple) == typing.get_type_hints(Point)
        assert {"x": int, "y": int, "w": str, "count": typing.ClassVar[int]} == (
            typing.get_type_hints(Point3)
        )

    def test_signature_has_the_types(self):
        """inspect.signature shows the annotations as a NamedTuple's does."""
        assert str(inspect.signature(PointTuple)) == str(inspect.signature(Point))
        assert "(x: int, y: int = 0, w: str = '')" == str(inspect.signature(Point3))
        assert "(later: __main__.Later" not in str(inspect.signature(Early))
        assert str(inspect.signature(EarlyTuple)).replace("[]", "<factory>") == str(
            inspect.signature(Early)
        )

    def test_fields_give_the_types(self):
        """records.fields() gives the annotations' objects, as dataclasses.fields() does."""
        assert [int, int, str] == [f.type for f in fields(Point3)]
        assert [Later, list[Later]] == [f.type for f in fields(Early)]

    def test_define_and_generics(self):
        """Record.define and generic records work with deferred annotations around."""
        Pixel = Record.define("Pixel", [("x", int), ("y", int)], defaults={"y": 0})
        assert (1, 0) == Pixel(1)
        assert {"x": int, "y": int} == typing.get_type_hints(Pixel)

        class Pair[T](Record):
            first: T
            second: T

        assert (1, 2) == Pair[int](1, 2)
        assert ("first", "second") == Pair._fields
