/* admin: the operator's routes, reports, mutes and bans. See admin.h and
 * docs/API.md ("Admin").
 *
 * Everything the operator decides lives in the store (store_admin.h):
 * reports, tombstones, mutes and bans, the hidden flag and the log, so a
 * decision made through one server holds on every server sharing the
 * database, and survives restarts. This file keeps only what is local by
 * nature: the token, the wrong-token strikes of each address and the
 * reports' rate limits.
 *
 * An address or prefix is kept canonical ("203.0.113.0/24",
 * "2001:db8::/48"; one address is /32 or /128) and matched by its bits,
 * with an IPv4-mapped IPv6 peer (::ffff:203.0.113.7) taken as IPv4. */
#include "http/admin.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "games/registry.h"
#include "http/api_handlers.h"
#include "http/http_body.h"
#include "http/ratelimit.h"
#include "games/secrets.h"
#include "http/server.h"
#include "store/store_admin.h"
#include "util/now.h"
#include "wire/chat_json.h"
#include "wire/json_number.h"
#include "wire/json_parse.h"

#define ADMIN_TOKEN_MIN 32
#define ADMIN_TOKEN_MAX 4096
#define STRIKES_MAX 5
#define STRIKE_WINDOW_MS 60000
#define STRIKE_SLOTS 256
#define MINUTES_MAX (10 * 366 * 24 * 60) /* ten years */
#define LOG_READ_MAX 200

typedef struct strike {
    char addr[48];
    int64_t first_ms; /* monotonic; the window starts at the first wrong try */
    int count;
} strike;

struct admin {
    bool enabled;
    uint8_t token_hash[SECRET_HASH_LEN];
    pthread_mutex_t strikes_lock;
    strike strikes[STRIKE_SLOTS];
    ratelimit *report_reporter; /* reports of one seat, or one spectator address */
    ratelimit *report_address;  /* all reports of one address */
};

/* ---- the token ---------------------------------------------------------------- */

/* The file's text with trailing whitespace trimmed, into out. */
static bool read_token(const char *path, char *out, size_t cap, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "--admin-token-file %.300s: cannot be read", path);
        return false;
    }
    size_t n = fread(out, 1, cap - 1, f);
    bool too_long = n == cap - 1 && fgetc(f) != EOF;
    fclose(f);
    out[n] = '\0';
    while (n > 0 && isspace((unsigned char)out[n - 1])) out[--n] = '\0';
    if (too_long || n < ADMIN_TOKEN_MIN || strlen(out) != n) {
        snprintf(err, errlen, "--admin-token-file %.300s: the token must be %d to %d characters (no NUL)",
                 path, ADMIN_TOKEN_MIN, ADMIN_TOKEN_MAX - 1);
        return false;
    }
    return true;
}

admin *admin_open(const server_config *cfg, char *err, size_t errlen) {
    admin *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&a->strikes_lock, NULL);
    a->report_reporter = ratelimit_new(5 / 60.0, 5);
    a->report_address = ratelimit_new(20 / 60.0, 20);
    bool ok = a->report_reporter && a->report_address;
    if (!ok) snprintf(err, errlen, "out of memory");
    if (ok && cfg->admin_token_file[0]) {
        char *token = malloc(ADMIN_TOKEN_MAX);
        ok = token && read_token(cfg->admin_token_file, token, ADMIN_TOKEN_MAX, err, errlen) &&
             secrets_hash(token, strlen(token), a->token_hash);
        if (token) memset(token, 0, ADMIN_TOKEN_MAX);
        free(token);
        a->enabled = ok;
    }
    if (!ok) {
        admin_free(a);
        return NULL;
    }
    return a;
}

void admin_free(admin *a) {
    if (!a) return;
    ratelimit_free(a->report_reporter);
    ratelimit_free(a->report_address);
    pthread_mutex_destroy(&a->strikes_lock);
    free(a);
}

bool admin_enabled(const admin *a) { return a && a->enabled; }

/* The address's strike slot (strikes_lock held): its own, else a free or
 * expired one, else the oldest. */
