# Reading the suites' logs, for tests/run-all.sh (sourced; it sets $logs):
# the counts a log reports, the failures it names, and the closing summary.
# Kept apart from the runner so that tests/cli/suites.test.mjs can feed
# them logs of its own.

count_from_log() {   # prints "pass fail" read from a suite log
    local log=$1 p f line
    line=$(grep -E '^([A-Za-z-]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(sed -E 's/^([A-Za-z-]+: )?([0-9]+) passed.*/\2/' <<<"$line")
        f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
        echo "$p $f"; return
    fi
    p=$(grep -E '^# pass [0-9]+' "$log" | tail -n 1 | awk '{print $3}')
    f=$(grep -E '^# fail [0-9]+' "$log" | tail -n 1 | awk '{print $3}')
    if [ -n "$p" ] && [ -n "$f" ]; then echo "$p $f"; else echo ""; fi
}

# The failures a log names: the C harness's FAIL and check lines, and each
# of node's top-level "not ok" with the first lines of its YAML block (the
# error, expected and actual, where it failed), so that CI's printout alone
# says why.
failures_of() {
    awk '
        /^(FAIL |    .*check failed)/ { print; next }
        /^not ok / { print; block = 1; kept = 0; next }
        block && /^  \.\.\.$/ { block = 0; next }
        block && /^  ---$/ { next }
        block && kept < 14 { print; kept++ }
    ' "$1"
}

# The names of the failed tests a log holds (node's top-level "not ok"
# lines, the C harness's FAIL lines), at most five.
failed_names() {
    grep -E '^(not ok |FAIL )' "$1" | head -n 5
}

# Sums the verdicts of the suites that started, in the order NAME...,
# repeats the skip reasons and the failed tests' names and prints the
# closing line; fails if anything failed. A suite that started and left no
# verdict counts one failure. The names come again at the end because CI
# shows only the last lines of a run, where a failure's report printed
# with its suite may no longer be.
summarize() {
    local name kind a b total_pass=0 total_fail=0 skipped=() failed=()
    for name in "$@"; do
        [ -f "$logs/$name.started" ] || continue
        if [ ! -f "$logs/$name.verdict" ]; then
            echo "   $name: no verdict (the lane running it died)"
            total_fail=$((total_fail + 1)); continue
        fi
        read -r kind a b <"$logs/$name.verdict"
        if [ "$kind" = skip ]; then skipped+=("$name: $(cut -d' ' -f2- "$logs/$name.verdict")"); continue; fi
        total_pass=$((total_pass + a)); total_fail=$((total_fail + b))
        if [ "$b" -gt 0 ]; then
            while IFS= read -r line; do failed+=("$name: $line"); done < <(failed_names "$logs/$name.log")
        fi
    done
    for s in "${skipped[@]}"; do echo "skipped (counted neither passed nor failed): $s"; done
    for f in "${failed[@]}"; do echo "failed in $f"; done
    echo "$total_pass passed, $total_fail failed"
    [ "$total_fail" -eq 0 ]
}
