/* clock: time controls and the game clock, as pure arithmetic.
 *
 * A time control is chosen when a game is created: none (correspondence,
 * optionally with a limit of days per move), absolute (one main time for
 * the whole game), Fischer (main time plus an increment after each turn)
 * or byo-yomi (main time, then N periods of S seconds: a turn finished
 * within a period keeps it, each period overrun is lost, losing the last
 * one loses the game).
 *
 * The clock is a fold, never a ticking counter: the server replays the
 * stored moments at which turns ended (game start, each move or pass) into
 * a game_clock, and reads it at "now". So a restarted server computes the
 * same clock from the same log, and the only state is the log itself. A
 * turn runs from the end of the opponent's turn to the player's own move or
 * pass: illegal attempts in between do not stop the clock.
 *
 * Times are milliseconds; a side has run out at the exact millisecond its
 * time reaches zero. Pure C, no I/O. */
#ifndef PG_ENGINE_CLOCK_H
#define PG_ENGINE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { TC_NONE = 0, TC_ABSOLUTE, TC_FISCHER, TC_BYOYOMI } time_control_kind;

typedef struct time_control {
    time_control_kind kind;
    int days_per_move; /* TC_NONE: 0 (no limit) or the days one move may take */
    int main_s;        /* ABSOLUTE, FISCHER, BYOYOMI (may be 0 for byo-yomi) */
    int increment_s;   /* FISCHER */
    int periods;       /* BYOYOMI */
    int period_s;      /* BYOYOMI */
} time_control;

/* Limits of each field, shared by the validator and the API documentation. */
enum {
    TC_DAYS_MAX = 60,
    TC_MAIN_MAX_S = 7 * 24 * 3600,
    TC_INCREMENT_MAX_S = 3600,
    TC_PERIODS_MAX = 100,
    TC_PERIOD_MAX_S = 3600
};

/* Untimed, without a limit per move. */
time_control time_control_none(void);
/* NULL if tc is a valid time control, else a short static message naming
 * the field ("main must be 1 to 604800 seconds", ...). */
const char *time_control_validate(const time_control *tc);
/* Does a side lose when its time runs out (false only for TC_NONE without
 * days per move)? */
bool time_control_limited(const time_control *tc);

/* What one side has left. Untimed sides keep zeros. */
typedef struct clock_side {
    int64_t main_ms;   /* main time; TC_NONE with days: this move's allowance */
    int32_t periods;   /* byo-yomi periods left, the current one included */
    int64_t period_ms; /* time left in the current byo-yomi period */
} clock_side;

typedef struct game_clock {
    time_control tc;
    clock_side side[3];    /* [BLACK], [WHITE] */
    int running;           /* BLACK, WHITE, or 0 (not started, or stopped) */
    int64_t turn_start_ms; /* when the running side's turn began */
} game_clock;

/* Both sides full, nothing running. */
void clock_init(game_clock *c, const time_control *tc);
/* The turn of `color` (BLACK or WHITE) begins at at_ms. */
void clock_start_turn(game_clock *c, int color, int64_t at_ms);
/* The running side finished its turn at at_ms: it is charged the time and
 * gets its increment or a fresh byo-yomi period; then nothing runs until
 * the next clock_start_turn. False (charged anyway) if it had already run
 * out at at_ms. */
bool clock_end_turn(game_clock *c, int64_t at_ms);
/* The game is over: nothing runs. */
void clock_stop(game_clock *c);

/* The moment the running side runs out, or INT64_MAX (nothing running, or
 * no limit). */
int64_t clock_deadline(const game_clock *c);
/* Has the running side run out at `now`? */
bool clock_flagged(const game_clock *c, int64_t now);
/* Both sides as of `now`: the running one charged for its turn so far
 * (never below zero). */
void clock_read(const game_clock *c, int64_t now, clock_side out[3]);

/* How long the side to move may think about one decision at `now` so as
 * to keep time for the rest of the game (a share of its main time, most of
 * a byo-yomi period, its increment), in milliseconds; 0 when unlimited. */
int64_t clock_think_budget_ms(const game_clock *c, int64_t now);

#endif
