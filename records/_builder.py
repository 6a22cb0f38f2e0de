"""
The class builder: what ``Record.__init_subclass__`` does to a new class.

This is the reference. The C accelerator builds the common class statement
itself (``build_record()`` in ``records/_c/builder.h``), in the same steps
under the same names, and leaves everything else, every definition error
included, to this module:

1. ``init_subclass`` (all ``Record.__init_subclass__`` does) calls
   ``_sealing.seal_if_safe``: the instance layout is decided and changed
   first, before records runs code that could hand the class out; then
   ``finish`` runs the mixins' hooks and ``build``;
2. ``compute_parts``: every attribute the class needs, computed and checked
   (``collect_fields`` for the fields it declares, ``make_new`` for its
   constructor) into a ``Parts``, with nothing written yet; a definition
   error raises here;
3. ``write_parts``: the parts into the class, then the C constructor where
   the accelerator is loaded.
"""

from __future__ import annotations

import sys

from . import _annotations, _codegen, _layout, _pickling, _rules, _sealing
from ._accelerator import c as accelerator
from ._accessors import accessor, default_docs
from ._annotations import own_annotations
from ._codegen import make_new as _make_new_function
from ._compat import is_classvar
from ._fields import FACTORY, MISSING, Field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from types import FunctionType
    from typing import Any

    from ._record import Record

#: Whether member descriptors read faster than ``_tuplegetter`` here.
MEMBERS_ARE_FASTER = sys.version_info >= (3, 11)

# Field names already checked by check_field_name. Names repeat across a
# program's records, so most checks become one set lookup; the set is emptied
# when it grows large, and set.add is atomic. Only exact str objects enter it:
# a str subclass could answer a lookup with its own __hash__ and __eq__.
_valid_names: set[str] = set()


class Parts:
    """What ``compute_parts`` finds for a class, before anything is written."""

    __slots__ = (
        "accessors",
        "defaults",
        "doc",
        "factories",
        "factories_by_name",
        "names",
        "new",
        "new_defaults",
        "own",
    )

    def __init__(self, inherited: tuple[str, ...]) -> None:
        #: Every field name, inherited ones first.
        self.names = inherited
        #: The names this class declares, and their accessors.
        self.own: list[str] = []
        self.accessors: list[Any] = []
        #: ``_field_defaults``: plain defaults by name.
        self.defaults: dict[str, Any] = {}
        #: The constructor's ``__defaults__`` (``FACTORY`` for a factory).
        self.new_defaults: list[Any] = []
        #: The constructor's factories by field index, and by name when the
        #: class declares any (``__record_factories__``).
        self.factories: dict[int, Callable[[], Any]] = {}
        self.factories_by_name: dict[str, Callable[[], Any]] | None = None
        #: The ``__new__`` to set, unless the body defines one.
        self.new: Any = None
        #: The default ``__doc__``, unless the body has one.
        self.doc: str | None = None


def init_subclass(cls: type[Record], record_base: type[Record], keywords: dict[str, Any]) -> None:
    """
    ``Record.__init_subclass__`` for the new class *cls*: the layout first
    (``_sealing.seal_if_safe``), so that mixins' hooks and anything else that
    sees the class can only make instances of its final layout; then
    ``finish``. Meanwhile *cls* is marked as being built
    (``_layout.begin_build``): only then may ``_layout`` change it.
    """
    call = _layout.begin_build(cls)
    try:
        sealed = _sealing.seal_if_safe(cls, record_base, first=call == _layout.CALL_FIRST)
        finish(cls, record_base, sealed, keywords)
    finally:
        _layout.end_build(cls, call)


def finish(
    cls: type[Record], record_base: type[Record], sealed: bool, keywords: dict[str, Any]
) -> None:
    """
    Run the rest of ``Record.__init_subclass__`` once the layout is decided:
    the next ``__init_subclass__`` in the MRO (a mixin's), then ``build``.
    """
    # When Record, tuple and object end the MRO, the next __init_subclass__
    # is object's, which does nothing without keywords: skip the call.
    if keywords or cls.__mro__[-3] is not record_base:
        super(record_base, cls).__init_subclass__(**keywords)
    build(cls, record_base, sealed=sealed)


