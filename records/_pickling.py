"""
How the accessors of record fields, and the methods of ``records.namedtuple``
classes built in C, pickle, wherever their class is made.

With the C accelerator, every field of a record class is a member
descriptor (``records/_c/members.h``), and CPython pickles a
member descriptor as ``getattr(its class, its name)``. That works for a class
found by name, not for one rebuilt from its dict: cloudpickle, joblib and
dill rebuild a class that cannot be found by name (made in ``__main__``, in
a function, by ``Record.define``, shadowed by another of the same name, or
registered to pickle by value), and while they rebuild it, it has no such
attribute yet. So the accessor of a record field pickles as "field *index*
of this class" instead:

* ``install``, run as this module is imported, registers ``reduce_member``
  with ``copyreg``, which ``pickle``, ``copy`` and cloudpickle (joblib's
  too) consult before a type's own ``__reduce__``: a record's accessor
  becomes ``field_accessor(cls, name, index, doc)``, and any other member
  descriptor pickles as it always has.
  cloudpickle makes the class empty and then sets each attribute, so when
  ``field_accessor`` runs the class has no instance yet, and its accessors
  can be member descriptors again;
* dill dispatches member descriptors itself, before ``copyreg``, and makes
  a class pickled by value from its whole dict, accessors included, so that
  they must be pickled before the class exists: ``register_dill`` teaches it
  to pickle a record's accessor without its class, as the bounds-checked
  accessor of the same item, which ``_builder`` makes a member descriptor
  again while it builds the class (a class made from a record's own dict).
  records registers it when ``records`` is imported and whenever a record
  class is made, if dill is loaded by then.

Every accessor loaded is checked: a member descriptor is made only for a
class whose layout has room for the item (see the C header); otherwise the
bounds-checked accessor of ``_accessors`` stands in, which reads the same
item.

A ``records.namedtuple`` class built in C holds the methods records adds
to collections' (``__reduce_ex__``, ``__copy__``, ``__deepcopy__``,
``__rich_repr__``) in descriptors of its own
(``records/_c/namedtuple_methods.h``), which pickle as
``namedtuple_method(cls, name, fields)``: the method itself where the class
is found by name, and in a class rebuilt from its dict, what the pure path
gives a named tuple of those fields (the rebuilt class is a Python class, as
collections' is). Collections' own methods are Python functions there too,
which pickle as functions do. dill, which makes the class from its
dict, gets the pure path's function without the class (``register_dill``).
"""

from __future__ import annotations

import copyreg
import sys

from . import _accessors, _codegen
from ._accelerator import c as accelerator

#: Whether records makes fields member descriptors (see ``_builder``).
MEMBERS_ARE_FASTER = sys.version_info >= (3, 11)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class _Slot:
    __slots__ = ("slot",)


#: ``types.MemberDescriptorType``, without importing ``types``: the type of
#: a ``__slots__`` entry's accessor (on every interpreter).
_member_type: type = type(_Slot.__dict__["slot"])


def field_accessor(cls: type, name: str, index: int, doc: str | None) -> Any:
    """
    Return the accessor of item *index* of record class *cls*, field *name*:
    the one *cls* has if it is that, else a new one (what a pickled accessor
    loads as): a member descriptor where the layout of *cls* has room for the
    item (``accelerator.member``), else the bounds-checked accessor, so that
    an index beyond the fields of *cls* (a class changed since the pickle
    was made, or a crafted pickle) never grows its instances.
    """
    existing = cls.__dict__.get(name) if isinstance(cls, type) else None
    if accelerator is not None and existing is not None:
        found = accelerator.field(existing)
        if found is not None and found == (cls, index):
            return existing
    if (
        MEMBERS_ARE_FASTER
        and accelerator is not None
        and isinstance(cls, type)
        and (type(name) is str)
    ):
        try:
            return accelerator.member(cls, name, index, doc if type(doc) is str else "")
        except (TypeError, ValueError):  # no room for the item: the bounds-checked accessor
            pass
    return _accessors.accessor(index, doc)


#: What ``copyreg`` had for each type ``install`` registered, if anything;
#: kept across ``importlib.reload`` of this module, which runs it again.
_previous_reducers: dict[type, Callable[[Any], Any] | None] = globals().get(
    "_previous_reducers", {}
)


def _as_before(descriptor: Any) -> Any:
    """Reduce *descriptor* as ``copyreg`` or the object itself did before ``install``."""
    previous = _previous_reducers.get(type(descriptor))
    if previous is not None:
        return previous(descriptor)
    return descriptor.__reduce__()


def _importable() -> None:
    """
    Put records' modules whose functions pickles name back in ``sys.modules``
    if code that restores ``sys.modules`` (``mock.patch.dict``, a test
    runner's sandbox) took them out after loading them: pickle finds those
    functions by name, and a fresh import would give other objects.
    """
    for module in (_this_module, _codegen, _accessors):
        sys.modules.setdefault(module.__name__, module)


def reduce_member(descriptor: Any) -> Any:
    """
    Reduce *descriptor*, a member descriptor, for ``pickle`` and ``copy``: as
    ``field_accessor`` for the accessor of a record field, else as before.
    """
    found = accelerator.field(descriptor) if accelerator is not None else None
    if found is None:
        return _as_before(descriptor)
    cls, index = found
    _importable()
    return field_accessor, (cls, descriptor.__name__, index, descriptor.__doc__)


