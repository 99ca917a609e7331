/* json_parse: the one door through which JSON text becomes cJSON values.
 *
 * Every JSON the program reads (HTTP bodies, WebSocket messages, stored
 * options and clocks, the command-line referee's lines) goes through
 * json_parse(), and tests/check-layers.sh refuses a cJSON_Parse call
 * anywhere else, so a route added later cannot forget the checks below.
 *
 * Before cJSON sees the text, one linear scan refuses
 *  - nesting deeper than JSON_DEPTH_MAX: cJSON recurses once per level and
 *    civetweb's worker threads have 100 KiB stacks, so a 10 KB body of
 *    brackets would otherwise overflow the stack and kill the process;
 *  - U+0000 in a string (the escape \u0000, or a raw NUL byte anywhere):
 *    cJSON would hand back a C string cut at the NUL, so "ab\u0000cd"
 *    would silently read as "ab".
 * After it, text after the value other than white space is refused. */
#ifndef PG_WIRE_JSON_PARSE_H
#define PG_WIRE_JSON_PARSE_H

#include <stddef.h>

#include <cjson/cJSON.h>

/* Nothing the API reads needs more than four levels; this leaves room for
 * growth and keeps cJSON's recursion far from any thread's stack limit. */
enum { JSON_DEPTH_MAX = 16 };

typedef enum {
    JSON_PARSE_OK,
    JSON_PARSE_SYNTAX,   /* not JSON (or out of memory) */
    JSON_PARSE_TOO_DEEP, /* arrays/objects nested deeper than JSON_DEPTH_MAX */
    JSON_PARSE_NUL,      /* a string holds U+0000 */
} json_parse_status;

/* The value of text[0..len), or NULL with *why (may be NULL) saying why.
 * text need not be NUL-terminated. The caller owns the result
 * (cJSON_Delete). */
cJSON *json_parse(const char *text, size_t len, json_parse_status *why);

/* json_parse() of a NUL-terminated string; NULL text reads as "". */
cJSON *json_parse_str(const char *text, json_parse_status *why);

/* A sentence for a client, naming the limit: never NULL. */
const char *json_parse_message(json_parse_status why);

#endif
