# records.as_namedtuple: the same names as records, with Record presented to
# type checkers as typing.NamedTuple. pyright (Pylance), basedpyright,
# pyrefly, ty, zuban and mypy without the records plugin then read each
# record class as a named tuple: a tuple of its fields' types. The Typing page
# lists what each checker gets right, and what a named tuple cannot do.
#
# Record is an import of NamedTuple under another name, not an assignment
# (Record = NamedTuple): mypy and zuban take only a name that is
# typing.NamedTuple itself for a named tuple base, and reject every record
# class of the assignment; pyright, basedpyright, pyrefly and ty read both.
# A stub re-exports `import X as Y` only by __all__, hence __all__.
#
# With the records.mypy plugin, mypy reads this import as
# `from records import Record as Record` (records/mypy/_as_namedtuple.py):
# keep it as it is, on a line of its own.
from collections.abc import Iterable, Mapping
from typing import Any
from typing import NamedTuple as Record

from records import MISSING as MISSING
from records import Field as Field
from records import asdict as asdict
from records import field as field
from records import fields as fields
from records import namedtuple as namedtuple
from records import replace as replace

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

# Record.define, which a NamedTuple does not have. Its fields are known to
# mypy's plugin only: other checkers see a class of any fields.
def define(
    typename: str,
    fields: Iterable[tuple[str, Any]] | Mapping[str, Any],
    *,
    defaults: Mapping[str, Any] | None = None,
    module: str | None = None,
) -> type[Any]: ...
