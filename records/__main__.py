"""
``python -m records``: how records compares with what people use today.

``python -m records info`` says which path records runs on (``records/_info.py``);
``python -m records migrate`` moves code from named tuples to records
(``records/_migrate.py``).

The default run takes well under 30 seconds. It prints the key ratios
against ``collections.namedtuple``: class creation, start-up, instance
creation, attribute access, ``_replace`` and memory, for ``typing.NamedTuple``,
frozen slotted dataclasses, ``attrs.frozen``, ``msgspec.Struct`` and records,
skipping any peer that is not installed, in a table that fits 100 columns;
``--markdown FILE`` and ``--chart FILE`` write it with each figure's spread,
and as a chart. ``--full`` runs the whole suite and writes JSON, Markdown and
charts. ``--versions`` runs the key rows on each CPython 3.10 to 3.15 on
``PATH`` and prints records' ratios per version (``--markdown FILE`` writes
that table). On a free-threaded build (or with ``--threads``) both then time
instance creation and attribute access in one thread and in two, for records
and the named tuples, in a table that fits 80 columns.
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
run (lower is better); --markdown adds each figure's smallest and largest
round. Peers that are not installed are skipped. On a free-threaded build
(or with --threads), instance creation and attribute access are also timed
in one thread and in two.
"""


