/* fuzz_view_json: the JSON the API sends about a game never names a point
 * its viewer may not know.
 *
 * Random games (fuzz_game.h) are played; after every accepted action the
 * target renders, for black, white and a spectator, the view
 * (view_json_open_text, closed) and the events since a fuzz-chosen seq
 * (view_json_events_append), exactly what the server sends, and walks every
 * string in them. While the game is on, a string that is a vertex of the
 * board must be one the viewer knows: its own stone, a handicap point, a
 * point it attempted itself, or a captured point announced to it. Every
 * document must also be valid JSON whose seq is the game's. Once the game
 * is over, the view must show every stone of the real board. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "engine/handicap.h"
#include "engine/referee.h"
#include "engine/vertex.h"
#include "engine/view.h"
#include "fuzz_game.h"
#include "fuzz_util.h"
#include "wire/view_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Points each viewer may name: [viewer][point]. */
typedef struct known {
    uint8_t may_name[4][BOARD_MAX_POINTS];
} known;

/* Adds what viewer v learns from event seq to k. */
static void learn(known *k, const referee *r, viewer v, int seq) {
    static observation ob;
    FUZZ_CHECK(view_observe(r, v, seq, &ob), "view_observe(%d) failed", seq);
    if (ob.point >= 0 && ob.point < BOARD_MAX_POINTS) {
        FUZZ_CHECK(ob.full_truth || ob.color == (int)v, "viewer %d told the point of another's attempt", v);
        k->may_name[v][ob.point] = 1;
    }
    for (int i = 0; i < ob.captured_known; i++) k->may_name[v][ob.captured[i]] = 1;
}

/* Checks every string of json against what viewer v may name. */
static void check_strings(const cJSON *json, const referee *r, viewer v, const known *k, const char *what) {
    const board *b = referee_truth_board(r);
    for (const cJSON *it = json; it; it = it->next) {
        if (cJSON_IsString(it)) {
            point p;
            if (vertex_parse(it->valuestring, b->size, &p) && board_on(b, p)) {
                bool own = v != VIEWER_SPECTATOR && board_at(b, p) == (int)v;
                FUZZ_CHECK(own || k->may_name[v][p],
                           "LEAK: %s for viewer %d names %s (truth there: %d) which it may not know", what, v,
                           it->valuestring, board_at(b, p));
            }
        }
        if (it->child) check_strings(it->child, r, v, k, what);
    }
}

static void check_finished_view(const cJSON *vw, const referee *r) {
    const board *b = referee_truth_board(r);
    const cJSON *stones = cJSON_GetObjectItem(vw, "stones");
    int listed = cJSON_GetArraySize(cJSON_GetObjectItem(stones, "black")) +
                 cJSON_GetArraySize(cJSON_GetObjectItem(stones, "white"));
    FUZZ_CHECK(listed == board_count(b, BLACK) + board_count(b, WHITE),
               "a finished game's view lists %d stones of %d", listed,
               board_count(b, BLACK) + board_count(b, WHITE));
}

static void check_viewer(const referee *r, viewer v, const view_table *t, const known *k, int since) {
    size_t len = 0;
    char *open = view_json_open_text(r, v, t, &len);
    FUZZ_CHECK(open && strlen(open) == len, "view_json_open_text gave no text or a wrong length");
    strbuf whole = { 0 };
    strbuf_append(&whole, open, len);
    strbuf_append(&whole, "}", 1); /* closed without the fields of the moment */
    FUZZ_CHECK(!whole.failed, "out of memory");
    const char *text = whole.data;
    cJSON *vw = cJSON_ParseWithLength(whole.data, whole.len);
    FUZZ_CHECK(cJSON_IsObject(vw), "the view is not a JSON object: %s", text);
    FUZZ_CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(vw, "seq")) == referee_event_count(r),
               "the view's seq is not the game's");
    bool over = referee_result(r).over;
    FUZZ_CHECK(cJSON_IsTrue(cJSON_GetObjectItem(vw, "over")) == over, "the view's over is wrong");
    if (over) check_finished_view(vw, r);
    else check_strings(vw, r, v, k, "view");
    strbuf listed = { 0 };
    FUZZ_CHECK(view_json_events_append(&listed, r, v, since), "events_append failed");
    cJSON *events = cJSON_ParseWithLength(listed.data, listed.len);
    FUZZ_CHECK(cJSON_IsArray(events), "the events are not an array: %s", listed.data);
    FUZZ_CHECK(cJSON_GetArraySize(events) == referee_event_count(r) - since, "events since %d: %d of %d",
               since, cJSON_GetArraySize(events), referee_event_count(r));
    if (!over) check_strings(events, r, v, k, "events");
    cJSON_Delete(events);
    cJSON_Delete(vw);
    strbuf_free(&listed);
    strbuf_free(&whole);
    free(open);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_bytes fb = fuzz_bytes_of(data, size);
    game_settings s = settings_from(&fb);
    referee *r = referee_new(&s);
    if (!r) return 0;
    static known k;
    memset(&k, 0, sizeof k);
    point hp[HANDICAP_MAX];
    int nh = handicap_points(s.size, s.handicap, hp);
    for (int i = 0; i < nh; i++)
        for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) k.may_name[v][hp[i]] = 1;
    view_table t = {
        .game_id = "fuzzgame01", .mode = "online", .seat_taken = { false, true, true }, .rematch_id = NULL
    };
    for (int steps = 0; fuzz_left(&fb) && steps < 1000; steps++) {
        action a = action_from(&fb, r);
        const ref_event *ev;
        if (referee_apply(r, a, &ev) != REFUSE_NONE) continue;
        for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) learn(&k, r, (viewer)v, ev->seq);
        /* Rendering folds the whole history: check after one event in 8
         * (fuzz-chosen) and at the end, or long games would crawl. */
        unsigned pick = fuzz_u8(&fb);
        if ((pick & 7) != 0 && !ev->ended) continue;
        int since = (int)((pick >> 3) % (unsigned)(ev->seq + 1)); /* 0..seq */
        for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) check_viewer(r, (viewer)v, &t, &k, since);
    }
    referee_free(r);
    return 0;
}
