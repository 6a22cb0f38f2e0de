"""
Turn a record class into what mypy needs: fields, a tuple type, and methods.

Runs from ``get_base_class_hook`` after the class body is analysed, possibly
several times (deferral), so every step is idempotent. All state lives on the
``TypeInfo``: ``names``, ``tuple_type`` and ``metadata["records"]`` (JSON).
"""

from __future__ import annotations

from mypy.nodes import (
    ARG_NAMED_OPT,
    ARG_OPT,
    ARG_POS,
    MDEF,
    Argument,
    AssignmentStmt,
    Block,
    CallExpr,
    Decorator,
    DictExpr,
    Expression,
    FuncDef,
    ListExpr,
    NameExpr,
    RefExpr,
    SetExpr,
    SymbolTableNode,
    TempNode,
    TypeInfo,
    TypeVarExpr,
    Var,
)
from mypy.semanal_shared import PRIORITY_FALLBACKS, calculate_tuple_fallback, set_callable_name
from mypy.typeops import map_type_from_supertype
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    TupleType,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeType,
    TypeVarId,
    TypeVarType,
    UnionType,
    get_proper_type,
    has_type_vars,
)

from . import _errors

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mypy.plugin import ClassDefContext, SemanticAnalyzerPluginInterface

#: Where Record is defined: the stub (records) or the source (records._record).
RECORD_FULLNAMES = frozenset({"records._mypy_view.Record", "records._record.Record"})
FIELD_FULLNAMES = frozenset({"records.field", "records._fields.field"})
METADATA_KEY = "records"
SELF_TVAR_NAME = "_RecordSelf"
MUTABLE_CALLS = {"builtins.list": "list", "builtins.dict": "dict", "builtins.set": "set"}


def is_record(info: TypeInfo) -> bool:
    """Whether *info* is a record class (Record itself excluded)."""
    return info.fullname not in RECORD_FULLNAMES and any(
        base.fullname in RECORD_FULLNAMES for base in info.mro
    )


class _Field:
    """One field as the plugin sees it."""

    def __init__(self, name: str, typ: Type, has_default: bool) -> None:
        self.name = name
        self.type = typ
        self.has_default = has_default


def transform(ctx: ClassDefContext, *, synthetic: bool = False) -> None:  # noqa: PLR0912, PLR0915 - one pass, as mypy's own
    """
    Build the record *ctx.cls*; defer while a base record is not ready.

    *synthetic* classes (from ``Record.define``) are not class statements:
    mypy analyses their generated methods outside any class scope, where a
    self type variable cannot be bound, so those methods take and return the
    class itself.
    """
    info = ctx.cls.info
    api = ctx.api
    record = info.name

    source: TypeInfo | None = None
    conflict = False
    for base in info.mro[1:]:
        if not is_record(base):
            continue
        if METADATA_KEY not in base.metadata:
            if not api.final_iteration:
                api.defer()
            return
        if base.metadata[METADATA_KEY]["fields"]:
            if source is None:
                source = base
            elif not source.has_base(base.fullname) and _is_direct_base(info, base):
                _errors.error_record_bases(api, record, source.name, base.name, ctx.cls)
                conflict = True

    inherited: list[_Field] = []
    if source is not None:
        for entry in source.metadata[METADATA_KEY]["fields"]:
            # The field's Var lives on the record that declared it, which may
            # be further up than the nearest record base.
            symbol = source.get(entry["name"])
            node = symbol.node if symbol is not None else None
            if isinstance(node, Var) and node.type is not None:
                mapped = map_type_from_supertype(node.type, info, node.info)
            else:
                mapped = _any()
            inherited.append(_Field(entry["name"], mapped, entry["has_default"]))

    own: list[_Field] = []
    previous_default = next((f.name for f in reversed(inherited) if f.has_default), None)
    for stmt in ctx.cls.defs.body:
        if not (isinstance(stmt, AssignmentStmt) and stmt.new_syntax and len(stmt.lvalues) == 1):
            continue
        lvalue = stmt.lvalues[0]
        if not isinstance(lvalue, NameExpr):
            continue
        symbol = info.names.get(lvalue.name)
        node = symbol.node if symbol is not None else None
        if not isinstance(node, Var) or node.is_classvar:
            continue
        name = lvalue.name
        if node.type is None:
            if not api.final_iteration:
                api.defer()
                return
            node.type = _any()
        if name.startswith("_"):
            _errors.error_field_name(api, record, name, stmt)
        if any(field.name == name for field in inherited):
            declared_in = _declaring_class(source, name) if source is not None else record
            _errors.error_redefined_field(api, record, name, declared_in, stmt)
            continue
        has_default = _has_default(api, record, name, stmt.rvalue, stmt)
        if has_default:
            previous_default = name
        elif previous_default is not None:
            _errors.error_field_order(api, record, name, previous_default, stmt)
        node.is_property = True  # read-only, as the accessor is
        own.append(_Field(name, node.type, has_default))

    fields = inherited + own
    if any(_mentions_record(field.type) for field in own):
        # Annotations analysed before this hook ran name record classes (this
        # one, or one across an import cycle) as plain classes. Point them at
        # the records' tuple types through their type aliases, as mypy does
        # for named tuples: recursive, and printed by name.
        fallback = api.named_type("builtins.tuple", [_any()])
        info.update_tuple_type(TupleType([f.type for f in fields], fallback))
        for field in own:
            field.type = _as_tuple_types(field.type)
            node = info.names[field.name].node
            if isinstance(node, Var):
                node.type = field.type
    # Below a record made by Record.define, self type variables do not bind
    # either (mypy 2.4): the whole family uses concrete class types.
    synthetic = synthetic or (
        source is not None and bool(source.metadata[METADATA_KEY].get("synthetic"))
    )
    info.metadata[METADATA_KEY] = {
        "fields": [{"name": f.name, "has_default": f.has_default} for f in fields],
        "synthetic": synthetic,
    }
    _forget_own_tuple_conflict(ctx)
    _set_tuple_type(ctx, fields)
    if not conflict:  # a class with two record bases keeps the first one's methods
        _add_members(ctx, fields, synthetic=synthetic)
    if not api.final_iteration and any(_mentions_record(f.type, unbuilt_only=True) for f in own):
        # A record across an import cycle is not built yet. This class is
        # complete for others to use; one more pass converts the reference.
        api.defer()