def _positive_int(text: str) -> int:
    """Read ``--rounds``: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        msg = f"must be a whole number of at least 1, not {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return value


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
        "--versions",
        action="store_true",
        help="run the key rows on each CPython 3.10-3.15 on PATH; records' ratios by version",
    )
    parser.add_argument(
        "--output",
        default=None,
        metavar="DIR",
        help="where --full writes its files (default: ./records-benchmarks)",
    )
    parser.add_argument(
        "--rounds",
        type=_positive_int,
        default=None,
        help="interleaved rounds per measurement (default: 5, or 15 with --full)",
    )
    parser.add_argument(
        "--threads",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also time 1 and 2 threads (default: on a free-threaded build only)",
    )
    parser.add_argument(
        "--markdown",
        metavar="FILE",
        help="also write the key table as Markdown, each cell median [min, max] (ratio), to FILE",
    )
    parser.add_argument(
        "--chart",
        metavar="FILE",
        help="also draw the key ratios to FILE (.svg, .png or .pdf; needs matplotlib)",
    )
    return parser


def _check(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> None:
    """Refuse, before anything runs, options that cannot work."""
    if arguments.versions and (arguments.full or arguments.chart or arguments.threads):
        parser.error("argument --versions: not with --full, --chart or --threads")
    if arguments.output is not None and not arguments.full:
        parser.error("argument --output: only with --full (the quick run writes --markdown FILE)")
    if arguments.full:
        _check_output(parser, arguments.output or "records-benchmarks")
    _check_files(parser, arguments)


def _check_output(parser: argparse.ArgumentParser, output: str) -> None:
    """Refuse an ``--output`` directory that cannot be written in."""
    import os

    if os.path.exists(output) and not os.path.isdir(output):
        parser.error(f"argument --output: {output!r} is not a directory")
    try:
        os.makedirs(output, exist_ok=True)
    except OSError as error:
        parser.error(f"argument --output: cannot make {output!r}: {error.strerror}")
    if not os.access(output, os.W_OK | os.X_OK):
        parser.error(f"argument --output: cannot write in {output!r}")


def _check_files(parser: argparse.ArgumentParser, arguments: argparse.Namespace) -> None:
    """Refuse ``--markdown`` and ``--chart`` files that cannot be written."""
    import os

    for option in ("markdown", "chart"):
        path = getattr(arguments, option)
        if path is None:
            continue
        directory = os.path.dirname(path) or "."
        if os.path.isdir(path):
            parser.error(f"argument --{option}: {path!r} is a directory, not a file")
        if not os.path.isdir(directory):
            parser.error(f"argument --{option}: no directory {directory!r}")
        if not os.access(directory, os.W_OK | os.X_OK):
            parser.error(f"argument --{option}: cannot write in {directory!r}")
    if arguments.chart is not None:
        from ._bench import plot

        suffix = os.path.splitext(arguments.chart)[1]
        if suffix not in plot.FORMATS:
            parser.error(f"argument --chart: {arguments.chart!r} must end in .svg, .png or .pdf")
        if not plot.available():
            parser.error("argument --chart: needs matplotlib: pip install 'records-tuple[plot]'")


def _print_header(results: dict[str, Any]) -> None:
    import textwrap

    from ._bench.report import interpreter

    meta = results["meta"]
    text = (
        f"records vs. its peers on Python {meta['python']} ({interpreter(meta)}),"
        f" {meta['machine'].split(',')[0]}: medians of {results['rounds']} interleaved rounds."
        f" records runs on its {meta['records path']}."
    )
    path = str(meta["records path"])
    if path.startswith("pure Python") and "RECORDS_PURE_PYTHON" not in path:
        text += " Without it records is slower: python -m records info says how to build it."
    print(textwrap.fill(text, 100))
    for name in meta["missing peers"]:
        print(f"skipped {name}: not installed")
    print()


def _print_threads(results: dict[str, Any]) -> None:
    """Print the table of one thread against two, where the run has it."""
    from ._bench import terminal

    if "threads" in results:
        print(terminal.threads_table(results))
        print()


def _write_extras(arguments: argparse.Namespace, results: dict[str, Any]) -> None:
    """Write the Markdown table and the chart the options ask for."""
    from ._bench import report

    if arguments.markdown is not None:
        with open(arguments.markdown, "w") as file:
            file.write(report.key_markdown(results) + "\n")
        print(f"Wrote the key table, with its spread, to {arguments.markdown}.")
    if arguments.chart is not None:
        from ._bench import plot

        plot.key_chart(results, arguments.chart)
        print(f"Wrote the key ratios chart to {arguments.chart}.")


def _run_versions(arguments: argparse.Namespace) -> int:
    """Run the key rows on every CPython on PATH, print the table, write it if asked."""
    from ._bench import versions

    found = versions.interpreters()
    if not found:
        print("No python3.10 ... python3.15 on PATH.", file=sys.stderr)
        return 1
    rounds = arguments.rounds or 5
    print(f"The key rows on {', '.join(v for v, _ in found)}: medians of {rounds} rounds each.")
    entries = versions.measure(rounds)
    print(versions.terminal_table(entries))
    if arguments.markdown is not None:
        with open(arguments.markdown, "w") as file:
            file.write(versions.markdown_table(entries))
        print(f"Wrote the table to {arguments.markdown}.")
    return 0 if not versions.failures(entries) else 1


#: The subcommands, by name: the module that runs each one.
SUBCOMMANDS = {"info": "records._info", "migrate": "records._migrate"}


def main(argv: list[str] | None = None) -> int:
    """Run the quick comparison, the full suite with ``--full``, or a subcommand."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in SUBCOMMANDS:
        import importlib

        return int(importlib.import_module(SUBCOMMANDS[argv[0]]).main(argv[1:]))
    parser = _parser()
    arguments = parser.parse_args(argv)
    _check(parser, arguments)
    from ._bench import run, terminal

    if arguments.versions:
        return _run_versions(arguments)
    if arguments.full:
        output = arguments.output or "records-benchmarks"
        results = run.full(output, rounds=arguments.rounds or 15, in_threads=arguments.threads)
        _print_header(results)
        print(terminal.key_table(results))
        print()
        _print_threads(results)
        from ._bench import plot

        written = plot.charts(results, output)
        print(f"Wrote results-*.json and results-*.md to {output}/", end="")
        print(f", and {len(written)} charts." if written else ".")
        if not written:
            print("Charts need matplotlib: pip install 'records-tuple[plot]'.")
        _write_extras(arguments, results)
        return 0
    results = run.quick(rounds=arguments.rounds or 5, in_threads=arguments.threads)
    _print_header(results)
    print(terminal.key_table(results))
    print()
    _print_threads(results)
    _write_extras(arguments, results)
    print("The whole suite: python -m records --full")
    return 0


if __name__ == "__main__":
    sys.exit(main())
