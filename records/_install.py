"""
The C class builder, put in place once the whole package is imported: the
one piece of the C accelerator not chosen where its Python twin is defined.

Everything else is chosen there, on whether ``_accelerator`` loaded the C module:
the ``Record`` methods marked ``@c_twin`` become their C twins as ``Record``
is made (``_record``); ``_builder``, ``_layout``, ``_sealing`` and
``_pickling`` call the C module where their Python code would do the work.

The class builder cannot be. It is one ``Builder`` object
(``records/_c/builder_helpers.h``), made from the ``Record`` class and from
helpers kept all over the package, ``_builder`` and the modules below it
(``builder_helpers``, from the C declaration ``BUILDER_FIELDS``), and it
serves two modules:

* ``Record.__init_subclass__``: ``builder.init_subclass()``, the C twin of
  the Python method in ``_record``;
* ``records.namedtuple``, whose classes it builds (``_namedtuple``'s
  ``c_namedtuple`` and ``c_namedtuple_class``). ``_namedtuple`` lies below
  ``_builder``, whose functions the ``Builder`` holds, so it cannot make or
  import the ``Builder`` where it is defined; made in ``_record`` instead,
  the ``Builder`` would still have to be handed down to ``_namedtuple`` from
  above.

So ``records/__init__.py`` calls ``install(Record)`` last, and no other
module imports this one: it stands at the top of the import stack. The
Python ``__init_subclass__`` it replaces is kept in
``_record.python_methods``, beside the other Python twins.
"""

from __future__ import annotations

from . import _namedtuple
from ._accelerator import c
from ._record import python_methods


def install(record: type) -> None:
    """
    Where the C accelerator is loaded, make the C class builder of *record*
    (``Record``) and give it ``Record.__init_subclass__`` and the classes of
    ``records.namedtuple``.
    """
    if c is None:
        return
    builder = c.Builder(**builder_helpers(record))
    python_methods["__init_subclass__"] = record.__dict__["__init_subclass__"]
    type.__setattr__(record, "__init_subclass__", builder.init_subclass())
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
