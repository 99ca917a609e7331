/* lesson: the steps of the interactive lesson and the replay that answers
 * them. See lesson.h.
 *
 * A step is written as text so that it reads like a game record: `setup`
 * is a list of vertices played alternately by Black and White from an
 * empty 5x5 board (Black first, "pass" allowed, ending with Black to
 * move), `white` the points the scripted White tries in order whenever it
 * is to move (a refused or illegal try moves on to the next point; once
 * the list is spent White passes). White's script never looks at the
 * board: what happens to each try is the referee's call, as in a game.
 *
 * The scripts live here, on the server, and never in the page: the
 * positions of White's stones are exactly what the learner must not be
 * told until the referee tells them. */
#include "games/lesson.h"

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/referee.h"
#include "engine/vertex.h"
#include "wire/event_json.h"
#include "wire/view_json.h"

#define LESSON_SIZE 5

typedef enum {
    GOAL_MOVE,          /* play a stone (and see that White's answer is unseen) */
    GOAL_ILLEGAL,       /* bump into an unseen stone: "illegal", the turn stays */
    GOAL_ALREADY_TRIED, /* try a point again in the same turn: refused */
    GOAL_CAPTURE,       /* capture: the referee names the points */
    GOAL_END            /* two passes end the game; everything is revealed */
} lesson_goal;

typedef struct lesson_step {
    const char *name;
    const char *setup;
    const char *white;
    lesson_goal goal;
} lesson_step;

/* Board sketches: rows 5 to 1 top down, columns A to E; X Black, O White
 * (hidden from the learner), . empty. */
static const lesson_step STEPS[] = {
    /* An empty board: whatever Black plays, White answers somewhere unseen
     * (and may bump into Black's stone first). */
    { "see", "", "C3 D4 B2 C4 D2 B4 D3 B3 C2", GOAL_MOVE },
    /*  . . X . X      Five White stones on an X, and White fills more
     *  . O . O .      after each of Black's moves, so a few tries find
     *  X . O . X      one.
     *  . O . O .
     *  X . . . .   */
    { "illegal", "A3 B2 E3 B4 A1 C3 E5 D2 C5 D4", "C2 C4 D3 B3 D5 B1", GOAL_ILLEGAL },
    /*  X . . . X      A plus of White stones in the middle.
     *  . . O . .
     *  . O O O X
     *  . . O . .
     *  X . . . X   */
    { "once", "A1 C3 E1 C2 A5 C4 E5 B3 E3 D3", "B2 D4 B4 D2 A3", GOAL_ALREADY_TRIED },
    /*  X O . O .      White's C3 is surrounded on three sides (C4 takes
     *  . . . . .      it); Black's A5 has one liberty left, and White
     *  . X O X .      takes it with its first try, A4.
     *  . . X . O
     *  . . . . .   */
    { "capture", "B3 C3 C2 B5 D3 E2 A5 D5", "A4 B4 E4 D4 B2", GOAL_CAPTURE },
    /*  . . X X .      The board is settled: Black's wall on C (and D5)
     *  . . X O O      against White's on D. White passes at every turn;
     *  . . X O .      once Black passes too the game ends, by half a
     *  . . X O O      point if Black only passes.
     *  . . X O .   */
    { "end", "C1 D1 C2 D2 C3 D3 C4 D4 C5 E2 D5 E4", "", GOAL_END },
};

const char *const lesson_steps[] = { "see", "illegal", "once", "capture", "end", NULL };

static const lesson_step *step_named(const char *name) {
    for (size_t i = 0; i < sizeof STEPS / sizeof STEPS[0]; i++)
        if (!strcmp(STEPS[i].name, name)) return &STEPS[i];
    return NULL;
}

/* The next space-separated vertex of a script at *cursor into *p
 * (PASS_POINT for "pass"); false at the end. */
static bool next_scripted(const char **cursor, point *p) {
    const char *s = *cursor;
    while (*s == ' ') s++;
    if (!*s) return false;
    char word[VERTEX_BUF];
    size_t n = strcspn(s, " ");
    assert(n < sizeof word);
    memcpy(word, s, n);
    word[n] = '\0';
    bool ok = vertex_parse(word, LESSON_SIZE, p);
    assert(ok && "a lesson script names a point of the board");
    (void)ok;
    *cursor = s + n;
    return true;
}

static action action_of(int color, point p) {
    action a = { .kind = p == PASS_POINT ? ACT_PASS : ACT_ATTEMPT, .color = color, .point = p };
    return a;
}

