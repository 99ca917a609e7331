/* view_json: what the HTTP API says about a game, as docs/API.md spells
 * it: a viewer's view and events as JSON, and an action request as an
 * engine action.
 *
 * Everything about the game comes from the visibility filter: the
 * functions here take the referee only to call view_observe (one
 * observation per event, for one viewer) and view_settings (public), and
 * build the view by folding those observations, so a viewer's JSON cannot
 * hold more than the filter told that viewer. The few facts that are not
 * the referee's (game id, mode, who holds a seat, a rematch) come in a
 * view_table and are public. */
#ifndef PG_WIRE_VIEW_JSON_H
#define PG_WIRE_VIEW_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "engine/clock.h"
#include "engine/view.h"
#include "util/strbuf.h"

/* The public facts of a game table around the referee. */
typedef struct view_table {
    const char *game_id;
    const char *mode;       /* "online" | "hotseat" | "computer" */
    const char *level;      /* computer level, or NULL */
    const time_control *tc; /* NULL: untimed ({"type":"none"}) */
    bool public_game;       /* listed in the lobby */
    bool deduction_aid;     /* the seats may ask for the deduction aid */
    bool seat_taken[3];     /* indexed by BLACK, WHITE */
    bool seat_computer[3];
    bool seat_connected[3];   /* a live connection (WebSocket) of that seat */
    const char *rematch_id;   /* NULL or "" when none */
    bool rematch_cancelled;   /* that rematch's offer was withdrawn or declined */
    const char *seat_name[3]; /* display names, NULL or "" when none */
    int spectators;           /* spectators connected now (a count only) */
    bool cancelled;           /* cancelled before anyone took the other seat */
} view_table;

/* "black", "white", "spectator" (viewer) / NULL. */
const char *view_json_viewer_name(int v);
/* engine/color.h's color_name, under the name src/server still calls. */
const char *view_json_color_name(int color);

/* {"id":..,"mode":..,"settings":{..},"time_control":{..},"public":..,
 * "deduction_aid":..} (+ "level" for computer games). */
cJSON *view_json_game(const view_table *t, const game_settings *s);

/* One event object as the observation allows (docs/API.md, Events),
 * appended to sb as text; false when out of memory. */
bool view_json_event_append(strbuf *sb, const observation *ob, int size);

/* A view is text in two parts, so that the part which changes only with
 * the game is rendered once per change and viewer and kept (the games
 * layer caches it), while the fields read at the moment are appended to
 * each copy as it leaves:
 *   view_json_open_text: the view of viewer v without the fields of the
 *     moment, its closing brace left off (malloc'd, *len_out set; NULL
 *     only when out of memory);
 *   view_json_close: appends ,"clock":{..} read at `now` (clock_json.h),
 *     then ,"computer":{"think_percent":P,"busy":P<100} when
 *     computer_percent is 1..100 (a computer game; 0 for any other), and
 *     the closing brace; false when out of memory.
 * Together they give the view docs/API.md describes. */
char *view_json_open_text(const referee *r, viewer v, const view_table *t, size_t *len_out);
bool view_json_close(strbuf *sb, const game_clock *c, int64_t now, int64_t claim_at_ms, int computer_percent);

/* The events of viewer v with seq > since, as a JSON array appended to
 * sb; false when out of memory. */
bool view_json_events_append(strbuf *sb, const referee *r, viewer v, int since);

/* An action request {"seq":N,"action":"attempt","vertex":"D4"} (or
 * "pass", "resign", "claim") for a board of `size`, acted by `color`. A
 * claim (the opponent abandoned the game) becomes ACT_FORFEIT of the
 * opponent's colour; whether it is allowed is the games module's call. */
typedef enum {
    ACTION_JSON_OK = 0,
    ACTION_JSON_BAD_REQUEST, /* missing/unknown field, wrong type or value: err names it */
    ACTION_JSON_BAD_VERTEX   /* the vertex is not on this board */
} action_json_status;

action_json_status view_json_parse_action(const cJSON *body, int size, int color, action *out, int *seq_out,
                                          char *err, size_t errlen);

#endif
