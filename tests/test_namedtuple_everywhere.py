"""
The opt-in that makes records.namedtuple serve every named tuple of a
process: ``records.use_for_namedtuple()`` and its undo, ``RECORDS_NAMEDTUPLE``
read at start-up by the ``.pth`` file an install of records puts into
site-packages, and CPython's own test suites of modules that make named
tuples, run with the opt-in on (each interpreter inherits
``RECORDS_PURE_PYTHON``, so this runs on the path of the suite).
"""

import collections
import contextlib
import importlib.util
import os
import site
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import records
from records._everywhere import is_on


def pth_installed() -> bool:
    directories = [*site.getsitepackages(), site.getusersitepackages()]
    return any((Path(d) / "records_namedtuple.pth").is_file() for d in directories)


installed = pytest.mark.skipif(
    not pth_installed(),
    reason="records_namedtuple.pth comes with an install of records (a wheel or editable)",
)


def python(code, opt_in=None, flags=()):
    """Run *code* in a fresh interpreter, RECORDS_NAMEDTUPLE set to *opt_in* (or unset)."""
    environment = {k: v for k, v in os.environ.items() if k != "RECORDS_NAMEDTUPLE"}
    if opt_in is not None:
        environment["RECORDS_NAMEDTUPLE"] = opt_in
    result = subprocess.run(
        [sys.executable, *flags, "-c", code],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert 0 == result.returncode, result.stderr
    return result.stdout


def made_by_records(cls) -> bool:
    """Whether named tuple class *cls* was made by records.namedtuple (its __new__'s code)."""
    return "records" in cls.__new__.__code__.co_filename


class TestInProcess:
    """use_for_namedtuple() and restore_namedtuple()."""

    def test_use_and_restore(self):
        """collections.namedtuple and typing.NamedTuple build with records until restored."""
        original = collections.namedtuple
        try:
            records.use_for_namedtuple()
            records.use_for_namedtuple()  # again: nothing more
            assert collections.namedtuple is records.namedtuple
            Point = collections.namedtuple("Point", "x y")

            class Typed(typing.NamedTuple):
                x: int
                y: str = "y"

            assert made_by_records(Point) and made_by_records(Typed)
            assert (Typed(1), "Typed") == ((1, "y"), Typed.__name__)
            assert __name__ == Point.__module__ == Typed.__module__
        finally:
            records.restore_namedtuple()
        assert collections.namedtuple is original
        records.restore_namedtuple()  # again: nothing to undo
        assert collections.namedtuple is original
        assert not made_by_records(collections.namedtuple("Point", "x y"))


@installed
class TestAtStartUp:
    """RECORDS_NAMEDTUPLE, read by records_namedtuple.pth as Python starts."""

    CHECK = (
        "import sys; loaded = 'records' in sys.modules\n"
        "import collections, records, typing, urllib.parse\n"
        "base = urllib.parse.SplitResult.__mro__[1]\n"
        "print(loaded, collections.namedtuple is records.namedtuple,\n"
        "      'records' in base.__new__.__code__.co_filename)\n"
    )

    @pytest.mark.parametrize("value", [None, "", "0", "false", "no", "off", " 0", "2"])
    def test_off(self, value):
        """Unset, or not 1/true/yes/on: nothing changes, and records is not even imported."""
        assert not is_on(value)
        assert "False False False\n" == python(self.CHECK, opt_in=value)

    @pytest.mark.parametrize("value", ["1", "yes", "True", " on "])
    def test_on(self, value):
        """Set: the standard library's own named tuples are records' from the start."""
        assert is_on(value)
        assert "True True True\n" == python(self.CHECK, opt_in=value)

    @pytest.mark.parametrize("flag", ["-E", "-I"])
    def test_ignored_with_the_environment(self, flag):
        """-E and -I, which make Python ignore its PYTHON* variables, leave it off."""
        assert "False False False\n" == python(self.CHECK, opt_in="1", flags=[flag])


#: CPython's test suites of modules that make or use named tuples, with
#: test_collections (namedtuple itself) and test_typing (typing.NamedTuple),
#: in groups run at once: test_os and test_selectors each spend most of their
#: 14 seconds waiting, so each runs beside the rest.
STDLIB_SUITES = (
    ("test_os",),
    ("test_selectors",),
    (
        "test_collections",
        "test_typing",
        "test_inspect",
        "test_urlparse",
        "test_sched",
        "test_functools",
        "test_platform",
        "test_tokenize",
        "test_doctest",
        "test_pydoc",
        "test_enum",
        "test_copy",
    ),
)

#: The one case of those suites left out: on 3.10 it starts pydoc's server
#: and then only waits out its 30-second timeout (3.11's version stops it at
#: once); it makes no named tuple.
IDLE_CASES = ("test.test_pydoc.PydocServerTest.test_server",) if sys.version_info < (3, 11) else ()


@pytest.mark.slow
@installed
@pytest.mark.skipif(
    importlib.util.find_spec("test.libregrtest") is None, reason="no CPython test suite here"
)
def test_cpython_suites_with_the_opt_in(tmp_path):
    """CPython's own tests of these modules pass in a process where the opt-in is on."""
    environment = {**os.environ, "RECORDS_NAMEDTUPLE": "1"}
    outputs = [tmp_path / f"group-{index}.txt" for index in range(len(STDLIB_SUITES))]
    ignored = [option for case in IDLE_CASES for option in ("--ignore", case)]
    statuses = []
    with contextlib.ExitStack() as stack:
        runs = [
            subprocess.Popen(
                [sys.executable, "-m", "test", "-q", *ignored, *group],
                env=environment,
                stdout=stack.enter_context(output.open("w")),
                stderr=subprocess.STDOUT,
            )
            for group, output in zip(STDLIB_SUITES, outputs)
        ]
        statuses = [run.wait(timeout=1200) for run in runs]
    for group, status, output in zip(STDLIB_SUITES, statuses, outputs):
        text = output.read_text()
        assert 0 == status, f"{group}:\n{text[-6000:]}"
        assert "Tests result: SUCCESS" in text, group  # the summary line of every version
