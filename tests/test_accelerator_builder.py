"""
The C class builder: which class statements it builds, and that what it builds
(or the error it lets the Python path raise) is exactly what ``_build`` gives.
"""

import abc
import collections
import inspect
import keyword
import sys
import typing

import pytest
from hypothesis import given
from support.python_builder import python_builder
from support.strategies import record_shapes

import records
from records import Record, _accelerator, _builder, _codegen, field

pytestmark = pytest.mark.skipif(not records.ACCELERATED, reason=records.ACCELERATOR)


@pytest.fixture
def declined(monkeypatch):
    """Record the classes the C builder leaves to ``_builder``."""
    names = []
    build = _builder.build

    def spy(cls, record_base, *, sealed):
        names.append(cls.__name__)
        build(cls, record_base, sealed=sealed)

    # Reached from the Python method and, through build_declined, from C.
    monkeypatch.setattr(_builder, "build", spy)
    return names


def _make(base, name, namespace, **keywords):
    body = {"__module__": __name__, "__qualname__": f"Outer.{name}", **namespace}
    return type(name, (base,), body, **keywords)


def _describe(cls):
    """Everything about a record class that the two paths must agree on."""
    new = cls.__dict__.get("__new__")
    function = new.__func__ if isinstance(new, staticmethod) else None
    return {
        "dict keys": list(vars(cls)),
        "fields": cls._fields,
        "defaults": cls._field_defaults,
        "factories": cls.__record_factories__,
        "match args": cls.__match_args__,
        "doc": cls.__doc__,
        "accessors": [
            (type(vars(cls)[name]).__name__, vars(cls)[name].__doc__)
            for name in cls._fields
            if name in vars(cls)
        ],
        "signature": str(inspect.signature(cls)),
        "new": function
        and (
            function.__qualname__,
            function.__module__,
            function.__annotations__,
            function.__defaults__,
            function.__code__,
        ),
        "dictoffset": cls.__dictoffset__,
        "basicsize": cls.__basicsize__,
    }


def _outcome(build):
    try:
        return ("built", _describe(build()))
    except Exception as error:  # both paths must raise the same
        return ("raised", type(error), str(error))


class Base(Record):
    a: int
    b: int = 1


class BaseWithFactory(Record):
    a: int
    items: list = field(default_factory=list)


T = typing.TypeVar("T")
OPTIONAL_INT = typing.Optional[int]  # noqa: UP045 - typing's object, not the | spelling


# (name, namespace, whether the C builder takes it)
CASES = [
    ("Plain", {"__annotations__": {"x": int, "y": int}, "y": 0}, True),
    ("Strings", {"__annotations__": {"x": "int", "y": "list[int]"}, "y": ()}, True),
    ("Generic alias", {"__annotations__": {"x": list[int], "y": OPTIONAL_INT}}, True),
    (
        "Field specs",
        {
            "__annotations__": {"x": int, "y": int, "z": list, "w": int},
            "x": field(doc="the x"),
            "y": field(default=2, doc="the y"),
            "z": field(default_factory=list),
            "w": field(default=5),
        },
        True,
    ),
    ("Docstring", {"__annotations__": {"x": int}, "__doc__": "Mine."}, True),
    ("Doc none", {"__annotations__": {"x": int}, "__doc__": None}, True),
    ("Match args", {"__annotations__": {"x": int}, "__match_args__": ()}, True),
    (
        "Own new",
        {
            "__annotations__": {"x": int},
            "__new__": lambda cls, x=0: super(cls, cls).__new__(cls, x),
        },
        True,
    ),
    ("Unicode", {"__annotations__": {"größe": int, "名前": str}}, True),
    ("Wide", {"__annotations__": {f"f{i}": int for i in range(20)}}, True),
    ("Empty", {}, True),
    ("Method only", {"method": lambda self: 1}, True),
    ("String ClassVar", {"__annotations__": {"x": int, "c": "ClassVar[int]"}, "c": 1}, False),
    ("ClassVar", {"__annotations__": {"x": int, "c": typing.ClassVar[int]}, "c": 1}, False),
    ("Mutable default", {"__annotations__": {"x": list}, "x": []}, False),
    ("Mutable field default", {"__annotations__": {"x": dict}, "x": field(default={})}, False),
    ("Order", {"__annotations__": {"x": int, "y": int}, "x": 0}, False),
    ("Order after field", {"__annotations__": {"x": int, "y": int}, "x": field(default=0)}, False),
    (
        "Both defaults",
        {
            "__annotations__": {"x": list},
            "x": field(default=(), default_factory=list),
        },
        False,
    ),
    ("Not callable", {"__annotations__": {"x": list}, "x": field(default_factory=3)}, False),
    ("Computed name", {"__annotations__": {"x": int}, "_fields": ("x",)}, False),
    ("Keyword", {"__annotations__": {"x": int, "class": int}}, True),
    ("Underscore", {"__annotations__": {"_x": int}}, True),
    ("Not identifier", {"__annotations__": {"x y": int}}, True),
    ("Not a string", {"__annotations__": {1: int}}, False),
    ("Annotations not a dict", {"__annotations__": (("x", int),)}, True),
]


