/* The operator's part of the store: reports of chat messages, removing a
 * message (a tombstone keeps its number), mutes and bans, hiding a game
 * from the lobby, the admin log, and erasing a game's talk (a seat's own
 * after the end, or everyone's when the retention period is over). Both
 * backends.
 *
 * Shape: these writes are rare (an operator's clicks, an hourly sweep) and
 * several of them are a few statements that belong together (a removal
 * closes the message's reports), so they do not ride the group-commit
 * queue: they run on one connection of their own, serialized by a mutex,
 * each as one transaction committed before the call returns (SQLite: a
 * second read-write connection, BEGIN IMMEDIATE, synchronous=FULL, waiting
 * out the group commit with the busy timeout; PostgreSQL: a connection
 * reopened after it breaks). STORE_OK therefore means durable, as for
 * every other write.
 *
 * Mutes and bans live here only, never in a server's memory alone: every
 * server sharing the database reads the active ones when it must decide,
 * so a mute made on one holds on all of them at once. */
#ifndef PG_STORE_ADMIN_H
#define PG_STORE_ADMIN_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"
#include "store/store_chat.h"

/* What a ban (or a mute, always chat) forbids; or'ed. */
enum { STORE_BAN_CREATE = 1, STORE_BAN_JOIN = 2, STORE_BAN_CHAT = 4 };

/* The most rows one list call returns. */
#define STORE_ADMIN_LIST_MAX 200
#define STORE_NETWORK_BYTES 65

typedef struct {
    int64_t id;
    bool ban;                          /* false: a mute */
    char game_id[24];                  /* a seat's mute: its game, or "" */
    int seat;                          /* 1 black, 2 white, 0 for a network */
    char network[STORE_NETWORK_BYTES]; /* "203.0.113.0/24", "2001:db8::1/128", or "" */
    int what;                          /* STORE_BAN_* */
    int64_t at_ms, until_ms;
} store_sanction;

typedef struct {
    int64_t id;
    char game_id[24];
    int room, n;
    char reporter[12]; /* "black", "white", "spectator" */
    char reason[STORE_TEXT_BYTES];
    int64_t at_ms;
    store_chat_message message; /* as stored now */
} store_report;

typedef struct {
    int64_t id, at_ms;
    char action[33];
    char target[129];
    char *detail; /* JSON text, owned by the list (store_admin_free_log) */
} store_log_entry;

/* store_add_report: STORE_NOT_FOUND when the game has no such message (or
 *   it was removed already). reporter as in store_report.
 * store_open_reports: the open reports, newest first, each with the
 *   message as stored; *out malloc'd (free), NULL when none. */
int store_add_report(store *st, const char *game_id, int room, int n, const char *reporter,
                     const char *reason, int64_t at_ms);
int store_open_reports(store *st, int limit, store_report **out, int *count);

/* Makes message n of the room a tombstone (name and text erased, the
 * number kept) and closes its reports. STORE_NOT_FOUND: no such message;
 * STORE_CONFLICT: removed already. */
int store_remove_chat(store *st, const char *game_id, int room, int n, int64_t at_ms);

/* Erases a game's talk: with seat 1 or 2 that seat's name and its messages
 * in the players' room; with seat 0 both names and every message of both
 * rooms (the retention sweep). Closes the erased messages' reports. The
 * numbers of the players' room's messages it erased go to removed[] (at
 * most cap; *count how many), with seat 0 those of both rooms, players'
 * first: *count_players tells where the spectators' start. STORE_NOT_FOUND
 * for an unknown game. */
int store_erase_talk(store *st, const char *game_id, int seat, int64_t at_ms, int *removed, int cap,
                     int *count, int *count_players);

/* The games whose talk (names or messages not yet erased) outlived
 * cutoff_ms: cancelled before it, or whose last action (or creation, with
 * none) was before it; ids after `after` in id order, at most `limit`
 * (<= STORE_ADMIN_LIST_MAX) into ids. The caller decides which have
 * ended (the referee knows, the store does not). */
int store_talk_older_than(store *st, int64_t cutoff_ms, const char *after, int limit, char (*ids)[24],
                          int *count);

/* store_add_sanction: stores s (its id and at_ms are the caller's; id
 *   ignored). STORE_ERROR for a value the schema refuses.
 * store_active_sanctions: those with until_ms > now_ms, newest first, at
 *   most STORE_ADMIN_LIST_MAX; *out malloc'd, NULL when none. */
int store_add_sanction(store *st, const store_sanction *s);
int store_active_sanctions(store *st, int64_t now_ms, store_sanction **out, int *count);

/* Takes a game out of the lobby for good: it is no longer public (its
 * invite, if any, still works). STORE_NOT_FOUND for an unknown game. */
int store_hide_game(store *st, const char *game_id);

/* store_log_admin: appends one action (detail: a JSON object's text).
 * store_read_admin_log: the newest `limit` entries, newest first; free
 *   with store_admin_free_log. */
int store_log_admin(store *st, int64_t at_ms, const char *action, const char *target, const char *detail);
int store_read_admin_log(store *st, int limit, store_log_entry **out, int *count);
void store_admin_free_log(store_log_entry *list, int count);

/* Closes the operator's connection (store_close calls it). */
void store_admin_close(store *st);

#endif
