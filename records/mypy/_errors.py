"""
Error codes of the records mypy plugin, one ``error_*`` helper per message.

The texts come from ``records._rules``, the same templates the runtime uses,
with mypy's quoting (``"name"`` instead of ``'name'``).
"""

from __future__ import annotations

from mypy import errorcodes as codes
from mypy.errorcodes import NAME_MATCH, ErrorCode
from mypy.semanal import SemanticAnalyzer

from records import _rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mypy.nodes import Context
    from mypy.plugin import CheckerPluginInterface, SemanticAnalyzerPluginInterface

FIELD_NAME = ErrorCode(
    "records-field-name", "Record field names must be public identifiers", "records"
)
FIELD_ORDER = ErrorCode(
    "records-field-order", "Fields without defaults must precede fields with defaults", "records"
)
REDEFINED_FIELD = ErrorCode(
    "records-redefined-field", "A field is defined by one record only", "records"
)
RECORD_BASES = ErrorCode("records-record-bases", "Fields come from one record base", "records")
MUTABLE_DEFAULT = ErrorCode(
    "records-mutable-default", "list, dict and set defaults need default_factory", "records"
)
FOREIGN_FIELD = ErrorCode(
    "records-foreign-field", "Defaults are values or records.field(...)", "records"
)
INIT = ErrorCode(
    "records-init", "Records are made by __new__: no __init__ or __post_init__", "records"
)
COMPUTED_NAME = ErrorCode(
    "records-computed-name", "Records compute _fields and _field_defaults", "records"
)
SLOTS = ErrorCode("records-slots", "A record's __slots__ is empty", "records")
FIELD_TYPE = ErrorCode(
    "records-field-type", "Record.define needs a type for each field", "records"
)


def _mypy_quotes(message: str) -> str:
    return message.replace("'", '"')


def error_field_name(
    api: SemanticAnalyzerPluginInterface, record: str, name: str, context: Context
) -> None:
    """Report a field name records refuse (leading underscore)."""
    message = _rules.invalid_name_message(record, name) or ""
    api.fail(_mypy_quotes(message), context, code=FIELD_NAME)


def error_field_order(
    api: SemanticAnalyzerPluginInterface, record: str, name: str, previous: str, context: Context
) -> None:
    """Report a field without a default after one with a default."""
    api.fail(
        _mypy_quotes(_rules.field_order_message(record, name, previous)), context, code=FIELD_ORDER
    )


def error_redefined_field(
    api: SemanticAnalyzerPluginInterface, record: str, name: str, base: str, context: Context
) -> None:
    """Report a field that re-annotates an inherited one."""
    message = _rules.inherited_field_message(record, name, base)
    api.fail(_mypy_quotes(message), context, code=REDEFINED_FIELD)


def error_record_bases(
    api: SemanticAnalyzerPluginInterface, record: str, first: str, second: str, context: Context
) -> None:
    """Report fields inherited from two unrelated records."""
    message = _rules.two_record_bases_message(record, first, second)
    api.fail(_mypy_quotes(message), context, code=RECORD_BASES)


def error_mutable_default(
    api: SemanticAnalyzerPluginInterface,
    record: str,
    name: str,
    shown: str,
    factory: str,
    context: Context,
) -> None:
    """Report a list, dict or set default."""
    message = _rules.mutable_default_text(record, name, shown, factory)
    api.fail(_mypy_quotes(message), context, code=MUTABLE_DEFAULT)


def error_field_type(
    api: SemanticAnalyzerPluginInterface, record: str, name: str, context: Context
) -> None:
    """Report a ``Record.define`` field given an expression that is not a type."""
    message = _rules.define_field_type_message(record, name)
    api.fail(_mypy_quotes(message), context, code=FIELD_TYPE)


def error_foreign_field(
    api: SemanticAnalyzerPluginInterface, record: str, name: str, spelling: str, context: Context
) -> None:
    """Report another library's field object (``dataclasses.field()``) as a default."""
    message = _rules.foreign_field_text(record, name, spelling)
    api.fail(_mypy_quotes(message), context, code=FOREIGN_FIELD)


def error_init(
    api: SemanticAnalyzerPluginInterface, record: str, method: str, context: Context
) -> None:
    """Report an ``__init__`` or ``__post_init__`` in a record's body."""
    if method == "__init__":
        message = _rules.init_message(record)
    else:
        message = _rules.post_init_message(record)
    api.fail(_mypy_quotes(message), context, code=INIT)


def error_computed_name(
    api: SemanticAnalyzerPluginInterface, record: str, name: str, context: Context
) -> None:
    """Report a name records compute (``_fields``) defined in a record's body."""
    message = _rules.computed_name_message(record, name)
    api.fail(_mypy_quotes(message), context, code=COMPUTED_NAME)


def error_slots(api: SemanticAnalyzerPluginInterface, record: str, context: Context) -> None:
    """Report ``__slots__`` other than empty in a record's body."""
    api.fail(_mypy_quotes(_rules.slots_message(record)), context, code=SLOTS)


def error_class_keyword(api: SemanticAnalyzerPluginInterface, name: str, context: Context) -> None:
    """Report a class keyword that no ``__init_subclass__`` takes, in mypy's words."""
    message = f'Unexpected keyword argument "{name}" for "__init_subclass__" of "Record"'
    api.fail(message, context, code=codes.CALL_ARG)


# Where ``Self`` is refused, in the words of mypy's "Self type cannot be used in
# NamedTuple item type": its type analyser reports a ``Record.define`` field's
# ``Self`` with it (``prohibit_self_type``), as it reports a ``NamedTuple(...)`` one.
SELF_IN_FIELD = "a record field type"


def error_self_in_field(api: SemanticAnalyzerPluginInterface, context: Context) -> None:
    """Report ``Self`` in a field's type, in mypy's words for a named tuple's item."""
    api.fail(f"Self type cannot be used in {SELF_IN_FIELD}", context, code=codes.MISC)


# mypy's own messages for the functional NamedTuple, where records follow it.


def error_generic_inline_base(api: SemanticAnalyzerPluginInterface, context: Context) -> None:
    """Report a generic ``Record.define(...)`` base, as mypy reports a ``NamedTuple(...)`` one."""
    api.fail("Generic named tuples are not supported for legacy class syntax", context)
    if isinstance(api, SemanticAnalyzer):  # the plugin interface has no notes
        api.note("Use either Python 3 class syntax, or the assignment syntax", context)


def error_name_mismatch(
    api: SemanticAnalyzerPluginInterface, variable: str, record: str, context: Context
) -> None:
    """Report ``A = Record.define("X", ...)``, as mypy reports it for ``NamedTuple``."""
    message = f'First argument to namedtuple() should be "{variable}", not "{record}"'
    api.fail(message, context, code=NAME_MATCH)


def error_define_as_attribute(api: CheckerPluginInterface, context: Context) -> None:
    """Report ``self.x = Record.define(...)``, as mypy reports ``self.x = NamedTuple(...)``."""
    api.fail("NamedTuple type as an attribute is not supported", context)
