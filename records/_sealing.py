"""
When a new record class may lose its instance ``__dict__``, and what a class
that keeps it does instead.

``_layout`` changes the layout; this module decides when that is safe: only
where no instance of the class can exist yet (``may_seal``). A class that
keeps its dict slot forbids setting and deleting attributes, with the words a
sealed record uses (``forbid_attribute_changes``). The C accelerator decides
the same in C (``may_seal_here`` in ``records/_c/sealing.h``),
where nothing runs between its count and the seal.
"""

from __future__ import annotations

import sys
from _thread import _count as _running_threads

from . import _layout, _rules
from ._accelerator import c as accelerator
from ._accelerator import free_threaded
from ._codegen import _function_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._record import Record


def seal_if_safe(cls: type, record_base: type[Record], *, first: bool) -> bool:
    """
    Seal the layout of the new class *cls*, a subclass of *record_base*
    (``Record``), if ``may_seal`` allows it; return whether its instances have
    no ``__dict__``. Call it first thing in ``__init_subclass__``, which has
    marked *cls* as being built (``_layout.begin_build``); only its *first*
    call, the one a class statement makes, may change a layout. The layout
    is decided when it returns.
    """
    if _probing:  # the probe class: may_seal measures it, from the same depth
        _seal_unseen(cls, record_base)
    if not first or _hook_before(cls, record_base):
        safe = False
    elif is_sealed(cls):  # by its body: __slots__ = ()
        safe = accelerator is not None and may_seal(cls, record_base)
    else:
        safe = (
            _layout.supported() and not _code_may_run_inside() and _seal_unseen(cls, record_base)
        )
    if safe and accelerator is not None:
        accelerator.prepare(cls, record_base)  # as the C __init_subclass__ does
    _layout.layout_decided(cls)
    return is_sealed(cls)


def _code_may_run_inside() -> bool:
    """
    Tell whether Python code could run between ``may_seal``'s count and the
    end of the seal, which is Python code too where the C accelerator is not
    loaded: a trace or profile function or a ``sys.monitoring`` tool (3.12+)
    could make an instance of the class in between, whose layout the seal
    would then change under it. (The collector is paused there instead:
    ``_seal_unseen``.) Run from the class statement, the C accelerator's seal
    lets no code run there.
    """
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return True
    monitoring = getattr(sys, "monitoring", None)
    return monitoring is not None and any(
        monitoring.get_tool(tool) is not None for tool in range(6)
    )


def _seal_unseen(cls: type, record_base: type[Record]) -> bool:
    """
    ``may_seal`` and ``_layout.seal``, the collector paused between them: a
    collection there could run finalizers, Python code that might reach the
    class.
    """
    import gc  # here: the C path, which never pauses it, does not import it

    collecting = gc.isenabled()
    gc.disable()
    try:
        return may_seal(cls, record_base) and _layout.seal(cls)
    finally:
        if collecting:
            gc.enable()


def _hook_before(cls: type, record_base: type[Record]) -> bool:
    """
    Tell whether a class between *cls* and *record_base* in its MRO has an
    ``__init_subclass__`` of its own. Then ``Record``'s may be called after
    the class statement (that hook need not call it while the class is made),
    when instances may exist that the reference count cannot tell from the
    class statement's references.
    """
    for base in cls.__mro__[1:]:
        if base is record_base:
            return False
        if "__init_subclass__" in base.__dict__:
            return True
    return False


def may_seal(cls: type, record_base: type[Record]) -> bool:
    """
    Tell whether no instance of the new class *cls* can exist, so that its
    layout may change.

    Every instance holds a reference to its class: *cls* may be sealed only
    if it has no more references than a new class of no instances has here
    (measured once on a probe class, plus the closure cells of its body).
    Code that had the class before (a base's ``__init_subclass__``, a
    ``__set_name__``, a second call of ``__init_subclass__``) and kept an
    instance, or the class itself, leaves more. This is Python code, which
    another thread could interleave with: while other threads run, nothing is
    sealed. Enum classes keep their ``__dict__`` slot too: their members need
    one. (The C accelerator decides the same in C, where nothing runs between
    the count and the seal.)

    Free-threaded builds: on 3.13 a class made once a second thread has
    existed is immortal, its count says nothing, and it is not sealed; 3.14+
    counts the references of instances to a class per thread, out of the
    count's sight, so nothing is sealed there.
    """
    references = sys.getrefcount(cls)
    if _probing:
        raise _Probed(references, _owns_dict_descriptor(cls))
    if not _SEAL_BY_REFCOUNT or _running_threads() or is_enum(cls) or references >= _IMMORTAL:
        return False
    measured = _baselines.get(record_base)
    if measured is None:
        measured = _baselines[record_base] = _measure(record_base)
    baseline, probe_owns_dict = measured
    if baseline >= _IMMORTAL:
        return False
    # A class without __dict__ from its body (__slots__ = ()) lacks the
    # reference the probe's __dict__ descriptor holds, where it has one.
    missing = probe_owns_dict and not _owns_dict_descriptor(cls)
    return references <= baseline + _cells_holding(cls) - missing


