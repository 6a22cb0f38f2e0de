"""
Turn a record class into what mypy needs: fields, a tuple type, and methods.

Runs from ``get_base_class_hook`` after the class body is analysed, possibly
several times (deferral), so every step is idempotent. All state lives on the
``TypeInfo``: ``names``, ``tuple_type`` and ``metadata["records"]`` (JSON,
written and read by ``_fields``). ``_members`` adds the generated methods and
attributes.
"""

from __future__ import annotations

from mypy.expandtype import expand_type
from mypy.nodes import (
    AssignmentStmt,
    Block,
    CallExpr,
    ClassDef,
    Decorator,
    DictExpr,
    Expression,
    ForStmt,
    FuncDef,
    IfStmt,
    ListExpr,
    NameExpr,
    OverloadedFuncDef,
    RefExpr,
    SetExpr,
    Statement,
    TempNode,
    TryStmt,
    TupleExpr,
    TypeAlias,
    TypeInfo,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.semanal_shared import PRIORITY_FALLBACKS, calculate_tuple_fallback
from mypy.type_visitor import TypeTranslator
from mypy.typeops import get_all_type_vars
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    TupleType,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeType,
    TypeVarType,
    UnionType,
    get_proper_type,
    has_type_vars,
)
from mypy.typevars import fill_typevars

from records import _rules

from . import _errors
from ._fields import (
    FIELD_FULLNAMES,
    Field,
    any_type,
    is_built,
    is_record,
    store,
    stored_fields,
    stored_names,
)
from ._members import add_members

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from mypy.plugin import ClassDefContext, SemanticAnalyzerPluginInterface

MUTABLE_CALLS = {"builtins.list": "list", "builtins.dict": "dict", "builtins.set": "set"}
#: Other libraries' field functions, which records would take as a default value.
FOREIGN_FIELD_CALLS = {
    "dataclasses.field": "dataclasses.field()",
    "attr.ib": "attrs.field()",
    "attr.attrib": "attrs.field()",
    "attr.field": "attrs.field()",
    "attrs.field": "attrs.field()",
    "attr.Factory": "attrs.Factory()",
    "attrs.Factory": "attrs.Factory()",
    "attr._make.attrib": "attrs.field()",
    "attr._make.Factory": "attrs.Factory()",
    "attr._next_gen.field": "attrs.field()",
}


class _Collected:
    """What the class statement says: the record base to extend, and the fields."""

    def __init__(
        self, source: TypeInfo | None, conflict: bool, inherited: list[Field], own: list[Field]
    ) -> None:
        self.source = source  # the nearest record base with fields, if any
        self.conflict = conflict  # fields come from two unrelated records
        self.inherited = inherited
        self.own = own


def transform(ctx: ClassDefContext) -> None:
    """Build the record *ctx.cls* (the base class hook); see ``RecordTransformer``."""
    RecordTransformer(ctx).transform()


