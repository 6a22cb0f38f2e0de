"""
The quick loop: the suite on this Python, C accelerator and pure-Python path
at once, without the tests marked ``slow``.

Usage: python tests/scripts/quick.py [PYTEST ARGUMENTS]

Run it with the Python of a venv that has records installed in editable mode
with the test group (README.md, "Contributing"). The arguments go to both
pytest runs: ``-k replace``, ``tests/test_api.py``, ``-x``. The test command
runs every test, the slow ones included, on every supported Python.
"""

from __future__ import annotations

import sys

from concurrently import SEPARATOR, main


def commands(arguments: list[str]) -> list[str]:
    """The two pytest runs, as ``concurrently.py`` takes them."""
    pytest = [
        sys.executable,
        "-X",
        "dev",
        "-m",
        "pytest",
        "-m",
        "not slow",
        "-q",
        "-p",
        "no:cacheprovider",
    ]
    return [*pytest, *arguments, SEPARATOR, *pytest, "--pure-python", *arguments]


if __name__ == "__main__":
    sys.exit(main(commands(sys.argv[1:])))
