"""
The rewrite behind ``python -m records migrate``, in three steps.

1. ``scan``: read one module and note each class statement (its bases, as
   the module's imports resolve them, and what its body does), the names it
   imports and re-exports, and each use of ``typing.NamedTuple`` or
   ``collections.namedtuple`` that is neither a base nor a call.
2. ``decide``: over every module scanned, keep each ``class X(NamedTuple)``
   that records builds the same, and leave the others with the reason (see
   ``_own_reason`` and ``_family_reason``).
3. ``rewrite``: ``class X(NamedTuple)`` becomes ``class X(Record)`` and
   ``collections.namedtuple(...)`` becomes ``records.namedtuple(...)``;
   ``records`` is imported and the imports left unused are removed, unless
   another module imports them from this one. libcst keeps every other
   byte of the source: formatting, comments and strings.

Needs libcst (the ``migrate`` extra); ``records/_migrate.py`` imports this
module only when the command runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst
from libcst import MetadataDependent
from libcst.codemod import CodemodContext, ContextAwareTransformer
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.helpers import get_absolute_module_from_package, get_full_name_for_node
from libcst.metadata import (
    ImportAssignment,
    MetadataWrapper,
    PositionProvider,
    QualifiedNameProvider,
    QualifiedNameSource,
    ScopeProvider,
)

from . import _rules

NAMED_TUPLE = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
NAMEDTUPLE_FUNCTION = "collections.namedtuple"
#: What the rewrite makes of them.
MIGRATED = frozenset({"records.Record", "records.namedtuple"})
#: Calls whose result is a mutable default, which records refuses.
MUTABLE_CALLS = frozenset(
    {
        "builtins.list", "builtins.dict", "builtins.set", "builtins.bytearray",
        "collections.OrderedDict", "collections.defaultdict", "collections.Counter",
        "collections.deque", "collections.ChainMap",
    }
)  # fmt: skip
#: Methods that return a new mutable object from a mutable one.
MUTABLE_METHODS = frozenset({"copy", "fromkeys"})
#: Decorators whose property keeps its value in the instance's ``__dict__``.
DICT_PROPERTIES = frozenset({"functools.cached_property"})
#: Decorators whose method gets no instance.
NOT_INSTANCE_METHODS = frozenset({"builtins.classmethod", "builtins.staticmethod"})
#: Functions that set attributes on the object they are given first (and
#: any ``X.__setattr__``).
SETTERS = frozenset({"builtins.setattr"})


@dataclass
class ClassFacts:
    """One class statement, and what the decision needs to know of it."""

    path: str
    line: int
    #: The module's dotted name and the class's name in it (``f.<locals>.C``).
    module: str
    qualname: str
    #: For each base: the full names it may be, and its last name as written.
    bases: list[tuple[list[str], str]] = field(default_factory=list)
    #: Its base is typing's (or typing_extensions') NamedTuple.
    named_tuple: bool = False
    #: The names its body annotates, ClassVar aside; and those as ClassVar.
    annotated: list[str] = field(default_factory=list)
    class_vars: list[str] = field(default_factory=list)
    #: The names its body defines or assigns (methods included).
    defined: set[str] = field(default_factory=set)
    #: Its body sets ``__slots__``.
    has_slots: bool = False
    #: Why its instances keep attributes of their own, or None.
    instance_state: str | None = None
    #: The first default of the body that records refuses as mutable, shown.
    mutable_default: str | None = None

    @property
    def fullname(self) -> str:
        """The class's module and name, dotted."""
        return f"{self.module}.{self.qualname}" if self.module else self.qualname

    @property
    def key(self) -> tuple[str, int]:
        """What tells the class from any other of its module: its name and line."""
        return self.qualname, self.line


