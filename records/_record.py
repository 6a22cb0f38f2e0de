"""
``Record``: the base class that turns an annotated class body into a tuple type.

What ``Record.__init_subclass__`` does with each name, by where it comes from:

====================================  ============================================
The class body ...                    records ...
====================================  ============================================
annotates ``x: T`` (not ClassVar)     makes field ``x``; its value, if any, is
                                      the default (or a ``field()``)
annotates ``x: ClassVar[T]``          leaves it a class attribute
defines ``__new__``                   keeps it; ``super().__new__`` builds from
                                      the fields
defines ``__repr__``, ``_replace``,   keeps them (the inherited versions from
``_make``, ``_asdict``, any method    ``Record`` are only defaults)
defines ``__match_args__``            keeps it
has a docstring                       keeps it; otherwise ``"Point(x, y)"``
defines ``_fields``,                  raises ``TypeError``: these are computed
``_field_defaults``                   from the annotations
re-annotates an inherited field       raises ``TypeError``
====================================  ============================================

A subclass without field annotations adds only methods: it shares its parent's
fields, constructor and accessors.
"""

from __future__ import annotations

import sys
from _thread import get_ident

from . import _rules
from ._accessors import _default_docs, default_docs, make_accessor
from ._codegen import BASE_GLOBALS, _codes, make_constructor
from ._compat import UNKNOWN_FIELD_ERROR, is_classvar, own_annotations
from ._fields import FACTORY, MISSING, Field
from ._layout import seal
from ._native import speedups

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from types import FunctionType
    from typing import Any, ClassVar

    from typing_extensions import Self

_tuple_new = tuple.__new__

# The C constructor: the generated __new__'s work, without a Python frame.
_install_constructor = speedups.install if speedups is not None else None
# The C class builder: _build's work for the common class statement. It
# returns False, having changed nothing, for everything else.
_build_in_c = speedups.build if speedups is not None else None

# Field names already checked by _check_field_name. Names repeat across a
# program's records, so most checks become one set lookup; the set is emptied
# when it grows large, and set.add is atomic.
_valid_names: set[str] = set()

# (id(record), thread id) of every record whose repr is being computed, so that
# a record reachable from its own fields prints as "..." instead of recursing.
_repr_running: set[tuple[int, int]] = set()


