#!/usr/bin/env bash
# `make docker-check`, and the "docker" suite of tests/run-all.sh: proof that
# docker/Dockerfile builds an image that works, on a machine where no Docker
# engine runs. It uses podman instead (`podman build --isolation=chroot
# --format docker`, which needs no daemon and no container runtime), and:
#   - installs what it needs (podman, mmdebstrap, docker-compose) with apt;
#   - lints both Dockerfiles (npm dockerfile-utils) and validates
#     docker/compose.yaml (`docker-compose config`, no engine needed);
#   - gets the debian:bookworm(-slim) base images: already in podman's
#     storage, pulled, or, when the registry cannot be reached, made locally
#     with mmdebstrap (one minbase rootfs with the slim image's dpkg excludes,
#     tagged as both) and kept in storage, so only the first run pays;
#   - builds the image and checks its configuration and contents;
#   - builds docker/smoke.Dockerfile FROM it: the server starts there as the
#     image's non-root user, passes its HEALTHCHECK, creates a game, writes
#     /data/phantomgo.db, stops on SIGTERM and restarts on the same /data.
# Each check is one "ok"/"not ok" line; the last line is "N passed, N
# failed". If podman cannot be installed or cannot work here, it says
# "docker: skipped: <why>", prints "0 passed, 0 failed" and exits 0.
# Logs go to build/docker/.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

image=localhost/phantomgo:check
smoke_image=localhost/phantomgo-smoke:check
logs=build/docker
size_budget_mb=150
mkdir -p "$logs"
passed=0 failed=0 started=$SECONDS

