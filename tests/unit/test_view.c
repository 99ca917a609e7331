/* The visibility filter: who learns what under each referee mode, the full
 * reveal at the end, and the iron rule as tests: two games that differ only
 * in what a viewer may not see give that viewer byte-identical observations
 * and views, and over many random games no view ever shows a hidden stone. */
#include "harness.h"
#include "test_engine_util.h"

#include "engine/handicap.h"
#include "engine/rng.h"
#include "engine/view.h"

static referee *game(int size, referee_rules rules, const char *const *moves, int n) {
    game_settings s = settings_default();
    s.size = size;
    s.rules = rules;
    referee *r = referee_new(&s);
    for (int i = 0; i < n; i++) {
        int c = referee_to_move(r);
        refusal why = strcmp(moves[i], "pass") ? ref_try(r, c, moves[i], NULL) : ref_act(r, ACT_PASS, c);
        CHECK_EQ_INT(why, REFUSE_NONE);
    }
    return r;
}

static observation obs(const referee *r, viewer v, int seq) {
    observation o;
    CHECK(view_observe(r, v, seq, &o));
    return o;
}

TEST(view_moves_seen_only_by_their_mover) {
    const char *moves[] = { "C3", "C3", "D4" }; /* black C3; white tries C3 (illegal), plays D4 */
    referee *r = game(5, RULES_OLYMPIAD, moves, 3);
    observation b = obs(r, VIEWER_BLACK, 1), w = obs(r, VIEWER_WHITE, 1), s = obs(r, VIEWER_SPECTATOR, 1);
    CHECK_EQ_INT(b.point, vtx(5, "C3"));
    CHECK_EQ_INT(w.point, NO_POINT);
    CHECK_EQ_INT(s.point, NO_POINT);
    CHECK_EQ_INT(w.kind, EV_MOVE);
    CHECK_EQ_INT(w.color, BLACK);
    CHECK(!w.full_truth);
    b = obs(r, VIEWER_BLACK, 2);
    w = obs(r, VIEWER_WHITE, 2);
    CHECK_EQ_INT(w.kind, EV_ILLEGAL);
    CHECK_EQ_INT(w.point, vtx(5, "C3"));  /* the mover knows where */
    CHECK_EQ_INT(w.reason, ILLEGAL_NONE); /* but olympiad says only "illegal" */
    CHECK_EQ_INT(b.kind, EV_ILLEGAL);     /* the opponent learns it happened */
    CHECK_EQ_INT(b.point, NO_POINT);      /* never where */
    CHECK_EQ_INT(b.turn, 2);
    view v;
    view_build(r, VIEWER_WHITE, &v);
    CHECK_EQ_INT(v.stone[vtx(5, "C3")], EMPTY);
    CHECK_EQ_INT(v.stone[vtx(5, "D4")], WHITE);
    CHECK_EQ_INT(v.mark[vtx(5, "C3")], VIEW_REJECTED);
    CHECK_EQ_INT(v.rejected_turn[vtx(5, "C3")], 2);
    CHECK_EQ_INT(v.on_board[BLACK], 1);
    CHECK_EQ_INT(v.turn, 3);
    CHECK_EQ_INT(v.to_move, BLACK);
    CHECK_EQ_INT(v.seq, 3);
    CHECK(!v.over);
    referee_free(r);
}

TEST(view_tried_points_this_turn) {
    const char *moves[] = { "C3", "D4", "D4", "C3" }; /* W D4; B tries D4, then C3? own: no */
    (void)moves;
    const char *m[] = { "C3", "D4" };
    referee *r = game(5, RULES_OLYMPIAD, m, 2);
    CHECK_EQ_INT(ref_try(r, BLACK, "D4", NULL), REFUSE_NONE); /* illegal: white stone */
    view v;
    view_build(r, VIEWER_BLACK, &v);
    CHECK_EQ_INT(v.n_tried, 1);
    CHECK_EQ_INT(v.tried[0], vtx(5, "D4"));
    CHECK_EQ_INT(v.mark[vtx(5, "D4")], VIEW_TRIED);
    CHECK_EQ_INT(v.attempts_this_turn, 1);
    view_build(r, VIEWER_WHITE, &v);
    CHECK_EQ_INT(v.n_tried, 0);
    CHECK_EQ_INT(v.attempts_this_turn, 1); /* public: how many, not where */
    CHECK_EQ_INT(v.mark[vtx(5, "D4")], 0);
    referee_free(r);
}