def namedtuple_method(cls: type, name: str, fields: tuple[str, ...]) -> Any:
    """
    Return method *name* of ``records.namedtuple`` class *cls*, of *fields*
    (what a pickled method loads as): the one *cls* has if records built it,
    else, for a class being rebuilt from its dict, the pure path's.
    """
    existing: Any = cls.__dict__.get(name) if isinstance(cls, type) else None
    if type(existing) in _method_types and existing.__objclass__ is cls:
        return existing
    from . import _namedtuple  # here: a record class statement loads this module

    # Pickled by an earlier records, whose C classes held these in descriptors.
    function = getattr(existing, "__func__", existing)
    if getattr(function, "__code__", None) in _namedtuple.TEMPLATE_CODES:
        return existing

    return _namedtuple.pure_method(str(getattr(cls, "__name__", name)), tuple(fields), name)


#: The type of the descriptors of the methods records adds to a
#: ``records.namedtuple`` class, in C.
_method_types: tuple[type, ...] = () if accelerator is None else (accelerator.NamedTupleMethod,)


def _register(kind: type, reducer: Callable[[Any], Any]) -> None:
    current = copyreg.dispatch_table.get(kind)
    if current is not reducer:
        # The reducer of an earlier load of this module (importlib.reload)
        # is not the one to fall back on: what it fell back on is.
        if getattr(current, "__module__", None) != __name__:
            _previous_reducers[kind] = current
        copyreg.pickle(kind, reducer)


def install() -> None:
    """Register ``reduce_member`` with ``copyreg``, and with dill if it is loaded."""
    if accelerator is None:
        return
    _register(_member_type, reduce_member)
    register_dill()


class PurePathNew(staticmethod):  # type: ignore[type-arg]
    """
    A record's ``__new__`` on the pure path: pickled and copied as the plain
    ``staticmethod`` it is, after telling dill, if it is loaded, how to
    pickle the function (a class pickled by value is pickled from its dict,
    where ``__new__`` comes first), as the C constructor does.
    """

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        if "dill._dill" in sys.modules:
            register_dill()
        return staticmethod, (self.__func__,)


#: Whether dill's handlers are wrapped already.
_dill_registered = False


def register_dill() -> bool:
    """
    If dill is loaded, make it pickle a record's ``__new__``, accessor, and
    a method of a ``records.namedtuple`` class built in C, without its class
    or module where it pickles the class by value; return whether it is done.
    """
    global _dill_registered
    if _dill_registered:
        return True
    dill = sys.modules.get("dill._dill")
    dispatch = getattr(getattr(dill, "Pickler", None), "dispatch", None)
    if dispatch is None:
        return False
    original = dispatch.get(_member_type)
    save_function = dispatch.get(_codegen.function_type)
    locate_function = getattr(dill, "_locate_function", None)

    def save_generated_new(pickler: Any, function: Any) -> None:
        if (
            save_function is None
            or not _codegen.is_generated_new(function)
            or (locate_function is not None and locate_function(function, pickler))
        ):
            if save_function is None:
                return pickler.save_global(function)  # type: ignore[no-any-return]
            return save_function(pickler, function)  # type: ignore[no-any-return]
        # By value: its globals are its module's, which dill would pickle
        # as an import of that module; rebuilt from its parts, it gets its
        # module's namespace where that is imported.
        _importable()
        return pickler.save_reduce(  # type: ignore[no-any-return]
            _codegen.rebuilt_new, _codegen.new_parts(function), obj=function
        )

    def save_member_descriptor(pickler: Any, descriptor: Any) -> None:
        found = accelerator.field(descriptor) if accelerator is not None else None
        in_progress = getattr(pickler, "_postproc", None)
        if found is None or original is None or in_progress is None:
            if original is not None:
                return original(pickler, descriptor)  # type: ignore[no-any-return]
            return pickler.save_reduce(*descriptor.__reduce__(), obj=descriptor)  # type: ignore[no-any-return]
        cls, index = found
        if id(cls) not in in_progress:  # its class is pickled by name: as dill does
            return original(pickler, descriptor)  # type: ignore[no-any-return]
        # The class is being pickled from its dict: it does not exist yet
        # when this loads, and _builder makes a member descriptor of this.
        _importable()
        return pickler.save_reduce(  # type: ignore[no-any-return]
            _accessors.accessor, (index, descriptor.__doc__), obj=descriptor
        )

    def save_namedtuple_method(pickler: Any, descriptor: Any) -> None:
        cls = descriptor.__objclass__
        in_progress = getattr(pickler, "_postproc", None)
        if in_progress is None or id(cls) not in in_progress:  # by name, or not dill's own
            return pickler.save_reduce(*descriptor.__reduce__(), obj=descriptor)  # type: ignore[no-any-return]
        # The class is being pickled from its dict: the pure path's method,
        # which the class it makes, a Python class, can take.
        _, (_, name, fields) = descriptor.__reduce__()
        from ._namedtuple import pure_method

        return pickler.save_reduce(  # type: ignore[no-any-return]
            pure_method, (cls.__name__, fields, name), obj=descriptor
        )

    dispatch[_codegen.function_type] = save_generated_new
    if accelerator is not None:
        dispatch[_member_type] = save_member_descriptor
        for kind in _method_types:
            dispatch[kind] = save_namedtuple_method
    _dill_registered = True
    return True


#: This module, as loaded: what ``_importable`` puts back.
_this_module = sys.modules[__name__]

# Where fields are member descriptors, they pickle as above from the start.
install()
