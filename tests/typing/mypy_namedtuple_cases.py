"""mypy's own `NamedTuple` test cases, run as written and in the records spelling.

mypy's source distribution holds its type checker's test cases in
`test-data/unit/*.test`; two of those files are about named tuples
(`check-namedtuple.test`, `check-class-namedtuple.test`). Each case is run
twice through mypy:

- as written, without a plugin;
- in the records spelling (docs/pages/migrate.md): every class-syntax
  `NamedTuple` base becomes `Record`, every functional `NamedTuple(...)` call
  `Record.define(...)`, with `plugins = records.mypy`.

The two outputs are compared line by line after `normalise()`.

mypy's harness checks each case against its own fixtures (small stubs of
`builtins` and `typing`). They are not used here: both runs check against
the real typeshed bundled with the mypy under test, which is what a project
checking its code sees. The expected output written in the `.test` file is
not read either; only the difference between the two runs counts.

Run as a script, it prints one line per case (same, differs, crash) and the
differing outputs side by side::

    python tests/typing/mypy_namedtuple_cases.py [--diff] [CASE ...]

tests/typing/test_mypy_namedtuple_cases.py runs it in the typing env and
compares it with the table of intended differences in docs/pages/typing.md.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import json
import multiprocessing
import os
import re
import shlex
import sys
import tarfile
import tempfile
import urllib.request
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

TEST_FILES = ("check-namedtuple.test", "check-class-namedtuple.test")
SIMPLE_INDEX = "https://pypi.org/simple/mypy/"
CACHE_DIR = Path(
    os.environ.get("RECORDS_MYPY_SDIST_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "records-mypy-sdist"
)
NAMEDTUPLE_MODULES = ("typing", "typing_extensions")
RECORDS_IMPORT = "from records import Record"


# -- mypy's source distribution ----------------------------------------------


def sdist_path(version: str) -> Path:
    """The source distribution of mypy `version`, downloaded once into the cache.

    It is found in PyPI's simple index (its JSON form, PEP 691) and checked
    against the index's sha256; `pip download --no-binary :all:` would build
    mypy's metadata first, which needs its build dependencies.
    """
    name = f"mypy-{version}.tar.gz"
    path = CACHE_DIR / name
    if path.exists():
        return path
    request = urllib.request.Request(
        SIMPLE_INDEX, headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        index = json.load(response)
    (entry,) = (f for f in index["files"] if f["filename"] == name)
    with urllib.request.urlopen(entry["url"], timeout=300) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != entry["hashes"]["sha256"]:
        msg = f"{name}: sha256 differs from PyPI's"
        raise RuntimeError(msg)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(path)
    return path


def test_files(version: str) -> dict[str, str]:
    """The text of mypy's two `.test` files about named tuples, by file name."""
    texts = {}
    with tarfile.open(sdist_path(version)) as archive:
        for name in TEST_FILES:
            member = archive.extractfile(f"mypy-{version}/test-data/unit/{name}")
            assert member is not None
            texts[name] = member.read().decode()
    return texts


# -- the .test format ---------------------------------------------------------


@dataclasses.dataclass
class Case:
    """One `[case name]`: its modules (`main` first) and its `# flags:`."""

    name: str
    files: dict[str, str]
    flags: list[str]


SECTION = re.compile(r"^\[([a-z]+)(?: (.*))?\]\s*$")


