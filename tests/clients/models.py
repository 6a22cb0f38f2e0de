"""
The classes every parity test uses, written once.

``conftest.load_models`` loads this file twice: as ``models_namedtuple``,
where ``Base`` is ``typing.NamedTuple``, and as ``models_record``, where it is
``records.Record``. The two modules hold classes with the same names, fields,
types and defaults; only the base differs.
"""

from typing import Generic, NamedTuple, TypeVar

from records import Record

Base = Record if __name__ == "models_record" else NamedTuple

T = TypeVar("T")


class Point(Base):
    x: int
    y: int = 0


class Segment(Base):
    start: Point
    end: Point
    label: str = ""


class Pair(Base, Generic[T]):
    first: T
    second: T


class Tree(Base):
    value: int
    children: "tuple[Tree, ...]" = ()


class Wide(Base):
    name: str
    values: list
    note: str = "-"
