"""
The optional C accelerator, ``records._speedups``, when it can be used.

It is used when it was compiled for this interpreter (CPython 3.10 to 3.13)
and ``RECORDS_PURE_PYTHON`` is not set to a non-empty value. Otherwise every
record takes the pure-Python path, which behaves the same.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

speedups: ModuleType | None
if os.environ.get("RECORDS_PURE_PYTHON"):
    speedups = None
    STATUS = "pure Python (RECORDS_PURE_PYTHON is set)"
else:
    try:
        # Imported by its full name: a missing build then says "No module
        # named 'records._speedups'", not a partial-import error.
        import records._speedups as speedups  # type: ignore[import-not-found,import-untyped,no-redef,unused-ignore]
    except ImportError as error:
        speedups = None
        STATUS = f"pure Python (the C accelerator is not available: {error})"
    else:
        STATUS = "C accelerator (records._speedups)"
