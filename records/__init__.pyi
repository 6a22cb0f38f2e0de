# The typed interface of the records package. It sits beside the code, so
# that type checkers read it in every install: from a wheel, from an editable
# install and from a source checkout. stubs/records/ links to the package's
# stubs for mypy.stubtest, which checks them against the runtime.

# records.namedtuple has collections.namedtuple's signature and behaviour; as an
# alias here, type checkers give it their namedtuple support (mypy and pyright
# special-case collections.namedtuple by name).
from collections import namedtuple as namedtuple
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, TypeVar, overload

from typing_extensions import Self, dataclass_transform

__version__: str
ACCELERATED: bool
ACCELERATOR: str
__all__ = [
    "ACCELERATED",
    "ACCELERATOR",
    "MISSING",
    "Field",
    "Record",
    "asdict",
    "field",
    "fields",
    "namedtuple",
    "replace",
    "restore_namedtuple",
    "use_for_namedtuple",
]

_T = TypeVar("_T")
_Tuple = TypeVar("_Tuple", bound=tuple[Any, ...])

MISSING: Any

class Field:
    name: str | None
    type: Any
    default: Any
    default_factory: Any
    doc: str | None
    def __init__(
        self,
        name: str | None = None,
        type: Any = None,
        default: Any = ...,
        default_factory: Callable[[], Any] | Any = ...,
        doc: str | None = None,
    ) -> None: ...
    @property
    def has_default(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

@overload
def field(*, default: _T, doc: str | None = None) -> _T: ...
@overload
def field(*, default_factory: Callable[[], _T], doc: str | None = None) -> _T: ...
@overload
def field(*, doc: str | None = None) -> Any: ...

# Record is marked with PEP 681's dataclass_transform: every checker, mypy
# and zuban included, reads the constructor of each record from it. The
# records.mypy plugin takes the mark off for mypy (records/mypy/__init__.py),
# which then reads a plain base class, and builds every record itself.
# records/as_namedtuple.pyi presents the same class as typing.NamedTuple, for
# the checkers that run no mypy plugin. Record is defined here rather than in
# a module of its own, so that checkers' messages name it records.Record.
@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
class Record(tuple[Any, ...]):
    _fields: ClassVar[tuple[str, ...]]
    _field_defaults: ClassVar[dict[str, Any]]
    __record_factories__: ClassVar[Mapping[str, Callable[[], Any]]]
    __match_args__: ClassVar[tuple[str, ...]]
    def __new__(cls, *args: Any, **kwargs: Any) -> Self: ...
    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self: ...
    def _replace(self, /, **changes: Any) -> Self: ...
    def __replace__(self, /, **changes: Any) -> Self: ...
    def _asdict(self) -> dict[str, Any]: ...
    def __getnewargs__(self) -> tuple[Any, ...]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def __copy__(self) -> Self: ...
    def __deepcopy__(self, memo: dict[int, Any], /) -> Self: ...
    # Hooks of other libraries (records._interop): rich's layout, pydantic's schema.
    # Typed as those libraries document them (rich.repr.Result: any item;
    # pydantic's parameter names), so that a record implements them as
    # documented, as a named tuple may, without an incompatible override.
    def __rich_repr__(self) -> Iterable[Any] | None: ...
    @classmethod
    def __get_pydantic_core_schema__(cls, source_type: Any, handler: Any) -> Any: ...
    @classmethod
    def define(
        cls,
        typename: str,
        fields: Iterable[tuple[str, Any]] | Mapping[str, Any],
        *,
        defaults: Mapping[str, Any] | None = None,
        module: str | None = None,
    ) -> type[Any]: ...  # its fields are known to mypy's plugin only

def fields(record_or_class: Any) -> tuple[Field, ...]: ...
def replace(record: _Tuple, /, **changes: Any) -> _Tuple: ...
def asdict(record: Any, *, recurse: bool = True) -> dict[str, Any]: ...
def use_for_namedtuple() -> None: ...
def restore_namedtuple() -> None: ...