static strike *strike_slot(admin *a, const char *addr, int64_t now) {
    strike *free_slot = NULL, *oldest = &a->strikes[0];
    for (int i = 0; i < STRIKE_SLOTS; i++) {
        strike *s = &a->strikes[i];
        if (s->count && !strcmp(s->addr, addr)) return s;
        if (!free_slot && (!s->count || now - s->first_ms >= STRIKE_WINDOW_MS)) free_slot = s;
        if (s->first_ms < oldest->first_ms) oldest = s;
    }
    strike *s = free_slot ? free_slot : oldest;
    memset(s, 0, sizeof *s);
    snprintf(s->addr, sizeof s->addr, "%s", addr);
    s->first_ms = now;
    return s;
}

/* Seconds the address is shut out for (0: not). */
static int shut_out_for(admin *a, const char *addr, int64_t now) {
    pthread_mutex_lock(&a->strikes_lock);
    int wait = 0;
    for (int i = 0; i < STRIKE_SLOTS && !wait; i++) {
        strike *s = &a->strikes[i];
        int64_t left = STRIKE_WINDOW_MS - (now - s->first_ms);
        if (s->count >= STRIKES_MAX && left > 0 && !strcmp(s->addr, addr)) wait = (int)((left + 999) / 1000);
    }
    pthread_mutex_unlock(&a->strikes_lock);
    return wait;
}

static void add_strike(admin *a, const char *addr, int64_t now) {
    pthread_mutex_lock(&a->strikes_lock);
    strike *s = strike_slot(a, addr, now);
    if (now - s->first_ms >= STRIKE_WINDOW_MS) {
        s->first_ms = now;
        s->count = 0;
    }
    s->count++;
    pthread_mutex_unlock(&a->strikes_lock);
}

/* True for a request carrying the operator's token; otherwise answers
 * (429 shut out, 401 without or with a wrong token) and returns false. */
static bool authorized(http_request *rq) {
    admin *a = rq->srv->adm;
    int64_t now = now_monotonic_ms();
    int wait = shut_out_for(a, rq->client_key, now);
    if (wait > 0) {
        http_send_rate_limited(rq, wait);
        return false;
    }
    const char *token;
    if (api_bearer_token(rq, &token) != TOKEN_GIVEN) token = NULL;
    uint8_t hash[SECRET_HASH_LEN];
    bool ok = token && *token && strlen(token) < ADMIN_TOKEN_MAX &&
              secrets_hash(token, strlen(token), hash) && secrets_hash_equal(hash, a->token_hash);
    if (!ok) {
        add_strike(a, rq->client_key, now);
        http_send_error(rq, 401, "bad_admin_token",
                        "This needs the operator's token (Authorization: Bearer).");
    }
    return ok;
}

/* ---- replies and bodies ------------------------------------------------------- */

static void send_owned(http_request *rq, int status, cJSON *o) {
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    if (text) http_send_json(rq, status, text, strlen(text));
    else http_send_error(rq, 500, "internal", "The server ran out of memory.");
    cJSON_free(text);
    cJSON_Delete(o);
}

static void send_store_failure(http_request *rq, int rc) {
    if (rc == STORE_UNAVAILABLE)
        http_send_error(rq, 503, "unavailable", "The database cannot be reached now; nothing changed.");
    else http_send_error(rq, 500, "internal", "The server failed to answer.");
}

/* The body as an object whose fields are all in `known` (each once); NULL
 * after answering 400. */
static cJSON *body_with(http_request *rq, const char *const *known) {
    cJSON *o = http_body_object(rq);
    if (o && !http_body_fields_known(rq, o, known)) {
        cJSON_Delete(o);
        o = NULL;
    }
    return o;
}

/* ---- addresses and prefixes -------------------------------------------------- */

typedef struct {
    int family; /* AF_INET or AF_INET6 */
    uint8_t bytes[16];
    int bits;
} network;

/* "203.0.113.7", "2001:db8::/48", "::ffff:203.0.113.7" -> n (host bits
 * cleared). An address without a prefix is all its bits. */
