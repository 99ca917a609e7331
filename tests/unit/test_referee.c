/* The referee: turns and tried sets, refusals, ko and positional superko,
 * handicap, capture Go, every way a game ends, scoring to the half point,
 * and replay determinism (the server's restart path). */
#include "harness.h"
#include "test_engine_util.h"

#include <stdlib.h>

#include "engine/handicap.h"
#include "engine/rng.h"

static game_settings with_size(int size) {
    game_settings s = settings_default();
    s.size = size;
    return s;
}

TEST(referee_settings_defaults_and_validation) {
    game_settings s = settings_default();
    CHECK_EQ_INT(s.size, 9);
    CHECK_EQ_INT(s.komi_x2, 15);
    CHECK_EQ_INT(s.handicap, 0);
    CHECK_EQ_INT(s.ko, KO_SIMPLE);
    CHECK_EQ_INT(s.rules, RULES_OLYMPIAD);
    CHECK(!s.torus);
    CHECK_EQ_INT(s.capture_target, 0);
    CHECK(settings_validate(&s) == NULL);
    CHECK_EQ_INT(settings_default_komi_x2(2), 1);
    s.size = 4;
    CHECK(settings_validate(&s) != NULL);
    s.size = 26;
    CHECK(settings_validate(&s) != NULL);
    s.size = 7;
    s.handicap = 5;
    CHECK(settings_validate(&s) != NULL);
    s.handicap = 4;
    CHECK(settings_validate(&s) == NULL);
    s.size = 6;
    CHECK(settings_validate(&s) != NULL);
    s.size = 9;
    s.handicap = 1;
    CHECK(settings_validate(&s) != NULL);
    s.handicap = 9;
    CHECK(settings_validate(&s) == NULL);
    s.capture_target = -1;
    CHECK(settings_validate(&s) != NULL);
    s.capture_target = 0;
    s.rules = (referee_rules)7;
    CHECK(settings_validate(&s) != NULL);
    CHECK(referee_new(&s) == NULL);
}

TEST(referee_illegal_attempt_keeps_the_turn) {
    game_settings s = with_size(5);
    referee *r = referee_new(&s);
    const ref_event *ev;
    CHECK_EQ_INT(ref_try(r, BLACK, "C3", &ev), REFUSE_NONE);
    CHECK_EQ_INT(ev->kind, EV_MOVE);
    CHECK_EQ_INT(ev->seq, 1);
    CHECK_EQ_INT(ev->turn, 1);
    CHECK_EQ_INT(referee_to_move(r), WHITE);
    CHECK_EQ_INT(ref_try(r, BLACK, "D4", NULL), REFUSE_NOT_YOUR_TURN);
    CHECK_EQ_INT(ref_try(r, WHITE, "C3", &ev), REFUSE_NONE); /* on black's stone */
    CHECK_EQ_INT(ev->kind, EV_ILLEGAL);
    CHECK_EQ_INT(ev->reason, ILLEGAL_OCCUPIED);
    CHECK_EQ_INT(ev->turn, 2);
    CHECK_EQ_INT(referee_to_move(r), WHITE); /* keeps the turn */
    CHECK_EQ_INT(ref_try(r, WHITE, "C3", NULL), REFUSE_ALREADY_TRIED);
    CHECK_EQ_INT(ref_try(r, WHITE, "Z9", NULL), REFUSE_BAD_VERTEX);
    int n;
    const point *tried = referee_tried(r, &n);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(tried[0], vtx(5, "C3"));
    CHECK_EQ_INT(ref_try(r, WHITE, "C4", &ev), REFUSE_NONE);
    CHECK_EQ_INT(ev->seq, 3);
    CHECK_EQ_INT(ev->turn, 2);
    referee_tried(r, &n);
    CHECK_EQ_INT(n, 0); /* cleared by the move */
    CHECK_EQ_INT(referee_turn(r), 3);
    CHECK_EQ_INT(ref_try(r, BLACK, "C3", NULL), REFUSE_OWN_STONE);
    CHECK_EQ_INT(referee_event_count(r), 3); /* refusals leave no trace */
    CHECK(referee_event(r, 0) == NULL && referee_event(r, 4) == NULL);
    CHECK_EQ_INT(referee_action(r, 2)->point, vtx(5, "C3"));
    referee_free(r);
}

