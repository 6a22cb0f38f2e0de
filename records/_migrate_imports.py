"""
What uses each name a module imports, for ``python -m records migrate``:
once a ``NamedTuple`` base or ``namedtuple`` call is rewritten, the import
it was spelled with may be left unused, and libcst's RemoveImportsVisitor
removes it. That visitor reads the whole module again to see which imports
are unused; this reads it from ``ast`` once, by the same rules (a read of
the name, where it sees that import; the name in ``__all__``; the name in
a string annotation), keeping apart the reads the rewrite takes away.
"""

from __future__ import annotations

import ast

from ._migrate_names import Access, ImportBinding, Names, dotted_names, full_name, import_names
from ._migrate_transform import ImportUse


def import_uses(
    tree: ast.Module, names: Names, numbers: dict[ast.AST, int], replaced: list[ast.AST]
) -> list[ImportUse]:
    """
    Return the uses of each name of each import statement of *tree*, by
    its statement's number in *numbers*; a read by the first name of a
    node of *replaced* (what each target replaces) counts for that target.
    """
    readers: dict[Access, int] = {}
    for number, node in enumerate(replaced):
        first = node
        while isinstance(first, ast.Attribute):
            first = first.value
        access = names.access_of.get(first)
        if access is not None:
            readers[access] = number
    elsewhere = _exported(tree) | _string_annotation_names(tree, names)
    found = []
    for statement, number in numbers.items():
        if isinstance(statement, (ast.Import, ast.ImportFrom)) and _may_be_unused(statement):
            scope = names.scope_of[statement]
            for index, alias in enumerate(statement.names):
                use = ImportUse(number, index)
                for name in _bound(statement, alias):
                    use.used = use.used or name in elsewhere
                    for binding in scope.lookup(name, scope):
                        if isinstance(binding, ImportBinding):
                            _count(binding.references, readers, use)
                found.append(use)
    return found


def _may_be_unused(statement: ast.Import | ast.ImportFrom) -> bool:
    """Whether libcst weighs the names of *statement*: not ``*``, ``__future__`` or ``.``."""
    if isinstance(statement, ast.ImportFrom) and statement.module in (None, "__future__"):
        return False
    return statement.names[0].name != "*"


def _bound(statement: ast.Import | ast.ImportFrom, alias: ast.alias) -> list[str]:
    """Return the names *alias* binds, as libcst weighs them."""
    if alias.asname or isinstance(statement, ast.ImportFrom):
        return [alias.asname or alias.name]
    return import_names(alias)  # a.b.c, a.b and a


def _count(references: set[Access], readers: dict[Access, int], use: ImportUse) -> None:
    """Count *references* in *use*: for the target that reads it, or as a use of its own."""
    for reference in references:
        if reference in readers:
            use.targets.add(readers[reference])
        else:
            use.used = True


def _exported(tree: ast.Module) -> set[str]:
    """Return the names ``__all__`` lists, wherever it is assigned (as GatherExportsVisitor)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        values: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            for target in node.targets:
                values += _export_values(target, node.value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            values = _export_values(node.target, node.value)
        elif (
            isinstance(node, ast.AugAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "__all__"
            and isinstance(node.op, ast.Add)
            and isinstance(node.value, (ast.List, ast.Tuple))
        ):
            values = [node.value]
        for value in values:
            found |= _strings_in(value, top=True)
    return found


def _export_values(target: ast.expr, value: ast.expr) -> list[ast.expr]:
    if full_name(target) == "__all__":
        return [value] if isinstance(value, (ast.List, ast.Tuple, ast.Set)) else []
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
        for element, part in zip(target.elts, value.elts):
            if full_name(element) == "__all__" and isinstance(
                part, (ast.List, ast.Tuple, ast.Set)
            ):
                return [part]
    return []


def _strings_in(node: ast.AST, top: bool = False) -> set[str]:
    """Return the strings in *node*, not those of a list, tuple or set within it."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and not top:
        return set()
    if isinstance(node, ast.Constant):
        return {node.value} if isinstance(node.value, str) else set()
    if isinstance(node, ast.JoinedStr):
        children: list[ast.AST] = [v for v in node.values if not isinstance(v, ast.Constant)]
    else:
        children = list(ast.iter_child_nodes(node))
    found: set[str] = set()
    for child in children:
        found |= _strings_in(child)
    return found


def _string_annotation_names(tree: ast.Module, names: Names) -> set[str]:
    """
    Return the names the string annotations of *tree* read, as libcst's
    GatherNamesFromStringAnnotationsVisitor finds them: in annotations and
    in ``TypeVar(...)``, not in ``Literal[...]`` nor in other calls.
    """
    found: set[str] = set()

    def visit(node: ast.AST, in_annotation: bool) -> None:
        if isinstance(node, ast.Subscript) and "typing.Literal" in names.names(node):
            return
        if isinstance(node, ast.Call):
            if "typing.TypeVar" not in names.names(node):
                return
            in_annotation = True
        if isinstance(node, ast.Constant):
            if in_annotation and isinstance(node.value, (str, bytes)) and node.value:
                found.update(_names_in_code(node.value))
            return
        for field_name, value in ast.iter_fields(node):
            annotation = field_name in ("annotation", "returns")
            children = value if isinstance(value, list) else [value]
            for child in children:
                if isinstance(child, ast.AST) and not (
                    isinstance(node, ast.JoinedStr) and isinstance(child, ast.Constant)
                ):
                    visit(child, in_annotation or annotation)

    visit(tree, False)
    return found


def _names_in_code(code: str | bytes) -> set[str]:
    """Return the names and dotted names a string annotation's code reads."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return set()
    found: set[str] = set()
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(parents.get(node), ast.Attribute):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.update(name for name, _ in dotted_names(node))
    return found
