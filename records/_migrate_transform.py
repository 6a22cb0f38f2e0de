"""
The rewrite behind ``python -m records migrate``, in three steps.

1. ``scan``: read one module and note each class statement (its bases, as
   the module's imports resolve them, and what its body does), each call of
   ``collections.namedtuple``, and each use of ``typing.NamedTuple`` or
   ``collections.namedtuple`` that is neither a base nor a call.
2. ``decide``: over every module scanned, keep each ``class X(NamedTuple)``
   whose behaviour records keeps, and leave the others with the reason: a
   subclass that annotates names (records makes them fields), a mutable
   default (records refuses it), a ``_make`` (``Record._replace`` does not
   call it), a ``__post_init__`` or ``__init__`` (records refuses them), or
   a subclass whose instances keep attributes of their own (record
   instances have no ``__dict__``).
3. ``rewrite``: ``class X(NamedTuple)`` becomes ``class X(Record)`` and
   ``collections.namedtuple(...)`` becomes ``records.namedtuple(...)``;
   ``records`` is imported and the imports left unused are removed. libcst
   keeps every other byte of the source: formatting, comments and strings.

Needs libcst (the ``migrate`` extra); ``records/_migrate.py`` imports this
module only when the command runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst import MetadataDependent
from libcst.codemod import CodemodContext, ContextAwareTransformer
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.helpers import get_full_name_for_node
from libcst.metadata import (
    ImportAssignment,
    MetadataWrapper,
    PositionProvider,
    QualifiedNameProvider,
    QualifiedNameSource,
    ScopeProvider,
)

NAMED_TUPLE = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
NAMEDTUPLE_FUNCTION = "collections.namedtuple"
#: What the rewrite makes of them.
MIGRATED = frozenset({"records.Record", "records.namedtuple"})
#: Calls whose result is a mutable default, which records refuses.
MUTABLE_CALLS = {"builtins.list": "list()", "builtins.dict": "dict()", "builtins.set": "set()"}
#: Methods a record body may not define: records refuses them.
REFUSED_METHODS = ("__init__", "__post_init__")
#: Decorators whose property keeps its value in the instance's ``__dict__``.
DICT_PROPERTIES = frozenset({"functools.cached_property"})


@dataclass
class ClassFacts:
    """One class statement, and what the decision needs to know of it."""

    path: str
    line: int
    #: The module's dotted name and the class's name in it (``f.<locals>.C``).
    module: str
    qualname: str
    #: The full names of its bases, as the module's imports resolve them.
    bases: list[str]
    #: Its base is typing's (or typing_extensions') NamedTuple.
    named_tuple: bool = False
    #: The names its body annotates, ClassVar aside.
    annotated: list[str] = field(default_factory=list)
    #: The names of the functions its body defines.
    methods: set[str] = field(default_factory=set)
    #: Its body sets ``__slots__``.
    has_slots: bool = False
    #: Why its instances keep attributes of their own, or None.
    instance_state: str | None = None
    #: The first default of the body that records refuses as mutable, shown.
    mutable_default: str | None = None

    @property
    def fullname(self) -> str:
        """The class's module and name, dotted."""
        return f"{self.module}.{self.qualname}"


@dataclass
class ModuleScan:
    """What ``scan`` found in one module."""

    path: str
    module: str
    classes: list[ClassFacts] = field(default_factory=list)
    #: ``(line, text)`` of every use the rewrite leaves, with its reason.
    left: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Outcome:
    """What ``rewrite`` did to one module, and what it left, each at its line."""

    changed: list[tuple[int, str]] = field(default_factory=list)
    left: list[tuple[int, str]] = field(default_factory=list)


def parse(source: bytes) -> MetadataWrapper:
    """Parse a module's source; raises ``libcst.ParserSyntaxError``."""
    return MetadataWrapper(cst.parse_module(source))