static bool network_parse(const char *text, network *n) {
    char addr[64];
    const char *slash = strchr(text, '/');
    size_t len = slash ? (size_t)(slash - text) : strlen(text);
    if (len == 0 || len >= sizeof addr) return false;
    memcpy(addr, text, len);
    addr[len] = '\0';
    memset(n, 0, sizeof *n);
    if (inet_pton(AF_INET, addr, n->bytes) == 1) n->family = AF_INET, n->bits = 32;
    else if (inet_pton(AF_INET6, addr, n->bytes) == 1) n->family = AF_INET6, n->bits = 128;
    else return false;
    static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
    if (n->family == AF_INET6 && !memcmp(n->bytes, mapped, 12) && !slash) {
        memmove(n->bytes, n->bytes + 12, 4);
        memset(n->bytes + 4, 0, 12);
        n->family = AF_INET;
        n->bits = 32;
    }
    if (slash) {
        char *end;
        long bits = strtol(slash + 1, &end, 10);
        if (end == slash + 1 || *end || bits < 0 || bits > n->bits) return false;
        n->bits = (int)bits;
    }
    for (int i = n->bits; i < 128; i++) n->bytes[i / 8] &= (uint8_t) ~(0x80u >> (i % 8));
    return true;
}

static void network_format(const network *n, char *out, size_t cap) {
    char addr[INET6_ADDRSTRLEN];
    inet_ntop(n->family, n->bytes, addr, sizeof addr);
    snprintf(out, cap, "%s/%d", addr, n->bits);
}

static bool network_contains(const network *net, const network *host) {
    if (net->family != host->family) return false;
    for (int i = 0; i < net->bits; i++) {
        uint8_t mask = (uint8_t)(0x80u >> (i % 8));
        if ((net->bytes[i / 8] & mask) != (host->bytes[i / 8] & mask)) return false;
    }
    return true;
}

/* ---- the moderation checks ---------------------------------------------------- */

static bool sanction_hits(const store_sanction *s, admin_deed deed, const network *client, game *g,
                          viewer v) {
    if (!(s->what & (int)deed)) return false;
    if (s->game_id[0])
        return g && deed == ADMIN_DO_CHAT && s->seat == (int)v && !strcmp(s->game_id, game_id(g));
    network net;
    return client && network_parse(s->network, &net) && network_contains(&net, client);
}

bool admin_allows(http_request *rq, admin_deed deed, game *g, viewer v) {
    store_sanction *list = NULL;
    int count = 0;
    int rc = store_active_sanctions(rq->srv->st, registry_now_ms(rq->srv->gm), &list, &count);
    if (rc != STORE_OK) {
        send_store_failure(rq, rc);
        return false;
    }
    network client;
    bool known = network_parse(rq->client, &client);
    const store_sanction *hit = NULL;
    for (int i = 0; i < count && !hit; i++)
        if (sanction_hits(&list[i], deed, known ? &client : NULL, g, v)) hit = &list[i];
    if (hit && hit->ban) http_send_error(rq, 403, "banned", "This address may not do this here for now.");
    else if (hit) http_send_error(rq, 403, "muted", "The operator muted this chat for now.");
    free(list);
    return hit == NULL;
}

/* ---- reports -------------------------------------------------------------------- */

/* "{room}/{n}/report" -> room and n; false for anything else. */
static bool parse_report_path(const char *rest, int *room, int *n) {
    char word[16];
    int end = 0;
    if (sscanf(rest, "%15[a-z]/%d/report%n", word, n, &end) != 2 || rest[end] != '\0' || *n < 1) return false;
    *room = chat_room_of(word);
    return *room != 0;
}

/* A server built without admin_open (the HTTP fuzzer's) has no limits. */
static bool report_rate_ok(http_request *rq, game *g, viewer v) {
    admin *a = rq->srv->adm;
    if (!a) return true;
    char key[80];
    if (v == VIEWER_SPECTATOR) snprintf(key, sizeof key, "spectator/%s", rq->client_key);
    else snprintf(key, sizeof key, "%s/%d", game_id(g), (int)v);
    int64_t now = now_monotonic_ms();
    int retry = ratelimit_take(a->report_reporter, key, now);
    if (!retry) retry = ratelimit_take(a->report_address, rq->client_key, now);
    if (retry > 0) http_send_rate_limited(rq, retry);
    return retry == 0;
}