pass()  { passed=$((passed + 1)); echo "ok - $*"; }
fail()  { failed=$((failed + 1)); echo "not ok - $*"; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
skip()  { echo "docker: skipped: $*"; echo "0 passed, 0 failed"; exit 0; }
finish() {
    echo "docker/check.sh took $((SECONDS - started)) s (logs in $logs/)"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
log_tail() { tail -n "${2:-25}" "$1" | sed 's/^/   | /'; }

# ---- tools -----------------------------------------------------------------

install_tools() {
    local missing=()
    command -v podman >/dev/null || missing+=(podman)
    command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
    command -v docker-compose >/dev/null || missing+=(docker-compose)
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" != 0 ]; then
        skip "${missing[*]} not installed, and installing needs root"
    fi
    echo "installing Debian packages: ${missing[*]}"
    if ! { apt-get update -qq &&
           DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
               "${missing[@]}"; } >"$logs/apt.log" 2>&1; then
        skip "apt-get could not install ${missing[*]}: $(tail -n 1 "$logs/apt.log")"
    fi
}

ensure_lint_tool() {
    [ -x tests/node_modules/.bin/dockerfile-utils ] && return 0
    (cd tests && npm ci --no-audit --no-fund --loglevel=error) >"$logs/npm.log" 2>&1
}

# ---- base images -----------------------------------------------------------

debian_tag() { echo "docker.io/library/debian:$1"; }

# A bookworm rootfs close to the official debian:bookworm-slim: minbase,
# merged /usr, the slim dpkg path excludes, the same apt sources and PATH.
make_local_base() {
    local tar="$logs/bookworm-rootfs.tar" tag
    mmdebstrap --variant=minbase --quiet \
        --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
        --dpkgopt='path-exclude=/usr/share/doc/*' \
        --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        --dpkgopt='path-exclude=/usr/share/man/*' \
        --dpkgopt='path-exclude=/usr/share/info/*' \
        --dpkgopt='path-exclude=/usr/share/locale/*' \
        --dpkgopt='path-include=/usr/share/locale/locale.alias' \
        --dpkgopt='path-exclude=/usr/share/lintian/*' \
        bookworm "$tar" \
        'deb http://deb.debian.org/debian bookworm main' \
        'deb http://deb.debian.org/debian bookworm-updates main' \
        'deb http://deb.debian.org/debian-security bookworm-security main' \
        >>"$logs/base.log" 2>&1 || return 1
    for tag in "$@"; do
        podman import --quiet \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'CMD ["bash"]' \
            --change 'LABEL org.phantomgo.base="made by docker/check.sh with mmdebstrap"' \
            "$tar" "$(debian_tag "$tag")" >>"$logs/base.log" 2>&1 || { rm -f "$tar"; return 1; }
    done
    rm -f "$tar"
}

# Sets base_how to how the base images were obtained; fails if they were not.
ensure_base_images() {
    local tag missing=() t0=$SECONDS
    : >"$logs/base.log"
    for tag in bookworm bookworm-slim; do
        podman image exists "$(debian_tag "$tag")" || missing+=("$tag")
    done
    if [ ${#missing[@]} -eq 0 ]; then base_how="already in podman's storage"; return 0; fi
    local unpulled=()
    for tag in "${missing[@]}"; do
        timeout 180 podman pull --quiet "$(debian_tag "$tag")" >>"$logs/base.log" 2>&1 ||
            unpulled+=("$tag")
    done
    if [ ${#unpulled[@]} -eq 0 ]; then base_how="pulled in $((SECONDS - t0)) s"; return 0; fi
    make_local_base "${unpulled[@]}" || return 1
    base_how="registry unreachable; made ${unpulled[*]} with mmdebstrap in $((SECONDS - t0)) s"
}

# ---- the image -------------------------------------------------------------

lint_clean() {   # lint_clean DOCKERFILE: dockerfile-utils reports nothing
    local out
    out=$(tests/node_modules/.bin/dockerfile-utils lint "$1" 2>&1) && [ -z "$out" ] && return 0
    printf '%s\n' "$out" | sed 's/^/   | /'
    return 1
}

compose_valid() {
    docker-compose -f docker/compose.yaml config >"$logs/compose.log" 2>&1 || {
        log_tail "$logs/compose.log" 10; return 1; }
}

compose_has() {  # compose_has REGEX: the normalized compose file matches
    grep -Eq "$1" "$logs/compose.log" || { echo "   no line matching '$1' in $logs/compose.log"; return 1; }
}

build_image() {
    local commit
    commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
    timeout 900 podman build --isolation=chroot --format docker --layers \
        --build-arg PHANTOMGO_COMMIT="$commit" -f docker/Dockerfile -t "$image" . \
        >"$logs/build.log" 2>&1 || { log_tail "$logs/build.log"; return 1; }
}

inspect() { podman image inspect --format "$1" "$image" 2>/dev/null; }

config_is() {    # config_is TEMPLATE EXPECTED
    local got
    got=$(inspect "$1")
    [ "$got" = "$2" ] || { echo "   $1 is '$got', expected '$2'"; return 1; }
}

size_within_budget() {
    local mb=$(( $(inspect '{{.Size}}') / 1000000 ))
    echo "   image size: $mb MB (uncompressed, as \`docker images\` shows it)"
    [ "$mb" -le "$size_budget_mb" ]
}

# Looks inside the image's filesystem (as root, without running it).
contents_ok() {
    local root ok=0
    root=$(podman image mount "$image" 2>>"$logs/build.log") || return 1
    for f in usr/local/bin/phantomgo app/schema.sql app/web app/static; do
        [ -e "$root/$f" ] || { echo "   /$f is missing"; ok=1; }
    done
    for f in usr/bin/gcc usr/bin/cc usr/bin/make usr/include/sqlite3.h; do
        [ -e "$root/$f" ] && { echo "   /$f should not be in the runtime image"; ok=1; }
    done
    [ "$(stat -c %u "$root/data")" = 10001 ] || { echo "   /data is not owned by uid 10001"; ok=1; }
    podman image unmount "$image" >/dev/null 2>&1
    return $ok
}

# Builds the smoke stage; every "smoke: ok/not ok" line it prints is a check.
run_smoke_stage() {
    local rc line
    timeout 300 podman build --isolation=chroot --format docker --no-cache \
        --build-arg IMAGE="$image" -f docker/smoke.Dockerfile -t "$smoke_image" docker \
        >"$logs/smoke.log" 2>&1
    rc=$?
    while IFS= read -r line; do
        case $line in
            "smoke: ok "*)     pass "${line#smoke: ok }" ;;
            "smoke: not ok "*) fail "${line#smoke: not ok }" ;;
            "   "*)            echo "$line" ;;
        esac
    done <"$logs/smoke.log"
    podman rmi "$smoke_image" >/dev/null 2>&1
    [ $rc -eq 0 ] || log_tail "$logs/smoke.log" 15
    return $rc
}

# ---- main ------------------------------------------------------------------

install_tools
podman info >"$logs/podman-info.log" 2>&1 ||
    skip "podman cannot run here: $(grep -m 1 -i error "$logs/podman-info.log")"

ensure_lint_tool
check "docker/Dockerfile lint-clean (dockerfile-utils)" lint_clean docker/Dockerfile
check "docker/smoke.Dockerfile lint-clean (dockerfile-utils)" lint_clean docker/smoke.Dockerfile
check "docker/compose.yaml is valid (docker-compose config)" compose_valid
check "compose keeps /data on a named volume" compose_has '^ *- (source: *)?phantomgo-data:/data|^ *target: /data'
check "compose publishes port 8080 and restarts unless stopped" \
    eval "compose_has '8080' && compose_has 'restart: unless-stopped'"

base_how=''
if ensure_base_images; then pass "debian:bookworm and bookworm-slim base images ($base_how)"
else fail "debian:bookworm base images (see $logs/base.log)"; log_tail "$logs/base.log"; finish; fi

old_id=$(inspect '{{.Id}}')
t0=$SECONDS
if build_image; then pass "image builds from docker/Dockerfile ($((SECONDS - t0)) s)"
else fail "image builds from docker/Dockerfile (see $logs/build.log)"; finish; fi
new_id=$(inspect '{{.Id}}')
if [ -n "$old_id" ] && [ "$old_id" != "$new_id" ]; then podman rmi "$old_id" >/dev/null 2>&1; fi

check "runs as the non-root user phantomgo" config_is '{{.Config.User}}' phantomgo
check "declares VOLUME /data" config_is '{{range $k, $v := .Config.Volumes}}{{$k}} {{end}}' '/data '
check "exposes 8080/tcp" config_is '{{range $k, $v := .Config.ExposedPorts}}{{$k}} {{end}}' '8080/tcp '
check "stops with SIGTERM" config_is '{{.Config.StopSignal}}' SIGTERM
check "HEALTHCHECK is 'phantomgo healthcheck'" config_is '{{json .HealthCheck.Test}}' '["CMD","phantomgo","healthcheck"]'
check "database configured at /data/phantomgo.db" \
    eval "inspect '{{range .Config.Env}}{{println .}}{{end}}' | grep -qx PHANTOMGO_DB=/data/phantomgo.db"
check "contains the binary, web/, static/, schema.sql, no compiler; /data owned by the user" contents_ok
check "image size at most $size_budget_mb MB" size_within_budget

t0=$SECONDS
if run_smoke_stage; then pass "smoke stage passes ($((SECONDS - t0)) s)"
else fail "smoke stage passes (see $logs/smoke.log)"; fi

finish
