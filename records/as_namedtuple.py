"""
``records`` for type checkers that do not run mypy plugins: ``Record`` as a named tuple.

At run time every name here is the one of the same name in ``records``:
``from records.as_namedtuple import Record`` gives ``records.Record`` itself.
Only type checkers see a difference. The stub beside this module
(``as_namedtuple.pyi``) presents ``Record`` to them as ``typing.NamedTuple``,
so that pyright (Pylance), basedpyright, pyrefly, ty and zuban read each
record class as a named tuple, with tuple-precise types (``p[0]`` is the first
field's type, unpacking is counted), and no checker setting. mypy with the
records plugin reads it as ``records.Record``, as for ``from records import
Record``. The Typing page lists what each checker gets right with each
spelling.

``define`` is ``Record.define``, where a checker's ``NamedTuple`` has no
``define``.

>>> from records.as_namedtuple import Record
>>> import records
>>> Record is records.Record
True
"""

from records import MISSING, Field, Record, field

TYPE_CHECKING = False
if TYPE_CHECKING:  # what __getattr__ below gives, for tools that read the source
    from records import asdict, fields, namedtuple, replace

define = Record.define

#: The names a class statement does not need, given by ``records`` when first
#: asked for (as ``records`` itself does): importing this module loads nothing
#: that ``import records`` does not.
_LATER = frozenset({"asdict", "fields", "namedtuple", "replace"})


def __getattr__(name: str) -> object:
    """Return ``records``' public name *name*, imported when first asked for."""
    if name not in _LATER:
        msg = f"module 'records.as_namedtuple' has no attribute {name!r}"
        raise AttributeError(msg)
    import records

    value: object = getattr(records, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """List the module's names, those given when first asked for included."""
    return sorted({*globals(), *_LATER} - {"TYPE_CHECKING"})


__all__ = [
    "MISSING",
    "Field",
    "Record",
    "asdict",
    "define",
    "field",
    "fields",
    "namedtuple",
    "replace",
]
