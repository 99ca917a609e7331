/* json_number: the one strict reader of whole numbers in JSON bodies.
 *
 * A field that must hold a count, a size or a time in milliseconds accepts
 * a JSON number that is whole and within [lo, hi]; 9.0 is 9, but 9.5, "9",
 * true, NaN and anything out of range are refused. Every reader of client
 * JSON uses this, so the same input is accepted or refused alike everywhere.
 *
 * It sits in wire, not util: it reads cJSON values, and util is a leaf that
 * any layer (the engine included, which must not see cJSON) may include. */
#ifndef PG_WIRE_JSON_NUMBER_H
#define PG_WIRE_JSON_NUMBER_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* Bounds must lie within +-2^53, where doubles hold every integer. */
bool json_whole_int64(const cJSON *v, int64_t lo, int64_t hi, int64_t *out);
bool json_whole_int(const cJSON *v, int lo, int hi, int *out);

#endif
