"""
The start-up half of the ``RECORDS_NAMEDTUPLE`` opt-in, installed beside
``records_namedtuple.pth`` as the top-level module ``_records_namedtuple``
(outside the ``records`` package, so that importing it imports nothing else).

``records_namedtuple.pth`` calls ``install()`` as Python starts, when the
variable asks for the opt-in. That loads nothing of records: it waits for
``collections`` to be imported (at once if it is already) and puts a stand-in
in place of ``collections.namedtuple``. The stand-in's first call imports
records and makes ``records.namedtuple`` serve every later call
(``records.use_for_namedtuple()``); so a process that builds no named tuple
never loads records at all. A module that took the stand-in before that
(``from collections import namedtuple``) keeps it, and it passes each call on.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from importlib.machinery import ModuleSpec
    from types import ModuleType
    from typing import Any

#: The attribute of the stand-in that holds the ``collections.namedtuple`` it stands in for.
ORIGINAL = "_records_original"

#: Whether a first call is importing records (a named tuple built meanwhile,
#: by any thread, is built by the original).
_importing = False


def install() -> None:
    """Put the stand-in in place now if ``collections`` is imported, else once it is."""
    collections = sys.modules.get("collections")
    if collections is not None:
        _stand_in(collections)
    elif not any(isinstance(finder, _CollectionsFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _CollectionsFinder())


class _CollectionsFinder:
    """Finds nothing: gives the import of ``collections`` a loader ending with the stand-in."""

    def find_spec(
        self, fullname: str, path: Any = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != "collections":
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            find_spec = getattr(finder, "find_spec", None)
            spec: ModuleSpec | None = (
                find_spec(fullname, path, target) if find_spec is not None else None
            )
            if spec is not None:
                if spec.loader is not None:
                    loader: Any = _Loader(spec.loader)  # a Loader in all but its base
                    spec.loader = loader
                return spec
        return None


class _Loader:
    """The loader of ``collections``, which puts the stand-in in and then itself out."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def __getattr__(self, name: str) -> Any:
        return getattr(self.loader, name)

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        module: ModuleType | None = self.loader.create_module(spec)
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self.loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        _stand_in(module)


def _stand_in(collections: Any) -> None:
    original = getattr(collections, "namedtuple", None)
    if (
        original is None
        or hasattr(original, ORIGINAL)
        or getattr(original, "__module__", None) != "collections"
    ):
        # A project's own collections.py, the stand-in, records.namedtuple or
        # another library's: left alone.
        return

    def namedtuple(
        typename: str,
        field_names: str | Iterable[str],
        *,
        rename: bool = False,
        defaults: Iterable[Any] | None = None,
        module: str | None = None,
    ) -> type[tuple[Any, ...]]:
        global _importing
        if module is None:  # the caller's, as collections.namedtuple finds it
            frame_module_name = getattr(sys, "_getframemodulename", None)  # 3.12+
            if frame_module_name is not None:
                module = frame_module_name(1) or "__main__"
            else:
                try:
                    module = sys._getframe(1).f_globals.get("__name__", "__main__")
                except (AttributeError, ValueError):
                    module = None
        if collections.namedtuple is namedtuple and not _importing:
            _importing = True
            try:
                import records

                records.use_for_namedtuple()
            except Exception as error:  # as a failing .pth line: said, and the opt-in off
                collections.namedtuple = original
                print(f"RECORDS_NAMEDTUPLE: records did not load: {error!r}", file=sys.stderr)
            finally:
                _importing = False
        build = collections.namedtuple
        if build is namedtuple:  # records is being imported, or was restored meanwhile
            build = original
        made: type[tuple[Any, ...]] = build(
            typename, field_names, rename=rename, defaults=defaults, module=module
        )
        return made

    setattr(namedtuple, ORIGINAL, original)
    namedtuple.__doc__ = original.__doc__
    collections.namedtuple = namedtuple
    records = sys.modules.get("records")
    # Imported already: records' turn at once (while it is being imported, its
    # __init__ takes it at the end).
    if records is not None and not getattr(records.__spec__, "_initializing", False):
        records.use_for_namedtuple()
