#!/usr/bin/env bash
# `make check-fresh [SUITE=bookworm|trixie]`: the README's two commands as a
# newcomer meets them. Builds a minimal Debian chroot with mmdebstrap holding
# nothing but git and make (and what they depend on), clones the committed
# HEAD into it with the chroot's own git, runs `make test` there as root and
# then `make run` until GET /api/health answers, and prints one line each.
# Not part of `make test`: it downloads every package the project needs and
# runs the whole suite (about half an hour on a busy 2-core machine).
#
# The chroot shares the host's network and processes: /proc is mounted, /sys
# and /dev (with /dev/shm and /dev/pts, which Chromium needs) are bound in as
# slaves, so unmounting them never reaches the host's. The tests pick free
# ports, `make run` is given one, and the chroot has its own /tmp. On exit,
# however it ends, every process rooted in the chroot is stopped, every
# mount under it is unmounted (recursively, /dev included), and the
# directory is deleted only once findmnt shows nothing mounted below it.
#
#   CHECK_FRESH_DIR   where the chroot is made (default /var/tmp)
#   CHECK_FRESH_KEEP  1: keep the (unmounted) chroot to look at afterwards
#   CHECK_FRESH_MIRROR  Debian mirror (default http://deb.debian.org/debian)
# Logs: build/check-fresh/<suite>-{mmdebstrap,test,run}.log, and each
# suite's own log in build/check-fresh/<suite>-test-logs/
set -euo pipefail
cd "$(dirname "$0")/.."