TEST(referee_suicide_and_reasons) {
    game_settings s = with_size(5);
    referee *r = referee_new(&s);
    const char *moves[] = { "B4", "E1", "A3", "E2", "B2", "D1", "C3" };
    CHECK_EQ_INT(ref_play_all(r, moves, 7), 7);
    /* White to move; B3 is surrounded by black on all four sides. */
    const ref_event *ev;
    CHECK_EQ_INT(ref_try(r, WHITE, "B3", &ev), REFUSE_NONE);
    CHECK_EQ_INT(ev->kind, EV_ILLEGAL);
    CHECK_EQ_INT(ev->reason, ILLEGAL_SUICIDE);
    referee_free(r);
}

/* Three kos on one board: after six captures, one in each ko per player,
 * the position repeats. Simple ko allows the sixth; superko forbids it. */
static const char *const triple_ko_setup[] = {
    /* black: the X stones of the three shapes; white: the O stones */
    "B9", "C9", "A8", "B8", "B7", "D8", "B6", "C7", "A5", "C6", "C5",
    "D5", "B4", "C4", "B3", "C3", "A2", "B2", "B1", "D2", "J9", "C1",
};
static const char *const triple_ko_cycle[] = { "C8", "B5", "C2", "B8", "C5", "B2" };

static referee *triple_ko_game(ko_rule ko) {
    game_settings s = settings_default();
    s.ko = ko;
    referee *r = referee_new(&s);
    int n = (int)(sizeof triple_ko_setup / sizeof *triple_ko_setup);
    CHECK_EQ_INT(ref_play_all(r, triple_ko_setup, n), n);
    return r;
}

TEST(referee_triple_ko_simple_allows_cycle) {
    referee *r = triple_ko_game(KO_SIMPLE);
    uint64_t start = board_hash(referee_truth_board(r));
    const ref_event *ev;
    for (int i = 0; i < 6; i++) {
        CHECK_EQ_INT(ref_try(r, referee_to_move(r), triple_ko_cycle[i], &ev), REFUSE_NONE);
        CHECK_EQ_INT(ev->kind, EV_MOVE);
        CHECK_EQ_INT(ev->captured_count, 1);
    }
    CHECK(board_hash(referee_truth_board(r)) == start); /* the position repeated */
    referee_free(r);
}

TEST(referee_triple_ko_superko_forbids_repeat) {
    referee *r = triple_ko_game(KO_SUPERKO);
    const ref_event *ev;
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(ref_try(r, referee_to_move(r), triple_ko_cycle[i], &ev), REFUSE_NONE);
        CHECK_EQ_INT(ev->kind, EV_MOVE);
    }
    CHECK_EQ_INT(ref_try(r, WHITE, "B2", &ev), REFUSE_NONE);
    CHECK_EQ_INT(ev->kind, EV_ILLEGAL);
    CHECK_EQ_INT(ev->reason, ILLEGAL_KO);
    CHECK_EQ_INT(referee_to_move(r), WHITE);
    referee_free(r);
}

TEST(referee_simple_ko_reason) {
    game_settings s = with_size(5);
    referee *r = referee_new(&s);
    /* Black A3 B4 B2, white B3 C4 C2 D3: then black C3 takes the ko. */
    const char *moves[] = { "A3", "B3", "B4", "C4", "B2", "C2", "E5", "D3", "C3" };
    CHECK_EQ_INT(ref_play_all(r, moves, 9), 9);
    const ref_event *ev = referee_event(r, 9);
    CHECK_EQ_INT(ev->captured_count, 1);
    CHECK_EQ_INT(ref_try(r, WHITE, "B3", &ev), REFUSE_NONE);
    CHECK_EQ_INT(ev->kind, EV_ILLEGAL);
    CHECK_EQ_INT(ev->reason, ILLEGAL_KO);
    referee_free(r);
}

TEST(referee_handicap_stones_and_white_first) {
    game_settings s = settings_default();
    s.handicap = 4;
    s.komi_x2 = settings_default_komi_x2(4);
    referee *r = referee_new(&s);
    const board *b = referee_truth_board(r);
    CHECK_EQ_INT(board_count(b, BLACK), 4);
    CHECK_EQ_INT(board_at(b, vtx(9, "C3")), BLACK);
    CHECK_EQ_INT(board_at(b, vtx(9, "G7")), BLACK);
    CHECK_EQ_INT(board_at(b, vtx(9, "C7")), BLACK);
    CHECK_EQ_INT(board_at(b, vtx(9, "G3")), BLACK);
    CHECK_EQ_INT(referee_to_move(r), WHITE);
    CHECK_EQ_INT(ref_try(r, BLACK, "E5", NULL), REFUSE_NOT_YOUR_TURN);
    const ref_event *ev;
    CHECK_EQ_INT(ref_try(r, WHITE, "C3", &ev), REFUSE_NONE);
    CHECK_EQ_INT(ev->reason, ILLEGAL_OCCUPIED);
    CHECK_EQ_INT(ref_act(r, ACT_PASS, WHITE), REFUSE_NONE);
    CHECK_EQ_INT(ref_act(r, ACT_PASS, BLACK), REFUSE_NONE);
    game_result res = referee_result(r);
    CHECK(res.over && res.scored);
    CHECK_EQ_INT(res.score_black_x2, 2 * 81); /* four stones own the empty board */
    CHECK_EQ_INT(res.score_white_x2, 1);
    CHECK_EQ_INT(res.winner, BLACK);
    referee_free(r);
}

