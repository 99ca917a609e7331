/* fuzz_engine: random games against the engine's invariants.
 *
 * The input picks table settings, then a sequence of actions (mostly
 * attempts by the player to move, sometimes a wrong colour, a bad point, a
 * pass, a resignation...). After every action the target checks, against
 * its own slow recomputation:
 *  - the board: the engine's invariant checker (board_invariant_violation)
 *    finds nothing, and board_liberties agrees with a flood fill;
 *  - the referee: a refusal changes nothing; an attempt is a move exactly
 *    when the board allows it; the tried set holds only illegal points;
 *    stones placed minus stones captured equals stones on the board;
 *  - the visibility filter: for each viewer (black, white, spectator) the
 *    observation hides the point and reason of others' attempts, and the
 *    view, while the game is on, shows the viewer's own stones exactly and
 *    no other stone but a public handicap stone; once over, everything;
 *  - determinism: replaying the stored action log gives the same events and
 *    views, and view_build equals the fold of the observations.
 * The slow checks are what make this a test: a crash here is an engine bug. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board.h"
#include "engine/handicap.h"
#include "engine/referee.h"
#include "engine/view.h"
#include "fuzz_game.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Flood-fills the group at p: marks its stones in `done`, returns its
 * exact liberty count and its size in *stones. */
static int flood_group(const board *b, point p, uint8_t *done, int *stones) {
    static uint8_t lib_seen[BOARD_MAX_POINTS + 1];
    static point stack[BOARD_MAX_POINTS];
    memset(lib_seen, 0, sizeof lib_seen);
    int color = b->color[p], top = 0, libs = 0;
    *stones = 0;
    stack[top++] = p;
    done[p] = 1;
    while (top > 0) {
        point q = stack[--top];
        (*stones)++;
        FUZZ_CHECK(b->group[q] == b->group[p], "stones %d and %d connected but in two groups", p, q);
        foreach_neighbour(b->geo, q, n) {
            if (n == BOARD_OFF_POINT) continue;
            if (b->color[n] == EMPTY && !lib_seen[n]) {
                lib_seen[n] = 1;
                libs++;
            } else if (b->color[n] == color && !done[n]) {
                done[n] = 1;
                stack[top++] = n;
            }
        }
    }
    return libs;
}

/* The engine's own checker covers every incremental structure; the flood
 * fill here checks the exact liberty answers on top. */
static void check_board(const board *b) {
    static uint8_t done[BOARD_MAX_POINTS + 1];
    const char *why = board_invariant_violation(b);
    FUZZ_CHECK(why == NULL, "board invariant: %s", why ? why : "");
    memset(done, 0, sizeof done);
    for (point p = 0; p < b->npoints; p++) {
        if (b->color[p] == EMPTY || done[p]) continue;
        int stones, libs = flood_group(b, p, done, &stones);
        FUZZ_CHECK(board_liberties(b, p) == libs, "board_liberties(%d) = %d, flood fill %d", p,
                   board_liberties(b, p), libs);
        FUZZ_CHECK(board_in_atari(b, p) == (libs == 1), "board_in_atari(%d) wrong", p);
        FUZZ_CHECK(b->grp[b->group[p]].stones == stones, "group size at %d: %d, flood fill %d", p,
                   b->grp[b->group[p]].stones, stones);
    }
}

/* The referee's bookkeeping: placed - lost = on board; the tried set. */
static void check_referee(const referee *r, const int moves[3], int handicap) {
    const board *b = referee_truth_board(r);
    int placed_black = moves[BLACK] + handicap;
    FUZZ_CHECK(placed_black - referee_captured_by(r, WHITE) == board_count(b, BLACK),
               "black: %d placed, %d lost, %d on board", placed_black, referee_captured_by(r, WHITE),
               board_count(b, BLACK));
    FUZZ_CHECK(moves[WHITE] - referee_captured_by(r, BLACK) == board_count(b, WHITE),
               "white: %d placed, %d lost, %d on board", moves[WHITE], referee_captured_by(r, BLACK),
               board_count(b, WHITE));
    int n;
    const point *tried = referee_tried(r, &n);
    int mover = referee_to_move(r);
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(board_on(b, tried[i]), "tried point %d off the board", tried[i]);
        for (int j = 0; j < i; j++) FUZZ_CHECK(tried[i] != tried[j], "point %d tried twice", tried[i]);
        if (mover != EMPTY && referee_settings(r)->ko == KO_SIMPLE)
            FUZZ_CHECK(board_check(b, mover, tried[i]) != MOVE_OK, "tried point %d is legal", tried[i]);
    }
}

static bool is_handicap_point(const point *hp, int nh, point p) {
    for (int i = 0; i < nh; i++)
        if (hp[i] == p) return true;
    return false;
}

