"""The built wheel holds the code, the stub and py.typed."""

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

# Each test builds, or reads what a build made: seconds each.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parent.parent
ACCELERATOR_EXPECTED = sys.implementation.name == "cpython" and sys.version_info[:2] in {
    (3, 10),
    (3, 11),
    (3, 12),
    (3, 13),
}


def _build(directory, *kinds, env=None):
    """
    Build *kinds* (``--wheel``, ``--sdist``) from the source tree into
    *directory*, each in an isolated environment that uv makes, as a release
    build would; fail with the build's output if it fails.
    """
    command = [sys.executable, "-m", "build", *kinds, "--installer", "uv", "-o", str(directory)]
    result = subprocess.run(
        [*command, str(ROOT)], capture_output=True, text=True, check=False, env=env
    )
    assert 0 == result.returncode, result.stdout[-3000:] + result.stderr[-3000:]


def _wheel(directory):
    (wheel,) = directory.glob("records_tuple-*.whl")
    return wheel


supported_python = pytest.mark.skipif(
    sys.version_info < (3, 10), reason="records builds for Python 3.10 and newer, not PyPy 3.9"
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The folder holding the wheel and the sdist of the source tree, as the test env builds them."""
    directory = tmp_path_factory.mktemp("dist")
    _build(directory, "--wheel", "--sdist")
    return directory


@supported_python
def test_wheel_contents(built):
    """records/__init__.pyi (from stubs/) and records/py.typed are in the wheel."""
    wheel = _wheel(built)
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"records/__init__.py", "records/__init__.pyi", "records/py.typed"} <= names
    stub = zipfile.ZipFile(wheel).read("records/__init__.pyi").decode()
    assert stub == (ROOT / "stubs" / "records" / "__init__.pyi").read_text()
    assert "records/_build_hook.py" not in names
    # The opt-in's start-up pieces sit beside the package, in site-packages.
    assert {"records_namedtuple.pth", "_records_namedtuple.py"} <= names
    assert "records/_records_namedtuple.py" not in names
    assert not [name for name in names if name.endswith((".c", ".h"))], names
    compiled = [name for name in names if name.startswith("records/_accelerator_c")]
    if ACCELERATOR_EXPECTED:
        assert 1 == len(compiled), names
        assert compiled[0].endswith(sysconfig.get_config_var("EXT_SUFFIX"))


@pytest.mark.skipif(not ACCELERATOR_EXPECTED, reason="no C accelerator for this Python")
def test_without_a_compiler_the_wheel_is_pure_python(tmp_path):
    """A failed compile gives the pure-Python wheel, which imports and says why."""
    env = {**os.environ, "CC": "false"}
    env.pop("RECORDS_REQUIRE_ACCELERATOR", None)
    env.pop("RECORDS_PURE_PYTHON", None)
    _build(tmp_path, "--wheel", env=env)
    wheel = _wheel(tmp_path)
    assert wheel.name.endswith("-py3-none-any.whl")
    unpacked = tmp_path / "unpacked"
    zipfile.ZipFile(wheel).extractall(unpacked)
    assert not list((unpacked / "records").glob("_accelerator_c*"))
    code = "import records; print(records.ACCELERATED); print(records.ACCELERATOR)"
    output = subprocess.check_output(
        [sys.executable, "-c", code],
        text=True,
        cwd=unpacked,
        env={**env, "PYTHONPATH": str(unpacked)},
    ).splitlines()
    assert "False" == output[0]
    assert output[1].startswith("pure Python (the C accelerator is not available")


@supported_python
def test_metadata_license_and_extras(built):
    """The wheel carries the license text, keywords, and only the users' extras."""
    wheel = zipfile.ZipFile(_wheel(built))
    names = wheel.namelist()
    (license_file,) = [name for name in names if name.endswith(".dist-info/licenses/docs/LICENSE")]
    assert wheel.read(license_file) == (ROOT / "docs" / "LICENSE").read_bytes()
    (metadata_file,) = [name for name in names if name.endswith(".dist-info/METADATA")]
    metadata = wheel.read(metadata_file).decode().split("\n\n", 1)[0].splitlines()
    assert "License-Expression: MIT" in metadata
    assert "License-File: docs/LICENSE" in metadata
    (keywords,) = [line.split(": ", 1)[1] for line in metadata if line.startswith("Keywords:")]
    assert {"namedtuple", "record", "immutable"} <= set(keywords.split(","))
    extras = sorted(
        line.split(": ", 1)[1] for line in metadata if line.startswith("Provides-Extra")
    )
    assert ["bench", "migrate", "plot"] == extras


@supported_python
def test_sdist_carries_the_license(built):
    """The source distribution holds the license text too."""
    import tarfile

    (sdist,) = built.glob("records_tuple-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    assert any(name.endswith("/docs/LICENSE") for name in names), names