class RecordTransformer:
    """
    Build one record class: collect its fields, then apply them to its ``TypeInfo``.

    As mypy's ``DataclassTransformer``: collecting reads the class body and
    the bases' metadata and reports definition errors; applying sets the
    tuple type, the metadata and the generated members. A base record not
    built yet, or a field type not analysed yet, defers the class to mypy's
    next pass, before anything is applied.
    """

    def __init__(self, ctx: ClassDefContext) -> None:
        self.ctx = ctx
        self.api = ctx.api
        self.info = ctx.cls.info

    def transform(self) -> None:
        """Collect, then apply; nothing is applied on a pass that defers."""
        collected = self.collect()
        if collected is not None:
            self.apply(collected)
            if self.info.fullname in _WAITED:
                _WAITED.discard(self.info.fullname)
                _convert_annotations(_analysed_body(self.api), self.api)

    def defer(self) -> None:
        """Wait for mypy's next pass (see ``wait``)."""
        wait(self.api, self.info)

    def collect(self) -> _Collected | None:
        """Read the bases and the class body; return ``None`` when the class must wait."""
        bases = self._collect_record_base()
        if bases is None:
            return None
        source, conflict = bases
        inherited = self._collect_inherited(source)
        own = self._collect_own(source, inherited)
        if own is None:
            return None
        return _Collected(source, conflict, inherited, own)

    def _collect_record_base(self) -> tuple[TypeInfo | None, bool] | None:
        """Find the record base whose fields this class extends; report a second one."""
        source: TypeInfo | None = None
        conflict = False
        for base in self.info.mro[1:]:
            if not is_record(base):
                continue
            if not is_built(base):
                if not self.api.final_iteration:
                    self.defer()
                return None
            if stored_names(base):
                if source is None:
                    source = base
                elif not source.has_base(base.fullname) and _is_direct_base(self.info, base):
                    _errors.error_record_bases(
                        self.api, self.info.name, source.name, base.name, self.ctx.cls
                    )
                    conflict = True
        return source, conflict

    def _collect_inherited(self, source: TypeInfo | None) -> list[Field]:
        """Return the fields of the record base, typed as this class sees them."""
        return stored_fields(source, self.info) if source is not None else []

    def _collect_own(self, source: TypeInfo | None, inherited: list[Field]) -> list[Field] | None:
        """Return the fields the class body annotates; report the errors in them."""
        api = self.api
        record = self.info.name
        own: list[Field] = []
        previous_default = next((f.name for f in reversed(inherited) if f.has_default), None)
        self._check_class_keywords()
        self._check_body_names()
        for stmt in _annotations(self.ctx.cls.defs):
            lvalue = stmt.lvalues[0]
            if not isinstance(lvalue, NameExpr) or any(f.name == lvalue.name for f in own):
                continue
            symbol = self.info.names.get(lvalue.name)
            node = symbol.node if symbol is not None else None
            if not isinstance(node, Var) or node.is_classvar:
                continue
            name = lvalue.name
            if node.type is None:
                if not api.final_iteration:
                    self.defer()
                    return None
                node.type = any_type()
            node.type = self._without_self_type(node.type, stmt)
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
            own.append(Field(name, node.type, has_default))
        return own

    def _check_class_keywords(self) -> None:
        """
        Report the class keywords no ``__init_subclass__`` takes, as mypy does for a class.

        mypy checks a class's keywords against the first ``__init_subclass__``
        of its bases, but not for a tuple type such as a record. Records pass
        the keywords on to that method (``metaclass`` is the class
        statement's): when it is ``object``'s, it takes none. A base's own
        ``__init_subclass__`` is left to that base (not checked here), and so
        are the keywords of a class with a metaclass of its own, which may
        take them (mypy leaves those too).
        """
        keywords = [name for name in self.ctx.cls.keywords if name != "metaclass"]
        metaclass = self.info.metaclass_type
        if not keywords or (
            metaclass is not None
            and metaclass.type.fullname not in ("builtins.type", "abc.ABCMeta")
        ):
            return
        takes = next(
            (base for base in self.info.mro[1:] if "__init_subclass__" in base.names), None
        )
        if (
            takes is not None
            and takes.fullname == "builtins.object"
            and not self.info.fallback_to_any
        ):
            for name in keywords:
                _errors.error_class_keyword(self.api, name, self.ctx.cls)

    def _check_body_names(self) -> None:
        """Report what the body defines that a record refuses: ``__init__``, ``_fields``..."""
        record = self.info.name
        for stmt in self.ctx.cls.defs.body:
            for name in _defined_names(stmt):
                if name in _rules.REFUSED_METHODS:
                    _errors.error_init(self.api, record, name, stmt)
                elif name in _rules.COMPUTED_NAMES:
                    _errors.error_computed_name(self.api, record, name, stmt)
                elif name == "__slots__" and not _is_empty_slots(stmt):
                    _errors.error_slots(self.api, record, stmt)

    def _without_self_type(self, typ: Type, context: AssignmentStmt) -> Type:
        """
        Return the field type *typ* with ``Self`` refused, as mypy refuses it in a named tuple.

        A field typed with the class's own subclass is not a type a tuple can
        have: ``Self`` becomes ``Any`` (mypy's type for an error), so that
        calls are not checked against a type variable nothing binds.
        """
        self_type = self.info.self_type
        if self_type is None or not any(
            tvar.id == self_type.id for tvar in get_all_type_vars(typ)
        ):
            return typ
        _errors.error_self_in_field(self.api, context)
        return expand_type(typ, {self_type.id: AnyType(TypeOfAny.from_error)})

    def apply(self, collected: _Collected) -> None:
        """Make the class the tuple of its fields, with the members a record has."""
        api = self.api
        fields = collected.inherited + collected.own
        if any(_mentions_record(field.type) for field in collected.own):
            # Annotations analysed before this hook ran name record classes (this
            # one, or one across an import cycle) as plain classes. Point them at
            # the records' tuple types through their type aliases, as mypy does
            # for named tuples: recursive, and printed by name.
            fallback = api.named_type("builtins.tuple", [any_type()])
            self.info.update_tuple_type(TupleType([f.type for f in fields], fallback))
            for field in collected.own:
                field.type = _as_tuple_types(field.type)
                node = self.info.names[field.name].node
                if isinstance(node, Var):
                    node.type = field.type
        store(self.info, fields)
        _forget_own_tuple_conflict(self.ctx)
        _set_tuple_type(self.ctx, fields)
        _set_metaclass(self.ctx)
        _mark_named_tuple(self.ctx)
        if not collected.conflict:  # a class with two record bases keeps the first one's methods
            add_members(self.ctx, fields)
        self._bound_self_by_the_tuple_type()
        self._point_signatures_at_tuple_types()
        if not api.final_iteration and any(
            _mentions_record(f.type, unbuilt_only=True) for f in collected.own
        ):
            # A record across an import cycle is not built yet. This class is
            # complete for others to use; one more pass converts the reference.
            api.defer()

    def _bound_self_by_the_tuple_type(self) -> None:
        """
        Bound the class's ``Self`` by its tuple type, in its methods' signatures too.

        mypy sets ``Self`` up when it analyses the first method that names
        it, in the class body, before this hook runs: bound by the plain
        class, which mypy does not take for the record's tuple type
        (``self._replace()`` in a method that returns ``Self``). A named
        tuple's ``Self`` is bound by its tuple type, which exists before its
        body is analysed.
        """
        old = self.info.self_type
        if old is None:
            return
        new = old.copy_modified(upper_bound=fill_typevars(self.info))
        if new == old:
            return
        self.info.self_type = new
        rebind = _Rebind(old.fullname, new)
        for func in _own_functions(self.info):
            signature = func.type
            if isinstance(signature, FunctionLike):
                rebound = get_proper_type(signature.accept(rebind))
                if isinstance(rebound, FunctionLike):
                    func.type = rebound

    def _point_signatures_at_tuple_types(self) -> None:
        """
        Point the class body's own method signatures at the records' tuple types.

        mypy analyses a method's signature with the class body, before this
        hook runs. At module level it analyses the signature again once the
        class is built; in a function it does not, so ``-> "Celsius"`` would
        stay the plain class, which mypy does not take for the record's tuple
        type (``__new__`` must return a subtype of it).
        """
        for symbol in self.info.names.values():
            node = symbol.node
            func = node.func if isinstance(node, Decorator) else node
            if symbol.plugin_generated or not isinstance(func, FuncDef):
                continue
            if func.info is not self.info:
                continue
            signature = func.type
            if isinstance(signature, CallableType) and any(
                _mentions_record(typ) for typ in [*signature.arg_types, signature.ret_type]
            ):
                func.type = signature.copy_modified(
                    arg_types=[_as_tuple_types(typ) for typ in signature.arg_types],
                    ret_type=_as_tuple_types(signature.ret_type),
                )


