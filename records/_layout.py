"""
Give instances of a record class the memory layout of a plain tuple.

A class statement without ``__slots__`` gives every instance a ``__dict__``:
8 more bytes per instance on CPython 3.10 and 3.11, 16 more from 3.12 on, and
arbitrary attributes can be set. ``Record`` has no metaclass, so it cannot put
``__slots__ = ()`` into the namespace before the class exists. Instead the new
type object is edited into exactly what CPython builds for ``__slots__ = ()``:

* 3.10, 3.11: ``tp_basicsize`` gives back the dict pointer's bytes and
  ``tp_dictoffset`` becomes 0;
* 3.12 to 3.15: ``Py_TPFLAGS_MANAGED_DICT`` is cleared and ``tp_dictoffset``
  becomes 0 (the managed dict lived in a pre-header, not in ``tp_basicsize``);
* then ``tp_getset`` is cleared and the ``__dict__`` descriptor is removed
  from the type's dict; a final ``type.__setattr__`` runs ``PyType_Modified``,
  which drops cached lookups.

An instance made before the edit would keep the old layout and be freed with
the new one (a leaked dict on 3.10 and 3.11, a corrupted heap from 3.12 on).
So ``seal`` is called only where no instance of *cls* can exist yet: first
thing in ``Record.__init_subclass__``, before records runs any Python code,
and only when no code but CPython's own has had the class before (the
builders decide; see ``_sealing.may_seal``). No other code can tell that a
class has no instance, so where they change a class behind CPython's back,
``seal`` and ``write`` change only one that records is building, which the
builders mark (``begin_build``, ``layout_decided``, ``end_build``), and
refuse any other with a ``TypeError``: ``seal`` only before the layout of
the class is decided, in the first call of ``Record.__init_subclass__`` on
it, and ``write`` until the call ends. (Where the layout cannot be changed,
``seal`` only tells and ``write`` sets attributes the ordinary way.)

Safety of the edit itself: nothing is written unless (1) the interpreter is a
CPython version listed here (with the GIL or free-threaded, whose larger
object header the view accounts for); (2) at first use, the ctypes
view of ``PyTypeObject`` reads back the values Python reports for several
known types; (3) patching a probe class gives a class whose instances have
exactly a tuple's size and no ``__dict__``; and (4) the class being patched
differs from its base by exactly the dict CPython added. Where any check
fails, ``seal`` returns ``False`` and the caller keeps the dict slot and
forbids setting attributes instead.

With the C accelerator (``records._accelerator_c``), the same edit and checks
are made in C, and ``_ctypes`` is not imported at all. Otherwise only
``_ctypes``, the C half of ``ctypes``, is imported, and only when the first
record class is made: ``import ctypes`` costs about 1.7 ms here, most of it in
``ctypes/__init__.py``, against about 0.3 ms for ``_ctypes``. The three C
types needed are declared here the way ``ctypes`` declares them.
"""

from __future__ import annotations

import sys
from _thread import allocate_lock
from _weakref import ref as _weak_reference

from ._accelerator import c as accelerator
from ._compat import CPYTHON

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    #: (seal, write) for this interpreter.
    _Sealer = tuple[Callable[[type], bool], Callable[[type, dict[str, object]], None]]
    from typing import Any

# Py_TPFLAGS_MANAGED_DICT (Include/object.h, 3.12 to 3.15).
_MANAGED_DICT = 1 << 4

#: Versions whose type layout the patch was written and tested for (the
#: ``PyTypeObject`` fields up to ``tp_dictoffset`` and the flags are the same
#: from 3.12 to 3.15). An unknown version falls back until it is checked.
SUPPORTED_VERSIONS = {
    (3, 10): "dictoffset",
    (3, 11): "dictoffset",
    (3, 12): "managed",
    (3, 13): "managed",
    (3, 14): "managed",
    (3, 15): "managed",
}

_lock = allocate_lock()
#: (seal, write) where the layout can be changed, resolved at first use.
_sealer: _Sealer | None = None
_resolved = False


def seal(cls: type) -> bool:
    """
    Remove the per-instance ``__dict__`` CPython gave the new class *cls*.

    Returns ``True`` when instances of *cls* have no ``__dict__`` (already or
    now), ``False`` when the layout could not be changed safely here. The
    caller must know that no instance of *cls* exists yet (see above).
    """
    _check_changeable(cls, "seal")
    sealer = _sealer if _resolved else _resolve()
    if sealer is not None:
        if accelerator is None:  # the C seal checks the mark itself
            _check_being_built(cls, "seal", deciding=True)
        return sealer[0](cls)
    # Not every interpreter has __dictoffset__ (PyPy has not): unknown means
    # "may have a dict", and the caller then forbids setting attributes.
    return getattr(cls, "__dictoffset__", None) == 0


