"""
What the names of a module mean, for ``python -m records migrate``: read
from Python's ``ast`` by the rules of libcst's scope analysis
(``libcst.metadata.ScopeProvider`` and ``QualifiedNameProvider``), which
the migration was first written with, at a small part of their cost.

A module's names live in scopes: the module's, a class body's, a
function's, a comprehension's, and the annotation scopes of type
parameters, above them the builtins. A name bound anywhere in a scope
(assigned, imported, defined, a parameter) belongs to it, unless declared
``global`` or ``nonlocal``; a class body is not seen from the scopes in it.
An access sees the bindings of its scope made by an earlier statement (or,
where there is none, those of the scope above), and a binding's references
are the accesses that see it.

A name's meanings are qualified names: where an import brought it from
(``typing.NamedTuple``), where the module defines it (``f.<locals>.C``),
or a builtin (``builtins.list``). An attribute chain means what its first
name means, followed by the rest (``collections.namedtuple``).
"""

from __future__ import annotations

import ast
import builtins
import enum
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any


class Source(enum.Enum):
    """Where a meaning comes from."""

    IMPORT = "import"
    BUILTIN = "builtin"
    LOCAL = "local"


#: A qualified name and where it comes from.
Meaning = tuple[str, Source]

#: Calls whose string arguments are read as annotations; cast's first only.
TYPE_HINT_CALLS = frozenset({"typing.NewType", "typing.TypeVar"})
LITERALS = frozenset({"typing.Literal", "typing_extensions.Literal"})


class Binding:
    """One binding of a name in a scope: an assignment, an import, a definition."""

    def __init__(self, name: str, scope: Scope, node: ast.AST | None, order: int) -> None:
        self.name = name
        self.scope = scope
        #: The node that binds it: a Name, a def or class, an import
        #: statement (None for a builtin).
        self.node = node
        self.order = order
        self.references: set[Access] = set()

    def meanings(self, full_name: str) -> set[Meaning]:
        """Return what *full_name*, which starts with this binding's name, means."""
        prefix = self.scope.prefix
        return {(f"{prefix}.{full_name}" if prefix else full_name, Source.LOCAL)}

    def record_references(self, accesses: set[Access]) -> None:
        """Add *accesses* that see this binding; give the earlier ones to the scope above."""
        later = {
            access
            for access in accesses
            if access.scope is not self.scope or self.order < access.order
        }
        self.references |= later
        earlier = accesses - later
        if earlier and self.scope.parent is not self.scope:
            for shadowed in self.scope.parent.lookup(self.name, self.scope.parent):
                shadowed.record_references(earlier)


class BuiltinBinding(Binding):
    """A name of the builtins module."""

    def meanings(self, full_name: str) -> set[Meaning]:
        return {(f"builtins.{self.name}", Source.BUILTIN)}


class ImportBinding(Binding):
    """A name an import statement binds (``node`` is the statement)."""

    def meanings(self, full_name: str) -> set[Meaning]:
        node = self.node
        assert isinstance(node, (ast.Import, ast.ImportFrom))
        module = ""
        if isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
        found: set[Meaning] = set()
        for alias in node.names:
            parts = alias.name.split(".")
            for end in range(len(parts), 0, -1):
                real_name = as_name = ".".join(parts[:end])
                if module.endswith("."):  # from . import a: ".a"
                    real_name = f"{module}{real_name}"
                elif module:
                    real_name = f"{module}.{real_name}"
                if alias.asname is not None:
                    as_name = alias.asname
                if full_name.startswith(as_name):
                    rest = full_name.split(as_name, 1)[1]
                    if rest and not rest.startswith("."):
                        continue
                    rest = rest.lstrip(".")
                    found.add((f"{real_name}.{rest}" if rest else real_name, Source.IMPORT))
                    break
        return found


class Access:
    """A name read (or deleted) in a scope, and the bindings it sees."""

    def __init__(self, node: ast.AST, scope: Scope, order: int) -> None:
        #: The Name read; for a dotted import, the attribute it names; for
        #: a name in a string annotation, the string.
        self.node = node
        self.scope = scope
        self.order = order
        self.referents: set[Binding] = set()

    def record_referents(self, name: str) -> None:
        """Find the bindings of *name* this access sees."""
        bindings = self.scope.lookup(name, self.scope)
        seen = {
            binding
            for binding in bindings
            if binding.scope is not self.scope or binding.order < self.order
        }
        if not seen and bindings and self.scope.parent is not self.scope:
            seen = set(self.scope.parent.lookup(name, self.scope))
        self.referents |= seen


