"""
``Record``: the base class that turns an annotated class body into a tuple type.

What a record class statement gives, by what its body does (the class builder
in ``_builder`` does it; the C accelerator too, for the common case):

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
``_field_defaults``,                  from the annotations
``__record_factories__``
re-annotates an inherited field       raises ``TypeError``
also inherits another named tuple     raises ``TypeError``
====================================  ============================================

A subclass without field annotations adds only methods: it shares its parent's
fields, constructor and accessors.

Instances have no ``__dict__`` (``_layout``), except where code other than
CPython's own had the class before records could change its layout (see
``_sealing.may_seal``), or on an interpreter whose layout records has not
verified: there setting or deleting attributes raises instead.

Where the C accelerator is loaded, each method marked ``@c_twin`` is its C
twin (``records/_c/record.h``) from the moment ``Record`` exists, and
``__init_subclass__`` is the C class builder (``install_c_builder``); the
Python definitions here stay the reference, kept in ``python_methods``.
"""

from __future__ import annotations

from _thread import get_ident

from . import _accelerator
from ._accelerator import c

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping  # noqa: F401 - Callable: type comments
    from typing import Any, ClassVar, TypeVar  # noqa: F401 - ClassVar: in type comments

    from typing_extensions import Self

    _T = TypeVar("_T")

_tuple_new = tuple.__new__
# Types whose instances copy.deepcopy returns as they are, recording nothing.
_ATOMIC = frozenset({type(None), int, float, bool, str, bytes, complex})

# (id(record), thread id) of every record whose repr is being computed, so that
# a record reachable from its own fields prints as "..." instead of recursing.
_repr_running: set[tuple[int, int]] = set()

#: The Python definitions of the ``Record`` methods that run in C where the
#: accelerator is loaded, by name, as the class body defined them: the tests
#: run them on that build too. Empty on the pure-Python path.
python_methods: dict[str, Any] = {}


def c_twin(method: _T) -> _T:
    """
    Mark a method of ``Record`` that has a C twin in ``records/_c/record.h``:
    where the C accelerator is loaded, ``Record`` holds the twin under that
    name from the moment the class exists; elsewhere, *method* itself. A
    change to one needs the same change to the other.
    """
    if c is None:
        return method
    return _CTwin(method)  # type: ignore[return-value]  # gone once Record exists


