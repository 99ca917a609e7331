/* games: the games in play, held in memory as a cache of the store.
 *
 * A game is its store row (settings, seats, invite) plus a referee rebuilt
 * by replaying the stored action log. Each game has its own lock; games
 * wait for each other only at the store's shared commit. No HTTP and no SQL
 * here: callers get statuses and JSON text made by the visibility filter
 * (wire/view_json), one viewer at a time.
 *
 * Acting (game_act) follows the durability rule: the referee judges the
 * action under the game lock, the store commits it (group commit), and only
 * then is the answer made; if the commit fails the referee is rebuilt from
 * its log without the action, so nothing is changed and nothing is told.
 * Each seat's last answer is kept, so a retried request (same seq, same
 * action) gets the first answer again instead of acting twice.
 *
 * Watchers (the WebSocket hub) are told after every change of a game, after
 * its lock is released, so a slow consumer never holds a game.
 *
 * The computer player plugs in through games_set_bot: one hook, called on
 * the games module's own worker threads (never an HTTP thread, never under
 * a game lock) with the computer seat's view and observations only; its
 * action then goes through game_act like anyone's. Games where the computer
 * is to move are queued after every change and at start-up, so a restart
 * resumes them. */
#ifndef PG_SERVER_GAMES_H
#define PG_SERVER_GAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/clock.h"
#include "engine/referee.h"
#include "engine/view.h"
#include "server/secrets.h"
#include "store/store.h"

typedef struct games games;
typedef struct game game;

typedef enum {
    GAMES_OK = 0,
    GAMES_NOT_FOUND,        /* no such game */
    GAMES_UNAVAILABLE,      /* the store cannot write: nothing changed (503) */
    GAMES_ERROR,            /* out of memory or a corrupt log (500) */
    GAMES_STALE_SEQ,        /* seq is not the next one, nor a retry of the seat's last */
    GAMES_NOT_YOUR_TURN,
    GAMES_ALREADY_TRIED,
    GAMES_OWN_STONE,
    GAMES_GAME_OVER,
    GAMES_BAD_VERTEX,
    GAMES_SEAT_TAKEN,       /* no free seat / invite used */
    GAMES_BAD_INVITE,       /* wrong invite secret */
    GAMES_NOT_OVER,         /* rematch of a game in progress */
    GAMES_NO_BOT,           /* computer mode without a computer player */
    GAMES_TOO_EARLY,        /* a claim before the opponent's limit passed */
    GAMES_NOT_PUBLIC        /* joining a game that is not in the lobby */
} games_status;

typedef enum { MODE_ONLINE = 0, MODE_HOTSEAT, MODE_COMPUTER } game_mode;

const char *game_mode_name(game_mode m);

/* ---- the computer player's hook ---------------------------------------- */

/* What the computer seat may know, all from the visibility filter: its view
 * now and the observations it was made from (obs[i].seq == i + 1). */
typedef struct bot_request {
    const char *game_id;
    const char *level;          /* "easy" | "medium" | "strong" */
    int color;                  /* the computer's seat */
    const view *vw;
    const observation *obs;
    int n_obs;
    uint64_t seed;              /* fresh per request */
    int64_t think_ms;           /* the most its clock allows for this decision; 0: no limit */
} bot_request;

typedef struct games_bot {
    /* Chooses the next action for rq->color (an attempt at a point not tried
     * this turn, a pass or a resignation). May take seconds; runs on a games
     * worker thread. Returns false if it cannot choose (the game then
     * passes for it). */
    bool (*choose)(void *ctx, const bot_request *rq, action *out);
    void *ctx;
    int threads;                /* worker threads thinking at once (>= 1) */
} games_bot;

/* ---- the registry -------------------------------------------------------- */

/* Opens the registry and starts its clock thread, which ends games whose
 * side to move ran out of time (an ACT_TIMEOUT, announced like any event). */
int games_open(games **out, store *st, char *err, size_t errlen);
/* Stops the clock thread and the computer's workers (waiting for moves
 * being thought), frees every game. No other call may be in flight. */
void games_close(games *gm);

/* abandon_after_s: how long the side to move of an untimed game may stay
 * silent before the opponent may claim the game (default 600). test_clock:
 * games_advance_clock may move the server's clock (tests only). Call
 * before serving. */
void games_set_options(games *gm, int abandon_after_s, bool test_clock);
/* Loads the stored games whose clock runs (so they time out on time after
 * a restart) and the public games of the lobby. Call once, before serving. */
void games_resume(games *gm);

/* The server's clock: milliseconds since the epoch (plus the test offset).
 * Stored action times, clocks and deadlines all read it. */
int64_t games_now_ms(games *gm);
/* Moves the clock forward by ms (tests only): false unless test_clock. */
bool games_advance_clock(games *gm, int64_t ms);

/* Enables computer mode: starts the workers and queues every stored game
 * where the computer is to move. Call once, before serving. */
bool games_set_bot(games *gm, const games_bot *bot);
bool games_has_bot(const games *gm);

