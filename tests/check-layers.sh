#!/usr/bin/env bash
# The layering rule as a test: the engine (board, referee, view) is pure C and
# may include no I/O, JSON, SQL, HTTP or thread headers; the bot may include
# the engine but never the server or storage. One check per rule and file.
cd "$(dirname "$0")/.."
pass=0 fail=0
check() {   # check FILE FORBIDDEN-REGEX WHY
    if grep -nE "$2" "$1" >/dev/null; then
        echo "FAIL $1: $3"; grep -nE "$2" "$1" | sed 's/^/    /'; fail=$((fail + 1))
    else pass=$((pass + 1)); fi
}
for f in src/engine/*.[ch]; do
    [ -e "$f" ] || continue
    check "$f" '#include *[<"](stdio|civetweb|cjson/cJSON|cJSON|sqlite3|pthread|unistd|fcntl|sys/)[^>"]*[>"]' "the engine does no I/O and knows no library"
    check "$f" '#include *"(server|store|wire|cli|bot)/' "the engine depends on nothing above it"
done
for f in src/bot/*.[ch]; do
    [ -e "$f" ] || continue
    check "$f" '#include *"(server|store)/|sqlite3|civetweb' "the bot sees only views, never storage or HTTP"
    check "$f" '#include *"engine/referee\.h"' "the bot never includes the referee (the truth)"
done
for f in src/*/*.[ch] src/*.[ch]; do
    case "$f" in src/store/*) continue ;; esac
    check "$f" '#include *[<"](sqlite3|libpq-fe)\.h[>"]' "only the store knows which database it runs on"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
