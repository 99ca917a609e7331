/* game_internal: the layout of one game, shared by the three files of it
 * and nothing else: game_clock.c (its clock, folded from the action times),
 * game_view.c (what it tells: views, events, answers, records) and game.c
 * (its life, seats and actions). They stack in that order: game.c uses the
 * other two, game_view.c uses game_clock.c, so this header declares only
 * the helpers of the lower two. game_talk.c (table talk) and game_aid.c
 * (the deduction aid) sit beside them and declare what game.c calls.
 *
 * Locks: the game lock guards the fields marked so; the watcher lock only
 * the watcher list and is taken alone. Fields read without the game lock
 * are atomics or set once before the game is shared. */
#ifndef PG_GAMES_GAME_INTERNAL_H
#define PG_GAMES_GAME_INTERNAL_H

#include <pthread.h>

#include "games/game.h"
#include "wire/view_json.h"

enum { VIEWERS = 4 }; /* index by viewer: 1 black, 2 white, 3 spectator */

/* A game's clock folded through its first `upto` events and kept current
 * as events arrive (game_clock.c): the running side and whose turn it is,
 * before the last step that starts a clock not yet running. */
typedef struct clock_fold {
    bool valid;         /* false: fold again from the first event */
    int upto;           /* events folded */
    int64_t started_ms; /* the row's started_at_ms it was folded with */
    int to_move;
    bool running, stopped;
    game_clock c;
} clock_fold;

typedef struct seat_answer { /* a seat's last accepted action (its answer is rendered on a retry) */
    int seq;                 /* 0: none */
    action act;
} seat_answer;

struct game {
    game_env *env;
    char id[24];
    pthread_mutex_t lock;

    /* Read anywhere. */
    atomic_int refs;
    atomic_llong last_used_ms; /* monotonic */
    atomic_bool over;
    atomic_int presence[3];  /* live connections of [BLACK], [WHITE] */
    atomic_int spectators;   /* live connections of spectators */
    atomic_int chat_last[3]; /* [GAME_ROOM_*]: the room's highest message number */
    atomic_int changes;      /* records taken (game_change.version), bumped under the game lock */

    /* Set once before the game is shared. */
    game_settings settings;
    game_mode mode;
    char level[16];
    int computer_color; /* 0 unless computer mode */
    time_control tc;
    /* Listed in the lobby; set before sharing, and cleared (under the
     * game lock) when the operator hides the game; read anywhere. */
    atomic_bool is_public;
    bool aid; /* the deduction aid is on at this table */

    /* Game lock. */
    store_game row;
    bool rematch_cancelled; /* row.rematch_id's game was cancelled: the offer ended */
    referee *ref;
    int64_t *at_ms; /* when each event was accepted: at_ms[seq - 1] */
    int n_at, cap_at;
    seat_answer last[3];            /* [BLACK], [WHITE] */
    char names[3][GAME_NAME_BYTES]; /* [BLACK], [WHITE]: display names, "" for none */
    char *view_text[VIEWERS];       /* each viewer's view_json_open_text; NULL = stale */
    size_t view_text_len[VIEWERS];
    struct aid_entry *aid_cache[3]; /* [BLACK], [WHITE]: deduction aid answers by seq (game_aid.c) */
    int aid_cap[3], aid_cached[3];  /* slots, and answers held, per seat */
    /* A write failed in a way that may mean the log moved on without this
     * copy (another server appended, or a commit's outcome is unknown):
     * the log is reloaded before the next action is judged. */
    bool log_in_doubt;
    int computer_percent; /* share of its budget the computer's latest turn got; 0: none yet */
    clock_fold clock;     /* the clock kept current (game_clock_now) */

    /* Watcher lock. */
    pthread_mutex_t watch_lock;
    game_watcher *watchers;
    /* The last removals told to the watchers (watch_lock): news of one
     * this server made itself comes back from the store, and is told once. */
    int removals_told[16][2];
    int removals_next;
};

/* game_clock.c (game lock held) */
/* The clock of g after the first `upto` events of referee r (a replay of
 * g's, for a retry's answer): folded from the first event. */
void game_clock_fold(const game *g, const referee *r, int upto, game_clock *out);
/* The clock of g now, after all its events: the kept fold, carried
 * forward over the events since it was last read. */
void game_clock_now(game *g, game_clock *out);
/* The referee or its times were replaced (a reload, a failed commit): the
 * next game_clock_now folds again from the first event. */
void game_clock_forget(game *g);
/* When a claim of abandonment becomes allowed under clock c, or -1. */
int64_t game_claim_at(const game *g, const game_clock *c);
/* GAME_OK if seat `claimer` may claim g as abandoned at now. */
game_status game_claim_allowed(game *g, int claimer, int64_t now);

/* game_talk.c: reads the names and the rooms' counts from the store while
 * the game is being built (before it is shared); STORE_OK or the failed
 * read's code. */
int game_talk_load(game *g);
/* A spectator's live connection opened (+1) or closed (-1): the view's
 * "spectators" count changes and everyone is told. */
void game_watching(game *g, int delta);

/* game_aid.c: frees the deduction aid's cached answers (game_free). */
void game_aid_free(game *g);

/* game_view.c (game lock held) */
/* When the side to move runs out, or INT64_MAX (over, or no limit); it
 * carries the kept clock forward (game_clock_now). */
int64_t game_deadline_locked(game *g);
/* Drops the cached views (after any change). */
void game_invalidate(game *g);
/* Appends {"event":..,"view":..} of seat color to event seq, rendered
 * from referee r (the game's own, or a replay up to seq); false when out
 * of memory. */
bool game_answer_append(game *g, const referee *r, int color, int seq, strbuf *out);
/* A new referee with the first `upto` actions of r replayed (NULL: out of
 * memory). */
referee *referee_replay(const referee *r, int upto);

#endif
