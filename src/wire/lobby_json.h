/* lobby_json: the open-games lobby on the wire (docs/API.md, Lobby): one
 * entry per public game in play, everything in it public (settings, time
 * control, which seat is free, when it was created or started). */
#ifndef PG_WIRE_LOBBY_JSON_H
#define PG_WIRE_LOBBY_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "engine/clock.h"
#include "engine/rules.h"
#include "util/strbuf.h"

typedef struct lobby_item {
    const char *id;
    const game_settings *settings;
    const time_control *tc;
    int free_color; /* BLACK, WHITE, or 0 when both are taken */
    int64_t created_ms;
    int64_t started_ms;                  /* 0: not started */
    const char *black_name, *white_name; /* display names, NULL or "" for none */
} lobby_item;

/* {"open":[..],"playing":[..]} with each list in the order given (caller
 * owns it); NULL when out of memory. */
cJSON *lobby_json(const lobby_item *open, size_t n_open, const lobby_item *playing, size_t n_playing);
/* The same object's members, "open":[..],"playing":[..], appended to sb
 * (the caller writes the braces and any member of its own); false when
 * out of memory. */
bool lobby_json_members(strbuf *sb, const lobby_item *open, size_t n_open, const lobby_item *playing,
                        size_t n_playing);

#endif
