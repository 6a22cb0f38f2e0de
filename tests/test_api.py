"""The namedtuple-compatible API generated for every record."""

import collections
import copy
import inspect
import sys

import pytest
from support.platform_marks import MEMBER_FIELDS, cpython_messages

from records import Record, field


class Point(Record):
    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)


UnknownFieldError = TypeError if sys.version_info >= (3, 13) else ValueError


class TestNamedTupleAPI:
    """_fields, _field_defaults, _make, _replace, _asdict, __getnewargs__."""

    def test_fields_and_defaults(self):
        """_fields lists names; _field_defaults holds plain defaults only."""
        assert ("x", "y", "tags") == Point._fields
        assert {"y": 0} == Point._field_defaults
        assert Point._fields == Point(1)._fields

    def test_make(self):
        """_make builds from any iterable of the right length."""
        assert Point(1, 2, ["a"]) == Point._make([1, 2, ["a"]])
        assert Point(1, 2, []) == Point._make(iter((1, 2, [])))
        assert type(Point._make([1, 2, []])) is Point

    @pytest.mark.parametrize("values", [[1], [1, 2, 3, 4]])
    def test_make_wrong_length(self, values):
        """_make refuses the wrong number of values, like namedtuple."""
        reference = collections.namedtuple("Reference", "x y tags")
        with pytest.raises(TypeError) as expected:
            reference._make(values)
        with pytest.raises(TypeError) as actual:
            Point._make(values)
        assert str(expected.value) == str(actual.value)

    def test_replace(self):
        """_replace returns a new record of the same class."""
        p = Point(1, 2, ["a"])
        q = p._replace(y=5)
        assert Point(1, 5, ["a"]) == q
        assert type(q) is Point
        assert p.tags is q.tags
        assert p == p._replace()

    def test_replace_unknown_field(self):
        """An unknown name fails with namedtuple's exception and message."""
        reference = collections.namedtuple("Reference", "x y tags")
        with pytest.raises(UnknownFieldError) as expected:
            reference(1, 2, [])._replace(z=1)
        with pytest.raises(UnknownFieldError) as actual:
            Point(1)._replace(z=1)
        assert str(expected.value) == str(actual.value)
        assert "Got unexpected field names: ['z']" == str(actual.value)

    def test_replace_several_unknown_fields(self):
        """Unknown names are listed in call order, known ones left out."""
        reference = collections.namedtuple("Reference", "x y tags")
        with pytest.raises(UnknownFieldError) as expected:
            reference(1, 2, [])._replace(z=1, x=2, w=3)
        with pytest.raises(UnknownFieldError) as actual:
            Point(1)._replace(z=1, x=2, w=3)
        assert str(expected.value) == str(actual.value)

    def test_replace_every_field(self):
        """All fields can be replaced at once."""
        assert Point(7, 8, ["n"]) == Point(1)._replace(tags=["n"], y=8, x=7)

    def test_replace_in_subclass_returns_subclass(self):
        """_replace keeps the subclass."""

        class Point3(Point):
            z: int = 0

        assert type(Point3(1)._replace(z=2)) is Point3

    @pytest.mark.skipif(sys.version_info < (3, 13), reason="copy.replace is new in 3.13")
    def test_copy_replace(self):
        """copy.replace() uses __replace__."""
        assert Point(1, 9) == copy.replace(Point(1), y=9)

    def test_replace_dunder(self):
        """__replace__ is available on every version."""
        assert Point(1, 9) == Point(1).__replace__(y=9)

    def test_replace_takes_keywords_only(self):
        """A positional argument is refused with Python's own wording, on both paths."""
        # Python 3.10+ names the qualname; PyPy 3.9 names the function only.
        with pytest.raises(
            TypeError,
            match=r"^(Record\.)?_replace\(\) takes 1 positional argument but 2 were given$",
        ):
            Point(1)._replace(2)

    def test_asdict(self):
        """_asdict maps names to values, in order."""
        assert {"x": 1, "y": 2, "tags": []} == Point(1, 2)._asdict()
        assert ["x", "y", "tags"] == list(Point(1)._asdict())

    def test_getnewargs(self):
        """__getnewargs__ is the plain tuple."""
        args = Point(1, 2).__getnewargs__()
        assert (1, 2, []) == args
        assert tuple is type(args)


