/* game: one game in play, under its own lock. It is its store row
 * (settings, seats, invite) plus a referee rebuilt by replaying the stored
 * action log. It knows nothing of the registry that holds it, nor of the
 * lobby, the deadlines or the computer: those listen (registry_listener) and
 * ask through this interface like anyone else.
 *
 * Acting (game_act) follows the durability rule: the referee judges the
 * action under the game lock, the store commits it (group commit), and only
 * then is the change visible; if the commit fails the referee is rebuilt
 * from its log without the action, so nothing is changed and nothing is
 * told. Each seat's last action is kept, so a retried request (same seq,
 * same action) gets the first answer again, rendered anew as of that
 * action, instead of acting twice.
 *
 * After every change, with no lock held, the game tells its watchers (the
 * WebSocket hub's sockets on this game) and then the listeners of its
 * environment (everyone who follows every game). Readers get values: JSON
 * text rendered by src/wire (appended to the caller's strbuf, for it to
 * wrap in its envelope), clock snapshots, plain structs. */
#ifndef PG_GAMES_GAME_H
#define PG_GAMES_GAME_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/clock.h"
#include "engine/referee.h"
#include "engine/view.h"
#include "games/secrets.h"
#include "store/store.h"
#include "util/game_mode.h"
#include "util/strbuf.h"

typedef struct game game;

/* Bytes of a seat's display name and its NUL (32 characters of UTF-8). */
#define GAME_NAME_BYTES 129

typedef enum {
    GAME_OK = 0,
    GAME_NOT_FOUND,   /* no such game */
    GAME_UNAVAILABLE, /* the store cannot write: nothing changed (503) */
    GAME_ERROR,       /* out of memory or a corrupt log (500) */
    GAME_STALE_SEQ,   /* seq is not the next one, nor a retry of the seat's last */
    GAME_NOT_YOUR_TURN,
    GAME_ALREADY_TRIED,
    GAME_OWN_STONE,
    GAME_GAME_OVER,
    GAME_BAD_VERTEX,
    GAME_SEAT_TAKEN,  /* no free seat / invite used */
    GAME_BAD_INVITE,  /* wrong invite secret */
    GAME_NOT_OVER,    /* rematch of a game in progress */
    GAME_NO_BOT,      /* computer mode without a computer player */
    GAME_TOO_EARLY,   /* a claim before the opponent's limit passed */
    GAME_NOT_PUBLIC,  /* joining a game that is not in the lobby */
    GAME_CANCELLED,   /* the game was cancelled: no claim, action or chat */
    GAME_CHAT_CLOSED, /* a spectator's message where there is no spectators' room */
    GAME_CHAT_FULL,   /* the room holds GAME_CHAT_ROOM_MAX messages */
    GAME_REMOVED_ALREADY, /* the message was removed before */
    GAME_AID_OFF,         /* the deduction aid is off at this table */
    GAME_AID_FOR_SEATS,   /* the aid before the end without a seat token */
    GAME_AID_NOT_YOURS,   /* the other seat's aid before the end */
    GAME_BAD_AID_REQUEST, /* after the end: no such seat or position */
    GAME_NO_REMATCH,  /* accept, withdraw or decline with no open rematch offer */
    GAME_NOT_OFFERER, /* withdrawing the opponent's rematch offer */
    GAME_OWN_OFFER    /* accepting or declining one's own rematch offer */
} game_status;

/* The one mapping of a STORE_* code to a games status. Inline here, so
 * that every part of a game (game.c, game_talk.c...) can use it without
 * calling into another. */
static inline game_status game_status_of_store(int store_rc) {
    switch (store_rc) {
    case STORE_OK: return GAME_OK;
    case STORE_NOT_FOUND: return GAME_NOT_FOUND;
    case STORE_CONFLICT: return GAME_SEAT_TAKEN; /* the one conflict a caller can meet */
    case STORE_UNAVAILABLE: return GAME_UNAVAILABLE;
    default: return GAME_ERROR;
    }
}

