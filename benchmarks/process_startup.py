"""
Start-up as a whole process, alone: the section ``python -m records --full``
also writes (``records/_bench/process_startup.py``), printed as Markdown.

Usage: ``python benchmarks/process_startup.py [--pairs N]`` with records
installed (the opt-in's rows need its ``.pth`` file: a wheel or an editable
install).
"""

from __future__ import annotations

import argparse
import platform
import sys

import records
from records._bench import dropin, harness, process_startup


def main(argv: list[str] | None = None) -> int:
    """Measure every row and print the table, with the interpreter and the path."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=41, help="pairs of processes a row (41)")
    arguments = parser.parse_args(argv)
    if arguments.pairs < 1:
        parser.error(f"--pairs must be at least 1, not {arguments.pairs}")
    opt_in = dropin.opt_in_installed()
    progress = harness.Progress(len(process_startup.rows(opt_in)))
    section = process_startup.run(arguments.pairs, progress, opt_in=opt_in)
    progress.finish()
    print(
        f"{platform.python_implementation()} {platform.python_version()},"
        f" {records.ACCELERATOR}; {arguments.pairs} pairs a row"
    )
    print("\n".join(process_startup.markdown(section)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
