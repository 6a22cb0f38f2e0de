"""
Print the test command's summary: per tox env, whether it passed, how long
it took and how much of that went to installing; for each pytest run in it,
how long it took and how many tests passed, failed and were skipped.

Usage: python tests/scripts/summarize.py RESULT_JSON SUMMARY_DIR [WALL_SECONDS]

RESULT_JSON is what ``tox run-parallel --result-json`` wrote; SUMMARY_DIR
holds one file per pytest run, and one per env whose own script installed
what it runs on (``tests/support/run_summary.py``); WALL_SECONDS is how long
the whole command took. Exits 1 when an env failed or a pytest run in it
failed, else 0.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class EnvResult:
    """One tox env: passed or not, its time, and the part of it spent installing."""

    passed: bool
    seconds: float
    install_seconds: float


def load_runs(directory: Path) -> dict[str, list[dict[str, object]]]:
    """Return what *directory* holds, by tox env: pytest runs (C before pure) and installs."""
    runs: dict[str, list[dict[str, object]]] = {}
    for path in directory.glob("*.json"):
        run = json.loads(path.read_text(encoding="utf-8"))
        runs.setdefault(str(run["env"]), []).append(run)
    for env_runs in runs.values():
        env_runs.sort(key=lambda run: str(run.get("run", "")))
    return runs


def env_results(
    result_file: Path, runs: dict[str, list[dict[str, object]]] | None = None
) -> dict[str, EnvResult]:
    """
    Return each env of tox's result JSON. Its install time is what tox spent
    outside the env's commands (making the venv, building and installing),
    plus what the env's own script reported installing (*runs*).
    """
    data = json.loads(result_file.read_text(encoding="utf-8"))
    results = {}
    for name, env in data.get("testenvs", {}).items():
        if name.startswith(".pkg"):
            continue
        result = env.get("result")
        if result is None:  # not selected in this run (tox -e ...)
            continue
        seconds = float(result.get("duration", 0.0))
        commands = sum(float(command.get("elapsed", 0.0)) for command in env.get("test", []))
        scripted = sum(
            float(run["install seconds"])  # type: ignore[arg-type]
            for run in (runs or {}).get(name, [])
            if "install seconds" in run
        )
        install = min(seconds, max(0.0, seconds - commands) + scripted)
        results[name] = EnvResult(bool(result.get("success")), seconds, install)
    return results


HEADER = (
    f"{'env':<16}{'result':<7}{'total':>6}{'install':>8}  "
    f"{'run':<18}{'time':>6}{'pass':>6}{'fail':>6}{'skip':>5}"
)


def table(
    results: dict[str, EnvResult],
    runs: dict[str, list[dict[str, object]]],
    wall_seconds: float | None = None,
) -> str:
    """Lay the summary out in at most 80 columns."""
    lines = [HEADER, "-" * len(HEADER)]
    for name, result in results.items():
        first = (
            f"{name:<16}{'ok' if result.passed else 'FAILED':<7}"
            f"{result.seconds:>5.0f}s{result.install_seconds:>7.0f}s  "
        )
        pytest_runs = [run for run in runs.get(name, []) if "run" in run]
        if not pytest_runs:
            lines.append(first + "(no pytest run)")
        for index, run in enumerate(pytest_runs):
            failed = int(run["failed"]) + int(run["error"])  # type: ignore[call-overload]
            lead = first if index == 0 else " " * len(first)
            seconds = float(run.get("seconds", 0.0))  # type: ignore[arg-type]
            lines.append(
                f"{lead}{run['run']!s:<18}{seconds:>5.0f}s"
                f"{run['passed']:>6}{failed:>6}{run['skipped']:>5}"
            )
    failed_envs = [name for name, result in results.items() if not result.passed]
    lines.append("")
    lines.append(
        f"{len(results) - len(failed_envs)} of {len(results)} envs passed"
        + (f"; failed: {', '.join(failed_envs)}" if failed_envs else "")
    )
    total = sum(result.seconds for result in results.values())
    install = sum(result.install_seconds for result in results.values())
    if wall_seconds is not None:
        lines.append(f"The command took {wall_seconds:.0f} s.")
    lines.append(
        f"The envs' times add up to {total:.0f} s: {install:.0f} s installing,"
        f" {total - install:.0f} s testing."
    )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Print the summary; exit 1 if anything failed."""
    result_file, directory = Path(argv[0]), Path(argv[1])
    wall_seconds = float(argv[2]) if len(argv) > 2 else None
    if not result_file.exists():
        print(f"no tox result file at {result_file}: tox did not finish", file=sys.stderr)
        return 1
    runs = load_runs(directory)
    results = env_results(result_file, runs)
    print(table(results, runs, wall_seconds))
    runs_failed = any(
        int(run["exit status"]) != 0  # type: ignore[call-overload]
        for env in runs.values()
        for run in env
        if "run" in run
    )
    return 1 if runs_failed or not all(result.passed for result in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