def scan(wrapper: MetadataWrapper, path: str, module: str, package: str) -> ModuleScan:
    """Note the class statements and named tuple uses of one parsed module."""
    scanner = _Scanner(ModuleScan(path, module), package)
    wrapper.visit(scanner)
    return scanner.result


def decide(scans: list[ModuleScan]) -> dict[str, dict[str, str | None]]:
    """
    Decide each ``class X(NamedTuple)`` of every module scanned: for each
    path, the class's qualified name, and ``None`` to rewrite it or the
    reason to leave it.
    """
    classes = [facts for found in scans for facts in found.classes]
    by_last_name: dict[str, list[ClassFacts]] = {}
    for facts in classes:
        by_last_name.setdefault(facts.qualname.rsplit(".", 1)[-1], []).append(facts)
    children: dict[int, list[ClassFacts]] = {}
    for facts in classes:
        for base in facts.bases:
            for parent in _classes_named(base, by_last_name):
                children.setdefault(id(parent), []).append(facts)
    decisions: dict[str, dict[str, str | None]] = {}
    for facts in classes:
        if facts.named_tuple:
            reason = _own_reason(facts) or _descendants_reason(facts, children)
            decisions.setdefault(facts.path, {})[facts.qualname] = reason
    return decisions


def rewrite(wrapper: MetadataWrapper, decisions: dict[str, str | None]) -> tuple[bytes, Outcome]:
    """
    Rewrite one parsed module by the *decisions* on its classes; return its
    new source (the old one, byte for byte, when nothing changed) and what
    changed and was left.
    """
    outcome = Outcome()
    context = CodemodContext(wrapper=wrapper)
    transformer = _Rewriter(context, decisions, outcome)
    module = wrapper.visit(transformer)
    if not outcome.changed:
        return wrapper.module.bytes, outcome
    module = AddImportsVisitor(context).transform_module(module)
    module = RemoveImportsVisitor(context).transform_module(module)
    return module.bytes, outcome


# -- step 1: scan ---------------------------------------------------------------


class _Reading(MetadataDependent):
    """What a module's names mean, for the scanner and the rewriter alike."""

    METADATA_DEPENDENCIES = (PositionProvider, QualifiedNameProvider, ScopeProvider)

    def names(self, node: cst.CSTNode) -> set[str]:
        """Return the full names *node* (a name or attribute) stands for."""
        return {name.name for name in self.get_metadata(QualifiedNameProvider, node, set())}

    def is_named_tuple(self, node: cst.CSTNode) -> bool:
        return bool(self.names(node) & NAMED_TUPLE)

    def is_namedtuple_function(self, node: cst.CSTNode) -> bool:
        return NAMEDTUPLE_FUNCTION in self.names(node)

    def _looks_like(self, node: cst.BaseExpression, name: str) -> bool:
        """Whether *node* is spelled or imported as *name*, but not as records' own."""
        names = self.names(node)
        return not names & MIGRATED and (
            _last_name(node) == name or any(full.rsplit(".", 1)[-1] == name for full in names)
        )

    def line(self, node: cst.CSTNode) -> int:
        return int(self.get_metadata(PositionProvider, node).start.line)

    def class_name(self, node: cst.ClassDef) -> str:
        """Return the class's qualified name in its module (``f.<locals>.C``)."""
        names = self.get_metadata(QualifiedNameProvider, node.name, set())
        return min((name.name for name in names), default=node.name.value)


