/* http_body: a request's JSON body as the handlers read it: one object,
 * parsed through the one JSON door (wire/json_parse: nesting and U+0000
 * refused), with only the fields a route knows. Shared by every handler
 * file (api_games, admin) so that they answer malformed bodies alike. */
#ifndef PG_HTTP_HTTP_BODY_H
#define PG_HTTP_HTTP_BODY_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "http/http_reply.h"

/* The body as a JSON object (the caller owns it), or NULL after answering
 * 400: bad_request for JSON past json_parse's limits, else bad_json. */
cJSON *http_body_object(http_request *rq);

/* The body as above, or NULL (no answer sent) when there is none. */
cJSON *http_body_optional(http_request *rq, bool *bad);

/* True if every field of o is in `known` (NULL-terminated) and appears
 * once; otherwise answers 400 bad_request naming the field. */
bool http_body_fields_known(http_request *rq, const cJSON *o, const char *const *known);

#endif
