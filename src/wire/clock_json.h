/* clock_json: time controls and game clocks on the wire (docs/API.md,
 * "Time controls" and "clock").
 *
 * A time control is read strictly, like the table settings: "type" first
 * decides which fields exist, every other field is an error, numbers are
 * whole seconds in range:
 *   {"type":"none"}  {"type":"none","days_per_move":3}
 *   {"type":"absolute","main":600}
 *   {"type":"fischer","main":300,"increment":5}
 *   {"type":"byoyomi","main":300,"periods":5,"period":30}
 * The same text is what the store keeps.
 *
 * A clock is public: both sides' remaining time, which one runs, and the
 * server's time of the snapshot, from which a client ticks it down. */
#ifndef PG_WIRE_CLOCK_JSON_H
#define PG_WIRE_CLOCK_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "engine/clock.h"

/* Reads a time control object; false with a one-line message in err. */
bool time_control_from_json(const cJSON *obj, time_control *out, char *err, size_t errlen);
/* The same from JSON text (as stored). */
bool time_control_parse_json(const char *text, time_control *out, char *err, size_t errlen);
/* The object above for tc (caller owns it); NULL when out of memory. */
cJSON *time_control_to_json(const time_control *tc);
/* "none", "absolute", "fischer", "byoyomi". */
const char *time_control_kind_name(time_control_kind kind);

/* {"now_ms":..,"running":"black"|null,"turn_started_ms":..|null,
 *  "black":{..}|null,"white":{..}|null,"claim_at_ms":..|null}
 * for the clock read at `now`; sides are null when the game is untimed.
 * claim_at_ms < 0 writes null. Caller owns the object; NULL when out of
 * memory. */
cJSON *clock_to_json(const game_clock *c, int64_t now, int64_t claim_at_ms);

#endif
