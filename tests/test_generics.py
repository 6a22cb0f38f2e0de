"""Generic records at runtime."""

from typing import Generic, NamedTuple, TypeVar, get_args, get_origin

import pytest
from support.child import run_child

from records import Record

T = TypeVar("T")
U = TypeVar("U")


class Pair(Record, Generic[T]):
    first: T
    second: T


class Mapping2(Record, Generic[T, U]):
    key: T
    value: U


def test_subscripted_call():
    """Pair[int](1, 2) builds a Pair."""
    pair = Pair[int](1, 2)
    assert (1, 2) == pair
    assert type(pair) is Pair
    assert not hasattr(pair, "__orig_class__")


def test_subscription_is_typing_generic():
    """Pair[int] is a typing alias with checked parameters."""
    alias = Pair[int]
    assert Pair is get_origin(alias)
    assert (int,) == get_args(alias)
    assert (T,) == Pair.__parameters__
    with pytest.raises(TypeError):
        Pair[int, str]
    assert (int, str) == get_args(Mapping2[int, str])


def test_generic_subclass_adds_fields():
    """A subclass of a parametrised generic record adds fields."""

    class Labelled(Pair[int]):
        label: str = ""

    assert ("first", "second", "label") == Labelled._fields
    assert (1, 2, "x") == Labelled(1, 2, "x")
    with pytest.raises(TypeError):
        Labelled[int]


def test_generic_subclass_stays_generic():
    """A subclass keeping a type variable is generic in it."""

    class Triple(Pair[T]):
        third: T

    assert (T,) == Triple.__parameters__
    assert (1, 2, 3) == Triple[int](1, 2, 3)


def test_non_generic_subscript():
    """
    CPython's NamedTupleTests.test_non_generic_subscript, for Record: a record
    that is not generic is subscripted as a typing.NamedTuple is, by tuple.
    """

    class Group(Record):
        key: T
        group: list[T]

    class NamedGroup(NamedTuple):
        key: T
        group: list[T]

    alias = Group[int]
    assert alias.__origin__ is Group
    assert () == alias.__parameters__
    assert (int,) == alias.__args__
    made = alias(1, [2])
    assert type(made) is Group
    assert (1, [2]) == made
    assert type(NamedGroup[int]) is type(alias)
    assert repr(NamedGroup[int]).replace("NamedGroup", "Group") == repr(alias)


def test_concrete_generic_subclass_refuses_as_typing_does():
    """A subclass of Pair[int] takes no more arguments, as typing.Generic says."""

    class Pair(Record, Generic[T]):
        first: T
        second: T

    class IntPair(Pair[int]):
        pass

    assert (1, 2) == IntPair(1, 2)
    with pytest.raises(TypeError, match="is not a generic class"):
        IntPair[int]


def test_generic_subscription_survives_a_reload_of_typing():
    """
    A generic record subscribes through the Generic it inherits: a reload of
    typing, or typing gone from sys.modules, leaves its parameters checked.
    """
    code = (
        "import importlib, sys, typing\n"
        "from typing import Generic, TypeVar\n"
        "from records import Record\n"
        "T = TypeVar('T')\n"
        "class Box(Record, Generic[T]):\n    item: T\n"
        "importlib.reload(typing)\n"
        "try:\n    Box[int, str]\nexcept TypeError:\n    print('checked')\n"
        "saved = sys.modules.pop('typing')\n"
        "print(type(Box[int]).__module__, Box[int](1))\n"
    )
    output = run_child(code)
    assert "checked\ntyping Box(item=1)\n" == output