class _Rebind(TypeTranslator):
    """Replace a type variable, by its full name, wherever it occurs."""

    def __init__(self, fullname: str, new: TypeVarType) -> None:
        super().__init__()
        self.fullname = fullname
        self.new = new

    def visit_type_var(self, t: TypeVarType) -> Type:
        """Return the new type variable for the old one."""
        return self.new if t.fullname == self.fullname else t

    def visit_type_alias_type(self, t: TypeAliasType) -> Type:
        """Keep an alias (a record's tuple type, maybe recursive): it holds no ``Self``."""
        return t


def _own_functions(info: TypeInfo) -> Iterator[FuncDef | OverloadedFuncDef]:
    """Yield the functions the class body defines, overloads and their items included."""
    for symbol in info.names.values():
        node = symbol.node
        func = node.func if isinstance(node, Decorator) else node
        if symbol.plugin_generated or not isinstance(func, (FuncDef, OverloadedFuncDef)):
            continue
        if func.info is not info:
            continue
        yield func
        if isinstance(func, OverloadedFuncDef):
            parts = [*func.items, *([func.impl] if func.impl is not None else [])]
            for part in parts:
                yield part.func if isinstance(part, Decorator) else part


#: Records that waited for a later pass, by full name, until they are built.
_WAITED: set[str] = set()


