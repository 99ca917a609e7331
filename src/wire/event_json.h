/* event_json: the referee's truth as JSON lines, for the command-line
 * referee and finished games' records; plus the wire names of the rules'
 * words, shared with the view encoders so every client reads one spelling.
 *
 * Lines (keys in this order, as the CLI contract of issue 2 fixes them):
 *   {"color":"B","action":"D4","result":"legal","captured":["C3"],"atari":false}
 *   {"color":"W","action":"E5","result":"illegal","reason":"occupied"}
 *   {"color":"B","action":"pass","result":"pass"}
 *   {"color":"W","action":"resign","result":"resign"}   (also timeout, forfeit)
 *   {"result":"refused","error":"already_tried"}
 *   {"over":true,"reason":"passes","winner":"B","score":{"black":38,"white":44.5}}
 * TRUTH: never send these about a game in progress; use view.h. */
#ifndef PG_WIRE_EVENT_JSON_H
#define PG_WIRE_EVENT_JSON_H

#include <cjson/cJSON.h>

#include "engine/referee.h"

/* "occupied", "suicide", "ko"; NULL for ILLEGAL_NONE. */
const char *illegal_reason_name(illegal_reason r);
/* "not_your_turn", "already_tried", "own_stone", "bad_vertex", "game_over"; NULL for REFUSE_NONE. */
const char *refusal_name(refusal r);
/* "passes", "capture", "resign", "timeout", "forfeit"; NULL for END_NONE. */
const char *end_reason_name(end_reason r);

/* The truth line of one event (first four forms above). Caller owns the
 * object; NULL only when out of memory. */
cJSON *event_json_truth(const referee *r, const ref_event *ev);
/* {"result":"refused","error":...} */
cJSON *event_json_refusal(refusal why);
/* The end line, {"over":true,...}; {"over":false} while the game is on. */
cJSON *event_json_result(const game_result *res);

#endif
