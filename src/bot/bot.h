/* bot: the computer player, a Monte-Carlo Phantom Go program.
 *
 * Fair by construction: the player's only input is a bot_memory, the fold
 * of the observations the visibility filter (engine/view.h) gave its own
 * colour, exactly what a human in that seat receives. It never sees a
 * referee. Given the same memory and the same seed, bot_choose makes the
 * same decision (when its budget is counted in playouts, not time; with a
 * carry, given the same carry too), so two games that differ only in what
 * the player cannot see get the same play.
 *
 * Usage, for one seat:
 *     bot_memory m;  bot_memory_init(&m, &settings, WHITE);
 *     for each event seq: view_observe(r, VIEWER_WHITE, seq, &ob);
 *                         bot_memory_apply(&m, &ob);
 *     point p = bot_choose(&config, &m, seed, &carry, NULL);   (PASS_POINT: pass)
 * After an illegal answer, fold the new observation in and ask again: the
 * player has learnt the stone and never repeats a point of this turn.
 *
 * Players (bot_kind), weakest first: uniform random attempts; a heuristic
 * (captures, escapes from atari, avoids what illegal answers revealed);
 * flat Monte-Carlo over determinized boards with AMAF; information-set
 * tree search with RAVE over belief-weighted boards. The user-facing levels
 * easy, medium and strong map to configurations of these (bot_level). */
#ifndef PG_BOT_BOT_H
#define PG_BOT_BOT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/board.h"
#include "engine/view.h"

/* BOT_REFERENCE is the textbook ISMCTS (reference.c), a yardstick for
 * measuring the others, not a product level. */
typedef enum { BOT_RANDOM = 0, BOT_HEURISTIC, BOT_FLAT, BOT_STRONG, BOT_REFERENCE } bot_kind;

/* What the player knows about a possible opponent stone at a point. */
enum {
    OPP_UNKNOWN = 0, /* nothing learnt: the belief prior decides */
    OPP_CERTAIN,     /* an opponent stone is there (handicap, an attempt
                         refused as occupied, a stone that captured ours) */
    OPP_REFUSED,     /* our attempt was refused, reason untold: a stone, or
                         else a suicide point ringed by opponent stones */
    OPP_MAYBE,       /* was certain, may have been captured since (Hamburg
                         rules tell a capture's count, not its points) */
    OPP_CAPTURED     /* announced captured: empty unless played again */
};

/* A search budget per decision. How the attempts of one turn (after
 * illegal answers) share it is each search player's own (attempt_shares
 * in search.h). */
typedef struct bot_config {
    bot_kind kind;
    int playouts; /* simulations per decision; 0: bounded by time only */
    int time_ms;  /* wall-clock cap per decision; 0: no cap */
    /* NULL, or the share in percent (0..100) of this budget the decision
     * may use, read while it thinks: a server lowers it when games queue
     * behind this one (or to 0 when it stops), so a running search yields. */
    const atomic_int *share;
} bot_config;

/* Everything the player knows: its view plus facts read from the history. */
typedef struct bot_memory {
    view view;                          /* the visibility filter's view */
    const board_geometry *geo;          /* neighbours, for inferences */
    int32_t me;                         /* BLACK or WHITE */
    int32_t ko_guess;                   /* our single stone just taken, or NO_POINT */
    uint8_t opp[BOARD_MAX_POINTS];      /* OPP_* per point */
    int16_t opp_turn[BOARD_MAX_POINTS]; /* turn of the latest fact at p */
} bot_memory;

