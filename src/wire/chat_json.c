/* chat_json: messages, names and talk requests on the wire (see
 * chat_json.h). */
#include "wire/chat_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"
#include "wire/json_print.h"

const char *chat_room_name(int room) {
    return room == CHAT_ROOM_PLAYERS ? "players" : room == CHAT_ROOM_SPECTATORS ? "spectators" : NULL;
}

int chat_room_of(const char *word) {
    if (!word) return 0;
    if (!strcmp(word, "players")) return CHAT_ROOM_PLAYERS;
    if (!strcmp(word, "spectators")) return CHAT_ROOM_SPECTATORS;
    return 0;
}

static const char *author_name(int author) {
    return author == 1 ? "black" : author == 2 ? "white" : "spectator";
}

static bool add_text_or_null(cJSON *o, const char *key, const char *text) {
    return text && *text ? cJSON_AddStringToObject(o, key, text) != NULL
                         : cJSON_AddNullToObject(o, key) != NULL;
}

cJSON *chat_json_message(const chat_entry *m) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    bool ok =
        chat_room_name(m->room) && cJSON_AddStringToObject(o, "room", chat_room_name(m->room)) &&
        cJSON_AddNumberToObject(o, "n", m->n) && cJSON_AddStringToObject(o, "from", author_name(m->author)) &&
        add_text_or_null(o, "name", m->name) && cJSON_AddStringToObject(o, "text", m->text ? m->text : "") &&
        cJSON_AddNumberToObject(o, "at_ms", (double)m->at_ms) &&
        (!m->removed || cJSON_AddTrueToObject(o, "removed"));
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *chat_json_room(const chat_entry *list, int count, int last_n) {
    cJSON *o = cJSON_CreateObject();
    cJSON *messages = o ? cJSON_AddArrayToObject(o, "messages") : NULL;
    bool ok = messages && cJSON_AddNumberToObject(o, "last", last_n);
    for (int i = 0; ok && i < count; i++) {
        cJSON *m = chat_json_message(&list[i]);
        ok = m != NULL;
        if (ok) cJSON_AddItemToArray(messages, m);
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *chat_json_names(const char *black, const char *white) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    if (!add_text_or_null(o, "black", black) || !add_text_or_null(o, "white", white)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* Prints o compactly and frees it. */
static char *print_and_free(cJSON *o, size_t *len) {
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (text && len) *len = strlen(text);
    return text;
}

char *chat_json_message_frame(const chat_entry *m, size_t *len) {
    cJSON *o = cJSON_CreateObject();
    cJSON *msg = o ? chat_json_message(m) : NULL;
    if (!msg || !cJSON_AddStringToObject(o, "type", "chat")) {
        cJSON_Delete(msg);
        cJSON_Delete(o);
        return NULL;
    }
    cJSON_AddItemToObject(o, "message", msg);
    return print_and_free(o, len);
}

/* Appends o's text to sb and frees o. */
static bool append_and_free(strbuf *sb, cJSON *o) {
    bool ok = o && json_print_append(sb, o) && !sb->failed;
    cJSON_Delete(o);
    return ok;
}

bool chat_json_message_append(strbuf *sb, const chat_entry *m) { return append_and_free(sb, chat_json_message(m)); }

bool chat_json_room_append(strbuf *sb, const chat_entry *list, int count, int last_n) {
    return append_and_free(sb, chat_json_room(list, count, last_n));
}

bool chat_json_names_append(strbuf *sb, const char *black, const char *white) {
    return append_and_free(sb, chat_json_names(black, white));
}

/* ---- requests ---- */

static chat_json_status bad_request(char *err, size_t errlen, const char *message) {
    snprintf(err, errlen, "%s", message);
    return CHAT_JSON_BAD_REQUEST;
}

static chat_json_status parse_text(const cJSON *value, talk_kind kind, const char *field, char *out,
                                   talk_verdict *why, char *err, size_t errlen) {
    char stored[TALK_TEXT_MAX_BYTES];
    const char *s = cJSON_GetStringValue(value);
    if (!s) {
        snprintf(err, errlen, "%s must be a string", field);
        return CHAT_JSON_BAD_REQUEST;
    }
    talk_verdict v;
    if (talk_text_clean(kind, s, strlen(s), stored, &v) != TALK_OK) {
        if (why) *why = v;
        talk_verdict_message(field, kind, &v, err, errlen);
        return CHAT_JSON_BAD_TEXT;
    }
    memcpy(out, stored, strlen(stored) + 1);
    return CHAT_JSON_OK;
}

chat_json_status chat_json_parse_name(const cJSON *value, bool optional, char *out, talk_verdict *why,
                                      char *err, size_t errlen) {
    out[0] = '\0';
    if (!value || cJSON_IsNull(value)) {
        if (optional) return CHAT_JSON_OK;
        return bad_request(err, errlen, "name is required (a string, or null for none)");
    }
    if (!cJSON_IsString(value)) return bad_request(err, errlen, "name must be a string or null");
    return parse_text(value, TALK_NAME, "name", out, why, err, errlen);
}

/* Every member of body is one of the allowed keys, each at most once. */
static bool only_fields(const cJSON *body, const char *const *allowed, int count, char *err, size_t errlen) {
    int seen[4] = { 0 };
    for (const cJSON *f = body->child; f; f = f->next) {
        int i = 0;
        while (i < count && strcmp(f->string, allowed[i]) != 0) i++;
        if (i == count || seen[i]++) {
            char name[48];
            snprintf(err, errlen, "%s field \"%s\"", i == count ? "unknown" : "repeated",
                     utf8_excerpt(name, sizeof name, f->string, 40));
            return false;
        }
    }
    return true;
}

chat_json_status chat_json_parse_post(const cJSON *body, char *text_out, char *name_out, talk_verdict *why,
                                      char *err, size_t errlen) {
    static const char *const fields[] = { "text", "name" };
    text_out[0] = name_out[0] = '\0';
    if (!cJSON_IsObject(body)) return bad_request(err, errlen, "the body must be a JSON object");
    if (!only_fields(body, fields, 2, err, errlen)) return CHAT_JSON_BAD_REQUEST;
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(body, "text");
    if (!text) return bad_request(err, errlen, "text is required");
    chat_json_status st = parse_text(text, TALK_MESSAGE, "text", text_out, why, err, errlen);
    if (st == CHAT_JSON_OK)
        st = chat_json_parse_name(cJSON_GetObjectItemCaseSensitive(body, "name"), true, name_out, why, err,
                                  errlen);
    if (st != CHAT_JSON_OK) text_out[0] = '\0';
    return st;
}

chat_json_status chat_json_parse_report(const cJSON *body, char *reason_out, talk_verdict *why, char *err,
                                        size_t errlen) {
    static const char *const fields[] = { "reason" };
    reason_out[0] = '\0';
    if (!body) return CHAT_JSON_OK;
    if (!cJSON_IsObject(body)) return bad_request(err, errlen, "the body must be a JSON object");
    if (!only_fields(body, fields, 1, err, errlen)) return CHAT_JSON_BAD_REQUEST;
    const cJSON *reason = cJSON_GetObjectItemCaseSensitive(body, "reason");
    if (!reason || cJSON_IsNull(reason)) return CHAT_JSON_OK;
    return parse_text(reason, TALK_MESSAGE, "reason", reason_out, why, err, errlen);
}

chat_json_status chat_json_parse_rename(const cJSON *body, char *name_out, talk_verdict *why, char *err,
                                        size_t errlen) {
    static const char *const fields[] = { "name" };
    name_out[0] = '\0';
    if (!cJSON_IsObject(body)) return bad_request(err, errlen, "the body must be a JSON object");
    if (!only_fields(body, fields, 1, err, errlen)) return CHAT_JSON_BAD_REQUEST;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(body, "name");
    if (!name) return bad_request(err, errlen, "name is required (a string, or null for none)");
    return chat_json_parse_name(name, true, name_out, why, err, errlen);
}
