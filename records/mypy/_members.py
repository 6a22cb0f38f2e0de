"""
Add what ``Record.__init_subclass__`` generates to a record's ``TypeInfo``.

The namedtuple API (``_fields``, ``_field_defaults``, ``__match_args__``,
``__new__``, ``_replace``, ``_make``, ``_asdict``), ``__replace__`` (which
``copy.replace`` calls) and ``__iter__``, typed from the fields. Anything
the class body defines is kept, never replaced.
"""

from __future__ import annotations

from mypy.nodes import (
    ARG_NAMED_OPT,
    ARG_OPT,
    ARG_POS,
    MDEF,
    Argument,
    FuncDef,
    SymbolTableNode,
    TypeInfo,
    TypeVarExpr,
    Var,
)
from mypy.plugins.common import add_method_to_class
from mypy.types import (
    AnyType,
    CallableType,
    LiteralType,
    TupleType,
    Type,
    TypeOfAny,
    TypeType,
    TypeVarId,
    TypeVarType,
    UnionType,
)

from ._fields import Field, any_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from mypy.plugin import ClassDefContext

SELF_TVAR_NAME = "_RecordSelf"


def add_members(ctx: ClassDefContext, fields: list[Field]) -> None:
    """
    Add the namedtuple API and ``__iter__`` to the record *ctx.cls*, typed from *fields*.

    The methods take and return the class through a self type variable, so
    that a subclass's ``_replace`` returns the subclass.
    """
    info = ctx.cls.info
    api = ctx.api
    str_type = api.named_type("builtins.str")
    any_tuple = api.named_type("builtins.tuple", [any_type()])
    _add_var(info, "_fields", TupleType([str_type for _ in fields], any_tuple))
    _add_var(info, "_field_defaults", api.named_type("builtins.dict", [str_type, any_type()]))
    literals: list[Type] = [LiteralType(field.name, str_type) for field in fields]
    _add_var(info, "__match_args__", TupleType(literals, any_tuple))

    self_tvar = _self_type_variable(ctx)
    new_args = [
        Argument(Var(f.name, f.type), f.type, None, ARG_OPT if f.has_default else ARG_POS)
        for f in fields
    ]
    _add_method(ctx, self_tvar, "__new__", new_args, None, kind="new")
    replace_args = [Argument(Var(f.name, f.type), f.type, None, ARG_NAMED_OPT) for f in fields]
    _add_method(ctx, self_tvar, "_replace", replace_args, None)
    _add_method(ctx, self_tvar, "__replace__", list(replace_args), None)
    iterable = api.named_type("typing.Iterable", [any_type()])
    make_args = [Argument(Var("iterable", iterable), iterable, None, ARG_POS)]
    _add_method(ctx, self_tvar, "_make", make_args, None, kind="classmethod")
    as_dict = api.named_type("builtins.dict", [str_type, any_type()])
    _add_method(ctx, self_tvar, "_asdict", [], as_dict)
    # Iterating gives the union of the field types (the class's own tuple base
    # is tuple[Any, ...], which would give Any).
    item = UnionType.make_union([field.type for field in fields]) if fields else any_type()
    _add_method(ctx, self_tvar, "__iter__", [], api.named_type("typing.Iterator", [item]))


def _self_type_variable(ctx: ClassDefContext) -> TypeVarType:
    """Declare the class's self type variable, bound to its tuple type; return it."""
    info = ctx.cls.info
    assert info.tuple_type is not None
    fullname = f"{info.fullname}.{SELF_TVAR_NAME}"
    # Numbered in the class's scope (Record.define builds its records in one
    # too), as mypy numbers it again when it analyses each method: the two
    # numbers must agree, or the method's self type is unbound.
    tvar_scope = getattr(ctx.api, "tvar_scope", None)
    raw_id = tvar_scope.new_unique_func_id().raw_id if tvar_scope is not None else -1
    bound = info.tuple_type
    # No default, as mypy's _NT of named tuples: reveal_type shows none.
    default = AnyType(TypeOfAny.from_omitted_generics)
    info.names[SELF_TVAR_NAME] = SymbolTableNode(
        MDEF, TypeVarExpr(SELF_TVAR_NAME, fullname, [], bound, default)
    )
    return TypeVarType(SELF_TVAR_NAME, fullname, TypeVarId(raw_id), [], bound, default)


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
    self_tvar: TypeVarType,
    name: str,
    args: list[Argument],
    ret: Type | None,
    kind: str = "method",
) -> None:
    """
    Add method *name* unless the class body defines it (kind: method, new, classmethod).

    mypy's ``add_method_to_class`` does the work, but it names the first
    parameter ``self``, which a field may be called: records, like
    ``collections.namedtuple`` and mypy's own named tuples, take ``_cls`` and
    ``_self``, names a field cannot have. The first parameter is renamed
    after the method is built.
    """
    info = ctx.cls.info
    existing = info.names.get(name)
    if existing is not None and not existing.plugin_generated:
        return
    if existing is not None:
        # This plugin's own method, from an earlier pass. Out of the body and
        # the names, or add_method_to_class keeps it as "<name>-redefinition".
        if isinstance(existing.node, FuncDef) and existing.node in ctx.cls.defs.body:
            ctx.cls.defs.body.remove(existing.node)
        del info.names[name]
    fullname = f"{info.fullname}.{name}"
    self_type = self_tvar.copy_modified(id=TypeVarId(self_tvar.id.raw_id, namespace=fullname))
    takes_class = kind in ("new", "classmethod")
    first_type = TypeType.make_normalized(self_type) if takes_class else self_type
    func = add_method_to_class(
        ctx.api,
        ctx.cls,
        name,
        args,
        self_type if ret is None else ret,
        self_type=first_type,
        tvar_def=self_type,
        is_classmethod=kind == "classmethod",
    )
    assert isinstance(func, FuncDef)
    assert isinstance(func.type, CallableType)
    first = "_cls" if takes_class else "_self"
    func.arguments[0].variable = Var(first, first_type)
    func.type = func.type.copy_modified(arg_names=[first, *func.type.arg_names[1:]])
    # Out of the class body, as mypy's own named tuple methods are: mypy's
    # checker then does not check it as the class body's own (a covariant type
    # variable as a parameter of _replace, an override of the looser methods
    # of the stub's Record), nor does mypy analyse it again as the body's own.
    info.defn.defs.body.remove(func)
    func.is_decorated = True
