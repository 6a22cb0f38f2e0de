"""fields(), replace() and asdict()."""

import collections
import typing

import pytest

from records import MISSING, Field, Record, asdict, field, fields, namedtuple, replace


class Point(Record):
    x: int
    y: int = field(default=0, doc="Height.")
    tags: list[str] = field(default_factory=list)


class Line(Record):
    start: Point
    end: Point
    points: list = field(default_factory=list)


class TestFields:
    """fields() describes each field."""

    def test_class_and_instance(self):
        """fields() takes a class or an instance."""
        assert fields(Point) == fields(Point(1))

    def test_descriptions(self):
        """Name, annotation, default, factory and doc are reported."""
        assert (
            Field("x", int, MISSING, MISSING, None),
            Field("y", int, 0, MISSING, "Height."),
            Field("tags", list[str], MISSING, list, None),
        ) == fields(Point)

    def test_inherited(self):
        """Inherited fields come first with their own annotations."""

        class Point3(Point):
            z: float = 0.0

        assert ["x", "y", "tags", "z"] == [f.name for f in fields(Point3)]
        assert float is fields(Point3)[3].type
        assert "Height." == fields(Point3)[1].doc

    def test_named_tuples(self):
        """Named tuples of every kind are accepted."""
        plain = collections.namedtuple("Plain", "a b", defaults=[2])

        class Typed(typing.NamedTuple):
            a: int
            b: str = "b"

        assert [("a", None, MISSING), ("b", None, 2)] == [
            (f.name, f.type, f.default) for f in fields(plain)
        ]
        assert [("a", int, MISSING), ("b", str, "b")] == [
            (f.name, f.type, f.default) for f in fields(Typed)
        ]
        assert ("a", "b") == tuple(f.name for f in fields(namedtuple("R", "a b")))

    @pytest.mark.parametrize("bad", [1, (1, 2), tuple, Record, object()])
    def test_not_a_record(self, bad):
        """Anything else is a TypeError."""
        with pytest.raises(TypeError, match="fields\\(\\) needs a record class or instance"):
            fields(bad)

    def test_field_repr_and_equality(self):
        """Field has a readable repr and compares by value."""
        assert (
            "Field(name='y', type=<class 'int'>, default=0, default_factory=MISSING, "
            "doc='Height.')" == repr(fields(Point)[1])
        )
        assert Field("a") != Field("b")
        assert Field("a") != ("a",)
        assert fields(Point)[1].has_default
        assert not fields(Point)[0].has_default


class TestReplace:
    """replace() is _replace() as a function."""

    def test_replace(self):
        """Named fields are replaced, the rest kept."""
        assert Point(1, 5, ["a"]) == replace(Point(1, 2, ["a"]), y=5)

    def test_unknown_field(self):
        """Unknown names fail as in _replace."""
        with pytest.raises((TypeError, ValueError), match="Got unexpected field names"):
            replace(Point(1), nope=1)

    def test_not_a_record(self):
        """A plain tuple is refused."""
        with pytest.raises(TypeError, match="replace\\(\\) needs a record"):
            replace((1, 2), x=1)


class TestAsdict:
    """asdict() converts records to dicts, recursively by default."""

    def test_flat(self):
        """recurse=False gives the top level only."""
        line = Line(Point(0), Point(1))
        assert {"start": Point(0), "end": Point(1), "points": []} == asdict(line, recurse=False)
        assert type(asdict(line, recurse=False)["start"]) is Point

    def test_recursive(self):
        """Nested records in fields and containers become dicts."""
        line = Line(Point(0, 1), Point(2, 3, ["t"]), [Point(4), (Point(5),)])
        assert {
            "start": {"x": 0, "y": 1, "tags": []},
            "end": {"x": 2, "y": 3, "tags": ["t"]},
            "points": [{"x": 4, "y": 0, "tags": []}, ({"x": 5, "y": 0, "tags": []},)],
        } == asdict(line)

    def test_containers_keep_types(self):
        """Dicts, sets, frozensets, named tuples and defaultdicts keep their types."""
        plain = collections.namedtuple("Plain", "a b")

        class Holder(Record):
            value: object

        nested = {
            "set": {1, 2},
            "frozen": frozenset({3}),
            "plain": plain(Point(1), 2),
            "default": collections.defaultdict(list, {"k": [Point(2)]}),
        }
        converted = asdict(Holder(nested))["value"]
        assert {1, 2} == converted["set"]
        assert frozenset({3}) == converted["frozen"]
        assert type(converted["plain"]) is plain
        assert {"x": 1, "y": 0, "tags": []} == converted["plain"].a
        assert type(converted["default"]) is collections.defaultdict
        assert list is converted["default"].default_factory
        assert [{"x": 2, "y": 0, "tags": []}] == converted["default"]["k"]

    def test_values_not_copied(self):
        """Leaves are the same objects."""
        marker = object()

        class Holder(Record):
            value: object

        assert asdict(Holder(marker))["value"] is marker

    def test_named_tuple_top_level(self):
        """A named tuple at top level is accepted."""
        plain = collections.namedtuple("Plain", "a b")
        assert {"a": 1, "b": {"x": 1, "y": 0, "tags": []}} == asdict(plain(1, Point(1)))

    def test_not_a_record(self):
        """A plain tuple is refused."""
        with pytest.raises(TypeError, match="asdict\\(\\) needs a record"):
            asdict((1, 2))
