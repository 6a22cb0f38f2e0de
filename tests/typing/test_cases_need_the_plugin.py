"""Every plugin case tests the plugin: with a plugin that builds nothing, each one fails."""

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip(
    "pytest_mypy_plugins", reason="pytest-mypy-plugins comes with the typing group"
)

HERE = Path(__file__).parent
PLUGIN_CASES = sorted(HERE.glob("test_plugin_*.yml"))


def test_every_plugin_case_fails_without_the_plugin(tmp_path):
    config, report = tmp_path / "noop.ini", tmp_path / "report.xml"
    config.write_text(f"[mypy]\nplugins = {HERE / 'noop_plugin.py'}\n")
    # This inner run's failures are expected: they stay out of the test command's summary.
    child_env = {
        name: value for name, value in os.environ.items() if name != "RECORDS_TEST_SUMMARY"
    }
    subprocess.run(
        [
            sys.executable, "-m", "pytest", *map(str, PLUGIN_CASES),
            f"--mypy-ini-file={config}", "--mypy-same-process",
            "-p", "no:cacheprovider", "-q", f"--junitxml={report}",
        ],
        cwd=HERE.parent.parent, capture_output=True, text=True, check=False, env=child_env,
    )  # fmt: skip
    outcomes = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        kinds = {child.tag for child in case} & {"failure", "error", "skipped"}
        outcomes[case.get("name")] = kinds.pop() if kinds else "passed"
        # A failure must be a mismatch of mypy's output (or mypy refusing a
        # records-* error code in the configuration), never a crash.
        for failure in case.iter("failure"):
            text = failure.text or ""
            mismatch = "TypecheckAssertionError" in text and "Critical error" not in text
            assert mismatch or "Invalid error code(s): records-" in text, text
    passed = sorted(name for name, outcome in outcomes.items() if outcome == "passed")
    assert passed == [], f"these cases pass without the plugin: {passed}"
    assert "error" not in outcomes.values()
    failed = [name for name, outcome in outcomes.items() if outcome == "failure"]
    assert len(failed) >= 100, len(failed)  # the floor set for the plugin suite
