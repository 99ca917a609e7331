/* policy: the search players' playout policy (see policy.h). */
#include "bot/policy.h"

#include <stddef.h>

/* Percent of the moves where a capture or an atari escape next to the last
 * move is played when there is one. */
#define POLICY_TACTICS_PCT 90
/* A move that leaves a group of at least this many stones in atari is not
 * a random move (a one-stone throw-in is). */
#define POLICY_SELF_ATARI_STONES 2

static int empty_neighbours(const board *b, point p) { return (b->nbc[p] >> (8 * EMPTY)) & 0xff; }

/* The one liberty of the group at stone p, known to be in atari. */
static point atari_liberty(const board *b, point p) {
    const board_group *g = &b->grp[b->group[p]];
    return (point)(g->lib_sum / g->libs);
}

/* Adds q to the set lib[0..*n-1] (at most 2 kept). */
static void lib_note(point *lib, int *n, point q) {
    if (*n > 0 && lib[0] == q) return;
    if (*n > 1 && lib[1] == q) return;
    if (*n < 2) lib[(*n)++] = q;
}

/* Would colour c at the empty point p (legal) have at least two liberties,
 * and how many stones would its group have? Captures count as liberties
 * (the captured stones' points are freed). Walks the adjacent groups of c
 * only when p has fewer than two empty neighbours. */
static bool safe_after(const board *b, int c, point p, int *stones_out) {
    point lib[2];
    int n = 0, stones = 1;
    point seen[4];
    int n_seen = 0;
    foreach_neighbour(b->geo, p, q) {
        int qc = b->color[q];
        if (qc == EMPTY) lib_note(lib, &n, q);
        else if (qc == color_other(c) && board_in_atari(b, q)) n = 2; /* a capture */
    }
    foreach_neighbour(b->geo, p, q) {
        if (b->color[q] != c) continue;
        point root = b->group[q];
        bool dup = false;
        for (int i = 0; i < n_seen; i++) dup |= seen[i] == root;
        if (dup) continue;
        seen[n_seen++] = root;
        stones += b->grp[root].stones;
        if (n >= 2) continue;
        point s = root;
        do {
            foreach_neighbour(b->geo, s, t)
                if (b->color[t] == EMPTY && t != p) lib_note(lib, &n, t);
            s = b->next_stone[s];
        } while (s != root && n < 2);
    }
    *stones_out = stones;
    return n >= 2;
}

static bool playable(const board *b, int c, point p) {
    return b->color[p] == EMPTY && !board_is_eye(b, c, p) && board_check(b, c, p) == MOVE_OK;
}

/* A random move's last filter: no self-atari of a group of two or more. */
static bool not_self_atari(const board *b, int c, point p) {
    if (empty_neighbours(b, p) >= 2) return true;
    int stones;
    return safe_after(b, c, p, &stones) || stones < POLICY_SELF_ATARI_STONES;
}

/* Our group at stone g is in atari: a capture of an opponent group in atari
 * touching it, else its liberty if that gives two liberties; NO_POINT. */
static point escape(const board *b, int c, point g) {
    point root = b->group[g], s = root;
    do {
        foreach_neighbour(b->geo, s, t) {
            if (b->color[t] != color_other(c) || !board_in_atari(b, t)) continue;
            point l = atari_liberty(b, t);
            if (board_check(b, c, l) == MOVE_OK) return l;
        }
        s = b->next_stone[s];
    } while (s != root);
    point l = atari_liberty(b, g);
    int stones;
    if (board_check(b, c, l) == MOVE_OK && safe_after(b, c, l, &stones)) return l;
    return NO_POINT;
}

/* Captures and escapes next to the last move, or NO_POINT. */
static point tactics(const board *b, int c, point last) {
    if (last < 0 || b->color[last] != color_other(c)) return NO_POINT;
    foreach_neighbour(b->geo, last, q) {
        if (b->color[q] != c || !board_in_atari(b, q)) continue;
        point e = escape(b, c, q);
        if (e != NO_POINT) return e;
    }
    if (board_in_atari(b, last)) {
        point l = atari_liberty(b, last);
        if (board_check(b, c, l) == MOVE_OK) return l;
    }
    return NO_POINT;
}

static void empty_swap(board *b, int i, int j) {
    point pi = b->empty[i], pj = b->empty[j];
    b->empty[i] = pj;
    b->empty[j] = pi;
    b->empty_pos[pj] = (int16_t)i;
    b->empty_pos[pi] = (int16_t)j;
}

/* Uniform over the playable points that are no self-atari; when only
 * self-ataris are left, uniform over those. */
static point random_move(board *b, int c, rng *r) {
    int n = b->n_empty;
    point fallback = PASS_POINT;
    while (n > 0) {
        int i = (int)rng_below(r, (uint32_t)n);
        point p = b->empty[i];
        if (playable(b, c, p)) {
            if (not_self_atari(b, c, p)) return p;
            if (fallback == PASS_POINT) fallback = p;
        }
        empty_swap(b, i, --n);
    }
    return fallback;
}

point policy_move(board *b, int c, point last, rng *r) {
    if (last >= 0 && rng_below(r, 100) < POLICY_TACTICS_PCT) {
        point t = tactics(b, c, last);
        if (t != NO_POINT && !board_is_eye(b, c, t)) return t;
    }
    return random_move(b, c, r);
}

playout_result policy_playout(board *b, int to_move, point last, int komi_x2, rng *r, uint8_t *first_mover) {
    int passes = 0, moves = 0, cap = playout_move_cap(b->npoints), color = to_move;
    while (passes < 2 && moves < cap) {
        point p = policy_move(b, color, last, r);
        if (p == PASS_POINT) {
            board_pass(b);
            passes++;
        } else {
            if (first_mover && !first_mover[p]) first_mover[p] = (uint8_t)color;
            board_play(b, color, p, NULL);
            passes = 0;
            moves++;
        }
        last = p;
        color = color_other(color);
    }
    int black, white;
    board_score_area(b, &black, &white);
    playout_result res = { 2 * (black - white) - komi_x2, EMPTY, moves };
    res.winner = res.score_x2 > 0 ? BLACK : res.score_x2 < 0 ? WHITE : EMPTY;
    return res;
}
