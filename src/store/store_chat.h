/* Table talk in the store: each seat's display name, the messages of a
 * game's two chat rooms, and the cancellation of a game nobody joined.
 *
 * Durable like actions: every write here goes through the same group-commit
 * writer, so STORE_OK means committed. None of it touches the action log,
 * so talk never changes a game's sequence numbers or what the referee
 * knows. Messages are numbered per room (1, 2, ...): a players' room that
 * counts 1, 2, 3 says nothing about how many spectators spoke.
 *
 * Texts arrive already checked (wire/talk_text); the schema's CHECKs
 * (lengths, room/author pairs) are the last guard, answered STORE_ERROR.
 * How many messages a room may keep is the caller's rule: the store keeps
 * what it is given. */
#ifndef PG_STORE_CHAT_H
#define PG_STORE_CHAT_H

#include "store/store.h"

/* Bytes of a stored name (32 characters of at most 4 bytes, and the NUL)
 * and of a message (300 characters). */
#define STORE_NAME_BYTES 129
#define STORE_TEXT_BYTES 1201

enum { STORE_ROOM_PLAYERS = 1, STORE_ROOM_SPECTATORS = 2 };

/* The most messages one store_read_chat returns. */
#define STORE_CHAT_READ_MAX 1000

typedef struct store_chat_message {
    int room;                    /* STORE_ROOM_* */
    int n;                       /* 1, 2, ... within its room */
    int author;                  /* 1 black, 2 white, 0 a spectator */
    char name[STORE_NAME_BYTES]; /* the author's name then; "" for none */
    char text[STORE_TEXT_BYTES];
    int64_t at_ms; /* server clock when accepted */
    bool removed;  /* a tombstone: name and text "" (store_admin.h) */
} store_chat_message;

/* store_put_name:    sets seat `color`'s name; NULL or "" removes it.
 *                    STORE_NOT_FOUND for an unknown game.
 * store_append_chat: STORE_NOT_FOUND for an unknown game, STORE_CONFLICT if
 *                    (game, room, n) exists, STORE_ERROR for a message the
 *                    schema refuses (a spectator in the players' room...).
 * store_cancel_game: marks the game cancelled at at_ms and clears its
 *                    invite, only while the invite is unused: STORE_CONFLICT
 *                    when the other seat was taken (or the game has no
 *                    invite: hot-seat, computer) or it was cancelled
 *                    already; STORE_NOT_FOUND for an unknown game. The
 *                    cancellation shows in store_game.cancelled_at_ms and
 *                    takes the game out of the "public_to_list" walk. */
int store_put_name(store *st, const char *game_id, int color, const char *name);
int store_append_chat(store *st, const char *game_id, const store_chat_message *m);
int store_cancel_game(store *st, const char *game_id, int64_t at_ms);

/* store_get_names:  names[0] black's, names[1] white's ("" when unset).
 *                   STORE_NOT_FOUND for an unknown game.
 * store_chat_count: *out_n = the highest n of the room (0 when empty).
 * store_read_chat:  the room's messages with n > after_n, oldest first, at
 *                   most `limit` of them; *out is malloc'd (the caller frees;
 *                   NULL when *out_count is 0). An unknown game has none. */
int store_get_names(store *st, const char *game_id, char names[2][STORE_NAME_BYTES]);
int store_chat_count(store *st, const char *game_id, int room, int *out_n);
int store_read_chat(store *st, const char *game_id, int room, int after_n, int limit,
                    store_chat_message **out, int *out_count);

#endif