def _as_tuple_types(typ: Type) -> Type:
    """
    Return *typ* with instances of record classes replaced by their tuple types.

    Handles instances (and their arguments), unions and tuples: the shapes of
    field annotations (``Node | None``, ``list[Node]``). mypy's own type
    translators are compiled and cannot be subclassed from a plugin.
    """
    if isinstance(typ, TypeAliasType):  # already converted; may be recursive
        return typ
    proper = get_proper_type(typ)
    if isinstance(proper, Instance):
        info = proper.type
        if info.special_alias is not None and info.tuple_type is not None and is_record(info):
            return TypeAliasType(info.special_alias, list(proper.args))
        if proper.args:
            return proper.copy_modified(args=[_as_tuple_types(arg) for arg in proper.args])
    elif isinstance(proper, UnionType):
        return UnionType(
            [_as_tuple_types(item) for item in proper.items], proper.line, proper.column
        )
    elif isinstance(proper, TupleType):
        return proper.copy_modified(items=[_as_tuple_types(item) for item in proper.items])
    return typ


def _mentions_record(typ: Type, *, unbuilt_only: bool = False) -> bool:
    """Whether *typ* names a record class as a plain instance (one not built yet, if asked)."""
    if isinstance(typ, TypeAliasType):  # already converted; may be recursive
        return False
    proper = get_proper_type(typ)
    if isinstance(proper, Instance):
        if is_record(proper.type) and not (unbuilt_only and proper.type.tuple_type is not None):
            return True
        return any(_mentions_record(arg, unbuilt_only=unbuilt_only) for arg in proper.args)
    if isinstance(proper, (UnionType, TupleType)):
        return any(_mentions_record(item, unbuilt_only=unbuilt_only) for item in proper.items)
    return False


TUPLE_CONFLICT = "Class has two incompatible bases derived from tuple"


def _forget_own_tuple_conflict(ctx: ClassDefContext) -> None:
    """
    Withdraw the error mypy reports when it re-analyses a record subclass.

    A record that adds fields has a longer tuple type than its record base.
    When mypy analyses the class again (any deferral in the module does that),
    it finds the tuple type this plugin set on the previous pass, compares it
    with the base's, and reports two incompatible tuple bases. The error is
    withdrawn only when the one tuple base is a record, so a real conflict
    (a record and another tuple type as bases) is still reported.
    """
    defn = ctx.cls
    if not defn.has_incompatible_baseclass:
        return
    tuple_bases = [base for base in defn.info.bases if base.type.tuple_type is not None]
    if len(tuple_bases) != 1 or not is_record(tuple_bases[0].type):
        return
    errors = getattr(ctx.api, "errors", None)
    reported = getattr(errors, "error_info_map", {}).get(getattr(errors, "file", None), [])
    reported[:] = [
        info
        for info in reported
        if not (info.message == TUPLE_CONFLICT and info.line == defn.line)
    ]
    defn.has_incompatible_baseclass = False


