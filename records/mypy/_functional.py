"""
``Point = Record.define("Point", [("x", int)], defaults={...})`` typed from its
arguments, when they are literals: a class built as the equivalent class
statement would be.
"""

from __future__ import annotations

from contextlib import contextmanager

from mypy.erasetype import erase_typevars
from mypy.exprtotype import TypeTranslationError, expr_to_unanalyzed_type
from mypy.nodes import (
    GDEF,
    MDEF,
    AssignmentStmt,
    DictExpr,
    Expression,
    ListExpr,
    MemberExpr,
    NameExpr,
    RefExpr,
    StrExpr,
    SymbolTableNode,
    TempNode,
    TupleExpr,
    TypeInfo,
    Var,
)
from mypy.plugin import ClassDefContext
from mypy.semanal import SemanticAnalyzer
from mypy.type_visitor import TypeTranslator
from mypy.types import (
    AnyType,
    Instance,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeVarLikeType,
    UnboundType,
)

from . import _errors
from ._fields import RECORD_FULLNAME, any_type, is_record
from ._parsed import is_attribute_define, is_inline_base
from ._transform import transform, wait

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from mypy.plugin import (
        DynamicClassDefContext,
        FunctionContext,
        MethodContext,
        SemanticAnalyzerPluginInterface,
    )


def _arguments(ctx: DynamicClassDefContext) -> dict[str, Expression]:
    names = ("typename", "fields")
    found: dict[str, Expression] = {}
    positional = 0
    for name, value in zip(ctx.call.arg_names, ctx.call.args):
        if name is None:
            if positional < len(names):
                found[names[positional]] = value
            positional += 1
        else:
            found[name] = value
    return found


def _field_pairs(fields: Expression) -> list[tuple[str, Expression]] | None:
    if isinstance(fields, DictExpr):
        pairs = []
        for key, value in fields.items:
            if not isinstance(key, StrExpr):
                return None
            pairs.append((key.value, value))
        return pairs
    if isinstance(fields, (ListExpr, TupleExpr)):
        pairs = []
        for item in fields.items:
            if not (isinstance(item, TupleExpr) and len(item.items) == 2):
                return None
            name, annotation = item.items
            if not isinstance(name, StrExpr):
                return None
            pairs.append((name.value, annotation))
        return pairs
    return None


def define_hook(ctx: DynamicClassDefContext) -> None:
    """Build the class ``Record.define(...)`` returns (or ``SomeRecord.define``, or ``define``)."""
    callee = ctx.call.callee
    base = None
    if isinstance(callee, MemberExpr) and isinstance(callee.expr, RefExpr):
        base = callee.expr.node  # the record of SomeRecord.define, or a module
    if not isinstance(base, TypeInfo):  # records.as_namedtuple's define: Record.define
        symbol = ctx.api.lookup_fully_qualified_or_none(RECORD_FULLNAME)
        base = symbol.node if symbol is not None else None
    if not isinstance(base, TypeInfo):
        return
    arguments = _arguments(ctx)
    pairs = _field_pairs(arguments["fields"]) if "fields" in arguments else None
    if pairs is None:
        return  # not literal: leave the call typed as a plain record class
    defaults: dict[str, Expression] = {}
    given = arguments.get("defaults")
    if isinstance(given, DictExpr):
        for key, value in given.items:
            if isinstance(key, StrExpr):
                defaults[key.value] = value

    api = ctx.api
    typename = arguments.get("typename")
    record = typename.value if isinstance(typename, StrExpr) else ctx.name
    # The class exists before its fields' types are read, so that a field
    # may name it ("Node"), as a class statement's fields may name theirs.
    info = _existing_class(ctx)
    if info is None:
        info = api.basic_new_typeinfo(ctx.name, Instance(base, []), ctx.call.line)
        info.line = info.defn.line = ctx.call.line
        api.add_symbol_table_node(ctx.name, SymbolTableNode(GDEF, info))
        _add_global_name(api, info)
    with _class_scope(api, ctx.name) as bind:
        _build(ctx, info, record, pairs, defaults, bind)


def _build(
    ctx: DynamicClassDefContext,
    info: TypeInfo,
    record: str,
    pairs: list[tuple[str, Expression]],
    defaults: dict[str, Expression],
    bind: Callable[[list[Expression]], list[TypeVarLikeType]],
) -> None:
    """Build the record *info* as the class statement of its fields would be built."""
    api = ctx.api
    type_vars = bind([annotation for _, annotation in pairs])
    types = _field_types(api, record, pairs)
    if types is None:
        wait(api, info)
        return
    if type_vars and is_inline_base(ctx.name):
        _errors.error_generic_inline_base(api, ctx.call)
        types = [erase_typevars(typ) for typ in types]
        type_vars = []
    _set_type_variables(api, info, type_vars)
    if record != ctx.name and not is_inline_base(ctx.name):
        _errors.error_name_mismatch(api, ctx.name, record, ctx.call)

    defn = info.defn
    defn.defs.body.clear()
    for (name, _), typ in zip(pairs, types):
        var = Var(name, typ)
        var.info = info
        var._fullname = f"{info.fullname}.{name}"
        info.names[name] = SymbolTableNode(MDEF, var)
        statement = AssignmentStmt([NameExpr(name)], defaults.get(name, TempNode(any_type())), typ)
        statement.new_syntax = True
        statement.line = ctx.call.line
        defn.defs.body.append(statement)
    transform(ClassDefContext(defn, ctx.call, api))


