#!/bin/sh
# Regenerates the two short cues of the game page with sox (Debian package
# "sox"): turn.wav, a soft rising two-note chime for "your turn", and
# capture.wav, two quick wooden clacks for "stones were captured". They are
# synthesised rather than recorded so that their origin and licence are plain.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fmt="-r 22050 -c 1 -b 16"
sox -n $fmt "$tmp/a.wav" synth 0.14 sine 660 fade q 0.005 0.14 0.1 vol 0.35
sox -n $fmt "$tmp/b.wav" synth 0.22 sine 990 fade q 0.005 0.22 0.18 vol 0.3
sox "$tmp/a.wav" "$tmp/b.wav" turn.wav
sox -n $fmt "$tmp/c.wav" synth 0.05 sine 420 synth 0.05 brownnoise mix fade q 0.002 0.05 0.045 vol 0.7
sox -n $fmt "$tmp/gap.wav" trim 0 0.07
sox "$tmp/c.wav" "$tmp/gap.wav" "$tmp/c.wav" capture.wav
