#!/usr/bin/env bash
# The test command (README.md; .ci/run calls it): tox, in a venv of its own,
# runs every env of pyproject.toml's [tool.tox] in parallel; then a summary of
# each env and of each pytest run in it. Arguments go to tox run-parallel.
set -uo pipefail
cd "$(dirname "$0")/../.."
runner=.tox/test-command
cat <<NOTE
records: the whole test suite, one tox env per CPU core.
  Runs: CPython 3.10 to 3.15 from PATH (C accelerator and pure Python), PyPy,
        a debug CPython with a reference-leak check, client libraries, type
        checkers, the docs build, lint, a 30-second fuzzing run, and the
        migration of three projects from the package index (their suites
        before and after).
  Installs: tox into $runner (a venv of $(python3 --version 2>&1)); each env's
        test dependencies from the package index into .tox/<env> (and the
        source distributions of packaging, webcolors and rfc3986); and, when
        run as root on Debian and missing, the packages pypy3, pypy3-venv,
        pypy3-lib-testsuite, python3.11-dbg, python3.11-dev and
        python3.11-venv (apt-get).
  Takes: about 20 to 25 minutes on 2 cores (longer the first time, while
        the dependencies download). tox prints a line as each env ends.
NOTE
if [ ! -x "$runner/bin/tox" ]; then
    python3 -m venv "$runner" && "$runner/bin/python" -m pip install --quiet "tox>=4.22" \
        || { echo "could not install tox into $runner" >&2; exit 1; }
fi
summary=.tox/test-summary
rm -rf "$summary" .tox/test-result.json
RECORDS_TEST_SUMMARY="$PWD/$summary" "$runner/bin/tox" run-parallel --result-json .tox/test-result.json "$@"
status=$?
echo
if ! "$runner/bin/python" tests/scripts/summarize.py .tox/test-result.json "$summary"; then
    [ "$status" -ne 0 ] || status=1
fi
exit "$status"