void admin_report(http_request *rq, game *g, viewer v, const char *rest) {
    int room, n;
    if (!parse_report_path(rest, &room, &n)) {
        http_send_error(rq, 404, "not_found", "No such endpoint.");
        return;
    }
    if (!api_allow(rq, "POST")) return;
    bool bad;
    cJSON *body = http_body_optional(rq, &bad);
    if (bad) return;
    char reason[TALK_TEXT_MAX_BYTES], err[200];
    talk_verdict why;
    chat_json_status ps = chat_json_parse_report(body, reason, &why, err, sizeof err);
    cJSON_Delete(body);
    if (ps != CHAT_JSON_OK) {
        http_send_error(rq, 400, ps == CHAT_JSON_BAD_TEXT ? "bad_text" : "bad_request", err);
        return;
    }
    if (!report_rate_ok(rq, g, v)) return;
    game_status st = game_report(g, v, room, n, reason);
    if (st == GAME_OK) http_send_json(rq, 201, "{\"reported\":true}", 17);
    else if (st == GAME_NOT_FOUND)
        http_send_error(rq, 404, "not_found", "No such message in a room you read.");
    else if (st == GAME_UNAVAILABLE)
        http_send_error(rq, 503, "unavailable", "The database cannot be written now; nothing changed.");
    else http_send_error(rq, 500, "internal", "The server failed to answer.");
}

/* ---- the admin log ------------------------------------------------------------- */

/* Records what the operator did; a failure is told on stderr (the action
 * itself is done and answered). detail is consumed. */
static void log_action(http_request *rq, const char *what, const char *target, cJSON *detail) {
    char *text = detail ? cJSON_PrintUnformatted(detail) : NULL;
    int rc = text ? store_log_admin(rq->srv->st, registry_now_ms(rq->srv->gm), what, target, text) : STORE_ERROR;
    if (rc != STORE_OK)
        fprintf(stderr, "phantomgo: admin log: %s %s not recorded (%s)\n", what, target, store_strerror(rc));
    cJSON_free(text);
    cJSON_Delete(detail);
}

