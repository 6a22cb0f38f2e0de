"""
Cross-references in comments and docstrings: each file they name exists, and
each definition they name is defined in that file.

The shapes the code base writes, and only those (prose that merely looks like
them is left alone by being exact about them):

- a path from the top of the repository, ``records/_c/record.h`` or
  ``tests/support/``, with a line or lines if given (``records/_builder.py:5``,
  ``records/_c/accelerator.c:19-20``); a path followed by ``*``, ``<`` or
  ``{`` is a pattern, not a pointer;
- a source file named alone between backticks (``_layout.py``): a file of
  the repository has that name; in a C comment, a header named alone
  (``sealing.h``) is one of the parts beside it;
- a definition in a file: ``finish()`` or ``finish`` between backticks,
  finish() or BUILDER_FIELDS without, then "in", then a file of those shapes
  (``Record._make`` for a method);
- a definition in one of records' private modules: ``_builder.finish`` or
  ``records._pickling.namedtuple_method`` (in ``records/mypy/``, ``_name``
  is first the plugin's own module). ``records._accelerator_c`` is the
  module built from ``records/_c/``; a private module of the standard library
  (``_collections._tuplegetter``) is not records'.

What a file defines: in Python (read with ``ast``), functions and classes at
any depth, and names bound or imported at module or class level; in C (read
with a regular expression), functions, macros and declarations at the start
of a line, and the names Python sees (method tables, ``tp_name``).
"""

from __future__ import annotations

import ast
import importlib.util
import io
import re
import sys
import tokenize
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: The files whose comments and docstrings are read. The stubs under
#: stubs/records/ are links to records/*.pyi, read once there.
#: docs/pages/changelog.md is not read: it names what was, modules and
#: functions since removed included.
SOURCES = (
    "records/**/*.py",
    "records/_c/*.[ch]",
    "records/*.pyi",
    "stubs/**/*",
    "tests/**/*.py",
    "benchmarks/*.py",
    "docs/pages/*.md",
)
NOT_READ = ("docs/pages/changelog.md",)

TOP_DIRECTORIES = "records|tests|stubs|benchmarks|docs"
SOURCE_FILE = r"[\w-]+\.(?:py|pyi|c|h)"
LINES = r"(?::(?P<first>\d+)(?:-(?P<last>\d+))?)?"

PATH = re.compile(rf"(?<![\w./-])(?P<file>(?:{TOP_DIRECTORIES})/[\w./-]*){LINES}(?![\w*<{{/-])")
BARE_FILE = re.compile(rf"(?P<tick>``?)(?P<file>{SOURCE_FILE}){LINES}(?P=tick)(?!`)")
C_HEADER = re.compile(rf"(?<![\w./-])(?P<file>\w+\.h){LINES}(?![\w/])")
# A name, then "in" (across the lines of a comment, over its * and # marks).
NAME_IN = re.compile(
    r"(?:(?<!`)(?P<tick>``?)(?P<ticked>[A-Za-z_][\w.]*)(?:\(\))?(?P=tick)"
    r"|(?<![\w.`])(?P<called>[A-Za-z_]\w*)\(\)"
    r"|(?<![\w.`])(?P<constant>[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?![\w`(]))"
    r"[\s*#]+in[\s*#]+"
)
MODULE_ATTRIBUTE = re.compile(
    r"(?<![\w./-])(?P<module>(?:records\.(?:mypy\.)?)?_[a-z]\w*)"
    r"\.(?!(?:py|pyi|c|h|so|md)\b)(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)"
)
#: The extension module, and the folder of the sources it is built from.
C_EXTENSION, C_SOURCES = "_accelerator_c", "records/_c"
# Comments, and strings (the docs of methods and types); not an #include's file.
C_COMMENT_OR_STRING = re.compile(
    r'/\*.*?\*/|//[^\n]*|(?P<include>^#\s*include\s*)?"(?:[^"\\\n]|\\.)*"',
    re.DOTALL | re.MULTILINE,
)


@dataclass(frozen=True)
class Reference:
    """A file, a module, or a definition in one, named at *line* of *source*."""

    source: str
    line: int
    file: str | None = None
    module: str | None = None
    name: str | None = None
    lines: tuple[int, int] | None = None

    def __str__(self) -> str:
        target = str(self.file or self.module)
        if self.lines:
            first, last = self.lines
            target += f":{first}" if first == last else f":{first}-{last}"
        named = f"{self.name} in {target}" if self.name else target
        return f"{self.source}:{self.line}: {named}"