def wait(api: SemanticAnalyzerPluginInterface, info: TypeInfo) -> None:
    """
    Build the record *info* on mypy's next pass.

    The annotations mypy analyses meanwhile name the plain class: they are
    converted once the record is built (``_convert_annotations``).
    """
    _WAITED.add(info.fullname)
    api.defer()


def _analysed_body(api: SemanticAnalyzerPluginInterface) -> list[Statement]:
    """
    Return the statements mypy is analysing: the function's, in a function.

    mypy analyses a module's top level, then each function as a whole (the
    functions nested in it included), again while any part of it waits.
    """
    functions = getattr(api, "function_stack", None)
    if functions:
        body: list[Statement] = functions[-1].body.body
        return body
    return api.modules[api.cur_mod_id].defs


def _convert_annotations(body: list[Statement], api: SemanticAnalyzerPluginInterface) -> None:
    """
    Point the annotations analysed so far at the records' tuple types.

    A record that waits for a later pass (a field names something bound
    further down the module) is a plain class to what mypy analyses
    meanwhile: the annotations of the variables and class attributes below
    it, and the type aliases, which mypy does not analyse again, would name the plain class where
    everything analysed later names the tuple type (function signatures,
    which mypy analyses again, and function bodies, analysed last). mypy
    keeps a named tuple that waits out of every annotation until it is
    built; a record class exists before its fields do, so the annotations
    are converted once it is built. At the top level, function bodies are
    not read: mypy analyses them after the module's top level. A record in
    a function converts the annotations of that function's body
    (``_analysed_body``).
    """
    for stmt in body:
        if isinstance(stmt, AssignmentStmt):
            if stmt.type is not None and _mentions_record(stmt.type):
                stmt.type = _as_tuple_types(stmt.type)
            for lvalue in stmt.lvalues:
                node = lvalue.node if isinstance(lvalue, NameExpr) else None
                if isinstance(node, Var) and node.type is not None and _mentions_record(node.type):
                    node.type = _as_tuple_types(node.type)
                if isinstance(lvalue, NameExpr):
                    _convert_alias(api, lvalue)
        elif isinstance(stmt, ClassDef):
            _convert_annotations(stmt.defs.body, api)
        else:
            for block in _blocks(stmt):
                _convert_annotations(block.body, api)


def _convert_alias(api: SemanticAnalyzerPluginInterface, name: NameExpr) -> None:
    """
    Point the type alias *name* binds, if it binds one, at the records' tuple types.

    mypy analyses an alias's target once; in a function the assignment's
    name does not lead to the alias, which is looked up instead.
    """
    symbol = api.lookup_qualified(name.name, name, suppress_errors=True)
    alias = symbol.node if symbol is not None else None
    if isinstance(alias, TypeAlias) and _mentions_record(alias.target):
        alias.target = _as_tuple_types(alias.target)


def _blocks(stmt: Statement) -> list[Block]:
    """Return the blocks of a compound statement of the top level (if, try, with, for, while)."""
    blocks: list[Block | None] = []
    if isinstance(stmt, IfStmt):
        blocks = [*stmt.body, stmt.else_body]
    elif isinstance(stmt, TryStmt):
        blocks = [stmt.body, *stmt.handlers, stmt.else_body, stmt.finally_body]
    elif isinstance(stmt, (WithStmt, ForStmt, WhileStmt)):
        blocks = [stmt.body]
        if not isinstance(stmt, WithStmt):
            blocks.append(stmt.else_body)
    return [block for block in blocks if block is not None and not block.is_unreachable]


