"""
The records mypy plugin: ``plugins = ["records.mypy"]``.

It makes mypy read a record class as what it is at runtime: a tuple of its
fields, with a constructor taking them by position or keyword, read-only
attributes, and the namedtuple API (``_replace``, ``_make``, ``_asdict``,
``_fields``, ``__match_args__``). Definition errors are reported with
``records-…`` error codes and the runtime's wording.
"""

from __future__ import annotations

from mypy.nodes import TypeInfo
from mypy.plugin import ClassDefContext, Plugin
from mypy.types import DATACLASS_TRANSFORM_NAMES

from ._as_namedtuple import DEFINE_FULLNAME, read_as_records
from ._fields import RECORD_FULLNAMES, is_record
from ._functional import attribute_define_hook, define_hook
from ._parsed import read_parsed
from ._replace import REPLACE_FULLNAMES, replace_hook
from ._transform import transform

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from mypy.nodes import MypyFile
    from mypy.plugin import (
        DynamicClassDefContext,
        FunctionContext,
        MethodContext,
        ReportConfigContext,
    )
    from mypy.types import Type

#: Raise when the plugin's output changes, so that mypy's cache is invalidated.
CACHE_VERSION = 8


def take_dataclass_transform_off(ctx: ClassDefContext) -> None:
    """
    Make ``Record`` a plain base class for mypy, as this plugin needs it.

    The stub marks ``Record`` with PEP 681's ``dataclass_transform``, which is
    what mypy without this plugin reads (constructors, read-only fields). With
    the plugin, mypy's own dataclass support must leave records alone, or the
    two would build each record twice, with two constructors and every
    definition error reported twice. mypy looks for the mark on the class's
    ``TypeInfo`` (``dataclass_transform_spec``) whenever it analyses a
    subclass; this hook runs once mypy has read the decorator, before any
    subclass can be analysed, and removes it.
    """
    if ctx.cls.fullname in RECORD_FULLNAMES:
        ctx.cls.info.dataclass_transform_spec = None


class RecordsPlugin(Plugin):
    """Hooks for classes whose bases include records.Record."""

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        """
        Read the module just parsed, before mypy analyses it.

        ``records.as_namedtuple``'s ``Record`` is read as ``records.Record``
        (see its stub), a ``Record.define(...)`` base is bound to a name, and
        ``self.x = Record.define(...)`` is remembered (see ``_parsed``).
        """
        read_parsed(file)
        return read_as_records(file)

    def get_class_decorator_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        """Take ``dataclass_transform`` off ``Record``: this plugin builds records."""
        return take_dataclass_transform_off if fullname in DATACLASS_TRANSFORM_NAMES else None

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        """Transform subclasses of Record, directly or through other records."""
        if fullname in RECORD_FULLNAMES:
            return transform
        symbol = self.lookup_fully_qualified(fullname)
        if symbol is not None and isinstance(symbol.node, TypeInfo) and is_record(symbol.node):
            return transform
        return None

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        """Check ``records.replace(record, **changes)``; see ``get_method_hook`` for ``define``."""
        if fullname == DEFINE_FULLNAME:
            return attribute_define_hook
        return replace_hook if fullname in REPLACE_FULLNAMES else None

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        """Report ``self.x = Record.define(...)`` (``SomeRecord.define``, ``define``)."""
        return attribute_define_hook if self._is_define_method(fullname) else None

    def get_dynamic_class_hook(
        self, fullname: str
    ) -> Callable[[DynamicClassDefContext], None] | None:
        """Type ``X = Record.define(...)`` (``SomeRecord.define``, ``as_namedtuple.define``)."""
        if fullname == DEFINE_FULLNAME or self._is_define_method(fullname):
            return define_hook
        return None

    def _is_define_method(self, fullname: str) -> bool:
        """Whether *fullname* is ``Record.define`` or a record's (``SomeRecord.define``)."""
        owner, _, method = fullname.rpartition(".")
        if method != "define":
            return False
        symbol = self.lookup_fully_qualified(owner)
        node = symbol.node if symbol is not None else None
        return isinstance(node, TypeInfo) and (
            node.fullname in RECORD_FULLNAMES or is_record(node)
        )

    def report_config_data(self, ctx: ReportConfigContext) -> Any:
        """Tie mypy's cache to this plugin's version."""
        return {"records-mypy": CACHE_VERSION}


def plugin(version: str) -> type[Plugin]:
    """Entry point named in mypy's configuration."""
    return RecordsPlugin
