#!/usr/bin/env bash
# `make docker-check`, and the "docker" suite of tests/run-all.sh: proof that
# docker/Dockerfile builds an image that works, on a machine where no Docker
# engine runs. It uses podman instead (`podman build --isolation=chroot
# --format docker`, which needs no daemon and no container runtime), and:
#   - installs what it needs (podman, mmdebstrap, docker-compose, runc) with apt;
#   - lints both Dockerfiles (npm dockerfile-utils) and validates the
#     compose files (`docker-compose config`, no engine needed) and the
#     cluster's HAProxy configuration (`haproxy -c`);
#   - gets the debian:bookworm(-slim) base images: already in podman's
#     storage, pulled, or, when the registry cannot be reached, made locally
#     with mmdebstrap (one minbase rootfs with the slim image's dpkg excludes,
#     tagged as both) and kept in storage, so only the first run pays;
#   - builds the image and checks its configuration and contents, keeping
#     the layer cache but dropping images a newer build replaced;
#   - builds docker/smoke.Dockerfile FROM it: the server starts there as the
#     image's non-root user, passes its HEALTHCHECK, creates a game, writes
#     /data/phantomgo.db, is backed up online, stops on SIGTERM and starts
#     again on the restored backup (docker/smoke.sh);
#   - where podman can also run containers, runs the image as `docker run`
#     would and checks what only an engine shows (ENTRYPOINT and CMD, the
#     HEALTHCHECK, a named volume, SIGTERM to PID 1).
# Each check is one "ok"/"not ok" line; the last line is "N passed, N
# failed". If podman cannot be installed or cannot work here, or this is a
# chroot (make check-fresh), it says "docker: skipped: <why>", prints
# "0 passed, 0 failed" and exits 0; tests/run-all.sh reports it as skipped.
# Logs go to build/docker/.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

image=localhost/phantomgo:check
build_image=localhost/phantomgo-build:check
smoke_image=localhost/phantomgo-smoke:check
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
logs=build/docker
size_budget_mb=120
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
    command -v runc >/dev/null || missing+=(runc)
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" != 0 ]; then
        skip "${missing[*]} not installed, and installing needs root"
    fi
    local t0=$SECONDS
    if ! { apt-get update -qq &&
           DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
               "${missing[@]}"; } >"$logs/apt.log" 2>&1; then
        skip "apt-get could not install ${missing[*]}: $(tail -n 1 "$logs/apt.log")"
    fi
    echo "installed Debian packages ${missing[*]} in $((SECONDS - t0)) s"
}

# `podman info` can work where building cannot (no mount rights in an
# unprivileged container): build a one-file image FROM scratch to know.
podman_can_build() {
    local dir="$logs/probe"
    rm -rf "$dir" && mkdir -p "$dir" && echo probe >"$dir/file" &&
        printf 'FROM scratch\nCOPY file /file\n' >"$dir/Dockerfile" || return 1
    podman build --isolation=chroot --format docker -t localhost/phantomgo-probe:check "$dir" \
        >"$logs/probe.log" 2>&1 || return 1
    podman rmi localhost/phantomgo-probe:check >/dev/null 2>&1
    rm -rf "$dir"
}

ensure_lint_tool() {
    [ -x tests/node_modules/.bin/dockerfile-utils ] && return 0
    (cd tests && npm ci --no-audit --no-fund --loglevel=error) >"$logs/npm.log" 2>&1
}

# ---- base images -----------------------------------------------------------

debian_tag() { echo "docker.io/library/debian:$1"; }

# Bump when make_local_base changes, so stale local bases are made again.
local_base_recipe="mmdebstrap recipe 4"

# The container settings of the official Debian images (debuerreotype):
# apt keeps no .deb files or package caches in image layers and fetches no
# translations. Written as a tree to copy over the rootfs.
write_container_apt_config() {   # write_container_apt_config ROOT
    local dir=$1/etc/apt/apt.conf.d
    mkdir -p "$dir"
    cat >"$dir/docker-clean" <<'APT'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
    echo 'Apt::AutoRemove::SuggestsImportant "false";' >"$dir/docker-autoremove-suggests"
    echo 'Acquire::Languages "none";' >"$dir/docker-no-languages"
    printf '%s\n' 'Acquire::GzipIndexes "true";' 'Acquire::CompressionTypes::Order:: "gz";' \
        >"$dir/docker-gzip-indexes"
}

