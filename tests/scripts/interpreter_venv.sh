# Sourced by run_on_pypy.sh, run_on_debug_python.sh and run_free_threaded.sh: the venv each runs the
# suite in, on an interpreter tox does not manage, and the time it took.

# What the suite needs there (records itself is imported from the source tree).
SUITE_PACKAGES=("pytest>=8" "hypothesis>=6.100" "attrs>=23" "cloudpickle>=3.0" "dill>=0.3.8" "joblib>=1.4")

# apt_install WHAT PACKAGE...: install Debian's PACKAGEs (WHAT names them in
# the error) where this runs as root with apt-get, one apt-get at a time
# (run_on_pypy.sh and run_on_debug_python.sh may run together); else fail.
apt_install() {
    local what=$1
    shift
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        (
            flock 9
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
        ) 9>/tmp/records-apt-get.lock
    else
        echo "$what is missing and cannot be installed here" >&2
        exit 1
    fi
}

# suite_venv PYTHON VENV: make VENV with PYTHON, unless it exists, and install
# SUITE_PACKAGES into it (with the options in SUITE_INSTALL_OPTIONS, if set):
# with uv where it is on PATH (the tox env installs it), else with the venv's pip.
suite_venv() {
    local python=$1 venv=$2
    local options=("${SUITE_INSTALL_OPTIONS[@]+"${SUITE_INSTALL_OPTIONS[@]}"}")
    if command -v uv >/dev/null; then
        [ -x "$venv/bin/python" ] || uv venv --quiet --python "$python" "$venv"
        uv pip install --quiet --python "$venv/bin/python" "${options[@]}" "${SUITE_PACKAGES[@]}"
    else
        [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet "${options[@]}" "${SUITE_PACKAGES[@]}"
    fi
}

# report_install STARTED: tell the test command's summary that installing took
# from STARTED (a $SECONDS reading) until now (tests/support/run_summary.py).
report_install() {
    python3 tests/support/run_summary.py install "$((SECONDS - $1))"
}