def _owns_dict_descriptor(cls: type) -> bool:
    """Tell whether the dict of *cls* holds a ``__dict__`` descriptor made for it."""
    descriptor = cls.__dict__.get("__dict__")
    return (
        type(descriptor) is _getset_descriptor and getattr(descriptor, "__objclass__", None) is cls
    )


class _Probed(Exception):  # noqa: N818 - a signal, not an error
    """
    Raised from ``may_seal`` for the probe class, with its reference count
    and whether it has a ``__dict__`` descriptor of its own.
    """


#: Whether a reference count sees every instance's reference to its class
#: (not on free-threaded 3.14+: see ``may_seal``).
_SEAL_BY_REFCOUNT = not (free_threaded() and sys.version_info >= (3, 14))
#: A count this high is an immortal object's (3.12+), which says nothing.
_IMMORTAL = 1 << 30

# True while a probe class is being made (single-threaded: see may_seal).
_probing = False
# The references a new class has in may_seal, by the Record it derives from.
_baselines: dict[type, tuple[int, bool]] = {}

_getset_descriptor = type(type.__dict__["__dict__"])


def _measure(record_base: type[Record]) -> tuple[int, bool]:
    """
    Make a probe class as a class statement makes a record class, and return
    the references it has in ``may_seal``. It derives from a throwaway tuple
    subclass whose ``__init_subclass__`` is ``Record``'s own, not from
    ``Record``: ``Record.__subclasses__()`` never lists it.
    """
    global _probing
    hook = record_base.__dict__["__init_subclass__"]
    # Without a dict of its own, as Record: the probe gets one, as a record
    # class does, with the reference its descriptor holds.
    namespace = {"__init_subclass__": hook, "__module__": __name__, "__slots__": ()}
    root = type("_RecordsProbeRoot", (tuple,), namespace)
    import gc

    # No collection (and no gc callback) while the probe is made: no other
    # code may hold it when it is counted.
    was_enabled = gc.isenabled()
    gc.disable()
    _probing = True
    try:
        type("_RecordsProbe", (root,), {"__module__": __name__})
    except _Probed as probed:
        return int(probed.args[0]), bool(probed.args[1])
    finally:
        _probing = False
        if was_enabled:
            gc.enable()
    return 0, False  # pragma: no cover - the probe always reports; 0 seals nothing


def _cells_holding(cls: type) -> int:
    """Count the distinct closure cells that hold *cls* in its body's functions."""
    cells: list[object] = []
    for value in cls.__dict__.values():
        function = value.__func__ if type(value) in (staticmethod, classmethod) else value
        if type(function) is not _function_type:
            continue  # other holders are not looked into: the class keeps its dict slot
        for cell in function.__closure__ or ():
            try:
                contents = cell.cell_contents
            except ValueError:  # an empty cell
                continue
            if contents is cls and not any(seen is cell for seen in cells):
                cells.append(cell)
    return len(cells)


def is_sealed(cls: type) -> bool:
    """Tell whether instances of *cls* have no ``__dict__``."""
    return getattr(cls, "__dictoffset__", None) == 0


def is_enum(cls: type) -> bool:
    """Tell whether *cls* is an ``enum`` class (its metaclass comes from ``enum``)."""
    enum = sys.modules.get("enum")
    return enum is not None and isinstance(cls, enum.EnumMeta)


def forbid_attribute_changes(cls: type[Record]) -> None:
    """Make setting or deleting attributes raise, where the dict slot stays."""
    if "__setattr__" not in cls.__dict__:
        cls.__setattr__ = _frozen_setattr  # type: ignore[method-assign]
    if "__delattr__" not in cls.__dict__:
        cls.__delattr__ = _frozen_delattr  # type: ignore[method-assign]


def _has_data_descriptor(cls: type, name: str, method: str) -> bool:
    """Tell whether *name* on *cls* is a descriptor with *method* (``__set__``/``__delete__``)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return hasattr(type(klass.__dict__[name]), method)
    return False


def _frozen_setattr(self: Record, name: str, value: object) -> None:
    """Set *name* only through a descriptor (a field says no), as without ``__dict__``."""
    cls = type(self)
    if name in cls._fields:
        raise AttributeError(_rules.field_assignment_message(cls.__name__, name))
    # An enum's members are records of an enum subclass: enum sets their names.
    if _has_data_descriptor(cls, name, "__set__") or is_enum(cls):
        object.__setattr__(self, name, value)
        return
    raise AttributeError(_rules.no_dict_message(cls.__name__, name))


def _frozen_delattr(self: Record, name: str) -> None:
    """Delete *name* only through a descriptor (a field says no), as without ``__dict__``."""
    cls = type(self)
    if name in cls._fields:
        raise AttributeError(_rules.field_assignment_message(cls.__name__, name, delete=True))
    if _has_data_descriptor(cls, name, "__delete__") or is_enum(cls):
        object.__delattr__(self, name)
        return
    raise AttributeError(_rules.no_dict_message(cls.__name__, name))
