#!/usr/bin/env bash
# `make bench-bot BASE=<commit or binary>`: is the working tree's computer
# player stronger than a base? A sequential probability ratio test, as
# chess engines test every change (Stockfish's fishtest): the working
# tree's player (A, its binary's `phantomgo gtp --player`, docs/GTP.md)
# plays the base's (B, the same from the base binary) at the same time per
# decision, both behind the same protocol in processes of their own (an
# in-process A against a GTP B measured lopsided on a loaded machine even
# with the same player on both sides), in pairs of games from the same seed and random opening with
# the colours swapped, until the pentanomial log-likelihood ratio crosses
# a bound or the game cap is reached (phantomgo arena --sprt,
# src/cli/arena_stats.h). It prints games, score, Elo with its interval,
# the LLR and the verdict.
#
# BASE is a saved binary (an executable path) or anything git names as a
# commit (a hash, a tag, HEAD~1...); a commit is exported and built once
# into build/sprt-base/<hash>/ and reused by later runs.
# Settings from the environment (defaults in brackets):
#   SPRT_MS [200]        milliseconds per decision, both players
#   SPRT_A, SPRT_B       the players [strong:${SPRT_MS}ms each]; e.g.
#                        SPRT_A=reference:200ms to test the reference player
#   SPRT_ELO0, SPRT_ELO1 [0, 10]   the hypotheses (logistic Elo)
#   SPRT_ALPHA, SPRT_BETA [0.05]   the error rates
#   SPRT_GAMES [2000]    the cap on games
#   SPRT_SIZE [9], SPRT_KOMI [7.5], SPRT_OPENING [2] random opening plies
#   SPRT_THREADS [1]     games at once (a game keeps one core busy: its
#                        two players think in turn, never at once)
#   SPRT_SEED [1], SPRT_ARGS   more arena options (e.g. "--capture 1")
# The log goes to build/bench-logs/sprt-<time>.log, progress to .progress.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${BASE:?"set BASE to a commit or a phantomgo binary"}
ms=${SPRT_MS:-200}
a=${SPRT_A:-strong:${ms}ms} b=${SPRT_B:-strong:${ms}ms}
bin=${PHANTOMGO_BIN:-build/phantomgo}

if [ -x "$base" ] && [ -f "$base" ]; then
    base_bin=$(realpath "$base")
else
    sha=$(git rev-parse --verify "$base^{commit}")
    dir=$PWD/build/sprt-base/$sha
    base_bin=$dir/build/phantomgo
    if [ ! -x "$base_bin" ]; then
        echo "sprt: building the base $sha in $dir..." >&2
        rm -rf "$dir" && mkdir -p "$dir/src"
        git archive "$sha" | tar -x -C "$dir/src"
        nice -n 10 make -C "$dir/src" -j"$(nproc)" O="$dir/build" "$dir/build/phantomgo" >"$dir/build.log" 2>&1 ||
            { echo "sprt: the base does not build, see $dir/build.log" >&2; exit 1; }
    fi
fi

logs=build/bench-logs
mkdir -p "$logs"
log=$logs/sprt-$(date -u +%Y%m%dT%H%M%S).log
echo "sprt: A=$a (working tree) vs B=$b ($base_bin), ${SPRT_SIZE:-9}x${SPRT_SIZE:-9}, log $log" >&2
# shellcheck disable=SC2086
nice -n 10 "$bin" arena --a "gtp:$(realpath "$bin") gtp --player $a" --b "gtp:$base_bin gtp --player $b" \
    --games "${SPRT_GAMES:-2000}" --size "${SPRT_SIZE:-9}" --komi "${SPRT_KOMI:-7.5}" \
    --opening "${SPRT_OPENING:-2}" --threads "${SPRT_THREADS:-1}" --seed "${SPRT_SEED:-1}" \
    --sprt "${SPRT_ELO0:-0},${SPRT_ELO1:-10}" --alpha "${SPRT_ALPHA:-0.05}" --beta "${SPRT_BETA:-0.05}" \
    ${SPRT_ARGS:-} >"$log" 2> >(tee "$log.progress" | grep --line-buffered '^arena: pair\|protocol' >&2)
cat "$log"