class _CTwin:
    """A marked method in ``Record``'s body, until the class exists."""

    __slots__ = ("method",)

    def __init__(self, method: object) -> None:
        self.method = method

    def __set_name__(self, owner: type, name: str) -> None:
        """Put the C twin in the new class under *name*, and keep the Python method."""
        python_methods[name] = self.method
        # A method descriptor of the class itself, as if it were defined in C:
        # its __objclass__, __qualname__ and help() are the class's.
        type.__setattr__(owner, name, c.record_method(owner, name))  # type: ignore[union-attr]


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
    # record's MRO, must find only the fields there (nor may Record's dict
    # hold an __annotations__ of its own, which help() would list for every
    # record on 3.14+). Type comments declare them to mypy; the stub declares
    # them for users.
    _fields = ()  # type: ClassVar[tuple[str, ...]]
    #: Plain default values by field name (fields with a factory are not in it).
    _field_defaults = {}  # type: ClassVar[dict[str, Any]]  # noqa: RUF012 - never mutated
    #: Default factories by field name.
    __record_factories__ = {}  # type: ClassVar[Mapping[str, Callable[[], Any]]]  # noqa: RUF012
    __match_args__ = ()  # type: ClassVar[tuple[str, ...]]

    # C twin: the C class builder (records/_c/builder.h), put in its place by
    # install_c_builder() once the class exists.
    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Make the new subclass a record type from its annotations."""
        # How, step by step: init_subclass() in records/_builder.py. __class__
        # is the Record class this method was defined in (also after a reload
        # of this module); mypy does not know the implicit __class__ cell.
        from . import _builder

        _builder.init_subclass(cls, __class__, kwargs)  # type: ignore[name-defined]

    def __new__(cls, /, *args: Any, **kwargs: Any) -> Self:
        """Create a new record from its fields, given by position or keyword."""
        # Every record class with fields has a generated __new__ of its own
        # (which help() shows with this docstring); this one is reached through
        # super().__new__(cls, ...) from a __new__ defined in a record's body,
        # and for records without fields.
        from . import _builder

        if cls is __class__:  # type: ignore[name-defined]  # Record (see __init_subclass__)
            from . import _rules

            raise TypeError(_rules.abstract_record_message())
        if "__record_built__" not in cls.__dict__:  # True once records has built cls
            from . import _codegen

            _codegen.incomplete(cls)
        return _builder.constructor_for(cls)(cls, *args, **kwargs)  # type: ignore[no-any-return]

    def __setattr__(self, name: str, value: Any, /) -> None:
        """Refuse to set a field, naming it; other names go on up the MRO."""
        if name in type(self)._fields:
            from . import _rules

            raise AttributeError(_rules.field_assignment_message(type(self).__name__, name))
        super().__setattr__(name, value)

    def __delattr__(self, name: str, /) -> None:
        """Refuse to delete a field, naming it; other names go on up the MRO."""
        if name in type(self)._fields:
            from . import _rules

            message = _rules.field_assignment_message(type(self).__name__, name, delete=True)
            raise AttributeError(message)
        super().__delattr__(name)

    def __class_getitem__(cls, item: Any, /) -> Any:
        """
        Subscribe the record as a ``typing.NamedTuple`` class is: a generic
        record (one that inherits ``typing.Generic``) by ``Generic``'s
        subscription, which checks the type parameters; any other by
        ``tuple``'s, an alias whose call makes the record.
        """
        # The Generic the class inherits (not typing's current one, which a
        # reload of typing replaces).
        for base in cls.__mro__:
            if base.__name__ == "Generic" and base.__module__ == "typing":
                subscribe = base.__dict__["__class_getitem__"]
                break
        else:
            subscribe = tuple.__dict__["__class_getitem__"]
        return subscribe.__get__(None, cls)(item)

    @c_twin
    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self:
        """Make a new record from a sequence or iterable of field values."""
        if "__record_built__" not in cls.__dict__:
            from . import _codegen, _rules

            _codegen.incomplete(cls)
            if cls is __class__:  # type: ignore[name-defined]  # Record: abstract, as in __new__
                raise TypeError(_rules.abstract_record_message())
        result = _tuple_new(cls, iterable)
        if len(result) != len(cls._fields):
            from . import _rules

            raise TypeError(_rules.wrong_length_message(len(cls._fields), len(result)))
        return result

    @c_twin
    def _replace(self, /, **changes: Any) -> Self:
        """Return a new record with the given fields replaced by new values."""
        # Work per change, not per field: one lookup in _fields each. Unlike
        # namedtuple's, this does not go through _make.
        values = list(self)
        fields = self._fields
        if len(values) != len(fields):
            from . import _rules

            raise TypeError(
                _rules.wrong_size_message(type(self).__name__, len(values), len(fields))
            )
        try:
            for name in changes:  # noqa: PLC0206 - faster than unpacking .items()
                values[fields.index(name)] = changes[name]
        except ValueError:
            from . import _rules
            from ._compat import UNKNOWN_FIELD_ERROR

            unknown = [name for name in changes if name not in fields]
            raise UNKNOWN_FIELD_ERROR(_rules.unexpected_fields_message(unknown)) from None
        return _tuple_new(self.__class__, values)

    def __replace__(self, /, **changes: Any) -> Self:
        """Support ``copy.replace()`` (Python 3.13+)."""
        return self._replace(**changes)

    @c_twin
    def _asdict(self) -> dict[str, Any]:
        """Return a new dict which maps field names to their values."""
        return dict(zip(self._fields, self))

    def __getnewargs__(self) -> tuple[Any, ...]:
        """Return self as a plain tuple; used by copy and pickle."""
        return tuple(self)

    @c_twin
    def __reduce__(self) -> tuple[Any, ...]:
        """
        Pickle as made again by the class's ``__new__``, on every protocol,
        with the instance's attributes if it has any.
        """
        from copyreg import __newobj__  # type: ignore[attr-defined]  # not in typeshed

        cls = self.__class__
        if cls.__getnewargs__ is __class__.__getnewargs__:  # type: ignore[name-defined]
            values = tuple(self)
        else:
            values = self.__getnewargs__()
        state = getattr(self, "__dict__", None)
        if state:
            return (__newobj__, (cls, *values), state)
        return (__newobj__, (cls, *values))

    @c_twin
    def __copy__(self) -> Self:
        """Return a new record of the same class with the same items."""
        if not _copied_as_usual(self, __class__):  # type: ignore[name-defined]
            return _copy_by_reduce(self, None)  # type: ignore[no-any-return]
        return _tuple_new(self.__class__, self)

    @c_twin
    def __deepcopy__(self, memo: dict[int, Any] | None, /) -> Self:
        """Return a new record of deep copies of the items."""
        if not _copied_as_usual(self, __class__):  # type: ignore[name-defined]
            return _copy_by_reduce(self, memo)  # type: ignore[no-any-return]
        from copy import deepcopy

        items = [item if type(item) in _ATOMIC else deepcopy(item, memo) for item in self]
        if memo is None:
            return _tuple_new(self.__class__, items)
        # A copy made while copying the items (a record inside itself) is the copy.
        copied = memo.get(id(self))
        if copied is None:
            copied = memo[id(self)] = _tuple_new(self.__class__, items)
        return copied

    @c_twin
    def __sizeof__(self) -> int:
        """Size of the record in memory, in bytes."""
        return tuple.__sizeof__(self)

    @c_twin
    def __repr__(self) -> str:
        """Return ``Point(x=1, y=2)``: the class name and each field's repr."""
        key = (id(self), get_ident())
        if key in _repr_running:
            return "..."
        _repr_running.add(key)
        try:
            items = ", ".join([f"{name}={value!r}" for name, value in zip(self._fields, self)])
        finally:
            _repr_running.discard(key)
        return f"{self.__class__.__name__}({items})"

    def __rich_repr__(self) -> Iterable[Any] | None:
        """
        Lay the record out field by field in rich's pretty printer, as rich
        does for ``collections.namedtuple`` (unless the class defines its own
        ``__repr__``).
        """
        from ._interop import rich_repr

        return rich_repr(self, Record.__repr__)

    @classmethod
    def __get_pydantic_core_schema__(cls, source_type: Any, handler: Any) -> Any:
        """
        Give pydantic the schema of a named tuple with these fields, in which
        fields with a ``default_factory`` are optional.
        """
        from ._interop import pydantic_core_schema

        return pydantic_core_schema(cls, source_type, handler)

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