/* What viewer v learned from the event it just got. */
static void check_observation(const referee *r, viewer v, const observation *ob, const ref_event *ev) {
    const game_settings *s = referee_settings(r);
    FUZZ_CHECK(ob->seq == ev->seq && ob->kind == (int)ev->kind && ob->color == ev->color,
               "observation %d of viewer %d: public fields differ", ev->seq, v);
    FUZZ_CHECK(ob->captured_count == ev->captured_count, "capture count hidden");
    if (ob->full_truth) {
        FUZZ_CHECK(ob->point == ev->point && ob->captured_known == ev->captured_count,
                   "a finished game's observation hides something");
        return;
    }
    bool actor = (int)v == ev->color;
    if (ev->kind == EV_MOVE || ev->kind == EV_ILLEGAL) {
        FUZZ_CHECK(ob->point == (actor ? ev->point : NO_POINT), "viewer %d sees point %d of %s attempt", v,
                   ob->point, actor ? "its own" : "another's");
        bool told = actor && s->rules == RULES_HAMBURG && ev->kind == EV_ILLEGAL;
        FUZZ_CHECK(ob->reason == (told ? (int)ev->reason : ILLEGAL_NONE), "viewer %d: illegal reason %d", v,
                   ob->reason);
    }
    int owner = color_other(ev->color);
    bool points_told = s->rules != RULES_HAMBURG || (int)v == owner;
    FUZZ_CHECK(ob->captured_known == (points_told ? ev->captured_count : 0),
               "viewer %d knows %d of %d captured points", v, ob->captured_known, ev->captured_count);
    if (s->rules == RULES_OLYMPIAD) FUZZ_CHECK(!ob->atari, "atari announced under olympiad rules");
}

/* Viewer v's view against the truth. */
static void check_view(const referee *r, const view *vw, const point *hp, int nh) {
    const board *b = referee_truth_board(r);
    viewer v = (viewer)vw->viewer;
    FUZZ_CHECK(vw->seq == referee_event_count(r), "view seq %d, %d events", vw->seq, referee_event_count(r));
    FUZZ_CHECK(vw->to_move == referee_to_move(r) && vw->turn == referee_turn(r),
               "view turn/to_move differ from the referee's");
    FUZZ_CHECK(vw->on_board[BLACK] == board_count(b, BLACK) && vw->on_board[WHITE] == board_count(b, WHITE),
               "public stone counts wrong");
    FUZZ_CHECK(vw->captured_by[BLACK] == referee_captured_by(r, BLACK) &&
                   vw->captured_by[WHITE] == referee_captured_by(r, WHITE),
               "prisoners wrong");
    for (point p = 0; p < b->npoints; p++) {
        int seen = vw->stone[p], real = board_at(b, p);
        if (vw->over) {
            FUZZ_CHECK(seen == real, "finished game: viewer %d sees %d at %d, truth %d", v, seen, p, real);
            continue;
        }
        if (v != VIEWER_SPECTATOR)
            FUZZ_CHECK((seen == (int)v) == (real == (int)v), "viewer %d: own stone at %d seen %d, truth %d",
                       v, p, seen, real);
        if (seen != EMPTY && seen != (int)v)
            FUZZ_CHECK((vw->mark[p] & VIEW_HANDICAP) && is_handicap_point(hp, nh, p),
                       "HIDDEN STONE: viewer %d sees colour %d at %d (not a public handicap stone)", v, seen,
                       p);
    }
    if (vw->over) return; /* the tried set of the last turn may stay: nothing is hidden any more */
    if ((int)v == referee_to_move(r)) {
        int n;
        const point *tried = referee_tried(r, &n);
        FUZZ_CHECK(vw->n_tried == n, "viewer's tried set has %d points, referee %d", vw->n_tried, n);
        for (int i = 0; i < n; i++)
            FUZZ_CHECK(vw->tried[i] == tried[i] && (vw->mark[tried[i]] & VIEW_TRIED), "tried point %d", i);
    } else if (v != VIEWER_SPECTATOR) {
        FUZZ_CHECK(vw->n_tried == 0, "viewer %d not to move has tried points", v);
    }
}