@dataclass
class ModuleScan:
    """What ``scan`` found in one module."""

    path: str
    module: str
    classes: list[ClassFacts] = field(default_factory=list)
    #: Module-level names bound to another module's name, by name: imports
    #: (``from x import y as z``) and plain aliases (``z = x.y``).
    aliases: dict[str, str] = field(default_factory=dict)
    #: The modules it star-imports.
    star_imports: list[str] = field(default_factory=list)
    #: The ``(module, name)`` pairs it imports from other modules (``*`` too).
    imports: set[tuple[str, str]] = field(default_factory=set)
    #: ``(line, text)`` of every use the rewrite leaves, with its reason.
    left: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Decisions:
    """For one module: each class to rewrite (None) or leave (the reason)."""

    classes: dict[tuple[str, int], str | None] = field(default_factory=dict)
    #: Why nothing in this module may be rewritten, if so.
    everything: str | None = None
    #: Names other modules import from this one: their imports stay.
    exported: set[str] = field(default_factory=set)


@dataclass
class Outcome:
    """What ``rewrite`` did to one module, and what it left, each at its line."""

    changed: list[tuple[int, str]] = field(default_factory=list)
    left: list[tuple[int, str]] = field(default_factory=list)


def parse(source: bytes) -> MetadataWrapper:
    """Parse a module's source; raises ``libcst.ParserSyntaxError`` and others."""
    return MetadataWrapper(cst.parse_module(source))


def scan(wrapper: MetadataWrapper, path: str, module: str, package: str) -> ModuleScan:
    """Note the class statements, imports and named tuple uses of one parsed module."""
    scanner = _Scanner(ModuleScan(path, module), package)
    wrapper.visit(scanner)
    return scanner.result


def decide(scans: list[ModuleScan]) -> dict[str, Decisions]:
    """Decide each ``class X(NamedTuple)`` of every module scanned, by path."""
    decisions = {found.path: Decisions() for found in scans}
    shadows = sorted(
        found.module
        for found in scans
        if found.module == "records" or found.module.startswith("records.")
    )
    if shadows:
        for decision in decisions.values():
            decision.everything = (
                f"the code base has a module named {shadows[0]}, which its imports of "
                "records would find instead of the records library"
            )
        return decisions
    family = _Family(scans)
    modules = {found.module: found.path for found in scans}
    for found in scans:
        for module, name in found.imports:
            if module in modules:
                decisions[modules[module]].exported.add(name)
    for facts in family.classes:
        if facts.named_tuple:
            reason = _own_reason(facts) or family.reason(facts)
            decisions[facts.path].classes[facts.key] = reason
    return decisions


