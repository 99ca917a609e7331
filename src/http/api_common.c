/* api_common: what every /api/v1/ handler answers with (see
 * api_handlers.h): the one table from a games status to its HTTP status,
 * error code and message, JSON answers, and who a request speaks for (a
 * seat by its Bearer token, or a spectator). */
#include "http/api_handlers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "wire/json_print.h"

typedef struct status_error {
    game_status st;
    int http;
    const char *code, *message;
} status_error;

static const status_error errors[] = {
    { GAME_NOT_FOUND, 404, "not_found", "No such game." },
    { GAME_UNAVAILABLE, 503, "unavailable", "The database cannot be written now; nothing changed." },
    { GAME_ERROR, 500, "internal", "The server failed to answer." },
    { GAME_STALE_SEQ, 409, "stale_seq", "'seq' is not the next sequence number; read the view again." },
    { GAME_NOT_YOUR_TURN, 409, "not_your_turn", "It is not your turn." },
    { GAME_ALREADY_TRIED, 409, "already_tried", "You already tried this point this turn." },
    { GAME_OWN_STONE, 409, "own_stone", "One of your own stones is on that point." },
    { GAME_GAME_OVER, 409, "game_over", "The game has ended." },
    { GAME_BAD_VERTEX, 400, "bad_vertex", "'vertex' is not a point of this board." },
    { GAME_SEAT_TAKEN, 409, "seat_taken", "There is no free seat: the invite was already used." },
    { GAME_BAD_INVITE, 403, "bad_invite", "The invite secret is wrong." },
    { GAME_NOT_OVER, 409, "game_not_over", "A rematch needs a finished game." },
    { GAME_NO_BOT, 501, "not_implemented", "The computer player is not available yet." },
    { GAME_TOO_EARLY, 409, "too_early",
      "The game cannot be claimed: your opponent is not to move, or is "
      "still within the time limit." },
    { GAME_NOT_PUBLIC, 403, "not_public", "This game is not open to everyone: it needs its invite." },
    { GAME_CANCELLED, 409, "game_cancelled", "This game was cancelled." },
    { GAME_CHAT_CLOSED, 403, "chat_closed", "This game has no spectators' room: only its players talk." },
    { GAME_CHAT_FULL, 409, "chat_full", "This chat room is full." },
    { GAME_AID_OFF, 403, "aid_off", "The deduction aid is off at this table." },
    { GAME_AID_FOR_SEATS, 401, "token_required",
      "The deduction aid is for the players until the game ends: send your seat token." },
    { GAME_AID_NOT_YOURS, 403, "aid_not_yours", "A seat reads only its own deduction aid until the game ends." },
    { GAME_BAD_AID_REQUEST, 400, "bad_request",
      "After the end, 'color' must name a seat (spectators must name one unless the computer played) "
      "and 'seq' a position before the end, from 0." },
    { GAME_NO_REMATCH, 409, "no_rematch", "There is no open rematch offer." },
    { GAME_NOT_OFFERER, 409, "not_offerer", "Only the player who offered the rematch can withdraw it." },
    { GAME_OWN_OFFER, 409, "own_offer", "This rematch offer is your own: withdraw it instead." },
};

void api_send_status(http_request *rq, game_status st) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
        if (errors[i].st == st) {
            http_send_error(rq, errors[i].http, errors[i].code, errors[i].message);
            return;
        }
    http_send_error(rq, 500, "internal", "The server failed to answer.");
}

void api_send_cjson(http_request *rq, int status, const cJSON *o) {
    size_t len = 0;
    char *text = o ? json_print(o, &len) : NULL;
    if (text) http_send_json(rq, status, text, len);
    else http_send_error(rq, 500, "internal", "The server ran out of memory.");
    free(text);
}

/* Sends o (which may be NULL: out of memory) and frees it. */
void api_send_owned_cjson(http_request *rq, int status, cJSON *o) {
    api_send_cjson(rq, status, o);
    cJSON_Delete(o);
}

/* ---- who a request speaks for ------------------------------------------- */

token_kind api_bearer_token(const http_request *rq, const char **token) {
    const char *h = http_header(rq, "Authorization");
    *token = NULL;
    if (!h || !*h) return TOKEN_NONE;
    if (strncasecmp(h, "Bearer ", 7) != 0) return TOKEN_BAD;
    *token = h + 7;
    while (**token == ' ') (*token)++;
    return **token ? TOKEN_GIVEN : TOKEN_NONE;
}

/* The viewer a request speaks for: a seat, or a spectator without a token.
 * False after answering 403 for a token that is not a seat here. */
bool api_viewer_of(http_request *rq, game *g, viewer *v) {
    const char *token;
    token_kind k = api_bearer_token(rq, &token);
    int seat = k == TOKEN_GIVEN ? game_seat_of(g, token) : 0;
    if (k == TOKEN_BAD || (k == TOKEN_GIVEN && !seat)) {
        http_send_error(rq, 403, "bad_token", "This token is not a seat of this game.");
        return false;
    }
    *v = seat ? (viewer)seat : VIEWER_SPECTATOR;
    return true;
}

/* The seat a request must act for: 401 without a token, 403 with a wrong one. */
int api_seat_of(http_request *rq, game *g) {
    const char *token;
    token_kind k = api_bearer_token(rq, &token);
    if (k == TOKEN_NONE) {
        http_send_error(rq, 401, "token_required", "This needs a seat token (Authorization: Bearer).");
        return 0;
    }
    int seat = k == TOKEN_GIVEN ? game_seat_of(g, token) : 0;
    if (!seat) http_send_error(rq, 403, "bad_token", "This token is not a seat of this game.");
    return seat;
}

/* Is rq's method one of `methods` ("GET PUT"; GET also admits HEAD)? If
 * not, answers 405 naming them. */
bool api_allow(http_request *rq, const char *methods) {
    char list[32], allow_header[64] = "";
    snprintf(list, sizeof list, "%s", methods);
    bool ok = false;
    for (char *save, *m = strtok_r(list, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        bool get = !strcmp(m, "GET");
        ok = ok || !strcmp(rq->method, m) || (get && rq->head);
        snprintf(allow_header + strlen(allow_header), sizeof allow_header - strlen(allow_header), "%s%s%s",
                 allow_header[0] ? ", " : "", m, get ? ", HEAD" : "");
    }
    if (!ok) http_send_method_not_allowed(rq, allow_header);
    return ok;
}

/* Sends the JSON text in sb (200), or a 500 when composing it failed;
 * frees sb either way. */
void api_send_composed(http_request *rq, int status, bool ok, strbuf *sb) {
    if (ok && !sb->failed) http_send_json(rq, status, sb->data, sb->len);
    else http_send_error(rq, 500, "internal", "The server ran out of memory.");
    strbuf_free(sb);
}

