#!/usr/bin/env bash
# Audit the C accelerator on a debug build of CPython (Debian's python3.11-dbg,
# installed with apt when missing): compile it with warnings as errors against
# the debug headers, run the suite on it (Py_DEBUG checks reference counts and
# object state everywhere), then check that repeated rounds of every C path
# leave the interpreter's total reference count flat (tests/support/refleak_check.py).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/scripts/interpreter_venv.sh
started=$SECONDS
if ! command -v python3.11-dbg >/dev/null || [ ! -e /usr/include/python3.11d/Python.h ]; then
    apt_install "python3.11-dbg (with python3.11-dev and python3.11-venv)" python3.11-dbg python3.11-dev python3.11-venv
fi
env_dir="${TOX_ENV_DIR:-.tox/debug}"
venv="$env_dir/debug-venv"
suite_venv python3.11-dbg "$venv"
report_install "$started"
# A copy of the source tree, so the debug-ABI extension stays out of the checkout.
tree="$env_dir/tree"
rm -rf "$tree" && mkdir -p "$tree"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$tree"
include=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
gcc -shared -fPIC -O0 -g -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Werror \
    -I"$include" records/_c/accelerator.c -o "$tree/records/_accelerator_c$suffix"
cd "$tree"
"$venv/bin/python" -c "import sys, records; assert hasattr(sys, 'gettotalrefcount'); print('debug build', sys.version.split()[0], '-', records.ACCELERATOR); assert records.ACCELERATED"
# Debian's 3.11.2 lacks test.test_collections and its namedtuple differs from
# 3.11.7's on NFKC "None" names; the differential and packaging tests are
# about namedtuple parity and wheels, not the C code.
PYTHONPATH="$PWD" "$venv/bin/python" -X dev -m pytest -q -p no:cacheprovider \
    --ignore=tests/typing --ignore=records/mypy --ignore=tests/test_cpython_namedtuple.py \
    --ignore=tests/test_packaging.py --ignore=tests/test_differential.py "$@"
PYTHONPATH="$PWD" "$venv/bin/python" -X dev tests/support/refleak_check.py
