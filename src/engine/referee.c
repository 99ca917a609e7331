/* referee: settings + action log -> the true game state (see referee.h).
 *
 * The referee owns a board and three growing arrays: the events (one per
 * accepted action, with the action that made it), a pool of captured points
 * that events index into (so events stay small and fixed-size), and, under
 * superko, the hashes of every position so far. These grow by doubling; the
 * hot path of a playout never comes here. */
#include "engine/referee.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/handicap.h"

struct referee {
    game_settings settings;
    board board;
    int to_move, turn, passes;
    game_result result;
    int n_tried;
    point tried[BOARD_MAX_POINTS];
    uint8_t tried_mark[BOARD_MAX_POINTS];
    ref_event *events; /* events[i] is seq i+1 */
    action *actions;   /* actions[i] produced events[i] */
    int n_events, cap_events;
    point *pool; /* captured points of every event */
    int n_pool, cap_pool;
    uint64_t *history; /* superko: every position's hash, start included */
    int n_history, cap_history;
};

/* Makes room for `need` elements of elem bytes in *arr (capacity *cap),
 * doubling. Aborts when memory is exhausted, as documented: a referee that
 * silently dropped an action would be worse than a crash the supervisor
 * restarts. */
static void reserve(void **arr, int *cap, int need, size_t elem) {
    if (need <= *cap) return;
    int ncap = *cap ? *cap : 64;
    while (ncap < need) ncap *= 2;
    void *n = realloc(*arr, (size_t)ncap * elem);
    if (!n) abort();
    *arr = n;
    *cap = ncap;
}

static void history_push(referee *r, uint64_t h) {
    if (r->settings.ko != KO_SUPERKO) return;
    reserve((void **)&r->history, &r->cap_history, r->n_history + 1, sizeof *r->history);
    r->history[r->n_history++] = h;
}

static bool history_has(const referee *r, uint64_t h) {
    for (int i = 0; i < r->n_history; i++)
        if (r->history[i] == h) return true;
    return false;
}

referee *referee_new(const game_settings *s) {
    if (settings_validate(s)) return NULL;
    referee *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->settings = *s;
    board_init(&r->board, s->size, s->torus);
    point hc[HANDICAP_MAX];
    int n = handicap_points(s->size, s->handicap, hc);
    for (int i = 0; i < n; i++) board_play(&r->board, BLACK, hc[i], NULL);
    board_pass(&r->board);
    r->to_move = n > 0 ? WHITE : BLACK;
    r->turn = 1;
    history_push(r, board_hash(&r->board));
    return r;
}

void referee_free(referee *r) {
    if (!r) return;
    free(r->events);
    free(r->actions);
    free(r->pool);
    free(r->history);
    free(r);
}

/* --- judging ------------------------------------------------------------- */

/* Appends the event for accepted action a and returns it, zeroed but for
 * seq, turn, kind, colour and point. */
static ref_event *event_push(referee *r, action a, event_kind kind) {
    int cap = r->cap_events; /* actions[] and events[] share one capacity */
    reserve((void **)&r->actions, &cap, r->n_events + 1, sizeof *r->actions);
    reserve((void **)&r->events, &r->cap_events, r->n_events + 1, sizeof *r->events);
    r->actions[r->n_events] = a;
    ref_event *ev = &r->events[r->n_events++];
    memset(ev, 0, sizeof *ev);
    ev->seq = r->n_events;
    ev->turn = r->turn;
    ev->kind = kind;
    ev->color = a.color;
    ev->point = (kind == EV_MOVE || kind == EV_ILLEGAL) ? a.point : NO_POINT;
    return ev;
}

static void end_turn(referee *r) {
    for (int i = 0; i < r->n_tried; i++) r->tried_mark[r->tried[i]] = 0;
    r->n_tried = 0;
    r->turn++;
    r->to_move = color_other(r->to_move);
}

static void game_end(referee *r, ref_event *ev, end_reason reason, int winner) {
    r->result.over = true;
    r->result.reason = reason;
    r->result.winner = winner;
    r->to_move = EMPTY;
    ev->ended = true;
}

static void game_end_scored(referee *r, ref_event *ev) {
    int black, white;
    board_score_area(&r->board, &black, &white);
    r->result.scored = true;
    r->result.score_black_x2 = 2 * black;
    r->result.score_white_x2 = 2 * white + r->settings.komi_x2;
    int diff = r->result.score_black_x2 - r->result.score_white_x2;
    game_end(r, ev, END_PASSES, diff > 0 ? BLACK : diff < 0 ? WHITE : EMPTY);
}

/* Lists the points marked in `marked` by column, then row: the order the
 * protocol promises for captured stones. One pass over the board, which is
 * no slower than sorting a big capture and needs no comparator state. */
static int points_by_column(const uint8_t *marked, int size, point *out) {
    int n = 0;
    for (int x = 0; x < size; x++)
        for (int y = 0; y < size; y++)
            if (marked[y * size + x]) out[n++] = (point)(y * size + x);
    return n;
}

