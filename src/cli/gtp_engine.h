/* gtp_engine: the Phantom Go engine behind `phantomgo gtp`, one seat of a
 * game driven through GTP version 2 and the phantom- extension commands of
 * docs/GTP.md.
 *
 * The engine is a pure function from one line of input to its response: no
 * I/O, so the command loop (gtp_cmd.c), the tests and the fuzzer all drive
 * this same code. What the controller reports (the referee's answer to the
 * engine's own attempt, the opponent's public news) is turned into exactly
 * the observation the visibility filter (engine/view.h) gives this seat and
 * folded into the player's bot_memory, as the server and the arena do. A
 * report that says more than the seat may know (the opponent's vertex, a
 * reason for someone else's illegal attempt, the points of a Hamburg capture
 * by the engine), or less than the referee tells it, is refused: the engine
 * cannot be taught anything its seat would not learn. This module must never
 * include engine/referee.h (tests/check-layers.sh). */
#ifndef PG_CLI_GTP_ENGINE_H
#define PG_CLI_GTP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bot/bot.h"

/* The dialect's version, answered by phantom-protocol_version. */
#define GTP_PHANTOM_VERSION 1

/* Room for the longest response (showboard of 25x25, list_commands). */
#define GTP_RESPONSE_MAX 8192

typedef struct gtp_engine gtp_engine;

/* A new engine playing with the given player configuration; player_name
 * (e.g. "strong") appears in `version`. seed seeds the games until the
 * controller sends phantom-seed. NULL if memory runs out. */
gtp_engine *gtp_engine_new(const bot_config *cfg, const char *player_name, uint64_t seed);
void gtp_engine_free(gtp_engine *e);

/* Executes one line of input (len bytes, any bytes: GTP's preprocessing
 * removes control characters and comments). Writes the response,
 * "=[id] ...\n\n" or "?[id] ...\n\n", NUL-terminated, into out (at least
 * GTP_RESPONSE_MAX bytes) and returns its length; returns 0 and writes ""
 * when the line holds no command. *quit becomes true after `quit`. */
size_t gtp_engine_execute(gtp_engine *e, const char *line, size_t len, char *out, bool *quit);

#endif