/* ---- the environment every game lives in --------------------------------- */

/* What the lobby lists of a public game; all of it public. */
typedef struct game_lobby_facts {
    bool listed;    /* public, in play and not cancelled */
    int free_color; /* the seat still free, or 0 */
    int64_t created_ms, started_ms;
    char names[3][GAME_NAME_BYTES]; /* [BLACK], [WHITE]: "" for none */
} game_lobby_facts;

/* What a change of a game left, read under the game's lock once per
 * notice and handed to every listener, so that none locks the game again
 * to ask. Two threads' notices of one game may reach a listener in either
 * order: version orders them, and a listener that keeps state about a game
 * applies a record only while it is the game's latest
 * (game_change_is_latest); the latest one always arrives. */
typedef struct game_change {
    int version;         /* this record's number among g's records */
    int seq;             /* events so far */
    bool over;           /* the game has ended */
    bool cancelled;      /* cancelled before anyone took the other seat */
    bool computer_due;   /* the computer seat is to move */
    int64_t deadline_ms; /* when the side to move runs out (server clock); INT64_MAX: never */
    game_lobby_facts lobby; /* what the lobby lists (listed false unless public) */
} game_change;

/* Someone who follows every game (the lobby, the deadlines, the computer).
 * changed runs after a game changed, was loaded or was created, on the
 * thread that changed it, with no lock held, with the record of that
 * change; it may call this interface (taking g's lock) and must return
 * soon, never (un)listen. */
typedef struct registry_listener {
    void (*changed)(struct registry_listener *l, game *g, const game_change *c);
    struct registry_listener *next;
} registry_listener;

typedef struct game_env {
    store *st;
    atomic_llong clock_offset_ms;    /* added to the wall clock (tests only) */
    int64_t abandon_ms;              /* an untimed game's claim limit */
    pthread_rwlock_t listeners_lock; /* read while telling, written to (un)listen */
    registry_listener *listeners;
} game_env;

/* The server's clock: milliseconds since the epoch plus the test offset.
 * Stored action times, clocks and deadlines all read it. */
int64_t game_env_now_ms(game_env *env);

/* Another server stored event seq of g: if this copy is behind, it is
 * reloaded from the log and its watchers and listeners told. */
void game_catch_up(game *g, int seq);
/* Another server changed g's row (a seat taken, a cancel, a rematch), or
 * news of g may have been lost: the copy reads its row, log, names and
 * rooms' counts afresh; its watchers and listeners are told what differs. */
void game_refresh(game *g);
/* A server stored a seat's name of g, or message n of `room`: the copy
 * reads the names again (told as a change when they differ), or learns
 * that the room reaches n (told only to the watchers that read it). */
void game_names_heard(game *g);
void game_chat_heard(game *g, int room, int n);

/* ---- life -------------------------------------------------------------- */

/* A game built from its store row (whose owned fields it takes, leaving
 * row's pointers NULL) and its log of n actions, replayed. NULL with the
 * reason in err if the row or log cannot be replayed, a read of its names,
 * chat or rematch fails, or out of memory. *store_rc is the failed read's
 * STORE_* code (STORE_OK for any other failure): a database that went away
 * halfway through a load is STORE_UNAVAILABLE, for the caller to answer
 * 503 (try again) rather than 500. */
game *game_from_store(game_env *env, store_game *row, const store_action *acts, int n, int *store_rc,
                      char *err, size_t errlen);
/* Frees a game nobody references any more. */
void game_free(game *g);

/* References: whoever holds a game pointer holds one. */
game *game_ref(game *g);
void game_release(game *g);
/* No reference and unused for idle_ms of the monotonic clock at now. */
bool game_idle(const game *g, int64_t now, int64_t idle_ms);

/* Tells g's watchers, then the environment's listeners (with a new
 * record, game_change), that g changed. No lock held. */
void game_notify(game *g);
/* A record of g as it is now, for a listener that looks at g outside a
 * notice (a game handed over at start-up, a worker letting go of it, a
 * timer). It bears the latest notice's version, so it stays the latest
 * until the next notice, which every listener then gets. */
