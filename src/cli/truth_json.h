/* truth_json: the referee's own account of one event as a JSON line, for
 * the command-line referee (`phantomgo referee`), whose contract is to print
 * the whole truth:
 *   {"color":"B","action":"D4","result":"legal","captured":["C3"],"atari":false}
 *   {"color":"W","action":"E5","result":"illegal","reason":"occupied"}
 *   {"color":"B","action":"pass","result":"pass"}
 *   {"color":"W","action":"resign","result":"resign"}   (also timeout, forfeit)
 * It reads the referee, so it lives with the CLI, not in wire/: the
 * encoders that serve clients see games only through engine/view.h. The
 * refusal and end lines, which hold no secret, are wire/event_json.h's. */
#ifndef PG_CLI_TRUTH_JSON_H
#define PG_CLI_TRUTH_JSON_H

#include <cjson/cJSON.h>

#include "engine/referee.h"

/* The truth line of one event. Caller owns the object; NULL only when out
 * of memory. */
cJSON *truth_json_event(const referee *r, const ref_event *ev);

#endif