class Scope:
    """A module's, class body's, function's, comprehension's or annotation scope."""

    def __init__(self, kind: str, parent: Scope | None, name: str | None = None) -> None:
        #: "builtins", "module", "class", "function", "comprehension" or "annotation".
        self.kind = kind
        self.parent = parent if parent is not None else self
        self.bindings: dict[str, list[Binding]] = {}
        #: Names declared global or nonlocal here, with the scope they bind in.
        self.overwrites: dict[str, Scope] = {}
        #: The accesses in this scope, by the name they read.
        self.accesses: dict[str, list[Access]] = {}
        #: How many binding statements this scope has seen so far.
        self.count = 0
        self.prefix = self._prefix(name)

    def _prefix(self, name: str | None) -> str:
        """Return what qualifies the names bound here: ``f.<locals>``, ``C``."""
        parent = self.parent.prefix if self.parent is not self else ""
        parts: dict[str, list[str | None]] = {
            "builtins": [],
            "module": [],
            "annotation": [parent],
            "class": [parent, name],
            "function": [parent, name, "<locals>"],
            "comprehension": [parent, "<comprehension>"],
        }
        return ".".join(part for part in parts[self.kind] if part)

    @property
    def is_module(self) -> bool:
        """Whether this is the module's own scope."""
        return self.kind == "module"

    def _visible_from(self, child: Scope) -> bool:
        """Say whether *child* sees this scope: a class body only from its type parameters."""
        return self.kind != "class" or (child.parent is self and child.kind == "annotation")

    def visible_parent(self, child: Scope, first: Scope | None = None) -> Scope:
        """Return the nearest scope above (from *first*) that *child* sees."""
        parent = first if first is not None else self.parent
        while not parent._visible_from(child):
            parent = parent.parent
        return parent

    def __contains__(self, name: str) -> bool:
        """Whether *name* is bound here or in a scope above that this one sees."""
        if self.kind == "builtins":
            return hasattr(builtins, name)
        if name in self.overwrites:
            return name in self.overwrites[name]
        if name in self.bindings:
            return bool(self.bindings[name])
        return name in self.visible_parent(self)

    def lookup(self, name: str, origin: Scope) -> list[Binding]:
        """Return every binding of *name* an access in *origin* may see, in any order."""
        if self.kind == "builtins":
            if name not in self.bindings and hasattr(builtins, name):
                self.bindings[name] = [BuiltinBinding(name, self, None, -1)]
            return self.bindings.get(name, [])
        if name in self.overwrites:
            return self.visible_parent(origin, self.overwrites[name]).lookup(name, origin)
        if name in self.bindings:
            return self.bindings[name]
        return self.visible_parent(origin).lookup(name, origin)

    def target(self, name: str) -> Scope:
        """Return the scope a binding of *name* here goes to (global, nonlocal)."""
        if name in self.overwrites:
            return self.visible_parent(self, self.overwrites[name]).target(name)
        return self

    def bind(self, binding_type: type[Binding], name: str, node: ast.AST) -> None:
        """Bind *name* by *node*, where a global or nonlocal sends it."""
        scope = self.target(name)
        binding = binding_type(name, scope, node, scope.count)
        scope.bindings.setdefault(name, []).append(binding)

    def meanings_of(self, full_name: str) -> set[Meaning]:
        """Return what the dotted *full_name* means here, whatever binds it where."""
        return _union(binding.meanings(full_name) for binding in self._bindings_of(full_name))

    def _bindings_of(self, full_name: str) -> list[Binding]:
        """Return the bindings of the longest part of *full_name* bound here."""
        prefix: str | None = full_name
        while prefix:
            if prefix in self:
                return self.lookup(prefix, self)
            prefix = prefix.rpartition(".")[0] or None
        return []


@dataclass
class _Deferred:
    """An access read before every binding is known, and where it stands."""

    access: Access
    name: str
    attribute: ast.Attribute | None
    annotation: ast.Constant | None