TEST(view_olympiad_captures_public_no_atari) {
    const char *moves[] = { "E5", "A1", "B1", "E4", "A2" }; /* B1 ataris A1; A2 captures it */
    referee *r = game(5, RULES_OLYMPIAD, moves, 5);
    CHECK(referee_event(r, 3)->atari); /* the truth knows */
    for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) {
        CHECK(!obs(r, (viewer)v, 3).atari); /* olympiad announces none */
        observation o = obs(r, (viewer)v, 5);
        CHECK_EQ_INT(o.captured_count, 1);
        CHECK_EQ_INT(o.captured_known, 1);
        CHECK_EQ_INT(o.captured[0], vtx(5, "A1"));
    }
    view v;
    view_build(r, VIEWER_WHITE, &v);
    CHECK_EQ_INT(v.stone[vtx(5, "A1")], EMPTY);
    CHECK_EQ_INT(v.captured_by[BLACK], 1);
    CHECK_EQ_INT(v.on_board[WHITE], 1);
    /* The revealed log after the end stays true to what was said: no atari. */
    CHECK_EQ_INT(ref_act(r, ACT_RESIGN, WHITE), REFUSE_NONE);
    for (int who = VIEWER_BLACK; who <= VIEWER_SPECTATOR; who++) {
        observation o = obs(r, (viewer)who, 3);
        CHECK(o.full_truth);
        CHECK(!o.atari);
        CHECK(o.atari_unannounced); /* the record still knows */
    }
    referee_free(r);
}

TEST(view_common_announces_atari_never_where) {
    const char *moves[] = { "E5", "A1", "B1" };
    referee *r = game(5, RULES_COMMON, moves, 3);
    for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) {
        observation o = obs(r, (viewer)v, 3);
        CHECK(o.atari);
        CHECK_EQ_INT(o.color, BLACK);
        CHECK_EQ_INT(o.point, v == VIEWER_BLACK ? vtx(5, "B1") : NO_POINT);
        CHECK_EQ_INT(o.reason, ILLEGAL_NONE);
    }
    CHECK(!obs(r, VIEWER_BLACK, 2).atari);
    referee_free(r);
}

TEST(view_hamburg_reasons_and_capture_counts) {
    const char *moves[] = { "E5", "A1", "B1", "E4", "A2" };
    referee *r = game(5, RULES_HAMBURG, moves, 5);
    CHECK(obs(r, VIEWER_WHITE, 3).atari);
    observation b = obs(r, VIEWER_BLACK, 5), w = obs(r, VIEWER_WHITE, 5), s = obs(r, VIEWER_SPECTATOR, 5);
    CHECK_EQ_INT(b.captured_count, 1);
    CHECK_EQ_INT(b.captured_known, 0); /* the capturer: the count only */
    CHECK_EQ_INT(s.captured_count, 1);
    CHECK_EQ_INT(s.captured_known, 0);
    CHECK_EQ_INT(w.captured_known, 1); /* the owner sees their own stone go */
    CHECK_EQ_INT(w.captured[0], vtx(5, "A1"));
    view v;
    view_build(r, VIEWER_WHITE, &v);
    CHECK_EQ_INT(v.stone[vtx(5, "A1")], EMPTY);
    /* White tries E5 (black stone) and B1... the reason is told to the mover only. */
    CHECK_EQ_INT(ref_try(r, WHITE, "E5", NULL), REFUSE_NONE);
    CHECK_EQ_INT(obs(r, VIEWER_WHITE, 6).reason, ILLEGAL_OCCUPIED);
    CHECK_EQ_INT(obs(r, VIEWER_BLACK, 6).reason, ILLEGAL_NONE);
    CHECK_EQ_INT(obs(r, VIEWER_SPECTATOR, 6).reason, ILLEGAL_NONE);
    CHECK_EQ_INT(obs(r, VIEWER_BLACK, 6).point, NO_POINT);
    referee_free(r);
}

TEST(view_game_over_reveals_everything) {
    const char *moves[] = { "E5", "A1", "B1", "E4", "A2", "E5" }; /* last: white illegal on E5 */
    referee *r = game(5, RULES_HAMBURG, moves, 6);
    observation before = obs(r, VIEWER_SPECTATOR, 1);
    CHECK_EQ_INT(before.point, NO_POINT);
    CHECK_EQ_INT(ref_act(r, ACT_RESIGN, WHITE), REFUSE_NONE);
    for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) {
        observation o = obs(r, (viewer)v, 1);
        CHECK(o.full_truth);
        CHECK_EQ_INT(o.point, vtx(5, "E5"));
        o = obs(r, (viewer)v, 6);
        CHECK_EQ_INT(o.reason, ILLEGAL_OCCUPIED);
        o = obs(r, (viewer)v, 5);
        CHECK_EQ_INT(o.captured_known, 1);
        o = obs(r, (viewer)v, 7);
        CHECK(o.ended);
        CHECK_EQ_INT(o.result.reason, END_RESIGN);
        CHECK_EQ_INT(o.result.winner, BLACK);
        view vw;
        view_build(r, (viewer)v, &vw);
        CHECK(vw.over);
        CHECK_EQ_INT(vw.to_move, EMPTY);
        for (point p = 0; p < 25; p++) CHECK_EQ_INT(vw.stone[p], board_at(referee_truth_board(r), p));
    }
    observation o;
    CHECK(!view_observe(r, VIEWER_BLACK, 8, &o));
    CHECK(!view_observe(r, (viewer)9, 1, &o));
    referee_free(r);
}

