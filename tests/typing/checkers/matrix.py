"""
The checker matrix: run each type checker over the example modules, and read what it reports.

Used by ``tests/typing/test_checkers.py`` and ``test_installs.py``. The
example modules are ``records_examples.py`` and its ``typing.NamedTuple``
twin, made from it (``namedtuple_twin.py``). A view is one checker in one
configuration: by default, or with the opt-in ``RECORDS_AS_NAMEDTUPLE`` view
where the checker can define a constant. What a view gets wrong, row by
row, is the text kept in ``expected/<checker>-<view>.txt``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .namedtuple_twin import MODULE as TWIN_MODULE
from .namedtuple_twin import twin

HERE = Path(__file__).parent

EXPECTED = HERE / "expected"

RECORDS_MODULE = "records_examples.py"

MODULES = (RECORDS_MODULE, TWIN_MODULE)

BIN = Path(sys.executable).parent

MARK = re.compile(r"#\s*E$")

# Each checker in its default mode, with the Python running the tests.
# (basedpyright's default mode adds warnings of its own; only errors count.)
PYRIGHT_CONFIG = {"pythonVersion": f"{sys.version_info.major}.{sys.version_info.minor}"}

OPT_IN = {"defineConstant": {"RECORDS_AS_NAMEDTUPLE": True}}


@dataclass
class Diagnostic:
    """One error a checker reported."""

    module: str
    line: int
    message: str


@dataclass
class View:
    """One checker, in one configuration: how to run it and read its errors."""

    checker: str
    name: str
    files: dict[str, str]
    command: list[str]
    parse: str  # "mypy", "pyright", "pyrefly" or "ty": the output format
    version: list[str] = field(default_factory=list)
    #: The RECORDS_AS_NAMEDTUPLE view, whose documented costs include errors
    #: on valid code (a subclass adding fields, ClassVar, mixins, __new__).
    opt_in: bool = False
    label: str = ""  # its column on the Typing page

    @property
    def id(self) -> str:
        return f"{self.checker}-{self.name}"

    @property
    def expected(self) -> Path:
        return EXPECTED / f"{self.id}.txt"


def _pyright_view(checker: str, *, opt_in: bool) -> View:
    config = {**PYRIGHT_CONFIG, **(OPT_IN if opt_in else {})}
    return View(
        checker,
        "namedtuple" if opt_in else "default",
        {"pyrightconfig.json": json.dumps(config)},
        [str(BIN / checker), "--outputjson", "--pythonpath", sys.executable, *MODULES],
        "pyright",
        [str(BIN / checker), "--version"],
        opt_in=opt_in,
        label=f"{checker}, opt-in" if opt_in else checker,
    )


MYPY = [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", ".cache"]

VIEWS = [
    View(
        "mypy",
        "plugin",
        {"mypy.ini": "[mypy]\nplugins = records.mypy\n"},
        [*MYPY, *MODULES],
        "mypy",
        [sys.executable, "-m", "mypy", "--version"],
        label="mypy + plugin",
    ),
    View(
        "mypy",
        "no-plugin",
        {"mypy.ini": "[mypy]\n"},
        [*MYPY, *MODULES],
        "mypy",
        [sys.executable, "-m", "mypy", "--version"],
        label="mypy alone",
    ),
    _pyright_view("pyright", opt_in=False),
    _pyright_view("pyright", opt_in=True),
    _pyright_view("basedpyright", opt_in=False),
    _pyright_view("basedpyright", opt_in=True),
    # pyrefly and ty have no setting that defines a constant: no opt-in view.
    View(
        "pyrefly",
        "default",
        {"pyrefly.toml": f"python-interpreter-path = {json.dumps(sys.executable)}\n"},
        [str(BIN / "pyrefly"), "check", "--output-format=json", "--summary=none", *MODULES],
        "pyrefly",
        [str(BIN / "pyrefly"), "--version"],
        label="pyrefly",
    ),
    View(
        "ty",
        "default",
        {"ty.toml": f"[environment]\npython = {json.dumps(sys.executable)}\n"},
        [str(BIN / "ty"), "check", "--output-format=concise", "--no-progress", *MODULES],
        "ty",
        [str(BIN / "ty"), "--version"],
        label="ty",
    ),
    # zuban reads the stub as mypy does (MYPY is true for it): mypy's view.
    View(
        "zuban",
        "default",
        {},
        [str(BIN / "zuban"), "check", "--python-executable", sys.executable, *MODULES],
        "mypy",
        [str(BIN / "zuban"), "--version"],
        label="zuban",
    ),
]

MYPY_LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): (?P<severity>\w+): (?P<message>.*)$")

TY_LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):\d+: (?P<severity>\w+)\[(?P<code>[^\]]+)\] (?P<message>.*)$"
)


@cache
def source(module: str) -> str:
    """The text of example *module*: the records examples, or the twin made from them."""
    records_examples = (HERE / RECORDS_MODULE).read_text()
    return records_examples if module == RECORDS_MODULE else twin(records_examples)


def parse(view: View, stdout: str) -> list[Diagnostic]:
    """The errors (not warnings or notes) in a checker's output."""
    found: list[Diagnostic] = []
    if view.parse in ("mypy", "ty"):
        pattern = MYPY_LINE if view.parse == "mypy" else TY_LINE
        for match in map(pattern.match, stdout.splitlines()):
            if match and match["severity"] == "error":
                found.append(Diagnostic(match["path"], int(match["line"]), match["message"]))
    elif view.parse == "pyright":
        for item in json.loads(stdout)["generalDiagnostics"]:
            if item["severity"] == "error":
                line = item["range"]["start"]["line"] + 1
                found.append(Diagnostic(item["file"], line, item["message"]))
    elif view.parse == "pyrefly":
        for item in json.loads(stdout)["errors"]:
            if item["severity"] == "error":
                found.append(Diagnostic(item["path"], item["line"], item["concise_description"]))
    for diagnostic in found:
        diagnostic.module = Path(diagnostic.module).name
    return found


