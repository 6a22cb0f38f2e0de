"""
records: immutable, typed record types that are real tuples.

>>> from records import Record
>>> class Point(Record):
...     x: int
...     y: int = 0
>>> Point(1)
Point(x=1, y=0)
"""

from . import _accelerator, _everywhere, _install
from ._everywhere import restore_namedtuple, use_for_namedtuple
from ._fields import MISSING, Field, field
from ._funcs import asdict, fields, replace
from ._namedtuple import namedtuple
from ._record import Record

__version__ = "0.1.0"

_install.install(Record)
_everywhere.finish_opt_in()

ACCELERATED: bool = _accelerator.c is not None
"""Whether the optional C accelerator, ``records._accelerator_c``, is in use."""

ACCELERATOR: str = _accelerator.STATUS
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
    "restore_namedtuple",
    "use_for_namedtuple",
]