def _as_tuple_types(typ: Type) -> Type:
    """
    Return *typ* with instances of record classes replaced by their tuple types.

    Handles instances (and their arguments), unions, tuples and ``type[...]``:
    the shapes of field annotations (``Node | None``, ``list[Node]``) and of a
    method's ``cls``. mypy's own type translators are compiled and cannot be
    subclassed from a plugin.
    """
    if isinstance(typ, TypeAliasType):  # already converted; may be recursive
        return typ
    proper = get_proper_type(typ)
    converted = typ
    if isinstance(proper, Instance):
        info = proper.type
        if info.special_alias is not None and info.tuple_type is not None and is_record(info):
            converted = TypeAliasType(info.special_alias, list(proper.args))
        elif proper.args:
            converted = proper.copy_modified(args=[_as_tuple_types(arg) for arg in proper.args])
    elif isinstance(proper, UnionType):
        items = [_as_tuple_types(item) for item in proper.items]
        converted = UnionType(items, proper.line, proper.column)
    elif isinstance(proper, TupleType):
        converted = proper.copy_modified(items=[_as_tuple_types(item) for item in proper.items])
    elif isinstance(proper, TypeType):  # a method's cls
        item = _as_tuple_types(proper.item)
        if item is not proper.item:
            converted = TypeType.make_normalized(get_proper_type(item))
    return converted


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
    if isinstance(proper, TypeType):
        return _mentions_record(proper.item, unbuilt_only=unbuilt_only)
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

    No public route exists. mypy reports the error in
    ``SemanticAnalyzer.configure_tuple_base_class``, before any class hook
    runs, and gives plugins no hook before it; ``Errors`` has no call that
    withdraws one report (``clear_errors_in_targets``, the daemon's, clears
    every error of a target), and its ``ErrorWatcher`` filters only the
    errors reported while it is active, in code the plugin itself calls. So
    the report is taken out of ``Errors.error_info_map``, the list of the
    file's reports, through ``getattr``: if a mypy release renames it, the
    error stays (and the plugin tests say so) rather than the plugin failing.
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


def _annotations(block: Block) -> Iterator[AssignmentStmt]:
    """
    Yield the annotated assignments of a class body, in order, also those under ``if``.

    At run time a field declared under an ``if`` is a field when its branch
    runs. The branches mypy knows are not taken for its target
    (``sys.version_info``, ``sys.platform``, ``TYPE_CHECKING``) are left out,
    as mypy's dataclasses leave them out; a name annotated in two branches
    mypy cannot decide between is one field, at its first place.
    """
    for stmt in block.body:
        if isinstance(stmt, AssignmentStmt):
            if stmt.new_syntax and len(stmt.lvalues) == 1:
                yield stmt
        elif isinstance(stmt, IfStmt):
            for branch in [*stmt.body, stmt.else_body]:
                if branch is not None and not branch.is_unreachable:
                    yield from _annotations(branch)


def _is_direct_base(info: TypeInfo, base: TypeInfo) -> bool:
    return any(b.type is base for b in info.bases)


def _declaring_class(source: TypeInfo, name: str) -> str:
    for klass in reversed(source.mro):
        if name in stored_names(klass):
            return klass.name
    return source.name


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
        spelling = FOREIGN_FIELD_CALLS.get(callee)
        if spelling is not None:
            _errors.error_foreign_field(api, record, name, spelling, context)
    _check_mutable(api, record, name, rvalue, context)
    return True


def _defined_names(stmt: Statement) -> list[str]:
    """Return the names *stmt* defines in a class body: a function's, or an assignment's."""
    if isinstance(stmt, (FuncDef, OverloadedFuncDef)):
        return [stmt.name]
    if isinstance(stmt, Decorator):
        return [stmt.func.name]
    if isinstance(stmt, AssignmentStmt):
        return [lvalue.name for lvalue in stmt.lvalues if isinstance(lvalue, NameExpr)]
    return []


def _is_empty_slots(stmt: Statement) -> bool:
    """Whether *stmt* assigns ``__slots__`` an empty tuple or list, which a record may have."""
    return isinstance(stmt, AssignmentStmt) and (
        isinstance(stmt.rvalue, (TupleExpr, ListExpr)) and not stmt.rvalue.items
    )


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


