"""
``Record.define``: build a record class from a list of fields.
"""

from __future__ import annotations

from . import _rules
from ._builder import _valid_names
from ._compat import caller_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any, TypeVar

    from ._record import Record

    _R = TypeVar("_R", bound=Record)


def define(
    base: type[_R],
    typename: str,
    fields: Iterable[tuple[str, Any]] | Mapping[str, Any],
    *,
    defaults: Mapping[str, Any] | None = None,
    module: str | None = None,
) -> type[_R]:
    """Build ``class typename(base)`` with *fields*; see ``Record.define``."""
    if not (type(typename) is str and typename.isascii() and typename.isidentifier()) or (
        typename in _rules.KEYWORDS
    ):
        message = _rules.invalid_typename_message(typename)
        if message is not None:
            raise ValueError(message)
        typename = _rules.as_in_source(typename)
    pairs = fields.items() if hasattr(fields, "items") else fields
    annotations: dict[str, Any] = {}
    checked = _valid_names
    for pair in pairs:
        if type(pair) is tuple and len(pair) == 2:
            name, annotation = pair
            # A name checked before (an exact str), in ASCII: as the class
            # statement reads it.
            known = name in checked and type(name) is str and name.isascii()
            if known and name not in annotations:
                annotations[name] = annotation
                continue
        elif not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(_rules.field_pair_message(typename, pair))
        name, annotation = pair
        message = _rules.invalid_name_message(typename, name)
        if message is not None:
            raise (TypeError if type(name) is not str else ValueError)(message)
        name = _rules.as_in_source(name)  # as the class statement would read it
        if name in annotations:
            raise ValueError(_rules.duplicate_field_message(typename, name))
        annotations[name] = annotation
    namespace: dict[str, Any] = {"__annotations__": annotations, "__qualname__": typename}
    for name, value in (defaults or {}).items():
        if name not in annotations:
            raise TypeError(_rules.unknown_default_message(typename, name))
        namespace[name] = value
    namespace["__module__"] = module if module is not None else caller_module(2)
    return type(typename, (base,), namespace)