static void read_log(http_request *rq) {
    if (!api_allow(rq, "GET")) return;
    store_log_entry *list = NULL;
    int count = 0;
    int rc = store_read_admin_log(rq->srv->st, LOG_READ_MAX, &list, &count);
    if (rc != STORE_OK) {
        send_store_failure(rq, rc);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON *entries = o ? cJSON_AddArrayToObject(o, "log") : NULL;
    bool ok = entries != NULL;
    for (int i = 0; ok && i < count; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON *detail = json_parse_str(list[i].detail, NULL);
        ok = e && cJSON_AddItemToArray(entries, e) &&
             cJSON_AddNumberToObject(e, "at_ms", (double)list[i].at_ms) &&
             cJSON_AddStringToObject(e, "action", list[i].action) &&
             cJSON_AddStringToObject(e, "target", list[i].target) && detail &&
             cJSON_AddItemToObject(e, "detail", detail);
        if (!ok) cJSON_Delete(detail);
    }
    store_admin_free_log(list, count);
    if (!ok) cJSON_Delete(o), o = NULL;
    send_owned(rq, 200, o);
}

/* ---- reports, removal, hiding -------------------------------------------------- */

static cJSON *report_json(const store_report *r) {
    chat_entry e = { r->message.room,  r->message.n, r->message.author, r->message.name, r->message.text,
                     r->message.at_ms, false };
    cJSON *o = cJSON_CreateObject();
    cJSON *m = chat_json_message(&e);
    bool ok = o && m && cJSON_AddNumberToObject(o, "id", (double)r->id) &&
              cJSON_AddStringToObject(o, "game", r->game_id) &&
              cJSON_AddStringToObject(o, "room", chat_room_name(r->room)) &&
              cJSON_AddNumberToObject(o, "n", r->n) && cJSON_AddStringToObject(o, "reporter", r->reporter) &&
              (r->reason[0] ? cJSON_AddStringToObject(o, "reason", r->reason)
                            : cJSON_AddNullToObject(o, "reason")) &&
              cJSON_AddNumberToObject(o, "at_ms", (double)r->at_ms) && cJSON_AddItemToObject(o, "message", m);
    if (ok) return o;
    if (!cJSON_GetObjectItemCaseSensitive(o, "message")) cJSON_Delete(m);
    cJSON_Delete(o);
    return NULL;
}

static void read_reports(http_request *rq) {
    if (!api_allow(rq, "GET")) return;
    store_report *list = NULL;
    int count = 0;
    int rc = store_open_reports(rq->srv->st, STORE_ADMIN_LIST_MAX, &list, &count);
    if (rc != STORE_OK) {
        send_store_failure(rq, rc);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON *reports = o ? cJSON_AddArrayToObject(o, "reports") : NULL;
    bool ok = reports != NULL;
    for (int i = 0; ok && i < count; i++) {
        cJSON *r = report_json(&list[i]);
        ok = r && cJSON_AddItemToArray(reports, r);
    }
    free(list);
    if (!ok) cJSON_Delete(o), o = NULL;
    send_owned(rq, 200, o);
}

/* The game of an admin route, loaded; NULL after answering. */
static game *load_game(http_request *rq, const char *id) {
    game *g = NULL;
    game_status st = strlen(id) < 24 ? registry_get(rq->srv->gm, id, &g) : GAME_NOT_FOUND;
    if (st == GAME_OK) return g;
    if (st == GAME_NOT_FOUND) http_send_error(rq, 404, "not_found", "No such game.");
    else if (st == GAME_UNAVAILABLE)
        http_send_error(rq, 503, "unavailable", "The database cannot be read now; nothing changed.");
    else http_send_error(rq, 500, "internal", "The server failed to answer.");
    return NULL;
}

/* DELETE games/{id}/chat/{room}/{n} */
static void remove_message(http_request *rq, const char *id, const char *room_word, int n) {
    if (!api_allow(rq, "DELETE")) return;
    int room = chat_room_of(room_word);
    game *g = room ? load_game(rq, id) : NULL;
    if (!room) http_send_error(rq, 404, "not_found", "No such room: 'players' or 'spectators'.");
    if (!g) return;
    game_status st = game_remove_message(g, room, n);
    game_release(g);
    if (st == GAME_NOT_FOUND) http_send_error(rq, 404, "not_found", "No such message.");
    else if (st == GAME_REMOVED_ALREADY)
        http_send_error(rq, 409, "removed_already", "This message was removed before.");
    else if (st == GAME_UNAVAILABLE)
        http_send_error(rq, 503, "unavailable", "The database cannot be written now; nothing changed.");
    else if (st != GAME_OK) http_send_error(rq, 500, "internal", "The server failed to answer.");
    if (st != GAME_OK) return;
    char target[96];
    snprintf(target, sizeof target, "%s/%s/%d", id, room_word, n);
    log_action(rq, "remove", target, cJSON_CreateObject());
    cJSON *o = cJSON_CreateObject();
    cJSON *r = o ? cJSON_AddObjectToObject(o, "removed") : NULL;
    if (!r || !cJSON_AddStringToObject(r, "game", id) || !cJSON_AddStringToObject(r, "room", room_word) ||
        !cJSON_AddNumberToObject(r, "n", n))
        cJSON_Delete(o), o = NULL;
    send_owned(rq, 200, o);
}

/* POST games/{id}/hide */
static void hide_game(http_request *rq, const char *id) {
    if (!api_allow(rq, "POST")) return;
    game *g = load_game(rq, id);
    if (!g) return;
    int rc = store_hide_game(rq->srv->st, id);
    if (rc == STORE_OK) game_refresh(g); /* this server's lobby drops it now; the others hear the row */
    game_release(g);
    if (rc != STORE_OK) {
        send_store_failure(rq, rc);
        return;
    }
    log_action(rq, "hide", id, cJSON_CreateObject());
    http_send_json(rq, 200, "{\"hidden\":true}", 15);
}

/* games/{id}/chat/{room}/{n} or games/{id}/hide */
static void game_routes(http_request *rq, const char *rest) {
    char id[32], room[16];
    int n = 0, end = 0;
    if (sscanf(rest, "%31[a-z0-9]/chat/%15[a-z]/%d%n", id, room, &n, &end) == 3 && !rest[end] && n >= 1)
        remove_message(rq, id, room, n);
    else if (sscanf(rest, "%31[a-z0-9]/hide%n", id, &end) == 1 && end && !rest[end]) hide_game(rq, id);
    else http_send_error(rq, 404, "not_found", "No such endpoint.");
}

/* ---- mutes and bans --------------------------------------------------------------- */

/* "minutes": a whole number from 1; false after answering 400. */
static bool read_minutes(http_request *rq, const cJSON *o, int64_t *minutes) {
    if (json_whole_int64(cJSON_GetObjectItemCaseSensitive(o, "minutes"), 1, MINUTES_MAX, minutes))
        return true;
    http_send_error(rq, 400, "bad_request",
                    "'minutes' must be a whole number from 1 to 5270400 (ten years).");
    return false;
}

/* "address": an address or prefix, canonical into s->network. */
static bool read_network(http_request *rq, const cJSON *o, store_sanction *s) {
    const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "address"));
    network n;
    if (!text || !network_parse(text, &n)) {
        http_send_error(rq, 400, "bad_request",
                        "'address' must be an IPv4 or IPv6 address or prefix, e.g. \"203.0.113.0/24\".");
        return false;
    }
    network_format(&n, s->network, sizeof s->network);
    return true;
}