/* Black fills column B, White column D on 5x5; C stays dame: 10 - 10. */
static referee *even_game(int komi_x2) {
    game_settings s = with_size(5);
    s.komi_x2 = komi_x2;
    referee *r = referee_new(&s);
    const char *moves[] = { "B1", "D1", "B2", "D2", "B3", "D3", "B4", "D4", "B5", "D5", "pass", "pass" };
    CHECK_EQ_INT(ref_play_all(r, moves, 12), 12);
    return r;
}

TEST(referee_scoring_jigo_and_half_points) {
    referee *r = even_game(0);
    game_result res = referee_result(r);
    CHECK(res.over && res.scored);
    CHECK_EQ_INT(res.reason, END_PASSES);
    CHECK_EQ_INT(res.score_black_x2, 20);
    CHECK_EQ_INT(res.score_white_x2, 20);
    CHECK_EQ_INT(res.winner, EMPTY); /* jigo */
    CHECK(referee_event(r, 12)->ended);
    CHECK_EQ_INT(referee_to_move(r), EMPTY);
    CHECK_EQ_INT(ref_act(r, ACT_PASS, BLACK), REFUSE_GAME_OVER);
    referee_free(r);
    r = even_game(-1); /* komi -0.5 */
    res = referee_result(r);
    CHECK_EQ_INT(res.score_white_x2, 19);
    CHECK_EQ_INT(res.winner, BLACK);
    referee_free(r);
    r = even_game(15);
    CHECK_EQ_INT(referee_result(r).winner, WHITE);
    referee_free(r);
}

TEST(referee_pass_then_move_does_not_end) {
    game_settings s = with_size(5);
    referee *r = referee_new(&s);
    const char *moves[] = { "C3", "pass", "D4" };
    CHECK_EQ_INT(ref_play_all(r, moves, 3), 3);
    CHECK(!referee_result(r).over);
    CHECK_EQ_INT(referee_passes(r), 0);
    const char *more[] = { "E5", "pass" };
    CHECK_EQ_INT(ref_play_all(r, more, 2), 2);
    CHECK_EQ_INT(referee_passes(r), 1);
    /* An illegal attempt between the passes does not break the pair. */
    const ref_event *ev;
    CHECK_EQ_INT(ref_try(r, WHITE, "C3", &ev), REFUSE_NONE);
    CHECK_EQ_INT(ev->kind, EV_ILLEGAL);
    CHECK(!referee_result(r).over);
    CHECK_EQ_INT(ref_act(r, ACT_PASS, WHITE), REFUSE_NONE);
    CHECK(referee_result(r).over);
    referee_free(r);
}

TEST(referee_resign_timeout_forfeit) {
    game_settings s = with_size(5);
    referee *r = referee_new(&s);
    CHECK_EQ_INT(ref_act(r, ACT_RESIGN, WHITE), REFUSE_NONE); /* not white's turn: still fine */
    game_result res = referee_result(r);
    CHECK(res.over && !res.scored);
    CHECK_EQ_INT(res.reason, END_RESIGN);
    CHECK_EQ_INT(res.winner, BLACK);
    CHECK_EQ_INT(ref_act(r, ACT_RESIGN, BLACK), REFUSE_GAME_OVER);
    referee_free(r);

    r = referee_new(&s);
    CHECK_EQ_INT(ref_act(r, ACT_TIMEOUT, WHITE), REFUSE_NOT_YOUR_TURN);
    CHECK_EQ_INT(ref_act(r, ACT_TIMEOUT, BLACK), REFUSE_NONE);
    CHECK_EQ_INT(referee_result(r).reason, END_TIMEOUT);
    CHECK_EQ_INT(referee_result(r).winner, WHITE);
    referee_free(r);

    r = referee_new(&s);
    CHECK_EQ_INT(ref_act(r, ACT_FORFEIT, WHITE), REFUSE_NONE);
    CHECK_EQ_INT(referee_result(r).reason, END_FORFEIT);
    CHECK_EQ_INT(referee_result(r).winner, BLACK);
    CHECK_EQ_INT(referee_event(r, 1)->kind, EV_FORFEIT);
    CHECK_EQ_INT(ref_act(r, ACT_PASS, 7), REFUSE_GAME_OVER);
    referee_free(r);

    r = referee_new(&s);
    CHECK_EQ_INT(ref_act(r, ACT_PASS, 7), REFUSE_NOT_YOUR_TURN); /* no such colour */
    action bogus = { (action_kind)42, BLACK, 0 };
    CHECK_EQ_INT(referee_apply(r, bogus, NULL), REFUSE_BAD_VERTEX);
    CHECK_EQ_INT(referee_event_count(r), 0);
    referee_free(r);
}

