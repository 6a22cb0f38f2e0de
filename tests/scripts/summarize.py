"""
Print the test command's summary: per tox env, whether it passed and, for
each pytest run in it, how many tests passed, failed and were skipped.

Usage: python tests/scripts/summarize.py RESULT_JSON SUMMARY_DIR

RESULT_JSON is what ``tox run-parallel --result-json`` wrote; SUMMARY_DIR
holds one file per pytest run (``tests/support/run_summary.py``). Exits 1
when an env failed or a pytest run in it failed, else 0.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def load_runs(directory: Path) -> dict[str, list[dict[str, object]]]:
    """Return the pytest runs found in *directory*, by tox env, oldest first."""
    runs: dict[str, list[dict[str, object]]] = {}
    for path in directory.glob("*.json"):
        run = json.loads(path.read_text(encoding="utf-8"))
        runs.setdefault(str(run["env"]), []).append(run)
    for env_runs in runs.values():
        env_runs.sort(key=lambda run: float(run["finished"]))  # type: ignore[arg-type]
    return runs


def env_results(result_file: Path) -> dict[str, tuple[bool, float]]:
    """Return (passed, seconds) for each env in tox's result JSON."""
    data = json.loads(result_file.read_text(encoding="utf-8"))
    results = {}
    for name, env in data.get("testenvs", {}).items():
        if name == ".pkg" or name.startswith(".pkg"):
            continue
        result = env.get("result")
        if result is None:  # not selected in this run (tox -e ...)
            continue
        results[name] = (bool(result.get("success")), float(result.get("duration", 0.0)))
    return results


def table(results: dict[str, tuple[bool, float]], runs: dict[str, list[dict[str, object]]]) -> str:
    """Lay the summary out in at most 80 columns."""
    header = f"{'env':<16}{'result':<8}{'time':>6}  {'run':<30}{'pass':>6}{'fail':>6}{'skip':>6}"
    lines = [header, "-" * len(header)]
    for name, (passed, seconds) in results.items():
        first = f"{name:<16}{'ok' if passed else 'FAILED':<8}{seconds:>5.0f}s  "
        env_runs = runs.get(name, [])
        if not env_runs:
            lines.append(first + "(no pytest run)")
        for index, run in enumerate(env_runs):
            failed = int(run["failed"]) + int(run["error"])  # type: ignore[call-overload]
            lead = first if index == 0 else " " * len(first)
            lines.append(
                f"{lead}{run['run']!s:<30}{run['passed']:>6}{failed:>6}{run['skipped']:>6}"
            )
    total_failed = sum(not passed for passed, _ in results.values())
    lines.append("")
    lines.append(
        f"{len(results) - total_failed} of {len(results)} envs passed"
        + (
            f"; failed: {', '.join(n for n, (ok, _) in results.items() if not ok)}"
            if total_failed
            else ""
        )
    )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Print the summary; exit 1 if anything failed."""
    result_file, directory = Path(argv[0]), Path(argv[1])
    if not result_file.exists():
        print(f"no tox result file at {result_file}: tox did not finish", file=sys.stderr)
        return 1
    results = env_results(result_file)
    runs = load_runs(directory)
    print(table(results, runs))
    runs_failed = any(int(run["exit status"]) != 0 for env in runs.values() for run in env)  # type: ignore[call-overload]
    return 1 if runs_failed or not all(passed for passed, _ in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
