/* rules: the public vocabulary of a game, shared by everyone who talks
 * about one: its settings, the actions a player can take, the kinds of
 * events and the result.
 *
 * Split from referee.h so that code which must never see the truth (the
 * bot, encoders of views) gets these words through view.h without getting
 * the referee's functions: referee.h includes this file, not the other way
 * round, and tests/check-layers.sh forbids the bot to include referee.h.
 * Pure C, no I/O. */
#ifndef PG_ENGINE_RULES_H
#define PG_ENGINE_RULES_H

#include <stdbool.h>

#include "engine/board.h"

typedef enum { KO_SIMPLE = 0, KO_SUPERKO } ko_rule;
/* Which announcements the referee makes (see view.h for who hears what). */
typedef enum { RULES_OLYMPIAD = 0, RULES_COMMON, RULES_HAMBURG } referee_rules;

typedef struct game_settings {
    int size;     /* 5..25 */
    int komi_x2;  /* komi in half points: 7.5 is 15; to White */
    int handicap; /* 0, or 2..handicap_max(size) fixed stones */
    ko_rule ko;
    referee_rules rules;
    int capture_target; /* 0: ordinary Go; N: first to capture N stones wins */
    bool torus;         /* both edges wrap */
} game_settings;

/* 9x9, komi 7.5, no handicap, simple ko, olympiad rules, plane, no capture Go. */
game_settings settings_default(void);
/* The default komi for a handicap: 7.5 without (15), 0.5 with (1). */
int settings_default_komi_x2(int handicap);
/* NULL if s describes a playable game, else a short static message
 * ("size must be 5 to 25", ...), fit to show a user. */
const char *settings_validate(const game_settings *s);

typedef enum {
    ACT_ATTEMPT = 0, /* try to play at point */
    ACT_PASS,
    ACT_RESIGN,  /* either player, at any time: that player loses */
    ACT_TIMEOUT, /* the player to move ran out of time and loses */
    ACT_FORFEIT  /* the player abandoned (the opponent claimed): loses */
} action_kind;

typedef struct action {
    action_kind kind;
    int color;   /* who acts: BLACK or WHITE (the loser for the last three) */
    point point; /* ACT_ATTEMPT only; ignored otherwise */
} action;

/* Why the referee refused an action (a client error; nothing changed). */
typedef enum {
    REFUSE_NONE = 0,      /* accepted: one event was produced */
    REFUSE_NOT_YOUR_TURN, /* also: a colour that is neither BLACK nor WHITE */
    REFUSE_ALREADY_TRIED, /* this point was already tried this turn */
    REFUSE_OWN_STONE,     /* the player's own stone is there */
    REFUSE_BAD_VERTEX,    /* not a point of this board (pass is an action) */
    REFUSE_GAME_OVER
} refusal;

typedef enum { EV_MOVE = 0, EV_ILLEGAL, EV_PASS, EV_RESIGN, EV_TIMEOUT, EV_FORFEIT } event_kind;
typedef enum { ILLEGAL_NONE = 0, ILLEGAL_OCCUPIED, ILLEGAL_SUICIDE, ILLEGAL_KO } illegal_reason;
typedef enum { END_NONE = 0, END_PASSES, END_CAPTURE, END_RESIGN, END_TIMEOUT, END_FORFEIT } end_reason;

typedef struct game_result {
    bool over;
    bool scored; /* END_PASSES: the scores below are meaningful */
    end_reason reason;
    int winner;         /* BLACK, WHITE, or EMPTY for a jigo */
    int score_black_x2; /* area * 2 */
    int score_white_x2; /* area * 2 + komi_x2 */
} game_result;

#endif
