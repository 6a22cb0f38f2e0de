"""records.namedtuple builds what collections.namedtuple builds."""

import collections
import pickle
import sys

import pytest

import records

SPECS = [
    ("Point", "x y", {}),
    ("Point", "x, y", {"defaults": [1]}),
    ("Dot", ["d"], {}),
    ("Zero", "", {}),
    ("Big", [f"f{i}" for i in range(40)], {"defaults": range(10)}),
    ("Renamed", ["a", "def", "a", "_b", "1"], {"rename": True}),
    ("Mod", "a b", {"module": "some.module"}),
    ("NoDefaults", "a b", {"defaults": None}),
    ("EmptyDefaults", "a b", {"defaults": ()}),
    ("Conflicts", "self cls tuple _tuple_new property", {"rename": True}),
]

CLASS_ATTRIBUTES = ("__doc__", "__slots__", "_fields", "_field_defaults", "__match_args__")
METHODS = ("_make", "_replace", "__repr__", "_asdict", "__getnewargs__", "__new__")


def build(factory, typename, field_names, kwargs):
    """Call *factory* from this module, as a user would."""
    return factory(typename, field_names, **kwargs)


@pytest.mark.parametrize(("typename", "field_names", "kwargs"), SPECS)
def test_same_class(typename, field_names, kwargs):
    """Class attributes, method metadata and behaviour match."""
    expected = build(collections.namedtuple, typename, field_names, kwargs)
    actual = build(records.namedtuple, typename, field_names, kwargs)
    for attribute in CLASS_ATTRIBUTES:
        if hasattr(expected, attribute):  # __match_args__ is Python 3.10+
            assert getattr(expected, attribute) == getattr(actual, attribute), attribute
    assert expected.__module__ == actual.__module__
    assert expected.__name__ == actual.__name__
    assert ("__replace__" in vars(expected)) == ("__replace__" in vars(actual))
    for name in METHODS:
        expected_method, actual_method = getattr(expected, name), getattr(actual, name)
        # CPython gives a built-in method bound with its defining class
        # (_make's, in C) no __doc__ of its own: its descriptor's, then.
        docs = [
            getattr(cls, name).__doc__ or vars(cls)[name].__doc__ for cls in (expected, actual)
        ]
        assert docs[0] == docs[1], name
        for attribute in ("__name__", "__qualname__"):
            assert getattr(expected_method, attribute) == getattr(actual_method, attribute), (
                name,
                attribute,
            )
    assert expected.__new__.__defaults__ == actual.__new__.__defaults__
    assert expected.__new__.__module__ == actual.__new__.__module__
    if hasattr(expected.__new__, "__builtins__"):  # Python 3.10+
        assert expected.__new__.__builtins__ == actual.__new__.__builtins__
    for index, name in enumerate(actual._fields):
        assert getattr(expected, name).__doc__ == getattr(actual, name).__doc__
        assert type(getattr(expected, name)) is type(getattr(actual, name))
        if "object at 0x" not in repr(getattr(expected, name)):  # _tuplegetter, not property
            assert repr(getattr(expected, name)) == repr(getattr(actual, name))
        assert index == getattr(actual, name).__get__(tuple(range(len(actual._fields))))
    values = list(range(len(actual._fields)))
    assert repr(expected._make(values)) == repr(actual._make(values))
    assert expected._make(values)._asdict() == actual._make(values)._asdict()


@pytest.mark.parametrize(
    ("typename", "field_names", "kwargs"),
    [
        ("abc%", "x", {}),
        ("class", "x", {}),
        ("9abc", "x", {}),
        ("Ok", "x g%hi", {}),
        ("Ok", "x class", {}),
        ("Ok", "x 9y", {}),
        ("Ok", "x _y", {}),
        ("Ok", "x x", {}),
        ("Ok", "x y", {"defaults": (1, 2, 3)}),
        ("Ok", "x y", {"defaults": 10}),
        ("Ok", [1, 2], {}),
        ("Ok", None, {}),
        (1, "x", {}),
        ("Ok", "x y", {"rename": True, "defaults": (1, 2, 3)}),
        ("", "x", {}),
        ("Ok", ["ﬁ", "fi"], {}),  # one parameter once NFKC-normalized
    ],
)
def test_same_errors(typename, field_names, kwargs):
    """Bad arguments raise the same exception with the same message."""
    with pytest.raises(Exception) as expected:
        build(collections.namedtuple, typename, field_names, kwargs)
    with pytest.raises(Exception) as actual:
        build(records.namedtuple, typename, field_names, kwargs)
    assert expected.type is actual.type
    assert str(expected.value) == str(actual.value)


def test_same_errors_with_known_names():
    """Names that passed the checks before (cached) still fail together as in CPython."""
    records.namedtuple("Warm", "x y z")
    for typename, field_names in [
        ("class", "x y"),
        ("Ok%", "x"),
        ("Ok", "x x"),
        ("Ok", "x y y"),
        ("Ok", "x _z"),
        ("Ok", "x None"),
    ]:
        with pytest.raises(Exception) as expected:
            collections.namedtuple(typename, field_names)
        with pytest.raises(Exception) as actual:
            records.namedtuple(typename, field_names)
        assert (expected.type, str(expected.value)) == (actual.type, str(actual.value))


def test_positional_rename_refused():
    """rename, defaults and module are keyword-only."""
    with pytest.raises(TypeError):
        records.namedtuple("NT", ["x"], True)


def test_not_a_record():
    """namedtuple classes are plain tuple subclasses, not Records."""
    cls = records.namedtuple("Plain", "a b")
    assert cls.__bases__ == (tuple,)
    assert not issubclass(cls, records.Record)


def test_subclass_has_dict_as_in_collections():
    """Subclassing without __slots__ gives a __dict__, as with collections."""

    class Sub(records.namedtuple("Base", "a")):
        pass

    sub = Sub(1)
    sub.extra = 2
    assert {"extra": 2} == sub.__dict__


Pickled = records.namedtuple("Pickled", "a b", defaults=[2])


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_same_pickle(protocol, monkeypatch):
    """The pickle bytes equal those of the collections class."""
    data = pickle.dumps(Pickled(1), protocol)
    reference = collections.namedtuple("Pickled", "a b", defaults=[2])
    monkeypatch.setattr(sys.modules[__name__], "Pickled", reference)
    assert pickle.dumps(reference(1), protocol) == data


def test_unicode_names_normalized_like_source():
    """Parameters are NFKC-normalized as collections' eval does; fields keep the raw name."""
    expected = collections.namedtuple("Uni", ["ﬁ", "ｘ"])
    actual = records.namedtuple("Uni", ["ﬁ", "ｘ"])
    assert expected._fields == actual._fields == ("ﬁ", "ｘ")
    assert expected.__new__.__code__.co_varnames == actual.__new__.__code__.co_varnames
    assert expected(fi=1, x=2) == actual(fi=1, x=2)
