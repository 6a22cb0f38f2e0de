#!/usr/bin/env bash
# Run the test suite on PyPy (Debian's pypy3), on records' pure-Python path.
# Installs pypy3 with apt when it is missing. Debian 12's PyPy implements
# Python 3.9, below records' minimum of 3.10, so the package is imported from
# the source tree instead of installed; tests/README.md lists what is skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/scripts/interpreter_venv.sh
started=$SECONDS
if ! pypy3 -c "import venv, test.test_collections" >/dev/null 2>&1; then
    apt_install "pypy3 (with pypy3-venv and pypy3-lib-testsuite)" pypy3 pypy3-venv pypy3-lib-testsuite
fi
venv="${TOX_ENV_DIR:-.tox/pypy}/pypy-venv"
suite_venv pypy3 "$venv"
report_install "$started"
"$venv/bin/python" -c "import sys, platform; print('running on', platform.python_implementation(), sys.version.split()[0])"
# records/mypy needs mypy, which the PyPy run does not install.
PYTHONPATH="$PWD" "$venv/bin/python" -m pytest --ignore=records/mypy "$@"