void game_change_now(game *g, game_change *out);
/* Is c still g's latest record? (No lock: a newer one may be on its way,
 * and then it arrives after this answer.) */
bool game_change_is_latest(game *g, const game_change *c);

/* ---- facts (set once, read without the lock) ------------------------------ */

const char *game_id(const game *g);
game_mode game_get_mode(const game *g);
const game_settings *game_get_settings(const game *g);
const char *game_level(const game *g); /* NULL unless computer mode */
const time_control *game_get_time_control(const game *g);
bool game_is_public(const game *g);
bool game_has_aid(const game *g); /* the deduction aid is on at this table */
int game_computer_color(const game *g); /* 0 unless computer mode */
bool game_is_over(const game *g);

/* ---- seats ----------------------------------------------------------------- */

/* The seat (BLACK/WHITE) whose token this is, or 0. Both seats are always
 * compared, in constant time. */
int game_seat_of(game *g, const char *token);

/* Claims the invited seat with its one-time secret: *color and token. The
 * game's clock starts with its second player. */
game_status game_claim(game *g, const char *invite, int *color, char token[SECRET_TEXT_LEN + 1]);
/* Takes the free seat of a public game without the invite (the lobby):
 * GAME_NOT_PUBLIC for a game that is not public, GAME_SEAT_TAKEN when no
 * seat is free. */
game_status game_join(game *g, int *color, char token[SECRET_TEXT_LEN + 1]);
/* Takes seat `color` of a rematch, left for the other player of the game
 * before it (no invite is told to anyone for it). */
game_status game_take_rematch_seat(game *g, int color, char token[SECRET_TEXT_LEN + 1]);

/* Cancels an online game whose other seat nobody took (its invite unused),
 * for seat `color`: GAME_SEAT_TAKEN once it was taken (or for hot-seat and
 * computer games), GAME_CANCELLED if it already was. */
game_status game_cancel(game *g, int color);
bool game_cancelled(game *g);

/* A live connection of seat `color` opened (+1) or closed (-1). A seat is
 * "connected" while it has one; each change of that is told to watchers.
 * VIEWER_SPECTATOR counts the spectators watching (the view's count). */
void game_presence(game *g, int color, int delta);

/* ---- acting ---------------------------------------------------------------- */

/* Acts for seat `color` with request sequence number seq. GAME_OK: the
 * answer {"event":..,"view":..}, as that seat sees it, is appended to
 * answer (NULL: none wanted, as for the computer; GAME_ERROR when it
 * could not be rendered, the action being stored all the same).
 *
 * The clock is checked first: if the side to move has run out of time, its
 * timeout is appended (and the action then meets GAME_GAME_OVER). An
 * ACT_FORFEIT of the opponent is a claim of an abandoned game: allowed only
 * when the opponent is to move in an untimed game (no days per move) and
 * has been for the environment's abandon_ms, else GAME_TOO_EARLY (timed
 * games end by their clock). */
game_status game_act(game *g, int color, int seq, const action *a, strbuf *answer);

/* Appends the timeout of the side to move if it has run out now: 1 if it
 * did, 0 if nothing was due, -1 if the timeout could not be stored (nothing
 * changed). Tells listeners when it fired. */
int game_check_clock(game *g);
/* When the side to move runs out (ms of the server's clock), or INT64_MAX
 * for a finished or unlimited game. */
int64_t game_deadline(game *g);

/* The rematch recorded for g, copied into id ("" when none): under the
 * game's lock, *over tells whether g has ended and *cancelled whether that
 * rematch was cancelled (its offer withdrawn or declined). */
void game_rematch_of(game *g, bool *over, char id[24], bool *cancelled);
/* What g's rematch repeats: mode, settings, time control and level. */
void game_rematch_request(game *g, game_mode *mode, game_settings *settings, time_control *tc,
                          char level[16]);
