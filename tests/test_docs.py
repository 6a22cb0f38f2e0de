"""
Every example in the README and in docs/pages runs, and its shown output is checked.

Sybil reads the Markdown. A ``pycon`` block (or a ``python`` block starting
with ``>>>``) is a doctest. Any other ``python`` block is executed, and must
not raise. A block
with ``# E:``/``# N:`` comments is a type-checking example instead: mypy, with
the records plugin, must report exactly those errors and notes on those lines.
Blocks in one file share one namespace, in order, as a reader runs them.
"""

import doctest
import importlib.util
import os
import re
import sys
import types
import unittest
from pathlib import Path

import pytest

sybil = pytest.importorskip("sybil", reason="sybil comes with the test group")
mypy_api = pytest.importorskip("mypy.api", reason="mypy comes with the test group")

from sybil.evaluators.python import PythonEvaluator  # noqa: E402
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser  # noqa: E402

ROOT = Path(__file__).parent.parent
STUBS = ROOT / "stubs"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs" / "pages").glob("**/*.md"))]
# Pages of prose, shell commands and generated reference only.
PAGES_WITHOUT_CODE = {"api.md", "architecture.md", "changelog.md", "contributing.md"}
# Pages whose examples use libraries of the "clients" extra: they run in tox's
# clients environment, which sets RECORDS_CLIENTS (a missing library is then
# an error), and are skipped elsewhere, with that reason.
PAGES_NEEDING_LIBRARIES = {
    "libraries.md": ("cattrs", "hypothesis", "msgspec", "pandas", "pydantic", "rich"),
}
EXPECTATION = re.compile(r"#\s*(?P<kind>[EN]):\s*(?P<message>.+?)\s*$")
REPORT = re.compile(r"^[^:]+:(?P<line>\d+): (?P<kind>error|note): (?P<message>.*)$")


def mypy_expectations(source: str) -> list[tuple[int, str, str]]:
    """The (line, kind, message) triples written as ``# E:``/``# N:`` comments."""
    expected = []
    for number, line in enumerate(source.splitlines(), start=1):
        match = EXPECTATION.search(line)
        if match:
            kind = "error" if match["kind"] == "E" else "note"
            expected.append((number, kind, match["message"]))
    return expected


class MypyEvaluator:
    """Type-check one example with the records plugin and compare with its comments."""

    def __init__(self, directory: Path, caches) -> None:
        self.directory = directory
        self.caches = caches
        self.cache: Path | None = None  # shared by the page's examples

    def __call__(self, example) -> str | None:
        source = example.parsed
        # Each example is its own module "example", as the page shows it.
        work = self.directory / f"line-{example.line}"
        work.mkdir()
        module = work / "example.py"
        module.write_text(source)
        config = work / "mypy.ini"
        config.write_text(f"[mypy]\nplugins = records.mypy\nmypy_path = {STUBS}\n")
        self.cache = self.cache or self.caches.fresh(config)
        stdout, stderr, _ = mypy_api.run(
            ["--config-file", str(config), "--cache-dir", str(self.cache), str(module)]
        )
        reported = [
            (int(match["line"]), match["kind"], match["message"])
            for match in map(REPORT.match, stdout.splitlines())
            if match
        ]
        expected = mypy_expectations(source)
        if sorted(reported) != sorted(expected):
            return f"mypy reported:\n{stdout}{stderr}\nthe example expects:\n{expected}"
        return None


class DocsParser:
    """Sybil's Python code-block parser, sending type-checking examples to mypy."""

    def __init__(self, directory: Path, mypy_caches) -> None:
        flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
        self.python = PythonCodeBlockParser(doctest_optionflags=flags)
        # Interactive sessions are fenced as "pycon", so that they are
        # highlighted as sessions; they run as doctests all the same.
        self.pycon = PythonCodeBlockParser(doctest_optionflags=flags)
        self.pycon.codeblock_parser = CodeBlockParser("pycon", PythonEvaluator())
        self.mypy = MypyEvaluator(directory, mypy_caches)

    def __call__(self, document):
        for region in self.python(document):
            if isinstance(region.parsed, str) and mypy_expectations(region.parsed):
                region.evaluator = self.mypy
            yield region
        yield from self.pycon(document)


def _lookup(namespace: dict, name: str):
    try:
        return namespace[name]
    except KeyError:
        raise AttributeError(name) from None


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_examples(path, tmp_path, monkeypatch, mypy_caches):
    needed = PAGES_NEEDING_LIBRARIES.get(path.name)
    if needed:
        if not os.environ.get("RECORDS_CLIENTS"):
            pytest.skip(f"needs {', '.join(needed)} (the clients group): run by tox -e clients")
        missing = [name for name in needed if importlib.util.find_spec(name) is None]
        assert not missing, f"{path.name} needs {missing}"
    parser = sybil.Sybil(parsers=[DocsParser(tmp_path, mypy_caches), SkipParser()])
    document = parser.parse(path)
    document.namespace["sys"] = sys
    # Doctests run as module "__test__": make it importable, so that pickle
    # finds the classes an example defines, as it would in a real module.
    module = types.ModuleType("__test__")
    module.__getattr__ = lambda name: _lookup(document.namespace, name)
    monkeypatch.setitem(sys.modules, "__test__", module)
    examples = list(document)
    for example in examples:
        try:
            example.evaluate()
        except unittest.SkipTest:  # a <!-- skip: next if(...) --> for this Python
            continue
    assert examples or path.name in PAGES_WITHOUT_CODE, f"{path} has no checked example"


CONFIG_SNIPPET = re.compile(
    r"In `(?P<file>pyproject\.toml|mypy\.ini|setup\.cfg)`:\n\n```(?:toml|ini)\n(?P<body>.*?)```",
    re.DOTALL,
)


@pytest.mark.slow
def test_typing_config_snippets_enable_the_plugin(tmp_path, monkeypatch):
    """Each configuration shown on the Typing page turns the plugin on."""
    snippets = CONFIG_SNIPPET.findall((ROOT / "docs" / "pages" / "typing.md").read_text())
    assert {"pyproject.toml", "mypy.ini", "setup.cfg"} == {name for name, _ in snippets}
    monkeypatch.setenv("MYPYPATH", str(STUBS))
    for name, body in snippets:
        project = tmp_path / name.replace(".", "-")
        project.mkdir()
        (project / name).write_text(body)
        module = project / "example.py"
        module.write_text("from records import Record\nclass P(Record):\n    x: int\nP('a')\n")
        stdout, _, _ = mypy_api.run(
            [
                "--config-file",
                str(project / name),
                "--cache-dir",
                str(tmp_path / "cache"),
                str(module),
            ]
        )
        assert 'Argument 1 to "P" has incompatible type "str"; expected "int"' in stdout, name
