"""PEP 695 generic records (Python 3.12+)."""

from typing import get_args

from records import Record


class Pair[T](Record):
    first: T
    second: T


def test_pep695_record():
    """class Pair[T](Record) is a generic record."""
    assert ("first", "second") == Pair._fields
    assert (1, 2) == Pair[int](1, 2)
    assert (int,) == get_args(Pair[int])
    assert 1 == len(Pair.__type_params__)