@dataclass
class Names:
    """The scopes of one module, and the scope each node of interest is in."""

    module: Scope
    scopes: list[Scope] = field(default_factory=list)
    #: By node: the scope it is read in (a class or def: the one around it).
    scope_of: dict[ast.AST, Scope] = field(default_factory=dict)
    #: By node: the accesses it is (a Name, a dotted import's attribute).
    accesses: dict[ast.AST, list[Access]] = field(default_factory=dict)
    #: By Name read: its access, wherever its node went.
    access_of: dict[ast.AST, Access] = field(default_factory=dict)

    def meanings(self, node: ast.AST) -> set[Meaning]:
        """Return what *node* (a name, attribute, call or subscript) means."""
        scope = self.scope_of.get(node)
        if scope is None:
            return set()
        accesses = self.accesses.get(node)
        if accesses:
            return _union(
                referent.meanings(referent.name)
                for access in accesses
                for referent in access.referents
            )
        name = full_name(node)
        if name is None:
            return set()
        bindings = scope._bindings_of(name)
        for binding in bindings:
            if binding.node is node and not isinstance(binding, ImportBinding):
                return binding.meanings(name)
        return _union(binding.meanings(name) for binding in bindings)

    def names(self, node: ast.AST) -> set[str]:
        """Return the qualified names *node* stands for."""
        return {name for name, _ in self.meanings(node)}


def read(tree: ast.Module) -> Names:
    """Return the scopes of the module *tree*, every access resolved."""
    return _Reader(tree).names


def full_name(node: ast.AST) -> str | None:
    """
    Return the dotted name *node* is written with: a name, an attribute
    chain, a call's function, a subscript's value ("None" where a chain
    starts otherwise, as libcst has it).
    """
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{full_name(node.value)}.{node.attr}"
    if isinstance(node, ast.Call):
        return full_name(node.func)
    if isinstance(node, ast.Subscript):
        return full_name(node.value)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name
    return None


def dotted_names(node: ast.AST) -> Iterator[tuple[str, ast.AST]]:
    """
    Yield the dotted names of a name or attribute chain, longest first, each
    with its node (``a.b.c``, ``a.b``, ``a``); a call in the chain ends it.
    """
    if isinstance(node, ast.Name):
        yield node.id, node
    elif isinstance(node, ast.Attribute):
        value = node.value
        if isinstance(value, ast.Call):
            if isinstance(value.func, (ast.Attribute, ast.Name)):
                yield from dotted_names(value.func)
        elif isinstance(value, (ast.Attribute, ast.Name)):
            names = dotted_names(value)
            first = next(names, None)
            if first is not None:
                yield f"{first[0]}.{node.attr}", node
                yield first
                yield from names


def import_names(alias: ast.alias) -> list[str]:
    """Return the names an import alias binds: ``import a.b.c`` binds a.b.c, a.b and a."""
    if alias.asname is not None:
        return [alias.asname]
    parts = alias.name.split(".")
    return [".".join(parts[:end]) for end in range(len(parts), 0, -1)]


