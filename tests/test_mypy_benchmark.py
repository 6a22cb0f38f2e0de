"""The mypy benchmark's generated modules type-check cleanly in both spellings."""

from pathlib import Path

import pytest
from support import benchmarks

mypy_api = pytest.importorskip("mypy.api", reason="mypy comes with the test group")

STUBS = Path(__file__).parent.parent / "stubs"


@pytest.mark.slow
@pytest.mark.parametrize("spelling", ["records", "namedtuple"])
def test_generated_module_checks_and_runs(tmp_path, spelling, mypy_caches):
    source = benchmarks.load("mypy_plugin").module_source(12, spelling)
    path = tmp_path / f"with_{spelling}.py"
    path.write_text(source + "\nreveal_type(r11)\n")
    config = tmp_path / "mypy.ini"
    plugins = "plugins = records.mypy\n" if spelling == "records" else ""
    config.write_text(f"[mypy]\n{plugins}mypy_path = {STUBS}\n")
    stdout, _, status = mypy_api.run(
        ["--config-file", str(config), "--cache-dir", str(mypy_caches.fresh(config)), str(path)]
    )
    assert status == 0, stdout
    assert stdout.count("note: Revealed type is") == 1
    assert "error" not in stdout
    assert "tuple[" in stdout and "fallback=" in stdout
    namespace = {}
    exec(compile(source, str(path), "exec"), namespace)
    assert namespace["r11"].f0 == namespace["v11"]
    assert tuple(namespace["u11"]) == tuple(namespace["r11"])
