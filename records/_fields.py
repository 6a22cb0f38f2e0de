"""
Field specifications: the ``field()`` helper, the ``Field`` description that
``records.fields()`` returns, and the sentinels both use.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class _Sentinel:
    """A named singleton whose ``repr`` is its name."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return self._name

    def __reduce__(self) -> str:
        return self._name.strip("<>").upper()


MISSING: Any = _Sentinel("MISSING")
"""Marks "no value given" for ``field(default=...)`` and ``Field.default``."""

#: Stands in a generated ``__new__``'s defaults for a field with a
#: ``default_factory``; its ``repr`` makes ``inspect.signature`` show
#: ``tags: list[str] = <factory>``, as dataclasses do.
FACTORY: Any = _Sentinel("<factory>")


class Field:
    """
    The description of one field of a record.

    ``records.fields()`` returns these in field order. ``field()`` returns one
    without a name or type, to be placed as a default in a class body.

    Attributes:
        name: The field's name (``None`` before the record is built).
        type: The annotation as written: a type, or a string under
            ``from __future__ import annotations``. Never evaluated.
        default: The default value, or ``MISSING``.
        default_factory: A zero-argument callable that makes the default, or
            ``MISSING``.
        doc: The docstring of the field's accessor, or ``None``.
    """

    __slots__ = ("default", "default_factory", "doc", "name", "type")

    def __init__(
        self,
        name: str | None = None,
        type: Any = None,
        default: Any = MISSING,
        default_factory: Callable[[], Any] | Any = MISSING,
        doc: str | None = None,
    ) -> None:
        self.name = name
        self.type = type
        self.default = default
        self.default_factory = default_factory
        self.doc = doc

    @property
    def has_default(self) -> bool:
        """Whether the field may be left out of a constructor call."""
        return self.default is not MISSING or self.default_factory is not MISSING

    def __repr__(self) -> str:
        return (
            f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r}, "
            f"default_factory={self.default_factory!r}, doc={self.doc!r})"
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Field:
            return NotImplemented
        return _as_tuple(self) == _as_tuple(other)  # type: ignore[arg-type,unused-ignore]

    __hash__ = None  # type: ignore[assignment]


def _as_tuple(f: Field) -> tuple[Any, ...]:
    return (f.name, f.type, f.default, f.default_factory, f.doc)


def field(
    *,
    default: Any = MISSING,
    default_factory: Callable[[], Any] | Any = MISSING,
    doc: str | None = None,
) -> Any:
    """
    Describe a field beyond its annotation, as the default in a class body.

    Giving both *default* and *default_factory*, a factory that is not
    callable, or a *doc* that is neither a string nor ``None``, is reported
    when the class is defined, naming the record and the field.

    Args:
        default: The value used when the field is not passed.
        default_factory: A callable with no arguments, called for each new
            record that does not pass the field (for ``list``, ``dict`` and
            other mutable values).
        doc: The docstring of the field's accessor (``help(Point.x)``).

    Examples:
        >>> from records import Record, field
        >>> class Inventory(Record):
        ...     owner: str
        ...     items: list[str] = field(default_factory=list, doc="What is held.")
        >>> Inventory("ann")
        Inventory(owner='ann', items=[])
        >>> Inventory.items.__doc__
        'What is held.'
    """
    return Field(default=default, default_factory=default_factory, doc=doc)
