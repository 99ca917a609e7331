#!/usr/bin/env bash
# The layering rules as a test, read from what the compiler saw.
#
# Every object's .d file (written by -MMD during the build) lists every
# project header its translation unit pulled in, directly or through other
# headers. Each file of src/ belongs to one module (MODULES below: path
# globs, first match wins, so a renamed file only needs its glob); a module
# may see only the modules its rule lists (RULES), and some headers are
# forbidden outright (FORBIDDEN: the referee's truth). System headers are
# not in .d files, so the libraries each layer may include are checked on
# the direct #include lines (LIBRARIES). At the end the module graph is
# printed: for each module, the modules its files see.
#
# Usage: tests/check-layers.sh [BUILD_DIR]   (default build; run `make` first)
set -uo pipefail
cd "$(dirname "$0")/.."
objdir=${1:-${O:-build}}/obj

# module   files (globs)
MODULES='
engine   src/engine/*
util     src/util/* src/version.h
bot      src/bot/*
wire     src/wire/*
store    src/store/*
push     src/push/*
games    src/games/*
http     src/http/*
config   src/server/config.*
seat     src/cli/gtp_engine.* src/cli/gtp_report.* src/cli/game_seed.*
main     src/main.c src/commands.h src/cli/* src/server/serve_cmd.c
'
# module   modules its files may see ("*": any)
RULES='
engine   engine util
util     util
bot      bot engine util
wire     wire engine util
store    store util
push     push store util
games    games push store wire bot engine util
http     http games config push store wire engine util
config   config util
seat     *
main     *
'
# module   project header it must not see, even through another header
FORBIDDEN='
bot      src/engine/referee.h
wire     src/engine/referee.h
seat     src/engine/referee.h
'
# module   system headers it must not include (extended regex on the name)
LIBRARIES='
engine   ^(stdio|civetweb|cjson/|cJSON|sqlite3|libpq|pthread|unistd|fcntl|time|sys/)
util     ^(civetweb|cjson/|cJSON|sqlite3|libpq)
bot      ^(civetweb|cjson/|cJSON|sqlite3|libpq|unistd|fcntl|sys/)
wire     ^(civetweb|sqlite3|libpq|pthread|unistd|fcntl|sys/)
store    ^(civetweb|cjson/|cJSON)
push     ^(civetweb|cjson/|cJSON|sqlite3|libpq)
config   ^(civetweb|cjson/|cJSON|sqlite3|libpq)
games    ^(civetweb|cjson/|cJSON|sqlite3|libpq)
http     ^(sqlite3|libpq)
'

pass=0 fail=0
failed() { echo "FAIL $*"; fail=$((fail + 1)); }

module_of() {   # module_of PATH -> module name, or nothing
    local mod globs glob
    while read -r mod globs; do
        [ -n "$mod" ] || continue
        for glob in $globs; do
            # shellcheck disable=SC2053
            if [[ $1 == $glob ]]; then echo "$mod"; return; fi
        done
    done <<<"$MODULES"
}

# The tables as arrays by module.
declare -A allowed forbid libs
while read -r m rest; do [ -n "$m" ] && allowed[$m]=" $rest "; done <<<"$RULES"
while read -r m rest; do [ -n "$m" ] && forbid[$m]="$rest"; done <<<"$FORBIDDEN"
while read -r m rest; do [ -n "$m" ] && libs[$m]="$rest"; done <<<"$LIBRARIES"
modules=$(awk 'NF { print $1 }' <<<"$MODULES")

# Every file of src/ belongs to a module.
declare -A mod_of
for f in $(find src -name '*.[ch]' | sort); do
    m=$(module_of "$f")
    if [ -z "$m" ]; then failed "$f belongs to no module: add it to MODULES in $0"; continue; fi
    mod_of[$f]=$m
done

# The include graph from the .d files: for each source, what it saw.
declare -A sees   # "from to" -> count of files of `from` that see `to`
for src in $(find src -name '*.c' | sort); do
    from=${mod_of[$src]:-}
    [ -n "$from" ] || continue
    dep="$objdir/${src%.c}.d"
    if [ ! -f "$dep" ]; then failed "$dep missing: build first (make)"; continue; fi
    # The first rule of a .d file: "obj: src hdr hdr ...", continued by '\'.
    headers=$(sed -n '1,/[^\\]$/p' "$dep" | tr -d '\\' | tr ' ' '\n' | grep -E '^src/.*\.h$' | sort -u)
    declare -A seen_here=()
    for h in $headers; do
        to=${mod_of[$h]:-}
        [ -n "$to" ] || continue
        seen_here[$to]=1
        for bad in ${forbid[$from]:-}; do
            if [ "$h" = "$bad" ]; then failed "$src ($from) sees $h"; else pass=$((pass + 1)); fi
        done
    done
    ok=${allowed[$from]:-}
    for to in "${!seen_here[@]}"; do
        sees["$from $to"]=$(( ${sees["$from $to"]:-0} + 1 ))
        if [ "$ok" = " * " ] || [[ $ok == *" $to "* ]]; then pass=$((pass + 1))
        else failed "$src ($from) sees module $to:$(for h in $headers; do [ "${mod_of[$h]:-}" = "$to" ] && printf ' %s' "$h"; done)"; fi
    done
    unset seen_here
done

# Libraries, on the direct includes of every file.
for f in "${!mod_of[@]}"; do
    regex=${libs[${mod_of[$f]}]:-}
    [ -n "$regex" ] || continue
    bad=$(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<([^>]+)>.*/\1/p' "$f" | grep -E "$regex")
    if [ -n "$bad" ]; then failed "$f (${mod_of[$f]}) includes <$(echo $bad | tr ' ' ',')>"; else pass=$((pass + 1)); fi