def run(view: View, directory: Path) -> list[Diagnostic]:
    """Run *view*'s checker over copies of the example modules in *directory*."""
    directory.mkdir()
    for module in MODULES:
        (directory / module).write_text(source(module))
    for name, text in view.files.items():
        (directory / name).write_text(text)
    # PYRIGHT_PYTHON_IGNORE_WARNINGS: no look-up of pyright's latest version.
    env = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1", "NO_COLOR": "1"}
    env.pop("MYPYPATH", None)
    result = subprocess.run(
        view.command, cwd=directory, capture_output=True, text=True, check=False, env=env
    )
    assert result.returncode in (0, 1), f"{view.id} failed:\n{result.stdout}\n{result.stderr}"
    return parse(view, result.stdout)


@dataclass
class Row:
    """One ``row_*`` function of an example module: its lines and the marked ones."""

    name: str
    lines: range
    marked: set[int]
    doc: str  # the behaviour, as the Typing page's table says it


def rows(module: str) -> list[Row]:
    """The rows of *module*, in order."""
    text = source(module)
    lines = text.splitlines()
    found = []
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("row_"):
            span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
            marked = {number for number in span if MARK.search(lines[number - 1])}
            doc = ast.get_docstring(node) or ""
            found.append(Row(node.name.removeprefix("row_"), span, marked, doc))
    return found


