"""Hostile input, threads and resources: records must be more trustworthy than what it replaces."""

import builtins
import copy
import gc
import pickle
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.platform_marks import cpython_only
from support.strategies import record_shapes
from support.threads import run_in_threads

import records
from records import Record, _codegen, _layout, field

THIS_MODULE = sys.modules[__name__]

# Payloads that would set builtins.PWNED if any of them were ever executed.
PAYLOADS = [
    "__import__('builtins').__setattr__('PWNED', 1)",
    "x=__import__('builtins').__setattr__('PWNED', 1)",
    "x): __import__('builtins').__setattr__('PWNED', 1)\ndef f(",
    "\"'; __import__('builtins').__setattr__('PWNED', 1); '\"",
    "{__import__('builtins').__setattr__('PWNED', 1)}",
    'f\'{__import__("builtins").__setattr__("PWNED", 1)}\'',
    "a\nimport builtins; builtins.PWNED = 1",
    "# comment",
]

hostile_text = st.one_of(
    st.sampled_from(PAYLOADS),
    st.builds(lambda a, b: a + b, st.sampled_from(PAYLOADS), st.text(max_size=5)),
    st.text(max_size=12),
    st.from_regex(r"[a-z]{1,5}", fullmatch=True),  # harmless names, so that some succeed
)


def no_side_effect():
    """The sentinel of every hostile-input test."""
    return not hasattr(builtins, "PWNED")


@given(hostile_text, st.lists(hostile_text, max_size=4), hostile_text, hostile_text)
def test_hostile_define_never_executes(typename, names, module, doc):
    """Record.define with hostile text builds a correct record or raises ValueError/TypeError."""
    pairs = [(name, int) for name in names]
    defaults = {names[-1]: field(default=0, doc=doc)} if names else {}
    try:
        cls = Record.define(typename, pairs, defaults=defaults, module=module)
    except (ValueError, TypeError):
        pass
    else:
        assert module == cls.__module__
        assert len(names) == len(cls._fields)
        record = cls(*range(len(names)))
        assert tuple(range(len(names))) == record
        if names:
            assert doc == getattr(cls, cls._fields[-1]).__doc__
    assert no_side_effect()


@given(hostile_text, st.one_of(st.lists(hostile_text, max_size=4), hostile_text), hostile_text)
def test_hostile_namedtuple_never_executes(typename, field_names, module):
    """records.namedtuple with hostile text builds a class or raises, never runs the text."""
    for rename in (False, True):
        try:
            cls = records.namedtuple(typename, field_names, rename=rename, module=module)
        except (ValueError, TypeError, SyntaxError):
            continue
        assert module == cls.__module__
        cls(*range(len(cls._fields)))
    assert no_side_effect()


@given(st.lists(record_shapes(max_fields=4), min_size=1, max_size=3), st.data())
def test_chains_round_trip(chain, data):
    """Random chains with defaults and factories: construction, pickle, copy, replace."""
    cls = Record
    names_so_far: list[str] = []
    for level, (names, default_count) in enumerate(chain):
        own = [f"{name}_{level}" for name in names]
        defaults = {}
        if cls._field_defaults or cls.__record_factories__:
            default_count = len(own)  # after a default, every field needs one
        for name in own[len(own) - default_count :]:
            use_factory = data.draw(st.booleans())
            defaults[name] = field(default_factory=list) if use_factory else level
        cls = cls.define(f"Chain{level}", [(name, object) for name in own], defaults=defaults)
        names_so_far += own
    assert tuple(names_so_far) == cls._fields
    values = tuple(range(len(names_so_far)))
    record = cls(*values)
    assert record == cls(**dict(zip(names_so_far, values)))
    assert tuple(names_so_far) == cls.__match_args__
    if _layout.supported():
        assert sys.getsizeof(values) == sys.getsizeof(record)
    assert hash(values) == hash(record)
    for copier in (copy.copy, copy.deepcopy):
        assert record == copier(record)
    unique = f"Chain_{abs(hash(cls._fields))}"
    cls.__qualname__ = cls.__name__ = unique
    cls.__module__ = __name__
    setattr(THIS_MODULE, unique, cls)
    try:
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            loaded = pickle.loads(pickle.dumps(record, protocol))
            assert record == loaded
            assert type(loaded) is cls
    finally:
        delattr(THIS_MODULE, unique)
    if names_so_far:
        name = data.draw(st.sampled_from(names_so_far))
        assert record == record._replace(**{name: "x"})._replace(**{name: getattr(record, name)})


@pytest.mark.starts_threads
def test_threads_build_and_use_records_simultaneously():
    """Threads creating and instantiating same- and different-shape records agree; caches stay consistent."""

    def work(worker):
        for i in range(300):
            names = [f"s{j}" for j in range(1 + i % 5)]
            if worker % 2:
                names[-1] = f"t{worker}_{i}"
            cls = Record.define(
                f"W{worker}_{i}", [(n, int) for n in names], defaults={names[-1]: i}
            )
            assert tuple(names) == cls._fields
            assert (*range(len(names) - 1), i) == cls(*range(len(names) - 1))
            assert cls.__new__.__code__.co_varnames == ("_cls", *names)

    assert [] == run_in_threads(work, 6)
    for (names, _, _), code in list(_codegen._codes.items()):
        assert ("_cls", *names) == code.co_varnames


class Pair(Record):
    a: object
    b: object = None


@pytest.mark.slow
@cpython_only
def test_instances_are_gc_tracked_like_named_tuples():
    """A record is tracked by the garbage collector exactly as a namedtuple instance is.

    CPython untracks exact tuples of atomic values during a collection; it never
    does so for tuple subclasses, named tuples included.
    """
    import collections

    reference = collections.namedtuple("Reference", "a b", defaults=[None])
    for values in [(1, 2), ("a", None), ([], 1), ({}, ())]:
        pair, named = Pair(*values), reference(*values)
        assert gc.is_tracked(named) == gc.is_tracked(pair)
        gc.collect()
        assert gc.is_tracked(named) == gc.is_tracked(pair)


@cpython_only
def test_no_garbage_cycles_per_instance():
    """Creating and dropping records leaves nothing for the cycle collector."""
    gc.collect()
    gc.disable()
    try:
        for i in range(10_000):
            Pair(i, [i])
        assert 0 == gc.collect()
    finally:
        gc.enable()


@pytest.mark.slow
@cpython_only
def test_ten_million_instances_memory_flat():
    """10,000,000 instances created and dropped leave memory flat."""
    for i in range(10_000):
        Pair(i, i)
    before = sys.getallocatedblocks()
    for i in range(10_000_000):
        Pair(i, i)
    after = sys.getallocatedblocks()
    assert after - before < 100, (before, after)