/* Games in memory, and of those the ones still in play. */
void games_count(games *gm, long *loaded, long *in_play);

/* The game `id`, replayed from the store if not in memory: a reference
 * released with game_release. */
games_status games_get(games *gm, const char *id, game **out);
void game_release(game *g);

typedef struct game_new {
    game_mode mode;
    game_settings settings;
    time_control tc;
    bool public_game;           /* online: listed in the lobby */
    int creator_color;          /* BLACK or WHITE (online, computer) */
    const char *level;          /* computer: "easy" | "medium" | "strong" */
} game_new;

/* The secrets a new game hands out, once. */
typedef struct game_created {
    char id[24];
    char token[3][SECRET_TEXT_LEN + 1];     /* [BLACK], [WHITE]: "" if not the caller's */
    char invite[SECRET_TEXT_LEN + 1];       /* "" if none */
} game_created;

games_status games_create(games *gm, const game_new *req, game_created *out);

/* ---- one game ------------------------------------------------------------ */

const char *game_id(const game *g);
game_mode game_get_mode(const game *g);
const game_settings *game_get_settings(const game *g);
const char *game_level(const game *g);      /* NULL unless computer mode */
const time_control *game_get_time_control(const game *g);
bool game_is_public(const game *g);

/* The seat (BLACK/WHITE) whose token this is, or 0. Both seats are always
 * compared, in constant time. */
int game_seat_of(game *g, const char *token);

/* Claims the invited seat with its one-time secret: *color and token. The
 * game's clock starts with its second player. */
games_status game_claim(game *g, const char *invite, int *color, char token[SECRET_TEXT_LEN + 1]);
/* Takes the free seat of a public game without the invite (the lobby):
 * GAMES_NOT_PUBLIC for a game that is not public, GAMES_SEAT_TAKEN when no
 * seat is free. */
games_status game_join(game *g, int *color, char token[SECRET_TEXT_LEN + 1]);

/* A live connection of seat `color` opened (+1) or closed (-1). A seat is
 * "connected" while it has one; each change of that is told to watchers. */
void game_presence(game *g, int color, int delta);

/* Acts for seat `color` with request sequence number seq. GAMES_OK: *answer
 * is {"event":..,"view":..} (malloc'd) as that seat sees it.
 *
 * The clock is checked first: if the side to move has run out of time, its
 * timeout is appended (and the action then meets GAMES_GAME_OVER). An
 * ACT_FORFEIT of the opponent is a claim of an abandoned game: allowed only
 * when the opponent is to move in an untimed game (no days per move) and
 * has been for abandon_after_s, else GAMES_TOO_EARLY (timed games end by
 * their clock). */
games_status game_act(game *g, int color, int seq, const action *a, char **answer, size_t *len);

/* The view of viewer v as JSON (malloc'd), with the clock as of now. */
char *game_view_json(game *g, viewer v, size_t *len);

/* "<prefix>"events":[seq > since],"view":{..}}" for viewer v (malloc'd);
 * prefix is "{" for the polling answer and "{\"type\":\"update\"," for a
 * WebSocket frame. *seq_out: the game's seq the text is current for. */
char *game_events_json(game *g, viewer v, int since, const char *prefix, int *seq_out, size_t *len);

/* Rematch by seat `color` of a finished game: the first call creates the
 * new game (colours swapped; *created true, out holds the caller's seats);
 * a later call by the other seat takes its seat there (*created false). */
games_status game_rematch(games *gm, game *g, int color, bool *created, game_created *out);

/* The SGF record (malloc'd) of a finished game; NULL with *over false while
 * the game is on (nobody gets a record then), NULL with *over true when
 * out of memory. */
char *game_record_sgf(game *g, bool *over, size_t *len);

/* A seat's private notes (ghost stones) as a JSON array text. */
games_status game_get_notes(game *g, int color, char **ghosts_json);
games_status game_put_notes(game *g, int color, const char *ghosts_json);

/* ---- watchers ------------------------------------------------------------ */

typedef struct games_watcher {
    /* Called after g changed (an event, a seat claimed, a rematch offered),
     * with no game lock held but the watcher list locked: it must only
     * signal (set a flag, wake a thread), never call into games. */
    void (*notify)(struct games_watcher *w);
    struct games_watcher *next, *prev;
} games_watcher;

void game_watch(game *g, games_watcher *w);
/* After it returns, w is never notified again. */
void game_unwatch(game *g, games_watcher *w);

/* ---- the lobby ----------------------------------------------------------- */

/* "<prefix>"open":[..],"playing":[..]}" (malloc'd): the public games with a
 * free seat, newest first, and those in progress (docs/API.md, Lobby);
 * prefix is "{" for GET /api/v1/lobby and "{\"type\":\"lobby\"," for the
 * WebSocket. */
char *games_lobby_json(games *gm, const char *prefix, size_t *len);
/* Watchers of the lobby, notified (same rules as a game's) when a public
 * game appears, loses its free seat or ends. */
void games_lobby_watch(games *gm, games_watcher *w);
void games_lobby_unwatch(games *gm, games_watcher *w);

#endif
