"""Record.define: the functional form of a typed record."""

import inspect
import pickle

import pytest

from records import Record, field, fields

Point = Record.define("Point", [("x", int), ("y", int)], defaults={"y": 0})


def test_define_like_class_statement():
    """The result is what the class statement builds."""
    assert issubclass(Point, Record)
    assert ("x", "y") == Point._fields
    assert (1, 0) == Point(1)
    assert "(x: int, y: int = 0)" == str(inspect.signature(Point))
    assert "Point" == Point.__qualname__
    assert __name__ == Point.__module__


def test_mapping_of_fields_and_field_defaults():
    """Fields may be a mapping; defaults may be field() specs."""
    bag = Record.define(
        "Bag", {"name": str, "items": list}, defaults={"items": field(default_factory=list)}
    )
    assert ("b", []) == bag("b")
    assert list is fields(bag)[1].default_factory


def test_extend_a_record():
    """Calling define on a record class extends it."""
    point3 = Point.define("Point3", [("z", int)], defaults={"z": 0})
    assert ("x", "y", "z") == point3._fields
    assert issubclass(point3, Point)


def test_module_argument():
    """module= sets __module__."""
    assert "elsewhere" == Record.define("M", [("a", int)], module="elsewhere").__module__


def test_pickles():
    """A module-level defined record pickles."""
    assert Point(1, 2) == pickle.loads(pickle.dumps(Point(1, 2)))


@pytest.mark.parametrize(
    ("typename", "fields_", "defaults", "error", "message"),
    [
        ("1x", [("a", int)], None, ValueError, "record type name '1x' is not a valid identifier"),
        (
            None,
            [("a", int)],
            None,
            ValueError,
            "record type names must be strings, not 'NoneType'",
        ),
        ("P", [("a", int), ("a", str)], None, ValueError, "record 'P': duplicate field 'a'"),
        (
            "P",
            [("a",)],
            None,
            TypeError,
            "record 'P': fields must be (name, type) pairs, not ('a',)",
        ),
        ("P", [(1, int)], None, TypeError, "record 'P': field names must be strings, not 'int'"),
        (
            "P",
            [("_a", int)],
            None,
            ValueError,
            "record 'P': field name '_a' starts with an underscore",
        ),
        (
            "P",
            [("a", int)],
            {"b": 1},
            TypeError,
            "record 'P': default given for unknown field 'b'",
        ),
        (
            "P",
            [("a", int), ("b", int)],
            {"a": 1},
            TypeError,
            "record 'P': non-default field 'b' follows default field 'a'",
        ),
    ],
)
def test_errors(typename, fields_, defaults, error, message):
    """Bad arguments name the record and the field."""
    with pytest.raises(error) as info:
        Record.define(typename, fields_, defaults=defaults)
    assert message == str(info.value)


def test_names_read_as_in_source():
    """Names are NFKC-normalized, as a class statement's parser would read them."""
    cls = Record.define("Ligature", [("ﬁeld", int)])
    assert ("field",) == cls._fields
    assert 1 == cls(field=1).field
    with pytest.raises(ValueError, match="duplicate field 'field'"):
        Record.define("Twice", [("ﬁeld", int), ("field", int)])