class Record(tuple):  # type: ignore[type-arg]
    """
    Base class for immutable records that are tuples.

    Subclass it with annotated fields; the class becomes a ``tuple`` subclass
    with one read-only accessor per field, a constructor that takes the fields
    by position or keyword, and the ``collections.namedtuple`` API.

    Examples:
        >>> from records import Record
        >>> class Point(Record):
        ...     x: int
        ...     y: int = 0
        >>> p = Point(1, y=2)
        >>> p
        Point(x=1, y=2)
        >>> p.x, p[1], len(p), isinstance(p, tuple)
        (1, 2, 2, True)
        >>> p._replace(y=5)
        Point(x=1, y=5)
    """

    __slots__ = ()

    # Record's own attributes carry no annotations at run time: they are not
    # fields, and typing.get_type_hints(), which reads every class of a
    # record's MRO, must find only the fields there. The declarations below
    # are for type checkers only (and the stub declares them for users).
    if TYPE_CHECKING:
        #: The field names, in order.
        _fields: ClassVar[tuple[str, ...]]
        #: Plain default values by field name (fields with a factory are not in it).
        _field_defaults: ClassVar[dict[str, Any]]
        #: Default factories by field name.
        __record_factories__: ClassVar[Mapping[str, Callable[[], Any]]]
        __match_args__: ClassVar[tuple[str, ...]]
    _fields = ()
    _field_defaults = {}  # noqa: RUF012 - replaced, never mutated, by every record class
    __record_factories__ = {}  # noqa: RUF012 - likewise
    __match_args__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Make the new subclass a record type from its annotations."""
        # When Record, tuple and object end the MRO, the next __init_subclass__
        # is object's, which does nothing without keywords: skip the call.
        if kwargs or cls.__mro__[-3] is not Record:
            super().__init_subclass__(**kwargs)
        if _build_in_c is None or not _build_in_c(cls):
            _build(cls)

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        """Create a new record from its fields, given by position or keyword."""
        # Every record class with fields has a generated __new__ of its own
        # (which help() shows with this docstring); this one is reached through
        # super().__new__(cls, ...) from a __new__ defined in a record's body,
        # and for records without fields.
        if cls is Record:
            msg = "Record cannot be instantiated directly: subclass it and declare fields"
            raise TypeError(msg)
        return _constructor(cls)(cls, *args, **kwargs)  # type: ignore[no-any-return]

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self:
        """Make a new record from a sequence or iterable of field values."""
        result = _tuple_new(cls, iterable)
        if len(result) != len(cls._fields):
            msg = f"Expected {len(cls._fields)} arguments, got {len(result)}"
            raise TypeError(msg)
        return result

    def _replace(self, /, **changes: Any) -> Self:
        """Return a new record with the given fields replaced by new values."""
        # Work per change, not per field: one lookup in _fields each. Unlike
        # namedtuple's, this does not go through _make.
        values = list(self)
        fields = self._fields
        try:
            for name in changes:  # noqa: PLC0206 - faster than unpacking .items()
                values[fields.index(name)] = changes[name]
        except ValueError:
            unknown = [name for name in changes if name not in fields]
            msg = f"Got unexpected field names: {unknown!r}"
            raise UNKNOWN_FIELD_ERROR(msg) from None
        return _tuple_new(self.__class__, values)

    def __replace__(self, /, **changes: Any) -> Self:
        """Support ``copy.replace()`` (Python 3.13+)."""
        return self._replace(**changes)

    def _asdict(self) -> dict[str, Any]:
        """Return a new dict which maps field names to their values."""
        return dict(zip(self._fields, self))

    def __getnewargs__(self) -> tuple[Any, ...]:
        """Return self as a plain tuple; used by copy and pickle."""
        return tuple(self)

    def __repr__(self) -> str:
        key = (id(self), get_ident())
        if key in _repr_running:
            return "..."
        _repr_running.add(key)
        try:
            items = ", ".join([f"{name}={value!r}" for name, value in zip(self._fields, self)])
        finally:
            _repr_running.discard(key)
        return f"{self.__class__.__name__}({items})"

    def __rich_repr__(self) -> Iterable[tuple[str, Any]] | None:
        """
        Lay the record out field by field in rich's pretty printer, as rich
        does for ``collections.namedtuple`` (unless the class defines its own
        ``__repr__``).
        """
        from ._interop import rich_repr

        return rich_repr(self, Record.__repr__)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """
        Give pydantic the schema of a named tuple with these fields, in which
        fields with a ``default_factory`` are optional.
        """
        from ._interop import pydantic_core_schema

        return pydantic_core_schema(cls, source, handler)

    @classmethod
    def define(
        cls,
        typename: str,
        fields: Iterable[tuple[str, Any]] | Mapping[str, Any],
        *,
        defaults: Mapping[str, Any] | None = None,
        module: str | None = None,
    ) -> type[Self]:
        """
        Create a record class from a list of fields: the functional form.

        Args:
            typename: The class name; a valid identifier.
            fields: ``(name, type)`` pairs, or a mapping from name to type.
            defaults: Default values by field name; a value may be a
                ``field(...)``. Defaulted fields must come after the others.
            module: The class's ``__module__`` (for pickling); by default the
                caller's module.

        Returns:
            A subclass of *cls* (``Record`` or a record to extend), built like
            the equivalent class statement. Names are validated first, and
            never executed as code.

        Examples:
            >>> from records import Record
            >>> Point = Record.define("Point", [("x", int), ("y", int)], defaults={"y": 0})
            >>> Point(1)
            Point(x=1, y=0)
        """
        from ._functional import define

        return define(cls, typename, fields, defaults=defaults, module=module)


def _fields_source(cls: type[Record]) -> type[Record]:
    """
    Return the class in *cls*'s MRO that its inherited fields come from.

    That is the nearest record class that declared fields, or ``Record``. Any
    other record base that declares fields must be one of its ancestors.
    """
    source: type[Record] = Record
    for klass in cls.__mro__[1:]:
        if klass.__dict__.get("_fields") and issubclass(klass, Record):
            if source is Record:
                source = klass
            elif not issubclass(source, klass):
                msg = _rules.two_record_bases_message(
                    cls.__name__, source.__name__, klass.__name__
                )
                raise TypeError(msg)
    return source


def _declaring_class(source: type[Record], name: str) -> type[Record]:
    """Return the class in *source*'s MRO whose body declared field *name*."""
    for klass in source.__mro__:
        if name in own_annotations(klass):
            return klass
    return source  # pragma: no cover - every inherited field was declared somewhere


def _field_types(source: type[Record]) -> dict[str, Any]:
    """Return the annotation of every field of *source*, by name."""
    types: dict[str, Any] = {}
    for klass in reversed(source.__mro__):
        if issubclass(klass, Record) and klass is not Record:
            annotations = own_annotations(klass)
            types.update(
                (name, annotations[name]) for name in annotations if name in source._fields
            )
    return types