class _Scanner(_Reading, cst.CSTVisitor):
    def __init__(self, result: ModuleScan, package: str) -> None:
        super().__init__()
        self.result = result
        self.package = package
        #: Bases and called functions: the uses the rewrite reads itself.
        self.seen: set[cst.CSTNode] = set()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        facts = ClassFacts(
            path=self.result.path,
            line=self.line(node),
            module=self.result.module,
            qualname=self.class_name(node),
            bases=[],
        )
        for argument in node.bases:
            base = argument.value
            facts.bases.extend(self._full_names(base))
            if self.is_named_tuple(base):
                facts.named_tuple = True
                self.seen.add(base)
            elif self._looks_like(base, "NamedTuple"):
                self.seen.add(base)
                self._leave_unresolved(base, "NamedTuple base")
        self._read_body(node, facts)
        self.result.classes.append(facts)

    def _full_names(self, base: cst.BaseExpression) -> list[str]:
        found = []
        for name in self.get_metadata(QualifiedNameProvider, base, set()):
            if name.source is QualifiedNameSource.LOCAL:
                found.append(f"{self.result.module}.{name.name}")
            else:
                found.append(_absolute(name.name, self.package))
        return found

    def _read_body(self, node: cst.ClassDef, facts: ClassFacts) -> None:
        for statement in node.body.body:
            if isinstance(statement, cst.FunctionDef):
                facts.methods.add(statement.name.value)
                self._read_method(statement, facts)
                continue
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    if "ClassVar" in _source(small.annotation.annotation):
                        continue
                    facts.annotated.append(small.target.value)
                    if small.value is not None and facts.mutable_default is None:
                        shown = self._mutable(small.value)
                        if shown is not None:
                            facts.mutable_default = (
                                f"the default {shown} of field {small.target.value!r}"
                            )
                elif isinstance(small, (cst.Assign, cst.AnnAssign)) and _assigns(
                    small, "__slots__"
                ):
                    facts.has_slots = True

    def _read_method(self, method: cst.FunctionDef, facts: ClassFacts) -> None:
        if facts.instance_state is not None:
            return
        for decorator in method.decorators:
            if self.names(decorator.decorator) & DICT_PROPERTIES:
                facts.instance_state = f"its cached_property {method.name.value!r}"
                return
        parameters = method.params.params
        if not parameters or method.name.value == "__new__":
            return
        owner = parameters[0].name.value
        for target in _assignment_targets(method):
            if (
                isinstance(target, cst.Attribute)
                and isinstance(target.value, cst.Name)
                and target.value.value == owner
            ):
                facts.instance_state = f"{method.name.value}() sets {owner}.{target.attr.value}"
                return

    def _mutable(self, value: cst.BaseExpression) -> str | None:
        if isinstance(value, (cst.List, cst.Dict, cst.Set)):
            return _source(value) if len(_source(value)) <= 20 else type(value).__name__.lower()
        if isinstance(value, (cst.ListComp, cst.DictComp, cst.SetComp)):
            return "comprehension"
        if isinstance(value, cst.Call):
            for name in self.names(value.func):
                if name in MUTABLE_CALLS:
                    return MUTABLE_CALLS[name]
        return None

    def visit_Call(self, node: cst.Call) -> None:
        if self.is_namedtuple_function(node.func):
            self.seen.add(node.func)
        elif self.is_named_tuple(node.func):
            self.seen.add(node.func)
            self.result.left.append(
                (
                    self.line(node),
                    f"{_source(node.func)}({_first_argument(node)}, ...): the functional "
                    "form; its records spelling is Record.define(name, fields), by hand",
                )
            )
        elif self._looks_like(node.func, "namedtuple"):
            self.seen.add(node.func)
            self._leave_unresolved(node.func, "call")

    def _leave_unresolved(self, node: cst.BaseExpression, what: str) -> None:
        names = sorted(self.names(node))
        meaning = f"it is {names[0]}" if names else "its import cannot be resolved"
        self.result.left.append(
            (self.line(node), f"{_source(node)}: a {what} left as it is: {meaning}")
        )

    def visit_Import(self, node: cst.Import) -> bool:
        return False  # names in import statements are not uses

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        # An attribute that is the whole use (typing.NamedTuple) is read as
        # one: its parts (typing) are not uses of their own.
        return not self._note_value_use(node)

    def visit_Name(self, node: cst.Name) -> None:
        self._note_value_use(node)

    def _note_value_use(self, node: cst.Name | cst.Attribute) -> bool:
        if self.is_named_tuple(node):
            what = "typing.NamedTuple"
        elif self.is_namedtuple_function(node):
            what = "collections.namedtuple"
        else:
            return False
        if node not in self.seen:
            self.seen.add(node)
            self.result.left.append(
                (
                    self.line(node),
                    f"{_source(node)}: {what} used as a value, neither a base nor a call "
                    "(code that tests for the standard library's classes, or passes it on)",
                )
            )
        return True