/* Records g's rematch once the store holds it (store_create_rematch). */
void game_set_rematch(game *g, const char *rematch_id);
/* Records that g's rematch rematch_id was cancelled (the offer withdrawn or
 * declined); a no-op if g links another rematch by now. */
void game_set_rematch_cancelled(game *g, const char *rematch_id);
/* The colour whose seat of rematch game g is still open to the player
 * invited (the offerer's colour in the finished game), or 0 once taken
 * or cancelled. */
int game_rematch_invited_color(game *g);

/* ---- reading ---------------------------------------------------------------- */

/* Appends the view of viewer v, its "clock" as of now, as JSON text
 * (docs/API.md); false when out of memory. *seq_out (if not NULL): the
 * game's seq it is current for. A lookup and a copy while the game does
 * not change: the text is rendered once per change and viewer. */
bool game_view_text(game *g, viewer v, strbuf *out, int *seq_out);
/* Appends the members "events":[seq > since],"view":{..} of an update
 * for viewer v (the caller writes the braces around them, and any other
 * member); *over_out (if not NULL): the game has ended, as that view
 * says. False when out of memory. */
bool game_update_text(game *g, viewer v, int since, strbuf *out, int *seq_out, bool *over_out);

/* The SGF record (malloc'd) of a finished game; NULL with *over false while
 * the game is on (nobody gets a record then), NULL with *over true when
 * out of memory. */
char *game_record_sgf(game *g, bool *over, size_t *len);

/* A seat's private notes (ghost stones) as a JSON array text. */
game_status game_get_notes(game *g, int color, char **ghosts_json);
game_status game_put_notes(game *g, int color, const char *ghosts_json);

/* What the lobby lists of g now (game_lobby_facts, above). */
void game_lobby_facts_of(game *g, game_lobby_facts *out);

/* What the computer seat may know when it is to move: its view, the
 * observations it was made from (malloc'd, obs[i].seq == i + 1) and how
 * long its clock lets it think. False (nothing allocated) when it is not
 * the computer's turn, or out of memory. */
typedef struct game_computer_turn {
    view vw;
    observation *obs;
    int n_obs;
    int64_t think_ms;
} game_computer_turn;
bool game_computer_turn_of(game *g, game_computer_turn *out);
/* The computer (server/computer.c) starts a turn of g with think_percent
 * of its level's budget, less than 100 when other games wait for it. The
 * view's "computer" object tells it (public: it depends on the server's
 * load only); watchers are told when it changes. */
void game_set_computer_pace(game *g, int think_percent);

/* ---- the deduction aid (game_aid.c) ------------------------------------------ */

/* The deduction aid of seat `color` after event `seq` as viewer v asks
 * for it: JSON text (wire/aid_json.h) in *json, malloc'd. color 0 means
 * v's own seat (after the end a spectator's default is the computer's
 * seat); seq -1 means now, or after the end the last position before it.
 * While the game is on only a seat's own aid now (GAME_AID_FOR_SEATS,
 * GAME_AID_NOT_YOURS, GAME_STALE_SEQ); after the end any seat at seq
 * 0..n-1 (GAME_BAD_AID_REQUEST otherwise). GAME_AID_OFF when the table
 * has it off, except for the computer's seat after the end. The estimate
 * runs with no lock held; answers are cached per seat and seq. */
game_status game_aid(game *g, viewer v, int color, int seq, char **json);

/* ---- table talk (game_talk.c) ------------------------------------------------ */

/* The two chat rooms: the players' (the seats write; everyone reads after
 * the end) and the spectators' (online games; spectators write, the seats
 * read after the end). Numbering shared with store_chat.h and chat_json.h. */
enum { GAME_ROOM_PLAYERS = 1, GAME_ROOM_SPECTATORS = 2 };
#define GAME_CHAT_ROOM_MAX 2000

/* May viewer v of a game in `mode` read `room`, the game being over or not? */
bool game_room_readable(game_mode mode, viewer v, int room, bool over);

