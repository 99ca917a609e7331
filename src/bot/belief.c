/* belief: determinized boards for the Monte-Carlo players (see belief.h). */
#include "bot/belief.h"

#include <string.h>

bool belief_fits(const board *b, int c, point p) {
    if (board_at(b, p) != EMPTY || board_check(b, c, p) != MOVE_OK) return false;
    foreach_neighbour(b->geo, p, q)
        if (b->color[q] == color_other(c) && board_in_atari(b, q))
            return false; /* p is that group's last liberty */
    return true;
}

/* Our stones alone: no opponent stone can be in the way, so each placement
 * is a legal move that captures nothing. */
static bool place_own_stones(belief *bf, const bot_memory *m) {
    const game_settings *s = &m->view.settings;
    if (!board_init(&bf->base, s->size, s->torus)) return false;
    for (point p = 0; p < board_points(&bf->base); p++) {
        if (m->view.stone[p] != m->me) continue;
        if (board_check(&bf->base, m->me, p) != MOVE_OK) return false;
        board_play(&bf->base, m->me, p, NULL);
    }
    return true;
}

static double line_weight(const board *b, point p) {
    static const double by_line[] = { 0.35, 0.9, 1.3, 1.2 };
    int line = board_edge_distance(b, p); /* BOARD_NO_EDGE on a torus */
    return line < 4 ? by_line[line] : 1.0;
}

static bool known_stone(const bot_memory *m, point p) {
    return p != BOARD_OFF_POINT &&
           (m->opp[p] == OPP_CERTAIN || m->opp[p] == OPP_REFUSED || m->opp[p] == OPP_MAYBE);
}

/* Nearness to known opponent stones: 2 for a neighbour, 1 for a point two
 * steps away (through any point), 0 otherwise. */
static int nearness(const bot_memory *m, point p) {
    const board_geometry *g = m->geo;
    int best = 0;
    foreach_neighbour(g, p, q) {
        if (best == 2) break;
        if (q == BOARD_OFF_POINT) continue;
        if (known_stone(m, q)) best = 2;
        foreach_neighbour(g, q, r) {
            if (best >= 1) break;
            if (known_stone(m, r) && r != p) best = 1;
        }
    }
    return best;
}

static double informed_weight(const belief *bf, const bot_memory *m, point p) {
    static const double by_nearness[] = { 1.0, 1.5, 2.2 };
    double w = line_weight(&bf->base, p) * by_nearness[nearness(m, p)];
    if (m->opp[p] == OPP_MAYBE) w *= 3.0;
    else if (m->opp[p] == OPP_CAPTURED) w *= 0.3;
    return w;
}

/* Appends p to list (n entries), or inserts it among the first *n_now
 * entries when it was tried this turn. */
static void list_add(point *list, int *n, int *n_now, point p, bool now) {
    if (now) {
        list[(*n)++] = list[*n_now];
        list[(*n_now)++] = p;
    } else {
        list[(*n)++] = p;
    }
}

bool belief_prepare(belief *bf, const bot_memory *m, bool informed) {
    if (!place_own_stones(bf, m)) return false;
    bf->me = m->me;
    bf->opp = color_other(m->me);
    bf->opp_total = m->view.on_board[bf->opp];
    bf->n_certain = bf->n_refused = bf->n_certain_now = bf->n_refused_now = 0;
    bf->n_prior = 0;
    double total = 0;
    for (point p = 0; p < board_points(&bf->base); p++) {
        if (board_at(&bf->base, p) != EMPTY) continue;
        bool now = (m->view.mark[p] & VIEW_TRIED) != 0;
        if (m->opp[p] == OPP_CERTAIN) {
            list_add(bf->certain, &bf->n_certain, &bf->n_certain_now, p, now);
            continue;
        }
        if (m->opp[p] == OPP_REFUSED) list_add(bf->refused, &bf->n_refused, &bf->n_refused_now, p, now);
        if (board_is_eye(&bf->base, bf->me, p)) continue;
        total += informed ? informed_weight(bf, m, p) : 1.0;
        bf->prior_point[bf->n_prior] = p;
        bf->prior_cum[bf->n_prior++] = total;
    }
    return true;
}

