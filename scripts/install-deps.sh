#!/usr/bin/env bash
# Installs the Debian (and, for tests, npm) packages a goal needs, and only
# those that are missing, so `make run` and `make test` work on a fresh
# Debian 12 machine as root and cost nothing when everything is present.
#
#   scripts/install-deps.sh build   compiler and the three libraries
#   scripts/install-deps.sh test    build + what every test suite needs
#   scripts/install-deps.sh bench   build + load generator, reference server, Node.js
set -euo pipefail
cd "$(dirname "$0")/.."

build_pkgs=(gcc make pkg-config libcivetweb-dev libcjson-dev libsqlite3-dev libpq-dev libqrencode-dev libssl-dev sqlite3 ca-certificates)
test_pkgs=(clang libclang-rt-14-dev chromium fonts-noto-cjk curl procps postgresql haproxy)
bench_pkgs=(wrk nginx-light valgrind postgresql haproxy)

goal=${1:-build}
case "$goal" in
  build) want=("${build_pkgs[@]}") ;;
  test)  want=("${build_pkgs[@]}" "${test_pkgs[@]}") ;;
  bench) want=("${build_pkgs[@]}" "${bench_pkgs[@]}") ;;
  *) echo "usage: $0 build|test|bench" >&2; exit 2 ;;
esac
# Node.js: any recent one on PATH will do; Debian's otherwise.
if [ "$goal" != build ] && ! command -v npm >/dev/null 2>&1; then want+=(nodejs npm); fi

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "missing Debian packages: ${missing[*]} (run as root, or apt-get install them)" >&2
    exit 1
  fi
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$goal" = test ]; then
  # npm packages of the test suites (playwright-core drives Debian's chromium).
  if [ ! -d tests/node_modules ] || [ tests/package-lock.json -nt tests/node_modules/.package-lock.json ]; then
    (cd tests && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
