"""
The C class builder, put in place once the whole package is imported: the
one piece of the C accelerator not chosen where its Python twin is defined.

Everything else is chosen there, on whether ``_accelerator`` loaded the C module:
the ``Record`` methods marked ``@c_twin`` become their C twins as ``Record``
is made (``_record``); ``_builder``, ``_layout``, ``_sealing`` and
``_pickling`` call the C module where their Python code would do the work.

The class builder cannot be. It is one ``Builder`` object
(``records/_c/builder_helpers.h``), made from the ``Record`` class, and it
serves two modules:

* ``Record.__init_subclass__``: ``builder.init_subclass()``, the C twin of
  the Python method in ``_record``;
* ``records.namedtuple``, whose classes it builds (``_namedtuple`` reads it
  as ``_accelerator.builder``). ``_namedtuple`` lies below ``_record``, so it
  cannot make the ``Builder`` itself.

So ``records/__init__.py`` calls ``install(Record)`` once ``Record`` exists,
and no other module imports this one: it stands at the top of the import
stack. The ``Builder`` reads the helpers it shares with the Python modules
(``BUILDER_FIELDS``) from where records keeps them when a build first needs
them, so importing records loads none of those modules. The Python
``__init_subclass__`` it replaces is kept in ``_record.python_methods``,
beside the other Python twins.
"""

from __future__ import annotations

from . import _accelerator
from ._record import python_methods


def install(record: type) -> None:
    """
    Where the C accelerator is loaded, make the C class builder of *record*
    (``Record``) and give it ``Record.__init_subclass__`` and the classes of
    ``records.namedtuple``.
    """
    c = _accelerator.c
    if c is None:
        return
    builder = c.Builder(record)
    python_methods["__init_subclass__"] = record.__dict__["__init_subclass__"]
    type.__setattr__(record, "__init_subclass__", builder.init_subclass())
    _accelerator.builder = builder