def _reduced_as_usual(record: Record, record_base: type[Record]) -> bool:
    """
    Tell whether *record* is pickled and copied as *record_base*'s methods
    make it: no ``__reduce__``, ``__reduce_ex__`` or ``__getnewargs__`` of
    its class's own, and nothing in its ``__dict__`` if it has one.
    """
    cls = record.__class__
    return (
        cls.__reduce__ is record_base.__reduce__
        and cls.__reduce_ex__ is object.__reduce_ex__
        and cls.__getnewargs__ is record_base.__getnewargs__
        and not getattr(record, "__dict__", None)
    )


def _copied_as_usual(record: Record, record_base: type[Record]) -> bool:
    """
    Tell whether ``copy`` would copy *record* item by item, were its class
    without ``__copy__``: pickled as usual (``_reduced_as_usual``) and no
    reducer for its class in ``copyreg``'s dispatch table, which ``copy``
    uses first.
    """
    from copyreg import dispatch_table

    return _reduced_as_usual(record, record_base) and type(record) not in dispatch_table


def _copy_by_reduce(record: Record, memo: dict[int, Any] | None) -> Any:
    """
    Copy *record* as ``copy`` copies an object without ``__copy__``: from
    ``copyreg``'s reducer for its class, else ``__reduce_ex__(4)``.
    """
    import copy
    from copyreg import dispatch_table

    reducer = dispatch_table.get(type(record))
    reduced = reducer(record) if reducer is not None else record.__reduce_ex__(4)
    if isinstance(reduced, str):
        return record
    return copy._reconstruct(record, memo, *reduced)  # type: ignore[attr-defined]


def install_c_builder(record: type[Record]) -> None:
    """
    Where the C accelerator is loaded, make ``record.__init_subclass__`` the C
    class builder (``records/_c/builder.h``), the C twin of the method
    defined above (kept in ``python_methods``). The same ``Builder`` builds
    the classes of ``records.namedtuple``: ``_namedtuple``, lower in the
    stack, finds it as ``_accelerator.builder``. It reads what it shares with
    the Python modules from them when a build first needs it, so making it
    here loads none of them.
    """
    if c is None:
        return
    builder = c.Builder(record)
    python_methods["__init_subclass__"] = record.__dict__["__init_subclass__"]
    type.__setattr__(record, "__init_subclass__", builder.init_subclass())
    _accelerator.builder = builder


install_c_builder(Record)
