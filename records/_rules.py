"""
The rules a record definition must follow, and every message that breaks one.

Pure and standard-library only: the mypy plugin reports the same texts, so the
runtime and the type checker never drift apart.
"""

from __future__ import annotations

from keyword import kwlist

#: Mutable default values that must be given through ``default_factory``.
MUTABLE_DEFAULT_TYPES = (list, dict, set)

#: Python's keywords: ``keyword.iskeyword`` is membership in this same set.
KEYWORDS = frozenset(kwlist)

#: Other libraries' field objects, by (module, class name), as a user would
#: have written them: given as a default, records would keep the object
#: itself as the field's value. The C builder leaves a default whose class
#: has one of these names to the Python builder (``is_refused_default()`` in
#: ``records/_c/builder.h``).
FOREIGN_FIELD_TYPES = {
    ("dataclasses", "Field"): "dataclasses.field()",
    ("attr._make", "_CountingAttr"): "attrs.field()",
    ("attr._make", "Factory"): "attrs.Factory()",
}

#: The class names of ``FOREIGN_FIELD_TYPES``, for a cheap first look.
FOREIGN_FIELD_NAMES = frozenset(name for _, name in FOREIGN_FIELD_TYPES)

#: Names a class body may not define, because records compute them.
COMPUTED_NAMES = frozenset({"_fields", "_field_defaults", "__record_factories__"})

#: Methods a record's body may not define: nothing would call them as meant.
REFUSED_METHODS = ("__init__", "__post_init__")


def invalid_name_message(record: str, name: object) -> str | None:
    """
    Return why *name* cannot name a field of *record*, or ``None`` if it can.
    """
    if type(name) is not str:
        return f"record {record!r}: field names must be strings, not {type(name).__name__!r}"
    if not name.isidentifier():
        return f"record {record!r}: field name {name!r} is not a valid identifier"
    if name in KEYWORDS:
        return f"record {record!r}: field name {name!r} is a keyword"
    if name.startswith("_"):
        return f"record {record!r}: field name {name!r} starts with an underscore"
    return None


def invalid_typename_message(typename: object) -> str | None:
    """
    Return why *typename* cannot name a record type, or ``None`` if it can.
    """
    if type(typename) is not str:
        return f"record type names must be strings, not {type(typename).__name__!r}"
    if not typename.isidentifier() or typename in KEYWORDS:
        return f"record type name {typename!r} is not a valid identifier"
    return None


def duplicate_field_message(record: str, name: str) -> str:
    """Message for a field declared twice in one record."""
    return f"record {record!r}: duplicate field {name!r}"


def inherited_field_message(record: str, name: str, base: str) -> str:
    """Message for a field that redefines one inherited from *base*."""
    return f"record {record!r}: field {name!r} is already defined in base record {base!r}"


def field_order_message(record: str, name: str, previous: str) -> str:
    """Message for a field without a default after one with a default."""
    return f"record {record!r}: non-default field {name!r} follows default field {previous!r}"


def mutable_default_message(record: str, name: str, value: object) -> str:
    """Message for a ``list``, ``dict`` or ``set`` instance used as a default."""
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return mutable_default_text(record, name, shown, type(value).__name__)


def mutable_default_text(record: str, name: str, shown: str, factory: str) -> str:
    """Message for a mutable default shown as *shown*, to be made by *factory*."""
    return (
        f"record {record!r}: mutable default {shown} for field {name!r} is not allowed: "
        f"use field(default_factory={factory})"
    )


def foreign_field_message(record: str, name: str, value: object) -> str | None:
    """
    Return why *value*, another library's field object, cannot be the
    default of field *name*, or ``None`` if it is not one.
    """
    kind = type(value)
    spelling = FOREIGN_FIELD_TYPES.get((kind.__module__, kind.__qualname__))
    return None if spelling is None else foreign_field_text(record, name, spelling)


def foreign_field_text(record: str, name: str, spelling: str) -> str:
    """Message for another library's field object, written *spelling*, as a default."""
    return (
        f"record {record!r}: field {name!r} has {spelling} as its default, which records would "
        "keep as the value: use records.field(default=..., default_factory=...)"
    )


def init_message(record: str) -> str:
    """Message for an ``__init__`` in a record's body."""
    return (
        f"record {record!r}: cannot define __init__ (a record is a tuple, complete when "
        "__new__ returns): check or derive values in __new__, returning super().__new__(cls, ...)"
    )


def field_assignment_message(record: str, name: str, *, delete: bool = False) -> str:
    """Message for setting or deleting field *name* of an instance of *record*."""
    verb = "delete" if delete else "assign to"
    return (
        f"record {record!r}: cannot {verb} field {name!r}: records are immutable; "
        f"make a changed copy with _replace({name}=...)"
    )


def default_and_factory_message(record: str, name: str) -> str:
    """Message for ``field()`` given both a default and a factory."""
    return f"record {record!r}: field {name!r} cannot have both a default and a default_factory"


