"""From class body to fields: what becomes a field, and every definition error."""

import dataclasses
import sys
import typing
from typing import ClassVar

import attr
import attrs
import pytest
from support.platform_marks import MEMBER_FIELDS

from records import MISSING, Record, field, fields


class TestFieldCollection:
    """Fields are the annotated names of the body, in order."""

    def test_annotated_names_in_order(self):
        """Every annotated name is a field, in declaration order."""

        class Point(Record):
            x: int
            y: int
            z: int

        assert ("x", "y", "z") == Point._fields
        assert ("x", "y", "z") == Point.__match_args__

    def test_classvar_is_not_a_field(self):
        """ClassVar annotations, in every spelling, stay class attributes."""

        class Config(Record):
            a: ClassVar[int] = 1
            b: typing.ClassVar[str] = "b"
            c: "ClassVar[int]" = 3
            d: "typing.ClassVar" = 4
            value: int = 0

        assert ("value",) == Config._fields
        assert (1, "b", 3, 4) == (Config.a, Config.b, Config.c, Config.d)
        assert 1 == Config(5).a

    def test_string_annotations_are_not_evaluated(self):
        """String annotations naming nothing that exists still make fields."""

        class Node(Record):
            value: "int"
            next: "Node | None" = None
            missing: "NoSuchType" = 0  # noqa: F821

        assert ("value", "next", "missing") == Node._fields
        assert Node(1).next is None

    def test_postponed_annotations(self):
        """Under `from __future__ import annotations`, nothing is evaluated."""
        from support.future_records import Later

        assert ("name", "tags", "size") == Later._fields
        assert 0 == Later.count
        later = Later("n")
        assert ("n", [], 3) == later
        assert "DoesNotExist" == fields(Later)[0].type

    def test_names_like_tuple_methods_are_allowed(self):
        """`count` and `index` may be fields, as in typing.NamedTuple."""

        class Entry(Record):
            count: int
            index: int

        entry = Entry(3, 4)
        assert (3, 4) == (entry.count, entry.index)

    def test_defaults(self):
        """Plain values are defaults; they fill the trailing fields."""

        class Point(Record):
            x: int
            y: int = 2
            z: str = "z"

        assert (1, 2, "z") == Point(1)
        assert {"y": 2, "z": "z"} == Point._field_defaults

    def test_field_default_and_doc(self):
        """field(default=, doc=) sets the default and the accessor's docstring."""

        class Point(Record):
            x: int = field(doc="Abscissa.")
            y: int = field(default=7, doc="Ordinate.")

        assert (1, 7) == Point(1)
        assert "Abscissa." == Point.x.__doc__
        assert "Ordinate." == Point.y.__doc__
        assert {"y": 7} == Point._field_defaults

    def test_default_factory_called_per_instance(self):
        """A default_factory is called for every instance that needs it."""
        calls = []

        def make():
            calls.append(1)
            return []

        class Bag(Record):
            items: list = field(default_factory=make)

        first, second = Bag(), Bag()
        assert first.items is not second.items
        assert 2 == len(calls)
        given = [1]
        assert Bag(given).items is given
        assert 2 == len(calls)
        assert {} == Bag._field_defaults

    def test_default_field_without_default(self):
        """field() with only a doc leaves the field required."""

        class Point(Record):
            x: int = field(doc="x")

        with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
            Point()

    def test_none_default(self):
        """None is a default like any other value."""

        class Maybe(Record):
            value: object = None

        assert (None,) == Maybe()

    def test_default_docstring(self):
        """A class without a docstring gets "Name(field, ...)"."""

        class Point(Record):
            x: int
            y: int

        class Documented(Record):
            """Mine."""

            x: int

        assert "Point(x, y)" == Point.__doc__
        assert "Mine." == Documented.__doc__

    def test_default_accessor_docs(self):
        """Accessors without a doc say which item they alias, as in namedtuple."""

        class Point(Record):
            x: int
            y: int

        assert "Alias for field number 0" == Point.x.__doc__
        assert "Alias for field number 1" == Point.y.__doc__

    def test_accessor_docs_not_shared_between_classes(self):
        """Changing one class's accessor doc does not change another's."""

        class A(Record):
            x: int

        class B(Record):
            x: int

        assert A.x is not B.x
        if MEMBER_FIELDS:  # member descriptors: their docs are read-only
            with pytest.raises(AttributeError):
                A.x.__doc__ = "changed"
        else:
            A.x.__doc__ = "changed"
        assert "Alias for field number 0" == B.x.__doc__

    def test_no_fields(self):
        """A record may have no fields at all."""

        class Empty(Record):
            pass

        assert () == Empty()
        assert "Empty()" == repr(Empty())
        with pytest.raises(TypeError):
            Empty(1)

    def test_record_itself_cannot_be_instantiated(self):
        """Record is only a base class."""
        with pytest.raises(TypeError, match="Record cannot be instantiated directly"):
            Record()

    @pytest.mark.parametrize("values", [[], (), iter(()), [1]])
    def test_record_itself_makes_nothing(self, values):
        """Record._make refuses as Record() does; a subclass's _make, and its super(), make."""
        with pytest.raises(TypeError) as info:
            Record._make(values)
        assert "Record cannot be instantiated directly: subclass it and declare fields" == str(
            info.value
        )

        class Empty(Record):
            pass

        class Point(Record):
            x: int

            @classmethod
            def _make(cls, iterable):
                return super()._make(iterable)

        assert (Empty, ()) == (type(Empty._make([])), Empty._make([]))
        assert (Point, (1,)) == (type(Point._make([1])), Point._make([1]))

    def test_user_definitions_are_kept(self):
        """Methods, properties, dunders and class attributes of the body stay."""

        class Point(Record):
            x: int
            y: int = 0
            origin_name = "O"

            def norm(self):
                return (self.x**2 + self.y**2) ** 0.5

            @property
            def doubled(self):
                return Point(self.x * 2, self.y * 2)

            def __repr__(self):
                return f"<{self.x},{self.y}>"

            def _replace(self, **changes):
                return "mine"

            __match_args__ = ("x",)

        point = Point(3, 4)
        assert 5.0 == point.norm()
        assert (6, 8) == point.doubled
        assert "<3,4>" == repr(point)
        assert "mine" == point._replace(x=1)
        assert ("x",) == Point.__match_args__
        assert "O" == Point.origin_name

    def test_user_new_is_kept_and_super_builds_from_fields(self):
        """A __new__ in the body is kept; super().__new__ takes the fields."""

        class Positive(Record):
            value: int
            label: str = "n"

            def __new__(cls, value, label="n"):
                if value <= 0:
                    msg = "must be positive"
                    raise ValueError(msg)
                return super().__new__(cls, value, label=label)

        assert (1, "n") == Positive(1)
        assert (2, "x") == Positive(2, "x")
        with pytest.raises(ValueError, match="must be positive"):
            Positive(0)

    def test_user_new_in_subclass_adding_fields(self):
        """A subclass that adds fields and defines __new__ builds with _make."""

        class Base(Record):
            x: int

        class Child(Base):
            y: int = 0

            def __new__(cls, x, y=0):
                return cls._make((abs(x), abs(y)))

        assert (1, 2) == Child(-1, -2)
        assert (1,) == Base(1)

    def test_shadowed_tuple_methods_stay_reachable(self):
        """A field named count hides tuple.count, which still works unbound."""

        class Entry(Record):
            count: int

        assert 1 == tuple.count(Entry(5), 5)

    def test_no_metaclass(self):
        """Record classes are plain `type` instances."""

        class Point(Record):
            x: int

        assert type(Point) is type
        assert type(Record) is type


