#!/usr/bin/env bash
# Run the test suite on PyPy (Debian's pypy3), on records' pure-Python path.
# Installs pypy3 with apt when it is missing. Debian 12's PyPy implements
# Python 3.9, below records' minimum of 3.10, so the package is imported from
# the source tree instead of installed; tests/README.md lists what is skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! pypy3 -c "import venv, test.test_collections" >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pypy3 pypy3-venv pypy3-lib-testsuite >/dev/null
    else
        echo "pypy3 (with pypy3-venv and pypy3-lib-testsuite) is missing and cannot be installed here" >&2
        exit 1
    fi
fi
venv="${TOX_ENV_DIR:-.tox/pypy}/pypy-venv"
[ -x "$venv/bin/python" ] || pypy3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet "pytest>=8" "hypothesis>=6.100" "attrs>=23" \
    "cloudpickle>=3.0" "dill>=0.3.8" "joblib>=1.4"
"$venv/bin/python" -c "import sys, platform; print('running on', platform.python_implementation(), sys.version.split()[0])"
# records/mypy needs mypy, which the PyPy run does not install.
PYTHONPATH="$PWD" "$venv/bin/python" -m pytest --ignore=records/mypy "$@"
