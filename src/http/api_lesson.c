/* api_lesson: the HTTP face of the lesson's referee (lesson.h).
 *
 *   POST /api/v1/lesson/{step}   {"moves": ["C3", "pass", ...]}
 *
 * The body is the learner's actions of the step so far (absent or empty:
 * the step's start); the answer is the replay's: Black's view through the
 * visibility filter, whether the last action was refused and whether the
 * step's goal was reached. Nothing is stored and no token is needed: the
 * lesson is the same for everyone, and its hidden stones are the server's
 * only. Checks run in the API's order: method (405), step (404), body (400). */
#include "http/api_lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "http/http_body.h"
#include "games/lesson.h"
#include "wire/json_print.h"

static bool step_exists(const char *step) {
    for (const char *const *s = lesson_steps; *s; s++)
        if (!strcmp(*s, step)) return true;
    return false;
}

/* The strings of {"moves": [...]} into moves (pointers into o); their
 * count, or -1 after answering 400. */
static int read_moves(http_request *rq, const cJSON *o, const char *moves[LESSON_MOVES_MAX]) {
    static const char *const known[] = { "moves", NULL };
    if (!o) return 0;
    if (!http_body_fields_known(rq, o, known)) return -1;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(o, "moves");
    if (!list) return 0;
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) > LESSON_MOVES_MAX) {
        char msg[96];
        snprintf(msg, sizeof msg, "'moves' must be a list of at most %d vertices or \"pass\".",
                 LESSON_MOVES_MAX);
        http_send_error(rq, 400, "bad_request", msg);
        return -1;
    }
    int n = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list) {
        if (!cJSON_IsString(item)) {
            char msg[96];
            snprintf(msg, sizeof msg, "moves[%d] must be a string: a vertex or \"pass\".", n);
            http_send_error(rq, 400, "bad_request", msg);
            return -1;
        }
        moves[n++] = item->valuestring;
    }
    return n;
}

static void send_failure(http_request *rq, lesson_status st, int bad_index) {
    char msg[160];
    switch (st) {
    case LESSON_BAD_VERTEX:
        snprintf(msg, sizeof msg, "moves[%d] is not a point of the 5x5 board nor \"pass\".", bad_index);
        http_send_error(rq, 400, "bad_vertex", msg);
        break;
    case LESSON_REFUSED:
        snprintf(msg, sizeof msg,
                 "moves[%d] was refused by the referee; only the last action may be one it refuses.",
                 bad_index);
        http_send_error(rq, 400, "bad_request", msg);
        break;
    case LESSON_NO_STEP: http_send_error(rq, 404, "not_found", "No such lesson step."); break;
    default: http_send_error(rq, 500, "internal", "The server ran out of memory."); break;
    }
}

void api_lesson(http_request *rq, const char *step) {
    if (strcmp(rq->method, "POST") != 0) {
        http_send_method_not_allowed(rq, "POST");
        return;
    }
    if (!step_exists(step)) {
        http_send_error(rq, 404, "not_found", "No such lesson step.");
        return;
    }
    bool bad = false;
    cJSON *o = http_body_optional(rq, &bad);
    if (bad) return;
    const char *moves[LESSON_MOVES_MAX];
    int n = read_moves(rq, o, moves);
    if (n >= 0) {
        strbuf answer = { 0 };
        int bad_index = 0;
        lesson_status st = lesson_answer(step, moves, n, &answer, &bad_index);
        if (st == LESSON_OK) http_send_json(rq, 200, answer.data, answer.len);
        else send_failure(rq, st, bad_index);
        strbuf_free(&answer);
    }
    cJSON_Delete(o);
}
