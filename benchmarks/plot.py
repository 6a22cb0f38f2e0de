"""
Draw the charts for a results JSON written by ``python -m records --full``.

Usage: ``python benchmarks/plot.py RESULTS.json [OUTPUT_DIR]`` (needs
matplotlib: ``pip install 'records-tuple[plot]'``).
"""

import json
import os
import sys

from records._bench.plot import charts


def main() -> int:
    """Read the JSON given on the command line and write its charts."""
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1]) as file:
        results = json.load(file)
    output = sys.argv[2] if len(sys.argv) == 3 else os.path.dirname(sys.argv[1]) or "."
    written = charts(results, output)
    if not written:
        print("matplotlib is not installed: pip install 'records-tuple[plot]'", file=sys.stderr)
        return 1
    print("\n".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
