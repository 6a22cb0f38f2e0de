"""Forcing the pure-Python class builder in a test, where the C one is loaded."""

import contextlib

import pytest

from records import Record, _record


@contextlib.contextmanager
def python_builder():
    """Build every record class in the block with ``_record._build`` only."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_record, "_build_in_c", None)
        if _record.speedups is not None:
            patch.setattr(Record, "__init_subclass__", _record._python_init_subclass)
        yield
