#!/usr/bin/env bash
# tests/scripts/provide_free_threaded.sh X.Y...   e.g.  bash tests/scripts/provide_free_threaded.sh 3.13
#
# Builds a free-threaded CPython (configure --disable-gil, PEP 703) from the
# upstream source in Debian's source package python3.X.Y, for the newest
# version whose files Debian's archive serves, and installs it as the pyenv
# version X.Y.Zt (bin/python3.Xt, bin/python3.X, bin/python3). No PGO/LTO:
# about 5 minutes on 2 cores (configure ~1 min, make -j ~3 min, install).
#
#   * host build dependencies from the host's own apt (gcc, libssl-dev, ...);
#   * a private deb-src index (sid, forky, trixie) in $WORK, never the host's
#     apt configuration; `apt-get source --download-only`, newest first, until
#     one version downloads whole (the archive does not keep every version's
#     files: in December 2026 only python3.13 3.13.15 did);
#   * configure/make/install into $(pyenv root)/versions/X.Y.Zt, check that
#     sys._is_gil_enabled() is False and the usual modules import, pyenv rehash.
#
# Idempotent: a version already present and working is skipped.
# Prints "X.Y.Zt: ok" (or "...: FAILED ...") per version; exit 1 if any failed.
# Knobs: PYENV_ROOT; RECORDS_FT_WORK (scratch, default /tmp/records-free-threaded);
#        RECORDS_FT_MIRROR (default: the host's Debian mirror).
set -euo pipefail

