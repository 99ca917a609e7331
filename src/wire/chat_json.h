/* chat_json: table talk on the wire (docs/API.md, "Names and chat"): chat
 * messages, the names of the seats, how many spectators watch, and the
 * requests that carry a name or a message.
 *
 * Values in, JSON out: the games module decides who may read what; this
 * file only spells it. A message names its author by seat ("black",
 * "white") or as "spectator", never more: no token, no address, no
 * connection of any kind, so a spectator stays anonymous whatever the
 * server knows about them. Texts are cJSON strings, so whatever a person
 * typed ("<b>", quotes, emoji) reaches a client as text to be shown as
 * text. */
#ifndef PG_WIRE_CHAT_JSON_H
#define PG_WIRE_CHAT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "util/strbuf.h"

#include "wire/talk_text.h"

enum { CHAT_ROOM_PLAYERS = 1, CHAT_ROOM_SPECTATORS = 2 };

/* One message as the games module hands it out. */
typedef struct {
    int room;         /* CHAT_ROOM_* */
    int n;            /* 1, 2, ... within its room */
    int author;       /* 1 black, 2 white, 0 a spectator */
    const char *name; /* the author's display name then; NULL or "" for none */
    const char *text;
    int64_t at_ms;
    bool removed; /* removed by the operator or erased: no name, no text */
} chat_entry;

/* "players" / "spectators" / NULL, and back (0 for an unknown word). */
const char *chat_room_name(int room);
int chat_room_of(const char *word);

/* {"room":"players","n":3,"from":"black","name":"Alice","text":"gg","at_ms":...}
 * ("name": null when the author has none); a removed message is
 * {"room","n","from","name":null,"text":"","at_ms","removed":true}. NULL
 * only when out of memory. */
cJSON *chat_json_message(const chat_entry *m);

/* {"messages":[...],"last":N}: a room's messages (oldest first) and the
 * highest n the room holds, so a client knows whether it has them all. */
cJSON *chat_json_room(const chat_entry *list, int count, int last_n);

/* {"black":"Alice","white":null}: each seat's name, null when it has none. */
cJSON *chat_json_names(const char *black, const char *white);

/* The WebSocket frame of a message, {"type":"chat","message":{...}}, as
 * compact text (malloc'd, *len set; NULL when out of memory). */
char *chat_json_message_frame(const chat_entry *m, size_t *len);

/* The texts of chat_json_message, chat_json_room and chat_json_names,
 * appended to sb (for the games layer, which holds no JSON trees); false
 * when out of memory. */
bool chat_json_message_append(strbuf *sb, const chat_entry *m);
bool chat_json_room_append(strbuf *sb, const chat_entry *list, int count, int last_n);
bool chat_json_names_append(strbuf *sb, const char *black, const char *white);

typedef enum {
    CHAT_JSON_OK = 0,
    CHAT_JSON_BAD_REQUEST, /* a field missing, unknown or of the wrong type: err names it */
    CHAT_JSON_BAD_TEXT     /* the text breaks the rules: *why says how, err in English */
} chat_json_status;

/* A name field's value: a string checked as a name (stored form into out,
 * TALK_NAME_MAX_BYTES), or null/absent when `optional` (out = ""). */
chat_json_status chat_json_parse_name(const cJSON *value, bool optional, char *out, talk_verdict *why,
                                      char *err, size_t errlen);

/* A chat post, {"text": "..."} plus an optional "name" (a spectator's
 * chosen name; a seat's own name is the server's). Unknown fields are
 * refused. text_out holds TALK_TEXT_MAX_BYTES, name_out
 * TALK_NAME_MAX_BYTES ("" when none was sent). */
chat_json_status chat_json_parse_post(const cJSON *body, char *text_out, char *name_out, talk_verdict *why,
                                      char *err, size_t errlen);

/* A rename, {"name": "..."} or {"name": null} to go back to no name. */
/* A report's body: NULL (no body) or {"reason": "..."} with the reason
 * absent, null or checked as a message's text (reason_out "" for none). */
chat_json_status chat_json_parse_report(const cJSON *body, char *reason_out, talk_verdict *why, char *err,
                                        size_t errlen);
chat_json_status chat_json_parse_rename(const cJSON *body, char *name_out, talk_verdict *why, char *err,
                                        size_t errlen);

#endif