def doc_not_str_message(record: str, name: str, doc: object) -> str:
    """Message for a ``field(doc=...)`` that is not a string."""
    return (
        f"record {record!r}: the doc of field {name!r} must be a str or None, "
        f"not {type(doc).__name__!r}"
    )


def factory_not_callable_message(record: str, name: str, factory: object) -> str:
    """Message for a ``default_factory`` that cannot be called."""
    return (
        f"record {record!r}: default_factory for field {name!r} must be callable, "
        f"not {type(factory).__name__!r}"
    )


def computed_name_message(record: str, name: str) -> str:
    """Message for a class body that defines a name records compute."""
    return f"record {record!r}: {name!r} is computed from the annotations and cannot be defined"


def slots_message(record: str) -> str:
    """
    Message for a record body that defines ``__slots__`` other than empty.

    CPython refuses it itself ("nonempty __slots__ not supported for subtype
    of ..."): a record is a tuple, whose subclasses cannot add slots. The
    type checker says so in the records' terms.
    """
    return f"record {record!r}: __slots__ must be empty (subclasses of tuple cannot add slots)"


def post_init_message(record: str) -> str:
    """Message for a record that defines or inherits a ``__post_init__``, which nothing calls."""
    return (
        f"record {record!r}: __post_init__ would never be called (records have no __init__): "
        "check or derive values in __new__, returning super().__new__(cls, ...)"
    )


def two_record_bases_message(record: str, first: str, second: str) -> str:
    """Message for a record with two unrelated record bases."""
    return f"record {record!r}: cannot inherit fields from two records, {first!r} and {second!r}"


def not_finished_message(record: str) -> str:
    """Message for an instance asked of a record class that is being built."""
    return f"record {record!r} is being built: its instances can be made once it is"


def subclassed_while_built_message(record: str) -> str:
    """Message for a record class that got a subclass before its build ended."""
    return f"record {record!r} got a subclass while it was being built"


def named_tuple_base_message(record: str, base: str) -> str:
    """Message for a record that also inherits from another kind of named tuple."""
    return (
        f"record {record!r}: cannot inherit from the named tuple {base!r}: "
        f"declare its fields in a Record instead"
    )


def wrong_size_message(record: str, size: int, expected: int) -> str:
    """Message for replacing fields of a record that does not hold one item per field."""
    return f"record {record!r}: cannot replace fields of a record of {size} items, not {expected}"


def abstract_record_message() -> str:
    """Message for calling ``Record`` itself."""
    return "Record cannot be instantiated directly: subclass it and declare fields"


def incomplete_record_message(record: str) -> str:
    """Message for making an instance of a record class that records has not built yet."""
    return (
        f"record {record!r} is not built yet: records builds it in Record.__init_subclass__, "
        "which has not finished for it; make instances after it has"
    )


def wrong_length_message(expected: int, got: int) -> str:
    """``namedtuple._make``'s message for an iterable of the wrong length."""
    return f"Expected {expected} arguments, got {got}"


def unexpected_fields_message(names: list[str]) -> str:
    """``namedtuple._replace``'s message for names that are not fields."""
    return f"Got unexpected field names: {names!r}"


def no_dict_message(record: str, name: str) -> str:
    """
    Message for setting or deleting attribute *name*, which is neither a
    field nor a descriptor, on an instance of *record*: what CPython says for
    an object without a ``__dict__`` whose class defines ``__setattr__``, as
    ``Record`` does (a record whose layout could not be sealed says the same).
    """
    return f"{record!r} object has no attribute {name!r}"


def not_a_record_message(function: str, value: object) -> str:
    """Message for ``fields()``, ``replace()`` or ``asdict()`` given something else."""
    kind = "a record class or instance" if function == "fields" else "a record"
    return f"{function}() needs {kind}, not {value!r}"


def field_pair_message(record: str, pair: object) -> str:
    """Message for an item of ``Record.define``'s fields that is not a pair."""
    return f"record {record!r}: fields must be (name, type) pairs, not {pair!r}"


def unknown_default_message(record: str, name: str) -> str:
    """Message for a default given to ``Record.define`` for a name that is not a field."""
    return f"record {record!r}: default given for unknown field {name!r}"


def as_in_source(name: str) -> str:
    """
    Return identifier *name* as Python reads it in source code.

    The parser NFKC-normalizes identifiers (PEP 3131): ``ﬁ`` in source is the
    name ``fi``. ASCII names are returned as they are, without importing
    ``unicodedata``.
    """
    if name.isascii():
        return name
    from unicodedata import normalize

    return normalize("NFKC", name)


# Messages of the functional form (Record.define), as the mypy plugin reports them


def define_field_type_message(record: str, name: str) -> str:
    """Message for a ``Record.define`` field whose type is an expression, not a type."""
    return f"record {record!r}: the type of field {name!r} is not a type"