def write(cls: type, attributes: dict[str, object]) -> None:
    """
    Set *attributes* on the new record class *cls*.

    Where the patch applies, *attributes* but one go straight into the type's
    dict, and the last through ``type.__setattr__``, which also calls
    ``PyType_Modified`` (instead of one ``type.__setattr__`` each). That
    skips only ``type.__setattr__``'s slot updates, so *attributes* must not
    hold names backed by a type slot, except ``__doc__`` and
    ``__new__`` on a class that inherits a ``__new__`` written in Python (its
    ``tp_new`` already looks ``__new__`` up at each call).
    """
    _check_changeable(cls, "write")
    sealer = _sealer if _resolved else _resolve()
    if sealer is not None:
        if accelerator is None:  # the C write checks the mark itself
            _check_being_built(cls, "write", deciding=False)
        sealer[1](cls, attributes)
    else:
        _set_one_by_one(cls, attributes)


#: ``Py_TPFLAGS_IMMUTABLETYPE`` and ``Py_TPFLAGS_HEAPTYPE``.
_IMMUTABLE_TYPE = 1 << 8
_HEAP_TYPE = 1 << 9


def _check_changeable(cls: object, function: str) -> None:
    """
    Refuse what ``seal`` and ``write`` may not change in place: anything
    but a tuple subclass made by a class statement (a built-in or static type
    lives in the interpreter's own memory).
    """
    if not (
        isinstance(cls, type)
        and issubclass(cls, tuple)
        and cls is not tuple
        # CPython's flags; other interpreters have no static types to protect.
        and (not CPYTHON or (cls.__flags__ & _HEAP_TYPE and not cls.__flags__ & _IMMUTABLE_TYPE))
    ):
        msg = f"{function}() needs a tuple subclass made by a class statement, not {cls!r}"
        raise TypeError(msg)


#: What ``begin_build`` returns: the first call of ``Record.__init_subclass__``
#: on a class (its layout is to be decided), a later one, or one inside a
#: call under way (which leaves the mark alone).
CALL_FIRST, CALL_AGAIN, CALL_NESTED = 0, 1, 2

# The marks: the layout is to be decided, it is decided, the call is over.
_DECIDING, _BUILDING, _DONE = "deciding", "building", "done"
#: The build mark of each class ``begin_build`` has seen, by its id (with
#: the C accelerator, its own functions keep the mark on the class); and a
#: weak reference to the class, whose callback drops both when the class
#: goes, before its id can be another's.
_marks: dict[int, str] = {}
_references: dict[int, object] = {}


def _forgetting(key: int) -> Callable[[object], None]:
    """Return the callback of the weak reference to the class of id *key*."""

    def forget(reference: object) -> None:
        _marks.pop(key, None)
        _references.pop(key, None)

    return forget


def _begin_build(cls: type) -> int:
    """
    Mark *cls* as being built by a call of ``Record.__init_subclass__`` that
    begins; return which call it is (``CALL_FIRST``, ``CALL_AGAIN``,
    ``CALL_NESTED``), for ``end_build``.
    """
    _check_changeable(cls, "begin_build")
    key = id(cls)
    mark = _marks.get(key)
    if mark is None:
        _references[key] = _weak_reference(cls, _forgetting(key))
        _marks[key] = _DECIDING
        return CALL_FIRST
    if mark == _DONE:
        _marks[key] = _BUILDING
        return CALL_AGAIN
    return CALL_NESTED


def _layout_decided(cls: type) -> None:
    """Mark the layout of *cls*, being built, as decided: ``seal`` no longer changes it."""
    key = id(cls)
    if _marks.get(key) == _DECIDING:
        _marks[key] = _BUILDING


def _end_build(cls: type, call: int) -> None:
    """End the call of ``Record.__init_subclass__`` for which ``begin_build`` returned *call*."""
    key = id(cls)
    if call != CALL_NESTED and _marks.get(key) in (_DECIDING, _BUILDING):
        _marks[key] = _DONE


def _check_being_built(cls: type, function: str, *, deciding: bool) -> None:
    """
    Refuse a class that records is not building (or, if *deciding*, whose
    layout it is not deciding): only the builders can tell that it has no
    instance.
    """
    mark = _marks.get(id(cls))
    if mark == _DECIDING or (mark == _BUILDING and not deciding):
        return
    when = ", before its layout is decided," if deciding else ","
    msg = f"{function}() needs a record class being built{when} not {cls!r}"
    raise TypeError(msg)


