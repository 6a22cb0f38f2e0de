# The typed interface of the records package, shipped in the wheel as
# records/__init__.pyi and checked against the runtime by mypy.stubtest.

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

class _RecordAPI(tuple[Any, ...]):
    # The API every record class has. A stub-only base, so that the two
    # declarations of Record below share one body.
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
    # Hooks of other libraries (records._interop): rich's layout, pydantic's schema.
    def __rich_repr__(self) -> Iterable[tuple[str, Any]] | None: ...
    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any: ...
    @classmethod
    def define(
        cls,
        typename: str,
        fields: Iterable[tuple[str, Any]] | Mapping[str, Any],
        *,
        defaults: Mapping[str, Any] | None = None,
        module: str | None = None,
    ) -> type[Self]: ...

# mypy reads MYPY as True and sees a plain base class: its own dataclass
# machinery must not process records (the records.mypy plugin does). Other
# checkers (pyright) take the else branch and see PEP 681's dataclass_transform,
# which gives them the constructor of every record.
MYPY = False
if MYPY:
    class Record(_RecordAPI): ...

else:
    @dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
    class Record(_RecordAPI): ...

def fields(record_or_class: Any) -> tuple[Field, ...]: ...
def replace(record: _Tuple, /, **changes: Any) -> _Tuple: ...
def asdict(record: Any, *, recurse: bool = True) -> dict[str, Any]: ...
