"""
In a build for mypyc, a record keeps the bases of its class statement and is
not marked as a named tuple: mypyc builds a compiled class's bases from
mypy's, and a class mypy marks as a named tuple with ``typing.NamedTupleMeta``
(mypyc/irbuild/classdef.py), either of which fails when the compiled module is
imported. Elsewhere the plugin does both, as mypy does for a named tuple.
"""

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

build = pytest.importorskip("mypy.build", reason="mypy comes with the test group")
from mypy.modulefinder import BuildSource  # noqa: E402
from mypy.nodes import TypeInfo  # noqa: E402
from mypy.options import Options  # noqa: E402
from mypy.types import get_proper_type  # noqa: E402
from mypy.version import __version__ as mypy_version  # noqa: E402

from records.mypy import plugin  # noqa: E402

SOURCE = textwrap.dedent(
    """
    from records import Record

    class P(Record):
        x: int
        y: str = "a"

        def both(self) -> str:
            return f"{self.x}{self.y}"

    class Q(P):
        def twice(self) -> int:
            return self.x * 2

    D = Record.define("D", [("a", int), ("b", str)])

    def use(p: P) -> int:
        return p.x + len(p.y)

    def make() -> Q:
        return Q(3, "bc")
    """
)


def _infos(directory: Path, *, mypyc: bool) -> dict[str, TypeInfo]:
    module = directory / "recmod.py"
    module.write_text(SOURCE)
    options = Options()
    options.mypyc = mypyc
    options.strict_bytes = True  # mypy 1.x refuses mypyc without it
    options.incremental = False
    # Without a config file mypy loads no plugin from options.plugins.
    records_plugin = plugin(mypy_version)(options)
    result = build.build(
        [BuildSource(str(module), "recmod", None)], options, extra_plugins=[records_plugin]
    )
    assert result.errors == []
    infos = {}
    for node in result.files["recmod"].names.values():
        if isinstance(node.node, TypeInfo) and node.node.module_name == "recmod":
            infos[node.node.name] = node.node
    for define in result.types.values():  # the class Record.define makes
        info = getattr(get_proper_type(define), "partial_fallback", None)
        if info is not None and info.type.name == "D":
            infos["D"] = info.type
    assert set(infos) == {"P", "Q", "D"}
    return infos


@pytest.mark.parametrize("mypyc", [False, True], ids=["mypy", "mypyc"])
def test_bases_and_named_tuple_mark(tmp_path: Path, mypyc: bool) -> None:
    infos = _infos(tmp_path, mypyc=mypyc)
    for name, info in infos.items():
        assert info.tuple_type is not None, name
        assert info.is_named_tuple is not mypyc, name
        first = info.bases[0].type.fullname
        if mypyc:
            assert first != "builtins.tuple", name
        else:
            assert first == "builtins.tuple", name
    assert [klass.fullname for klass in infos["Q"].mro[:3]] == [
        "recmod.Q",
        "recmod.P",
        "records.Record",
    ]


@pytest.mark.slow
def test_compiled_module_imports(tmp_path: Path) -> None:
    """A module of records compiled by mypyc imports and works."""
    pytest.importorskip("mypyc", reason="mypyc comes with mypy")
    pytest.importorskip("setuptools", reason="mypyc builds with setuptools")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    (tmp_path / "recmod.py").write_text(SOURCE)
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = records.mypy\n")
    compiled = subprocess.run(
        [sys.executable, "-m", "mypyc", "--config-file", "mypy.ini", "recmod.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    (tmp_path / "recmod.py").unlink()  # import the extension, not the source
    check = textwrap.dedent(
        """
        import recmod
        assert recmod.__file__.endswith((".so", ".pyd")), recmod.__file__
        assert type(recmod.P) is type
        p = recmod.P(1)
        assert (p, p.both(), recmod.use(p)) == ((1, "a"), "1a", 2)
        q = recmod.make()
        assert (q.twice(), recmod.use(q), q._replace(x=1)) == (6, 5, (1, "bc"))
        assert type(q._replace(x=1)) is recmod.Q
        assert recmod.D(1, "x").b == "x"
        """
    )
    ran = subprocess.run(
        [sys.executable, "-c", check], cwd=tmp_path, capture_output=True, text=True
    )
    assert ran.returncode == 0, ran.stderr