done

echo "include graph (from $objdir/**/*.d; module: the modules its files see, with how many files see each):"
for from in $modules; do
    line=""
    for to in $modules; do
        [ "$to" != "$from" ] && [ -n "${sees["$from $to"]:-}" ] && line+=" $to(${sees["$from $to"]})"
    done
    printf '  %-8s ->%s\n' "$from" "${line:- (nothing)}"
done
# Two modules that see each other form a circle.
for a in $modules; do
    for b in $modules; do
        if [[ $a < $b ]] && [ -n "${sees["$a $b"]:-}" ] && [ -n "${sees["$b $a"]:-}" ]; then
            failed "modules $a and $b see each other"
        fi
    done
done
# JSON text becomes cJSON values only in wire/json_parse.c, which refuses
# nesting that would overflow a worker's stack and strings cut at U+0000:
# a cJSON_Parse call anywhere else in src/ would bypass both.
stray=$(grep -rln 'cJSON_Parse' src --include='*.c' | grep -v '^src/wire/json_parse\.c$')
if [ -z "$stray" ]; then pass=$((pass + 1))
else failed "cJSON_Parse outside src/wire/json_parse.c (use json_parse()): $(echo $stray)"; fi
# The games layer hands out C values and text src/wire renders: not one
# cJSON value in src/games (JSON trees are wire's and http's business).
trees=$(grep -rlw 'cJSON' src/games)
if [ -z "$trees" ]; then pass=$((pass + 1))
else failed "cJSON in src/games (render through src/wire): $(echo $trees)"; fi
# Within the store, only a backend knows its database (store_backend.h):
# sqlite3.h in the SQLite backend's files (and the file-only backup and
# benchmark baseline), libpq-fe.h in the PostgreSQL backend's, and only the
# chooser (store_open.c) names a backend's table.
stray=$(grep -ln '<sqlite3\.h>' src/store/*.[ch] |
    grep -Ev '^src/store/(store_sqlite[a-z_]*|store_backup|bench_baseline)\.[ch]$'
    grep -ln '<libpq-fe\.h>' src/store/*.[ch] | grep -Ev '^src/store/store_pg[a-z_]*\.[ch]$'
    grep -ln 'store_\(sqlite\|pg\)_backend\b' src/store/*.c |
    grep -Ev '^src/store/(store_open|store_sqlite|store_pg_backend)\.c$')
if [ -z "$stray" ]; then pass=$((pass + 1))
else failed "a store file outside a backend knows its database: $(echo $stray)"; fi
# Within games, http and store, no circle among a folder's files either,
# in the include graph or in the graph of calls between objects
# (scripts/file-circles.py).
if circles=$(python3 scripts/file-circles.py "${objdir%/obj}" src/games src/http src/store 2>&1); then pass=$((pass + 1))
else failed "circles among the files of a folder: $(grep CIRCLE <<<"$circles" | tr '\n' ' ')"; fi
echo "layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