def rewrite(wrapper: MetadataWrapper, decisions: Decisions) -> tuple[bytes, Outcome]:
    """
    Rewrite one parsed module by the *decisions* on it; return its new
    source (the old one, byte for byte, when nothing changed) and what
    changed and was left.
    """
    outcome = Outcome()
    context = CodemodContext(wrapper=wrapper)
    transformer = _Rewriter(context, decisions, outcome, _unbound_names(wrapper))
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

    def looks_like(self, node: cst.BaseExpression, name: str) -> bool:
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

    # -- imports and aliases

    def visit_Module(self, node: cst.Module) -> None:
        for statement in node.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if (
                    isinstance(small, cst.Assign)
                    and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name)
                    and isinstance(small.value, (cst.Name, cst.Attribute))
                ):
                    full = self._full_names(small.value)
                    if full:
                        self.result.aliases[small.targets[0].target.value] = full[0]

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        name = get_full_name_for_node(node.module) if node.module is not None else None
        try:
            module = get_absolute_module_from_package(
                self.package or None, name, len(node.relative)
            )
        except Exception:  # a relative import above the top: not ours
            module = None
        if module is None:
            return False
        if isinstance(node.names, cst.ImportStar):
            self.result.imports.add((module, "*"))
            self.result.star_imports.append(module)
            return False
        for alias in node.names:
            name = get_full_name_for_node(alias.name) or ""
            self.result.imports.add((module, name))
            bound = alias.evaluated_alias or name
            if isinstance(self.get_metadata(ScopeProvider, node, None), cst.metadata.GlobalScope):
                self.result.aliases[bound] = f"{module}.{name}"
        return False  # names in import statements are not uses

    def visit_Import(self, node: cst.Import) -> bool:
        return False

    # -- class statements

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        facts = ClassFacts(
            path=self.result.path,
            line=self.line(node),
            module=self.result.module,
            qualname=self.class_name(node),
        )
        for argument in node.bases:
            base = argument.value
            facts.bases.append((self._full_names(base), _last_name(base) or ""))
            if self.is_named_tuple(base):
                facts.named_tuple = True
                self.seen.add(base)
            elif self.looks_like(base, "NamedTuple"):
                self.seen.add(base)
                self._leave_unresolved(base, "NamedTuple base")
        for statement in _body_statements(node.body.body):
            if isinstance(statement, cst.FunctionDef):
                facts.defined.add(statement.name.value)
                self._read_method(statement, facts)
            elif isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    self._read_assignment(small, facts)
        self.result.classes.append(facts)

    def _full_names(self, node: cst.BaseExpression) -> list[str]:
        found = []
        for name in self.get_metadata(QualifiedNameProvider, node, set()):
            if name.source is QualifiedNameSource.LOCAL:
                found.append(
                    f"{self.result.module}.{name.name}" if self.result.module else name.name
                )
            else:
                found.append(_absolute(name.name, self.package))
        return sorted(found)

    def _read_assignment(self, small: cst.BaseSmallStatement, facts: ClassFacts) -> None:
        targets: list[cst.BaseExpression] = []
        if isinstance(small, cst.AnnAssign):
            targets = [small.target]
            if isinstance(small.target, cst.Name):
                name = small.target.value
                if "ClassVar" in _source(small.annotation.annotation):
                    facts.class_vars.append(name)
                else:
                    facts.annotated.append(name)
                    if small.value is not None and facts.mutable_default is None:
                        shown = self._mutable(small.value)
                        if shown is not None:
                            facts.mutable_default = f"the default {shown} of field {name!r}"
        elif isinstance(small, cst.Assign):
            targets = [target.target for target in small.targets]
        for target in targets:
            if isinstance(target, cst.Name):
                facts.defined.add(target.value)
                if target.value == "__slots__":
                    facts.has_slots = True

    def _read_method(self, method: cst.FunctionDef, facts: ClassFacts) -> None:
        if facts.instance_state is not None:
            return
        decorators = set().union(*(self.names(d.decorator) for d in method.decorators))
        if decorators & DICT_PROPERTIES:
            facts.instance_state = f"its cached_property {method.name.value!r}"
            return
        parameters = method.params.params
        if decorators & NOT_INSTANCE_METHODS or not parameters:
            return
        if method.name.value == "__new__":
            owners = _names_bound_by_new(method)  # self = super().__new__(cls, ...)
        else:
            owners = {parameters[0].name.value}
        state = _InstanceState(self, owners)
        method.body.visit(state)
        if state.found is not None:
            facts.instance_state = f"{method.name.value}() {state.found}"

    def _mutable(self, value: cst.BaseExpression) -> str | None:
        """How *value* shows a mutable object, or None where it does not."""
        if isinstance(value, (cst.List, cst.Dict, cst.Set)):
            shown = _shown(value)
            return shown if len(shown) <= 20 else type(value).__name__.lower()
        if isinstance(value, (cst.ListComp, cst.DictComp, cst.SetComp)):
            return "comprehension"
        if isinstance(value, cst.Call) and self.names(value.func) & MUTABLE_CALLS:
            return f"{_shown(value.func)}()"
        return self._derived_mutable(value)

    def _derived_mutable(self, value: cst.BaseExpression) -> str | None:
        """How *value* makes a mutable object from one (``[0] * 3``), or None."""
        func = value.func if isinstance(value, cst.Call) else None
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value in MUTABLE_METHODS
            and self._mutable(func.value)
        ):
            return f"a {func.attr.value}() of a mutable value"
        if isinstance(value, cst.BinaryOperation) and (
            self._mutable(value.left) or self._mutable(value.right)
        ):
            return "an operation on a mutable value"
        if isinstance(value, cst.Subscript) and self._mutable(value.value):
            return "a slice of a mutable value"
        return None

    # -- uses

    def visit_Call(self, node: cst.Call) -> None:
        if self.is_namedtuple_function(node.func):
            self.seen.add(node.func)
        elif self.is_named_tuple(node.func):
            self.seen.add(node.func)
            self.result.left.append(
                (
                    self.line(node),
                    f"{_shown(node.func)}({_first_argument(node)}, ...): the functional "
                    "form; its records spelling is Record.define(name, fields), by hand",
                )
            )
        elif self.looks_like(node.func, "namedtuple"):
            self.seen.add(node.func)
            self._leave_unresolved(node.func, "call")

    def _leave_unresolved(self, node: cst.BaseExpression, what: str) -> None:
        names = sorted(self.names(node))
        meaning = f"it is {names[0]}" if names else "its import cannot be resolved"
        self.result.left.append(
            (self.line(node), f"{_shown(node)}: a {what} left as it is: {meaning}")
        )

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
                    f"{_shown(node)}: {what} used as a value, neither a base nor a call "
                    "(code that tests for the standard library's classes, or passes it on)",
                )
            )
        return True