/* A mute's target: {"game","seat"} or {"address"}. */
static bool read_mute_target(http_request *rq, const cJSON *o, store_sanction *s) {
    const cJSON *gid = cJSON_GetObjectItemCaseSensitive(o, "game");
    const cJSON *seat = cJSON_GetObjectItemCaseSensitive(o, "seat");
    bool has_address = cJSON_GetObjectItemCaseSensitive(o, "address") != NULL;
    if (!gid && !seat) {
        if (has_address) return read_network(rq, o, s);
        http_send_error(rq, 400, "bad_request", "Name a seat ('game' and 'seat') or an 'address'.");
        return false;
    }
    const char *color = cJSON_GetStringValue(seat);
    const char *id = cJSON_GetStringValue(gid);
    if (has_address || !id || !color || (strcmp(color, "black") && strcmp(color, "white"))) {
        http_send_error(
            rq, 400, "bad_request",
            "A seat's mute needs 'game' (an id) and 'seat' (\"black\" or \"white\"), and no 'address'.");
        return false;
    }
    game *g = load_game(rq, id);
    if (!g) return false;
    game_release(g);
    snprintf(s->game_id, sizeof s->game_id, "%s", id);
    s->seat = !strcmp(color, "black") ? BLACK : WHITE;
    return true;
}

/* "what": a non-empty list of "create", "join", "chat". */
static bool read_what(http_request *rq, const cJSON *o, int *what) {
    static const char *const words[] = { "create", "join", "chat" };
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "what");
    *what = 0;
    const cJSON *item;
    bool ok = cJSON_IsArray(list) && cJSON_GetArraySize(list) > 0;
    cJSON_ArrayForEach(item, list) {
        int bit = 0;
        for (int i = 0; i < 3; i++)
            if (cJSON_IsString(item) && !strcmp(item->valuestring, words[i])) bit = 1 << i;
        ok = ok && bit;
        *what |= bit;
    }
    if (!ok)
        http_send_error(rq, 400, "bad_request", "'what' must list some of \"create\", \"join\", \"chat\".");
    return ok;
}

static cJSON *sanction_json(const store_sanction *s) {
    static const char *const words[] = { "create", "join", "chat" };
    cJSON *o = cJSON_CreateObject();
    bool ok = o && cJSON_AddStringToObject(o, "kind", s->ban ? "ban" : "mute");
    if (s->game_id[0])
        ok = ok && cJSON_AddStringToObject(o, "game", s->game_id) &&
             cJSON_AddStringToObject(o, "seat", s->seat == BLACK ? "black" : "white");
    else ok = ok && cJSON_AddStringToObject(o, "address", s->network);
    cJSON *what = ok ? cJSON_AddArrayToObject(o, "what") : NULL;
    ok = what != NULL;
    for (int i = 0; ok && i < 3; i++)
        if (s->what & (1 << i)) ok = cJSON_AddItemToArray(what, cJSON_CreateString(words[i]));
    ok = ok && cJSON_AddNumberToObject(o, "at_ms", (double)s->at_ms) &&
         cJSON_AddNumberToObject(o, "until_ms", (double)s->until_ms);
    if (ok) return o;
    cJSON_Delete(o);
    return NULL;
}