def attribute_define_hook(ctx: FunctionContext | MethodContext) -> Type:
    """Report ``self.x = Record.define(...)`` (see ``_parsed``); the call's type is kept."""
    if is_attribute_define(ctx.context):
        _errors.error_define_as_attribute(ctx.api, ctx.context)
    return ctx.default_return_type


def _field_types(
    api: SemanticAnalyzerPluginInterface, record: str, pairs: list[tuple[str, Expression]]
) -> list[Type] | None:
    """Return the analysed types of the fields; ``None`` when one must wait for the next pass."""
    types: list[Type] = []
    for name, annotation in pairs:
        try:
            unanalyzed = expr_to_unanalyzed_type(annotation, api.options, api.is_stub_file)
        except TypeTranslationError:
            _errors.error_field_type(api, record, name, annotation)
            unanalyzed = AnyType(TypeOfAny.from_error)
        analyzed = _analysed(api, unanalyzed)
        if analyzed is None:
            if not api.final_iteration:
                return None
            analyzed = AnyType(TypeOfAny.from_error)
        types.append(analyzed.accept(_InvalidAsAny()))
    return types


def _analysed(api: SemanticAnalyzerPluginInterface, unanalyzed: Type) -> Type | None:
    """
    Return the field type *unanalyzed* analysed, with ``Self`` refused as in a named tuple.

    mypy's functional ``NamedTuple`` has its type analyser refuse ``Self`` in
    an item type: reported where it is named, and read as ``Any``. The plugin
    interface's ``anal_type`` cannot ask for that; mypy's semantic analyser,
    the interface's one implementation, can.
    """
    if isinstance(api, SemanticAnalyzer):
        return api.anal_type(unanalyzed, prohibit_self_type=_errors.SELF_IN_FIELD)
    return api.anal_type(unanalyzed)


class _InvalidAsAny(TypeTranslator):
    """
    Replace what names no type (``foo`` a function), reported already, by ``Any``.

    mypy's type analyser reports such a name and leaves it unanalysed. In a
    field type it would be analysed again with the generated methods'
    signatures, inside the record's class, where it may name a field.
    """

    def visit_unbound_type(self, t: UnboundType) -> Type:
        """Return the ``Any`` of an error."""
        return AnyType(TypeOfAny.from_error)

    def visit_type_alias_type(self, t: TypeAliasType) -> Type:
        """Keep an alias (a record named in a field): analysed, maybe recursive."""
        return t


@contextmanager
def _class_scope(
    api: SemanticAnalyzerPluginInterface, name: str
) -> Iterator[Callable[[list[Expression]], list[TypeVarLikeType]]]:
    """
    Open the class's scope of type variables; yield what binds those of field types.

    As for the functional ``NamedTuple``, every type variable the field types
    name becomes a type parameter of the record, in order of first mention
    (``Record.define("Pair", [("key", K), ("value", V)])`` is ``Pair[K, V]``).
    mypy binds them in the class's scope, through its semantic analyser's
    ``get_and_bind_all_tvars`` (the plugin interface has no equivalent), so
    that the field types read them as bound. The record is built in that
    scope too, as a class statement's record is built in its class's: the
    self type variable of its generated methods is numbered there, as the
    methods' own scope numbers it when mypy analyses them.
    """
    if not isinstance(api, SemanticAnalyzer):  # another analyser: no type parameters
        yield lambda _: []
        return
    with api.tvar_scope_frame(api.tvar_scope.class_frame(api.qualified_name(name))):
        yield api.get_and_bind_all_tvars


def _set_type_variables(
    api: SemanticAnalyzerPluginInterface, info: TypeInfo, type_vars: list[TypeVarLikeType]
) -> None:
    """Make *type_vars* the type parameters of the record *info* (none: not generic)."""
    if isinstance(api, SemanticAnalyzer):
        api.setup_type_vars(info.defn, type_vars)


def _add_global_name(api: SemanticAnalyzerPluginInterface, info: TypeInfo) -> None:
    """
    Name a record made in a function in its module too (``Point@12``), as mypy names a class.

    mypy names a class defined in a function after it and its line, in the
    module's symbol table, which its cache keeps (a function's own table
    is not kept), and through which ``lookup_fully_qualified`` finds the
    class: the plugin's base class hook then finds a record a class in the
    function derives from.
    """
    module, _, name = info.fullname.rpartition(".")
    if module == api.cur_mod_id and "@" in name:  # made in a function (or a base list)
        api.modules[module].names[name] = SymbolTableNode(GDEF, info)


def _existing_class(ctx: DynamicClassDefContext) -> TypeInfo | None:
    """
    Return the class an earlier pass built for this call, if there is one.

    mypy analyses a module again while any of its parts waits (deferral).
    A new class on each pass would be a change of the name's symbol, which
    mypy counts as progress: a module with a part that waits for mypy's
    final pass (a bare ``Final`` field) would never reach it. The class of
    the earlier pass is built again in place instead, and its symbol is
    left as it is. (The class an earlier pass made for the call, not built
    yet when a field's type waited, is a record all the same.)
    """
    symbol = ctx.api.lookup_qualified(ctx.name, ctx.call, suppress_errors=True)
    node = symbol.node if symbol is not None else None
    if (
        isinstance(node, TypeInfo)
        # mypy 1.x names a class made in a function Point@12
        and node.name in (ctx.name, f"{ctx.name}@{ctx.call.line}")
        and node.defn.line == ctx.call.line
        and is_record(node)
    ):
        return node
    return None