usage() { sed -n '2,3p' "$0" | sed 's/^# \{0,1\}//'; }
[[ $# -ge 1 ]] || { usage >&2; exit 2; }
case $1 in -h|--help) usage; exit 0 ;; esac

log() { printf '[provide_free_threaded] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
command -v apt-get >/dev/null || die "needs a Debian system (apt-get)"

if [[ -z ${PYENV_ROOT:-} ]]; then
    PYENV_ROOT=$(pyenv root 2>/dev/null || true)
    [[ -n $PYENV_ROOT ]] || PYENV_ROOT=$HOME/.pyenv
fi
WORK=${RECORDS_FT_WORK:-${TMPDIR:-/tmp}/records-free-threaded}
mkdir -p "$WORK" "$PYENV_ROOT/versions"
exec 9>"$WORK/lock"
flock 9 || die "cannot lock $WORK/lock"

host_mirror() {
    local uri
    uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ {print $2}' | grep -v security | head -n1 || true)
    [[ -n $uri ]] || uri=$(grep -hE '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
    printf '%s' "$uri"
}
MIRROR=${RECORDS_FT_MIRROR:-$(host_mirror)}
[[ -n $MIRROR ]] || die "no Debian mirror in the host's apt sources; set RECORDS_FT_MIRROR"

CHECK_PY='
import importlib, sys
assert sys._is_gil_enabled() is False, "GIL enabled"
bad = []
for m in ["ssl", "sqlite3", "ctypes", "zlib", "lzma", "bz2", "decimal", "hashlib", "venv",
          "ensurepip", "readline", "curses", "uuid", "pyexpat", "zoneinfo"]:
    try:
        importlib.import_module(m)
    except Exception as e:
        bad.append("%s (%s)" % (m, e))
if bad:
    sys.exit("broken: " + "; ".join(bad))
'
works() {  # ROOT X.Y
    [[ -x $1/bin/python${2}t ]] && "$1/bin/python${2}t" -I -c "$CHECK_PY" 2>/dev/null
}

# ------------------------------------------------------------ private deb-src index
APT=()
apt_setup() {
    [[ ${#APT[@]} -gt 0 ]] && return 0
    mkdir -p "$WORK/lists/partial" "$WORK/cache/archives/partial"
    : > "$WORK/status"
    cat > "$WORK/src.sources" <<EOF
Types: deb-src
URIs: $MIRROR
Suites: sid forky trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    APT=(-o "Dir::Etc::SourceList=$WORK/src.sources" -o Dir::Etc::SourceParts=/dev/null
         -o "Dir::State::Lists=$WORK/lists" -o "Dir::Cache=$WORK/cache"
         -o "Dir::State::status=$WORK/status" -o APT::Sandbox::User=root
         -o Acquire::Languages=none -q)
    log "apt-get update (deb-src index, private to $WORK)"
    apt-get "${APT[@]}" update >"$WORK/apt-update.log" 2>&1 \
        || { cat "$WORK/apt-update.log" >&2; die "apt-get update (deb-src) failed"; }
}

build_deps_ready=0
build_deps() {
    [[ $build_deps_ready == 1 ]] && return 0
    log "build dependencies from the host's apt"
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        build-essential pkg-config libssl-dev zlib1g-dev libffi-dev libbz2-dev liblzma-dev \
        libsqlite3-dev libreadline-dev libncurses-dev uuid-dev libgdbm-dev libgdbm-compat-dev \
        xz-utils; } >"$WORK/build-deps.log" 2>&1 \
        || { tail -20 "$WORK/build-deps.log" >&2; die "installing build dependencies failed"; }
    build_deps_ready=1
}

# download_source X.Y -> prints the directory holding the unpacked upstream tree
download_source() {
    local x=$1 v dir
    apt_setup
    # every version of python3.X the index lists, newest first
    mapfile -t versions < <(apt-cache "${APT[@]}" showsrc "python$x" 2>/dev/null \
        | awk '/^Version:/ {print $2}' | sort -u -V -r)
    [[ ${#versions[@]} -gt 0 ]] || { log "no python$x source package in sid/forky/trixie"; return 1; }
    for v in "${versions[@]}"; do
        dir=$WORK/src/python$x-$v
        if [[ ! -f $dir/.downloaded ]]; then
            rm -rf "$dir"; mkdir -p "$dir"
            if ! (cd "$dir" && apt-get "${APT[@]}" source --download-only "python$x=$v") \
                    >"$WORK/download-$x-$v.log" 2>&1; then
                log "python$x $v: not served whole by the archive, trying an older one"
                continue
            fi
            touch "$dir/.downloaded"
        fi
        local orig
        orig=$(ls "$dir"/python"$x"_*.orig.tar.* 2>/dev/null | head -n1)
        [[ -n $orig ]] || { log "python$x $v: no orig tarball"; continue; }
        if [[ ! -d $dir/upstream ]]; then
            mkdir -p "$dir/upstream.tmp"
            tar -xf "$orig" -C "$dir/upstream.tmp" --strip-components=1
            mv "$dir/upstream.tmp" "$dir/upstream"
        fi
        printf '%s\n' "$dir/upstream"
        return 0
    done
    return 1
}

provide() {  # X.Y
    local x=$1 src full root jobs
    [[ $x =~ ^3\.[0-9]+$ ]] || die "version must look like 3.13 (got $x)"
    # already there?
    for root in "$PYENV_ROOT"/versions/"$x".*t; do
        [[ -d $root ]] || continue
        if works "$root" "$x"; then echo "$(basename "$root"): ok (present)"; return 0; fi
    done
    build_deps
    apt_setup
    src=$(download_source "$x") || { echo "${x}t: FAILED (no source Debian's archive serves whole)"; return 1; }
    full=$(sed -n 's/^#define PY_VERSION[[:space:]]*"\([^"+]*\).*/\1/p' "$src/Include/patchlevel.h")
    [[ ${full%.*} == "$x" ]] || die "source at $src is $full, not $x"
    root=$PYENV_ROOT/versions/${full}t
    jobs=$(nproc)
    log "building $full free-threaded into $root (configure, make -j$jobs, install; ~5 min on 2 cores)"
    rm -rf "$WORK/build-$full" && mkdir -p "$WORK/build-$full"
    ( cd "$WORK/build-$full" && "$src/configure" --disable-gil --prefix="$root" --with-ensurepip=install \
          >"$WORK/configure-$full.log" 2>&1 ) || { echo "${full}t: FAILED (configure; $WORK/configure-$full.log)"; return 1; }
    ( cd "$WORK/build-$full" && make -j"$jobs" >"$WORK/make-$full.log" 2>&1 ) \
        || { echo "${full}t: FAILED (make; $WORK/make-$full.log)"; return 1; }
    ( cd "$WORK/build-$full" && make install >"$WORK/install-$full.log" 2>&1 ) \
        || { echo "${full}t: FAILED (make install; $WORK/install-$full.log)"; return 1; }
    works "$root" "$x" || { echo "${full}t: FAILED (check)"; return 1; }
    command -v pyenv >/dev/null && pyenv rehash >/dev/null 2>&1 || true
    rm -rf "$WORK/build-$full"
    echo "${full}t: ok"
}

rc=0
for x in "$@"; do
    x=${x%t}
    provide "$x" || rc=1
done
exit $rc
