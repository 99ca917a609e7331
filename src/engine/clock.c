/* clock: time controls and the game clock (see clock.h). Every function is
 * a few lines of arithmetic on one struct, so the server's replay of a
 * game's timestamps costs nothing next to the referee's replay. */
#include "engine/clock.h"

#include <string.h>

#include "engine/board.h"

enum { MS = 1000, DAY_MS = 24 * 3600 * MS };

time_control time_control_none(void) {
    time_control tc;
    memset(&tc, 0, sizeof tc);
    tc.kind = TC_NONE;
    return tc;
}

static bool in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }

const char *time_control_validate(const time_control *tc) {
    switch (tc->kind) {
    case TC_NONE: return in_range(tc->days_per_move, 0, TC_DAYS_MAX) ? NULL : "days_per_move must be 1 to 60";
    case TC_ABSOLUTE:
        return in_range(tc->main_s, 1, TC_MAIN_MAX_S) ? NULL : "main must be 1 to 604800 seconds";
    case TC_FISCHER:
        if (!in_range(tc->main_s, 1, TC_MAIN_MAX_S)) return "main must be 1 to 604800 seconds";
        return in_range(tc->increment_s, 1, TC_INCREMENT_MAX_S) ? NULL
                                                                : "increment must be 1 to 3600 seconds";
    case TC_BYOYOMI:
        if (!in_range(tc->main_s, 0, TC_MAIN_MAX_S)) return "main must be 0 to 604800 seconds";
        if (!in_range(tc->periods, 1, TC_PERIODS_MAX)) return "periods must be 1 to 100";
        return in_range(tc->period_s, 1, TC_PERIOD_MAX_S) ? NULL : "period must be 1 to 3600 seconds";
    }
    return "unknown time control type";
}

bool time_control_limited(const time_control *tc) { return tc->kind != TC_NONE || tc->days_per_move > 0; }

static void side_full(clock_side *s, const time_control *tc) {
    memset(s, 0, sizeof *s);
    switch (tc->kind) {
    case TC_NONE: s->main_ms = (int64_t)tc->days_per_move * DAY_MS; break;
    case TC_ABSOLUTE:
    case TC_FISCHER: s->main_ms = (int64_t)tc->main_s * MS; break;
    case TC_BYOYOMI:
        s->main_ms = (int64_t)tc->main_s * MS;
        s->periods = tc->periods;
        s->period_ms = (int64_t)tc->period_s * MS;
        break;
    }
}

void clock_init(game_clock *c, const time_control *tc) {
    memset(c, 0, sizeof *c);
    c->tc = *tc;
    side_full(&c->side[BLACK], tc);
    side_full(&c->side[WHITE], tc);
}

void clock_start_turn(game_clock *c, int color, int64_t at_ms) {
    c->running = color == BLACK || color == WHITE ? color : 0;
    c->turn_start_ms = at_ms;
}

void clock_stop(game_clock *c) { c->running = 0; }

/* s after `elapsed` ms of one turn (not below zero); false if it ran out. */
static bool charge(const time_control *tc, clock_side *s, int64_t elapsed) {
    if (elapsed < 0) elapsed = 0;
    if (tc->kind == TC_NONE && tc->days_per_move == 0) return true;
    if (tc->kind != TC_BYOYOMI || elapsed < s->main_ms) {
        bool alive = elapsed < s->main_ms;
        s->main_ms = alive ? s->main_ms - elapsed : 0;
        return alive;
    }
    int64_t over = elapsed - s->main_ms, period = (int64_t)tc->period_s * MS;
    int64_t lost = over / period;
    s->main_ms = 0;
    if (lost >= s->periods) {
        s->periods = 0;
        s->period_ms = 0;
        return false;
    }
    s->periods -= (int32_t)lost;
    s->period_ms = period - over % period;
    return true;
}

bool clock_end_turn(game_clock *c, int64_t at_ms) {
    if (!c->running) return true;
    clock_side *s = &c->side[c->running];
    bool alive = charge(&c->tc, s, at_ms - c->turn_start_ms);
    switch (c->tc.kind) {
    case TC_NONE: s->main_ms = (int64_t)c->tc.days_per_move * DAY_MS; break;
    case TC_FISCHER:
        if (alive) s->main_ms += (int64_t)c->tc.increment_s * MS;
        break;
    case TC_BYOYOMI:
        if (alive) s->period_ms = (int64_t)c->tc.period_s * MS;
        break;
    case TC_ABSOLUTE: break;
    }
    c->running = 0;
    return alive;
}

int64_t clock_deadline(const game_clock *c) {
    if (!c->running || !time_control_limited(&c->tc)) return INT64_MAX;
    const clock_side *s = &c->side[c->running];
    int64_t budget = s->main_ms;
    if (c->tc.kind == TC_BYOYOMI) budget += (int64_t)s->periods * c->tc.period_s * MS;
    return c->turn_start_ms + budget;
}

bool clock_flagged(const game_clock *c, int64_t now) { return now >= clock_deadline(c); }

void clock_read(const game_clock *c, int64_t now, clock_side out[3]) {
    memcpy(out, c->side, sizeof c->side);
    if (c->running) charge(&c->tc, &out[c->running], now - c->turn_start_ms);
}

int64_t clock_think_budget_ms(const game_clock *c, int64_t now) {
    enum { MOVES_AHEAD = 40, LATENCY_MS = 300, FLOOR_MS = 50 };
    if (!c->running || c->tc.kind == TC_NONE) return 0;
    clock_side s[3];
    clock_read(c, now, s);
    const clock_side *me = &s[c->running];
    int64_t budget = me->main_ms / MOVES_AHEAD;
    if (c->tc.kind == TC_FISCHER) {
        budget += (int64_t)c->tc.increment_s * MS * 3 / 4;
        if (budget > me->main_ms / 2) budget = me->main_ms / 2;
    } else if (c->tc.kind == TC_BYOYOMI) {
        int64_t period_share = (me->main_ms > 0 ? (int64_t)c->tc.period_s * MS : me->period_ms) / 2;
        budget += period_share;
    }
    budget -= LATENCY_MS;
    return budget > FLOOR_MS ? budget : FLOOR_MS;
}