TEST(referee_capture_go_first_capture_wins) {
    game_settings s = with_size(5);
    s.capture_target = 1;
    referee *r = referee_new(&s);
    const char *moves[] = { "B1", "A1" };
    CHECK_EQ_INT(ref_play_all(r, moves, 2), 2);
    const ref_event *ev;
    CHECK_EQ_INT(ref_try(r, BLACK, "A2", &ev), REFUSE_NONE);
    CHECK_EQ_INT(ev->captured_count, 1);
    CHECK(ev->ended);
    game_result res = referee_result(r);
    CHECK(res.over && !res.scored);
    CHECK_EQ_INT(res.reason, END_CAPTURE);
    CHECK_EQ_INT(res.winner, BLACK);
    CHECK_EQ_INT(ref_try(r, WHITE, "C3", NULL), REFUSE_GAME_OVER);
    referee_free(r);
}

TEST(referee_capture_go_target_counts_all_captures) {
    game_settings s = with_size(5);
    s.capture_target = 2;
    referee *r = referee_new(&s);
    const char *moves[] = { "B1", "A1", "A2", "E1", "D1", "C5" };
    CHECK_EQ_INT(ref_play_all(r, moves, 6), 6);
    CHECK_EQ_INT(referee_captured_by(r, BLACK), 1);
    CHECK(!referee_result(r).over);
    CHECK_EQ_INT(ref_try(r, BLACK, "E2", NULL), REFUSE_NONE);
    game_result res = referee_result(r);
    CHECK(res.over);
    CHECK_EQ_INT(res.reason, END_CAPTURE);
    CHECK_EQ_INT(res.winner, BLACK);
    CHECK_EQ_INT(referee_captured_by(r, BLACK), 2);
    referee_free(r);
}

TEST(referee_capture_go_without_capture_is_scored) {
    game_settings s = with_size(5);
    s.capture_target = 1;
    referee *r = referee_new(&s);
    const char *moves[] = { "C3", "pass", "pass" };
    CHECK_EQ_INT(ref_play_all(r, moves, 3), 3);
    game_result res = referee_result(r);
    CHECK(res.over && res.scored);
    CHECK_EQ_INT(res.reason, END_PASSES);
    CHECK_EQ_INT(res.score_black_x2, 50);
    CHECK_EQ_INT(res.winner, BLACK);
    referee_free(r);
}

TEST(referee_captured_points_sorted_by_column_then_row) {
    game_settings s = with_size(5);
    referee *r = referee_new(&s);
    /* White builds an L of five (B1 B2 C2 D2? no: B2 C2 D2 D3 B3), black surrounds it. */
    const char *moves[] = {
        "B1", "B2",   "C1", "C2",   "D1", "D2",   "A2", "B3",   "E2", "D3",
        "A3", "pass", "B4", "pass", "C3", "pass", "D4", "pass", "E3",
    };
    int n = (int)(sizeof moves / sizeof *moves);
    CHECK_EQ_INT(ref_play_all(r, moves, n), n);
    const ref_event *ev = referee_event(r, n);
    CHECK_EQ_INT(ev->kind, EV_MOVE);
    int k;
    const point *cap = referee_captured(r, ev, &k);
    CHECK_EQ_INT(k, 5);
    const char *expect[] = { "B2", "B3", "C2", "D2", "D3" };
    for (int i = 0; i < k && i < 5; i++) CHECK_EQ_INT(cap[i], vtx(5, expect[i]));
    CHECK_EQ_INT(referee_captured_by(r, BLACK), 5);
    referee_free(r);
}

/* A random Phantom Go game: each player tries random points that are not
 * their own stones and not yet tried this turn, passing when none is left
 * or, rarely, at random. Fills `log` with the accepted actions. */
