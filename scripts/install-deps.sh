#!/usr/bin/env bash
# Installs the Debian (and, for tests and benches, npm) packages a goal
# needs, and only those that are missing, so `make run` and `make test`
# work on a fresh Debian 12 or 13 machine as root and cost nothing when
# everything is present.
#
#   scripts/install-deps.sh build   compiler and the libraries
#   scripts/install-deps.sh test    build + what every test suite needs
#   scripts/install-deps.sh bench   build + load generator, reference servers,
#                                   Node.js and Chromium with playwright-core
#   scripts/install-deps.sh check   installs nothing: fails with one line
#                                   naming the packages the compiler needs
#                                   and lacks (the Makefile asks this first)
#
# No package is pinned to a major version: the fuzzers use the release's
# default clang (Debian's `clang`, 14 on Debian 12, 19 on Debian 13), and
# its libFuzzer runtime, libclang-rt-N-dev, is chosen once clang is there.
set -euo pipefail
cd "$(dirname "$0")/.."

# What the compiler reads (headers, libraries); then what running needs.
compile_pkgs=(gcc libc6-dev make libcivetweb-dev libcjson-dev libsqlite3-dev libpq-dev libqrencode-dev libunistring-dev libssl-dev libcurl4-openssl-dev)
# What the running server serves from Debian: the QR code library the
# browser draws the device link's code with (/vendor/qrcode.js).
runtime_pkgs=(node-qrcode-generator)
build_pkgs=("${compile_pkgs[@]}" pkg-config sqlite3 ca-certificates "${runtime_pkgs[@]}")
# python3: the layers suite's circle check; e2fsprogs and mount: the
# hardening suite's read-only filesystem (Debian 13's minimal system has no
# mkfs.ext4); dbus-daemon, python3-dbus and python3-gi: the browser suite's
# desktop notification server (tests/e2e/notification-server.py), through
# which a test clicks a push notification as a desktop would.
test_pkgs=(clang chromium fonts-noto-cjk curl procps postgresql haproxy python3 e2fsprogs mount
           dbus-daemon python3-dbus python3-gi)
bench_pkgs=(wrk nginx-light valgrind postgresql haproxy chromium)

missing_of() {   # missing_of PKG...: prints those not installed
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

install() {      # install PKG...: apt-get installs those not installed
  local missing
  mapfile -t missing < <(missing_of "$@")
  [ ${#missing[@]} -gt 0 ] || return 0
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${missing[*]} (run as root, or apt-get install them)" >&2
    exit 1
  fi
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

goal=${1:-build}
case "$goal" in
  build) want=("${build_pkgs[@]}") ;;
  test)  want=("${build_pkgs[@]}" "${test_pkgs[@]}") ;;
  bench) want=("${build_pkgs[@]}" "${bench_pkgs[@]}") ;;
  check)
    command -v dpkg-query >/dev/null || exit 0   # not Debian: let the compiler speak
    mapfile -t missing < <(missing_of "${compile_pkgs[@]}")
    [ ${#missing[@]} -eq 0 ] && exit 0
    echo "missing Debian packages: ${missing[*]}; \`make run\` or \`make deps\` (as root) installs them" >&2
    exit 1 ;;
  *) echo "usage: $0 build|test|bench|check" >&2; exit 2 ;;
esac
# Node.js: any recent one on PATH will do; Debian's otherwise.
if [ "$goal" != build ] && ! command -v npm >/dev/null 2>&1; then want+=(nodejs npm); fi
install "${want[@]}"

# The fuzzers' runtime (libFuzzer and the sanitizers) of the installed
# default clang, whatever its major version.
if [ "$goal" = test ]; then
  clang_major=$(clang -dumpversion | cut -d. -f1)
  install "libclang-rt-$clang_major-dev"
fi

if [ "$goal" = test ] || [ "$goal" = bench ]; then
  # npm packages of the test suites (playwright-core drives Debian's
  # chromium), which bench/pages.mjs uses too.
  if [ ! -d tests/node_modules ] || [ tests/package-lock.json -nt tests/node_modules/.package-lock.json ]; then
    (cd tests && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
