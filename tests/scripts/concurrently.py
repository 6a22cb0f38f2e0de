"""
Run commands at the same time and wait for all of them.

Usage: python tests/scripts/concurrently.py COMMAND... [::: COMMAND...]...

Each command is its words, commands separated by ``:::``. The first
command's output is shown as it comes; the others' is held and shown, whole
and in order, once the first has ended (so that two pytest runs do not
interleave their lines). Exits 0 when every command did, else with the
status of the first that did not (1 when that is a signal).

``tests/scripts/quick.py`` runs the suite's two paths this way, one a core
on two cores. The pure-Python path cannot share a process with a second
thread (its layout seal refuses to run while other threads do), so the
two runs are processes, not pytest-xdist workers.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile

SEPARATOR = ":::"


def split(words: list[str]) -> list[list[str]]:
    """Split *words* at each ``:::`` into commands; refuse an empty one."""
    commands: list[list[str]] = [[]]
    for word in words:
        if word == SEPARATOR:
            commands.append([])
        else:
            commands[-1].append(word)
    if not all(commands):
        message = f"an empty command in {words!r}: give words on both sides of {SEPARATOR}"
        raise ValueError(message)
    return commands


def run_all(commands: list[list[str]]) -> int:
    """Start every command at once, show their output as the module says, return the status."""
    with contextlib.ExitStack() as stack:
        held = [stack.enter_context(tempfile.TemporaryFile()) for _ in commands[1:]]
        processes = [subprocess.Popen(commands[0])]
        processes += [
            subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
            for command, output in zip(commands[1:], held)
        ]
        try:
            statuses = [process.wait() for process in processes]
        except KeyboardInterrupt:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait()
            raise
        for command, output in zip(commands[1:], held):
            output.seek(0)
            sys.stdout.flush()
            print(f"\n--- {' '.join(command)}", flush=True)
            sys.stdout.buffer.write(output.read())
            sys.stdout.buffer.flush()
    failed = [status for status in statuses if status != 0]
    if not failed:
        return 0
    return failed[0] if failed[0] > 0 else 1


def main(argv: list[str]) -> int:
    """Run the commands of *argv*; 2 for a usage error."""
    try:
        commands = split(argv)
    except ValueError as error:
        print(f"concurrently.py: {error}", file=sys.stderr)
        return 2
    return run_all(commands)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