def _union(sets: Iterator[set[Meaning]] | list[set[Meaning]]) -> set[Meaning]:
    found: set[Meaning] = set()
    for part in sets:
        found |= part
    return found


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _Reader:
    """
    Walk a module once, in the order libcst's scope analysis walks it:
    bindings as they come, accesses resolved at the end.
    """

    def __init__(self, tree: ast.Module) -> None:
        builtin_scope = Scope("builtins", None)
        self.scope = Scope("module", builtin_scope)
        self.names = Names(self.scope, [self.scope])
        self.deferred: list[_Deferred] = []
        self.attribute: list[ast.Attribute | None] = [None]
        self.in_annotation = [False]
        self.in_type_hint = [False]
        self.literals = 0
        self.annotation: ast.Constant | None = None
        self.handlers: dict[type[ast.AST], Callable[[Any], None]] = {
            ast.Import: self._import,
            ast.ImportFrom: self._import,
            ast.Attribute: self._attribute,
            ast.Call: self._call,
            ast.Subscript: self._subscript,
            ast.Name: self._name,
            ast.Constant: self._constant,
            ast.FunctionDef: self._function,
            ast.AsyncFunctionDef: self._function,
            ast.Lambda: self._lambda,
            ast.ClassDef: self._class,
            ast.Global: self._global,
            ast.Nonlocal: self._global,
            ast.ListComp: self._comprehension,
            ast.SetComp: self._comprehension,
            ast.DictComp: self._comprehension,
            ast.GeneratorExp: self._comprehension,
            ast.For: self._for,
            ast.AsyncFor: self._for,
            ast.AnnAssign: self._annotated,
            ast.ExceptHandler: self._handler,
            ast.withitem: self._with_item,
            ast.keyword: self._keyword,
            ast.JoinedStr: self._formatted,
        }
        for name in ("TypeAlias", "TypeVar", "ParamSpec", "TypeVarTuple"):
            if hasattr(ast, name):
                self.handlers[getattr(ast, name)] = self._type_name
        if hasattr(ast, "TemplateStr"):
            self.handlers[getattr(ast, "TemplateStr")] = self._formatted  # noqa: B009
        for statement in tree.body:
            self.visit(statement)
        self._resolve()

    # -- the walk

    def visit(self, node: ast.AST) -> None:
        handler = self.handlers.get(type(node))
        if handler is not None:
            handler(node)
        else:
            self._children(node)
        self.names.scope_of[node] = self.scope
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.NamedExpr)):
            self.scope.count += 1

    def _children(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            self.visit(child)

    def _new_scope(self, kind: str, name: str | None = None) -> Scope:
        scope = Scope(kind, self.scope, name)
        self.names.scopes.append(scope)
        return scope

    def _within(self, scope: Scope, nodes: list[ast.AST]) -> None:
        outer, self.scope = self.scope, scope
        try:
            for node in nodes:
                self.visit(node)
        finally:
            self.scope = outer

    # -- bindings

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name == "*":
                continue
            for name in import_names(alias):
                self.scope.bind(ImportBinding, name, node)
        self.scope.count += 1

    def _name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store):
            self.scope.bind(Binding, node.id, node)
            return
        access = Access(node, self.scope, self.scope.count)
        if self.annotation is None:
            self.names.access_of[node] = access
        self.deferred.append(_Deferred(access, node.id, self.attribute[-1], self.annotation))

    def _global(self, node: ast.Global | ast.Nonlocal) -> None:
        target = self.names.module if isinstance(node, ast.Global) else self.scope.parent
        if not self.scope.is_module:  # where a global declaration changes nothing
            for name in node.names:
                self.scope.overwrites[name] = target
        self.scope.count += 1

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scope.bind(Binding, node.name, node)
        outer = self.scope
        type_params = getattr(node, "type_params", None)
        if type_params:
            self.scope = self._new_scope("annotation")
            for param in type_params:
                self.visit(param)
        scope = self._new_scope("function", node.name)
        self._parameters(node.args, scope)
        self._within(scope, list(node.body))
        for decorator in node.decorator_list:
            self.visit(decorator)
        if node.returns is not None:
            self._annotation_of(node.returns)
        self.scope = outer
        self.scope.count += 1

    def _lambda(self, node: ast.Lambda) -> None:
        scope = self._new_scope("function")
        self._parameters(node.args, scope)
        self._within(scope, [node.body])

    def _parameters(self, arguments: ast.arguments, scope: Scope) -> None:
        """Bind the parameters in *scope*; read defaults and annotations around it."""
        positional = [*arguments.posonlyargs, *arguments.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
        defaults += arguments.defaults
        parameters = list(zip(positional, defaults))
        if arguments.vararg is not None:
            parameters.append((arguments.vararg, None))
        parameters += zip(arguments.kwonlyargs, arguments.kw_defaults)
        if arguments.kwarg is not None:
            parameters.append((arguments.kwarg, None))
        for parameter, default in parameters:
            scope.bind(Binding, parameter.arg, parameter)
            self.names.scope_of[parameter] = scope
            if default is not None:
                self.visit(default)
            if parameter.annotation is not None:
                self._annotation_of(parameter.annotation)
        scope.count += 1

    def _class(self, node: ast.ClassDef) -> None:
        self.scope.bind(Binding, node.name, node)
        for decorator in node.decorator_list:
            self.visit(decorator)
        outer = self.scope
        type_params = getattr(node, "type_params", None)
        if type_params:
            self.scope = self._new_scope("annotation")
            for param in type_params:
                self.visit(param)
        for base in node.bases:
            self.visit(base)
        for keyword in node.keywords:
            self.visit(keyword.value)
        self._within(self._new_scope("class", node.name), list(node.body))
        self.scope = outer
        self.scope.count += 1

    def _type_name(self, node: ast.AST) -> None:
        name = getattr(node, "name", None)
        target = name.id if isinstance(name, ast.Name) else name
        if isinstance(target, str):
            self.scope.bind(Binding, target, node)
        if type(node).__name__ == "TypeAlias":
            outer, self.scope = self.scope, self._new_scope("annotation")
            for param in getattr(node, "type_params", ()):
                self.visit(param)
            self.visit(getattr(node, "value"))  # noqa: B009 - 3.12's fields
            self.scope = outer
        else:
            bound = getattr(node, "bound", None)
            if bound is not None:
                self.visit(bound)
        self.scope.count += 1

    def _comprehension(self, node: ast.expr) -> None:
        generators: list[ast.comprehension] = getattr(node, "generators")  # noqa: B009
        first = generators[0]
        self.visit(first.iter)
        outer, self.scope = self.scope, self._new_scope("comprehension")
        self.visit(first.target)
        self.scope.count += 1
        for condition in first.ifs:
            self.visit(condition)
        for generator in generators[1:]:
            self.visit(generator.target)
            self.visit(generator.iter)
            for condition in generator.ifs:
                self.visit(condition)
            self.scope.count += 1
        if isinstance(node, ast.DictComp):
            self.visit(node.key)
            self.visit(node.value)
        else:
            self.visit(getattr(node, "elt"))  # noqa: B009
        self.scope = outer

    def _for(self, node: ast.For | ast.AsyncFor) -> None:
        self.visit(node.target)
        self.scope.count += 1
        self.visit(node.iter)
        for statement in (*node.body, *node.orelse):
            self.visit(statement)

    def _with_item(self, node: ast.withitem) -> None:
        self.visit(node.context_expr)
        if node.optional_vars is not None:
            self.visit(node.optional_vars)
            self.scope.count += 1
        self.scope.count += 1

    def _handler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        if node.name is not None:
            self.scope.bind(Binding, node.name, node)
            self.scope.count += 1
        for statement in node.body:
            self.visit(statement)

    def _annotated(self, node: ast.AnnAssign) -> None:
        self.visit(node.target)
        self._annotation_of(node.annotation)
        if node.value is not None:
            self.visit(node.value)
        self.scope.count += 1

    # -- accesses, and the contexts that change how they are read

    def _attribute(self, node: ast.Attribute) -> None:
        if self.attribute[-1] is None:
            self.attribute[-1] = node
        self.visit(node.value)
        if self.attribute[-1] is node:
            self.attribute[-1] = None

    def _formatted(self, node: ast.AST) -> None:
        """Read the expressions of an f-string; its text is never an annotation."""
        for value in getattr(node, "values"):  # noqa: B009
            if not isinstance(value, ast.Constant):
                self.visit(value)

    def _keyword(self, node: ast.keyword) -> None:
        self.visit(node.value)  # its name is neither a binding nor an access

    def _call(self, node: ast.Call) -> None:
        self.attribute.append(None)
        self.in_type_hint.append(False)
        names = {name for name, _ in self.scope.meanings_of(full_name(node) or "")}
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        if names & TYPE_HINT_CALLS:
            self.visit(node.func)
            self.in_type_hint[-1] = True
            for argument in arguments[1:]:
                self.visit(argument)
        elif "typing.cast" in names:
            self.visit(node.func)
            if arguments:
                self.in_type_hint.append(True)
                self.visit(arguments[0])
                self.in_type_hint.pop()
                for argument in arguments[1:]:
                    self.visit(argument)
        else:
            self._children(node)
        self.attribute.pop()
        self.in_type_hint.pop()

    def _subscript(self, node: ast.Subscript) -> None:
        in_type_hint = literal = False
        if isinstance(node.value, ast.Name):
            names = {name for name, _ in self.scope.meanings_of(node.value.id)}
            in_type_hint = any(
                name.startswith(("typing.", "typing_extensions.")) for name in names
            )
            literal = bool(names & LITERALS)
        self.in_type_hint.append(in_type_hint)
        self.literals += literal
        self._children(node)
        self.literals -= literal
        self.in_type_hint.pop()

    def _annotation_of(self, node: ast.expr) -> None:
        self.in_annotation.append(True)
        self.visit(node)
        self.in_annotation.pop()

    def _constant(self, node: ast.Constant) -> None:
        """Read a string annotation as the code it holds."""
        if not (self.in_type_hint[-1] or self.in_annotation[-1]) or self.literals:
            return
        if not isinstance(node.value, (str, bytes)) or not node.value:
            return
        try:
            tree = ast.parse(node.value)
        except (SyntaxError, ValueError):
            return  # not every string of an annotation is code
        top = self.annotation is None
        if top:
            self.annotation = node
        for statement in tree.body:
            self.visit(statement)
        if top:
            self.annotation = None

    def _resolve(self) -> None:
        """Resolve every access, as libcst does once the module is read."""
        by_scope: dict[tuple[Scope, str], set[Access]] = {}
        for deferred in self.deferred:
            access, name = deferred.access, deferred.name
            if deferred.attribute is not None:
                for dotted, node in dotted_names(deferred.attribute):
                    if dotted in access.scope:
                        access.node, name = node, dotted
                        break
            if deferred.annotation is not None:
                access.node = deferred.annotation
            by_scope.setdefault((access.scope, name), set()).add(access)
            access.record_referents(name)
            access.scope.accesses.setdefault(name, []).append(access)
            self.names.accesses.setdefault(access.node, []).append(access)
        for (scope, name), accesses in by_scope.items():
            for binding in scope.lookup(name, scope):
                binding.record_references(accesses)