# With the C accelerator, its twins keep the mark on the class (records/_c/layout.h).
#: ``begin_build(cls)``, ``layout_decided(cls)``, ``end_build(cls, call)``:
#: the build mark, set by the builders.
begin_build: Callable[[type], int] = (
    accelerator.begin_build if accelerator is not None else _begin_build
)
layout_decided: Callable[[type], None] = (
    accelerator.layout_decided if accelerator is not None else _layout_decided
)
end_build: Callable[[type, int], None] = (
    accelerator.end_build if accelerator is not None else _end_build
)


def _set_one_by_one(cls: type, attributes: dict[str, object]) -> None:
    """Set *attributes* through ``type.__setattr__``."""
    for name, value in attributes.items():
        setattr(cls, name, value)


def supported() -> bool:
    """Return whether this interpreter can drop the instance dict."""
    return (_sealer if _resolved else _resolve()) is not None


def _resolve() -> _Sealer | None:
    global _sealer, _resolved
    with _lock:
        if not _resolved:
            _sealer = _build_sealer()
            _resolved = True
    return _sealer


def _build_sealer() -> _Sealer | None:
    strategy = SUPPORTED_VERSIONS.get(sys.version_info[:2])
    if not CPYTHON or strategy is None:
        return None
    if accelerator is not None:
        return accelerator.seal, accelerator.write  # the same checks, in C
    try:
        return _make_sealer(strategy)
    except Exception:  # pragma: no cover - any surprise means "do not patch"
        return None