/* What the strong player carries from one decision to the next: the
 * root's statistics of the last decision. When the attempt was refused,
 * the retry starts from them at half weight instead of from nothing (a
 * refusal moves the belief by one stone, so most of what the search
 * learnt still holds); when it was played, the next turn's first attempt
 * starts from their AMAF half (which points were good for us in play,
 * whichever came first), also at half weight. Owned by the caller, one
 * per seat, zeroed by bot_carry_init. A decision reads it only when it
 * was written by the seat's decision just before, in the position that
 * decision left (else it carries nothing), then writes it, so a caller
 * may keep one per seat across games. The retry's part is read on a short
 * budget only (ismcts.c: the medium level, not the strong). It also
 * keeps where the opponent was expected to play (the expected map: the
 * shares of the opponent's first moves in the search of each decision,
 * summed over the seat's unbroken run of decisions), which the belief
 * leans toward (bot_carry_expected_map, belief_prepare_expecting); that
 * part is read on the next turn whatever was played. Derived from the
 * seat's own decisions only: as fair as the memory. About 15 KiB. */
typedef struct bot_carry {
    bool valid;
    bool played_a_point;        /* the decision chose a point, not a pass */
    int32_t seq, turn, n_tried; /* the view of the decision that wrote it */
    uint64_t position;          /* its stones and public counts, hashed */
    uint64_t stones_after;      /* its stones with the chosen point, hashed */
    float root_n, root_w;
    /* per point, PASS at BOARD_MAX_POINTS: the root child's simulations and
     * wins, and its AMAF simulations and wins without the child's prior */
    float n[BOARD_MAX_POINTS + 1], w[BOARD_MAX_POINTS + 1];
    float rn[BOARD_MAX_POINTS + 1], rw[BOARD_MAX_POINTS + 1];
    /* per point: the expected map this turn's first attempt started from
     * (its retries start from it too), and that map with this decision's
     * expected replies added (the next turn starts from it) */
    float expected_map_at_start[BOARD_MAX_POINTS], expected_map[BOARD_MAX_POINTS];
} bot_carry;

void bot_carry_init(bot_carry *c);

/* The expected map a decision of memory m starts from (BOARD_MAX_POINTS
 * floats by point): the carry's, when an earlier attempt of this turn or
 * our decision of our previous turn (two turns before) wrote it; NULL
 * otherwise (no carry, a chain broken, or the same decision asked again,
 * which then starts the map anew). */
const float *bot_carry_expected_map(const bot_carry *c, const bot_memory *m);

typedef struct bot_stats {
    long playouts;        /* simulations run for the decision */
    double seconds;       /* wall-clock time spent */
    point expected_reply; /* the strong player's: the opponent's reply its
                             search expects (the most simulated first move
                             of the opponent's tree), for diagnostics and
                             tests; NO_POINT for the other players */
    point answer_to_pass; /* the strong player's: the opponent's answer to
                             our pass its search expects (PASS_POINT: it
                             would end the game); NO_POINT when the search
                             did not ask (no opponent's tree, or the
                             opponent has just passed) */
} bot_stats;

/* Parses a player for the arena: "random", "heuristic", "flat", "strong"
 * or "reference", the last three with the ladder's 10,000 simulations a decision
 * unless followed by ":N" (N simulations) or ":Nms" (N milliseconds).
 * Returns false for anything else. */
bool bot_config_parse(const char *name, bot_config *out);

/* The configuration of a user-facing level "easy", "medium" or "strong".
 * Returns false for an unknown level. */
bool bot_level(const char *level, bot_config *out);

/* Starts the memory of the player of colour me (BLACK or WHITE) at the
 * start of a game with settings s. */
void bot_memory_init(bot_memory *m, const game_settings *s, int me);
/* Folds the next observation of this player's colour into the memory. */
void bot_memory_apply(bot_memory *m, const observation *ob);

/* The player's next action when it is its turn: a point to attempt, or
 * PASS_POINT. Never a point holding its own stone or already tried this
 * turn. carry (the seat's, see bot_carry) and stats_out may be NULL.
 * Thread-safe: no shared state but the caller's carry. */
point bot_choose(const bot_config *cfg, const bot_memory *m, uint64_t seed, bot_carry *carry,
                 bot_stats *stats_out);

#endif