def build(cls: type[Record], record_base: type[Record], *, sealed: bool) -> None:
    """
    Turn the freshly created class *cls*, a subclass of *record_base*
    (``Record``), into a record type; *sealed* says whether ``seal_if_safe``
    removed its instance dict.

    This runs for every record class statement, so it is written for speed:
    one pass over the annotations that validates each field and collects
    everything the constructor needs; messages are built only on error paths.
    """
    if "_fields" in cls.__dict__ and is_rebuilt(cls, record_base):
        # Made again from a record class's own dict (as dill loads a class
        # pickled by value): it already has every part.
        _codegen.adopt(getattr(cls.__dict__["__new__"], "__func__", None), cls)
        _layout.write(cls, {"__record_built__": True})
        if not sealed and not _sealing.is_enum(cls):
            _sealing.forbid_attribute_changes(cls)
        if accelerator is not None:
            if MEMBERS_ARE_FASTER and accelerator.building(cls):
                _layout.write(cls, member_accessors(cls, record_base))
            accelerator.enable(cls)
        return
    parts = compute_parts(cls, record_base, sealed=sealed)
    write_parts(parts, cls, sealed=sealed)
    if "dill._dill" in sys.modules:
        _pickling.register_dill()


def build_declined(cls: type[Record], record_base: type[Record]) -> None:
    """``build`` for a class the C builder sealed (or not) and then declined."""
    build(cls, record_base, sealed=_sealing.is_sealed(cls))


def is_rebuilt(cls: type[Record], record_base: type[Record]) -> bool:
    """
    Tell whether the body of *cls* is the dict of a record class built before:
    its computed names and accessors are the ones ``build`` would make.
    """
    namespace = cls.__dict__
    names = namespace["_fields"]
    if (
        type(names) is not tuple
        or not all(type(name) is str for name in names)
        or not isinstance(namespace.get("_field_defaults"), dict)
        or "__new__" not in namespace
    ):
        return False
    inherited = _fields_source(cls, record_base)._fields
    own = tuple(
        name
        for name, annotation in own_annotations(cls).items()
        if annotation.__class__ is type or not is_classvar(annotation)
    )
    if names != (*inherited, *own):
        return False
    probe = tuple(range(len(names)))  # the accessor of field i reads item i
    for index, name in enumerate(own, len(inherited)):
        accessor_ = namespace.get(name)
        getter = getattr(type(accessor_), "__get__", None)
        if getter is None or not hasattr(type(accessor_), "__set__"):
            return False
        try:
            if getter(accessor_, probe, tuple) != index:
                return False
        except Exception:
            return False
    return True


def member_accessors(cls: type[Record], record_base: type[Record]) -> dict[str, Any]:
    """
    Return the accessor of each field *cls* declares, a member descriptor
    where ``field_accessor`` makes one, for the rebuilt class *cls* being
    built (whose accessors ``is_rebuilt`` checked), with the docs of the
    accessors it has.
    """
    names = cls._fields
    first = len(_fields_source(cls, record_base)._fields)
    namespace = cls.__dict__
    return {
        name: field_accessor(cls, name, index, namespace[name].__doc__ or "", members=True)
        for index, name in enumerate(names[first:], first)
    }


def compute_parts(cls: type[Record], record_base: type[Record], *, sealed: bool) -> Parts:
    """Compute and check everything *cls* needs, without changing it."""
    record = cls.__name__
    namespace = cls.__dict__
    if (
        "_fields" in namespace
        or "_field_defaults" in namespace
        or "__record_factories__" in namespace
    ):
        name = min(_rules.COMPUTED_NAMES.intersection(namespace))
        raise TypeError(_rules.computed_name_message(record, name))
    if any("__post_init__" in klass.__dict__ for klass in cls.__mro__):
        raise TypeError(_rules.post_init_message(record))
    if "__init__" in namespace:
        raise TypeError(_rules.init_message(record))
    bases = cls.__bases__
    source: type[Record]
    if len(bases) == 1 and (bases[0] is record_base or "_fields" in bases[0].__dict__):
        source = bases[0]  # the common case: one record base that declared fields
    else:
        source = _fields_source(cls, record_base)
    parts = Parts(source._fields)
    annotations = own_annotations(cls)
    if annotations:
        # A class being built as a record (seal_if_safe prepared it) is
        # sealed. Its fields read faster as member descriptors from 3.11 on
        # (attribute reads are specialised); on 3.10, _tuplegetter is faster.
        members = MEMBERS_ARE_FASTER and accelerator is not None and accelerator.building(cls)
        collect_fields(parts, cls, source, annotations, members=members)
    if parts.own:
        parts.names = (*source._fields, *parts.own)
        if parts.factories_by_name is not None:
            parts.factories_by_name = {
                **source.__record_factories__,
                **{parts.names[index]: factory for index, factory in parts.factories.items()},
            }
        if "__new__" not in namespace:
            parts.new = make_new(parts, cls, source, annotations, record_base)
    if "__doc__" not in namespace or namespace["__doc__"] is None:
        parts.doc = f"{record}({', '.join(parts.names)})"
    return parts