def _build(cls: type[Record]) -> None:  # noqa: PLR0912, PLR0915
    """
    Turn the freshly created class *cls* into a record type.

    This runs for every record class statement, so it is written for speed:
    one pass over the annotations that validates each field and collects
    everything the constructor needs; messages are built only on error paths.
    """
    record = cls.__name__
    namespace = cls.__dict__
    if (
        "_fields" in namespace
        or "_field_defaults" in namespace
        or "__record_factories__" in namespace
    ):
        name = min(_rules.COMPUTED_NAMES.intersection(namespace))
        raise TypeError(_rules.computed_name_message(record, name))
    bases = cls.__bases__
    source: type[Record]
    if len(bases) == 1 and (bases[0] is Record or "_fields" in bases[0].__dict__):
        source = bases[0]  # the common case: one record base that declared fields
    else:
        source = _fields_source(cls)
    annotations = own_annotations(cls)
    inherited: tuple[str, ...] = source._fields
    names = inherited
    attributes: dict[str, Any] = {}

    if annotations:
        inherited_defaults = source._field_defaults
        factories = source.__record_factories__
        defaults = dict(inherited_defaults)
        # The constructor's __defaults__ and factories, by field index.
        previous_default = None
        if inherited_defaults or factories:
            new_defaults, new_factories = _constructor_defaults(
                inherited, inherited_defaults, factories
            )
            previous_default = inherited[-1]
        else:
            new_defaults, new_factories = [], {}
        own: list[str] = []
        own_factories: dict[int, Callable[[], Any]] = {}
        index = len(inherited)
        docs = _default_docs
        if len(docs) < index + len(annotations):
            docs = default_docs(index + len(annotations))
        for name, annotation in annotations.items():
            if annotation.__class__ is not type and is_classvar(annotation):
                continue
            if name not in _valid_names:
                _check_field_name(record, name)
            if name in inherited:
                declared_in = _declaring_class(source, name).__name__
                raise TypeError(_rules.inherited_field_message(record, name, declared_in))
            doc = docs[index]
            if name not in namespace:  # a mappingproxy: "in" and [] are fast, .get() is not
                if previous_default is not None:
                    raise TypeError(_rules.field_order_message(record, name, previous_default))
            else:
                value = namespace[name]
                if value.__class__ is not Field:
                    if isinstance(value, _rules.MUTABLE_DEFAULT_TYPES):
                        raise ValueError(_rules.mutable_default_message(record, name, value))
                    defaults[name] = value
                    new_defaults.append(value)
                    previous_default = name
                else:
                    previous_default = _add_field_default(
                        record,
                        name,
                        index,
                        value,
                        defaults,
                        new_defaults,
                        own_factories,
                        previous_default,
                    )
                    if value.doc is not None:
                        doc = value.doc
            attributes[name] = make_accessor(index, doc)
            own.append(name)
            index += 1

    if annotations and own:
        names = (*inherited, *own)
        attributes["_fields"] = names
        attributes["_field_defaults"] = defaults
        if own_factories:
            new_factories.update(own_factories)
            attributes["__record_factories__"] = {
                **factories,
                **{names[index]: factory for index, factory in own_factories.items()},
            }
        if "__match_args__" not in namespace:
            attributes["__match_args__"] = names
        if "__new__" not in namespace:
            new = make_constructor(names, tuple(new_defaults) or None, new_factories)
            new.__qualname__ = f"{cls.__qualname__}.__new__"
            new.__module__ = cls.__module__
            if inherited:
                types = _field_types(source)
                types.update((name, annotations[name]) for name in own)
            elif len(own) == len(annotations):
                types = dict(annotations)
            else:
                types = {name: annotations[name] for name in own}
            new.__annotations__ = types
            attributes["__new__"] = staticmethod(new)

    if "__doc__" not in namespace or namespace["__doc__"] is None:
        attributes["__doc__"] = f"{record}({', '.join(names)})"
    if "__parameters__" in namespace and "__class_getitem__" not in namespace:
        # typing.Generic's subscription, not tuple's: Pair[int] must check
        # its parameters, and tuple comes first in a generic record's MRO.
        attributes["__class_getitem__"] = sys.modules["typing"].Generic.__dict__[
            "__class_getitem__"
        ]
    if not seal(cls, attributes):
        _forbid_attribute_changes(cls)
    if _install_constructor is not None and "__new__" in attributes:
        _install_constructor(cls, names, tuple(new_defaults), new_factories, FACTORY)


def _check_field_name(record: str, name: object) -> None:
    """Raise ``ValueError`` unless *name* can name a field of *record*."""
    message = _rules.invalid_name_message(record, name)
    if message is not None:
        raise ValueError(message)
    if len(_valid_names) > 4096:
        _valid_names.clear()
    _valid_names.add(name)  # type: ignore[arg-type]


