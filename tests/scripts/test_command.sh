#!/usr/bin/env bash
# The test command (README.md; .ci/run calls it): tox, in a venv of its own
# with tox-uv (uv makes the envs' venvs and installs into them), runs every
# env of pyproject.toml's [tool.tox] in parallel, longest first; then a
# summary of each env (its time, and how much of it went to installing) and of
# each pytest run in it (its time and counts). Arguments go to tox run-parallel.
set -uo pipefail
cd "$(dirname "$0")/../.."
runner=.tox/test-command
cat <<NOTE
records: the whole test suite, one tox env per CPU core.
  Runs: CPython 3.10 to 3.15 from PATH (C accelerator and pure Python),
        free-threaded CPython 3.13t with the GIL off (both paths), PyPy,
        a debug CPython with a reference-leak check, client libraries, type
        checkers, the docs build, lint, a 30-second fuzzing run, and the
        migration of three projects from the package index (their suites
        before and after).
  Needs: CPython 3.10 to 3.15 on PATH, and free-threaded 3.13 (python3.13t;
        bash tests/scripts/provide_free_threaded.sh 3.13 builds it, once).
  Installs: tox and tox-uv into $runner (a venv of $(python3 --version 2>&1));
        with uv, each env's test dependencies from the package index into
        .tox/<env> (uv keeps them in its cache, ~/.cache/uv); the source
        distributions of packaging, webcolors and rfc3986; and, when run as
        root on Debian and missing, the packages pypy3, pypy3-venv,
        pypy3-lib-testsuite, python3.11-dbg, python3.11-dev and
        python3.11-venv (apt-get).
  Takes: about 14 minutes on 2 cores, 16 the first time, while the
        dependencies download. tox prints a line as each env ends.
NOTE
if [ ! -x "$runner/bin/tox" ] || [ ! -x "$runner/bin/uv" ]; then
    { [ -x "$runner/bin/python" ] || python3 -m venv "$runner"; } \
        && "$runner/bin/python" -m pip install --quiet "tox>=4.22" "tox-uv>=1.25" \
        || { echo "could not install tox and tox-uv into $runner" >&2; exit 1; }
fi
# Every interpreter comes from PATH: uv must not download one in its place.
export UV_PYTHON_DOWNLOADS=never
summary=.tox/test-summary
rm -rf "$summary" .tox/test-result.json
started=$SECONDS
RECORDS_TEST_SUMMARY="$PWD/$summary" "$runner/bin/tox" run-parallel --result-json .tox/test-result.json "$@"
status=$?
echo
if ! "$runner/bin/python" tests/scripts/summarize.py .tox/test-result.json "$summary" \
    "$((SECONDS - started))"; then
    [ "$status" -ne 0 ] || status=1
fi
exit "$status"
