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
from operator import itemgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

try:
    from _collections import _tuplegetter
except ImportError:  # pragma: no cover - PyPy and other interpreters
    _tuplegetter = None

# Both caches map a field index to an immutable object and grow only to the
# widest record made so far. dict.setdefault is atomic, so racing threads agree
# on one object per index.
_default_docs: dict[int, str] = {}
_itemgetters: dict[int, itemgetter[Any]] = {}


def default_doc(index: int) -> str:
    """Return the interned default docstring of the accessor at *index*."""
    doc = _default_docs.get(index)
    if doc is None:
        doc = _default_docs.setdefault(index, sys.intern(f"Alias for field number {index}"))
    return doc


def python_accessor(index: int, doc: str | None) -> property:
    """Return a pure-Python accessor for item *index*."""
    getter = _itemgetters.get(index)
    if getter is None:
        getter = _itemgetters.setdefault(index, itemgetter(index))
    return property(getter, doc=doc)


def accessor(index: int, doc: str | None = None) -> Any:
    """
    Return a read-only descriptor for item *index*, documented by *doc*
    (``'Alias for field number N'`` when ``None``).
    """
    if doc is None:
        doc = default_doc(index)
    if _tuplegetter is not None:
        return _tuplegetter(index, doc)
    return python_accessor(index, doc)  # pragma: no cover - PyPy
