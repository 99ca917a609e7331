#!/usr/bin/env python3
"""bot-prior.py: the belief's prior table (src/bot/belief.c) from game records.

    python3 bench/bot-prior.py DIR...     # SGF files written by `phantomgo arena --sgf DIR`

For every position of every game and for each colour c, it counts how many of
the points c's opponent (the viewer) cannot see as its own (every point not
holding a viewer's stone) hold a stone of c, by three things the viewer
knows: the game's phase as the sampler sees it (how many stones c has on the
board, as a share of the points: under 12%, under 30%, the rest), the
point's distance to the edge (its line, 0 = the edge, capped at 4) and its
distance to the viewer's nearest stone (1 = touching, capped at 4). The
density is the probability that a hidden stone sits on such a point, which
is what the sampler's prior weighs; it prints the table as C, to paste into
belief.c. Torus games are skipped (no edge).
"""
import collections
import glob
import os
import re
import sys

PHASES = (0.12, 0.30)  # the shares of the board that end the first two phases
MAX_LINE = 4
MAX_DISTANCE = 4


def neighbours(p, n):
    x, y = p
    for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
        if 0 <= q[0] < n and 0 <= q[1] < n:
            yield q


def remove_dead_around(board, p, n):
    """Removes the groups of the other colour next to p left without a liberty."""
    other = "W" if board[p] == "B" else "B"
    for q in neighbours(p, n):
        if board.get(q) != other:
            continue
        group, stack, free = {q}, [q], False
        while stack:
            a = stack.pop()
            for b in neighbours(a, n):
                if b not in board:
                    free = True
                elif board[b] == other and b not in group:
                    group.add(b)
                    stack.append(b)
        if not free:
            for g in group:
                del board[g]


def phase_of(stones, points):
    share = stones / points
    return next((i for i, end in enumerate(PHASES) if share < end), len(PHASES))


def count_game(text, held, seen):
    n = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    if "PGTORUS[true]" in text:
        return
    line = lambda p: min(p[0], p[1], n - 1 - p[0], n - 1 - p[1], MAX_LINE)
    board = {}
    for colour, move in re.findall(r";([BW])\[([a-z]*)\]", text):
        if move:
            p = (ord(move[0]) - 97, ord(move[1]) - 97)
            board[p] = colour
            remove_dead_around(board, p, n)
        for c in "BW":
            stones = sum(1 for v in board.values() if v == c)
            phase = phase_of(stones, n * n)
            viewer = [q for q, v in board.items() if v != c]
            for x in range(n):
                for y in range(n):
                    v = board.get((x, y))
                    if v is not None and v != c:
                        continue
                    d = min([abs(x - q[0]) + abs(y - q[1]) for q in viewer] or [MAX_DISTANCE])
                    key = phase, line((x, y)), min(d, MAX_DISTANCE)
                    seen[key] += 1
                    held[key] += v == c


def main():
    held, seen = collections.Counter(), collections.Counter()
    files = [f for d in sys.argv[1:] for f in sorted(glob.glob(os.path.join(d, "*.sgf")))]
    if not files:
        sys.exit("usage: bot-prior.py DIR... (directories of .sgf files)")
    for f in files:
        with open(f, encoding="utf-8") as fh:
            count_game(fh.read(), held, seen)
    print(f"/* from {len(files)} games, {sum(seen.values())} point observations;")
    print(" * [phase][line][distance to our nearest stone - 1] */")
    for phase in range(len(PHASES) + 1):
        print("    {")
        for l in range(MAX_LINE + 1):
            cells = []
            for d in range(1, MAX_DISTANCE + 1):
                k = phase, l, d
                # a cell seen too rarely to count takes the last measured
                # value of its row (the rare cells are the far ones)
                cells.append(held[k] / seen[k] if seen[k] >= 50 else None)
            known = [c for c in cells if c is not None] or [0.01]
            cells = [max(c if c is not None else known[-1], 0.005) for c in cells]
            print("        { " + ", ".join(f"{c:.3f}" for c in cells) + " },")
        print("    },")


if __name__ == "__main__":
    main()