/* A 5x5 referee with the step's position set up; NULL when out of memory. */
static referee *set_up(const lesson_step *st) {
    game_settings s = settings_default();
    s.size = LESSON_SIZE;
    referee *r = referee_new(&s);
    const char *cursor = st->setup;
    point p;
    for (int color = BLACK; r && next_scripted(&cursor, &p); color = color == BLACK ? WHITE : BLACK) {
        const ref_event *ev;
        refusal why = referee_apply(r, action_of(color, p), &ev);
        assert(why == REFUSE_NONE && ev->kind != EV_ILLEGAL && "a lesson's set-up is all legal");
        (void)why;
    }
    assert(!r || referee_to_move(r) == BLACK);
    return r;
}

/* White's scripted turn: its next points in order until one is played,
 * else a pass. Does nothing unless White is to move. */
static void white_answers(referee *r, const char **script) {
    point p;
    while (referee_to_move(r) == WHITE) {
        if (!next_scripted(script, &p)) p = PASS_POINT;
        (void)referee_apply(r, action_of(WHITE, p), NULL); /* a refused point is skipped */
    }
}

/* Whether the learner reached the step's goal, from their events since
 * first_seq and the refusal of their last action. */
static bool goal_reached(const referee *r, const lesson_step *st, int first_seq, refusal last) {
    if (st->goal == GOAL_ALREADY_TRIED) return last == REFUSE_ALREADY_TRIED;
    if (st->goal == GOAL_END) return referee_result(r).over;
    for (int seq = first_seq; seq <= referee_event_count(r); seq++) {
        const ref_event *ev = referee_event(r, seq);
        if (ev->color != BLACK) continue;
        if (st->goal == GOAL_MOVE && ev->kind == EV_MOVE) return true;
        if (st->goal == GOAL_ILLEGAL && ev->kind == EV_ILLEGAL) return true;
        if (st->goal == GOAL_CAPTURE && ev->kind == EV_MOVE && ev->captured_count > 0) return true;
    }
    return false;
}

/* Appends {"step","first_seq","refused","done","view"}; false when out
 * of memory. The step's name and the refusal's are the module's own
 * constants (plain words), so they are written as they are. */
static bool append_answer(strbuf *out, const referee *r, const lesson_step *st, int first_seq, refusal last) {
    view_table t;
    memset(&t, 0, sizeof t);
    t.game_id = "lesson";
    t.mode = "lesson";
    for (int c = BLACK; c <= WHITE; c++) t.seat_taken[c] = t.seat_connected[c] = true;
    t.seat_computer[WHITE] = true;
    size_t len = 0;
    char *view_text = view_json_open_text(r, VIEWER_BLACK, &t, &len);
    if (!view_text) return false;
    const char *why = refusal_name(last);
    strbuf_printf(out, "{\"step\":\"%s\",\"first_seq\":%d,\"refused\":%s%s%s,\"done\":%s,\"view\":", st->name,
                  first_seq, why ? "\"" : "", why ? why : "null", why ? "\"" : "",
                  goal_reached(r, st, first_seq, last) ? "true" : "false");
    strbuf_append(out, view_text, len);
    strbuf_puts(out, "}}");
    free(view_text);
    return !out->failed;
}

lesson_status lesson_answer(const char *step, const char *const *moves, int n, strbuf *out, int *bad_index) {
    assert(step && out && bad_index && n >= 0 && n <= LESSON_MOVES_MAX && (n == 0 || moves));
    const lesson_step *st = step_named(step);
    if (!st) return LESSON_NO_STEP;
    point points[LESSON_MOVES_MAX];
    for (int i = 0; i < n; i++)
        if (!vertex_parse(moves[i], LESSON_SIZE, &points[i])) {
            *bad_index = i;
            return LESSON_BAD_VERTEX;
        }
    referee *r = set_up(st);
    if (!r) return LESSON_NO_MEMORY;
    int first_seq = referee_event_count(r) + 1;
    const char *script = st->white;
    refusal last = REFUSE_NONE;
    for (int i = 0; i < n; i++) {
        last = referee_apply(r, action_of(BLACK, points[i]), NULL);
        if (last != REFUSE_NONE && i < n - 1) {
            referee_free(r);
            *bad_index = i;
            return LESSON_REFUSED;
        }
        white_answers(r, &script);
    }
    bool ok = append_answer(out, r, st, first_seq, last);
    referee_free(r);
    return ok ? LESSON_OK : LESSON_NO_MEMORY;
}