suite=${1:-bookworm}
mirror=${CHECK_FRESH_MIRROR:-http://deb.debian.org/debian}
security=${mirror%/debian}/debian-security
logs=$PWD/build/check-fresh
health_timeout=600

say() { printf 'check-fresh %s: %s\n' "$suite" "$*"; }
die() { say "FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (mmdebstrap, chroot and mount)"
command -v mmdebstrap >/dev/null || die "mmdebstrap is not installed (apt-get install mmdebstrap)"
command -v curl >/dev/null || die "curl is not installed"
commit=$(git rev-parse HEAD)
git diff --quiet HEAD 2>/dev/null ||
    say "note: uncommitted changes are not checked, only the commit ${commit:0:12}"
mkdir -p "$logs"

root=$(mktemp -d "${CHECK_FRESH_DIR:-/var/tmp}/phantomgo-fresh-$suite.XXXXXX")
# The commit checked is HEAD now, not whatever HEAD is once the chroot is made.
bundle=$(mktemp "${TMPDIR:-/tmp}/phantomgo-fresh-$suite.XXXXXX.bundle")
git bundle create "$bundle" HEAD 2>/dev/null
server_pid=''

# ---- cleanup ---------------------------------------------------------------

# Processes whose root directory is the chroot (the server, a stray browser):
# all were started by this script, inside it.
chroot_pids() {
    local p
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && echo "${p#/proc/}"
    done
    return 0
}

stop_chroot_processes() {
    local pids tries
    [ -n "$server_pid" ] && kill -TERM -- "-$server_pid" 2>/dev/null
    for tries in 1 2 3 4 5 6 7 8 9 10; do
        pids=$(chroot_pids)
        [ -z "$pids" ] && return 0
        # shellcheck disable=SC2086
        kill -TERM $pids 2>/dev/null
        sleep 1
    done
    # shellcheck disable=SC2086
    kill -KILL $(chroot_pids) 2>/dev/null
    sleep 1
}

mounts_below() { findmnt -rn -o TARGET | awk -v r="$root" 'index($0, r "/") == 1 || $0 == r'; }

cleanup() {
    local rc=$? m
    trap - EXIT INT TERM
    set +e
    rm -f "$bundle"
    stop_chroot_processes
    # Deepest first; umount -R takes each tree's submounts (/dev/shm, /dev/pts).
    for m in "$root/dev" "$root/sys" "$root/proc"; do
        mountpoint -q "$m" && { umount -R "$m" || umount -R -l "$m"; }
    done
    while read -r m; do umount -R "$m" 2>/dev/null || umount -R -l "$m"; done < <(mounts_below | sort -r)
    if [ -n "$(mounts_below)" ]; then
        say "still mounted below $root, not deleting it:" >&2
        mounts_below >&2
    elif [ "${CHECK_FRESH_KEEP:-0}" = 1 ]; then
        say "kept the chroot in $root"
    else
        rm -rf --one-file-system "$root"
    fi
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the chroot ------------------------------------------------------------

chroot_env=(HOME=/root LANG=C.UTF-8 TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
in_chroot() {   # in_chroot COMMAND: as root, in a clean environment
    env -i "${chroot_env[@]}" chroot "$root" /bin/bash -c "$1"
}

# This site's own CA certificates (e.g. a TLS-intercepting proxy's), which
# the host trusts and a fresh system cannot know: npm's registry is HTTPS.
# Copied where update-ca-certificates (package ca-certificates) finds them,
# and handed to Node as NODE_EXTRA_CA_CERTS. Nothing else of the host's.
carry_site_certificates() {
    local cas=(/usr/local/share/ca-certificates/*.crt)
    [ -e "${cas[0]}" ] || return 0
    mkdir -p "$root/usr/local/share/ca-certificates" "$root/etc/ssl"
    cp "${cas[@]}" "$root/usr/local/share/ca-certificates/"
    cat "${cas[@]}" >"$root/etc/ssl/site-ca.pem"
    chroot_env+=(NODE_EXTRA_CA_CERTS=/etc/ssl/site-ca.pem)
    say "carried this site's CA certificates into the chroot: ${cas[*]##*/}"
}

started=$SECONDS
say "making a minimal $suite chroot in $root (git and make only) from $mirror"
# force-unsafe-io (dpkg without fsync, kept in the chroot's dpkg.cfg.d for
# make test's installs too), as Debian's official container images do: the
# chroot is thrown away anyway, and on a busy disk fsync triples the time.
mmdebstrap --variant=minbase --include=git,make --dpkgopt=force-unsafe-io "$suite" "$root" \
    "deb $mirror $suite main" "deb $mirror $suite-updates main" \
    "deb $security $suite-security main" >"$logs/$suite-mmdebstrap.log" 2>&1 ||
    { tail -n 20 "$logs/$suite-mmdebstrap.log" >&2; die "mmdebstrap failed (log $logs/$suite-mmdebstrap.log)"; }
say "chroot made in $((SECONDS - started)) s: $(in_chroot '. /etc/os-release; echo "$PRETTY_NAME"'), $(in_chroot 'dpkg-query -W | wc -l') packages"

cp /etc/resolv.conf "$root/etc/resolv.conf"
carry_site_certificates
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
[ -d "$root/dev/shm" ] && [ -d "$root/dev/pts" ] || die "/dev/shm or /dev/pts missing in the chroot"

cp "$bundle" "$root/root/phantomgo.bundle"
in_chroot 'git -c init.defaultBranch=main -c advice.detachedHead=false clone -q /root/phantomgo.bundle /root/phantomgo && rm /root/phantomgo.bundle' ||
    die "git clone in the chroot failed"
say "cloned ${commit:0:12} into /root/phantomgo"

# ---- make test -------------------------------------------------------------

t0=$SECONDS
say "make test (log $logs/$suite-test.log)"
set +e
in_chroot 'cd /root/phantomgo && make test' >"$logs/$suite-test.log" 2>&1
test_rc=$?
set -e
test_secs=$((SECONDS - t0))
# Each suite's own log (which test failed, and why) lives in the chroot,
# which is deleted at exit: keep a copy beside this script's logs.
rm -rf "$logs/$suite-test-logs"
cp -r "$root/root/phantomgo/build/test-logs" "$logs/$suite-test-logs" 2>/dev/null ||
    say "note: the suites' logs could not be copied out of the chroot"
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/$suite-test.log" | tail -n 1 || true)
grep -E '^   [a-z-]+: (skipped|[0-9]+ passed)' "$logs/$suite-test.log" | sed 's/^ */   /' || true
say "make test: ${summary:-no summary line} (exit $test_rc, $test_secs s)"
[ "$test_rc" -eq 0 ] || tail -n 40 "$logs/$suite-test.log" | sed 's/^/   | /'

# ---- make run --------------------------------------------------------------

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
t0=$SECONDS
say "make run PORT=$port (log $logs/$suite-run.log)"
setsid env -i "${chroot_env[@]}" chroot "$root" /bin/bash -c "cd /root/phantomgo && exec make run PORT=$port" \
    >"$logs/$suite-run.log" 2>&1 </dev/null &
server_pid=$!
health=''
until health=$(curl -fsS --max-time 5 "http://127.0.0.1:$port/api/health" 2>/dev/null); do
    if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
    if [ $((SECONDS - t0)) -ge $health_timeout ]; then break; fi
    sleep 1
done
run_secs=$((SECONDS - t0))
if [ -n "$health" ]; then
    say "make run: GET /api/health answered $health after $run_secs s"
    run_ok=1
else
    tail -n 20 "$logs/$suite-run.log" | sed 's/^/   | /'
    say "make run: /api/health did not answer within $run_secs s"
    run_ok=0
fi

say "took $((SECONDS - started)) s in all"
[ "$test_rc" -eq 0 ] && [ "$run_ok" = 1 ]
