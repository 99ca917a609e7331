/* belief: determinized boards for the Monte-Carlo players (see belief.h). */
#include "bot/belief.h"

#include <math.h>
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

/* The measured prior: how often a point the player cannot see holds an
 * opponent stone, by what the player does know of it: the game's phase
 * (the opponent's stones as a share of the board: under 12%, under 30%,
 * later), the point's line (0 = the edge; 4 and beyond count as 4; a torus
 * has no edge, so all its points count as 4) and its distance to our
 * nearest stone (1 = touching; 4 and beyond, or no stone of ours, count
 * as 4). Counted in self-play records by bench/bot-prior.py (docs/BOT.md):
 * early stones keep off the edge and to the centre of a small board, and
 * gather where our stones are, since Go is played in contact. */
enum {
    PRIOR_PHASES = 3,
    PRIOR_LINES = 5,
    PRIOR_DISTANCES = 4,
    PRIOR_SMALL_MAX_SIZE = 11,
    PRIOR_MEDIUM_MAX_SIZE = 15
};
typedef double prior_table[PRIOR_PHASES][PRIOR_LINES][PRIOR_DISTANCES];

/* 9x9, 30 games of strong:2000 against itself; boards up to
 * PRIOR_SMALL_MAX_SIZE. */
static const prior_table prior_small = {
    {
        { 0.033, 0.005, 0.005, 0.005 },
        { 0.075, 0.023, 0.017, 0.006 },
        { 0.250, 0.139, 0.088, 0.027 },
        { 0.459, 0.267, 0.102, 0.086 },
        { 0.550, 0.331, 0.331, 0.331 },
    },
    {
        { 0.210, 0.068, 0.074, 0.017 },
        { 0.443, 0.217, 0.225, 0.183 },
        { 0.594, 0.402, 0.600, 0.547 },
        { 0.658, 0.346, 0.611, 0.611 },
        { 0.780, 0.411, 0.411, 0.411 },
    },
    {
        { 0.389, 0.293, 0.415, 0.461 },
        { 0.761, 0.586, 0.674, 0.618 },
        { 0.793, 0.536, 0.650, 0.720 },
        { 0.820, 0.461, 0.830, 0.632 },
        { 0.864, 0.639, 1.000, 1.000 },
    },
};

/* 13x13, 16 games of strong:1000 against itself; boards up to
 * PRIOR_MEDIUM_MAX_SIZE. */
static const prior_table prior_medium = {
    {
        { 0.035, 0.005, 0.005, 0.005 },
        { 0.066, 0.073, 0.049, 0.027 },
        { 0.136, 0.128, 0.086, 0.053 },
        { 0.180, 0.153, 0.100, 0.043 },
        { 0.179, 0.139, 0.100, 0.023 },
    },
    {
        { 0.136, 0.046, 0.034, 0.010 },
        { 0.381, 0.247, 0.137, 0.146 },
        { 0.567, 0.459, 0.332, 0.341 },
        { 0.558, 0.404, 0.326, 0.608 },
        { 0.530, 0.438, 0.514, 0.514 },
    },
    {
        { 0.248, 0.208, 0.245, 0.441 },
        { 0.729, 0.599, 0.568, 0.723 },
        { 0.827, 0.603, 0.679, 0.740 },
        { 0.816, 0.656, 0.768, 0.768 },
        { 0.743, 0.650, 0.779, 0.707 },
    },
};

/* 19x19, 12 games of strong:1000 against itself (49399fa's player);
 * larger boards. */
static const prior_table prior_large = {
    {
        { 0.007, 0.009, 0.005, 0.007 },
        { 0.058, 0.047, 0.031, 0.033 },
        { 0.109, 0.106, 0.075, 0.051 },
        { 0.141, 0.098, 0.070, 0.041 },
        { 0.143, 0.125, 0.084, 0.044 },
    },
    {
        { 0.078, 0.034, 0.034, 0.023 },
        { 0.297, 0.207, 0.130, 0.093 },
        { 0.496, 0.369, 0.261, 0.279 },
        { 0.492, 0.362, 0.351, 0.268 },
        { 0.479, 0.360, 0.352, 0.220 },
    },
    {
        { 0.254, 0.206, 0.317, 0.465 },
        { 0.692, 0.572, 0.635, 0.731 },
        { 0.743, 0.638, 0.689, 0.762 },
        { 0.725, 0.560, 0.808, 0.696 },
        { 0.702, 0.587, 0.747, 0.759 },
    },
};

