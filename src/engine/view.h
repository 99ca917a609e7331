/* view: the visibility filter, the only way facts leave the engine.
 *
 * Everything the server sends about a game, and everything the bot reads,
 * is made here from one referee event at a time, for one viewer:
 *
 *   view_observe(r, viewer, seq) -> observation: what that viewer learns
 *                                   from event seq;
 *   view_build(r, viewer)        -> view: the fold of the viewer's
 *                                   observations 1..n (view_init, then
 *                                   view_apply for each), nothing else.
 *
 * Because a view is computed only from observations, it cannot contain
 * more than they do; tests check that two games differing only in what a
 * viewer may not see give that viewer byte-identical observations and views.
 *
 * Who learns what (while the game is on):
 *  - an attempt: its mover sees the point; the reason of an illegal one only
 *    under hamburg rules. The opponent and spectators learn that an attempt
 *    was made and whether it was legal (the turn passes or not), never where;
 *  - captures: the count is public. The points are public under olympiad and
 *    common rules; under hamburg only the count is told, EXCEPT that a player
 *    always learns which of their OWN stones were removed: they see their own
 *    stones, so hiding it would only make "own stone" refusals leak it.
 *    (Consequence, documented: under hamburg a captured handicap stone stays
 *    drawn in White's and spectators' views, since nobody told them.);
 *  - atari: under common and hamburg rules, the public announcement "colour
 *    X put colour Y into atari", never which stones; nothing under olympiad;
 *  - passes, resignation, timeout, forfeit and the end: public;
 *  - handicap stones: public from the start.
 * Once the game is over every observation, of any seq, is the full truth
 * for everyone (points, reasons, captured points), so a finished game's
 * view is the real board with every stone and the score. An atari the
 * olympiad rules kept silent is then told apart (atari_unannounced, for the
 * game record), so the log stays true to what was said during play.
 *
 * Observations and views are fixed-size and fully zeroed before being
 * filled (padding included), so they compare with memcmp. Pure C, no I/O. */
#ifndef PG_ENGINE_VIEW_H
#define PG_ENGINE_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/board.h"
#include "engine/rules.h"

/* The referee stays opaque here: view.h gives the bot and the encoders the
 * words of the game (rules.h) and the filter, never the referee's own
 * functions. */
typedef struct referee referee;

typedef enum { VIEWER_BLACK = BLACK, VIEWER_WHITE = WHITE, VIEWER_SPECTATOR = 3 } viewer;

/* What one viewer learns from one event. Hidden fields hold NO_POINT,
 * ILLEGAL_NONE, false or 0. */
typedef struct observation {
    int32_t seq;
    int32_t turn;                     /* public */
    int32_t kind;                     /* event_kind: public */
    int32_t color;                    /* who acted: public */
    int32_t reason;                   /* illegal_reason if told, else ILLEGAL_NONE */
    point point;                      /* the attempted point, or NO_POINT if hidden */
    int16_t captured_count;           /* stones captured by this event: public */
    int16_t captured_known;           /* how many of their points captured[] lists */
    bool atari;                       /* announced: color put the opponent in atari */
    bool atari_unannounced;           /* game over: an atari nobody was told of */
    bool full_truth;                  /* the game is over: nothing is hidden */
    bool ended;                       /* this event ended the game; see result */
    game_result result;               /* when ended (zero otherwise) */
    point captured[BOARD_MAX_POINTS]; /* sorted by column then row; rest 0 */
} observation;

/* Bits of view.mark[p]. */
enum {
    VIEW_HANDICAP = 1, /* a public handicap stone this viewer has not seen removed */
    VIEW_TRIED = 2,    /* the viewer tried p this turn and it was illegal */
    VIEW_REJECTED = 4  /* the viewer's attempt at p was illegal in an earlier
                            turn; rejected_turn[p] says which (the latest) */
};

/* Everything one viewer may know at one moment. The full history of the
 * viewer's rejected attempts (every turn, not just the latest per point)
 * is in the observations; encoders that want it iterate them. */
typedef struct view {
    game_settings settings; /* public */
    int32_t viewer;
    int32_t seq;                /* events folded in so far */
    int32_t turn;               /* the current turn number, 1-based */
    int32_t to_move;            /* BLACK, WHITE; EMPTY once over */
    int32_t passes;             /* passes in a row just before now */
    int32_t attempts_this_turn; /* illegal attempts so far this turn (public) */
    int32_t captured_by[3];     /* prisoners: stones captured BY black [1], white [2] */
    int32_t on_board[3];        /* stones of each colour on the real board:
                                   handicap + moves - stones lost (public) */
    int32_t moves[3];           /* legal moves played by each colour */
    int16_t n_tried;            /* this turn's illegal attempts by the viewer */
    bool over;
    game_result result;              /* when over: how it ended, the score */
    uint8_t stone[BOARD_MAX_POINTS]; /* what the viewer sees at p */
    uint8_t mark[BOARD_MAX_POINTS];  /* VIEW_* bits */
    int16_t rejected_turn[BOARD_MAX_POINTS];
    point tried[BOARD_MAX_POINTS]; /* this turn's tried points, in order */
} view;

/* The public facts of a game that need no filter: its settings and how
 * many events it has had (everyone sees each event happen). For the
 * encoders, which must not include referee.h. */
const game_settings *view_settings(const referee *r);
int view_event_count(const referee *r);

/* What viewer v learns from event seq (1..view_event_count). Returns
 * false, out zeroed, for any other seq or viewer. */
bool view_observe(const referee *r, viewer v, int seq, observation *out);

/* The view at the start of a game with settings s, for viewer v. */
void view_init(view *out, const game_settings *s, viewer v);
/* Folds one observation (the next seq, for the same viewer) into a view. */
void view_apply(view *vw, const observation *ob);
/* view_init + view_apply of every observation of the game so far. */
void view_build(const referee *r, viewer v, view *out);

#endif
