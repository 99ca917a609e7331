/* http_body: JSON request bodies (see http_body.h). */
#include "http/http_body.h"

#include <stdio.h>
#include <string.h>

#include "util/utf8.h"
#include "wire/json_parse.h"

static void refuse(http_request *rq, json_parse_status why) {
    if (why == JSON_PARSE_TOO_DEEP || why == JSON_PARSE_NUL)
        http_send_error(rq, 400, "bad_request", json_parse_message(why));
    else
        http_send_error(rq, 400, "bad_json", "The body must be a JSON object.");
}

cJSON *http_body_object(http_request *rq) {
    json_parse_status why = JSON_PARSE_SYNTAX;
    cJSON *o = rq->body_len ? json_parse(rq->body, rq->body_len, &why) : NULL;
    if (cJSON_IsObject(o)) return o;
    cJSON_Delete(o);
    refuse(rq, why);
    return NULL;
}

cJSON *http_body_optional(http_request *rq, bool *bad) {
    *bad = false;
    if (!rq->body_len) return NULL;
    cJSON *o = http_body_object(rq);
    *bad = o == NULL;
    return o;
}

bool http_body_fields_known(http_request *rq, const cJSON *o, const char *const *known) {
    for (const cJSON *f = o->child; f; f = f->next) {
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++) ok = !strcmp(f->string, *k);
        for (const cJSON *g = o->child; ok && g != f; g = g->next) ok = strcmp(g->string, f->string) != 0;
        if (!ok) {
            char name[48], msg[96];
            snprintf(msg, sizeof msg, "Field '%s' is unknown or repeated.", utf8_excerpt(name, sizeof name, f->string, 40));
            http_send_error(rq, 400, "bad_request", msg);
            return false;
        }
    }
    return true;
}
