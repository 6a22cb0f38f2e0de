"""
The libraries records is compared with, each in its idiomatic frozen form.

A peer is a template: given field names and how many trailing fields have
defaults, it writes the source that defines the class (a class statement or a
factory call binding the name), plus the statements for the operations it
supports. Only fixed text and generated identifiers (``f0``, ``f1``, ...) go
into that source.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


@dataclass(frozen=True)
class Peer:
    """One library's way of declaring a frozen record, and what it supports."""

    name: str
    #: The module whose import makes the peer available (and gives its version).
    module: str
    #: Statements run before defining classes (the peer's imports).
    setup: str
    #: ``define(class_name, field_names, default_count) -> source`` binding ``class_name``.
    define: Callable[[str, Sequence[str], int], str]
    #: Operation name to statement, run with ``P`` the class and ``p``, ``p2`` equal instances.
    operations: dict[str, str] = field(default_factory=dict)
    #: The distribution whose version is reported, if not the standard library.
    distribution: str | None = None
    #: The oldest Python where the peer's idiom exists.
    minimum_python: tuple[int, int] = (3, 0)
    #: Like ``define``, for the peer's functional form (a call that makes the
    #: class), where it has one other than ``define``.
    functional: Callable[[str, Sequence[str], int], str] | None = None
    #: The name in the terminal's narrow table (the full name where empty).
    short: str = ""

    def __post_init__(self) -> None:
        if not self.short:
            object.__setattr__(self, "short", self.name)

    def available(self) -> bool:
        """Whether the peer's library can be imported here."""
        if self.minimum_python > sys.version_info:
            return False
        try:
            importlib.import_module(self.module)
        except ImportError:
            return False
        return True

    def version(self) -> str:
        """Return the library's version, or the Python version for the standard library."""
        if self.distribution is None:
            return f"Python {sys.version.split()[0]}"
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version(self.distribution)
        except PackageNotFoundError:  # run from a source tree
            found = getattr(importlib.import_module(self.module), "__version__", "unknown")
        return f"{self.distribution} {found}"


def _annotated_body(names: Sequence[str], default_count: int) -> str:
    first_default = len(names) - default_count
    lines = [
        f"    {name}: int = {index}" if index >= first_default else f"    {name}: int"
        for index, name in enumerate(names)
    ]
    return "\n".join(lines) if lines else "    pass"


def _class_statement(header: str, decorator: str = "") -> Callable[[str, Sequence[str], int], str]:
    def define(class_name: str, names: Sequence[str], default_count: int) -> str:
        prefix = f"{decorator}\n" if decorator else ""
        body = _annotated_body(names, default_count)
        return f"{prefix}class {class_name}{header}:\n{body}\n"

    return define


def _namedtuple_call(factory: str) -> Callable[[str, Sequence[str], int], str]:
    def define(class_name: str, names: Sequence[str], default_count: int) -> str:
        first_default = len(names) - default_count
        defaults = tuple(range(first_default, len(names)))
        return (
            f"{class_name} = {factory}({class_name!r}, {' '.join(names)!r}, defaults={defaults})\n"
        )

    return define


def _factory_call(call: str, fields: str) -> Callable[[str, Sequence[str], int], str]:
    """
    Return a functional form's ``define``: *call* with ``{name}`` and
    ``{fields}``, where *fields* formats one field (``{field}``) of a list;
    no defaults.
    """

    def define(class_name: str, names: Sequence[str], default_count: int) -> str:
        listed = ", ".join(fields.format(field=name) for name in names)
        return f"{class_name} = " + call.format(name=repr(class_name), fields=listed) + "\n"

    return define


_TUPLE_OPERATIONS = {
    "index access": "p[2]",
    "unpacking": "f0, f1, f2, f3, f4 = p",
    "_replace": "p._replace(f2=9)",
    "_asdict": "p._asdict()",
}

PEERS: tuple[Peer, ...] = (
    Peer(
        "collections.namedtuple",
        "collections",
        "import collections",
        _namedtuple_call("collections.namedtuple"),
        _TUPLE_OPERATIONS,
        short="namedtuple",
    ),
    Peer(
        "typing.NamedTuple",
        "typing",
        "import typing",
        _class_statement("(typing.NamedTuple)"),
        _TUPLE_OPERATIONS,
        functional=_factory_call("typing.NamedTuple({name}, [{fields}])", "({field!r}, int)"),
        short="NamedTuple",
    ),
    Peer(
        "dataclass(frozen, slots)",
        "dataclasses",
        "import dataclasses",
        _class_statement("", "@dataclasses.dataclass(frozen=True, slots=True)"),
        {"_replace": "dataclasses.replace(p, f2=9)", "_asdict": "dataclasses.asdict(p)"},
        minimum_python=(3, 10),  # slots=True
        functional=_factory_call(
            "dataclasses.make_dataclass({name}, [{fields}], frozen=True, slots=True)",
            "({field!r}, int)",
        ),
        short="dataclass",
    ),
    Peer(
        "attrs.frozen",
        "attrs",
        "import attrs",
        _class_statement("", "@attrs.frozen"),
        {"_replace": "attrs.evolve(p, f2=9)", "_asdict": "attrs.asdict(p)"},
        distribution="attrs",
        functional=_factory_call(
            "attrs.make_class({name}, [{fields}], frozen=True, slots=True)", "{field!r}"
        ),
        short="attrs",
    ),
    Peer(
        "msgspec.Struct(frozen)",
        "msgspec",
        "import msgspec, msgspec.structs",
        _class_statement("(msgspec.Struct, frozen=True)"),
        {"_replace": "msgspec.structs.replace(p, f2=9)", "_asdict": "msgspec.structs.asdict(p)"},
        distribution="msgspec",
        functional=_factory_call(
            "msgspec.defstruct({name}, [{fields}], frozen=True)", "{field!r}"
        ),
        short="msgspec",
    ),
    Peer(
        "records.Record",
        "records",
        "from records import Record",
        _class_statement("(Record)"),
        _TUPLE_OPERATIONS,
        distribution="records-tuple",
        functional=_factory_call("Record.define({name}, [{fields}])", "({field!r}, int)"),
        short="Record",
    ),
    Peer(
        "records.namedtuple",
        "records",
        "import records",
        _namedtuple_call("records.namedtuple"),
        _TUPLE_OPERATIONS,
        distribution="records-tuple",
        short="r.namedtuple",
    ),
)

#: The peer every ratio is taken against.
BASELINE = PEERS[0]

#: Operations every peer supports, with their statements.
COMMON_OPERATIONS = {
    "instance, positional": "P(1, 2, 3, 4, 5)",
    "instance, keyword": "P(f0=1, f1=2, f2=3, f3=4, f4=5)",
    "instance, defaults": "P(1, 2, 3)",
    "attribute access": "p.f2",
    "equality": "p == p2",
    "hash": "hash(p)",
    "pickle round trip": "loads(dumps(p, 5))",
    "copy.copy": "copy(p)",
    "copy.deepcopy": "deepcopy(p)",
}


def field_names(count: int, prefix: str = "f") -> list[str]:
    """Return *count* generated field names: f0, f1, ..."""
    return [f"{prefix}{index}" for index in range(count)]