static point draw_prior(const belief *bf, rng *r) {
    double target = (double)rng_next32(r) / 4294967296.0 * bf->prior_cum[bf->n_prior - 1];
    int lo = 0, hi = bf->n_prior - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (bf->prior_cum[mid] > target) hi = mid;
        else lo = mid + 1;
    }
    return bf->prior_point[lo];
}

/* The one liberty our group would keep after we play p on b, or NO_POINT
 * if it would keep none or several. Two empty neighbours of p stay
 * liberties, which answers most calls without copying the board (this runs
 * for every refusal in every simulation). */
static point last_liberty_after(const board *b, int me, point p) {
    int empty_neighbours = 0;
    foreach_neighbour(b->geo, p, q) empty_neighbours += b->color[q] == EMPTY;
    if (empty_neighbours >= 2) return NO_POINT;
    board after;
    board_copy(&after, b);
    board_play(&after, me, p, NULL);
    if (board_liberties(&after, p) != 1) return NO_POINT;
    point root = after.group[p];
    for (point q = 0; q < board_points(&after); q++) {
        if (after.color[q] != EMPTY) continue;
        foreach_neighbour(after.geo, q, n)
            if (after.color[n] == me && after.group[n] == root) return q;
    }
    return NO_POINT;
}

static bool is_refused(const belief *bf, point p) {
    for (int i = 0; i < bf->n_refused; i++)
        if (bf->refused[i] == p) return true;
    return false;
}

/* Makes the refused point p illegal for us on b, if it is not already.
 * When our stone at p would keep a single liberty, an opponent stone on
 * that liberty makes p a suicide: chosen always when that liberty was
 * refused too (one stone explains both, as in a corner where our attempt
 * next to our own stone failed because the point beside it is taken), else
 * half the time. Otherwise a stone on p. Returns the stones placed (0 or 1). */
static int explain_refusal(const belief *bf, board *b, point p, int budget, rng *r) {
    if (board_at(b, p) != EMPTY || board_check(b, bf->me, p) != MOVE_OK) return 0;
    point ring = last_liberty_after(b, bf->me, p);
    if (ring != NO_POINT && (is_refused(bf, ring) || rng_below(r, 2) == 0) && belief_fits(b, bf->opp, ring)) {
        board ringed; /* tried aside: the ring may fail to make p illegal */
        board_copy(&ringed, b);
        board_play(&ringed, bf->opp, ring, NULL);
        if (board_check(&ringed, bf->me, p) != MOVE_OK) {
            board_copy(b, &ringed);
            return 1;
        }
    }
    if (budget > 0 && belief_fits(b, bf->opp, p)) {
        board_play(b, bf->opp, p, NULL);
        return 1;
    }
    return 0;
}

static int place_certain(const belief *bf, board *b, int from, int to, int placed) {
    for (int i = from; i < to && placed < bf->opp_total; i++)
        if (belief_fits(b, bf->opp, bf->certain[i])) {
            board_play(b, bf->opp, bf->certain[i], NULL);
            placed++;
        }
    return placed;
}

static int place_refused(const belief *bf, board *b, int from, int to, int placed, rng *r) {
    for (int i = from; i < to && placed < bf->opp_total; i++)
        placed += explain_refusal(bf, b, bf->refused[i], bf->opp_total - placed, r);
    return placed;
}

void belief_sample(const belief *bf, board *out, rng *r) {
    board_copy(out, &bf->base);
    int placed = place_certain(bf, out, 0, bf->n_certain_now, 0);
    placed = place_refused(bf, out, 0, bf->n_refused_now, placed, r);
    placed = place_certain(bf, out, bf->n_certain_now, bf->n_certain, placed);
    placed = place_refused(bf, out, bf->n_refused_now, bf->n_refused, placed, r);
    if (bf->n_prior == 0) return;
    /* Rejection sampling: a drawn point already used or where no stone fits
     * is drawn again; the cap only matters on a nearly full board. */
    int misses = 0, max_misses = 8 * bf->n_prior + 64;
    while (placed < bf->opp_total && misses < max_misses) {
        point p = draw_prior(bf, r);
        if (belief_fits(out, bf->opp, p)) {
            board_play(out, bf->opp, p, NULL);
            placed++;
        } else {
            misses++;
        }
    }
}
