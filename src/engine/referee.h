/* referee: the truth of one Phantom Go game, and the rules that judge it.
 *
 * A game is its settings plus the ordered list of accepted actions; the
 * referee is what replaying that list gives, deterministically (the server
 * stores settings + actions and replays them after a restart). Each accepted
 * action produces exactly one event, numbered seq = 1, 2, 3...; a refused
 * action (a client error: wrong turn, a point already tried this turn, one's
 * own stone, a bad point, a finished game) changes nothing.
 *
 * An attempt is legal (played, captures removed, the turn passes) or illegal
 * (opponent stone, suicide, ko): then the player keeps the turn and the
 * point joins this turn's tried set. A pass ends the turn; two in a row end
 * and score the game (Tromp-Taylor area, komi to White). Resignation, a
 * timeout or a forfeit end it at once. In capture Go the first move that
 * brings its player's captures to the target ends it.
 *
 * The settings, actions, event kinds and results are the public words of
 * rules.h, included here. THIS IS THE TRUTH. Only the visibility filter (view.c), the server's game
 * module and the command-line tools may include this header; the bot and
 * anything that talks to a client use view.h. Pure C, no I/O. */
#ifndef PG_ENGINE_REFEREE_H
#define PG_ENGINE_REFEREE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/board.h"
#include "engine/rules.h"

/* One accepted action as the referee saw it: the whole truth. */
typedef struct ref_event {
    int seq;  /* 1, 2, 3... */
    int turn; /* the turn it belongs to, 1-based; a legal move
                                or a pass is the last event of its turn */
    event_kind kind;
    int color;             /* who acted */
    point point;           /* EV_MOVE, EV_ILLEGAL; NO_POINT otherwise */
    illegal_reason reason; /* EV_ILLEGAL only */
    bool atari;            /* EV_MOVE: an opponent group is newly in atari */
    bool ended;            /* this event ended the game */
    int captured_count;    /* EV_MOVE: stones captured */
    int captured_at;       /* private: index of the list in the pool */
} ref_event;

typedef struct referee referee;

/* A new game at its start (handicap stones placed, White to move if any).
 * Returns NULL if settings_validate(s) fails or memory runs out. */
referee *referee_new(const game_settings *s);
void referee_free(referee *r);

/* Judges one action. REFUSE_NONE: it was accepted, appended to the log and
 * produced one event, returned through event_out if not NULL (valid until
 * the next referee_apply). Otherwise nothing changed. Out of memory while
 * growing the log (the only possible failure beyond refusals) aborts. */
refusal referee_apply(referee *r, action a, const ref_event **event_out);

const game_settings *referee_settings(const referee *r);
/* Pointers returned by the readers below point into the referee's growing
 * arrays: they stay valid until the next referee_apply or referee_free.
 *
 * Events seq = 1..referee_event_count(r); NULL for any other seq. */
int referee_event_count(const referee *r);
const ref_event *referee_event(const referee *r, int seq);
/* The action that produced event seq (the stored log), or NULL. */
const action *referee_action(const referee *r, int seq);
/* The points captured by ev, sorted by column then row; *n gets the count. */
const point *referee_captured(const referee *r, const ref_event *ev, int *n);

/* Whose turn it is (EMPTY once the game is over), the current turn number,
 * the points tried (and found illegal) so far this turn, and the number of
 * passes in a row that ended the last turns. */
int referee_to_move(const referee *r);
int referee_turn(const referee *r);
const point *referee_tried(const referee *r, int *n);
int referee_passes(const referee *r);
/* Stones captured so far BY colour c (its prisoners). */
int referee_captured_by(const referee *r, int c);
game_result referee_result(const referee *r);
/* The real board. Never show it to anyone while the game is on. */
const board *referee_truth_board(const referee *r);

#endif
