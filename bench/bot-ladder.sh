#!/usr/bin/env bash
# The computer player's strength ladder (`make bench-bot`):
#   9x9, komi 7.5: heuristic vs random, flat MC (10,000 playouts a
#   decision) vs heuristic, strong (ISMCTS + RAVE) vs flat MC at the same
#   time per decision;
#   capture Go on 9x9 (targets 1 and 5): strong vs heuristic;
#   13x13 and 19x19: strong vs flat at the same time per decision, and the
#   time each product level (easy, medium, strong) takes per decision there,
#   measured through `phantomgo gtp --level L` (docs/GTP.md) against flat
#   at 1,000 playouts;
#   on each size, flat and strong against the textbook reference (the
#   `reference` player, docs/BOT.md) at the same time per decision.
# "Same time" is set by measuring both players' playouts per second in a
# short calibration match per board size at the rung's budget (the tree's
# overhead grows with its size, so a smaller budget would flatter the
# strong player) and giving strong the number of playouts that costs what
# flat's cost (deterministic, unlike a clock, so a loaded machine slows
# both sides alike instead of distorting the match). The table's s/move
# columns show how close the two came.
# Game counts and budgets come from the environment:
#   LADDER_HR (heuristic-random, 200), LADDER_FH (flat-heuristic, 200),
#   LADDER_SF (strong-flat, 400), LADDER_C1, LADDER_C5 (capture Go, 200
#   each), LADDER_13, LADDER_19 (strong-flat on 13x13 and 19x19, 200 and
#   100), LADDER_LEVELS (games per level timing, 2; 0 skips it),
#   LADDER_FLAT13, LADDER_FLAT19 (flat's playouts a decision there: 5000,
#   3000), LADDER_REF9, LADDER_REF13, LADDER_REF19 (games of each player
#   against the reference: 200, 100, 50), LADDER_ONLY (a regular expression: play only the rows whose
#   name matches, e.g. 'capture|13x13'), LADDER_THREADS, LADDER_SEED,
#   LADDER_LOGS (the logs' directory, build/bench-logs).
# Prints one table: win rate with its 95% Wilson interval, Elo, games,
# time per move and playouts per second (each game runs on one core).
# A run can be resumed: a match whose log already holds the result of the
# same players over the same number of games is not played again (delete
# build/bench-logs/ladder-* to start afresh).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PHANTOMGO_BIN:-build/phantomgo}
hr=${LADDER_HR:-200} fh=${LADDER_FH:-200} sf=${LADDER_SF:-400}
c1=${LADDER_C1:-200} c5=${LADDER_C5:-200} g13=${LADDER_13:-200} g19=${LADDER_19:-100}
ref9=${LADDER_REF9:-200} ref13=${LADDER_REF13:-100} ref19=${LADDER_REF19:-50}
levels=${LADDER_LEVELS:-2} flat13=${LADDER_FLAT13:-5000} flat19=${LADDER_FLAT19:-3000}
only=${LADDER_ONLY:-.}
threads=${LADDER_THREADS:-$(nproc)} seed=${LADDER_SEED:-1}
logs=${LADDER_LOGS:-build/bench-logs}
mkdir -p "$logs"

