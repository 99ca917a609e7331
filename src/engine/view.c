/* view: the visibility filter (see view.h for who learns what).
 *
 * view_observe is the one place that decides what a viewer may learn from
 * an event; view_apply folds observations into a snapshot and never looks
 * at the referee, so a view can hold nothing its observations did not.
 * Every struct is zeroed whole before it is filled and copied field by
 * field (never by struct assignment, which may leave padding as it was),
 * so equal knowledge gives byte-identical results. */
#include "engine/view.h"

#include <assert.h>
#include <string.h>

#include "engine/handicap.h"
#include "engine/referee.h"

static void settings_copy(game_settings *dst, const game_settings *s) {
    dst->size = s->size;
    dst->komi_x2 = s->komi_x2;
    dst->handicap = s->handicap;
    dst->ko = s->ko;
    dst->rules = s->rules;
    dst->capture_target = s->capture_target;
    dst->torus = s->torus;
}

static void result_copy(game_result *dst, const game_result *g) {
    dst->over = g->over;
    dst->scored = g->scored;
    dst->reason = g->reason;
    dst->winner = g->winner;
    dst->score_black_x2 = g->score_black_x2;
    dst->score_white_x2 = g->score_white_x2;
}

static bool viewer_valid(viewer v) { return v == VIEWER_BLACK || v == VIEWER_WHITE || v == VIEWER_SPECTATOR; }

/* Which captured points of ev viewer v is told (see view.h). */
static bool sees_captured_points(const referee *r, const ref_event *ev, viewer v, bool full) {
    if (full || referee_settings(r)->rules != RULES_HAMBURG) return true;
    return (int)v == color_other(ev->color); /* the owner of the captured stones */
}

const game_settings *view_settings(const referee *r) { return referee_settings(r); }

int view_event_count(const referee *r) { return referee_event_count(r); }

bool view_observe(const referee *r, viewer v, int seq, observation *out) {
    memset(out, 0, sizeof *out);
    const ref_event *ev = referee_event(r, seq);
    if (!ev || !viewer_valid(v)) return false;
    game_result res = referee_result(r);
    bool full = res.over, mover = (int)v == ev->color;
    referee_rules rules = referee_settings(r)->rules;

    out->seq = ev->seq;
    out->turn = ev->turn;
    out->kind = ev->kind;
    out->color = ev->color;
    out->point = NO_POINT;
    out->reason = ILLEGAL_NONE;
    out->full_truth = full;
    if (ev->kind == EV_MOVE || ev->kind == EV_ILLEGAL)
        if (full || mover) out->point = ev->point;
    if (ev->kind == EV_ILLEGAL && (full || (mover && rules == RULES_HAMBURG))) out->reason = ev->reason;
    if (ev->kind == EV_MOVE) {
        out->atari = ev->atari && rules != RULES_OLYMPIAD;
        out->atari_unannounced = ev->atari && full && rules == RULES_OLYMPIAD;
        out->captured_count = (int16_t)ev->captured_count;
        if (sees_captured_points(r, ev, v, full)) {
            int n;
            const point *cap = referee_captured(r, ev, &n);
            for (int i = 0; i < n; i++) out->captured[i] = cap[i];
            out->captured_known = (int16_t)n;
        }
    }
    if (ev->ended) {
        out->ended = true;
        result_copy(&out->result, &res);
    }
    return true;
}

void view_init(view *out, const game_settings *s, viewer v) {
    memset(out, 0, sizeof *out);
    settings_copy(&out->settings, s);
    out->viewer = v;
    out->turn = 1;
    point hc[HANDICAP_MAX];
    int n = handicap_points(s->size, s->handicap, hc);
    for (int i = 0; i < n; i++) {
        out->stone[hc[i]] = BLACK;
        out->mark[hc[i]] = VIEW_HANDICAP;
    }
    out->on_board[BLACK] = n > 0 ? n : 0;
    out->to_move = n > 0 ? WHITE : BLACK;
}

/* A turn ends with a move or a pass: this turn's tried points become
 * rejected points of an earlier turn. */
static void view_end_turn(view *vw) {
    for (int i = 0; i < vw->n_tried; i++) {
        point p = vw->tried[i];
        vw->mark[p] = (uint8_t)((vw->mark[p] & ~VIEW_TRIED) | VIEW_REJECTED);
        vw->tried[i] = 0;
    }
    vw->n_tried = 0;
    vw->attempts_this_turn = 0;
    vw->turn++;
    vw->to_move = color_other(vw->to_move);
}

static void view_apply_illegal(view *vw, const observation *ob) {
    vw->attempts_this_turn++;
    if (ob->color != vw->viewer || ob->point < 0) return;
    vw->mark[ob->point] |= VIEW_TRIED;
    vw->rejected_turn[ob->point] = (int16_t)ob->turn;
    vw->tried[vw->n_tried++] = ob->point;
}

static void view_apply_move(view *vw, const observation *ob) {
    int other = color_other(ob->color);
    if (ob->point >= 0) {
        vw->stone[ob->point] = (uint8_t)ob->color;
        if (ob->color == vw->viewer) {
            vw->mark[ob->point] &= (uint8_t)~VIEW_REJECTED;
            vw->rejected_turn[ob->point] = 0;
        }
    }
    for (int i = 0; i < ob->captured_known; i++) {
        vw->stone[ob->captured[i]] = EMPTY;
        vw->mark[ob->captured[i]] &= (uint8_t)~VIEW_HANDICAP;
    }
    vw->captured_by[ob->color] += ob->captured_count;
    vw->on_board[other] -= ob->captured_count;
    vw->on_board[ob->color]++;
    vw->moves[ob->color]++;
    vw->passes = 0;
    view_end_turn(vw);
}

void view_apply(view *vw, const observation *ob) {
    assert(ob->seq == vw->seq + 1);
    vw->seq = ob->seq;
    switch ((event_kind)ob->kind) {
    case EV_ILLEGAL: view_apply_illegal(vw, ob); break;
    case EV_MOVE: view_apply_move(vw, ob); break;
    case EV_PASS:
        vw->passes++;
        view_end_turn(vw);
        break;
    case EV_RESIGN:
    case EV_TIMEOUT:
    case EV_FORFEIT: break;
    }
    if (ob->ended) {
        vw->over = true;
        vw->to_move = EMPTY;
        result_copy(&vw->result, &ob->result);
    }
}

void view_build(const referee *r, viewer v, view *out) {
    view_init(out, referee_settings(r), v);
    observation ob;
    int n = referee_event_count(r);
    for (int seq = 1; seq <= n; seq++)
        if (view_observe(r, v, seq, &ob)) view_apply(out, &ob);
}
