"""
The plugin's record of a field, and the names every part of the plugin shares.

A built record keeps its fields, inherited ones first, in
``TypeInfo.metadata["records"]``, which mypy writes to its cache::

    {"fields": [{"name": "x", "has_default": false}, ...]}

Field types are not stored there: the ``Var`` of each field, on the record
that declares it, holds the type, and mypy caches it with that class.
"""

from __future__ import annotations

from mypy.nodes import TypeInfo, Var
from mypy.typeops import map_type_from_supertype
from mypy.types import AnyType, TypeOfAny

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mypy.nodes import JsonDict
    from mypy.types import Type

#: Record as the stub defines it.
RECORD_FULLNAME = "records.Record"
#: Where Record is defined: the stub (records) or the source (records._record).
RECORD_FULLNAMES = frozenset({RECORD_FULLNAME, "records._record.Record"})
#: Where field is defined: the stub (records) or the source (records._fields).
FIELD_FULLNAMES = frozenset({"records.field", "records._fields.field"})
#: The plugin's key in ``TypeInfo.metadata``.
METADATA_KEY = "records"


def any_type() -> AnyType:
    """Return the ``Any`` of what has no type of its own (``tuple[Any, ...]``'s item)."""
    return AnyType(TypeOfAny.special_form)


def is_record(info: TypeInfo) -> bool:
    """Whether *info* is a record class (Record itself excluded)."""
    return info.fullname not in RECORD_FULLNAMES and any(
        base.fullname in RECORD_FULLNAMES for base in info.mro
    )


class Field:
    """One field as the plugin sees it; stored as its name and whether it has a default."""

    def __init__(self, name: str, typ: Type, has_default: bool) -> None:
        self.name = name
        self.type = typ
        self.has_default = has_default

    def serialize(self) -> JsonDict:
        """Return the field's entry in the record's metadata."""
        return {"name": self.name, "has_default": self.has_default}

    @classmethod
    def deserialize(cls, data: JsonDict, source: TypeInfo, info: TypeInfo) -> Field:
        """Rebuild a field the record *source* stores, typed as its subclass *info* sees it."""
        # The field's Var lives on the record that declared it, which may be
        # further up than source.
        symbol = source.get(data["name"])
        node = symbol.node if symbol is not None else None
        if isinstance(node, Var) and node.type is not None:
            typ = map_type_from_supertype(node.type, info, node.info)
        else:
            typ = any_type()
        return cls(data["name"], typ, data["has_default"])


def store(info: TypeInfo, fields: list[Field]) -> None:
    """Keep the record *info*'s *fields* (inherited ones first) in its metadata."""
    info.metadata[METADATA_KEY] = {
        "fields": [field.serialize() for field in fields],
    }


def is_built(info: TypeInfo) -> bool:
    """Whether the plugin has stored the fields of the record *info*."""
    return METADATA_KEY in info.metadata


def stored_names(info: TypeInfo) -> list[str]:
    """Return the names of the fields *info* stores (none before it is built)."""
    stored = info.metadata.get(METADATA_KEY)
    return [entry["name"] for entry in stored["fields"]] if stored is not None else []


def stored_fields(source: TypeInfo, info: TypeInfo) -> list[Field]:
    """Return the fields the built record *source* stores, typed as *info* sees them."""
    return [
        Field.deserialize(entry, source, info) for entry in source.metadata[METADATA_KEY]["fields"]
    ]