/* What the informed prior needs of one decision, found once: the rows of
 * its table for the game's phase and each point's distance to our stones. */
typedef struct informed_prior {
    const double (*by_line)[PRIOR_DISTANCES]; /* [line][distance - 1] */
    uint8_t distance[BOARD_MAX_POINTS];
    const float *expected_map; /* bot_carry's, or NULL */
} informed_prior;

/* How far the prior leans toward where the player's searches expected
 * the opponent to play: a point's weight is multiplied by 1 + EXPECTED_LEAN
 * x its expected share (capped at 1). 10: the forecasts' best of 1 to
 * 100 but the sharpest (the belief 2 to 4% sharper); 30 led the
 * player's own stones onto the expected points, refused more often, and
 * did not gain. Played on 9x9:
 * H1 at 40 ms a decision (+30.0 Elo [+6.0, +54.3] over 360 pairs),
 * +16.4 [-9.9, +43.0] over 296 pairs at 150 ms (docs/BOT.md, twenty-sixth
 * and twenty-seventh sessions). */
#define EXPECTED_LEAN 10.0

static int prior_phase(const bot_memory *m) {
    int share_pct =
        100 * m->view.on_board[color_other(m->me)] / (m->view.settings.size * m->view.settings.size);
    return share_pct < 12 ? 0 : share_pct < 30 ? 1 : 2;
}

/* Each point's distance to our nearest stone, capped at PRIOR_DISTANCES:
 * a breadth-first walk from our stones on the board of our stones. */
