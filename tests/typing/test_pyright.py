"""pyright sees Record through the stub's dataclass_transform (PEP 681)."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
EXAMPLES = HERE / "pyright_examples.py"

# The tox env that installs the "typing" extra sets RECORDS_REQUIRE_PYRIGHT, so
# there a missing pyright fails instead of skipping.
pytestmark = pytest.mark.skipif(
    shutil.which("pyright") is None and not os.environ.get("RECORDS_REQUIRE_PYRIGHT"),
    reason="pyright comes with the 'typing' extra, installed in the 3.13 tox env",
)


def test_pyright_reports_exactly_the_marked_lines(tmp_path):
    """Every line marked `# error` is reported by pyright, and nothing else."""
    config = {
        "stubPath": str(ROOT / "stubs"),
        "pythonVersion": f"{sys.version_info.major}.{sys.version_info.minor}",
        "typeCheckingMode": "standard",
    }
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    shutil.copy(EXAMPLES, tmp_path / EXAMPLES.name)
    result = subprocess.run(
        ["pyright", "--outputjson", "--pythonpath", sys.executable, EXAMPLES.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(result.stdout)
    reported = {d["range"]["start"]["line"] + 1 for d in report["generalDiagnostics"]}
    lines = EXAMPLES.read_text().splitlines()
    expected = {number for number, line in enumerate(lines, 1) if re.search(r"# error$", line)}
    assert expected == reported, report["generalDiagnostics"]