def section(module: str, diagnostics: list[Diagnostic]) -> str:
    """What a checker gets wrong in *module*, row by row: a part of the text in ``expected/``."""
    lines = source(module).splitlines()
    reported = {d.line for d in diagnostics if d.module == module}
    module_rows = rows(module)
    correct = 0
    details = []
    for row in module_rows:
        inside = {line for line in reported if line in row.lines}
        if inside == row.marked:
            correct += 1
        for line in sorted(row.marked - inside):
            details.append(f"  {row.name}: missed  {lines[line - 1].strip()}")
        for line in sorted(inside - row.marked):
            details.append(f"  {row.name}: false   {lines[line - 1].strip()}")
    for line in sorted(reported - {line for row in module_rows for line in row.lines}):
        details.append(f"  (outside the rows): false   {lines[line - 1].strip()}")
    return "".join(
        f"{text}\n" for text in [f"{module}: {correct} of {len(module_rows)} rows right", *details]
    )


def report(diagnostics: list[Diagnostic]) -> str:
    """What a checker gets wrong in both example modules: the text kept in ``expected/``."""
    others = sorted({d.module for d in diagnostics} - set(MODULES))
    return "".join(section(module, diagnostics) for module in MODULES) + "".join(
        f"errors in {name}\n" for name in others
    )


def recorded(view: View, module: str | None = None) -> str:
    """The recorded text of *view*, or its section for *module*, without comments."""
    text = "".join(
        line + "\n" for line in view.expected.read_text().splitlines() if not line.startswith("#")
    )
    if module is None:
        return text
    start = text.index(f"{module}: ")
    ends = [text.index(f"{other}: ") for other in MODULES if text.find(f"{other}: ") > start]
    return text[start : min(ends, default=len(text))]


#: The checkers not installed here. The matrix runs all of them or none: the
#: recorded outputs hold for the latest releases, which the extra installs.
MISSING = sorted(
    {view.checker for view in VIEWS if view.command[0] != sys.executable}
    - {path.name for path in BIN.iterdir()}
)


def valid_lines() -> set[int]:
    """The lines of ``records_examples.py`` that are not marked as errors."""
    lines = source(RECORDS_MODULE).splitlines()
    return {number for number, line in enumerate(lines, 1) if not MARK.search(line)}


def recorded_rows(view_id: str, module: str) -> int:
    """The rows *view_id* gets right in *module*, as recorded."""
    (view,) = (view for view in VIEWS if view.id == view_id)
    match = re.match(rf"{re.escape(module)}: (\d+) of \d+ rows right", recorded(view, module))
    assert match, (view_id, module)
    return int(match[1])


TYPING_PAGE = HERE.parent.parent.parent / "docs" / "pages" / "typing.md"

CELLS = {"right": "✓", "missed": "–", "false": "error"}


def _row_results(view: View, module: str) -> dict[str, str]:
    """Each row of *module* as *view* is recorded: right, missed or false (an error on valid code)."""
    results = {row.name: "right" for row in rows(module)}
    for line in recorded(view, module).splitlines()[1:]:
        name, _, rest = line.strip().partition(": ")
        if name in results and results[name] != "false":
            results[name] = rest.split()[0]
    return results


def _version(view: View) -> str:
    header = view.expected.read_text().splitlines()[0]
    match = re.search(rf"recorded with {view.checker} (\S+)", header)
    assert match, header
    return f"{view.checker} {match[1]}"


def markdown_table() -> str:
    """The Typing page's table of what each checker understands, from the recorded outputs."""
    out = ["| | " + " | ".join(view.label for view in VIEWS) + " |"]
    out.append("|---" * (len(VIEWS) + 1) + "|")
    results = [_row_results(view, RECORDS_MODULE) for view in VIEWS]
    for row in rows(RECORDS_MODULE):
        cells = [CELLS[result[row.name]] for result in results]
        out.append(f"| {row.doc} | " + " | ".join(cells) + " |")
    for module, title in [(RECORDS_MODULE, "records"), (MODULES[1], "`typing.NamedTuple`")]:
        counts = [str(recorded_rows(view.id, module)) for view in VIEWS]
        out.append(f"| **rows right, {title}** | " + " | ".join(counts) + " |")
    versions = sorted({_version(view) for view in VIEWS})
    out.append("")
    out.append(f"Measured with {', '.join(versions)}.")
    return "\n".join(out) + "\n"