def collect_fields(
    parts: Parts,
    cls: type[Record],
    source: type[Record],
    annotations: dict[str, Any],
    *,
    members: bool,
) -> None:
    """
    Check the fields *cls* declares in *annotations*, and make their parts;
    their accessors are member descriptors if *members* (see the C
    accelerator), else bounds-checked accessors.

    Each annotation goes through the same steps as in C (``collect_fields()``
    in ``records/_c/builder.h``): a ``ClassVar`` is skipped; the name is
    checked (``check_field_name``) and must not be inherited; a default is
    taken (``add_default``, or ``add_field_spec`` for ``field(...)``) or
    must not follow one; then its accessor is made (``field_accessor``).
    """
    record = cls.__name__
    namespace = cls.__dict__
    inherited = source._fields
    inherited_defaults = source._field_defaults
    inherited_factories = source.__record_factories__
    parts.defaults = dict(inherited_defaults)
    previous_default = None
    if inherited_defaults or inherited_factories:
        parts.new_defaults, parts.factories = _constructor_defaults(
            inherited, inherited_defaults, inherited_factories
        )
        previous_default = inherited[-1]
    index = len(inherited)
    docs = default_docs(index + len(annotations))
    for name, annotation in annotations.items():
        if _may_be_classvar(annotation) and is_classvar(annotation):
            continue
        if type(name) is not str or name not in _valid_names:
            check_field_name(record, name)
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
                previous_default = add_default(parts, record, name, value)
            else:
                previous_default = add_field_spec(
                    parts, record, name, index, value, previous_default
                )
                if value.doc is not None:
                    doc = value.doc
        parts.accessors.append(field_accessor(cls, name, index, doc, members=members))
        parts.own.append(name)
        index += 1


def add_default(parts: Parts, record: str, name: str, value: object) -> str:
    """
    Take *value*, given in the class body, as the default of field *name*
    (refusing the defaults records cannot take as they are); return *name*,
    now the last field with a default.
    """
    if isinstance(value, _rules.MUTABLE_DEFAULT_TYPES):
        raise ValueError(_rules.mutable_default_message(record, name, value))
    if value.__class__.__name__ in _rules.FOREIGN_FIELD_NAMES:
        message = _rules.foreign_field_message(record, name, value)
        if message is not None:
            raise TypeError(message)
    parts.defaults[name] = value
    parts.new_defaults.append(value)
    return name


def _may_be_classvar(annotation: object) -> bool:
    """Tell cheaply whether *annotation* could be a ``ClassVar`` (a class is not)."""
    kind = annotation.__class__
    return kind is not type and (kind is not str or "ClassVar" in annotation)  # type: ignore[operator]


def field_accessor(cls: type[Record], name: str, index: int, doc: str, *, members: bool) -> Any:
    """
    Return the accessor of field *name*: a member descriptor if *members*
    and the layout of *cls* has room for item *index* (its fields so far,
    and the next: ``accelerator.member``), unless *doc* holds a NUL, which
    the member's C string would cut off; else the bounds-checked accessor.
    A field of either kind gets its room, as in C, so that the next fits.
    """
    if members and accelerator is not None:
        whole = "\x00" not in doc
        try:
            member = accelerator.member(cls, name, index, doc if whole else "")
        except ValueError:  # beyond the room a base left: the bounds-checked accessor
            pass
        else:
            if whole:
                return member
    return accessor(index, doc)


def add_field_spec(
    parts: Parts, record: str, name: str, index: int, spec: Field, previous_default: str | None
) -> str | None:
    """
    Take the default of field *name* given as ``field(...)`` *spec*; return
    the name of the last field with a default so far.
    """
    default, factory = spec.default, spec.default_factory
    if spec.doc is not None and not isinstance(spec.doc, str):
        raise TypeError(_rules.doc_not_str_message(record, name, spec.doc))
    if factory is not MISSING:
        if default is not MISSING:
            raise TypeError(_rules.default_and_factory_message(record, name))
        if not callable(factory):
            raise TypeError(_rules.factory_not_callable_message(record, name, factory))
        parts.factories[index] = factory
        parts.new_defaults.append(FACTORY)
        if parts.factories_by_name is None:
            parts.factories_by_name = {}
        return name
    if default is not MISSING:
        if isinstance(default, _rules.MUTABLE_DEFAULT_TYPES):
            raise ValueError(_rules.mutable_default_message(record, name, default))
        parts.defaults[name] = default
        parts.new_defaults.append(default)
        return name
    if previous_default is not None:
        raise TypeError(_rules.field_order_message(record, name, previous_default))
    return None