/* Sets (or with "" or NULL removes) seat color's display name, already
 * checked by wire/talk_text; stored, then everyone is told. */
game_status game_rename(game *g, int color, const char *name);
/* Appends {"black":..,"white":..}, the seats' names; false when out of
 * memory. */
bool game_names_text(game *g, strbuf *out);

/* A message by seat `author` (players' room) or a spectator
 * (VIEWER_SPECTATOR, with the name it chose or NULL: spectators' room),
 * its text already checked. Stored before the answer, like an action; it
 * changes no seq and no view. The message, as chat_json renders it, is
 * appended to message. GAME_CHAT_CLOSED for a spectator of a hot-seat
 * or computer game, GAME_CHAT_FULL, GAME_CANCELLED. */
game_status game_say(game *g, viewer author, const char *name, const char *text, strbuf *message);
/* The highest message number of a room (0: none). */
int game_chat_last(game *g, int room);

/* ---- moderation (game_moderation.c) ------------------------------------- */

/* A report of message n of `room` by viewer v, who must read that room
 * now (else GAME_NOT_FOUND, as for a message that does not exist: a
 * report tells nothing about a room one cannot read). reason is checked
 * text or "". Its author is never told. */
game_status game_report(game *g, viewer v, int room, int n, const char *reason);
/* The operator removes message n of `room`: a tombstone in the store, and
 * every watcher told (game_chat_removed). GAME_NOT_FOUND for no such
 * message, GAME_REMOVED_ALREADY when it is a tombstone already. */
game_status game_remove_message(game *g, int room, int n);
/* Erases talk after the end: seat 1 or 2 its own name and messages (a
 * seat's right), 0 both names and every message (the retention sweep).
 * GAME_NOT_OVER while the game is in play (and not cancelled). *erased:
 * how many messages became tombstones. */
game_status game_erase_talk(game *g, int seat, int *erased);
/* Message n of `room` is a tombstone now (removed here, or news of
 * another server): the watchers are told, once. */
void game_chat_removed(game *g, int room, int n);
/* Appends {"messages":[n > after, at most `limit`, the newest],"last":N}
 * of a room, read from the store (the caller decides who may read it):
 * GAME_UNAVAILABLE when the store cannot be read, GAME_ERROR when out of
 * memory. */
game_status game_chat_room_text(game *g, int room, int after, int limit, strbuf *out);
/* The same messages, each as its WebSocket frame {"type":"chat",
 * "message":{..}} handed to each(ctx, n, frame, len) in order; a false
 * from each stops (GAME_UNAVAILABLE). */
typedef bool (*game_frame_fn)(void *ctx, int n, const char *frame, size_t len);
game_status game_chat_frames(game *g, int room, int after, int limit, game_frame_fn each, void *ctx);


/* ---- watchers --------------------------------------------------------------- */

typedef struct game_watcher {
    /* Called after g changed (an event, a seat claimed, a rematch offered),
     * with no game lock held but the watcher list locked: it must only
     * signal (set a flag, wake a thread), never call into games. */
    void (*notify)(struct game_watcher *w);
    /* Called (same rules) when chat room `room` got a message; NULL for a
     * watcher that reads no chat. The watcher decides whether its viewer
     * may read that room; a player's socket must not even wake up for the
     * spectators' room during the game. */
    void (*talk)(struct game_watcher *w, int room);
    /* Called (same rules) when message n of `room` was removed (a
     * tombstone now); NULL for a watcher that reads no chat. The watcher
     * tells its viewer only if it had sent that message. */
    void (*removed)(struct game_watcher *w, int room, int n);
    struct game_watcher *next, *prev;
} game_watcher;

void game_watch(game *g, game_watcher *w);
/* After it returns, w is never notified again. */
void game_unwatch(game *g, game_watcher *w);

/* A doubly linked list of watchers; the caller holds the lock that guards
 * the list. */
void watcher_list_add(game_watcher **head, game_watcher *w);
void watcher_list_remove(game_watcher **head, game_watcher *w);

#endif
