/* sgf: the record of a FINISHED game as an SGF (FF[4]) file, the format
 * every Go program opens.
 *
 * The legal moves and passes are ordinary B[]/W[] moves and the settings are
 * the standard root properties, so any SGF viewer replays the game; the
 * Phantom information (illegal attempts and their reasons, captured points,
 * atari announcements, the referee rules, ko rule, torus, capture target and
 * how the game ended) is in properties of our own, PG*, plus a plain-English
 * comment per node for people. docs/SGF.md documents every property.
 *
 * Everything comes from the visibility filter, view.h, as seen by a
 * spectator: once the game is over a spectator's observations are the full
 * truth, and before that there is no record at all (NULL), so this file can
 * never leak a game in progress. */
#ifndef PG_WIRE_SGF_H
#define PG_WIRE_SGF_H

#include <stdint.h>

#include "engine/view.h"

/* What the record says beyond the game itself; any field may be NULL/0. */
typedef struct sgf_meta {
    const char *game_id;    /* GN */
    const char *black_name; /* PB, when known */
    const char *white_name; /* PW, when known */
    int64_t started_ms;     /* DT (UTC date), 0 to leave it out */
} sgf_meta;

/* The SGF text of the game r (malloc'd, the caller frees), or NULL if the
 * game is not over yet, or memory ran out. meta may be NULL. */
char *sgf_record_new(const referee *r, const sgf_meta *meta);

#endif
