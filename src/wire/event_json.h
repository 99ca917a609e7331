/* event_json: the wire names of the rules' words, shared by the view
 * encoders, the SGF writer and the command-line referee so that every
 * client reads one spelling; plus two lines of the CLI referee's contract
 * (issue 2) that hold no secret (the event lines themselves, which are the
 * truth, are cli/truth_json.h's):
 *   {"result":"refused","error":"already_tried"}
 *   {"over":true,"reason":"passes","winner":"B","score":{"black":38,"white":44.5}}
 * Only rules.h is needed: wire/ never includes the referee. */
#ifndef PG_WIRE_EVENT_JSON_H
#define PG_WIRE_EVENT_JSON_H

#include <cjson/cJSON.h>

#include "engine/rules.h"

/* "occupied", "suicide", "ko"; NULL for ILLEGAL_NONE. */
const char *illegal_reason_name(illegal_reason r);
/* "not_your_turn", "already_tried", "own_stone", "bad_vertex", "game_over"; NULL for REFUSE_NONE. */
const char *refusal_name(refusal r);
/* "passes", "capture", "resign", "timeout", "forfeit"; NULL for END_NONE. */
const char *end_reason_name(end_reason r);

/* {"result":"refused","error":...} */
cJSON *event_json_refusal(refusal why);
/* The end line, {"over":true,...}; {"over":false} while the game is on. */
cJSON *event_json_result(const game_result *res);

#endif