static illegal_reason judge(const referee *r, int color, point p) {
    switch (board_check(&r->board, color, p)) {
    case MOVE_OK: break;
    case MOVE_OCCUPIED: return ILLEGAL_OCCUPIED;
    case MOVE_SUICIDE: return ILLEGAL_SUICIDE;
    case MOVE_KO: return ILLEGAL_KO;
    }
    if (r->settings.ko == KO_SUPERKO && history_has(r, board_hash_after(&r->board, color, p)))
        return ILLEGAL_KO;
    return ILLEGAL_NONE;
}

static void apply_move(referee *r, action a, ref_event *ev) {
    point captured[BOARD_MAX_POINTS];
    ev->atari = board_would_atari(&r->board, a.color, a.point);
    int n = board_play(&r->board, a.color, a.point, captured);
    assert(board_invariant_violation(&r->board) == NULL);
    reserve((void **)&r->pool, &r->cap_pool, r->n_pool + n, sizeof *r->pool);
    if (n > 0) {
        uint8_t marked[BOARD_MAX_POINTS] = { 0 };
        for (int i = 0; i < n; i++) marked[captured[i]] = 1;
        points_by_column(marked, r->settings.size, r->pool + r->n_pool);
    }
    ev->captured_at = r->n_pool;
    ev->captured_count = n;
    r->n_pool += n;
    history_push(r, board_hash(&r->board));
    r->passes = 0;
    end_turn(r);
    int target = r->settings.capture_target;
    if (target > 0 && n > 0 && board_captures(&r->board, a.color) >= target)
        game_end(r, ev, END_CAPTURE, a.color);
}

static refusal apply_attempt(referee *r, action a, ref_event **ev) {
    if (a.color != r->to_move) return REFUSE_NOT_YOUR_TURN;
    if (!board_on(&r->board, a.point)) return REFUSE_BAD_VERTEX;
    if (board_at(&r->board, a.point) == a.color) return REFUSE_OWN_STONE;
    if (r->tried_mark[a.point]) return REFUSE_ALREADY_TRIED;
    illegal_reason why = judge(r, a.color, a.point);
    if (why != ILLEGAL_NONE) {
        *ev = event_push(r, a, EV_ILLEGAL);
        (*ev)->reason = why;
        r->tried_mark[a.point] = 1;
        r->tried[r->n_tried++] = a.point;
        return REFUSE_NONE;
    }
    *ev = event_push(r, a, EV_MOVE);
    apply_move(r, a, *ev);
    return REFUSE_NONE;
}

static refusal apply_pass(referee *r, action a, ref_event **ev) {
    if (a.color != r->to_move) return REFUSE_NOT_YOUR_TURN;
    *ev = event_push(r, a, EV_PASS);
    board_pass(&r->board);
    r->passes++;
    end_turn(r);
    if (r->passes >= 2) game_end_scored(r, *ev);
    return REFUSE_NONE;
}

static refusal apply_loss(referee *r, action a, event_kind kind, end_reason why, ref_event **ev) {
    if (kind == EV_TIMEOUT && a.color != r->to_move) return REFUSE_NOT_YOUR_TURN;
    *ev = event_push(r, a, kind);
    game_end(r, *ev, why, color_other(a.color));
    return REFUSE_NONE;
}

refusal referee_apply(referee *r, action a, const ref_event **event_out) {
    ref_event *ev = NULL;
    refusal why;
    if (r->result.over) return REFUSE_GAME_OVER;
    if (a.color != BLACK && a.color != WHITE) return REFUSE_NOT_YOUR_TURN;
    switch (a.kind) {
    case ACT_ATTEMPT: why = apply_attempt(r, a, &ev); break;
    case ACT_PASS: why = apply_pass(r, a, &ev); break;
    case ACT_RESIGN: why = apply_loss(r, a, EV_RESIGN, END_RESIGN, &ev); break;
    case ACT_TIMEOUT: why = apply_loss(r, a, EV_TIMEOUT, END_TIMEOUT, &ev); break;
    case ACT_FORFEIT: why = apply_loss(r, a, EV_FORFEIT, END_FORFEIT, &ev); break;
    default: why = REFUSE_BAD_VERTEX; break;
    }
    if (event_out) *event_out = why == REFUSE_NONE ? ev : NULL;
    return why;
}

/* --- reading ------------------------------------------------------------- */

const game_settings *referee_settings(const referee *r) { return &r->settings; }
int referee_event_count(const referee *r) { return r->n_events; }

const ref_event *referee_event(const referee *r, int seq) {
    return seq >= 1 && seq <= r->n_events ? &r->events[seq - 1] : NULL;
}

const action *referee_action(const referee *r, int seq) {
    return seq >= 1 && seq <= r->n_events ? &r->actions[seq - 1] : NULL;
}

const point *referee_captured(const referee *r, const ref_event *ev, int *n) {
    *n = ev->captured_count;
    return r->pool ? r->pool + ev->captured_at : NULL;
}

int referee_to_move(const referee *r) { return r->to_move; }
int referee_turn(const referee *r) { return r->turn; }

const point *referee_tried(const referee *r, int *n) {
    *n = r->n_tried;
    return r->tried;
}

int referee_passes(const referee *r) { return r->passes; }
int referee_captured_by(const referee *r, int c) { return board_captures(&r->board, c); }
game_result referee_result(const referee *r) { return r->result; }
const board *referee_truth_board(const referee *r) { return &r->board; }