static void distances_to_ours(const board *b, int me, uint8_t *distance) {
    point queue[BOARD_MAX_POINTS];
    int head = 0, tail = 0;
    for (point p = 0; p < board_points(b); p++) {
        distance[p] = PRIOR_DISTANCES;
        if (board_at(b, p) == me) {
            distance[p] = 0;
            queue[tail++] = p;
        }
    }
    while (head < tail) {
        point p = queue[head++];
        if (distance[p] + 1 >= PRIOR_DISTANCES) continue;
        foreach_neighbour(b->geo, p, q) {
            if (q == BOARD_OFF_POINT || distance[q] <= distance[p] + 1) continue;
            distance[q] = (uint8_t)(distance[p] + 1);
            queue[tail++] = q;
        }
    }
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

static void informed_prior_prepare(informed_prior *ip, const board *ours, const bot_memory *m,
                                   const float *expected_map) {
    int size = m->view.settings.size;
    const prior_table *table = size <= PRIOR_SMALL_MAX_SIZE    ? &prior_small
                               : size <= PRIOR_MEDIUM_MAX_SIZE ? &prior_medium
                                                               : &prior_large;
    ip->by_line = (*table)[prior_phase(m)];
    distances_to_ours(ours, m->me, ip->distance);
    ip->expected_map = expected_map;
}

/* The informed prior of p: the measured table, with more weight near the
 * opponent stones the player knows of (the table cannot tell them from
 * any other point), on points the history makes likely or unlikely and
 * where the opponent was expected to play. */
static double informed_weight(const informed_prior *ip, const board *ours, const bot_memory *m, point p) {
    static const double by_nearness[] = { 1.0, 1.5, 2.2 };
    int line = board_edge_distance(ours, p); /* BOARD_NO_EDGE on a torus */
    double w = ip->by_line[line < PRIOR_LINES ? line : PRIOR_LINES - 1][ip->distance[p] - 1] *
               by_nearness[nearness(m, p)];
    if (ip->expected_map) w *= 1 + EXPECTED_LEAN * fmin(ip->expected_map[p], 1.0);
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

/* belief_prepare and belief_prepare_expecting in one: the uniform prior,
 * or the informed one leaning toward expected_map when there is one. */
static bool prepare_belief(belief *bf, const bot_memory *m, bool informed, const float *expected_map) {
    if (!place_own_stones(bf, m)) return false;
    bf->me = m->me;
    bf->opp = color_other(m->me);
    bf->opp_total = m->view.on_board[bf->opp];
    bf->n_certain = bf->n_refused = bf->n_certain_now = bf->n_refused_now = 0;
    bf->n_prior = 0;
    informed_prior ip;
    if (informed) informed_prior_prepare(&ip, &bf->base, m, expected_map);
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
        total += informed ? informed_weight(&ip, &bf->base, m, p) : 1.0;
        bf->prior_point[bf->n_prior] = p;
        bf->prior_cum[bf->n_prior++] = total;
    }
    return true;
}

bool belief_prepare(belief *bf, const bot_memory *m, bool informed) {
    return prepare_belief(bf, m, informed, NULL);
}

bool belief_prepare_expecting(belief *bf, const bot_memory *m, const float *expected_map) {
    return prepare_belief(bf, m, true, expected_map);
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

static bool is_refused(const belief *bf, point p) {
    for (int i = 0; i < bf->n_refused; i++)
        if (bf->refused[i] == p) return true;
    return false;
}

/* Whether an opponent stone at p would leave its group a single liberty
 * on a point refused to us this turn: we could then take the group there,
 * so the refusal would no longer be explained. */
static bool reopens_a_refusal(const belief *bf, const board *b, point p) {
    if (bf->n_refused_now == 0) return false;
    point last = board_atari_liberty_after(b, bf->opp, p);
    for (int i = 0; last != NO_POINT && i < bf->n_refused_now; i++)
        if (bf->refused[i] == last) return true;
    return false;
}

/* Whether a guessed opponent stone may stand at p: it fits (belief_fits)
 * and keeps this turn's refusals explained. */
static bool guess_fits(const belief *bf, const board *b, point p) {
    return belief_fits(b, bf->opp, p) && !reopens_a_refusal(bf, b, p);
}

/* An opponent stone on ring, the one liberty our stone at p would keep,
 * placed on b if it makes p illegal for us (tried aside: it may not). */
static bool ring_explains(const belief *bf, board *b, point p, point ring) {
    if (!guess_fits(bf, b, ring)) return false;
    board ringed;
    board_copy(&ringed, b);
    board_play(&ringed, bf->opp, ring, NULL);
    if (board_check(&ringed, bf->me, p) == MOVE_OK) return false;
    board_copy(b, &ringed);
    return true;
}

/* Makes the refused point p illegal for us on b, if it is not already.
 * When our stone at p would keep a single liberty, an opponent stone on
 * that liberty makes p a suicide: chosen first always when that liberty
 * was refused too (one stone explains both, as in a corner where our
 * attempt next to our own stone failed because the point beside it is
 * taken), else half the time. Otherwise a stone on p; and when no stone
 * fits there (it would take one of our groups' last liberty), the ring
 * after all. Returns the stones placed (0 or 1). */
static int explain_refusal(const belief *bf, board *b, point p, int budget, rng *r) {
    if (budget <= 0 || board_at(b, p) != EMPTY || board_check(b, bf->me, p) != MOVE_OK) return 0;
    point ring = board_atari_liberty_after(b, bf->me, p); /* NO_POINT: several */
    bool ring_first = ring != NO_POINT && (is_refused(bf, ring) || rng_below(r, 2) == 0);
    if (ring_first && ring_explains(bf, b, p, ring)) return 1;
    if (guess_fits(bf, b, p)) {
        board_play(b, bf->opp, p, NULL);
        return 1;
    }
    if (!ring_first && ring != NO_POINT && ring_explains(bf, b, p, ring)) return 1;
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
        if (guess_fits(bf, out, p)) {
            board_play(out, bf->opp, p, NULL);
            placed++;
        } else {
            misses++;
        }
    }
}
