"""typing.get_type_hints on PEP 695 generic records (Python 3.12+)."""

import typing
from typing import NamedTuple

from records import Record


class Pair[T](Record):
    first: T
    second: list[T]


class PairNT[T](NamedTuple):
    first: T
    second: list[T]


def test_pep695_hints_like_namedtuple():
    """A PEP 695 record's hints are its type parameters, as a PEP 695 NamedTuple's."""
    for cls in (PairNT, Pair):
        (param,) = cls.__type_params__
        assert {"first": param, "second": list[param]} == typing.get_type_hints(cls)
