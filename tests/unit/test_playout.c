/* Playouts and the board under random play: thousands of random moves on
 * every kind of board, each followed by a from-scratch recount of groups,
 * liberties, the empty list and the hash (board_consistent), and the
 * playout's own promises: determinism per seed, termination, scoring. */
#include "harness.h"
#include "test_engine_util.h"

#include "engine/playout.h"
#include "engine/rng.h"

/* Plays random legal moves (eyes allowed to be filled, so captures of big
 * groups happen too) and checks the board after each. */
static void random_moves_stay_consistent(int size, bool torus, uint64_t seed, int moves) {
    board b;
    board_init(&b, size, torus);
    rng r;
    rng_seed(&r, seed);
    int color = BLACK;
    for (int m = 0; m < moves; m++) {
        point p = NO_POINT;
        for (int tries = 0; tries < 50 && p == NO_POINT; tries++) {
            point q = b.empty[rng_below(&r, (uint32_t)b.n_empty)];
            if (board_check(&b, color, q) == MOVE_OK) p = q;
        }
        if (p == NO_POINT) {
            board_pass(&b);
            color = color_other(color);
            continue;
        }
        uint64_t predicted = board_hash_after(&b, color, p);
        int before_other = board_count(&b, color_other(color));
        point cap[BOARD_MAX_POINTS];
        int n = board_play(&b, color, p, cap);
        CHECK_EQ_INT(board_count(&b, color_other(color)), before_other - n);
        for (int i = 0; i < n; i++) CHECK_EQ_INT(board_at(&b, cap[i]), EMPTY);
        CHECK(predicted == board_hash(&b));
        if (!board_consistent(&b)) {
            CHECK(!"board inconsistent after a random move");
            return;
        }
        color = color_other(color);
    }
}

TEST(board_random_play_consistent_plane) {
    random_moves_stay_consistent(5, false, 1, 400);
    random_moves_stay_consistent(9, false, 2, 600);
    random_moves_stay_consistent(19, false, 3, 800);
}

TEST(board_random_play_consistent_torus) {
    random_moves_stay_consistent(5, true, 4, 400);
    random_moves_stay_consistent(9, true, 5, 600);
    random_moves_stay_consistent(25, true, 6, 800);
}

TEST(playout_is_deterministic_per_seed) {
    board a, b, e;
    board_init(&e, 9, false);
    rng r1, r2;
    rng_seed(&r1, 42);
    rng_seed(&r2, 42);
    for (int i = 0; i < 20; i++) {
        board_copy(&a, &e);
        board_copy(&b, &e);
        playout_result x = playout_random(&a, BLACK, 15, &r1, NULL);
        playout_result y = playout_random(&b, BLACK, 15, &r2, NULL);
        CHECK_EQ_INT(x.score_x2, y.score_x2);
        CHECK_EQ_INT(x.moves, y.moves);
        CHECK(board_hash(&a) == board_hash(&b));
    }
}

/* After a playout ends on two passes, every empty point is an eye of one
 * side or illegal for both; the result is the Tromp-Taylor score. */
static void playout_ends_properly(int size, bool torus, uint64_t seed) {
    board b;
    board_init(&b, size, torus);
    rng r;
    rng_seed(&r, seed);
    uint8_t first[BOARD_MAX_POINTS] = { 0 };
    playout_result res = playout_random(&b, BLACK, 15, &r, first);
    CHECK(board_consistent(&b));
    CHECK(res.moves > 0 && res.moves <= playout_move_cap(b.npoints));
    if (res.moves < playout_move_cap(b.npoints)) {
        for (int i = 0; i < b.n_empty; i++) {
            point p = b.empty[i];
            for (int c = BLACK; c <= WHITE; c++)
                CHECK(board_is_eye(&b, c, p) || board_check(&b, c, p) != MOVE_OK);
        }
    }
    int black, white;
    board_score_area(&b, &black, &white);
    CHECK_EQ_INT(res.score_x2, 2 * (black - white) - 15);
    CHECK_EQ_INT(res.winner, res.score_x2 > 0 ? BLACK : WHITE);
    int played = 0;
    for (int p = 0; p < b.npoints; p++) {
        played += first[p] != 0;
        if (board_at(&b, p) != EMPTY) CHECK(first[p] != 0); /* every stone was played */
    }
    CHECK(played <= res.moves);
}

TEST(playout_ends_with_only_eyes_left) {
    for (uint64_t s = 0; s < 30; s++) {
        playout_ends_properly(9, false, s);
        playout_ends_properly(7, true, 100 + s);
    }
    playout_ends_properly(19, false, 7);
}

TEST(playout_from_a_position_respects_it) {
    board b;
    CHECK(board_from_text(&b,
                          "X X X X X\n"
                          "X . X . X\n"
                          "X X X X X\n"
                          "O O O O O\n"
                          ". O . O .\n",
                          false));
    rng r;
    rng_seed(&r, 9);
    playout_result res = playout_random(&b, WHITE, 0, &r, NULL);
    /* Both sides have two eyes: nobody can play, the playout is two passes. */
    CHECK_EQ_INT(res.moves, 0);
    CHECK_EQ_INT(res.score_x2, 2 * (15 - 10));
    CHECK_EQ_INT(res.winner, BLACK);
}

TEST(rng_below_stays_in_range_and_spreads) {
    rng r;
    rng_seed(&r, 0);
    int counts[7] = { 0 };
    for (int i = 0; i < 70000; i++) {
        uint32_t x = rng_below(&r, 7);
        CHECK(x < 7);
        if (x < 7) counts[x]++;
    }
    for (int i = 0; i < 7; i++) CHECK(counts[i] > 9000 && counts[i] < 11000);
}