def _is_direct_base(info: TypeInfo, base: TypeInfo) -> bool:
    return any(b.type is base for b in info.bases)


def _declaring_class(source: TypeInfo, name: str) -> str:
    for klass in reversed(source.mro):
        if METADATA_KEY in klass.metadata and any(
            entry["name"] == name for entry in klass.metadata[METADATA_KEY]["fields"]
        ):
            return klass.name
    return source.name


def _any() -> AnyType:
    return AnyType(TypeOfAny.special_form)


def _has_default(
    api: SemanticAnalyzerPluginInterface,
    record: str,
    name: str,
    rvalue: Expression,
    context: AssignmentStmt,
) -> bool:
    """Whether the field has a default; reports mutable defaults."""
    if isinstance(rvalue, TempNode):
        return False
    if isinstance(rvalue, CallExpr) and isinstance(rvalue.callee, RefExpr):
        callee = rvalue.callee.fullname
        if callee in FIELD_FULLNAMES:
            keywords = {name for name in rvalue.arg_names if name is not None}
            if "default" in keywords:
                default = rvalue.args[rvalue.arg_names.index("default")]
                _check_mutable(api, record, name, default, context)
            return bool(keywords & {"default", "default_factory"})
    _check_mutable(api, record, name, rvalue, context)
    return True


def _check_mutable(
    api: SemanticAnalyzerPluginInterface,
    record: str,
    name: str,
    value: Expression,
    context: AssignmentStmt,
) -> None:
    shown = factory = None
    if isinstance(value, ListExpr):
        shown, factory = "[...]" if value.items else "[]", "list"
    elif isinstance(value, DictExpr):
        shown, factory = "{...}" if value.items else "{}", "dict"
    elif isinstance(value, SetExpr):
        shown, factory = "{...}", "set"
    elif isinstance(value, CallExpr) and isinstance(value.callee, RefExpr):
        factory = MUTABLE_CALLS.get(value.callee.fullname)
        shown = f"{factory}()" if factory else None
    if shown is not None and factory is not None:
        _errors.error_mutable_default(api, record, name, shown, factory, context)


def _set_tuple_type(ctx: ClassDefContext, fields: list[_Field]) -> None:
    """Make the class a tuple type of its fields' types."""
    info = ctx.cls.info
    fallback = ctx.api.named_type("builtins.tuple", [_any()])
    tuple_type = TupleType([field.type for field in fields], fallback)
    info.update_tuple_type(tuple_type)
    if info.special_alias is not None and info.defn.type_vars:
        info.special_alias.alias_tvars = list(info.defn.type_vars)
    if not has_type_vars(tuple_type):
        # The precise fallback (tuple[int | str, ...]) needs joins, which exist
        # only after semantic analysis; mypy's named tuples patch it the same way.
        schedule_patch = getattr(ctx.api, "schedule_patch", None)
        if schedule_patch is not None:
            schedule_patch(PRIORITY_FALLBACKS, lambda: calculate_tuple_fallback(tuple_type))