def parse_cases(text: str) -> list[Case]:
    """The cases of a `.test` file, in order.

    The main module is what follows `[case name]`; `[file x.py]` sections are
    further modules; the fixtures (`[builtins ...]`, `[typing ...]`), the
    expected output (`[out]`) and the rest are left out.
    """
    cases: list[tuple[str, dict[str, list[str]]]] = []
    current: list[str] | None = None
    continued = False
    for line in text.splitlines():
        match = SECTION.match(line)
        if match:
            kind, arg = match.groups()
            if kind == "case":
                current = []
                cases.append((arg.strip(), {"main.py": current}))
            elif kind == "file" and cases:
                current = cases[-1][1][arg.strip()] = []
            else:
                current = None
            continue
        if current is not None and not line.startswith("--"):
            # An expected message continued on the next line (`# E: ... \`):
            # the continuation is left blank, so that no line moves.
            current.append("" if continued else line)
        continued = line.endswith("\\") and "#" in line
    parsed = []
    for name, sections in cases:
        files = {path: "\n".join(lines).rstrip("\n") + "\n" for path, lines in sections.items()}
        flags = re.search(r"^# flags: (.*)$", files["main.py"], re.MULTILINE)
        parsed.append(Case(name, files, shlex.split(flags.group(1)) if flags else []))
    return parsed


# -- the records spelling -----------------------------------------------------


def to_records(source: str) -> str:
    """`source` with its `NamedTuple` classes and calls spelt with records.

    A class base that names `typing.NamedTuple` (however imported) becomes
    `Record`; a call of it, `Record.define`. `from records import Record` is
    added on the line of each import that brings `NamedTuple` in, after a
    `;`, so that no line moves. Other uses of `NamedTuple` (an annotation, an
    `isinstance`) stay. Source that does not parse is left as it is.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    names: set[str] = set()  # local names of NamedTuple
    modules: set[str] = set()  # local names of typing, typing_extensions
    imports: list[ast.stmt] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in NAMEDTUPLE_MODULES:
            for alias in node.names:
                if alias.name == "NamedTuple":
                    names.add(alias.asname or alias.name)
                    imports.append(node)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in NAMEDTUPLE_MODULES:
                    modules.add(alias.asname or alias.name)
                    imports.append(node)

    def is_namedtuple(node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in names
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "NamedTuple"
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
        )

    edits: list[tuple[int, int, int, int, str]] = []  # line, col, end line, end col, text
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            edits.extend(_span(base, "Record") for base in node.bases if is_namedtuple(base))
        elif isinstance(node, ast.Call) and is_namedtuple(node.func):
            edits.append(_span(node.func, "Record.define"))
    if not edits:
        return source
    for node in {id(node): node for node in imports}.values():
        end = _span(node, "")[2:4]
        edits.append((*end, *end, f"; {RECORDS_IMPORT}"))
    lines = source.splitlines(keepends=True)
    # Offsets are in UTF-8 bytes; edit from the end so that earlier ones hold.
    encoded = [line.encode() for line in lines]
    for line, col, end_line, end_col, text in sorted(edits, reverse=True):
        head = encoded[line - 1][:col]
        tail = encoded[end_line - 1][end_col:]
        encoded[line - 1 : end_line] = [head + text.encode() + tail]
    return b"".join(encoded).decode()


def _span(node: ast.expr | ast.stmt, text: str) -> tuple[int, int, int, int, str]:
    assert node.end_lineno is not None
    assert node.end_col_offset is not None
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, text


# -- running mypy -------------------------------------------------------------

PLAIN = "namedtuple"
RECORDS = "records"


#: The plugin's wording of mypy's own messages about a named tuple, and mypy's.
PLUGIN_WORDING = {
    '"__init_subclass__" of "Record"': '"__init_subclass__" of "NamedTuple"',
    "Self type cannot be used in a record field type": (
        "Self type cannot be used in NamedTuple item type"
    ),
}


def normalise(output: str) -> list[str]:
    """mypy's output lines, less what names the spelling rather than the type.

    - the summary line (`Found 2 errors in 1 file`, `Success: ...`);
    - `Record.define` is named as the call mypy names (`NamedTuple`), and
      `Record` as `NamedTuple`, where a message quotes the spelling: the
      records variant spells the same class that way in its source;
    - where the plugin reports what mypy reports for a named tuple, its
      words for a record are read as mypy's (`PLUGIN_WORDING`).
    """
    lines = []
    for line in output.splitlines():
        if re.match(r"(Found \d+ errors? in|Success: no issues found)", line):
            continue
        line = line.replace('"Record.define()"', '"NamedTuple()"')
        line = line.replace("records.Record", "typing.NamedTuple")
        for plugin, mypy in PLUGIN_WORDING.items():
            line = line.replace(plugin, mypy)
        lines.append(line)
    return lines


def run_mypy(case: Case, variant: str, workdir: Path) -> tuple[str, int]:
    """mypy's output and status for `case` in `variant`, run in this process."""
    from mypy import api

    root = workdir / variant / case.name
    root.mkdir(parents=True)
    for path, source in case.files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(to_records(source) if variant == RECORDS else source)
    config = root.parent / "mypy.ini"
    if not config.exists():
        plugins = "plugins = records.mypy\n" if variant == RECORDS else ""
        config.write_text(f"[mypy]\n{plugins}")
    args = [
        "--config-file", str(config),
        "--cache-dir", str(workdir / f"cache-{variant}-{os.getpid()}"),
        "--show-traceback", "--no-error-summary", "--hide-error-context",
        *case.flags,
        "main.py",
    ]  # fmt: skip
    cwd = os.getcwd()
    os.chdir(root)
    try:
        out, err, status = api.run(args)
    finally:
        os.chdir(cwd)
    return out + err, status