def make_new(
    parts: Parts,
    cls: type[Record],
    source: type[Record],
    annotations: dict[str, Any],
    record_base: type[Record],
) -> Any:
    """Return the ``__new__`` of *cls* (a ``staticmethod``, or the C constructor)."""
    function = _make_new_function(
        parts.names,
        tuple(parts.new_defaults) or None,
        parts.factories,
        qualname=f"{cls.__qualname__}.__new__",
        module=cls.__module__,
        owner=cls,
    )
    if _annotations.is_deferred(cls):
        # Read from the classes when asked, as deferred annotations are (3.14+).
        function.__annotate__ = _annotations.new_annotate(cls)  # type: ignore[attr-defined,unused-ignore]
    elif source._fields:
        function.__annotations__ = field_types(source, record_base)
        function.__annotations__.update((name, annotations[name]) for name in parts.own)
    elif len(parts.own) == len(annotations):
        function.__annotations__ = dict(annotations)
    else:
        function.__annotations__ = {name: annotations[name] for name in parts.own}
    if accelerator is not None:
        return accelerator.constructor(function, parts.names, parts.factories, FACTORY)
    return _pickling.PurePathNew(function)


def write_parts(parts: Parts, cls: type[Record], *, sealed: bool) -> None:
    """Write *parts* into *cls*, in the order the C builder writes them."""
    attributes: dict[str, Any] = {}
    if parts.new is not None:
        attributes["__new__"] = parts.new  # before the accessors: see _pickling
    attributes.update(zip(parts.own, parts.accessors))
    if parts.own:
        attributes["_fields"] = parts.names
        attributes["_field_defaults"] = parts.defaults
        if parts.factories_by_name is not None:
            attributes["__record_factories__"] = parts.factories_by_name
        if "__match_args__" not in cls.__dict__:
            attributes["__match_args__"] = parts.names
    if parts.doc is not None:
        attributes["__doc__"] = parts.doc
    attributes["__record_built__"] = True  # last, as the C builder writes it
    _layout.write(cls, attributes)
    if not sealed and not _sealing.is_enum(cls):
        _sealing.forbid_attribute_changes(cls)
    if accelerator is not None:
        accelerator.enable(cls)


def check_field_name(record: str, name: object) -> None:
    """Raise ``ValueError`` unless *name* can name a field of *record*."""
    message = _rules.invalid_name_message(record, name)
    if message is not None:
        raise ValueError(message)
    if type(name) is str:
        if len(_valid_names) > 4096:
            _valid_names.clear()
        _valid_names.add(name)


def _fields_source(cls: type[Record], record_base: type[Record]) -> type[Record]:
    """
    Return the class in *cls*'s MRO that its inherited fields come from.

    That is the nearest record class that declared fields, or ``Record``. Any
    other record base that declares fields must be one of its ancestors, and
    no base may be another kind of named tuple.
    """
    source: type[Record] = record_base
    for klass in cls.__mro__[1:]:
        fields = klass.__dict__.get("_fields")
        if not fields:
            continue
        if not issubclass(klass, record_base):
            if issubclass(klass, tuple):
                msg = _rules.named_tuple_base_message(cls.__name__, klass.__name__)
                raise TypeError(msg)
            continue
        if source is record_base:
            source = klass
        elif not issubclass(source, klass):
            msg = _rules.two_record_bases_message(cls.__name__, source.__name__, klass.__name__)
            raise TypeError(msg)
    return source


def _declaring_class(source: type[Record], name: str) -> type[Record]:
    """Return the class in *source*'s MRO whose body declared field *name*."""
    for klass in source.__mro__:
        if name in own_annotations(klass):
            return klass
    return source  # pragma: no cover - every inherited field was declared somewhere


def field_types(source: type[Record], record_base: type[Record]) -> dict[str, Any]:
    """Return the annotation of every field of *source*, by name."""
    types: dict[str, Any] = {}
    for klass in reversed(source.__mro__):
        if issubclass(klass, record_base) and klass is not record_base:
            annotations = own_annotations(klass)
            types.update(
                (name, annotations[name]) for name in annotations if name in source._fields
            )
    return types


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


def constructor_for(cls: type[Record]) -> FunctionType:
    """
    Return a ``__new__`` taking the fields of *cls*, for ``Record.__new__``.

    Classes with fields get theirs from ``build``; this slower path serves
    ``super().__new__`` from a ``__new__`` written in a record's body.
    """
    names = cls._fields
    new_defaults, new_factories = _constructor_defaults(
        names, cls._field_defaults, cls.__record_factories__
    )
    return _make_new_function(
        names,
        tuple(new_defaults) or None,
        new_factories,
        qualname=f"{cls.__qualname__}.__new__",
        module=cls.__module__,
        owner=cls,
    )
