"""
Facts about the running interpreter, and the few lookups that differ by version.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

PYPY = sys.implementation.name == "pypy"
CPYTHON = sys.implementation.name == "cpython"
PY_3_13_PLUS = sys.version_info >= (3, 13)
PY_3_14_PLUS = sys.version_info >= (3, 14)
PY_3_15_PLUS = sys.version_info >= (3, 15)

#: ``collections.namedtuple._replace`` raises ``TypeError`` for an unknown
#: field name since CPython 3.13 and ``ValueError`` before; records follow the
#: running interpreter so that both stay interchangeable.
UNKNOWN_FIELD_ERROR: type[Exception] = TypeError if PY_3_13_PLUS else ValueError


def caller_module(depth: int) -> str | None:
    """
    Return the ``__name__`` of the module *depth* frames above the caller.

    ``depth=1`` names the module that called the function calling this one.
    Returns ``None`` where frames cannot be inspected.
    """
    if sys.version_info >= (3, 12):
        try:
            return sys._getframemodulename(depth + 1) or "__main__"
        except AttributeError:  # pragma: no cover - interpreters without it
            pass
    try:
        name: str = sys._getframe(depth + 1).f_globals.get("__name__", "__main__")
    except (AttributeError, ValueError):  # pragma: no cover - no frames here
        return None
    return name


def is_classvar(annotation: object) -> bool:
    """
    Tell whether *annotation* declares a ``ClassVar``, without evaluating it.

    Strings are recognised by their spelling (``ClassVar``, ``ClassVar[int]``,
    ``typing.ClassVar[int]``, ``t.ClassVar``); objects by identity with
    ``typing.ClassVar``, looked up only if ``typing`` is already imported (an
    object annotation that is a ``ClassVar`` implies it is).
    """
    if isinstance(annotation, str):
        head = annotation.split("[", 1)[0].strip()
        return head.rsplit(".", 1)[-1].strip() == "ClassVar"
    if isinstance(annotation, type):  # the common case: a class is never ClassVar
        return False
    typing = sys.modules.get("typing")
    if typing is None:
        return False
    classvar = typing.ClassVar
    return annotation is classvar or getattr(annotation, "__origin__", None) is classvar