def _add_members(ctx: ClassDefContext, fields: list[_Field], *, synthetic: bool = False) -> None:
    """Add what Record generates, keeping anything the class body defines."""
    info = ctx.cls.info
    api = ctx.api
    str_type = api.named_type("builtins.str")
    any_tuple = api.named_type("builtins.tuple", [_any()])
    _add_var(info, "_fields", TupleType([str_type for _ in fields], any_tuple))
    _add_var(info, "_field_defaults", api.named_type("builtins.dict", [str_type, _any()]))
    literals: list[Type] = [LiteralType(field.name, str_type) for field in fields]
    _add_var(info, "__match_args__", TupleType(literals, any_tuple))

    assert info.tuple_type is not None
    tvar_scope = getattr(api, "tvar_scope", None)
    raw_id = tvar_scope.new_unique_func_id().raw_id if tvar_scope is not None else -1
    self_tvar = TypeVarType(
        SELF_TVAR_NAME,
        f"{info.fullname}.{SELF_TVAR_NAME}",
        TypeVarId(raw_id),
        [],
        info.tuple_type,
        _any(),
    )
    self_or_none: TypeVarType | None = None
    if not synthetic:
        self_or_none = self_tvar
        info.names[SELF_TVAR_NAME] = SymbolTableNode(
            MDEF,
            TypeVarExpr(
                SELF_TVAR_NAME, f"{info.fullname}.{SELF_TVAR_NAME}", [], info.tuple_type, _any()
            ),
        )
    new_args = [
        Argument(
            Var(field.name, field.type),
            field.type,
            None,
            ARG_OPT if field.has_default else ARG_POS,
        )
        for field in fields
    ]
    _add_method(ctx, self_or_none, "__new__", new_args, None, kind="new")
    replace_args = [
        Argument(Var(field.name, field.type), field.type, None, ARG_NAMED_OPT) for field in fields
    ]
    _add_method(ctx, self_or_none, "_replace", replace_args, None)
    iterable = api.named_type("typing.Iterable", [_any()])
    _add_method(
        ctx,
        self_or_none,
        "_make",
        [Argument(Var("iterable", iterable), iterable, None, ARG_POS)],
        None,
        kind="classmethod",
    )
    _add_method(
        ctx, self_or_none, "_asdict", [], api.named_type("builtins.dict", [str_type, _any()])
    )
    # Iterating gives the union of the field types (the class's own tuple base
    # is tuple[Any, ...], which would give Any).
    item = UnionType.make_union([field.type for field in fields]) if fields else _any()
    _add_method(ctx, self_or_none, "__iter__", [], api.named_type("typing.Iterator", [item]))


def _add_var(info: TypeInfo, name: str, typ: Type) -> None:
    existing = info.names.get(name)
    if existing is not None and not existing.plugin_generated:
        return
    var = Var(name, typ)
    var.info = info
    var.is_initialized_in_class = True
    var._fullname = f"{info.fullname}.{name}"
    symbol = SymbolTableNode(MDEF, var)
    symbol.plugin_generated = True
    info.names[name] = symbol


def _add_method(
    ctx: ClassDefContext,
    self_tvar: TypeVarType | None,
    name: str,
    args: list[Argument],
    ret: Type | None,
    kind: str = "method",
) -> None:
    """Add method *name* unless the class body defines it (kind: method, new, classmethod)."""
    info = ctx.cls.info
    existing = info.names.get(name)
    if existing is not None and not existing.plugin_generated:
        return
    fullname = f"{info.fullname}.{name}"
    self_type: Type
    if self_tvar is None:  # a synthetic class: the class itself
        assert info.tuple_type is not None
        self_type = info.tuple_type.copy_modified(fallback=Instance(info, []))
    else:
        self_type = self_tvar.copy_modified(id=TypeVarId(self_tvar.id.raw_id, namespace=fullname))
    if ret is None:
        ret = self_type
    if kind in ("new", "classmethod"):
        first = Argument(Var("_cls"), TypeType.make_normalized(self_type), None, ARG_POS)
    else:
        first = Argument(Var("_self"), self_type, None, ARG_POS)
    all_args = [first, *args]
    types: list[Type] = [arg.type_annotation or _any() for arg in all_args]
    signature = CallableType(
        types,
        [arg.kind for arg in all_args],
        [arg.variable.name for arg in all_args],
        ret,
        ctx.api.named_type("builtins.function"),
    )
    if isinstance(self_type, TypeVarType):
        signature.variables = (self_type,)
    func = FuncDef(name, all_args, Block([]))
    func.info = info
    func.is_class = kind == "classmethod"
    # Marked decorated: mypy then neither checks it as an override of
    # _RecordAPI's looser methods nor re-adds it to the symbol table when the
    # class body is analysed again.
    func.is_decorated = True
    func.type = set_callable_name(signature, func)
    func._fullname = fullname
    func.line = info.line
    symbol: SymbolTableNode
    if kind == "classmethod":
        var = Var(name, func.type)
        var.is_classmethod = True
        var.info = info
        var._fullname = fullname
        decorator = Decorator(func, [], var)
        decorator.line = info.line
        symbol = SymbolTableNode(MDEF, decorator)
    else:
        symbol = SymbolTableNode(MDEF, func)
    symbol.plugin_generated = True
    # The function also goes in the class body, where the daemon's AST merge
    # finds it and points it at the class's lasting TypeInfo; a method only in
    # info.names would keep a discarded one.
    body = ctx.cls.defs.body
    previous = existing.node if existing is not None else None
    if isinstance(previous, Decorator):
        previous = previous.func
    if isinstance(previous, FuncDef) and previous in body:
        body.remove(previous)
    body.append(func)
    info.names[name] = symbol