# A bookworm rootfs made like the official debian:bookworm-slim: minbase,
# merged /usr, dpkg without fsync (as theirs: an image build that dies is
# thrown away anyway), the slim dpkg path excludes, the container apt
# settings, the same apt sources, PATH and CMD. The slim one serves as both
# tags: the build stage only needs apt, and making one rootfs halves the time.
make_local_base() {
    local tar="$logs/bookworm-rootfs.tar" extra="$PWD/$logs/base-files" tag
    rm -rf "$extra"
    write_container_apt_config "$extra"
    mmdebstrap --variant=minbase --quiet \
        --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
        --dpkgopt=force-unsafe-io \
        --dpkgopt='path-exclude=/usr/share/doc/*' \
        --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        --dpkgopt='path-exclude=/usr/share/man/*' \
        --dpkgopt='path-exclude=/usr/share/groff/*' \
        --dpkgopt='path-exclude=/usr/share/info/*' \
        --dpkgopt='path-exclude=/usr/share/locale/*' \
        --dpkgopt='path-include=/usr/share/locale/locale.alias' \
        --dpkgopt='path-exclude=/usr/share/lintian/*' \
        --dpkgopt='path-exclude=/usr/share/linda/*' \
        --customize-hook="cp -a '$extra/.' \"\$1/\" && rm -f \"\$1\"/var/cache/apt/*.bin" \
        bookworm "$tar" \
        'deb http://deb.debian.org/debian bookworm main' \
        'deb http://deb.debian.org/debian bookworm-updates main' \
        'deb http://deb.debian.org/debian-security bookworm-security main' \
        >>"$logs/base.log" 2>&1 || return 1
    for tag in "$@"; do
        podman import --quiet \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'CMD ["bash"]' \
            --change "LABEL org.phantomgo.base=\"$local_base_recipe\"" \
            "$tar" "$(debian_tag "$tag")" >>"$logs/base.log" 2>&1 || { rm -f "$tar"; return 1; }
    done
    rm -f "$tar"
}

# True if TAG is in storage and is either a real (pulled) Debian image or a
# local one made by the current recipe.
base_usable() {
    local label
    podman image exists "$(debian_tag "$1")" || return 1
    label=$(podman image inspect --format '{{index .Labels "org.phantomgo.base"}}' "$(debian_tag "$1")")
    case $label in "" | "<no value>" | "$local_base_recipe") return 0 ;; *) return 1 ;; esac
}