static int random_game(const game_settings *s, uint64_t seed, action *log, int cap, referee **out) {
    referee *r = referee_new(s);
    rng g;
    rng_seed(&g, seed);
    int n = 0, npoints = s->size * s->size;
    while (!referee_result(r).over && n < cap) {
        int c = referee_to_move(r);
        action a = { ACT_PASS, c, NO_POINT };
        if (referee_turn(r) < 3 * npoints && rng_below(&g, 50) != 0) {
            point p = (point)rng_below(&g, (uint32_t)npoints);
            a.kind = ACT_ATTEMPT;
            a.point = p;
        }
        refusal why = referee_apply(r, a, NULL);
        if (why == REFUSE_NONE) log[n++] = a;
        else CHECK(why == REFUSE_OWN_STONE || why == REFUSE_ALREADY_TRIED);
    }
    *out = r;
    return n;
}

TEST(referee_replay_is_deterministic) {
    static action log[20000];
    game_settings settings[3] = { settings_default(), with_size(7), with_size(13) };
    settings[1].torus = true;
    settings[1].ko = KO_SUPERKO;
    settings[2].handicap = 5;
    settings[2].komi_x2 = 1;
    for (int k = 0; k < 3; k++) {
        referee *a;
        int n = random_game(&settings[k], 77 + (uint64_t)k, log, 20000, &a);
        CHECK(referee_result(a).over);
        CHECK(n > 100);
        referee *b = referee_new(&settings[k]);
        for (int i = 0; i < n; i++) CHECK_EQ_INT(referee_apply(b, log[i], NULL), REFUSE_NONE);
        CHECK_EQ_INT(referee_event_count(a), referee_event_count(b));
        for (int seq = 1; seq <= n; seq++) {
            const ref_event *ea = referee_event(a, seq), *eb = referee_event(b, seq);
            CHECK(ea->kind == eb->kind && ea->point == eb->point && ea->reason == eb->reason &&
                  ea->turn == eb->turn && ea->captured_count == eb->captured_count && ea->atari == eb->atari);
        }
        game_result ra = referee_result(a), rb = referee_result(b);
        CHECK(ra.winner == rb.winner && ra.score_black_x2 == rb.score_black_x2 &&
              ra.score_white_x2 == rb.score_white_x2 && ra.reason == rb.reason);
        CHECK(board_hash(referee_truth_board(a)) == board_hash(referee_truth_board(b)));
        referee_free(a);
        referee_free(b);
    }
}

/* Property: over many random games, the truth stays consistent: stone
 * counts equal moves minus captures plus handicap, the tried set holds
 * exactly the illegal attempts of the current turn, and captured lists
 * are sorted and were the victim's stones. */
TEST(referee_random_games_keep_invariants) {
    static action log[20000];
    for (uint64_t seed = 0; seed < 40; seed++) {
        game_settings s = with_size(5 + (int)(seed % 5) * 2);
        s.torus = seed % 3 == 0;
        s.ko = seed % 2 ? KO_SUPERKO : KO_SIMPLE;
        s.rules = (referee_rules)(seed % 3);
        if (s.size >= 7 && seed % 4 == 1) {
            s.handicap = 2;
            s.komi_x2 = 1;
        }
        referee *r = referee_new(&s);
        rng g;
        rng_seed(&g, seed);
        int moves[3] = { 0, s.handicap, 0 }, tried_now = 0, npoints = s.size * s.size;
        (void)log;
        while (!referee_result(r).over) {
            int c = referee_to_move(r);
            action a = { ACT_ATTEMPT, c, (point)rng_below(&g, (uint32_t)npoints) };
            if (referee_turn(r) >= 3 * npoints || rng_below(&g, 60) == 0) a.kind = ACT_PASS;
            const ref_event *ev;
            if (referee_apply(r, a, &ev) != REFUSE_NONE) continue;
            const board *b = referee_truth_board(r);
            if (ev->kind == EV_ILLEGAL) tried_now++;
            else tried_now = 0;
            if (ev->kind == EV_MOVE) {
                moves[c]++;
                int k;
                const point *cap = referee_captured(r, ev, &k);
                for (int i = 0; i < k; i++) {
                    CHECK_EQ_INT(board_at(b, cap[i]), EMPTY);
                    if (i)
                        CHECK(cap[i - 1] % s.size < cap[i] % s.size ||
                              (cap[i - 1] % s.size == cap[i] % s.size && cap[i - 1] < cap[i]));
                }
            }
            int n;
            referee_tried(r, &n);
            CHECK_EQ_INT(n, tried_now);
            CHECK_EQ_INT(board_count(b, BLACK), moves[BLACK] - referee_captured_by(r, WHITE));
            CHECK_EQ_INT(board_count(b, WHITE), moves[WHITE] - referee_captured_by(r, BLACK));
        }
        CHECK(board_consistent(referee_truth_board(r)));
        referee_free(r);
    }
}