def sources(root: Path) -> list[Path]:
    """The files to read under *root*."""
    found = {
        path
        for pattern in SOURCES
        for path in root.glob(pattern)
        if path.is_file() and not path.is_symlink() and "__pycache__" not in path.parts
    }
    return sorted(found - {root / name for name in NOT_READ})


def comments(path: Path) -> list[tuple[int, str]]:
    """The comments and docstrings of *path*, each with the line it starts on."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".py", ".pyi"):
        return python_comments(text)
    if path.suffix in (".c", ".h"):
        return [
            (text.count("\n", 0, found.start()) + 1, found.group())
            for found in C_COMMENT_OR_STRING.finditer(text)
            if found.group()[0] == "/" or not found["include"]
        ]
    if path.suffix == ".md":
        return [(1, text)]
    return [(number, line) for number, line in enumerate(text.splitlines(), 1) if line[:1] == "#"]


def python_comments(text: str) -> list[tuple[int, str]]:
    """Comments (a run of comment lines as one) and string statements (docstrings)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    runs: list[tuple[int, str]] = []
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        line = token.start[0]
        if runs and runs[-1][0] + runs[-1][1].count("\n") == line - 1:
            runs[-1] = (runs[-1][0], runs[-1][1] + "\n" + token.string)
        else:
            runs.append((line, token.string))
    code = [token for token in tokens if token.type not in (tokenize.COMMENT, tokenize.NL)]
    statement_starts = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    docstrings = [
        (token.start[0], token.string)
        for before, token, after in zip([None, *code], code, code[1:])
        if token.type == tokenize.STRING
        and (before is None or before.type in statement_starts)
        and after.type == tokenize.NEWLINE
    ]
    return runs + docstrings


def references(root: Path, path: Path) -> list[Reference]:
    """Every cross-reference in the comments and docstrings of *path*."""
    source = path.relative_to(root).as_posix()
    file_shapes = (PATH, C_HEADER) if path.suffix in (".c", ".h") else (PATH, BARE_FILE)
    found = []
    for first_line, text in comments(path):
        named = {
            m.end(): m["ticked"] or m["called"] or m["constant"] for m in NAME_IN.finditer(text)
        }
        for shape in file_shapes:
            for match in shape.finditer(text):
                start = match.start()
                ticks = len(text[start - 2 : start]) - len(text[start - 2 : start].rstrip("`"))
                name = named.get(start - ticks)
                lines = None
                if match["first"]:
                    lines = (int(match["first"]), int(match["last"] or match["first"]))
                line = first_line + text.count("\n", 0, start)
                file = match["file"].rstrip(".")  # a sentence's full stop
                found.append(Reference(source, line, file=file, name=name, lines=lines))
        for match in MODULE_ATTRIBUTE.finditer(text):
            line = first_line + text.count("\n", 0, match.start())
            found.append(Reference(source, line, module=match["module"], name=match["name"]))
    return sorted(found, key=lambda reference: reference.line)


def problem(root: Path, reference: Reference) -> str | None:
    """What is wrong with *reference*, or None where it points at something real."""
    if reference.module is not None:
        return module_problem(root, reference)
    candidates = files_named(root, reference)
    if not candidates:
        return f"{reference}: no such file"
    if reference.lines and all(reference.lines[1] > line_count(path) for path in candidates):
        return f"{reference}: the file has {line_count(candidates[0])} lines"
    if reference.name and not any(defines(path, reference.name) for path in candidates):
        return f"{reference}: not defined there"
    return None


def files_named(root: Path, reference: Reference) -> list[Path]:
    """The files a reference's file may be: a path, else the files of that name."""
    assert reference.file is not None
    if "/" in reference.file:
        path = root / reference.file
        return [path] if path.exists() else []
    if reference.source.startswith("records/_c/"):
        path = root / "records" / "_c" / reference.file
        return [path] if path.exists() else []
    return [path for path in all_files(root) if path.name == reference.file]