# Sets base_how to how the base images were obtained; fails if they were not.
ensure_base_images() {
    local tag missing=() unpulled=() t0=$SECONDS
    : >"$logs/base.log"
    for tag in bookworm bookworm-slim; do base_usable "$tag" || missing+=("$tag"); done
    if [ ${#missing[@]} -eq 0 ]; then base_how="already in podman's storage"; return 0; fi
    for tag in "${missing[@]}"; do
        podman image exists "$(debian_tag "$tag")" ||
            timeout 60 podman pull --quiet "$(debian_tag "$tag")" >>"$logs/base.log" 2>&1 ||
            unpulled+=("$tag")
        base_usable "$tag" || unpulled+=("$tag")
    done
    mapfile -t unpulled < <(printf '%s\n' "${unpulled[@]}" | sort -u | sed '/^$/d')
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

compose_valid() {  # compose_valid FILE: normalized into $logs/FILE.log
    local out="$logs/${1##*/}.log"
    PHANTOMGO_BASE_URL=https://go.example.org docker-compose -f "$1" config >"$out" 2>&1 || {
        log_tail "$out" 10; return 1; }
}

compose_has() {  # compose_has FILE REGEX: the normalized compose file matches
    grep -Eq "$2" "$logs/${1##*/}.log" || { echo "   no line matching '$2' in $1"; return 1; }
}

build_image() {
    timeout 900 podman build --isolation=chroot --format docker --layers \
        --build-arg PHANTOMGO_COMMIT="$commit" -f docker/Dockerfile -t "$image" . \
        >"$logs/build.log" 2>&1 || { log_tail "$logs/build.log"; return 1; }
}

# The layer cache of both stages stays (the next build reuses the apt
# layers), but images that a newer build replaced would pile up with every
# source change: tag the build stage too (a cached no-op build), so what is
# still in use has a name, then drop the dangling rest. This machine's
# podman storage serves this check only.
drop_superseded_images() {
    podman build --isolation=chroot --format docker --layers --target build \
        --build-arg PHANTOMGO_COMMIT="$commit" -f docker/Dockerfile -t "$build_image" . \
        >>"$logs/build.log" 2>&1 &&
        podman image prune -f >>"$logs/build.log" 2>&1
}

inspect() { podman image inspect --format "$1" "$image" 2>/dev/null; }

config_is() {    # config_is TEMPLATE EXPECTED
    local got
    got=$(inspect "$1")
    [ "$got" = "$2" ] || { echo "   $1 is '$got', expected '$2'"; return 1; }
}

env_has() {      # env_has NAME=VALUE: the image sets exactly that (no grep -q:
                 # with pipefail its early exit would fail the pipe)
    inspect '{{range .Config.Env}}{{println .}}{{end}}' | grep -x "$1" >/dev/null
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
    [ "$(stat -c %u:%g "$root/data")" = 10001:10001 ] || { echo "   /data is not owned by 10001:10001"; ok=1; }
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

# ---- a real container, where podman can run one ---------------------------
# runc with explicit ulimits (crun refuses this machine's hybrid cgroups, and
# podman's default ulimits exceed its hard limits), on the host's network:
# the server listens on loopback only, on a free port.

container=phantomgo-check
volume=phantomgo-check-data
run_opts=(--network host --ulimit nofile=4096:4096 --ulimit nproc=8192:8192)

free_port() {
    node -e "const s = require('net').createServer().listen(0, '127.0.0.1',
             () => { console.log(s.address().port); s.close(); })"
}

remove_container() {
    podman rm -f "$container" >/dev/null 2>&1
    podman volume rm -f "$volume" >/dev/null 2>&1
}

# True once the engine's own HEALTHCHECK run passes (10 s at most).
becomes_healthy() {
    local tries=0
    until podman healthcheck run "$container" >>"$logs/run.log" 2>&1; do
        tries=$((tries + 1))
        [ $tries -lt 100 ] || { podman logs "$container" 2>&1 | tail -n 5 | sed 's/^/   | /'; return 1; }
        sleep 0.1
    done
}

volume_owned_by_server() {
    local owner
    owner=$(podman exec "$container" stat -c %u:%g /data 2>>"$logs/run.log")
    [ "$owner" = 10001:10001 ] || { echo "   /data in the volume is owned by '$owner'"; return 1; }
}

# `docker stop`: SIGTERM to PID 1, SIGKILL after 20 s; true on exit status 0.
stops_cleanly() {
    local t0 code
    t0=$(date +%s%N)
    podman stop -t 20 "$container" >>"$logs/run.log" 2>&1 || return 1
    code=$(podman inspect --format '{{.State.ExitCode}}' "$container")
    echo "   stopped in $(( ($(date +%s%N) - t0) / 1000000 )) ms with exit status $code"
    [ "$code" = 0 ]
}

run_container_checks() {
    local port
    : >"$logs/run.log"
    remove_container
    if ! podman --runtime runc run --rm "${run_opts[@]}" --entrypoint true "$image" \
            >>"$logs/run.log" 2>&1; then
        echo "docker: container checks skipped: podman cannot run a container here:" \
             "$(grep -m 1 -i error "$logs/run.log")"
        return 0
    fi
    check "\`docker run IMAGE --version\` answers through the ENTRYPOINT" \
        eval "podman --runtime runc run --rm ${run_opts[*]} $image --version 2>>$logs/run.log | grep '^phantomgo ' >/dev/null"
    port=$(free_port)
    if ! podman --runtime runc run -d --name "$container" "${run_opts[@]}" \
            -e PHANTOMGO_LISTEN=127.0.0.1 -e PHANTOMGO_PORT="$port" -v "$volume:/data" "$image" \
            >>"$logs/run.log" 2>&1; then
        fail "the image runs as a container (see $logs/run.log)"; remove_container; return
    fi
    check "started with the default CMD (serve), the engine's HEALTHCHECK turns healthy" becomes_healthy
    check "a named volume mounted at /data belongs to 10001:10001" volume_owned_by_server
    check "the database lives in the volume" podman exec "$container" test -s /data/phantomgo.db
    check "docker stop (SIGTERM to PID 1) ends it with exit status 0" stops_cleanly
    remove_container
}

# A chroot is not a system podman can work in (it needs its own mount
# namespace, storage and cgroups): debianutils' ischroot, or, where it cannot
# tell, no mount at "/" in our view of the mount table (a chroot hides it).
in_chroot() {
    ischroot 2>/dev/null && return 0
    ! awk '$5 == "/" { found = 1 } END { exit !found }' /proc/self/mountinfo 2>/dev/null
}

# ---- main ------------------------------------------------------------------

in_chroot && skip "running inside a chroot (make check-fresh): building and running images needs a real system"
install_tools
podman info >"$logs/podman-info.log" 2>&1 ||
    skip "podman cannot run here: $(grep -m 1 -i error "$logs/podman-info.log")"
podman_can_build ||
    skip "podman cannot build images here: $(grep -m 1 -i error "$logs/probe.log")"

ensure_lint_tool
check "docker/Dockerfile lint-clean (dockerfile-utils)" lint_clean docker/Dockerfile
check "docker/smoke.Dockerfile lint-clean (dockerfile-utils)" lint_clean docker/smoke.Dockerfile
for f in docker/compose.yaml docker/compose.proxy.yaml; do
    check "$f is valid (docker-compose config)" compose_valid "$f"
    check "$f keeps /data on the volume phantomgo-data and restarts unless stopped" \
        eval "compose_has $f '^ *- phantomgo-data:/data' && compose_has $f '^ *restart: unless-stopped'"
done
check "docker/compose.yaml publishes port 8080" compose_has docker/compose.yaml '^ *(- )?published: 8080'
PHANTOMGO_DB_PASSWORD=check check "docker/compose.cluster.yaml is valid (docker-compose config)" \
    compose_valid docker/compose.cluster.yaml
check "docker/compose.cluster.yaml runs PostgreSQL, three servers and HAProxy on 8080" \
    eval "compose_has docker/compose.cluster.yaml '^ *image: postgres:15' && compose_has docker/compose.cluster.yaml '^ *app3:' && compose_has docker/compose.cluster.yaml '^ *(- )?published: 8080'"
for f in docker/compose.yaml docker/compose.proxy.yaml docker/compose.cluster.yaml; do
    check "$f serves metrics on a private port it does not publish" \
        eval "compose_has $f '^ *PHANTOMGO_METRICS_LISTEN: ' && ! grep -Eq 'published: 9100' $logs/${f##*/}.log"
done
check "docker/haproxy.cfg is valid (haproxy -c)" haproxy -c -q -f docker/haproxy.cfg

base_how=''
if ensure_base_images; then pass "debian:bookworm and bookworm-slim base images ($base_how)"
else fail "debian:bookworm base images (see $logs/base.log)"; log_tail "$logs/base.log"; finish; fi

t0=$SECONDS
if build_image; then pass "image builds from docker/Dockerfile ($((SECONDS - t0)) s)"
else fail "image builds from docker/Dockerfile (see $logs/build.log)"; finish; fi
drop_superseded_images

check "runs as the non-root user phantomgo" config_is '{{.Config.User}}' phantomgo
check "declares VOLUME /data" config_is '{{range $k, $v := .Config.Volumes}}{{$k}} {{end}}' '/data '
check "exposes 8080/tcp" config_is '{{range $k, $v := .Config.ExposedPorts}}{{$k}} {{end}}' '8080/tcp '
check "stops with SIGTERM" config_is '{{.Config.StopSignal}}' SIGTERM
check "HEALTHCHECK is 'phantomgo healthcheck'" config_is '{{json .HealthCheck.Test}}' '["CMD","phantomgo","healthcheck"]'
check "database configured at /data/phantomgo.db" env_has PHANTOMGO_DB=/data/phantomgo.db
check "contains the binary, web/, static/, schema.sql, no compiler; /data owned by 10001:10001" contents_ok
check "image size at most $size_budget_mb MB" size_within_budget

t0=$SECONDS
if run_smoke_stage; then pass "smoke stage passes ($((SECONDS - t0)) s)"
else fail "smoke stage passes (see $logs/smoke.log)"; fi

run_container_checks

finish