@pytest.mark.parametrize(("name", "namespace", "in_c"), CASES, ids=[case[0] for case in CASES])
def test_same_class_or_error_on_both_paths(name, namespace, in_c, declined):
    """Each case builds the same class, or raises the same error, either way."""
    cls_name = name.replace(" ", "_")
    in_c_outcome = _outcome(lambda: _make(Record, cls_name, namespace))
    taken_in_c = cls_name not in declined
    with python_builder():
        in_python = _outcome(lambda: _make(Record, cls_name, namespace))
    assert in_python == in_c_outcome
    assert taken_in_c == in_c


@pytest.mark.parametrize(
    ("base", "namespace", "in_c"),
    [
        (Base, {"__annotations__": {"c": int}, "c": 2}, True),
        (Base, {"__annotations__": {"c": int}}, False),  # order error after inherited default
        (Base, {"__annotations__": {"a": int}}, False),  # redeclared
        (Base, {"method": lambda self: 1}, True),
        (BaseWithFactory, {"__annotations__": {"c": int}, "c": 2}, False),
        (BaseWithFactory, {"__annotations__": {"items": int}}, False),
    ],
)
def test_subclasses_on_both_paths(base, namespace, in_c, declined):
    """Inherited fields, defaults and factories agree on both paths."""
    in_c_outcome = _outcome(lambda: _make(base, "Sub", namespace))
    taken_in_c = "Sub" not in declined
    with python_builder():
        in_python = _outcome(lambda: _make(base, "Sub", namespace))
    assert in_python == in_c_outcome
    assert taken_in_c == in_c


def test_declined_shapes_are_built_by_python(declined):
    """Generics, several bases, metaclasses and keywords go to the Python path."""

    class Pair(Record, typing.Generic[T]):
        first: T

    class Mixin:
        pass

    class Mixed(Record, Mixin):
        x: int

    class Meta(abc.ABCMeta):
        pass

    class WithMeta(Record, metaclass=Meta):
        x: int

    class Plain(Record):
        x: int

    assert ["Pair", "Mixed", "WithMeta"] == declined
    assert (1,) == Pair[int](1) == Mixed(1) == WithMeta(1) == Plain(1)


def test_keywords_reach_init_subclass():
    """Class keywords go through the Python method to the next __init_subclass__."""
    seen = {}

    class Registering(Record):
        def __init_subclass__(cls, tag=None, **kwargs):
            super().__init_subclass__(**kwargs)
            seen[cls.__name__] = tag

    class Tagged(Registering, tag="t"):
        x: int

    def unknown_keyword():
        class Bad(Record, bogus=1):
            x: int

    in_c = _outcome(unknown_keyword)
    with python_builder():
        assert _outcome(unknown_keyword) == in_c
    assert "raised" == in_c[0]
    assert {"Tagged": "t"} == seen
    assert (1,) == Tagged(1)


def test_build_declines_other_types():
    """build() leaves alone what is not a new record class that records is building."""

    class NotRecord(tuple):
        pass

    class Finished(Record):
        pass

    builder = _accelerator.c.Builder(Record)
    assert builder.build(int) is False
    assert builder.build(NotRecord) is False
    assert "__dict__" in vars(NotRecord)
    assert builder.build(Finished) is False


@pytest.mark.parametrize("nul_at", [0, 1, 2])
def test_a_doc_with_a_nul_agrees(nul_at):
    """
    A field whose docstring holds a NUL keeps a bounds-checked accessor (a
    member's C string would cut it) and gets its room all the same, on both
    paths: the fields after it, each in the room of those before and the
    next, are member descriptors still.
    """
    docs = ["first", "second", "third"]
    docs[nul_at] = "cut\x00here"
    namespace = {
        "__annotations__": {"a": int, "b": int, "c": int},
        **{name: field(doc=doc) for name, doc in zip("abc", docs)},
    }
    in_c = _outcome(lambda: _make(Record, "Noted", namespace))
    with python_builder():
        in_python = _outcome(lambda: _make(Record, "Noted", namespace))
    assert in_python == in_c
    expected = ["member_descriptor"] * 3
    expected[nul_at] = "_tuplegetter"
    if sys.version_info < (3, 11):
        expected = ["_tuplegetter"] * 3
    assert expected == [kind for kind, _ in in_c[1]["accessors"]]
    assert docs == [doc for _, doc in in_c[1]["accessors"]]