@dataclasses.dataclass
class Result:
    """The two runs of one case."""

    name: str
    plain: str
    records: str
    plain_status: int
    records_status: int

    @property
    def verdict(self) -> str:
        """`crash`, `same` or `differs`."""
        if any(
            "INTERNAL ERROR" in out or "Traceback" in out for out in (self.plain, self.records)
        ):
            return "crash"
        same = (self.plain_status, normalise(self.plain)) == (
            self.records_status,
            normalise(self.records),
        )
        return "same" if same else "differs"


def _run_case(case: Case, workdir: str) -> Result:
    plain, plain_status = run_mypy(case, PLAIN, Path(workdir))
    records, records_status = run_mypy(case, RECORDS, Path(workdir))
    return Result(case.name, plain, records, plain_status, records_status)


def all_cases(version: str) -> list[Case]:
    """The cases of both files, each name once."""
    cases = [case for text in test_files(version).values() for case in parse_cases(text)]
    assert len({case.name for case in cases}) == len(cases)
    return cases


def run_cases(cases: list[Case], workers: int | None = None) -> dict[str, Result]:
    """Each case run both ways, by name; the cases are spread over processes.

    The processes are spawned, not forked: the test process may run threads
    (forking it then warns, an error under pytest), and mypy's compiled
    modules are better loaded afresh. Each worker checks its cases one after
    another in one interpreter, from a mypy cache of its own per spelling,
    which holds the standard library after its first case.
    """
    workers = workers or os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="mypy-namedtuple-") as workdir:
        if workers == 1:
            results = [_run_case(case, workdir) for case in cases]
        else:
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(workers, mp_context=context) as pool:
                results = list(pool.map(_run_case, cases, [workdir] * len(cases), chunksize=4))
    return {result.name: result for result in results}


def main(argv: list[str]) -> int:
    """Print each case's verdict, and with `--diff` the outputs of those that differ."""
    import mypy.version

    diff = "--diff" in argv
    wanted = [arg for arg in argv if not arg.startswith("--")]
    cases = all_cases(mypy.version.__version__.partition("+")[0])
    if wanted:
        cases = [case for case in cases if case.name in wanted]
    results = run_cases(cases)
    counts: dict[str, int] = {}
    for result in results.values():
        verdict = result.verdict
        counts[verdict] = counts.get(verdict, 0) + 1
        print(f"{verdict:8} {result.name}")
        if diff and verdict != "same":
            print("  namedtuple:")
            print("".join(f"    {line}\n" for line in normalise(result.plain)), end="")
            print("  records:")
            print("".join(f"    {line}\n" for line in normalise(result.records)), end="")
    print(", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
