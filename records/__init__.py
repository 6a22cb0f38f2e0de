"""
records: immutable, typed record types that are real tuples.

>>> from records import Record
>>> class Point(Record):
...     x: int
...     y: int = 0
>>> Point(1)
Point(x=1, y=0)
"""

import sys as _sys

from . import _accelerator
from ._fields import MISSING, Field, field
from ._record import Record

__version__ = "0.1.0"

TYPE_CHECKING = False
if TYPE_CHECKING:  # what __getattr__ below gives, for tools that read the source
    from ._everywhere import restore_namedtuple, use_for_namedtuple
    from ._funcs import asdict, fields, replace
    from ._namedtuple import namedtuple

ACCELERATED: bool = _accelerator.c is not None
"""Whether the optional C accelerator, ``records._accelerator_c``, is in use."""

ACCELERATOR: str = _accelerator.STATUS
"""Which path records runs on, and why: the C accelerator, or pure Python and the reason."""

#: The public names a class statement does not need, by the module that
#: defines them: each is imported when first asked for (PEP 562), so that
#: ``import records`` loads only what ``class P(Record)`` uses.
_LATER = {
    "namedtuple": "_namedtuple",
    "asdict": "_funcs",
    "fields": "_funcs",
    "replace": "_funcs",
    "restore_namedtuple": "_everywhere",
    "use_for_namedtuple": "_everywhere",
}


def __getattr__(name: str) -> object:
    """Import the module that defines the public name *name*, and return the name."""
    module = _LATER.get(name)
    if module is None:
        msg = f"module 'records' has no attribute {name!r}"
        raise AttributeError(msg)
    value: object = getattr(__import__(f"records.{module}", fromlist=[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """List the package's names, those imported on first use included."""
    return sorted({*globals(), *_LATER} - {"TYPE_CHECKING"})


# The RECORDS_NAMEDTUPLE stand-in is in place: records.namedtuple takes over now.
if "_records_namedtuple" in _sys.modules:
    from ._everywhere import finish_opt_in

    finish_opt_in()

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
