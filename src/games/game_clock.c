/* game_clock: one game's clock, folded from its action times.
 *
 * Every stored action carries the time it was accepted, and a game's clock
 * is folded from those times and the moment its clock started
 * (engine/clock.h), so nothing about time is kept that a restart could lose
 * or freeze: the fold after a restart gives the same clock, still running.
 * The server's clock itself is the wall clock plus an offset only tests
 * move (serve --test-clock). */
#include "games/game_internal.h"

#include "util/now.h"

int64_t game_env_now_ms(game_env *env) { return now_wall_ms() + atomic_load(&env->clock_offset_ms); }

void game_clock_fold(const game *g, const referee *r, int upto, game_clock *out) {
    clock_init(out, &g->tc);
    int64_t started = g->row.started_at_ms;
    int to_move = referee_settings(r)->handicap > 0 ? WHITE : BLACK;
    bool running = false;
    for (int seq = 1; seq <= upto; seq++) {
        const ref_event *ev = referee_event(r, seq);
        int64_t at = g->at_ms[seq - 1];
        if (!running && started && at >= started) {
            clock_start_turn(out, to_move, started);
            running = true;
        }
        if (ev->ended) {
            clock_end_turn(out, at);
            clock_stop(out);
            return;
        }
        if (ev->kind != EV_MOVE && ev->kind != EV_PASS) continue;
        to_move = color_other(ev->color);
        if (!running) continue;
        clock_end_turn(out, at);
        clock_start_turn(out, to_move, at);
    }
    if (!running && started) clock_start_turn(out, to_move, started);
}

int64_t game_claim_at(const game *g, const game_clock *c) {
    bool claimable = c->running && !time_control_limited(&g->tc);
    return claimable ? c->turn_start_ms + g->env->abandon_ms : -1;
}

game_status game_claim_allowed(game *g, int claimer, int64_t now) {
    game_clock c;
    game_clock_fold(g, g->ref, referee_event_count(g->ref), &c);
    int64_t at = game_claim_at(g, &c);
    if (at < 0 || c.running == claimer) return GAME_TOO_EARLY;
    return now >= at ? GAME_OK : GAME_TOO_EARLY;
}
