/* games_internal: the structures shared by the files of the games module
 * (games.c: registry, loading, creation; game_play.c: acting, claiming,
 * rematches, views; games_bot.c: the computer player's workers). Nothing
 * outside src/server/games*.c and game_play.c includes it.
 *
 * (games_clock.c: the server's clock, each game's clock folded from its
 * action times, timeouts and the deadline thread; games_lobby.c: the index
 * of public games.)
 *
 * Locks, in the only order they may nest: a game's lock, then the
 * registry's lock, the bot queue's lock, the deadline list's lock or the
 * lobby's lock (leaves; the lobby's may take the registry's to reference
 * or release a game). A game's watcher lock is taken alone, as is the
 * lobby's watcher lock. Fields read without the game lock are atomics or
 * set once before the game is shared (is_public). */
#ifndef PG_SERVER_GAMES_INTERNAL_H
#define PG_SERVER_GAMES_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "server/games.h"
#include "wire/view_json.h"

enum { VIEWERS = 4 };    /* index by viewer: 1 black, 2 white, 3 spectator */

typedef struct seat_answer {     /* a seat's last accepted action and its answer */
    int seq;                     /* 0: none */
    action act;
    char *text;
    size_t len;
} seat_answer;

struct game {
    games *owner;
    char id[24];
    pthread_mutex_t lock;

    /* Registry lock. */
    int refs;
    int64_t last_used_ms;
    game *hash_next;

    /* Read anywhere. */
    atomic_bool over;
    atomic_int n_watchers;
    atomic_bool bot_queued;
    atomic_int presence[3];      /* live connections of [BLACK], [WHITE] */

    /* Set once before the game is shared: read anywhere (the referee
     * pointer is not: a failed commit replaces it under the lock). */
    game_settings settings;

    /* Game lock. */
    store_game row;
    game_mode mode;
    char level[16];
    int computer_color;          /* 0 unless computer mode */
    time_control tc;
    referee *ref;
    int64_t *at_ms;              /* when each event was accepted: at_ms[seq - 1] */
    int n_at, cap_at;
    seat_answer last[3];         /* [BLACK], [WHITE] */
    char *view_text[VIEWERS];    /* cached JSON of each viewer's view; NULL = stale */
    /* A write failed in a way that may mean the log has moved on without
     * this copy (another server appended, or a commit's outcome is
     * unknown): reload from the log before judging the next action. */
    bool log_in_doubt;
    size_t view_len[VIEWERS];

    /* Watcher lock. */
    pthread_mutex_t watch_lock;
    games_watcher *watchers;
};

struct games {
    store *st;
    pthread_mutex_t lock;        /* the registry */
    game **buckets;
    size_t nbuckets, count;
    int64_t last_sweep_ms;

    /* The computer player (games_bot.c). */
    games_bot bot;
    bool has_bot;
    pthread_t *workers;
    int n_workers;
    pthread_mutex_t bot_lock;
    pthread_cond_t bot_cond;
    game **queue;                /* ring of referenced games to think about */
    size_t q_head, q_len, q_cap;
    bool stopping;

    /* The clock (games_clock.c). */
    atomic_llong clock_offset_ms;    /* added to the wall clock (tests only) */
    bool test_clock;
    int64_t abandon_ms;
    pthread_t timer;
    bool timer_running, timer_stopping;
    pthread_mutex_t timer_lock;
    pthread_cond_t timer_cond;       /* on CLOCK_MONOTONIC */
    struct deadline *deadlines;      /* games whose side to move can run out */
    size_t n_deadlines, cap_deadlines;

    /* The lobby (games_lobby.c). */
    pthread_mutex_t lobby_lock;
    struct lobby_entry *lobby;       /* referenced public games in play */
    size_t n_lobby, cap_lobby;
    pthread_mutex_t lobby_watch_lock;
    games_watcher *lobby_watchers;
};

/* games.c */
int64_t games_clock_ms(void);   /* monotonic: the registry's idle sweep */
void game_table(const game *g, view_table *t);
/* A new referee with the first `upto` actions of r replayed (NULL: out of memory). */
referee *referee_replay(const referee *r, int upto);
/* Game lock held. Replaces g's log-derived state (referee, times, last
 * answers, row) with the store's, keeping its watchers; false (g
 * unchanged) if the store cannot be read. */
bool game_reload_log(game *g);
game *game_ref(game *g);

/* game_play.c */
/* Drops the cached views (after any change). Game lock held. */
void game_invalidate(game *g);
/* Tells the watchers and the computer player that g changed. No lock held. */
void game_changed(game *g);
/* The answer {"event":..,"view":..} of seat color to event seq, rendered
 * from referee r (the game's own, or a replay up to seq). */
char *game_answer_text(game *g, const referee *r, int color, int seq, size_t *len);

/* Commits the event the referee just produced for action a, stamped at
 * at_ms; on failure the referee goes back to the log before it. Game lock
 * held. */
games_status game_commit_event(game *g, const action *a, const ref_event *ev, int64_t at_ms);

/* games_clock.c */
bool games_clock_start(games *gm);
void games_clock_stop(games *gm);
/* The clock of g after its first `upto` events of referee r (g's own or a
 * replay of it). Game lock held. */
void game_clock_fold(const game *g, const referee *r, int upto, game_clock *out);
/* Appends the timeout of the side to move if it has run out at now: 1 if
 * it did, 0 if nothing was due, -1 if the timeout could not be stored
 * (nothing changed). Game lock held. */
int game_enforce_clock(game *g, int64_t now);
/* GAMES_OK if seat `claimer` may claim g as abandoned at now, else
 * GAMES_TOO_EARLY. Game lock held. */
games_status game_claim_allowed(game *g, int claimer, int64_t now);
/* Records (or, for a finished or unlimited game, drops) g's deadline for
 * the clock thread. Game lock held (or g not yet shared). */
void game_clock_rearm(game *g);
/* view_text ("{...}") with ,"clock":{..} added for the clock after `upto`
 * events read at `now` (malloc'd; NULL when out of memory). Game lock held. */
char *game_with_clock(const game *g, const referee *r, int upto, int64_t now,
                      const char *view_text, size_t len, size_t *out_len);

/* games_lobby.c */
void games_lobby_init(games *gm);
/* Frees the index (releasing its games). */
void games_lobby_free(games *gm);
/* Adds, updates or removes public game g after a change. No lock held. */
void games_lobby_update(game *g);

/* A doubly linked list of watchers (a game's viewers, the lobby's); the
 * caller holds the lock that guards the list. */
static inline void watcher_list_add(games_watcher **head, games_watcher *w) {
    w->prev = NULL;
    w->next = *head;
    if (*head) (*head)->prev = w;
    *head = w;
}

static inline void watcher_list_remove(games_watcher **head, games_watcher *w) {
    if (w->prev) w->prev->next = w->next;
    else *head = w->next;
    if (w->next) w->next->prev = w->prev;
    w->next = w->prev = NULL;
}

/* Game ids copied out of a store_list_games walk (games_collect_id is its
 * callback), so games can be loaded after the walk; the caller frees ids. */
typedef struct id_list { char (*ids)[24]; size_t n, cap; } id_list;
int games_collect_id(void *ctx, const char *id);

/* games_bot.c */
/* Queues g if the computer is to move there (takes a reference). */
void games_bot_consider(game *g);
bool games_bot_start(games *gm);
void games_bot_stop(games *gm);

#endif