@given(record_shapes())
def test_random_shapes_agree(shape):
    """Random field names and defaults build the same class on both paths."""
    names, default_count = shape
    first_default = len(names) - default_count
    namespace = {"__annotations__": dict.fromkeys(names, int)}
    namespace.update({name: index for index, name in enumerate(names) if index >= first_default})
    in_c = _outcome(lambda: _make(Record, "Shape", namespace))
    with python_builder():
        in_python = _outcome(lambda: _make(Record, "Shape", namespace))
    assert in_python == in_c
    assert in_c[0] == "built"


def test_c_built_instances_behave():
    """A class built in C constructs, reads, replaces and pickles like any record."""
    import pickle

    cls = Record.define(
        "Built", [("x", int), ("y", list)], defaults={"y": field(default_factory=list)}
    )
    sys.modules[__name__].Built = cls
    cls.__qualname__ = "Built"
    cls.__module__ = __name__
    record = cls(1)
    assert (1, []) == record
    assert record.x == 1
    assert cls(1, [2]) == record._replace(y=[2])
    assert record == pickle.loads(pickle.dumps(record))
    assert isinstance(vars(cls)["__new__"], _accelerator.c.Constructor)


def test_one_shape_cache():
    """The C builder finds and keeps constructor code in _codegen's cache, not its own."""
    from records import _codegen

    names = ("c_cache_first", "c_cache_second")
    key = (names, (), True)
    _codegen._codes.pop(key, None)
    first = Record.define("First", [(name, int) for name in names])
    code = _codegen._codes[key]  # made through the Python function, kept in its cache
    assert code is first.__new__.__code__
    second = Record.define("Second", [(name, int) for name in names])
    assert code is second.__new__.__code__
    _codegen._codes.pop(key)
    third = Record.define("Third", [(name, int) for name in names])
    assert _codegen._codes[key] is third.__new__.__code__
    assert (1, 2) == first(1, 2) == second(1, 2) == third(1, 2)


def test_helpers_come_from_one_declaration(monkeypatch):
    """Every helper the C builder declares is read from where it says, and checked."""
    sources = dict(_accelerator.c.helper_sources())
    builder = _accelerator.c.Builder(Record)
    for name, source in sources.items():
        module, attribute = source.split(":")
        assert getattr(sys.modules[f"records.{module}"], attribute) is builder.helper(name), name
    with pytest.raises(KeyError, match="no helper 'record'"):
        builder.helper("record")
    with pytest.raises(TypeError, match=r"^helper\(\) takes a str, not int$"):
        builder.helper(10**100)
    monkeypatch.setattr(_codegen, "_codes", [])
    with pytest.raises(
        TypeError, match=r"^the class builder's helper records\._codegen\._codes must be a dict$"
    ):
        _accelerator.c.Builder(Record).helper("codes")
    with pytest.raises(TypeError, match=r"^Builder\(\) takes the Record class alone$"):
        _accelerator.c.Builder(Record, extra=None)
    with pytest.raises(TypeError):
        _accelerator.c.Builder()


def test_a_helper_of_the_wrong_type_fails_the_class_statement(monkeypatch):
    """A fresh Builder whose helper is replaced by one of the wrong type refuses to build, cleanly."""
    monkeypatch.setattr(_codegen, "_codes", [])
    builder = _accelerator.c.Builder(Record)

    class Plain(tuple):
        pass

    with pytest.raises(TypeError, match=r"helper records\._codegen\._codes must be a dict$"):
        builder.build(Plain)


@pytest.mark.parametrize(
    "word", [*keyword.kwlist, "match", "case", "type", "_", "asyncx", "Nonex"]
)
def test_keywords_as_python_has_them(word):
    """
    The C builders' own list of keywords (records/_c/builder.h) is this
    Python's ``keyword.kwlist``: a keyword field is refused as in Python, any
    other word (soft keywords too) is a field.
    """
    namespace = {"__annotations__": {word: int}}
    in_c = _outcome(lambda: _make(Record, "Worded", namespace))
    with python_builder():
        in_python = _outcome(lambda: _make(Record, "Worded", namespace))
    assert in_python == in_c
    assert (in_c[0] == "raised") is (keyword.iskeyword(word) or word.startswith("_"))
    for names in ([word], ["a", word]):
        try:
            expected = ("built", collections.namedtuple("Worded", names)._fields)
        except ValueError as error:
            expected = ("raised", str(error))
        try:
            got = ("built", records.namedtuple("Worded", names)._fields)
        except ValueError as error:
            got = ("raised", str(error))
        assert expected == got