# -- step 2: decide -------------------------------------------------------------


def _classes_named(name: str, by_last_name: dict[str, list[ClassFacts]]) -> list[ClassFacts]:
    """
    Return the classes scanned that *name* may refer to: the same full name, or
    one that ends with it (a module scanned as ``src.pkg.mod`` is imported as
    ``pkg.mod``).
    """
    return [
        facts
        for facts in by_last_name.get(name.rsplit(".", 1)[-1], ())
        if facts.fullname == name
        or facts.fullname.endswith(f".{name}")
        or name.endswith(f".{facts.fullname}")
    ]


def _own_reason(facts: ClassFacts) -> str | None:
    if facts.mutable_default is not None:
        return (
            f"{facts.mutable_default} is mutable, which records refuses (every instance "
            "would share it): give it field(default_factory=...) by hand"
        )
    return _body_reason(facts, "it")


def _body_reason(facts: ClassFacts, who: str) -> str | None:
    for method in REFUSED_METHODS:
        if method in facts.methods:
            return f"{who} defines {method}, which records refuses in a record's body"
    if "_make" in facts.methods:
        return f"{who} defines _make, which namedtuple's _replace calls and records' does not"
    return None


def _descendants_reason(facts: ClassFacts, children: dict[int, list[ClassFacts]]) -> str | None:
    seen = {id(facts)}
    pending = list(children.get(id(facts), ()))
    while pending:
        child = pending.pop(0)
        if id(child) in seen:
            continue
        seen.add(id(child))
        where = f"its subclass {child.qualname} ({child.path}:{child.line})"
        if child.annotated:
            return (
                f"{where} annotates {child.annotated[0]!r}, which records would make a "
                "field (a NamedTuple subclass cannot add fields)"
            )
        reason = _body_reason(child, where)
        if reason is not None:
            return reason
        if not child.has_slots and child.instance_state is not None:
            return (
                f"{where} keeps attributes on its instances ({child.instance_state}), and "
                "record instances have no __dict__"
            )
        pending.extend(children.get(id(child), ()))
    return None


# -- step 3: rewrite ------------------------------------------------------------


