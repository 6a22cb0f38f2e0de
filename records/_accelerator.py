"""
The optional C accelerator, ``records._accelerator_c``: whether it is
loaded, and why not where it is not.

It is loaded when it was compiled for this interpreter (CPython 3.10 to
3.15, free-threaded builds included: it declares that it runs without the
GIL, which importing it leaves as it was), this is the main interpreter, and
``RECORDS_PURE_PYTHON`` does not turn the pure path on (``1``, ``true``,
``yes`` or ``on``: ``is_on``). Otherwise ``c`` is ``None`` and every record
takes the pure-Python path, which behaves the same; ``STATUS`` says which
path, and why (``records.ACCELERATOR``).

This module imports nothing of records, so that every other module can ask
it, and it decides nothing else: each module that has a C twin picks it
where it defines the Python version (``c is not None``); ``_record`` leaves
the C class builder in ``builder``, where ``_namedtuple`` finds it.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

c: ModuleType | None

#: The C class builder of ``Record`` (``_record.install_c_builder``), which also
#: builds ``records.namedtuple``'s classes; ``None`` until records has made
#: it, and on the pure-Python path.
builder: Any = None

#: The values of the switches records reads from the environment
#: (``RECORDS_PURE_PYTHON``, ``RECORDS_NAMEDTUPLE``) that turn them on, in any
#: case and between spaces; any other value, ``0`` included, leaves them off.
ON = ("1", "true", "yes", "on")


def is_on(value: str | None) -> bool:
    """Whether *value* of a switch turns it on (``ON``)."""
    return value is not None and value.strip().lower() in ON


def free_threaded() -> bool:
    """
    Whether this is a free-threaded CPython build (PEP 703), the GIL on or
    off: its objects have the larger header (``object.__basicsize__`` is more
    than two pointers, ``tuple.__itemsize__``).
    """
    return sys.implementation.name == "cpython" and object.__basicsize__ > 2 * tuple.__itemsize__


def environment_value(name: str) -> str | None:
    """
    ``os.environ.get(name)``, without importing ``os`` where nothing has yet
    (``python -S``): until ``os`` is imported, nobody can have changed
    ``os.environ``, which is the process's environment as ``posix`` holds it.
    """
    loaded = sys.modules.get("os")
    if loaded is not None:
        return loaded.environ.get(name)  # type: ignore[no-any-return]
    if sys.platform == "win32":
        import os

        return os.environ.get(name)
    import posix

    encoding = sys.getfilesystemencoding()
    value = posix.environ.get(name.encode(encoding, "surrogateescape"))
    return None if value is None else value.decode(encoding, "surrogateescape")


_asked = environment_value("RECORDS_PURE_PYTHON")
if is_on(_asked):
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
        if _asked is not None and _asked.strip():
            STATUS += f"; RECORDS_PURE_PYTHON={_asked.strip()!r} leaves it on"
