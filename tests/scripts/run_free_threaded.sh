#!/usr/bin/env bash
# Run the test suite on free-threaded CPython (PEP 703) with the GIL off: on
# the C accelerator (compiled here with warnings as errors against the
# free-threaded headers), then on the pure-Python path. The interpreter is
# the pyenv version 3.13.Zt that tests/scripts/provide_free_threaded.sh builds
# (.ci/run runs it first), or python3.13t on PATH. Nothing it needs is
# installed here but the suite's packages, as wheels (some of the newest
# releases have no free-threaded wheel and need a Rust toolchain to build).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/scripts/interpreter_venv.sh
started=$SECONDS
python=""
root=${PYENV_ROOT:-$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")}
for candidate in "$root"/versions/3.13.*t/bin/python3.13t; do
    [ -x "$candidate" ] && python=$candidate
done
[ -n "$python" ] || python=$(command -v python3.13t || true)
if [ -z "$python" ]; then
    echo "no free-threaded CPython 3.13: run bash tests/scripts/provide_free_threaded.sh 3.13 first" >&2
    exit 1
fi
env_dir="${TOX_ENV_DIR:-.tox/free-threaded}"
venv="$env_dir/free-threaded-venv"
SUITE_INSTALL_OPTIONS=(--only-binary :all:)
suite_venv "$python" "$venv"
report_install "$started"
# A copy of the source tree, so the free-threaded extension stays out of the checkout.
tree="$env_dir/tree"
rm -rf "$tree" && mkdir -p "$tree"
git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$tree"
include=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['include'])")
suffix=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
gcc -shared -fPIC -O2 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -Werror \
    -I"$include" records/_c/accelerator.c -o "$tree/records/_accelerator_c$suffix"
# The tree on the venv's path, and the opt-in's start-up hook beside it, as
# an editable install of records puts them into site-packages.
site=$("$venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
cp records/records_namedtuple.pth records/_records_namedtuple.py "$site/"
realpath "$tree" > "$site/records_tree.pth"
cd "$tree"
export PYTHON_GIL=0 RECORDS_REQUIRE_ACCELERATOR=1
"$venv/bin/python" -c "import sys, records; print(sys.version.split()[0], 'free-threaded, GIL enabled:', sys._is_gil_enabled(), '-', records.ACCELERATOR); assert records.ACCELERATED and not sys._is_gil_enabled()"
# mypy and libcst have no free-threaded wheels here (their tests skip), and the
# packaging tests are about wheels built with uv, not about threads.
status=0
for path in "" "--pure-python"; do
    "$venv/bin/python" -X dev -m pytest -q -p no:cacheprovider $path \
        --ignore=tests/typing --ignore=records/mypy --ignore=tests/test_packaging.py "$@" || status=1
done
exit $status
