"""Forcing the pure-Python class builder in a test, where the C one is loaded."""

import contextlib

import pytest

from records import Record, _record


@contextlib.contextmanager
def python_builder():
    """Build every record class in the block with ``records._builder`` only."""
    with pytest.MonkeyPatch.context() as patch:
        python_init_subclass = _record.python_methods.get("__init_subclass__")
        if python_init_subclass is not None:
            patch.setattr(Record, "__init_subclass__", python_init_subclass)
        yield