class TestConstructor:
    """__new__ takes fields by position and keyword and fails like a function."""

    def test_positional_and_keyword(self):
        """Every field can be given either way."""
        assert Point(1, 2, ["a"]) == Point(x=1, y=2, tags=["a"])
        assert Point(1, 2, ["a"]) == Point(1, tags=["a"], y=2)
        assert Point(1, 2) == Point(*(1, 2))
        assert Point(1, 2) == Point(x=1, y=2)

    @cpython_messages
    def test_missing_argument(self):
        """Missing required fields are named."""
        with pytest.raises(TypeError) as info:
            Point()
        assert "Point.__new__() missing 1 required positional argument: 'x'" == str(info.value)

    @cpython_messages
    def test_too_many_arguments(self):
        """Extra positional arguments are counted."""
        with pytest.raises(TypeError) as info:
            Point(1, 2, [], 4)
        assert "Point.__new__() takes from 2 to 4 positional arguments but 5 were given" == str(
            info.value
        )

    @cpython_messages
    def test_unknown_keyword(self):
        """Unknown keywords are named."""
        with pytest.raises(TypeError) as info:
            Point(1, z=3)
        assert "Point.__new__() got an unexpected keyword argument 'z'" == str(info.value)

    @cpython_messages
    def test_duplicated_argument(self):
        """A field given twice is named."""
        with pytest.raises(TypeError) as info:
            Point(1, x=2)
        assert "Point.__new__() got multiple values for argument 'x'" == str(info.value)

    def test_messages_match_namedtuple(self):
        """Apart from the class name, messages are namedtuple's."""
        reference = collections.namedtuple("Point", "x y tags", defaults=(0, None))
        for args, kwargs in [((), {}), ((1, 2, 3, 4), {}), ((1,), {"z": 1}), ((1,), {"x": 1})]:
            with pytest.raises(TypeError) as expected:
                reference(*args, **kwargs)
            with pytest.raises(TypeError) as actual:
                Point(*args, **kwargs)
            assert str(expected.value) == str(actual.value)

    def test_signature(self):
        """inspect.signature shows names, annotations and defaults."""
        assert "(x: int, y: int = 0, tags: list[str] = <factory>)" == str(inspect.signature(Point))

    def test_signature_of_subclass(self):
        """Inherited fields keep their annotations in the signature."""

        class Point3(Point):
            z: float = 0.0

        assert "(x: int, y: int = 0, tags: list[str] = <factory>, z: float = 0.0)" == str(
            inspect.signature(Point3)
        )

    def test_new_metadata(self):
        """__new__ is named for its class and module."""
        assert "__new__" == Point.__new__.__name__
        assert "Point.__new__" == Point.__new__.__qualname__
        assert __name__ == Point.__new__.__module__

    def test_factory_exception_propagates(self):
        """An error raised by a factory reaches the caller unchanged."""

        def broken():
            msg = "no default today"
            raise RuntimeError(msg)

        class Holder(Record):
            value: object = field(default_factory=broken)

        with pytest.raises(RuntimeError, match="no default today"):
            Holder()
        assert (1,) == Holder(1)


class TestRepr:
    """repr is `Name(field=value, ...)`, and safe on cycles."""

    def test_repr(self):
        """Fields are shown with their reprs."""
        assert "Point(x=1, y='a', tags=[])" == repr(Point(1, "a"))

    def test_subclass_name(self):
        """A subclass shows its own name."""

        class Sub(Point):
            pass

        assert "Sub(x=1, y=0, tags=[])" == repr(Sub(1))

    def test_recursive(self):
        """A record that contains itself through a list shows '...'."""
        p = Point(1, 2, [])
        p.tags.append(p)
        assert "Point(x=1, y=2, tags=[...])" == repr(p)

    def test_nested_records(self):
        """Nested distinct records are shown in full."""
        inner = Point(1)
        assert "Point(x=Point(x=1, y=0, tags=[]), y=0, tags=[])" == repr(Point(inner))


class TestDocs:
    """Docstrings for the class and the accessors."""

    def test_class_doc(self):
        """The default docstring lists the fields."""
        assert "Point(x, y, tags)" == Point.__doc__

    def test_accessor_doc_from_field(self):
        """field(doc=...) documents the accessor; the default is namedtuple's."""

        class Documented(Record):
            a: int = field(doc="The a.")
            b: int = 0

        assert "The a." == Documented.a.__doc__
        assert "Alias for field number 1" == Documented.b.__doc__
        if MEMBER_FIELDS:  # a member descriptor, wherever the class is made
            with pytest.raises(AttributeError):
                Documented.b.__doc__ = "Changed."
        else:
            Documented.b.__doc__ = "Changed."
            assert "Changed." == Documented.b.__doc__
