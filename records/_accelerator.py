"""
The optional C accelerator, ``records._accelerator_c``: whether it is used,
and what it replaces.

It is used when it was compiled for this interpreter (CPython with the GIL,
3.10 to 3.15), this is the main interpreter, and ``RECORDS_PURE_PYTHON`` is
not set to a non-empty value. Otherwise every record takes the pure-Python
path, which behaves the same.

Where it is used, it takes over in three places:

* ``install(Record)``, called once by ``records/__init__.py``, replaces each
  method of ``Record`` marked ``@replaced_in_c`` with a C function that does
  the same, and ``Record.__init_subclass__`` with the C class builder, which
  builds the common class statement itself and leaves the rest to
  ``_builder``;
* ``_builder`` gives every record class a C constructor (``Constructor``, the
  ``__new__`` staticmethod holding what the call needs) and lets calls to
  the class skip ``type.__call__`` (``enable``);
* ``_layout`` changes the instance layout in C (``seal``, ``write``).

The Python code stays the reference for every behaviour and message: a
method marked ``@replaced_in_c`` must be changed together with its C twin
(``records/_c/record.h``), and the tests run both.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType
    from typing import TypeVar

    _F = TypeVar("_F", bound=Callable[..., object])

c: ModuleType | None
if os.environ.get("RECORDS_PURE_PYTHON"):
    c = None
    STATUS = "pure Python (RECORDS_PURE_PYTHON is set)"
else:
    try:
        # Imported by its full name: a missing build then says "No module
        # named 'records._accelerator_c'", not a partial-import error.
        import records._accelerator_c as c  # type: ignore[import-not-found,import-untyped,no-redef,unused-ignore]
    except ImportError as error:
        c = None
        STATUS = f"pure Python (the C accelerator is not available: {error})"
    else:
        STATUS = "C accelerator (records._accelerator_c)"

#: The names of the ``Record`` methods that ``install`` replaces with C.
REPLACED_IN_C: list[str] = []

#: The Python methods ``install`` replaced, by name (for tests that run them).
python_methods: dict[str, object] = {}


def replaced_in_c(method: _F) -> _F:
    """
    Mark a method of ``Record`` that the C accelerator replaces where it is
    used: a change to it needs the same change in C.
    """
    REPLACED_IN_C.append(method.__name__)
    return method


def install(record: type) -> None:
    """Put the C accelerator's methods and class builder on *record* (``Record``)."""
    if c is None:
        return
    builder = c.Builder(**builder_helpers(record))
    methods = {**c.record_methods(record), "__init_subclass__": builder.init_subclass()}
    if sorted(methods) != sorted(REPLACED_IN_C):  # pragma: no cover - a test holds them equal
        msg = f"the C accelerator replaces {sorted(methods)}, not {sorted(REPLACED_IN_C)}"
        raise RuntimeError(msg)
    for name, method in methods.items():
        python_methods[name] = record.__dict__[name]
        type.__setattr__(record, name, method)
    from . import _namedtuple, _pickling

    _pickling.install()
    _namedtuple.c_namedtuple = builder.namedtuple
    _namedtuple.c_namedtuple_class = builder.namedtuple_class


def builder_helpers(record: type) -> dict[str, object]:
    """
    Return what the C class builder of *record* shares with the Python
    modules: each helper the C builder declares (``BUILDER_FIELDS`` in
    ``records/_c/builder_helpers.h``), taken from where it says records keeps
    it.
    """
    if c is None:  # pragma: no cover - install() calls it only where the module loaded
        return {}
    helpers: dict[str, object] = {"record": record}
    for name, source in c.helper_sources():
        module, attribute = source.split(":")
        # With a fromlist, __import__ returns the submodule itself.
        helpers[name] = getattr(__import__(f"records.{module}", fromlist=[attribute]), attribute)
    return helpers
