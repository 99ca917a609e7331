/* games_internal: the structures shared by the files of the games module
 * (games.c: registry, loading, creation; game_play.c: acting, claiming,
 * rematches, views; games_bot.c: the computer player's workers). Nothing
 * outside src/server/games*.c and game_play.c includes it.
 *
 * Locks, in the only order they may nest: a game's lock, then the
 * registry's lock or the bot queue's lock (both leaves). A game's watcher
 * lock is taken alone. Fields read without the game lock are atomics. */
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

    /* Game lock. */
    store_game row;
    game_mode mode;
    char level[16];
    int computer_color;          /* 0 unless computer mode */
    referee *ref;
    seat_answer last[3];         /* [BLACK], [WHITE] */
    char *view_text[VIEWERS];    /* cached JSON of each viewer's view; NULL = stale */
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
};

/* games.c */
int64_t games_clock_ms(void);
void game_table(const game *g, view_table *t);
/* A new referee with the first `upto` actions of r replayed (NULL: out of memory). */
referee *referee_replay(const referee *r, int upto);
game *game_ref(game *g);

/* game_play.c */
/* Drops the cached views (after any change). Game lock held. */
void game_invalidate(game *g);
/* Tells the watchers and the computer player that g changed. No lock held. */
void game_changed(game *g);
/* The answer {"event":..,"view":..} of seat color to event seq, rendered
 * from referee r (the game's own, or a replay up to seq). */
char *game_answer_text(game *g, const referee *r, int color, int seq, size_t *len);

/* games_bot.c */
/* Queues g if the computer is to move there (takes a reference). */
void games_bot_consider(game *g);
bool games_bot_start(games *gm);
void games_bot_stop(games *gm);

#endif