arena() {   # arena LOG A B GAMES [ARENA OPTIONS]: runs a match, keeps its output in LOG
    local log=$1 a=$2 b=$3 n=$4; shift 4
    local a_word=${a//[[:space:]=]/_} b_word=${b//[[:space:]=]/_}
    if grep -qF "RESULT a=$a_word b=$b_word games=$n " "$log" 2>/dev/null; then
        echo "  (result kept from $log)" >&2
        return
    fi
    "$bin" arena --a "$a" --b "$b" --games "$n" --komi 7.5 \
        --threads "$threads" --seed "$seed" "$@" >"$log" 2>"$log.progress"
}
field() {   # field LOG KEY [SIDE]: a value from the RESULT lines of LOG
    local line
    if [ $# -eq 3 ]; then line=$(grep "^RESULT side=$3 " "$1"); else line=$(grep '^RESULT a=' "$1"); fi
    sed -E "s/.* $2=([^ ]+).*/\1/" <<<"$line"
}
calibrate() {   # calibrate SIZE FLAT_PLAYOUTS [PLAYER]: PLAYER's (strong's) playouts costing flat's
    local player=${3:-strong}
    local log="$logs/ladder-calibrate-$1${3:+-$3}.log"
    echo "calibrating $player against flat:$2 on ${1}x$1 (playouts per second)..." >&2
    arena "$log" "$player:$2" "flat:$2" "$((2 * threads))" --size "$1"
    awk -v s="$(field "$log" playouts_per_sec a)" -v f="$(field "$log" playouts_per_sec b)" \
        -v n="$2" 'BEGIN { printf "%d", n * s / f }'
}
reference_rows() {   # reference_rows SIZE FLAT_PLAYOUTS STRONG_PLAYOUTS GAMES: rows against the reference
    [ "$4" -gt 0 ] || return 0
    local ref
    ref=$(calibrate "$1" "$2" reference)
    rows+=("${1}x$1-ref|flat:$2|reference:$ref|$4|-|--size $1"
           "${1}x$1-ref|strong:$3|reference:$ref|$4|-|--size $1")
}
wanted() { [[ $1 =~ $only ]]; }

rows=()   # NAME|A|B|GAMES|TARGET|ARENA OPTIONS
if wanted 9x9 || wanted capture; then strong9=$(calibrate 9 10000); fi
if wanted 9x9; then
    rows+=("9x9|heuristic|random|$hr|>=95%|--size 9"
           "9x9|flat|heuristic|$fh|>=90%|--size 9"
           "9x9|strong:$strong9|flat|$sf|>=60%|--size 9")
    reference_rows 9 10000 "$strong9" "$ref9"
fi
if wanted capture; then
    rows+=("capture-1|strong:$strong9|heuristic|$c1|>=80%|--size 9 --capture 1"
           "capture-5|strong:$strong9|heuristic|$c5|>=80%|--size 9 --capture 5")
fi
if wanted 13x13; then
    strong13=$(calibrate 13 "$flat13")
    rows+=("13x13|strong:$strong13|flat:$flat13|$g13|>=60%|--size 13")
    reference_rows 13 "$flat13" "$strong13" "$ref13"
fi
if wanted 19x19; then
    strong19=$(calibrate 19 "$flat19")
    rows+=("19x19|strong:$strong19|flat:$flat19|$g19|-|--size 19")
    reference_rows 19 "$flat19" "$strong19" "$ref19"
fi

results=()
for row in "${rows[@]}"; do
    IFS='|' read -r name a b n target options <<<"$row"
    echo "$name: playing $a vs $b, $n games..." >&2
    log="$logs/ladder-$name-${a%%:*}-vs-${b%%:*}.log"
    read -r -a opts <<<"$options"
    arena "$log" "$a" "$b" "$n" "${opts[@]}"
    results+=("$name|$a|$b|$target|$log")
done

echo
echo "Phantom Go bot ladder: komi 7.5, olympiad rules, colours alternating, seed $seed"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $threads games at once"
printf '%-9s %-14s %-15s %6s %-26s %-18s %-7s %9s %9s %11s %11s\n' \
    rung player opponent games "win rate [95% Wilson]" "Elo [95%]" target "s/move" "opp s/mv" "attempts/mv" "playouts/s"
for r in "${results[@]}"; do
    IFS='|' read -r name a b target log <<<"$r"
    printf '%-9s %-14s %-15s %6s %5.1f%% [%5.1f%%, %5.1f%%]   %+5.0f [%+.0f, %+.0f] %-7s %9.4f %9.4f %11s %11s\n' \
        "$name" "$a" "$b" "$(field "$log" games)" \
        "$(awk -v x="$(field "$log" rate)" 'BEGIN{print 100*x}')" \
        "$(awk -v x="$(field "$log" low)" 'BEGIN{print 100*x}')" \
        "$(awk -v x="$(field "$log" high)" 'BEGIN{print 100*x}')" \
        "$(field "$log" elo)" "$(field "$log" elo_low)" "$(field "$log" elo_high)" "$target" \
        "$(field "$log" sec_per_move a)" "$(field "$log" sec_per_move b)" \
        "$(field "$log" attempts_per_move a)" \
        "$(field "$log" playouts_per_sec a)"
done
echo "(s/move: wall-clock seconds the player (opp: its opponent) thought per move, all the"
echo " attempts of the turn included; playouts/s on one core. Logs: $logs/ladder-*.log)"

# The product's levels on the big boards: seconds per decision through the
# GTP engine (the level's whole cost, as the server would pay it), against
# flat at 1,000 playouts: cheap beside the level, and it passes when the
# board is settled, so the game ends (the heuristic does not pass first,
# and a strong level unsure of its area does not either: on 19x19 their
# game went on for good).
if [ "$levels" -gt 0 ] && { wanted 13x13 || wanted 19x19; }; then
    echo
    echo "levels: seconds per decision (budget: easy 300 playouts, medium 3,000, strong 1 s)"
    printf '%-6s %-7s %6s %10s\n' size level games s/decision
    for size in 13 19; do
        wanted "${size}x$size" || continue
        for level in easy medium strong; do
            log="$logs/ladder-level-$size-$level.log"
            arena "$log" "gtp:$bin gtp --level $level" flat:1000 "$levels" --size "$size" --timeout 120
            printf '%-6s %-7s %6s %10.3f\n' "${size}x$size" "$level" "$levels" \
                "$(awk -v t="$(field "$log" sec_per_move a)" -v d="$(field "$log" attempts_per_move a)" \
                   'BEGIN { print (d > 0 ? t / d : 0) }')"
        done
    done
fi
