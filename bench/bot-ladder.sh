#!/usr/bin/env bash
# The computer player's strength ladder on 9x9, komi 7.5 (`make bench-bot`):
#   heuristic vs random, flat MC (10,000 playouts a decision) vs heuristic,
#   strong (ISMCTS + RAVE) vs flat MC at the same time per decision.
# "Same time" is set by measuring both players' playouts per second in a
# short calibration match at the ladder's budget (the tree's overhead grows
# with its size, so a smaller budget would flatter the strong player) and
# giving strong the number of playouts that costs what flat's 10,000 cost
# (deterministic, unlike a clock). The table's s/move column shows how
# close the two came.
# Game counts come from the environment (defaults are the issue's: at least
# 400 games for strong vs flat, which takes hours on two cores):
#   LADDER_HR (heuristic-random), LADDER_FH (flat-heuristic),
#   LADDER_SF (strong-flat), LADDER_THREADS, LADDER_SEED.
# Prints one table: win rate with its 95% Wilson interval, Elo, games,
# time per move and playouts per second (each game runs on one core).
# A run can be resumed: a match whose log already holds the result of the
# same players over the same number of games is not played again (delete
# build/bench-logs/ladder-* to start afresh).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${PHANTOMGO_BIN:-build/phantomgo}
hr=${LADDER_HR:-200} fh=${LADDER_FH:-200} sf=${LADDER_SF:-400}
threads=${LADDER_THREADS:-$(nproc)} seed=${LADDER_SEED:-1}
logs=build/bench-logs
mkdir -p "$logs"

arena() {   # arena LOG A B GAMES: runs a match, keeps its output in LOG
    local log=$1; shift
    if grep -q "^RESULT a=$1 b=$2 games=$3 " "$log" 2>/dev/null; then
        echo "  (result kept from $log)" >&2
        return
    fi
    "$bin" arena --a "$1" --b "$2" --games "$3" --size 9 --komi 7.5 \
        --threads "$threads" --seed "$seed" >"$log" 2>"$log.progress"
}
field() {   # field LOG KEY [SIDE]: a value from the RESULT lines of LOG
    local line
    if [ $# -eq 3 ]; then line=$(grep "^RESULT side=$3 " "$1"); else line=$(grep '^RESULT a=' "$1"); fi
    sed -E "s/.* $2=([^ ]+).*/\1/" <<<"$line"
}

echo "calibrating strong against flat (playouts per second)..." >&2
arena "$logs/ladder-calibrate.log" strong flat "$((2 * threads))"
pps_strong=$(field "$logs/ladder-calibrate.log" playouts_per_sec a)
pps_flat=$(field "$logs/ladder-calibrate.log" playouts_per_sec b)
strong_playouts=$(awk -v s="$pps_strong" -v f="$pps_flat" 'BEGIN { printf "%d", 10000 * s / f }')
echo "strong gets $strong_playouts playouts a decision (flat: 10000)" >&2

rows=(
    "heuristic random $hr >=95%"
    "flat heuristic $fh >=90%"
    "strong:$strong_playouts flat $sf >=60%"
)
results=()
for row in "${rows[@]}"; do
    read -r a b n target <<<"$row"
    echo "playing $a vs $b, $n games..." >&2
    log="$logs/ladder-${a%%:*}-vs-$b.log"
    arena "$log" "$a" "$b" "$n"
    results+=("$a|$b|$target|$log")
done

echo
echo "Phantom Go bot ladder: 9x9, komi 7.5, olympiad rules, colours alternating, seed $seed"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $threads games at once"
printf '%-18s %-10s %6s %-26s %-18s %-7s %9s %9s %11s %11s\n' \
    player opponent games "win rate [95% Wilson]" "Elo [95%]" target "s/move" "opp s/mv" "attempts/mv" "playouts/s"
for r in "${results[@]}"; do
    IFS='|' read -r a b target log <<<"$r"
    printf '%-18s %-10s %6s %5.1f%% [%5.1f%%, %5.1f%%]   %+5.0f [%+.0f, %+.0f] %-7s %9.4f %9.4f %11s %11s\n' \
        "$a" "$b" "$(field "$log" games)" \
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
