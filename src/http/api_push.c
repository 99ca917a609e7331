/* api_push: the Web Push endpoints of the API (docs/API.md, "Push
 * notifications"):
 *
 *   GET    /api/v1/push/key           the server's VAPID public key
 *   PUT    /api/v1/games/{id}/push    a seat subscribes a browser
 *   DELETE /api/v1/games/{id}/push    ... or unsubscribes it (or all)
 *
 * A subscription is checked whole before it is stored: an https endpoint
 * on an allowed host (push/push_target.h), a P-256 point and a 16-byte
 * auth secret, a known language. A refusal is 400 naming the field.
 * Once stored, what the seat is owed at that moment counts as seen
 * (games_push_subscribe): a subscriber hears of what changes after. */
#include "http/api_push.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "push/push_crypto.h"
#include "push/push_sender.h"
#include "push/push_target.h"
#include "games/games_push.h"
#include "http/api_handlers.h"
#include "http/http_body.h"
#include "http/server.h"
#include "store/store_push.h"

/* 400 bad_request with the field the refusal is about. field and message
 * are the handler's own constants (no quotes, nothing of the request). */
static void send_bad_field(http_request *rq, const char *field, const char *message) {
    char body[512];
    int n = snprintf(body, sizeof body, "{\"error\":{\"code\":\"bad_request\",\"message\":\"%s\",\"field\":\"%s\"}}",
                     message, field);
    http_send_json(rq, 400, body, (size_t)n);
}

static bool push_on(http_request *rq) {
    if (rq->srv->ps) return true;
    http_send_error(rq, 503, "push_unavailable", "Push notifications are off on this server.");
    return false;
}

void api_push_key(http_request *rq) {
    if (!api_allow(rq, "GET") || !push_on(rq)) return;
    char body[160];
    int n = snprintf(body, sizeof body, "{\"public_key\":\"%s\"}", push_sender_public_key(rq->srv->ps));
    http_send_json(rq, 200, body, (size_t)n);
}

/* The request body as a JSON object (NULL with an empty body when
 * allow_empty), or false after answering 400 (http_body_object). */
static bool body_of(http_request *rq, bool allow_empty, cJSON **out) {
    *out = NULL;
    if (!rq->body_len && allow_empty) return true;
    *out = http_body_object(rq);
    return *out != NULL;
}

/* Every member of o is one of known, once; false after answering. */
static bool only_known(http_request *rq, const cJSON *o, const char *const *known) {
    for (const cJSON *f = o->child; f; f = f->next) {
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++) ok = !strcmp(f->string, *k);
        for (const cJSON *g = o->child; ok && g != f; g = g->next) ok = strcmp(g->string, f->string) != 0;
        if (!ok) {
            send_bad_field(rq, "body", "A field of the subscription is unknown or repeated.");
            return false;
        }
    }
    return true;
}

/* A base64url member decoding to exactly n bytes. */
static bool key_bytes(const cJSON *keys, const char *name, uint8_t *out, size_t n) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(keys, name);
    size_t len = 0;
    return cJSON_IsString(v) && strlen(v->valuestring) <= 200 && base64url_decode(v->valuestring, out, n, &len) &&
           len == n;
}

