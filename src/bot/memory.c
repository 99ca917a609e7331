/* memory: what the computer player knows, folded from its observations.
 *
 * The view (engine/view.h) already holds the player's stones, this turn's
 * tried points and public counts. The history adds facts about the hidden
 * opponent stones that the view keeps only implicitly, so this fold reads
 * each observation once, in order, alongside view_apply:
 *  - an attempt of ours refused as occupied puts an opponent stone there;
 *    a refusal as suicide puts one on each neighbour that is not ours; a
 *    refusal without a reason (Olympiad and common rules) is one or the
 *    other (OPP_REFUSED, for the sampler to explain), unless it was the
 *    ko retake of a single stone just taken from us;
 *  - when stones of ours are captured, every point around them that is not
 *    theirs held an opponent stone (the capturing group);
 *  - captured opponent stones leave their points empty (OPP_CAPTURED),
 *    unless played again; under Hamburg rules only the count of what we
 *    captured is told, so the known stones connected to our capturing move
 *    become OPP_MAYBE (or OPP_CAPTURED when they are exactly that many);
 *  - a point where we played is ours and no longer a belief.
 * The fold uses nothing but the observation and the memory: it is part of
 * the fairness guarantee (same observations, same memory). */
#include "bot/bot.h"

#include <string.h>

static int opponent_of(const bot_memory *m) { return color_other(m->me); }

static void set_fact(bot_memory *m, point p, int fact, int turn) {
    m->opp[p] = (uint8_t)fact;
    m->opp_turn[p] = (int16_t)turn;
}

void bot_memory_init(bot_memory *m, const game_settings *s, int me) {
    memset(m, 0, sizeof *m);
    view_init(&m->view, s, (viewer)me);
    m->geo = board_geometry_for(s->size, s->torus);
    m->me = me;
    m->ko_guess = NO_POINT;
    int n = s->size * s->size;
    for (point p = 0; p < n; p++)
        if (m->view.stone[p] == color_other(me)) set_fact(m, p, OPP_CERTAIN, 0); /* public handicap stones */
}

/* Our stones at captured[] were removed by the opponent: every neighbour of
 * the removed block that is not ours belonged to the capturing group. */
static void learn_capturers(bot_memory *m, const observation *ob) {
    for (int i = 0; i < ob->captured_known; i++) {
        point p = ob->captured[i];
        set_fact(m, p, OPP_UNKNOWN, ob->turn);
        foreach_neighbour(m->geo, p, q) {
            if (q == BOARD_OFF_POINT || m->view.stone[q] == m->me) continue;
            bool removed = false;
            for (int j = 0; j < ob->captured_known && !removed; j++) removed = ob->captured[j] == q;
            if (!removed) set_fact(m, q, OPP_CERTAIN, ob->turn);
        }
    }
    m->ko_guess = ob->captured_known == 1 ? ob->captured[0] : NO_POINT;
}

/* Hamburg: our move at p captured `count` stones whose points are not told.
 * The known stones chained to p are the candidates. */
static void learn_unseen_capture(bot_memory *m, point p, int count, int turn) {
    point stack[BOARD_MAX_POINTS], chain[BOARD_MAX_POINTS];
    bool seen[BOARD_MAX_POINTS] = { false };
    int top = 0, n = 0;
    stack[top++] = p;
    seen[p] = true;
    while (top > 0) {
        point q = stack[--top];
        foreach_neighbour(m->geo, q, r) {
            if (r == BOARD_OFF_POINT || seen[r]) continue;
            seen[r] = true;
            if (m->opp[r] == OPP_CERTAIN || m->opp[r] == OPP_REFUSED || m->opp[r] == OPP_MAYBE) {
                chain[n++] = r;
                stack[top++] = r;
            }
        }
    }
    int fact = n == count ? OPP_CAPTURED : OPP_MAYBE;
    for (int i = 0; i < n; i++) set_fact(m, chain[i], fact, turn);
}

static void learn_own_move(bot_memory *m, const observation *ob) {
    set_fact(m, ob->point, OPP_UNKNOWN, ob->turn);
    m->ko_guess = NO_POINT;
    if (ob->captured_count == 0) return;
    for (int i = 0; i < ob->captured_known; i++) set_fact(m, ob->captured[i], OPP_CAPTURED, ob->turn);
    if (ob->captured_known < ob->captured_count)
        learn_unseen_capture(m, ob->point, ob->captured_count - ob->captured_known, ob->turn);
}

static void learn_refusal(bot_memory *m, const observation *ob) {
    point p = ob->point;
    if (ob->reason == ILLEGAL_KO || (ob->reason == ILLEGAL_NONE && p == m->ko_guess)) return;
    if (ob->reason != ILLEGAL_SUICIDE) {
        set_fact(m, p, ob->reason == ILLEGAL_OCCUPIED ? OPP_CERTAIN : OPP_REFUSED, ob->turn);
        return;
    }
    foreach_neighbour(m->geo, p, q)
        if (q != BOARD_OFF_POINT && m->view.stone[q] != m->me) set_fact(m, q, OPP_CERTAIN, ob->turn);
}

void bot_memory_apply(bot_memory *m, const observation *ob) {
    view_apply(&m->view, ob);
    if (ob->full_truth) return; /* the game is over: nothing left to infer */
    bool mine = ob->color == m->me && ob->point != NO_POINT;
    if (ob->kind == EV_MOVE && mine) learn_own_move(m, ob);
    else if (ob->kind == EV_ILLEGAL && mine) learn_refusal(m, ob);
    else if (ob->kind == EV_MOVE && ob->color == opponent_of(m)) {
        if (ob->captured_known > 0) learn_capturers(m, ob);
        else m->ko_guess = NO_POINT;
    }
}
