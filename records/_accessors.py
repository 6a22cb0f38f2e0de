"""
Field accessors: the descriptors that read ``record.x`` as ``record[0]``.

CPython's ``_collections._tuplegetter`` is the C accessor ``collections.namedtuple``
uses; elsewhere (PyPy) a ``property`` over ``operator.itemgetter`` stands in.

Accessor objects are made fresh for every class: their ``__doc__`` is writable,
so a descriptor shared by two classes would let one class's documentation
change the other's. What is shared is what nobody can change: the interned
default docstrings and, on the fallback path, the ``itemgetter`` objects.
"""

from __future__ import annotations

import sys
from _thread import allocate_lock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

try:
    from _collections import _tuplegetter  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # pragma: no cover - PyPy and other interpreters
    _tuplegetter = None

# The interned default docstrings, by field index: a list that only grows,
# under a lock, so that every index always holds its own text.
_docs: list[str] = []
_docs_lock = allocate_lock()
# pure-Python getters by field index; dict.setdefault is atomic, so racing
# threads agree on one object per index.
_itemgetters: dict[int, Any] = {}


def default_docs(count: int) -> list[str]:
    """
    Return the shared list of default accessor docstrings
    (``'Alias for field number N'``, interned), grown to at least *count* items.
    """
    docs = _docs
    if len(docs) < count:
        with _docs_lock:
            docs.extend(sys.intern(f"Alias for field number {i}") for i in range(len(docs), count))
    return docs


def default_doc(index: int) -> str:
    """Return the interned default docstring of the accessor at *index*."""
    return default_docs(index + 1)[index]


def _python_accessor(index: int, doc: str | None) -> property:
    """Return a pure-Python accessor for item *index*."""
    getter = _itemgetters.get(index)
    if getter is None:
        from operator import itemgetter  # only off CPython: not imported with records

        getter = _itemgetters.setdefault(index, itemgetter(index))
    return property(getter, doc=doc)


#: ``accessor(index, doc)``: a read-only descriptor for item *index*,
#: documented by *doc* (see ``default_doc``); the fastest this interpreter has.
accessor: Any = _tuplegetter if _tuplegetter is not None else _python_accessor
