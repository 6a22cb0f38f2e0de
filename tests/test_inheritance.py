"""Subclasses add fields; mixins, ABCs and Protocols combine without metaclass conflicts."""

import abc
import sys
from typing import Protocol, runtime_checkable

import pytest

from records import Record, _layout, field


class Point(Record):
    x: int
    y: int = 0
    tags: list = field(default_factory=list)


class TestAddingFields:
    """A subclass with annotations appends its fields to its parent's."""

    def test_fields_appended(self):
        """Point3 has Point's fields then its own."""

        class Point3(Point):
            z: int = 0

        assert ("x", "y", "tags", "z") == Point3._fields
        assert ("x", "y", "tags", "z") == Point3.__match_args__
        p = Point3(1, 2, ["t"], 3)
        assert (1, 2, ["t"], 3) == (p.x, p.y, p.tags, p.z)
        assert (1, 0, [], 0) == Point3(1)
        assert {"y": 0, "z": 0} == Point3._field_defaults

    def test_parent_unchanged(self):
        """Defining a subclass does not change the parent."""

        class Point3(Point):
            z: int = 0

        assert ("x", "y", "tags") == Point._fields
        assert 3 == len(Point(1))

    def test_inherited_factory_runs_in_subclass(self):
        """Factories of inherited fields keep working in subclasses."""

        class Point3(Point):
            z: int = 0

        first, second = Point3(1), Point3(1)
        assert first.tags is not second.tags

    def test_three_levels(self):
        """Fields accumulate across several levels."""

        class A(Record):
            a: int

        class B(A):
            b: int

        class C(B):
            c: int = 3

        assert ("a", "b", "c") == C._fields
        assert (1, 2, 3) == C(1, 2)
        assert isinstance(C(1, 2), A)

    def test_method_only_subclass(self):
        """A subclass without annotations adds only methods."""

        class Named(Point):
            def label(self):
                return f"{self.x}/{self.y}"

        named = Named(1, 2)
        assert ("x", "y", "tags") == Named._fields
        assert "1/2" == named.label()
        assert "Named(x=1, y=2, tags=[])" == repr(named)
        assert isinstance(named._replace(x=5), Named)

    def test_subclass_keyword_arguments(self):
        """Subclass constructors take every field by keyword."""

        class Point3(Point):
            z: int = 0

        assert (1, 2, [], 3) == Point3(z=3, y=2, x=1)

    def test_subclass_with_classvar_only(self):
        """A subclass annotating only ClassVars adds no field."""
        from typing import ClassVar

        class Tagged(Point):
            kind: ClassVar[str] = "tagged"

        assert ("x", "y", "tags") == Tagged._fields
        assert "tagged" == Tagged(1).kind

    def test_record_mixin_without_fields(self):
        """A field-less record can be mixed into another record."""

        class Norm(Record):
            def norm(self):
                return sum(v * v for v in self) ** 0.5

        class Vec(Norm, Point):
            pass

        class Vec2(Record):
            a: int
            b: int

        class Mixed(Norm, Vec2):
            pass

        assert ("a", "b") == Mixed._fields
        assert 5.0 == Mixed(3, 4).norm()
        assert ("x", "y", "tags") == Vec._fields


class TestMixins:
    """Record has no metaclass: it combines with anything."""

    def test_slotted_mixin(self):
        """A plain mixin with __slots__ = () adds methods."""

        class Describe:
            __slots__ = ()

            def describe(self):
                return f"{type(self).__name__} with {len(self)} items"

        class Pair(Record, Describe):
            a: int
            b: int

        pair = Pair(1, 2)
        assert "Pair with 2 items" == pair.describe()
        if _layout.supported():
            assert sys.getsizeof(pair) == sys.getsizeof((1, 2))

    def test_mixin_with_dict_gets_no_dict(self):
        """Instances stay immutable even when a mixin has a __dict__."""

        class Loose:
            def remember(self):
                self.note = 1

        class Pair(Record, Loose):
            a: int
            b: int

        pair = Pair(1, 2)
        with pytest.raises(AttributeError):
            pair.remember()
        with pytest.raises(AttributeError):
            pair.other = 1
        assert (1, 2) == pair

    def test_abc(self):
        """An ABC base works; abstract methods are checked as for any tuple subclass."""

        class Shape(abc.ABC):
            __slots__ = ()

            @abc.abstractmethod
            def area(self): ...

        class Incomplete(Record, Shape):
            w: int

        class Square(Record, Shape):
            side: int

            def area(self):
                return self.side**2

        assert isinstance(Square, abc.ABCMeta)
        assert 9 == Square(3).area()
        assert isinstance(Square(3), Shape)

        # tuple.__new__, unlike object.__new__, does not refuse abstract
        # classes; records behave as namedtuple and plain tuple subclasses do.
        class PlainIncomplete(tuple, Shape):
            __slots__ = ()

        assert {"area"} == set(Incomplete.__abstractmethods__)
        assert () == PlainIncomplete(())
        assert (1,) == Incomplete(1)

    def test_protocol(self):
        """A runtime-checkable Protocol base works and checks instances."""

        @runtime_checkable
        class HasArea(Protocol):
            def area(self) -> float: ...

        class Square(Record, HasArea):
            side: int

            def area(self) -> float:
                return float(self.side**2)

        square = Square(2)
        assert 4.0 == square.area()
        assert isinstance(square, HasArea)
        if _layout.supported():
            assert sys.getsizeof(square) == sys.getsizeof((2,))

    def test_user_init_subclass_chain(self):
        """A record's own __init_subclass__ runs alongside the record machinery."""
        seen = []

        class Base(Record):
            x: int

            def __init_subclass__(cls, **kwargs):
                super().__init_subclass__(**kwargs)
                seen.append(cls.__name__)

        class Child(Base):
            y: int = 0

        assert ["Child"] == seen
        assert ("x", "y") == Child._fields

    def test_class_keyword_passed_to_other_bases(self):
        """Class keywords reach other bases' __init_subclass__."""
        received = {}

        class Registering:
            __slots__ = ()

            def __init_subclass__(cls, *, key=None, **kwargs):
                super().__init_subclass__(**kwargs)
                received[cls.__name__] = key

        class Item(Record, Registering, key="item"):
            x: int

        assert {"Item": "item"} == received
        assert (1,) == Item(1)