/* Reads and checks the subscription of a PUT into s; false after answering. */
static bool read_subscription(http_request *rq, const cJSON *o, store_push_sub *s) {
    static const char *const known[] = { "endpoint", "keys", "expirationTime", "lang", NULL };
    static const char *const key_names[] = { "p256dh", "auth", NULL };
    if (!only_known(rq, o, known)) return false;
    const cJSON *endpoint = cJSON_GetObjectItemCaseSensitive(o, "endpoint");
    push_target t;
    const char *why = "endpoint must be an https URL";
    if (!cJSON_IsString(endpoint) ||
        !push_target_parse(endpoint->valuestring, push_sender_allow_private(rq->srv->ps), &t, &why)) {
        send_bad_field(rq, "endpoint", why);
        return false;
    }
    snprintf(s->endpoint, sizeof s->endpoint, "%s", endpoint->valuestring);
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(o, "keys");
    if (!cJSON_IsObject(keys) || !only_known(rq, keys, key_names)) {
        if (!cJSON_IsObject(keys)) send_bad_field(rq, "keys", "keys must be an object with p256dh and auth.");
        return false;
    }
    if (!key_bytes(keys, "p256dh", s->p256dh, sizeof s->p256dh) || !push_public_key_valid(s->p256dh)) {
        send_bad_field(rq, "keys.p256dh", "keys.p256dh must be an uncompressed P-256 point in base64url.");
        return false;
    }
    if (!key_bytes(keys, "auth", s->auth, sizeof s->auth)) {
        send_bad_field(rq, "keys.auth", "keys.auth must be 16 bytes in base64url.");
        return false;
    }
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(o, "expirationTime");
    if (exp && !cJSON_IsNull(exp) && !cJSON_IsNumber(exp)) {
        send_bad_field(rq, "expirationTime", "expirationTime must be null or a number.");
        return false;
    }
    const cJSON *lang = cJSON_GetObjectItemCaseSensitive(o, "lang");
    const char *l = cJSON_IsString(lang) ? lang->valuestring : lang ? "" : "en";
    if (strcmp(l, "en") && strcmp(l, "ru") && strcmp(l, "ko")) {
        send_bad_field(rq, "lang", "lang must be en, ru or ko.");
        return false;
    }
    snprintf(s->lang, sizeof s->lang, "%s", l);
    return true;
}

static void send_push_state(http_request *rq, bool on) {
    const char *body = on ? "{\"push\":true}" : "{\"push\":false}";
    http_send_json(rq, 200, body, strlen(body));
}

static void send_store_error(http_request *rq, int rc) {
    if (rc == STORE_UNAVAILABLE) http_send_error(rq, 503, "unavailable", "The database cannot write now; try again.");
    else if (rc == STORE_NOT_FOUND) http_send_error(rq, 404, "not_found", "No such game.");
    else http_send_error(rq, 500, "internal", "The subscription could not be stored.");
}

static void subscribe(http_request *rq, game *g, int color) {
    cJSON *o = NULL;
    if (!body_of(rq, false, &o)) return;
    store_push_sub s;
    memset(&s, 0, sizeof s);
    s.color = color;
    bool ok = read_subscription(rq, o, &s);
    cJSON_Delete(o);
    if (!ok) return;
    int rc = games_push_subscribe(rq->srv->gp, g, &s);
    if (rc == STORE_CONFLICT) {
        http_send_error(rq, 409, "too_many_subscriptions",
                        "A seat holds at most 5 push subscriptions; remove one first.");
        return;
    }
    if (rc != STORE_OK) {
        send_store_error(rq, rc);
        return;
    }
    send_push_state(rq, true);
}

static void unsubscribe(http_request *rq, game *g, int color) {
    static const char *const known[] = { "endpoint", NULL };
    cJSON *o = NULL;
    if (!body_of(rq, true, &o)) return;
    const cJSON *endpoint = o ? cJSON_GetObjectItemCaseSensitive(o, "endpoint") : NULL;
    bool ok = !o || only_known(rq, o, known);
    if (ok && o && (!cJSON_IsString(endpoint) || strlen(endpoint->valuestring) >= STORE_PUSH_ENDPOINT_BYTES)) {
        send_bad_field(rq, "endpoint", "endpoint must be the subscription's URL, or the body empty for all.");
        ok = false;
    }
    int rc = ok ? store_push_unsubscribe(rq->srv->st, game_id(g), color, o ? endpoint->valuestring : NULL) : STORE_OK;
    cJSON_Delete(o);
    if (!ok) return;
    if (rc != STORE_OK) send_store_error(rq, rc);
    else send_push_state(rq, false);
}

void api_push_seat(http_request *rq, game *g) {
    int color = api_seat_of(rq, g);
    if (!color || !push_on(rq)) return;
    if (game_get_mode(g) == MODE_HOTSEAT) {
        send_bad_field(rq, "game", "Push notifications are for online and computer games.");
        return;
    }
    if (!strcmp(rq->method, "PUT")) subscribe(rq, g, color);
    else unsubscribe(rq, g, color);
}
