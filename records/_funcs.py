"""
Module-level helpers that work on any record: ``fields``, ``replace``, ``asdict``.

They accept ``Record`` subclasses and also named tuples (``collections``,
``typing`` or ``records.namedtuple``), which share the ``_fields`` protocol.
"""

from __future__ import annotations

from . import _rules
from ._fields import MISSING, Field
from ._record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    _T = TypeVar("_T", bound=tuple[Any, ...])


def _is_record_type(cls: object) -> bool:
    return (
        isinstance(cls, type)
        and issubclass(cls, tuple)
        and isinstance(getattr(cls, "_fields", None), tuple)
        and cls is not Record
    )


def fields(record_or_class: Any) -> tuple[Field, ...]:
    """
    Return the fields of a record class or instance, in order.

    Raises:
        TypeError: if the argument is neither a record nor a named tuple.

    Examples:
        >>> from records import Record, field, fields
        >>> class Point(Record):
        ...     x: int
        ...     y: int = field(default=0, doc="Height.")
        >>> [(f.name, f.default, f.doc) for f in fields(Point)]
        [('x', MISSING, None), ('y', 0, 'Height.')]
    """
    cls: Any = record_or_class if isinstance(record_or_class, type) else type(record_or_class)
    if not _is_record_type(cls):
        raise TypeError(_rules.not_a_record_message("fields", record_or_class))
    from ._accessors import default_doc

    defaults = cls._field_defaults
    factories = getattr(cls, "__record_factories__", {})
    types = _annotations(cls)
    result = []
    for index, name in enumerate(cls._fields):
        doc = _accessor_doc(cls, name)
        result.append(
            Field(
                name=name,
                type=types.get(name),
                default=defaults.get(name, MISSING),
                default_factory=factories.get(name, MISSING),
                doc=None if doc is None or doc == default_doc(index) else doc,
            )
        )
    return tuple(result)


def _annotations(cls: type) -> dict[str, Any]:
    from ._annotations import field_types

    types: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        types.update(field_types(klass))
    return types


def _accessor_doc(cls: type, name: str) -> str | None:
    for klass in cls.__mro__:
        if name in klass.__dict__:
            doc = getattr(klass.__dict__[name], "__doc__", None)
            return doc if isinstance(doc, str) else None
    return None


def replace(record: _T, /, **changes: Any) -> _T:
    """
    Return a copy of *record* with the given fields replaced: ``record._replace(**changes)``.

    Examples:
        >>> from records import Record, replace
        >>> class Point(Record):
        ...     x: int
        ...     y: int = 0
        >>> replace(Point(1, 2), y=5)
        Point(x=1, y=5)
    """
    if not _is_record_type(type(record)):
        raise TypeError(_rules.not_a_record_message("replace", record))
    return record._replace(**changes)  # type: ignore[attr-defined,no-any-return]


def asdict(record: Any, *, recurse: bool = True) -> dict[str, Any]:
    """
    Return a dict mapping the field names of *record* to its values.

    With *recurse* (the default), records and named tuples nested in fields,
    lists, tuples, sets and dicts are converted too: records become dicts,
    named tuples keep their type, containers are rebuilt with the same type.
    Other values are not copied.

    Examples:
        >>> from records import Record, asdict
        >>> class Point(Record):
        ...     x: int
        ...     y: int
        >>> class Line(Record):
        ...     start: Point
        ...     end: Point
        >>> asdict(Line(Point(0, 0), Point(1, 2)))
        {'start': {'x': 0, 'y': 0}, 'end': {'x': 1, 'y': 2}}
    """
    if not _is_record_type(type(record)):
        raise TypeError(_rules.not_a_record_message("asdict", record))
    if not recurse:
        return dict(zip(record._fields, record))
    return {name: _convert(value) for name, value in zip(record._fields, record)}


def _convert(value: Any) -> Any:
    cls = type(value)
    if isinstance(value, Record):
        return {name: _convert(item) for name, item in zip(value._fields, value)}
    if isinstance(value, tuple):
        items = [_convert(item) for item in value]
        return cls._make(items) if _is_record_type(cls) else cls(items)
    if isinstance(value, (list, set, frozenset)):
        return cls(_convert(item) for item in value)
    if isinstance(value, dict):
        factory = getattr(value, "default_factory", MISSING)  # defaultdict keeps its factory
        result = cls() if factory is MISSING else cls(factory)
        for key, item in value.items():
            result[_convert(key)] = _convert(item)
        return result
    return value