def _make_sealer(strategy: str) -> _Sealer | None:  # noqa: PLR0915
    import _ctypes
    import gc

    # Declared as ctypes/__init__.py declares c_long, c_longlong, c_void_p and
    # c_ulong; Py_ssize_t is whichever signed integer has a pointer's size.
    simple = _ctypes._SimpleCData
    c_long: Any = type("c_long", (simple,), {"_type_": "l"})
    c_longlong: Any = type("c_longlong", (simple,), {"_type_": "q"})
    c_ptr: Any = type("c_void_p", (simple,), {"_type_": "P"})
    c_ulong: Any = type("c_ulong", (simple,), {"_type_": "L"})
    c_ssize = c_long if _ctypes.sizeof(c_long) == _ctypes.sizeof(c_ptr) else c_longlong
    pointer_size = _ctypes.sizeof(c_ptr)
    slot_names = (
        "tp_getattr tp_setattr tp_as_async tp_repr tp_as_number tp_as_sequence "
        "tp_as_mapping tp_hash tp_call tp_str tp_getattro tp_setattro tp_as_buffer"
    ).split()
    after_weaklist = (
        "tp_iter tp_iternext tp_methods tp_members tp_getset tp_base tp_dict "
        "tp_descr_get tp_descr_set"
    ).split()

    # The object header is the pointer-sized words before ob_type: ob_refcnt
    # alone with the GIL; ob_tid, the local reference count and its flags,
    # and ob_ref_shared on a free-threaded build (PEP 703). object() is a
    # bare header, so its size tells them apart.
    header = [f"ob_word{index}" for index in range(object.__basicsize__ // pointer_size - 1)]
    head = [*header, "ob_type", "ob_size"]
    head += "tp_name tp_basicsize tp_itemsize tp_dealloc tp_vectorcall_offset".split()
    after_flags = "tp_doc tp_traverse tp_clear tp_richcompare tp_weaklistoffset".split()
    # The head of CPython's PyTypeObject, up to tp_dictoffset. Every field
    # takes a pointer's size: each is a pointer or a Py_ssize_t, but tp_flags,
    # an unsigned long, which the pointer after it pads where a long is
    # smaller. (No ctypes.Structure: from 3.14, defining one imports ctypes.)
    names = [*head, *slot_names, "tp_flags", *after_flags, *after_weaklist, "tp_dictoffset"]
    offsets = {name: index * pointer_size for index, name in enumerate(names)}
    kinds = dict.fromkeys(names, c_ptr)
    kinds.update(dict.fromkeys(("tp_basicsize", "tp_itemsize", "tp_weaklistoffset"), c_ssize))
    kinds.update(tp_flags=c_ulong, tp_dictoffset=c_ssize)

    class TypeObject:
        """A view of the ``PyTypeObject`` at *address*: its fields by name."""

        __slots__ = ("_address",)

        def __init__(self, address: int) -> None:
            object.__setattr__(self, "_address", address)

        @classmethod
        def from_address(cls, address: int) -> TypeObject:
            return cls(address)

        def __getattr__(self, name: str) -> Any:
            return kinds[name].from_address(self._address + offsets[name]).value

        def __setattr__(self, name: str, value: object) -> None:
            kinds[name].from_address(self._address + offsets[name]).value = value

    get_referents = gc.get_referents

    def type_dict(cls: type) -> dict[str, object] | None:
        referents = get_referents(cls.__dict__)
        found = referents[0] if len(referents) == 1 else None
        return found if type(found) is dict else None

    class _DictProbe:
        pass

    class _TupleProbe(tuple):  # type: ignore[type-arg]
        pass

    for known in (tuple, type, object, int, _DictProbe, _TupleProbe):
        view = TypeObject.from_address(id(known))
        base = known.__base__
        if (
            view.tp_basicsize != known.__basicsize__
            or view.tp_itemsize != known.__itemsize__
            or view.tp_flags != known.__flags__
            or view.tp_weaklistoffset != known.__weakrefoffset__
            or view.tp_dictoffset != known.__dictoffset__
            or (view.tp_base or 0) != (id(base) if base is not None else 0)
        ):
            return None
    probe_dict = type_dict(_TupleProbe)
    if probe_dict is None or TypeObject.from_address(id(_TupleProbe)).tp_dict != id(probe_dict):
        return None
    probe_descriptor = probe_dict.get("__dict__")
    getset_type = type(probe_descriptor)
    # Up to 3.14 each class gets a __dict__ descriptor of its own; from 3.15
    # on, classes share one (whose __objclass__ is object).
    shared_descriptor = (
        None if probe_descriptor.__objclass__ is _TupleProbe else probe_descriptor  # type: ignore[attr-defined]
    )

    managed = strategy == "managed"

    # Where seal writes, without the view's attribute lookups: it runs for
    # every record class.
    flags_at, basicsize_at = offsets["tp_flags"], offsets["tp_basicsize"]
    dictoffset_at, getset_at = offsets["tp_dictoffset"], offsets["tp_getset"]

    # What a fresh instance dict adds to a type, relative to its base:
    # (tp_basicsize growth, tp_dictoffset, Py_TPFLAGS_MANAGED_DICT bit).
    dict_delta = (0, -1, _MANAGED_DICT) if managed else (pointer_size, -pointer_size, 0)

    def seal(cls: type) -> bool:
        # Written flat (no helper calls): it runs for every record class.
        namespace = type_dict(cls)
        flags = cls.__flags__
        if cls.__dictoffset__ == 0 and not flags & _MANAGED_DICT:
            return True
        base = cls.__base__
        if (
            namespace is None
            or base is None
            or base.__dictoffset__ != 0
            or base.__flags__ & _MANAGED_DICT
            or cls.__itemsize__ != base.__itemsize__
            or cls.__weakrefoffset__ != base.__weakrefoffset__
            or (cls.__basicsize__ - base.__basicsize__, cls.__dictoffset__, flags & _MANAGED_DICT)
            != dict_delta
        ):
            return False
        descriptor = namespace.get("__dict__")
        if type(descriptor) is not getset_type or (
            descriptor is not shared_descriptor and descriptor.__objclass__ is not cls  # type: ignore[attr-defined]
        ):
            return False
        address = id(cls)
        if managed:
            c_ulong.from_address(address + flags_at).value = flags & ~_MANAGED_DICT
        else:
            c_ssize.from_address(address + basicsize_at).value = cls.__basicsize__ - pointer_size
        c_ssize.from_address(address + dictoffset_at).value = 0
        c_ptr.from_address(address + getset_at).value = None
        del namespace["__dict__"]
        # type.__setattr__ runs PyType_Modified, which drops cached lookups.
        type.__setattr__(cls, "__doc__", namespace.get("__doc__"))
        return True

    def write(cls: type, attributes: dict[str, object]) -> None:
        namespace = type_dict(cls)
        if namespace is None or not attributes:  # pragma: no cover - verified on the probes
            _set_one_by_one(cls, attributes)
            return
        # One write goes through type.__setattr__, which runs PyType_Modified
        # and so drops cached lookups for every write into the dict. What the
        # writes replace is kept until then: freeing it may run a __del__,
        # which must not see the class half-written, nor find a value the
        # type's lookup caches still point to.
        replaced = [namespace[name] for name in attributes if name in namespace]
        last_name, last_value = attributes.popitem()
        namespace.update(attributes)
        attributes[last_name] = last_value
        setattr(cls, last_name, last_value)
        del replaced

    class _PatchedProbe(tuple):  # type: ignore[type-arg]
        pass

    if not seal(_PatchedProbe):
        return None
    instance = _PatchedProbe((1, 2))
    if (
        sys.getsizeof(instance) != sys.getsizeof((1, 2))
        or hasattr(instance, "__dict__")
        or _PatchedProbe.__basicsize__ != tuple.__basicsize__
        or _PatchedProbe.__dictoffset__ != 0
    ):
        return None
    return seal, write
