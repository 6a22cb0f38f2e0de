"""
``python -m records info``: which records this is and which path it runs on.

The C accelerator is optional: where it could not be compiled at install
time, ``pip install`` still succeeds with the pure-Python package, which
behaves the same but is slower. This command is how a user finds out which
one they have, and why.
"""

from __future__ import annotations

import os
import platform
import sys

from ._accelerator import free_threaded, is_on

REBUILD_HINT = """\
records works the same without the accelerator, but creates classes, reads
fields and runs _replace 2 to 4 times slower. It is compiled when records is installed on
CPython 3.10 to 3.15 (and free-threaded 3.13) where a C compiler and the Python headers
are present (Debian and Ubuntu: apt-get install gcc python3-dev). To build it:
    python -m pip install --force-reinstall --no-cache-dir \\
        --no-binary records-tuple records-tuple"""


def report() -> str:
    """Describe the installed records, the interpreter and the accelerator's state."""
    import collections

    import records

    opt_in = collections.namedtuple is records.namedtuple
    variable = os.environ.get("RECORDS_NAMEDTUPLE", "")
    setting = f"RECORDS_NAMEDTUPLE={variable!r}" if variable else "RECORDS_NAMEDTUPLE is unset"
    lines = [
        f"records {records.__version__} (distribution records-tuple) "
        f"at {os.path.dirname(records.__file__)}",
        f"Python {platform.python_version()} ({platform.python_implementation()}, "
        f"{sys.platform}, {platform.machine()})",
        f"path: {records.ACCELERATOR}",
        f"namedtuple opt-in: {'on' if opt_in else 'off'} ({setting})",
    ]
    if free_threaded():
        lines.append(free_threading_line())
    if not records.ACCELERATED and not is_on(os.environ.get("RECORDS_PURE_PYTHON")):
        lines += ["", REBUILD_HINT]
    return "\n".join(lines)


def free_threading_line() -> str:
    """Say, on a free-threaded build, the GIL's state and what records' instances weigh."""
    import textwrap

    gil = "on" if sys._is_gil_enabled() else "off"  # type: ignore[attr-defined,unused-ignore]
    if sys.version_info >= (3, 14):
        layout = (
            "instances keep a __dict__ slot: this build counts an instance's reference to "
            "its class per thread, which hides whether a new class has instances"
        )
    else:
        layout = (
            "instances are tuple-sized, but those of classes made once a second thread "
            "has run (CPython makes such classes immortal, which hides whether they "
            "have instances)"
        )
    return f"free-threaded: the GIL is {gil} (records leaves it as it was)\n" + textwrap.fill(
        layout, width=78, initial_indent="  ", subsequent_indent="  "
    )


def main(argv: list[str]) -> int:
    """Print ``report()``; ``argv`` takes no options but ``-h``."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m records info",
        description="Say which records is installed and whether its C accelerator is in use.",
    )
    parser.parse_args(argv)
    print(report())
    return 0
