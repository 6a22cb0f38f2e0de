"""
The checker matrix: run each type checker over the example modules, and read what it reports.

Used by ``tests/typing/test_checkers.py`` and ``test_installs.py``. The
example modules are the three spellings of the same rows:
``records_examples.py`` (``records.Record``), and two twins made from it,
with ``Record`` from ``records.as_namedtuple`` (``as_namedtuple_twin.py``)
and with ``typing.NamedTuple`` (``namedtuple_twin.py``). A view is one
checker in one configuration (mypy with the records plugin and without it;
the others as they come). What a view gets wrong, row by row, in each
module, is the text kept in ``expected/<checker>-<view>.txt``.

``python -m checkers.matrix``, run in ``tests/typing``, prints how many rows
each view gets right in each spelling, as recorded.
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

from . import as_namedtuple_twin, namedtuple_twin

HERE = Path(__file__).parent

EXPECTED = HERE / "expected"

RECORDS_MODULE = "records_examples.py"

AS_NAMEDTUPLE_MODULE = as_namedtuple_twin.MODULE

NAMEDTUPLE_MODULE = namedtuple_twin.MODULE

#: The three spellings, in the order of the tables: records.Record,
#: records.as_namedtuple.Record, typing.NamedTuple.
MODULES = (RECORDS_MODULE, AS_NAMEDTUPLE_MODULE, NAMEDTUPLE_MODULE)

#: Each spelling as the Typing page's tables name it.
SPELLING = {
    RECORDS_MODULE: "`records.Record`",
    AS_NAMEDTUPLE_MODULE: "`records.as_namedtuple.Record`",
    NAMEDTUPLE_MODULE: "`typing.NamedTuple`",
}

BIN = Path(sys.executable).parent

MARK = re.compile(r"#\s*E$")

# Each checker in its default mode, with the Python running the tests.
# (basedpyright's default mode adds warnings of its own; only errors count.)
PYRIGHT_CONFIG = {"pythonVersion": f"{sys.version_info.major}.{sys.version_info.minor}"}


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
    label: str = ""  # its column on the Typing page

    @property
    def id(self) -> str:
        return f"{self.checker}-{self.name}"

    @property
    def expected(self) -> Path:
        return EXPECTED / f"{self.id}.txt"


def _pyright_view(checker: str) -> View:
    return View(
        checker,
        "default",
        {"pyrightconfig.json": json.dumps(PYRIGHT_CONFIG)},
        [str(BIN / checker), "--outputjson", "--pythonpath", sys.executable, *MODULES],
        "pyright",
        [str(BIN / checker), "--version"],
        label=checker,
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
    _pyright_view("pyright"),
    _pyright_view("basedpyright"),
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
    # zuban runs no mypy plugin: it reads the stubs as mypy alone does.
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
    if module == AS_NAMEDTUPLE_MODULE:
        return as_namedtuple_twin.twin(records_examples)
    if module == NAMEDTUPLE_MODULE:
        return namedtuple_twin.twin(records_examples)
    return records_examples


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
    """What a checker gets wrong in the example modules: the text kept in ``expected/``."""
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
    # Each section starts a line with its module's name, which no line of another does.
    starts = {
        found[1]: found.start()
        for found in re.finditer(rf"^({'|'.join(map(re.escape, MODULES))}): ", text, re.MULTILINE)
    }
    start = starts[module]
    return text[start : min((end for end in starts.values() if end > start), default=len(text))]


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


def row_results(view: View, module: str) -> dict[str, str]:
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


def score_table() -> str:
    """The rows each view gets right in each spelling, with the checkers' versions."""
    out = ["| checker | " + " | ".join(SPELLING[module] for module in MODULES) + " |"]
    out.append("|---" * (len(MODULES) + 1) + "|")
    total = len(rows(RECORDS_MODULE))
    for view in VIEWS:
        counts = [f"{recorded_rows(view.id, module)}/{total}" for module in MODULES]
        out.append(f"| {view.label} | " + " | ".join(counts) + " |")
    versions = sorted({_version(view) for view in VIEWS})
    out.append("")
    out.append(f"Measured with {', '.join(versions)}.")
    return "\n".join(out) + "\n"


def row_table(module: str) -> str:
    """What each view gets right in *module*, row by row."""
    out = ["| | " + " | ".join(view.label for view in VIEWS) + " |"]
    out.append("|---" * (len(VIEWS) + 1) + "|")
    results = [row_results(view, module) for view in VIEWS]
    for row in rows(module):
        cells = [CELLS[result[row.name]] for result in results]
        out.append(f"| {row.doc} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def markdown_tables() -> list[str]:
    """The Typing page's tables: the scores, then the rows of each spelling of records."""
    return [score_table(), row_table(RECORDS_MODULE), row_table(AS_NAMEDTUPLE_MODULE)]


if __name__ == "__main__":
    print(score_table(), end="")