TEST(view_handicap_stones_are_public) {
    game_settings s = settings_default();
    s.size = 13;
    s.handicap = 3;
    s.komi_x2 = 1;
    referee *r = referee_new(&s);
    view v;
    view_build(r, VIEWER_SPECTATOR, &v);
    point hc[HANDICAP_MAX];
    int n = handicap_points(13, 3, hc);
    int shown = 0;
    for (point p = 0; p < 169; p++) shown += v.stone[p] != EMPTY;
    CHECK_EQ_INT(shown, n);
    for (int i = 0; i < n; i++) {
        CHECK_EQ_INT(v.stone[hc[i]], BLACK);
        CHECK_EQ_INT(v.mark[hc[i]], VIEW_HANDICAP);
    }
    CHECK_EQ_INT(v.to_move, WHITE);
    CHECK_EQ_INT(v.on_board[BLACK], 3);
    referee_free(r);
}

/* Two games that differ only in what white and spectators cannot see. */
static void check_same_for(const referee *a, const referee *b, viewer v, bool expect_same) {
    int n = referee_event_count(a);
    CHECK_EQ_INT(n, referee_event_count(b));
    bool all_same = true;
    for (int seq = 1; seq <= n; seq++) {
        observation oa, ob;
        view_observe(a, v, seq, &oa);
        view_observe(b, v, seq, &ob);
        all_same &= memcmp(&oa, &ob, sizeof oa) == 0;
    }
    view va, vb;
    view_build(a, v, &va);
    view_build(b, v, &vb);
    all_same &= memcmp(&va, &vb, sizeof va) == 0;
    CHECK(all_same == expect_same);
}

TEST(view_identical_when_differences_are_hidden) {
    /* Black's moves and black's illegal attempt differ; white's are equal. */
    const char *ma[] = { "C3", "E5", "E5", "D2", "A1" };
    const char *mb[] = { "B4", "E5", "E5", "B2", "A1" };
    for (int rules = RULES_OLYMPIAD; rules <= RULES_HAMBURG; rules++) {
        referee *a = game(5, (referee_rules)rules, ma, 5), *b = game(5, (referee_rules)rules, mb, 5);
        check_same_for(a, b, VIEWER_WHITE, true);
        check_same_for(a, b, VIEWER_SPECTATOR, true);
        check_same_for(a, b, VIEWER_BLACK, false); /* the test can tell them apart */
        referee_free(a);
        referee_free(b);
    }
}

TEST(view_identical_when_capturing_stone_differs) {
    /* White A1 is captured in both games, by A2 in one and by B1 in the
     * other: the captured point is public, the capturing stone is not. */
    const char *ma[] = { "B1", "A1", "A2" };
    const char *mb[] = { "A2", "A1", "B1" };
    for (int rules = RULES_OLYMPIAD; rules <= RULES_HAMBURG; rules++) {
        referee *a = game(5, (referee_rules)rules, ma, 3), *b = game(5, (referee_rules)rules, mb, 3);
        CHECK_EQ_INT(referee_event(a, 3)->captured_count, 1);
        CHECK_EQ_INT(referee_event(b, 3)->captured_count, 1);
        check_same_for(a, b, VIEWER_WHITE, true);
        check_same_for(a, b, VIEWER_SPECTATOR, true);
        referee_free(a);
        referee_free(b);
    }
}

TEST(view_hamburg_hides_which_stones_were_captured) {
    /* Black captures A1 in one game and E1 in the other: one stone each. */
    const char *ma[] = { "B1", "A1", "D1", "E1", "A2" };
    const char *mb[] = { "B1", "A1", "D1", "E1", "E2" };
    referee *a = game(5, RULES_HAMBURG, ma, 5), *b = game(5, RULES_HAMBURG, mb, 5);
    check_same_for(a, b, VIEWER_SPECTATOR, true);
    check_same_for(a, b, VIEWER_WHITE, false); /* the owner sees which */
    referee_free(a);
    referee_free(b);
    a = game(5, RULES_OLYMPIAD, ma, 5);
    b = game(5, RULES_OLYMPIAD, mb, 5);
    check_same_for(a, b, VIEWER_SPECTATOR, false); /* olympiad announces the points */
    referee_free(a);
    referee_free(b);
}