def _add_field_default(
    record: str,
    name: str,
    index: int,
    spec: Field,
    defaults: dict[str, Any],
    new_defaults: list[Any],
    factories: dict[int, Callable[[], Any]],
    previous_default: str | None,
) -> str | None:
    """
    Record the default of field *name* given as ``field(...)`` *spec*; return
    the name of the last field with a default so far.
    """
    default, factory = spec.default, spec.default_factory
    if factory is not MISSING:
        if default is not MISSING:
            raise TypeError(_rules.default_and_factory_message(record, name))
        if not callable(factory):
            raise TypeError(_rules.factory_not_callable_message(record, name, factory))
        factories[index] = factory
        new_defaults.append(FACTORY)
        return name
    if default is not MISSING:
        if isinstance(default, _rules.MUTABLE_DEFAULT_TYPES):
            raise ValueError(_rules.mutable_default_message(record, name, default))
        defaults[name] = default
        new_defaults.append(default)
        return name
    if previous_default is not None:
        raise TypeError(_rules.field_order_message(record, name, previous_default))
    return None


def _constructor_defaults(
    names: tuple[str, ...],
    defaults: Mapping[str, Any],
    factories: Mapping[str, Callable[[], Any]],
) -> tuple[list[Any], dict[int, Callable[[], Any]]]:
    """
    Return a constructor's ``__defaults__`` (``FACTORY`` for a factory) and
    its factories by field index, for fields *names*.
    """
    new_defaults: list[Any] = []
    new_factories: dict[int, Callable[[], Any]] = {}
    for index, name in enumerate(names):
        if name in factories:
            new_factories[index] = factories[name]
            new_defaults.append(FACTORY)
        elif name in defaults:
            new_defaults.append(defaults[name])
    return new_defaults, new_factories


def _constructor(cls: type[Record]) -> FunctionType:
    """
    Return a ``__new__`` taking the fields of *cls*, for ``Record.__new__``.

    Classes with fields get theirs from ``_build``; this slower path serves
    ``super().__new__`` from a ``__new__`` written in a record's body.
    """
    names = cls._fields
    new_defaults, new_factories = _constructor_defaults(
        names, cls._field_defaults, cls.__record_factories__
    )
    function = make_constructor(names, tuple(new_defaults) or None, new_factories)
    function.__qualname__ = f"{cls.__qualname__}.__new__"
    function.__module__ = cls.__module__
    return function


def _forbid_attribute_changes(cls: type[Record]) -> None:
    """Make setting or deleting attributes raise, where the dict slot stays."""
    if "__setattr__" not in cls.__dict__:
        cls.__setattr__ = _frozen_setattr  # type: ignore[assignment]
    if "__delattr__" not in cls.__dict__:
        cls.__delattr__ = _frozen_delattr  # type: ignore[assignment]


def _frozen_setattr(self: Record, name: str, value: object) -> None:
    msg = f"record {type(self).__name__!r} is immutable: cannot set attribute {name!r}"
    raise AttributeError(msg)


def _frozen_delattr(self: Record, name: str) -> None:
    msg = f"record {type(self).__name__!r} is immutable: cannot delete attribute {name!r}"
    raise AttributeError(msg)


#: What the C class builder shares with this module, by name.
_c_helpers: dict[str, Any] = {}

# With the C accelerator, Record's methods and its class building run in C.
if speedups is not None:
    _c_helpers.update(
        {
            "Record": Record,
            "init_subclass": Record.__dict__["__init_subclass__"].__func__,
            "build": _build,
            "check_field_name": _check_field_name,
            "keywords": _rules.KEYWORDS,
            "is_classvar": is_classvar,
            "Field": Field,
            "MISSING": MISSING,
            "FACTORY": FACTORY,
            "mutable_types": _rules.MUTABLE_DEFAULT_TYPES,
            "accessor": make_accessor,
            "docs": _default_docs,
            "extend_docs": default_docs,
            "field_types": _field_types,
            "codes": _codes,
            "base_globals": BASE_GLOBALS,
            "make_constructor": make_constructor,
        }
    )
    speedups.configure(_c_helpers)
    # _replace, _asdict, __repr__ and _make in C: same results, same messages,
    # no Python frame.
    for _name, _method in speedups.record_methods(Record).items():
        type.__setattr__(Record, _name, _method)
    # __init_subclass__ too; the C one calls the Python one where that may do
    # more than build the class (keywords, bases in between).
    _python_init_subclass = Record.__dict__["__init_subclass__"]
    type.__setattr__(Record, "__init_subclass__", speedups.init_subclass(Record))