/* Stores s and answers 201 {"mute"|"ban": {...}}, logged. */
static void add_sanction(http_request *rq, store_sanction *s, int64_t minutes) {
    s->at_ms = registry_now_ms(rq->srv->gm);
    s->until_ms = s->at_ms + minutes * 60000;
    int rc = store_add_sanction(rq->srv->st, s);
    if (rc != STORE_OK) {
        send_store_failure(rq, rc);
        return;
    }
    char target[96];
    if (s->game_id[0])
        snprintf(target, sizeof target, "%s/%s", s->game_id, s->seat == BLACK ? "black" : "white");
    else snprintf(target, sizeof target, "%s", s->network);
    log_action(rq, s->ban ? "ban" : "mute", target, sanction_json(s));
    cJSON *o = cJSON_CreateObject();
    cJSON *j = sanction_json(s);
    if (!o || !j || !cJSON_AddItemToObject(o, s->ban ? "ban" : "mute", j)) {
        if (!cJSON_GetObjectItemCaseSensitive(o, s->ban ? "ban" : "mute")) cJSON_Delete(j);
        cJSON_Delete(o);
        o = NULL;
    }
    send_owned(rq, 201, o);
}

static void mute(http_request *rq) {
    static const char *const known[] = { "game", "seat", "address", "minutes", NULL };
    if (!api_allow(rq, "POST")) return;
    cJSON *o = body_with(rq, known);
    store_sanction s = { .what = STORE_BAN_CHAT };
    int64_t minutes = 0;
    bool ok = o && read_mute_target(rq, o, &s) && read_minutes(rq, o, &minutes);
    cJSON_Delete(o);
    if (ok) add_sanction(rq, &s, minutes);
}

static void ban(http_request *rq) {
    static const char *const known[] = { "address", "minutes", "what", NULL };
    if (!api_allow(rq, "POST")) return;
    cJSON *o = body_with(rq, known);
    store_sanction s = { .ban = true };
    int64_t minutes = 0;
    bool ok = o && read_network(rq, o, &s) && read_what(rq, o, &s.what) && read_minutes(rq, o, &minutes);
    cJSON_Delete(o);
    if (ok) add_sanction(rq, &s, minutes);
}

/* GET sanctions: the mutes and bans in force. */
static void read_sanctions(http_request *rq) {
    if (!api_allow(rq, "GET")) return;
    store_sanction *list = NULL;
    int count = 0;
    int rc = store_active_sanctions(rq->srv->st, registry_now_ms(rq->srv->gm), &list, &count);
    if (rc != STORE_OK) {
        send_store_failure(rq, rc);
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON *items = o ? cJSON_AddArrayToObject(o, "sanctions") : NULL;
    bool ok = items != NULL;
    for (int i = 0; ok && i < count; i++) {
        cJSON *j = sanction_json(&list[i]);
        ok = j && cJSON_AddItemToArray(items, j);
    }
    free(list);
    if (!ok) cJSON_Delete(o), o = NULL;
    send_owned(rq, 200, o);
}

/* ---- the router ------------------------------------------------------------------- */

void admin_handle(http_request *rq, const char *rest) {
    if (!admin_enabled(rq->srv->adm)) {
        http_send_error(rq, 404, "not_found", "No such endpoint.");
        return;
    }
    if (!authorized(rq)) return;
    if (!strcmp(rest, "reports")) read_reports(rq);
    else if (!strcmp(rest, "log")) read_log(rq);
    else if (!strcmp(rest, "sanctions")) read_sanctions(rq);
    else if (!strcmp(rest, "mute")) mute(rq);
    else if (!strcmp(rest, "ban")) ban(rq);
    else if (!strncmp(rest, "games/", 6)) game_routes(rq, rest + 6);
    else http_send_error(rq, 404, "not_found", "No such endpoint.");
}
