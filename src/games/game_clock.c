/* game_clock: one game's clock, folded from its action times.
 *
 * Every stored action carries the time it was accepted, and a game's clock
 * is folded from those times and the moment its clock started
 * (engine/clock.h), so nothing about time is kept that a restart could lose
 * or freeze: the fold after a restart gives the same clock, still running.
 * A game keeps its fold (game_internal.h's clock_fold) and carries it
 * forward over each new event, so reading the clock does not replay the
 * log; a reload or a failed commit has it fold again from the start.
 * The server's clock itself is the wall clock plus an offset only tests
 * move (serve --test-clock). */
#include "games/game_internal.h"

#include "util/now.h"

int64_t game_env_now_ms(game_env *env) { return now_wall_ms() + atomic_load(&env->clock_offset_ms); }

/* The fold before its first event. */
static void fold_begin(const game *g, const referee *r, clock_fold *f) {
    clock_init(&f->c, &g->tc);
    f->valid = true;
    f->upto = 0;
    f->started_ms = g->row.started_at_ms;
    f->to_move = referee_settings(r)->handicap > 0 ? WHITE : BLACK;
    f->running = f->stopped = false;
}

/* Carries f forward over events f->upto + 1 .. upto of r. */
static void fold_through(const game *g, const referee *r, int upto, clock_fold *f) {
    for (int seq = f->upto + 1; seq <= upto && !f->stopped; seq++) {
        const ref_event *ev = referee_event(r, seq);
        int64_t at = g->at_ms[seq - 1];
        if (!f->running && f->started_ms && at >= f->started_ms) {
            clock_start_turn(&f->c, f->to_move, f->started_ms);
            f->running = true;
        }
        if (ev->ended) {
            clock_end_turn(&f->c, at);
            clock_stop(&f->c);
            f->stopped = true;
        } else if (ev->kind == EV_MOVE || ev->kind == EV_PASS) {
            f->to_move = color_other(ev->color);
            if (f->running) {
                clock_end_turn(&f->c, at);
                clock_start_turn(&f->c, f->to_move, at);
            }
        }
    }
    if (upto > f->upto) f->upto = upto;
}

/* The clock f says: a game whose clock started after its last event (both
 * seats taken, nobody has moved since) runs from that moment. */
static void fold_result(const clock_fold *f, game_clock *out) {
    *out = f->c;
    if (!f->stopped && !f->running && f->started_ms) clock_start_turn(out, f->to_move, f->started_ms);
}

void game_clock_fold(const game *g, const referee *r, int upto, game_clock *out) {
    clock_fold f;
    fold_begin(g, r, &f);
    fold_through(g, r, upto, &f);
    fold_result(&f, out);
}

void game_clock_now(game *g, game_clock *out) {
    int n = referee_event_count(g->ref);
    clock_fold *f = &g->clock;
    if (!f->valid || f->upto > n || f->started_ms != g->row.started_at_ms) fold_begin(g, g->ref, f);
    fold_through(g, g->ref, n, f);
    fold_result(f, out);
}

void game_clock_forget(game *g) { g->clock.valid = false; }

int64_t game_claim_at(const game *g, const game_clock *c) {
    bool claimable = c->running && !time_control_limited(&g->tc);
    return claimable ? c->turn_start_ms + g->env->abandon_ms : -1;
}

game_status game_claim_allowed(game *g, int claimer, int64_t now) {
    game_clock c;
    game_clock_now(g, &c);
    int64_t at = game_claim_at(g, &c);
    if (at < 0 || c.running == claimer) return GAME_TOO_EARLY;
    return now >= at ? GAME_OK : GAME_TOO_EARLY;
}
