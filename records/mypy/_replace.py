"""
``records.replace(record, **changes)`` checked like ``record._replace(**changes)``.
"""

from __future__ import annotations

from mypy.typeops import bind_self
from mypy.types import CallableType, Instance, TupleType, Type, get_proper_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mypy.plugin import FunctionContext

#: Where replace is defined: the stub (records) or the source (records._funcs).
REPLACE_FULLNAMES = frozenset({"records.replace", "records._funcs.replace"})


def replace_hook(ctx: FunctionContext) -> Type:
    """Check the keyword arguments against the record's ``_replace``."""
    if not ctx.arg_types or not ctx.arg_types[0]:
        return ctx.default_return_type
    record_type = get_proper_type(ctx.arg_types[0][0])
    if isinstance(record_type, TupleType):
        info = record_type.partial_fallback.type
    elif isinstance(record_type, Instance):
        info = record_type.type
    else:
        return ctx.default_return_type
    method = info.get_method("_replace")
    method_type = get_proper_type(method.type) if method is not None else None
    if not isinstance(method_type, CallableType):
        return ctx.default_return_type
    bound = bind_self(method_type, record_type)
    checker = getattr(ctx.api, "expr_checker", None)
    if checker is None or len(ctx.args) < 2:
        return ctx.default_return_type
    result, _ = checker.check_call(
        bound, ctx.args[1], ctx.arg_kinds[1], ctx.context, ctx.arg_names[1]
    )
    # The checker is reached through getattr (the plugin interface does not
    # offer it), so mypy types the result Any.
    return result  # type: ignore[no-any-return]