class _InstanceState(cst.CSTVisitor):
    """Find where a method keeps state on its instance, named *owners* in it."""

    def __init__(self, reading: _Reading, owners: set[str]) -> None:
        super().__init__()
        self.reading = reading
        self.owners = owners
        self.found: str | None = None

    def _is_owner(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and node.value in self.owners

    def _target(self, target: cst.BaseExpression) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._target(element.value)
        elif isinstance(target, cst.Attribute) and self._is_owner(target.value):
            self.found = self.found or f"sets {_source(target)}"
        elif (
            isinstance(target, cst.Subscript)
            and isinstance(target.value, cst.Attribute)
            and target.value.attr.value == "__dict__"
            and self._is_owner(target.value.value)
        ):
            self.found = self.found or f"writes {_source(target.value)}"

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._target(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._target(node.name)  # with ... as self.x

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not node.args or not self._is_owner(node.args[0].value):
            return
        if self.reading.names(func) & SETTERS or _last_name(func) == "__setattr__":
            self.found = self.found or f"calls {_shown(func)}()"
        elif (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Attribute)
            and func.value.attr.value == "__dict__"
        ):
            self.found = self.found or f"calls __dict__.{func.attr.value}()"

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False  # another class's methods

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


# -- step 2: decide -------------------------------------------------------------


class _Family:
    """Every class scanned, with its parents and children among them."""

    def __init__(self, scans: list[ModuleScan]) -> None:
        self.classes = [facts for found in scans for facts in found.classes]
        self.by_name: dict[str, list[ClassFacts]] = {}
        for facts in self.classes:
            self.by_name.setdefault(facts.qualname.rsplit(".", 1)[-1], []).append(facts)
        self.modules = {found.module: found for found in scans}
        self.parents: dict[int, list[ClassFacts]] = {}
        self.children: dict[int, list[ClassFacts]] = {}
        for facts in self.classes:
            for names, last in facts.bases:
                for parent in self._resolve(names, last):
                    self.parents.setdefault(id(facts), []).append(parent)
                    self.children.setdefault(id(parent), []).append(facts)

    def _resolve(self, names: list[str], last: str) -> list[ClassFacts]:
        """
        Return the classes scanned that a base may be: by its full names,
        through the re-exports of the modules scanned; where nothing resolves
        it (a star import of an unscanned module, say), every class scanned
        with its last name.
        """
        found = [facts for name in names for facts in self._named(name, depth=8)]
        if not names and last:
            found = list(self.by_name.get(last, ()))
        return list({id(facts): facts for facts in found}.values())

    def _named(self, name: str, depth: int) -> list[ClassFacts]:
        found = [
            facts
            for facts in self.by_name.get(name.rsplit(".", 1)[-1], ())
            if facts.fullname == name
            or facts.fullname.endswith(f".{name}")
            or name.endswith(f".{facts.fullname}")
        ]
        if found or depth == 0:
            return found
        # A name another module re-exports: pkg.Price for pkg._base.Price.
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = self.modules.get(".".join(parts[:cut]))
            if module is None:
                continue
            rest = ".".join(parts[cut + 1 :])
            target = module.aliases.get(parts[cut])
            targets = [target] if target else []
            targets += [f"{star}.{parts[cut]}" for star in module.star_imports]
            for target in targets:
                found += self._named(f"{target}.{rest}" if rest else target, depth - 1)
            break
        return found

    def roots(self, facts: ClassFacts, seen: frozenset[int] = frozenset()) -> set[int]:
        """Return the NamedTuple classes *facts* derives from, by id."""
        if facts.named_tuple:
            return {id(facts)}
        found: set[int] = set()
        for parent in self.parents.get(id(facts), ()):
            if id(parent) not in seen:
                found |= self.roots(parent, seen | {id(facts)})
        return found

    def reason(self, root: ClassFacts) -> str | None:
        """Why a subclass of *root* keeps *root* a NamedTuple, or None."""
        pending = [(child, not child.has_slots) for child in self.children.get(id(root), ())]
        seen = {id(root)}
        while pending:
            child, has_dict = pending.pop(0)
            if id(child) in seen:
                continue
            seen.add(id(child))
            reason = self._child_reason(child, has_dict)
            if reason is not None:
                return f"its subclass {child.qualname} ({child.path}:{child.line}) {reason}"
            pending += [
                (grandchild, has_dict or not grandchild.has_slots)
                for grandchild in self.children.get(id(child), ())
            ]
        return None

    def _child_reason(self, child: ClassFacts, has_dict: bool) -> str | None:
        if child.annotated:
            return (
                f"annotates {child.annotated[0]!r}, which records would make a field (a "
                "NamedTuple subclass cannot add fields)"
            )
        if len(self.roots(child)) > 1:
            return "derives from two NamedTuple classes, which records refuses for records"
        reason = _body_reason(child)
        if reason is not None:
            return reason
        # Its other bases, outside the family (mixins): their layout and
        # their methods are its instances' too.
        mixins = [parent for parent in self.parents.get(id(child), ()) if not self.roots(parent)]
        has_dict = has_dict or any(not mixin.has_slots for mixin in mixins)
        state = child.instance_state
        for mixin in mixins:
            state = state or mixin.instance_state
        if has_dict and state is not None:
            return (
                f"keeps attributes on its instances ({state}), and record instances have "
                "no __dict__"
            )
        return None


def _own_reason(facts: ClassFacts) -> str | None:
    if facts.mutable_default is not None:
        return (
            f"{facts.mutable_default} is mutable, which records refuses (every instance "
            "would share it): give it field(default_factory=...) by hand"
        )
    if facts.class_vars:
        return (
            f"it annotates {facts.class_vars[0]!r} as a ClassVar, which typing.NamedTuple "
            "makes a field and records does not"
        )
    if "__post_init__" in facts.defined:
        return "it defines __post_init__, which records refuses in a record's body"
    return None


def _body_reason(facts: ClassFacts) -> str | None:
    """Why records treats a subclass's body otherwise than a NamedTuple's, or None."""
    for name in (*_rules.REFUSED_METHODS, *sorted(_rules.COMPUTED_NAMES)):
        if name in facts.defined:
            return f"defines {name}, which records refuses in a record's body"
    if "_make" in facts.defined:
        return "defines _make, which namedtuple's _replace calls and records' does not"
    if "__new__" in facts.defined:
        return (
            "defines __new__, which copy.copy() and copy.deepcopy() run again on a "
            "NamedTuple and not on a record"
        )
    return None


# -- step 3: rewrite ------------------------------------------------------------


class _Rewriter(_Reading, ContextAwareTransformer):
    def __init__(
        self,
        context: CodemodContext,
        decisions: Decisions,
        outcome: Outcome,
        unbound: set[str],
    ) -> None:
        super().__init__(context)
        self.decisions = decisions
        self.outcome = outcome
        self.unbound = unbound

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
        key = (self.class_name(original_node), self.line(original_node))
        shown = f"class {original_node.name.value}({_shown(bases[0])})"
        reason = self.decisions.everything or self.decisions.classes.get(key, "not scanned")
        spelling = self._record_spelling(original_node)
        if reason is None and spelling is None:
            reason = "the names Record and records both mean something else here"
        if reason is not None or spelling is None:
            self.outcome.left.append((key[1], f"{shown}: {reason}"))
            return updated_node
        self._drop_import_of(bases[0])
        if spelling == "Record":
            AddImportsVisitor.add_needed_import(self.context, "records", "Record")
        else:
            AddImportsVisitor.add_needed_import(self.context, "records")
        self.outcome.changed.append((key[1], f"{shown} -> {spelling}"))
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
        shown = f"{_shown(original_node.func)}({_first_argument(original_node)}, ...)"
        reason = self.decisions.everything
        if reason is None and not self._means(original_node, "records", "records"):
            reason = "the name records means something else here"
        if reason is not None:
            self.outcome.left.append((line, f"{shown}: {reason}"))
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
        """
        Whether *name*, where *node* is, is free or already means *full_name*.
        A name the module uses without binding it (from a star import, say)
        is not free.
        """
        scope = self.get_metadata(ScopeProvider, node, None)
        if scope is None:
            return False
        if name not in scope:
            return name not in self.unbound
        meanings = {
            (meaning.name, meaning.source) for meaning in scope.get_qualified_names_for(name)
        }
        return meanings == {(full_name, QualifiedNameSource.IMPORT)}

    def _drop_import_of(self, node: cst.BaseExpression) -> None:
        """Ask for the import that *node*'s first name comes from to go, once unused."""
        root = node
        while isinstance(root, cst.Attribute):
            root = root.value
        if not isinstance(root, cst.Name) or {root.value, "*"} & self.decisions.exported:
            return  # another module imports it from this one
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


def _shown(node: cst.CSTNode) -> str:
    """Return the source of *node* on one line, as a report shows it."""
    return " ".join(_source(node).split())


def _last_name(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


def _first_argument(call: cst.Call) -> str:
    return _shown(call.args[0].value) if call.args else ""


def _absolute(name: str, package: str) -> str:
    """Resolve an imported name that starts with dots against *package*."""
    dots = len(name) - len(name.lstrip("."))
    if not dots:
        return name
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (dots - 1)] if dots - 1 <= len(parts) else []
    return ".".join([*base, name[dots:]]) if base else name[dots:]


def _body_statements(body: object) -> list[cst.CSTNode]:
    """
    Return the statements of a class body, those under ``if``, ``try``,
    ``with``, ``for`` and ``while`` included, nested classes and functions
    as one statement each.
    """
    found: list[cst.CSTNode] = []
    for statement in body:  # type: ignore[attr-defined]
        found.append(statement)
        if isinstance(statement, (cst.If, cst.With, cst.For, cst.While, cst.Try, cst.TryStar)):
            for block in _blocks(statement):
                found += _body_statements(block.body)
    return found


def _blocks(statement: cst.CSTNode) -> list[cst.BaseSuite]:
    """Return the suites of a compound statement: body, else, except, finally."""
    blocks = [statement.body]  # type: ignore[attr-defined]
    for name in ("orelse", "finalbody"):
        part = getattr(statement, name, None)
        if isinstance(part, cst.If):
            blocks.append(part.body)
            blocks += _blocks(part)[1:]
        elif part is not None:
            blocks.append(part.body)
    blocks += [handler.body for handler in getattr(statement, "handlers", ())]
    return [block for block in blocks if isinstance(block, cst.IndentedBlock)]


def _names_bound_by_new(method: cst.FunctionDef) -> set[str]:
    """Return the names ``__new__`` binds to its instance (``self = super().__new__()``)."""
    found: set[str] = set()

    class Bindings(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            value = node.value
            if (
                isinstance(value, cst.Call)
                and isinstance(value.func, cst.Attribute)
                and value.func.attr.value == "__new__"
            ):
                found.update(
                    target.target.value
                    for target in node.targets
                    if isinstance(target.target, cst.Name)
                )

    method.body.visit(Bindings())
    return found


def _unbound_names(wrapper: MetadataWrapper) -> set[str]:
    """Return the names a module reads without binding them (a star import's)."""
    found: set[str] = set()
    for scope in set(wrapper.resolve(ScopeProvider).values()):
        if scope is None:
            continue
        for name in ("Record", "records"):
            if any(not access.referents for access in scope.accesses[name]):
                found.add(name)
    return found