class _Rewriter(_Reading, ContextAwareTransformer):
    def __init__(
        self, context: CodemodContext, decisions: dict[str, str | None], outcome: Outcome
    ) -> None:
        super().__init__(context)
        self.decisions = decisions
        self.outcome = outcome

    def leave_ClassDef(
        self, original_node: cst.ClassDef, updated_node: cst.ClassDef
    ) -> cst.ClassDef:
        bases = [
            argument.value
            for argument in original_node.bases
            if self.is_named_tuple(argument.value)
        ]
        if not bases:
            return updated_node
        name = self.class_name(original_node)
        line = self.line(original_node)
        shown = f"class {original_node.name.value}({_source(bases[0])})"
        reason = self.decisions.get(name, "it was not scanned")
        spelling = self._record_spelling(original_node)
        if reason is None and spelling is None:
            reason = "the names Record and records both mean something else here"
        if reason is not None or spelling is None:
            self.outcome.left.append((line, f"{shown}: {reason}"))
            return updated_node
        self._drop_import_of(bases[0])
        if spelling == "Record":
            AddImportsVisitor.add_needed_import(self.context, "records", "Record")
        else:
            AddImportsVisitor.add_needed_import(self.context, "records")
        self.outcome.changed.append((line, f"{shown} -> {spelling}"))
        new_bases = [
            new.with_changes(value=cst.parse_expression(spelling))
            if old.value is bases[0]
            else new
            for old, new in zip(original_node.bases, updated_node.bases)
        ]
        return updated_node.with_changes(bases=new_bases)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if not self.is_namedtuple_function(original_node.func):
            return updated_node
        line = self.line(original_node)
        shown = f"{_source(original_node.func)}({_first_argument(original_node)}, ...)"
        if not self._means(original_node, "records", "records"):
            self.outcome.left.append(
                (line, f"{shown}: the name records means something else here")
            )
            return updated_node
        self._drop_import_of(original_node.func)
        AddImportsVisitor.add_needed_import(self.context, "records")
        self.outcome.changed.append((line, f"{shown} -> records.namedtuple"))
        return updated_node.with_changes(func=cst.parse_expression("records.namedtuple"))

    def _record_spelling(self, node: cst.ClassDef) -> str | None:
        """How the class can name ``records.Record``, or None where it cannot."""
        if self._means(node, "Record", "records.Record"):
            return "Record"
        if self._means(node, "records", "records"):
            return "records.Record"
        return None

    def _means(self, node: cst.CSTNode, name: str, full_name: str) -> bool:
        """Whether *name*, where *node* is, is free or already means *full_name*."""
        scope = self.get_metadata(ScopeProvider, node, None)
        if scope is None or name not in scope:
            return True
        meanings = {
            (meaning.name, meaning.source) for meaning in scope.get_qualified_names_for(name)
        }
        return meanings == {(full_name, QualifiedNameSource.IMPORT)}

    def _drop_import_of(self, node: cst.BaseExpression) -> None:
        """Ask for the import that *node*'s first name comes from to go, once unused."""
        root = node
        while isinstance(root, cst.Attribute):
            root = root.value
        if not isinstance(root, cst.Name):
            return
        scope = self.get_metadata(ScopeProvider, root, None)
        if scope is None:
            return
        for assignment in scope[root.value]:
            if not isinstance(assignment, ImportAssignment):
                continue
            statement = assignment.node
            if not isinstance(statement, (cst.Import, cst.ImportFrom)) or isinstance(
                statement.names, cst.ImportStar
            ):
                continue
            for alias in statement.names:
                bound = alias.evaluated_alias or alias.evaluated_name.split(".")[0]
                if bound != root.value:
                    continue
                if isinstance(statement, cst.Import):
                    RemoveImportsVisitor.remove_unused_import(
                        self.context, alias.evaluated_name, asname=alias.evaluated_alias
                    )
                elif statement.module is not None and not statement.relative:
                    RemoveImportsVisitor.remove_unused_import(
                        self.context,
                        get_full_name_for_node(statement.module) or "",
                        alias.evaluated_name,
                        alias.evaluated_alias,
                    )


# -- small helpers --------------------------------------------------------------


def _source(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _last_name(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


def _first_argument(call: cst.Call) -> str:
    return _source(call.args[0].value) if call.args else ""


def _absolute(name: str, package: str) -> str:
    """Resolve an imported name that starts with dots against *package*."""
    dots = len(name) - len(name.lstrip("."))
    if not dots:
        return name
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (dots - 1)] if dots - 1 <= len(parts) else []
    return ".".join([*base, name[dots:]]) if base else name[dots:]


def _assigns(statement: cst.Assign | cst.AnnAssign, name: str) -> bool:
    if isinstance(statement, cst.AnnAssign):
        targets = [statement.target]
    else:
        targets = [target.target for target in statement.targets]
    return any(isinstance(target, cst.Name) and target.value == name for target in targets)


def _assignment_targets(method: cst.FunctionDef) -> list[cst.BaseExpression]:
    """Return the targets of the assignments in *method*'s body, nested ones too."""
    found: list[cst.BaseExpression] = []

    class Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            found.append(node.target)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            found.append(node.target)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            found.append(node.target)

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False  # another class's methods

    method.body.visit(Targets())
    return found