/* Checks one referee_apply against what the board says beforehand. */
static void check_verdict(const referee *r, action a, refusal why, const ref_event *ev, const board *before,
                          int events_before) {
    if (why != REFUSE_NONE) {
        FUZZ_CHECK(referee_event_count(r) == events_before, "a refusal (%d) added an event", why);
        FUZZ_CHECK(board_hash(referee_truth_board(r)) == board_hash(before), "a refusal changed the board");
        if (why == REFUSE_BAD_VERTEX)
            FUZZ_CHECK(!board_on(before, a.point), "refused good vertex %d", a.point);
        if (why == REFUSE_OWN_STONE)
            FUZZ_CHECK(board_on(before, a.point) && board_at(before, a.point) == a.color, "not own stone");
        return;
    }
    FUZZ_CHECK(referee_event_count(r) == events_before + 1 && ev && ev->seq == events_before + 1,
               "an accepted action did not add exactly one event");
    if (a.kind != ACT_ATTEMPT) return;
    FUZZ_CHECK(board_on(before, a.point) && board_at(before, a.point) != a.color,
               "accepted an attempt at %d (own stone or off the board)", a.point);
    move_result m = board_check(before, a.color, a.point);
    if (ev->kind == EV_MOVE) {
        FUZZ_CHECK(m == MOVE_OK, "played %d though the board says %d", a.point, m);
        return;
    }
    FUZZ_CHECK(ev->kind == EV_ILLEGAL, "an attempt gave event kind %d", ev->kind);
    illegal_reason want = m == MOVE_OCCUPIED  ? ILLEGAL_OCCUPIED
                          : m == MOVE_SUICIDE ? ILLEGAL_SUICIDE
                                              : ILLEGAL_KO;
    FUZZ_CHECK(ev->reason == want, "illegal reason %d, board says %d", ev->reason, m);
    if (m == MOVE_OK)
        FUZZ_CHECK(referee_settings(r)->ko == KO_SUPERKO, "a legal move refused as ko under simple ko");
}

/* Replays r's stored action log into a new referee: same events, same views. */
static void check_replay(const referee *r) {
    referee *twin = referee_new(referee_settings(r));
    FUZZ_CHECK(twin != NULL, "replay: referee_new failed");
    int n = referee_event_count(r);
    for (int seq = 1; seq <= n; seq++) {
        const ref_event *ev;
        FUZZ_CHECK(referee_apply(twin, *referee_action(r, seq), &ev) == REFUSE_NONE, "replay refused %d",
                   seq);
        const ref_event *orig = referee_event(r, seq);
        FUZZ_CHECK(ev->kind == orig->kind && ev->point == orig->point &&
                       ev->captured_count == orig->captured_count,
                   "replay differs at seq %d", seq);
    }
    FUZZ_CHECK(board_hash(referee_truth_board(twin)) == board_hash(referee_truth_board(r)),
               "replay: boards differ");
    static view a, b;
    for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) {
        view_build(r, (viewer)v, &a);
        view_build(twin, (viewer)v, &b);
        FUZZ_CHECK(memcmp(&a, &b, sizeof a) == 0, "replay: views of viewer %d differ", v);
    }
    referee_free(twin);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_bytes fb = fuzz_bytes_of(data, size);
    game_settings s = settings_from(&fb);
    referee *r = referee_new(&s);
    if (!r) {
        FUZZ_CHECK(settings_validate(&s) != NULL, "referee_new refused valid settings");
        return 0;
    }
    point hp[HANDICAP_MAX];
    int nh = handicap_points(s.size, s.handicap, hp);
    FUZZ_CHECK(nh == s.handicap, "handicap_points gave %d of %d", nh, s.handicap);
    static view incremental[4], rebuilt;
    static observation ob;
    static board before;
    for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) view_init(&incremental[v], &s, (viewer)v);
    int moves[3] = { 0, 0, 0 };
    for (int steps = 0; fuzz_left(&fb) && steps < 3000; steps++) {
        action a = action_from(&fb, r);
        board_copy(&before, referee_truth_board(r));
        int events_before = referee_event_count(r);
        const ref_event *ev = NULL;
        refusal why = referee_apply(r, a, &ev);
        check_verdict(r, a, why, ev, &before, events_before);
        if (why != REFUSE_NONE) continue;
        if (ev->kind == EV_MOVE) moves[ev->color]++;
        check_board(referee_truth_board(r));
        check_referee(r, moves, s.handicap);
        bool over = referee_result(r).over;
        for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) {
            FUZZ_CHECK(view_observe(r, (viewer)v, ev->seq, &ob), "view_observe failed");
            check_observation(r, (viewer)v, &ob, ev);
            FUZZ_CHECK(ob.full_truth == over, "full_truth %d while over is %d", ob.full_truth, over);
            view_apply(&incremental[v], &ob);
            if (!over) check_view(r, &incremental[v], hp, nh);
        }
    }
    for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) {
        view_build(r, (viewer)v, &rebuilt);
        if (!rebuilt.over) /* once over, old observations become the full truth */
            FUZZ_CHECK(memcmp(&rebuilt, &incremental[v], sizeof rebuilt) == 0,
                       "view_build differs from the fold of observations (viewer %d)", v);
        check_view(r, &rebuilt, hp, nh);
    }
    check_replay(r);
    referee_free(r);
    return 0;
}