class TestDefinitionErrors:
    """Bad definitions raise at the class statement, naming class and field."""

    def test_non_default_after_default(self):
        """A field without a default may not follow one with a default."""
        with pytest.raises(TypeError) as info:

            class Point(Record):
                x: int = 0
                y: int

        assert "record 'Point': non-default field 'y' follows default field 'x'" == str(info.value)

    def test_non_default_after_factory(self):
        """A factory counts as a default for ordering."""
        with pytest.raises(TypeError, match="non-default field 'y' follows default field 'x'"):

            class Point(Record):
                x: list = field(default_factory=list)
                y: int

    def test_non_default_after_inherited_default(self):
        """Ordering is checked across inheritance."""

        class Point(Record):
            x: int
            y: int = 0

        with pytest.raises(TypeError) as info:

            class Point3(Point):
                z: int

        assert "record 'Point3': non-default field 'z' follows default field 'y'" == str(
            info.value
        )

    def test_leading_underscore(self):
        """Field names may not start with an underscore."""
        with pytest.raises(ValueError) as info:

            class Point(Record):
                _x: int

        assert "record 'Point': field name '_x' starts with an underscore" == str(info.value)

    def test_keyword_and_non_identifier_in_annotations(self):
        """Names that cannot be fields are refused even when put there by hand."""
        with pytest.raises(ValueError, match="record 'Bad': field name 'class' is a keyword"):
            type("Bad", (Record,), {"__annotations__": {"class": int}})
        with pytest.raises(
            ValueError, match="record 'Bad': field name 'a b' is not a valid identifier"
        ):
            type("Bad", (Record,), {"__annotations__": {"a b": int}})
        with pytest.raises(ValueError, match="field names must be strings, not 'int'"):
            type("Bad", (Record,), {"__annotations__": {1: int}})

    def test_duplicate_of_inherited_field(self):
        """Re-annotating an inherited field is an error naming the base."""

        class Point(Record):
            x: int

        class Point2(Point):
            y: int

        with pytest.raises(TypeError) as info:

            class Point3(Point2):
                x: int = 0

        assert "record 'Point3': field 'x' is already defined in base record 'Point'" == str(
            info.value
        )

    @pytest.mark.parametrize(
        ("value", "shown", "factory"),
        [([], "[]", "list"), ({}, "{}", "dict"), ({1}, "{1}", "set")],
    )
    def test_mutable_default(self, value, shown, factory):
        """list, dict and set instances are refused, suggesting default_factory."""
        with pytest.raises(ValueError) as info:
            type("Holder", (Record,), {"__annotations__": {"items": object}, "items": value})
        assert (
            f"record 'Holder': mutable default {shown} for field 'items' is not allowed: "
            f"use field(default_factory={factory})"
        ) == str(info.value)

    def test_mutable_default_in_field(self):
        """field(default=[]) is refused too."""
        with pytest.raises(ValueError, match="mutable default \\[\\] for field 'items'"):

            class Holder(Record):
                items: list = field(default=[])

    def test_long_mutable_default_is_shortened(self):
        """The message shows at most 40 characters of the value."""
        with pytest.raises(ValueError) as info:

            class Holder(Record):
                items: list = list(range(100))

        assert "mutable default [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11... for field" in str(
            info.value
        )

    def test_default_and_factory(self):
        """field() may not have both a default and a factory."""
        with pytest.raises(TypeError) as info:

            class Holder(Record):
                items: list = field(default=(), default_factory=list)

        assert (
            "record 'Holder': field 'items' cannot have both a default and a default_factory"
            == str(info.value)
        )

    def test_factory_not_callable(self):
        """A default_factory must be callable."""
        with pytest.raises(TypeError) as info:

            class Holder(Record):
                items: list = field(default_factory=[])

        assert (
            "record 'Holder': default_factory for field 'items' must be callable, not 'list'"
            == str(info.value)
        )

    @pytest.mark.parametrize("doc", [5, b"bytes", ["a list"]])
    @pytest.mark.parametrize("default", [{}, {"default": 0}, {"default_factory": list}])
    def test_doc_not_a_string(self, doc, default):
        """A field's doc is a str or None, on both paths, whatever else field() was given."""
        with pytest.raises(TypeError) as info:

            class Holder(Record):
                first: int = field(default=1, doc="fine")
                items: list = field(doc=doc, **default)

        assert (
            f"record 'Holder': the doc of field 'items' must be a str or None, "
            f"not {type(doc).__name__!r}" == str(info.value)
        )

    def test_doc_none_or_a_string(self):
        """None leaves the default docstring; a str subclass is taken."""

        class Doc(str):
            pass

        class Holder(Record):
            a: int = field(doc=None)
            b: int = field(doc=Doc("mine"))

        assert ("Alias for field number 0", "mine") == (Holder.a.__doc__, Holder.b.__doc__)

    @pytest.mark.parametrize("name", ["_fields", "_field_defaults"])
    def test_computed_names(self, name):
        """_fields and _field_defaults come from the annotations only."""
        with pytest.raises(TypeError) as info:
            type("Point", (Record,), {"__annotations__": {"x": int}, name: ()})
        assert (
            f"record 'Point': {name!r} is computed from the annotations and cannot be defined"
            == str(info.value)
        )

    def test_post_init_is_refused(self):
        """A __post_init__, the dataclass habit, is refused: no __init__ would call it."""
        message = (
            "record 'Checked': __post_init__ would never be called (records have no __init__): "
            "check or derive values in __new__, returning super().__new__(cls, ...)"
        )
        with pytest.raises(TypeError) as info:

            class Checked(Record):
                x: int

                def __post_init__(self):
                    raise AssertionError("never called")

        assert message == str(info.value)

        class Validating:
            def __post_init__(self):
                pass

        with pytest.raises(TypeError) as info:

            class Checked(Validating, Record):
                x: int

        assert message == str(info.value)

    def test_init_is_refused(self):
        """An __init__ in the body is refused, as typing.NamedTuple refuses it."""
        with pytest.raises(TypeError) as info:

            class Checked(Record):
                x: int

                def __init__(self, x):
                    self.y = x

        assert (
            "record 'Checked': cannot define __init__ (a record is a tuple, complete when "
            "__new__ returns): check or derive values in __new__, returning "
            "super().__new__(cls, ...)" == str(info.value)
        )

    @pytest.mark.parametrize(
        ("make", "spelling"),
        [
            (lambda: dataclasses.field(default_factory=list), "dataclasses.field()"),
            (lambda: dataclasses.field(default=1), "dataclasses.field()"),
            (lambda: attrs.field(factory=list), "attrs.field()"),
            (lambda: attr.ib(default=1), "attrs.field()"),
            (lambda: attrs.Factory(list), "attrs.Factory()"),
        ],
    )
    def test_other_libraries_fields_are_refused(self, make, spelling):
        """Another library's field object as a default is refused, not kept as the value."""
        with pytest.raises(TypeError) as info:

            class Tagged(Record):
                name: str
                tags: list = make()

        assert (
            f"record 'Tagged': field 'tags' has {spelling} as its default, which records would "
            "keep as the value: use records.field(default=..., default_factory=...)"
            == str(info.value)
        )

    def test_own_class_named_field_is_a_default(self):
        """Only the libraries' classes are refused: a class of one's own named Field is a value."""
        Field = type("Field", (), {"__module__": "shapes"})
        marker = Field()

        class Tagged(Record):
            tag: object = marker

        assert marker is Tagged().tag
        assert {"tag": marker} == Tagged._field_defaults

    def test_two_unrelated_record_bases(self):
        """Fields cannot come from two unrelated records."""

        class A(Record):
            a: int

        class B(Record):
            b: int

        with pytest.raises(TypeError) as info:

            class C(A, B):
                pass

        if MEMBER_FIELDS:
            # Each layout has room for its fields: CPython refuses the class
            # before records sees it.
            assert "multiple bases have instance lay-out conflict" == str(info.value)
        else:
            assert "record 'C': cannot inherit fields from two records, 'A' and 'B'" == str(
                info.value
            )

    def test_error_leaves_no_half_built_class(self):
        """A failed definition binds nothing."""
        namespace = {}
        source = "from records import Record\nclass Broken(Record):\n    x: int = 0\n    y: int\n"
        with pytest.raises(TypeError):
            exec(source, namespace)
        assert "Broken" not in namespace


def test_missing_repr():
    """MISSING shows as such in Field reprs."""
    assert "MISSING" == repr(MISSING)


@pytest.mark.skipif(sys.flags.optimize >= 2, reason="docstrings stripped")
def test_field_docstring_of_helper():
    """field() documents itself."""
    assert "default_factory" in field.__doc__


@pytest.mark.parametrize("doc", ["before\x00after", "\x00"])
def test_field_doc_with_nul_is_kept_whole(doc):
    """A field docstring holding a NUL is kept whole on every path (a C string would cut it)."""

    class Noted(Record):
        first: int = field(default=0, doc=doc)
        second: int = 1

    defined = Record.define(
        "Defined", [("only", int)], defaults={"only": field(default=0, doc=doc)}
    )
    assert doc == Noted.first.__doc__ == defined.only.__doc__
    assert (5, 1) == Noted(5) and 5 == Noted(5).first and 1 == Noted(5).second
    assert Noted(first=2, second=3) == Noted()._replace(first=2, second=3)