@cache
def all_files(root: Path) -> list[Path]:
    """The files under the top directories of *root*."""
    return [
        path
        for top in TOP_DIRECTORIES.split("|")
        for path in (root / top).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]


def line_count(path: Path) -> int:
    """The number of lines of the file at *path*."""
    return len(path.read_text(encoding="utf-8").splitlines())


def module_problem(root: Path, reference: Reference) -> str | None:
    """Whether a module reference names a module of records, and its attribute in it."""
    assert reference.module is not None and reference.name is not None
    module = reference.module
    if module.rpartition(".")[2] == C_EXTENSION:
        if any(defines(path, reference.name) for path in (root / C_SOURCES).glob("*.[ch]")):
            return None
        return f"{reference}: not defined in {C_SOURCES}/"
    if not module.startswith("records."):
        here = (root / reference.source).parent
        sibling = here.name == "mypy" and here.parent.name == "records"
        module = (
            "records.mypy."
            if sibling and module_path(root, f"records.mypy.{module}")
            else "records."
        ) + module
    path = module_path(root, module)
    if path is None:
        if standard_library(reference.module):
            return None
        return f"{reference}: no module {module}"
    first = reference.name.partition(".")[0]
    if path.name == "__init__.py" and module_path(root, f"{module}.{first}"):
        return None  # a submodule of a package
    if defines(path, reference.name):
        return None
    return f"{reference}: not defined in {path.relative_to(root).as_posix()}"


def standard_library(module: str) -> bool:
    """Whether *module* is the standard library's (on PyPy 3.9: whether it imports)."""
    names = getattr(sys, "stdlib_module_names", None)  # 3.10+
    return module in names if names is not None else importlib.util.find_spec(module) is not None


def module_path(root: Path, module: str) -> Path | None:
    """The file of *module*, dotted, under *root*; None if there is none."""
    base = root.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base.with_suffix(".pyi"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def defines(path: Path, name: str) -> bool:
    """Whether the file at *path* defines *name* (dotted: an attribute of a class)."""
    if path.suffix in (".py", ".pyi"):
        names = python_definitions(path)
        return name in names if "." in name else name in {n.rpartition(".")[2] for n in names}
    if path.suffix in (".c", ".h"):
        return all(part in c_definitions(path) for part in name.split("."))
    return True  # other files name no definitions


@cache
def python_definitions(path: Path) -> frozenset[str]:
    """The qualified names *path* defines: ``f``, ``C``, ``C.method``, ``C.attribute``."""
    found = set()

    def visit(node: ast.AST, scope: str, bindings: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                found.add(scope + child.name)
                visit(child, f"{scope}{child.name}.", isinstance(child, ast.ClassDef))
            elif not isinstance(child, ast.stmt):
                continue
            elif bindings and isinstance(child, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            found.add(scope + name.id)
            elif bindings and isinstance(child, (ast.Import, ast.ImportFrom)):
                for alias in child.names:
                    found.add(scope + (alias.asname or alias.name.partition(".")[0]))
            else:
                visit(child, scope, bindings)  # the body of an if, try, with or for

    visit(ast.parse(path.read_text(encoding="utf-8")), "", True)
    return frozenset(found)


C_DEFINITION = re.compile(
    r"^#\s*define\s+(\w+)"  # a macro
    r"|^(\w+)\s*\("  # a function, its name at the start of the line
    r"|^[A-Za-z_][\w \t*]*?[ \t*](\w+)\s*(?:\[[^\]\n]*\]\s*)?[(=;]"  # a declaration
    r"|^}\s*(\w+)\s*;"  # a typedef's name
    r'|^\s*\{"(\w+)",'  # a method, getset or member table's entry
    r'|\.tp_name\s*=\s*"[\w.]*?(\w+)"',  # a type's name
    re.MULTILINE,
)


@cache
def c_definitions(path: Path) -> frozenset[str]:
    """The names *path* defines, for C code and for Python."""
    text = path.read_text(encoding="utf-8")
    return frozenset(
        name for match in C_DEFINITION.finditer(text) for name in match.groups() if name
    )


def broken(root: Path) -> list[str]:
    """Each cross-reference under *root* that points at nothing, with its file and line."""
    return [
        found
        for path in sources(root)
        for reference in references(root, path)
        if (found := problem(root, reference)) is not None
    ]
