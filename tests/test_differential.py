"""
Differential tests: records.namedtuple against collections.namedtuple on
generated inputs, valid and invalid alike. Both must succeed with the same
class, or fail with the same exception and message.
"""

import collections
import keyword
import pickle
import sys

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import records

THIS_MODULE = sys.modules[__name__]

identifiers = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,6}", fullmatch=True)
name_like = st.one_of(
    identifiers,
    identifiers.map(lambda name: "_" + name),  # leading underscore
    st.sampled_from(keyword.kwlist + ["self", "cls", "_cls", "_tuple_new", "count", "index"]),
    st.text(max_size=6),  # arbitrary unicode, spaces, punctuation, empty
    st.characters(categories=["L", "Nl"]).map(lambda c: c + "x"),  # unicode identifiers
    st.sampled_from(["ﬁ", "fi", "ｘ", "x", "ℌ", "H", "ｉｆ", "Ｎｏｎｅ", "µ", "μ"]),  # NFKC pairs
    st.integers(-5, 5),  # not strings
    st.none(),
)


@st.composite
def namedtuple_arguments(draw):
    """typename, field_names, rename, defaults, module as a user might pass them."""
    names = draw(st.lists(name_like, max_size=6))
    if names and draw(st.booleans()):
        names.append(draw(st.sampled_from(names)))  # a duplicate
    if draw(st.booleans()):
        separators = st.sampled_from([" ", ",", ", ", "  ", ",,", "\t"])
        field_names = "".join(str(name) + draw(separators) for name in names)
    else:
        field_names = names
    typename = draw(st.one_of(identifiers, identifiers, name_like))
    rename = draw(st.booleans())
    defaults = draw(
        st.one_of(
            st.none(),
            st.lists(st.integers(), max_size=len(names) + 2),
            st.integers(),  # not iterable
        )
    )
    module = draw(st.one_of(st.none(), st.none(), st.text(max_size=8)))
    return typename, field_names, rename, defaults, module


def build(factory, typename, field_names, rename, defaults, module):
    """Call *factory* from this module, as a user would; return the class or the exception."""
    try:
        return factory(typename, field_names, rename=rename, defaults=defaults, module=module)
    except Exception as error:  # comparing whatever is raised
        return error


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(namedtuple_arguments())
def test_same_outcome(arguments):
    """Same class, or same exception type and message."""
    expected = build(collections.namedtuple, *arguments)
    actual = build(records.namedtuple, *arguments)
    if isinstance(expected, Exception):
        assert type(expected) is type(actual), (expected, actual)
        assert str(expected) == str(actual)
        return
    assert not isinstance(actual, Exception), actual
    for attribute in (
        "__name__",
        "__doc__",
        "__module__",
        "_fields",
        "_field_defaults",
        "__match_args__",
    ):
        if hasattr(expected, attribute):  # __match_args__ is Python 3.10+
            assert getattr(expected, attribute) == getattr(actual, attribute), attribute
    values = list(range(len(expected._fields)))
    expected_record, actual_record = expected._make(values), actual._make(values)
    assert repr(expected_record) == repr(actual_record)
    assert expected_record._asdict() == actual_record._asdict()
    assert expected(*values) == actual(*values)
    for name in expected._fields:
        changes = {name: "changed"}
        assert expected_record._replace(**changes) == actual_record._replace(**changes)
    keywords = expected_record._asdict()
    assert build_call(expected, keywords) == build_call(actual, keywords)
    defaults_count = len(expected._field_defaults)
    required = values[: len(values) - defaults_count]
    assert build_call(expected, {}, required) == build_call(actual, {}, required)


def build_call(cls, keywords, positional=()):
    """Call *cls*; return the result or the exception's type and message."""
    try:
        return cls(*positional, **keywords)
    except TypeError as error:
        return (TypeError, str(error).replace(cls.__name__, "Name", 1))


@st.composite
def valid_namedtuple_arguments(draw):
    """Arguments both factories accept, for classes defined in this module."""
    typename = draw(
        identifiers.filter(lambda name: not keyword.iskeyword(name)).map(lambda n: "T" + n)
    )
    names = draw(st.lists(name_like, max_size=6))
    defaults = draw(st.lists(st.integers(), max_size=len(names)))
    return typename, names, True, defaults  # rename makes any names valid


@given(valid_namedtuple_arguments())
def test_same_pickle(arguments):
    """Where both build a class in this module, the pickles are byte-identical."""
    typename, field_names, rename, defaults = arguments
    field_names = [str(name) for name in field_names]
    expected = build(collections.namedtuple, typename, field_names, rename, defaults, None)
    actual = build(records.namedtuple, typename, field_names, rename, defaults, None)
    if isinstance(expected, Exception):  # NFKC-equal names: a SyntaxError for both
        assert type(expected) is type(actual)
        return
    assume(not hasattr(THIS_MODULE, expected.__name__))
    values = list(range(len(expected._fields)))
    try:
        setattr(THIS_MODULE, expected.__name__, expected)
        expected_bytes = [dumps(expected._make(values), p) for p in range(6)]
        setattr(THIS_MODULE, expected.__name__, actual)
        actual_bytes = [dumps(actual._make(values), p) for p in range(6)]
        assert expected_bytes == actual_bytes
        for data in actual_bytes:
            if isinstance(data, bytes):
                assert actual._make(values) == pickle.loads(data)
    finally:
        delattr(THIS_MODULE, expected.__name__)


def dumps(record, protocol):
    """Pickle *record*, or describe why it cannot be (non-ASCII names in protocol 0)."""
    try:
        return pickle.dumps(record, protocol)
    except pickle.PicklingError as error:
        return str(error)
