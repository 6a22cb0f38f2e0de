"""
records: immutable, typed record types that are real tuples.

>>> from records import Record
>>> class Point(Record):
...     x: int
...     y: int = 0
>>> Point(1)
Point(x=1, y=0)
"""

from ._fields import MISSING, Field, field
from ._funcs import asdict, fields, replace
from ._namedtuple import namedtuple
from ._native import STATUS as _STATUS
from ._native import speedups as _speedups
from ._record import Record

__version__ = "0.1.0"

ACCELERATED: bool = _speedups is not None
"""Whether the optional C accelerator, ``records._speedups``, is in use."""

ACCELERATOR: str = _STATUS
"""Which path records runs on, and why: the C accelerator, or pure Python and the reason."""

__all__ = [
    "ACCELERATED",
    "ACCELERATOR",
    "MISSING",
    "Field",
    "Record",
    "asdict",
    "field",
    "fields",
    "namedtuple",
    "replace",
]
