"""
With this plugin, ``records.as_namedtuple``'s ``Record`` is ``records.Record``.

The module's stub presents ``Record`` to type checkers as ``typing.NamedTuple``
(``from typing import NamedTuple as Record``): what mypy without this plugin,
and the checkers that run no mypy plugin, read. With the plugin, a record
declared through it must be what a record of ``records.Record`` is, fields
added by subclasses and the plugin's errors included. mypy settles that a
class whose base is ``typing.NamedTuple`` is a named tuple while it analyses
the class statement, before any plugin hook sees the class, so the plugin
changes the stub instead: between parsing the stub and analysing it (the
``get_additional_deps`` hook, which mypy calls there with the parsed
module), that import becomes ``from records import Record as Record``.
Every module that imports ``Record`` from ``records.as_namedtuple`` then
gets ``records.Record`` itself, under its own name.

mypy's cache keeps the analysed stub, and is tied to the plugins in use: a
run without the plugin reads the stub anew.
"""

from __future__ import annotations

from mypy.nodes import ImportFrom, MypyFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

#: The module whose ``Record`` the plugin reads as ``records.Record``.
AS_NAMEDTUPLE: Final = "records.as_namedtuple"
#: Its functional form, ``Record.define`` at run time.
DEFINE_FULLNAME: Final = "records.as_namedtuple.define"
#: The stub's import of ``Record``, and what the plugin makes of it.
STUB_IMPORT: Final = ("typing", ("NamedTuple", "Record"))
PLUGIN_IMPORT: Final = ("records", ("Record", "Record"))
#: mypy's priority for a top-level ``from X import name`` (``mypy.build.PRI_HIGH``).
PRIORITY: Final = 5


def read_as_records(file: MypyFile) -> list[tuple[int, str, int]]:
    """
    Make the parsed stub of ``records.as_namedtuple`` import ``Record`` from ``records``.

    Return the dependency the new import adds (``records``), as
    ``get_additional_deps`` does; nothing for any other module. A stub
    already changed (mypy's daemon may hand a parsed module over again) is
    left as it is.
    """
    if file.fullname != AS_NAMEDTUPLE:
        return []
    found: list[tuple[int, str, int]] = []
    # mypy's own parser puts one node in both lists, its native parser one in each.
    for node in [*file.imports, *file.defs]:
        if not (isinstance(node, ImportFrom) and node.relative == 0):
            continue
        if (node.id, node.names) == (STUB_IMPORT[0], [STUB_IMPORT[1]]):
            node.id, node.names = PLUGIN_IMPORT[0], [PLUGIN_IMPORT[1]]
        if (node.id, node.names) == (PLUGIN_IMPORT[0], [PLUGIN_IMPORT[1]]) and not found:
            found.append((PRIORITY, PLUGIN_IMPORT[0], node.line))
    return found
