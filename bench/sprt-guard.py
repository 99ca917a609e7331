#!/usr/bin/env python3
"""sprt-guard.py: the error rates of the arena's SPRT, simulated.

    python3 bench/sprt-guard.py [SEED] [TESTS]     # defaults 1 and 300

The arena's sequential test (src/cli/arena_stats.c) estimates the variance
of a pair's score from the pairs themselves, with fishtest's
regularisation (an outcome never seen counts 0.001 times). Where the colour
decides most games, most pairs split one game each; a short run of split
pairs then has almost no variance and the LLR crosses a bound on no
evidence. This script plays many tests on invented pair outcomes (a share
of pairs split, the rest won or lost both in the proportion that gives the
true Elo difference) and prints how often each stopping rule accepts H1 and
H0 and how many pairs it takes: the rule "10 pairs" alone, and "10 pairs of
which 5 (or 10) were not split". The arena uses the second (its numbers are
in docs/BOT.md, "Testing a change: the SPRT"). The formula here is the same
as arena_stats.c's; the test for elo0 0 against elo1 30, alpha = beta = 0.05.
"""
import math
import random
import sys

PAIR_SCORES = [0, 0.25, 0.5, 0.75, 1]
ELO0, ELO1, ALPHA, BETA = 0, 30, 0.05, 0.05
MAX_PAIRS = 1000


def score_of_elo(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def llr(counts):
    reg = [c if c > 0 else 1e-3 for c in counts]
    n = sum(reg)
    mean = sum(c * x for c, x in zip(reg, PAIR_SCORES)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(reg, PAIR_SCORES)) / n
    s0, s1 = score_of_elo(ELO0), score_of_elo(ELO1)
    return sum(counts) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def pair_distribution(elo, split):
    """Pairs split with probability `split`, the others won by A with the
    share that makes A's expected score that of `elo`."""
    won = (score_of_elo(elo) - 0.5 * split) / (1 - split)
    return [(1 - split) * (1 - won), 0, split, 0, (1 - split) * won]


def draw(dist):
    r = random.random()
    for k, p in enumerate(dist):
        if r < p:
            return k
        r -= p
    return len(dist) - 1


def one_test(dist, min_unsplit):
    lower, upper = math.log(BETA / (1 - ALPHA)), math.log((1 - BETA) / ALPHA)
    counts = [0] * 5
    for n in range(1, MAX_PAIRS + 1):
        counts[draw(dist)] += 1
        value = llr(counts)
        unsplit = n - counts[2]
        if (value >= upper or value <= lower) and n >= 10 and unsplit >= min_unsplit:
            return ("H1" if value >= upper else "H0"), n
    return "none", MAX_PAIRS


def main():
    random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
    tests = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    print("| pairs split | true Elo | rule | H1 | H0 | none | mean pairs |")
    print("|---|---|---|---|---|---|---|")
    for split in (0.5, 0.9):
        for elo in (ELO0, ELO1):
            dist = pair_distribution(elo, split)
            for min_unsplit in (0, 5, 10):
                results = [one_test(dist, min_unsplit) for _ in range(tests)]
                share = {v: sum(1 for r, _ in results if r == v) / tests for v in ("H1", "H0", "none")}
                mean_pairs = sum(n for _, n in results) / tests
                rule = "10 pairs" + (f", {min_unsplit} unsplit" if min_unsplit else "")
                print(f"| {split:.0%} | {elo:+d} | {rule} | {share['H1']:.3f} | {share['H0']:.3f} "
                      f"| {share['none']:.3f} | {mean_pairs:.0f} |", flush=True)


if __name__ == "__main__":
    main()