/* What viewer v's view must satisfy against the truth while the game is on. */
static void check_view_against_truth(const referee *r, const view *vw, viewer v) {
    const board *b = referee_truth_board(r);
    const game_settings *s = referee_settings(r);
    for (point p = 0; p < b->npoints; p++) {
        int seen = vw->stone[p], real = board_at(b, p);
        if (v != VIEWER_SPECTATOR) CHECK((seen == (int)v) == (real == (int)v)); /* own stones exact */
        if (seen != EMPTY && seen != (int)v) {
            CHECK(vw->mark[p] & VIEW_HANDICAP); /* never a hidden stone */
            CHECK_EQ_INT(seen, BLACK);
            if (s->rules != RULES_HAMBURG) CHECK_EQ_INT(real, BLACK);
        }
    }
    CHECK_EQ_INT(vw->on_board[BLACK], board_count(b, BLACK));
    CHECK_EQ_INT(vw->on_board[WHITE], board_count(b, WHITE));
    CHECK_EQ_INT(vw->captured_by[BLACK], referee_captured_by(r, BLACK));
    CHECK_EQ_INT(vw->captured_by[WHITE], referee_captured_by(r, WHITE));
    CHECK_EQ_INT(vw->to_move, referee_to_move(r));
    CHECK_EQ_INT(vw->turn, referee_turn(r));
    CHECK_EQ_INT(vw->passes, referee_passes(r));
    int n;
    const point *tried = referee_tried(r, &n);
    if ((int)v == referee_to_move(r)) {
        CHECK_EQ_INT(vw->n_tried, n);
        for (int i = 0; i < n && i < vw->n_tried; i++) CHECK_EQ_INT(vw->tried[i], tried[i]);
    } else {
        CHECK_EQ_INT(vw->n_tried, 0);
    }
}

TEST(view_random_games_never_show_hidden_stones) {
    static view incremental[4], built;
    int events = 0;
    for (uint64_t seed = 0; seed < 60; seed++) {
        game_settings s = settings_default();
        s.size = seed % 4 == 0 ? 9 : 7;
        s.rules = (referee_rules)(seed % 3);
        s.torus = seed % 5 == 0;
        s.ko = seed % 2 ? KO_SUPERKO : KO_SIMPLE;
        if (seed % 3 == 1) {
            s.handicap = 2 + (int)(seed % 3);
            s.komi_x2 = 1;
        }
        if (seed % 7 == 3) s.capture_target = 3;
        referee *r = referee_new(&s);
        for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) view_init(&incremental[v], &s, (viewer)v);
        rng g;
        rng_seed(&g, 1000 + seed);
        int npoints = s.size * s.size;
        while (!referee_result(r).over) {
            int c = referee_to_move(r);
            action a = { ACT_ATTEMPT, c, (point)rng_below(&g, (uint32_t)npoints) };
            if (referee_turn(r) >= 3 * npoints || rng_below(&g, 60) == 0) a.kind = ACT_PASS;
            if (rng_below(&g, 3000) == 0) a.kind = ACT_RESIGN;
            const ref_event *ev;
            if (referee_apply(r, a, &ev) != REFUSE_NONE) continue;
            events++;
            if (referee_result(r).over) break;
            for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) {
                observation o;
                CHECK(view_observe(r, (viewer)v, ev->seq, &o));
                view_apply(&incremental[v], &o);
                check_view_against_truth(r, &incremental[v], (viewer)v);
                if (ev->seq % 17 == 0) {
                    view_build(r, (viewer)v, &built);
                    CHECK(memcmp(&built, &incremental[v], sizeof built) == 0);
                }
            }
        }
        const board *b = referee_truth_board(r);
        game_result res = referee_result(r);
        for (int v = VIEWER_BLACK; v <= VIEWER_SPECTATOR; v++) {
            view_build(r, (viewer)v, &built);
            CHECK(built.over);
            CHECK_EQ_INT(built.result.winner, res.winner);
            CHECK_EQ_INT(built.result.score_white_x2, res.score_white_x2);
            for (point p = 0; p < npoints; p++) CHECK_EQ_INT(built.stone[p], board_at(b, p));
        }
        referee_free(r);
    }
    CHECK(events > 5000); /* the games really were played out */
}
