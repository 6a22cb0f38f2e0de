"""
The process-wide opt-in: ``records.namedtuple`` for every named tuple.

``use_for_namedtuple()`` makes ``collections.namedtuple`` be
``records.namedtuple``: every call made afterwards builds its class with
records (in C where the accelerator is loaded), whoever makes it — the
standard library, third-party packages, and ``typing.NamedTuple``, which
calls ``collections.namedtuple``. A module that ran ``from collections import
namedtuple`` before keeps the function it took.

Set ``RECORDS_NAMEDTUPLE=1`` in the environment to switch it on at start-up,
before any other module is imported: the wheel installs
``records_namedtuple.pth`` into ``site-packages``, which Python's ``site``
runs as it starts, and which does nothing more than read that variable
unless it is set. Like Python's own ``PYTHON*`` variables, it is ignored
under ``-E`` and ``-I``. When set, it loads nothing of records: the
top-level module ``_records_namedtuple`` (``records/_records_namedtuple.py``)
puts a stand-in in place of ``collections.namedtuple`` once ``collections``
is imported, and the stand-in's first call imports records, which calls
``use_for_namedtuple()``; so does importing records before that call.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The ``collections.namedtuple`` that ``use_for_namedtuple`` replaced.
_original: Any = None

#: The attribute of the start-up stand-in (``_records_namedtuple``) holding
#: the ``collections.namedtuple`` it stands in for.
STAND_IN_ORIGINAL = "_records_original"


def use_for_namedtuple() -> None:
    """
    Make ``collections.namedtuple`` (and so ``typing.NamedTuple``) build
    every named tuple class from now on with ``records.namedtuple``.

    Calling it again does nothing; ``restore_namedtuple()`` undoes it.
    Whether it is on: ``collections.namedtuple is records.namedtuple``.
    """
    global _original
    import collections

    from ._namedtuple import namedtuple

    current = collections.namedtuple
    if current is not namedtuple:
        _original = getattr(current, STAND_IN_ORIGINAL, current)
        collections.namedtuple = namedtuple


def finish_opt_in() -> None:
    """
    Where the start-up stand-in of ``RECORDS_NAMEDTUPLE`` is in place, put
    ``records.namedtuple`` in now (``records`` calls it as it is imported).
    """
    collections: Any = sys.modules.get("collections")
    if hasattr(getattr(collections, "namedtuple", None), STAND_IN_ORIGINAL):
        use_for_namedtuple()


def restore_namedtuple() -> None:
    """Give ``collections.namedtuple`` back the function ``use_for_namedtuple`` replaced."""
    global _original
    collections: Any = sys.modules.get("collections")
    if collections is None:
        return
    stand_in_for = getattr(collections.namedtuple, STAND_IN_ORIGINAL, None)
    if stand_in_for is not None:  # the opt-in's stand-in, not called yet
        collections.namedtuple = stand_in_for
    if _original is None:
        return
    from ._namedtuple import namedtuple

    if collections.namedtuple is namedtuple:
        collections.namedtuple = _original
    _original = None