def _set_tuple_type(ctx: ClassDefContext, fields: list[Field]) -> None:
    """
    Make the class a tuple type of its fields' types.

    Its ``tuple`` base, as mypy sees it, is the tuple of those types too:
    ``tuple[int | str, ...]`` for ``int`` and ``str`` fields, not the
    ``tuple[Any, ...]`` of ``Record``, so that what the record inherits from
    ``tuple`` is typed by its items (``record * 2``, a join with a
    ``tuple[int, ...]``), as for a named tuple. mypy takes the tuple base of
    a class through its first direct base that leads there; a named tuple
    has no other base. The record gets it as its first direct base, before
    ``Record``; the order of the classes above it (its MRO) is unchanged,
    ``tuple`` after ``Record``. For a generic record mypy derives the items
    from the type arguments (``tuple[int | str, ...]`` for ``Pair[str]``)
    when the direct base is ``tuple``. In a module mypyc compiles, the
    bases stay as written: mypyc makes the compiled class's bases from them.
    """
    info = ctx.cls.info
    fallback = ctx.api.named_type("builtins.tuple", [any_type()])
    tuple_type = TupleType([field.type for field in fields], fallback)
    info.update_tuple_type(tuple_type)
    if info.special_alias is not None and info.defn.type_vars:
        info.special_alias.alias_tvars = list(info.defn.type_vars)
    if not ctx.api.options.mypyc:
        _add_tuple_base(info, fallback)
    if not has_type_vars(tuple_type):
        # The precise fallback (tuple[int | str, ...]) needs joins, which exist
        # only after semantic analysis; mypy's named tuples patch it the same way.
        schedule_patch = getattr(ctx.api, "schedule_patch", None)
        if schedule_patch is not None:
            schedule_patch(PRIORITY_FALLBACKS, lambda: calculate_tuple_fallback(tuple_type))


def _add_tuple_base(info: TypeInfo, fallback: Instance) -> None:
    """
    Make the tuple type's fallback the first direct base of the record, as a named tuple's is.

    mypy maps a class to ``tuple`` through its bases (``tuple``'s methods,
    joins with other tuples): through ``Record``, whose base is
    ``tuple[Any, ...]``, every item would be ``Any``. Directly, it is the
    join of the fields' types (patched after semantic analysis), or for a
    generic record the join of its items' types as the type arguments make
    them. The MRO stays mypy's: ``tuple`` follows ``Record`` there.

    Not in a module mypyc compiles: mypyc makes the compiled class's bases
    from these, and ``(tuple, Record)`` has no consistent MRO at run time.
    """
    bases = [base for base in info.bases if base.type.fullname != "builtins.tuple"]
    info.bases = [fallback, *bases]


def _set_metaclass(ctx: ClassDefContext) -> None:
    """
    Make ``type`` the record's metaclass, as at run time, unless a base or the class names one.

    typeshed derives ``tuple`` from ``Sequence``, whose metaclass is
    ``ABCMeta``: mypy would give a record ``ABCMeta``'s methods (``register``)
    and take an empty method for an abstract one. At run time ``tuple``'s
    metaclass is ``type``, and mypy gives a named tuple none.
    """
    info = ctx.cls.info
    tuple_info = ctx.api.named_type("builtins.tuple", [any_type()]).type
    declared = [
        klass
        for klass in info.mro
        if klass.declared_metaclass is not None and klass not in tuple_info.mro
    ]
    if not declared:
        info.metaclass_type = ctx.api.named_type("builtins.type")


def _mark_named_tuple(ctx: ClassDefContext) -> None:
    """
    Mark the record as a named tuple for mypy's type checker, once semantic analysis is over.

    mypy takes a class marked so where ``typing.NamedTuple`` is annotated,
    applies type arguments to a generic one (``NT[int](...)``) and infers
    its type variables from its fields. The mark cannot be set earlier: mypy
    would analyse the class again as a ``typing.NamedTuple`` class. Its
    field names go with it, where mypy keeps a named tuple's.

    Not when mypyc compiles: mypyc builds a marked class as a
    ``typing.NamedTuple`` class (metaclass ``typing.NamedTupleMeta``, base
    ``typing._NamedTuple``), which fails at import for a record. There the
    record is an ordinary (non-native) class with a tuple type.
    """
    info = ctx.cls.info
    if ctx.api.options.mypyc:
        return
    schedule_patch = getattr(ctx.api, "schedule_patch", None)
    if schedule_patch is not None and not info.is_named_tuple:
        schedule_patch(PRIORITY_FALLBACKS, lambda: _mark(info))


def _mark(info: TypeInfo) -> None:
    info.metadata["namedtuple"] = {"fields": stored_names(info)}
    info.is_named_tuple = True
