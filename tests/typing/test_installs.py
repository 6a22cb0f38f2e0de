"""
Type checkers get the same view of records from every install.

The stub (``records/*.pyi``) sits beside the code, so a wheel, an editable
install and a source checkout all show it to type checkers. Here mypy (with
the plugin) and pyright read the records examples of the checker matrix, and
their ``records.as_namedtuple`` twin, in each of the three, and must report
the same errors: the ones recorded for them in ``checkers/expected/``.
"""

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from checkers.matrix import (
    AS_NAMEDTUPLE_MODULE,
    HERE,
    RECORDS_MODULE,
    VIEWS,
    Diagnostic,
    View,
    parse,
    recorded,
    section,
    source,
)

ROOT = Path(__file__).parent.parent.parent
PACKAGE = ROOT / "records"
STUBS = sorted(path.name for path in PACKAGE.glob("*.pyi"))
PYRIGHT = Path(sys.executable).parent / "pyright"


def test_stubs_folder_links_every_stub():
    """stubs/records/ holds a link to each stub of the package, and nothing else."""
    linked = ROOT / "stubs" / "records"
    assert STUBS == sorted(path.name for path in linked.iterdir())
    for name in STUBS:
        assert (linked / name).is_symlink(), name
        assert (linked / name).resolve() == (PACKAGE / name).resolve()


def test_every_stub_is_the_stub_of_a_module():
    """Each stub sits beside the module it types: the package's and records.as_namedtuple's."""
    assert ["__init__.pyi", "as_namedtuple.pyi"] == STUBS
    for name in STUBS:
        assert (PACKAGE / name).with_suffix(".py").exists(), name


needs_pyright = pytest.mark.skipif(
    not PYRIGHT.exists() and not os.environ.get("RECORDS_REQUIRE_CHECKERS"),
    reason="pyright comes with the 'checkers' group (tox env typing-checkers)",
)


def _pure_build_environment() -> dict[str, str]:
    """The environment variables that build records without compiling its C (faster)."""
    env = {**os.environ, "RECORDS_PURE_PYTHON_BUILD": "1"}
    env.pop("RECORDS_REQUIRE_ACCELERATOR", None)
    return env


def _environment(directory: Path, *install: str) -> Path:
    """A virtual environment in *directory*, with ``uv pip install *install``; its Python."""
    venv.EnvBuilder(with_pip=False).create(directory)
    python = directory / "bin" / "python"
    if install:
        uv = [sys.executable, "-m", "uv", "pip", "install", "--quiet", "--python", str(python)]
        subprocess.run([*uv, "--no-deps", *install], check=True, env=_pure_build_environment())
    return python


def _check(view: View, python: Path, cwd: Path, work: Path) -> list[Diagnostic]:
    """Run *view*'s checker on the records examples and their twin, finding packages with *python*."""
    work.mkdir()
    (work / AS_NAMEDTUPLE_MODULE).write_text(source(AS_NAMEDTUPLE_MODULE))
    modules = [
        os.path.relpath(path, cwd) for path in [HERE / RECORDS_MODULE, work / AS_NAMEDTUPLE_MODULE]
    ]
    if view.checker == "pyright":
        # No configuration: pyright's defaults (its standard mode), with the
        # directory it runs in as the project's root.
        command = [str(PYRIGHT), "--outputjson", "--pythonpath", str(python), *modules]
    else:
        config = work / "mypy.ini"
        config.write_text("[mypy]\nplugins = records.mypy\n")
        command = [sys.executable, "-m", "mypy", "--config-file", str(config)]
        command += ["--cache-dir", str(work / "cache"), "--python-executable", str(python)]
        command += modules
    env = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"}
    env.pop("MYPYPATH", None)
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, env=env)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return parse(view, result.stdout)


@pytest.fixture(scope="module")
def installs(tmp_path_factory):
    """A Python with records from a wheel, one with an editable install, one without records."""
    base = tmp_path_factory.mktemp("installs")
    wheels = base / "wheels"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--installer", "uv", "-o", str(wheels), ROOT],
        check=True,
        capture_output=True,
        env=_pure_build_environment(),
    )
    (wheel,) = wheels.glob("records_tuple-*.whl")
    return {
        "wheel": _environment(base / "wheel", str(wheel)),
        "editable": _environment(base / "editable", "-e", str(ROOT)),
        "source tree": _environment(base / "bare"),
        "wheel file": wheel,
    }


@needs_pyright
def test_the_wheel_ships_every_stub(installs):
    """The wheel holds py.typed and each stub, as in the source tree."""
    archive = zipfile.ZipFile(installs["wheel file"])
    names = set(archive.namelist())
    assert {f"records/{name}" for name in [*STUBS, "py.typed"]} <= names
    for name in STUBS:
        assert (PACKAGE / name).read_text() == archive.read(f"records/{name}").decode()


@needs_pyright
def test_the_editable_install_has_no_copy_of_the_stub(installs):
    """An editable install points at the source tree, with no stale stub of its own."""
    site = subprocess.run(
        [installs["editable"], "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert not (Path(site) / "records").exists()


@needs_pyright
@pytest.mark.parametrize("checker", ["mypy", "pyright"])
def test_every_install_gives_the_recorded_view(checker, installs, tmp_path):
    """mypy and pyright read the stubs from a wheel, an editable install and the source tree."""
    view = next(v for v in VIEWS if v.checker == checker)
    for name, cwd in [("wheel", tmp_path), ("editable", tmp_path), ("source tree", ROOT)]:
        diagnostics = _check(view, installs[name], cwd, tmp_path / name.replace(" ", "-"))
        for module in (RECORDS_MODULE, AS_NAMEDTUPLE_MODULE):
            assert recorded(view, module) == section(module, diagnostics), (name, module)
