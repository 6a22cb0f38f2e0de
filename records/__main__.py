"""
``python -m records``: how records compares with what people use today.

``python -m records info`` says which path records runs on (``records/_info.py``);
``python -m records migrate`` moves code from named tuples to records
(``records/_migrate.py``).

The default run takes well under 30 seconds. It prints the key ratios
against ``collections.namedtuple``: class creation, start-up, instance
creation, attribute access, ``_replace`` and memory, for ``typing.NamedTuple``,
frozen slotted dataclasses, ``attrs.frozen``, ``msgspec.Struct`` and records,
skipping any peer that is not installed. ``--full`` runs the whole suite and
writes JSON, Markdown and charts.
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DESCRIPTION = """\
Compare records with collections.namedtuple, typing.NamedTuple,
dataclasses (frozen, slots), attrs.frozen and msgspec.Struct (frozen), in
this process: every peer is timed round after round, interleaved, and each
figure is a median with its ratio to collections.namedtuple from the same
run (lower is better). Peers that are not installed are skipped.
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m records",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="other commands:\n"
        "  python -m records info        which records this is, and whether it runs in C\n"
        "  python -m records migrate -h  move code from named tuples to records",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help="run the whole suite (a few minutes) and write JSON, Markdown and charts",
    )
    parser.add_argument(
        "--output",
        default="records-benchmarks",
        metavar="DIR",
        help="where --full writes its files (default: ./records-benchmarks)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="interleaved rounds per measurement (default: 5, or 15 with --full)",
    )
    return parser


def _print_header(results: dict[str, Any]) -> None:
    meta = results["meta"]
    print(
        f"records vs. its peers on Python {meta['python']} ({meta['implementation']}), "
        f"{meta['machine'].split(',')[0]}: median of {results['rounds']} interleaved rounds, "
        "ratio to collections.namedtuple in brackets (lower is better)."
    )
    print(f"records runs on its {meta['records path']}.")
    for name in meta["missing peers"]:
        print(f"skipped {name}: not installed")
    print()


#: The subcommands, by name: the module that runs each one.
SUBCOMMANDS = {"info": "records._info", "migrate": "records._migrate"}


def main(argv: list[str] | None = None) -> int:
    """Run the quick comparison, the full suite with ``--full``, or a subcommand."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in SUBCOMMANDS:
        import importlib

        return int(importlib.import_module(SUBCOMMANDS[argv[0]]).main(argv[1:]))
    arguments = _parser().parse_args(argv)
    from ._bench import report, run

    if arguments.full:
        rounds = arguments.rounds or 15
        results = run.full(arguments.output, rounds=max(1, rounds))
        _print_header(results)
        print(report.key_table(results))
        print()
        from ._bench import plot

        written = plot.charts(results, arguments.output)
        print(f"Wrote results-*.json and results-*.md to {arguments.output}/", end="")
        print(f", and {len(written)} charts." if written else ".")
        if not written:
            print("Charts need matplotlib: pip install 'records-tuple[plot]'.")
        return 0
    results = run.quick(rounds=max(1, arguments.rounds or 5))
    _print_header(results)
    print(report.key_table(results))
    print()
    print("The whole suite: python -m records --full")
    return 0


if __name__ == "__main__":
    sys.exit(main())
