"""Property tests: records agree with tuples and with collections.namedtuple."""

import collections
import copy
import sys

from hypothesis import given
from hypothesis import strategies as st
from support.strategies import record_shapes

import records
from records import Record, _layout, asdict, field


@given(record_shapes(), st.data())
def test_record_behaves_like_its_tuple(shape, data):
    """Construction, access, _replace, _asdict, copying, hashing and size agree."""
    names, default_count = shape
    first_default = len(names) - default_count
    defaults = {name: index * 10 for index, name in enumerate(names) if index >= first_default}
    cls = Record.define("Shape", [(name, int) for name in names], defaults=defaults)
    values = tuple(data.draw(st.lists(st.integers(), min_size=len(names), max_size=len(names))))
    by_position = cls(*values)
    by_keyword = cls(**dict(zip(names, values)))
    assert values == by_position == by_keyword
    assert hash(values) == hash(by_position)
    if _layout.supported():
        assert sys.getsizeof(values) == sys.getsizeof(by_position)
    assert values == tuple(getattr(by_position, name) for name in names)
    assert dict(zip(names, values)) == by_position._asdict() == asdict(by_position)
    assert tuple(names) == cls.__match_args__
    assert by_position == copy.copy(by_position) == copy.deepcopy(by_position)
    required = values[:first_default]
    assert required + tuple(defaults.values()) == cls(*required)
    if names:
        name = data.draw(st.sampled_from(names))
        replaced = by_position._replace(**{name: "new"})
        assert "new" == getattr(replaced, name)
        assert by_position == replaced._replace(**{name: getattr(by_position, name)})


@given(st.lists(record_shapes(max_fields=4), min_size=1, max_size=4))
def test_inheritance_chains_add_fields(chain):
    """Each subclass in a chain appends its fields; factories run per instance."""
    seen: list[str] = []
    cls: type = Record
    for level, (names, _) in enumerate(chain):
        own = [f"{name}_{level}" for name in names]
        defaults = {name: field(default_factory=list) for name in own}
        cls = cls.define(f"Level{level}", [(name, object) for name in own], defaults=defaults)
        seen += own
    assert tuple(seen) == cls._fields
    first, second = cls(), cls()
    assert all(a == [] and a is not b for a, b in zip(first, second))
    assert first == copy.deepcopy(first)


@given(record_shapes(), st.booleans())
def test_namedtuple_matches_collections(shape, as_string):
    """Same fields, defaults, doc and repr as collections.namedtuple."""
    names, default_count = shape
    spec = " ".join(names) if as_string else names
    defaults = list(range(default_count))
    expected = collections.namedtuple("Same", spec, defaults=defaults)
    actual = records.namedtuple("Same", spec, defaults=defaults)
    assert expected._fields == actual._fields
    assert expected._field_defaults == actual._field_defaults
    assert expected.__doc__ == actual.__doc__
    values = list(range(len(names)))
    assert repr(expected._make(values)) == repr(actual._make(values))
