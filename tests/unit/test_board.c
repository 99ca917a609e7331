/* Board rules on hand-made positions, drawn as in Pachi's t-unit files:
 * top row first, X black, O white, '.' empty. Each test sets a position,
 * asks the board one question and checks the answer and, after every play,
 * that the incremental structures still match a from-scratch recount. */
#include "harness.h"
#include "test_engine_util.h"

#include "engine/handicap.h"
#include "engine/rng.h"

static board B(const char *diagram) {
    board b;
    if (!board_from_text(&b, diagram, false)) {
        harness_fail(__FILE__, __LINE__, "bad diagram");
        board_init(&b, 5, false);
    }
    return b;
}

static board T(const char *diagram) {
    board b;
    if (!board_from_text(&b, diagram, true)) {
        harness_fail(__FILE__, __LINE__, "bad torus diagram");
        board_init(&b, 5, true);
    }
    return b;
}

/* Plays colour c at v (which must be legal) and returns the captures. */
static int play(board *b, int c, const char *v) {
    point p = vtx(b->size, v);
    CHECK_EQ_INT(board_check(b, c, p), MOVE_OK);
    int n = board_play(b, c, p, NULL);
    CHECK(board_consistent(b));
    return n;
}

static bool same_text(const board *b, const char *expect) {
    board e;
    char got[BOARD_MAX_POINTS * 2], want[BOARD_MAX_POINTS * 2];
    if (!board_from_text(&e, expect, b->torus)) return false;
    board_to_text(b, got, sizeof got);
    board_to_text(&e, want, sizeof want);
    if (strcmp(got, want)) fprintf(stderr, "    got:\n%s    want:\n%s", got, want);
    return !strcmp(got, want);
}

TEST(board_text_round_trip) {
    board b = B(". X O . .\n"
                ". . . . .\n"
                "X . . . O\n"
                ". . . . .\n"
                "O . . . X\n");
    CHECK_EQ_INT(board_size(&b), 5);
    CHECK_EQ_INT(board_at(&b, vtx(5, "B5")), BLACK);
    CHECK_EQ_INT(board_at(&b, vtx(5, "C5")), WHITE);
    CHECK_EQ_INT(board_at(&b, vtx(5, "A1")), WHITE);
    CHECK_EQ_INT(board_at(&b, vtx(5, "E1")), BLACK);
    CHECK_EQ_INT(board_count(&b, BLACK), 3);
    CHECK_EQ_INT(board_count(&b, WHITE), 3);
    CHECK(board_consistent(&b));
    char text[64];
    CHECK(board_to_text(&b, text, sizeof text));
    CHECK_EQ_STR(text, ".XO..\n.....\nX...O\n.....\nO...X\n");
    board bad;
    CHECK(!board_from_text(&bad, ". X\nX .\n", false)); /* too small */
    CHECK(!board_from_text(&bad, "X O . . .\nO . . . .\n. . . . .\n. . . . .\n. . . .\n", false));
    CHECK(!board_from_text(&bad, "X O . . .\nO . . . .\n. . . . .\n. . . . .\n. . . . .\n", false));
}

TEST(board_capture_in_centre_edge_and_corner) {
    board b = B(". . . . .\n"
                ". . X . .\n"
                ". X O X .\n"
                ". . . . .\n"
                "O X . . .\n");
    point cap[BOARD_MAX_POINTS];
    CHECK(board_would_atari(&b, BLACK, vtx(5, "C2")) == false); /* captures, no atari left */
    CHECK_EQ_INT(board_play(&b, BLACK, vtx(5, "C2"), cap), 1);
    CHECK_EQ_INT(cap[0], vtx(5, "C3"));
    CHECK_EQ_INT(board_captures(&b, BLACK), 1);
    CHECK(board_consistent(&b));
    CHECK_EQ_INT(play(&b, BLACK, "A2"), 1); /* corner stone A1 */
    CHECK(same_text(&b, ". . . . .\n"
                        ". . X . .\n"
                        ". X . X .\n"
                        "X . X . .\n"
                        ". X . . .\n"));
    CHECK_EQ_INT(board_captures(&b, BLACK), 2);
    CHECK_EQ_INT(board_count(&b, WHITE), 0);
}

TEST(board_multi_stone_capture_and_merge) {
    board b = B(". X X X .\n"
                "X O O O X\n"
                "X O . . X\n"
                ". X X X .\n"
                ". . . . .\n");
    CHECK_EQ_INT(board_liberties(&b, vtx(5, "B4")), 2);
    CHECK_EQ_INT(play(&b, BLACK, "C3"), 0);
    CHECK(board_in_atari(&b, vtx(5, "B4")));
    CHECK_EQ_INT(play(&b, BLACK, "D3"), 4);
    CHECK(b.group[vtx(5, "C3")] == b.group[vtx(5, "E4")]); /* one merged black chain */
    CHECK_EQ_INT(board_count(&b, WHITE), 0);
}

/* The one liberty of a group in atari, and none for a group with two. */
TEST(board_atari_liberty_is_the_last_one) {
    board b = B(". X . . .\n"
                "X O O . .\n"
                ". X X . .\n"
                ". . . . .\n"
                ". . . . .\n");
    CHECK_EQ_INT(board_atari_liberty(&b, vtx(5, "B4")), NO_POINT); /* C5 and D4 */
    CHECK_EQ_INT(play(&b, BLACK, "C5"), 0);
    CHECK_EQ_INT(board_atari_liberty(&b, vtx(5, "B4")), vtx(5, "D4"));
    CHECK_EQ_INT(board_atari_liberty(&b, vtx(5, "C4")), vtx(5, "D4"));
    CHECK_EQ_INT(board_atari_liberty(&b, vtx(5, "E1")), NO_POINT); /* empty */
    CHECK_EQ_INT(board_atari_liberty(&b, vtx(5, "B5")), NO_POINT); /* A5 and D5 */
}

/* The liberty a move would leave its own group, read without playing it:
 *
 *    . X . . .      White C4 joins B4, D4 and C3 and keeps C5, D5, E4
 *    X O . O .      and D3: several, so none is the last.
 *    . X O . .      White A3 keeps A2 alone: that is the one.
 *    . . X . .      Black D3 keeps E3 and D2: none.
 *    . . . . .      Black C4 takes B4, and keeps B4 and C5: none.
 */
TEST(board_atari_liberty_after_a_move) {
    board b = B(". X . . .\n"
                "X O . O .\n"
                ". X O . .\n"
                ". . X . .\n"
                ". . . . .\n");
    CHECK_EQ_INT(board_atari_liberty_after(&b, WHITE, vtx(5, "C4")), NO_POINT);
    CHECK_EQ_INT(board_atari_liberty_after(&b, WHITE, vtx(5, "A3")), vtx(5, "A2"));
    CHECK_EQ_INT(board_atari_liberty_after(&b, BLACK, vtx(5, "D3")), NO_POINT);
    CHECK_EQ_INT(board_atari_liberty_after(&b, BLACK, vtx(5, "C4")), NO_POINT);
    CHECK_EQ_INT(play(&b, WHITE, "C5"), 0); /* now C4 keeps B4 alone */
    CHECK_EQ_INT(board_atari_liberty_after(&b, BLACK, vtx(5, "C4")), vtx(5, "B4"));
}

/* The same answer as playing the move and asking the group, for every
 * legal move of both colours along random games, plane and torus (the
 * captures included, which the function plays on a copy). */
static void check_atari_liberty_after_along_games(bool torus) {
    rng r;
    rng_seed(&r, 11);
    for (int game = 0; game < 20; game++) {
        board b;
        CHECK(board_init(&b, 5 + game % 3 * 2, torus));
        for (int move = 0; move < 120; move++) {
            int colour = move % 2 ? WHITE : BLACK;
            for (point p = 0; p < board_points(&b); p++) {
                if (board_check(&b, colour, p) != MOVE_OK) continue;
                board after;
                board_copy(&after, &b);
                board_play(&after, colour, p, NULL);
                CHECK_EQ_INT(board_atari_liberty_after(&b, colour, p), board_atari_liberty(&after, p));
            }
            point p = (point)rng_below(&r, (uint32_t)board_points(&b));
            if (board_check(&b, colour, p) == MOVE_OK && !board_is_eye(&b, colour, p))
                board_play(&b, colour, p, NULL);
            else board_pass(&b);
        }
    }
}

TEST(board_atari_liberty_after_agrees_with_playing) {
    check_atari_liberty_after_along_games(false);
    check_atari_liberty_after_along_games(true);
}

TEST(board_single_stone_suicide) {
    board b = B(". X . . .\n"
                "X . X . .\n"
                ". X . . .\n"
                ". . . . .\n"
                ". . . . .\n");
    CHECK_EQ_INT(board_check(&b, WHITE, vtx(5, "B4")), MOVE_SUICIDE);
    CHECK_EQ_INT(board_check(&b, WHITE, vtx(5, "A5")), MOVE_SUICIDE); /* corner */
    CHECK_EQ_INT(board_check(&b, BLACK, vtx(5, "B4")), MOVE_OK);      /* own eye: legal */
    CHECK_EQ_INT(board_check(&b, WHITE, vtx(5, "B5")), MOVE_OCCUPIED);
}

TEST(board_multi_stone_suicide) {
    board b = B(". X X X .\n"
                "X O . O X\n"
                ". X X X .\n"
                ". . . . .\n"
                ". . . . .\n");
    /* Connecting the two white stones fills their last liberty. */
    CHECK_EQ_INT(board_check(&b, WHITE, vtx(5, "C4")), MOVE_SUICIDE);
    /* The same shape where the move captures is legal. */
    board c = B("O X X X O\n"
                ". O . O .\n"
                ". X X X .\n"
                ". . . . .\n"
                ". . . . .\n");
    CHECK_EQ_INT(board_check(&c, WHITE, vtx(5, "C4")), MOVE_OK);
    CHECK_EQ_INT(play(&c, WHITE, "C4"), 3);
}

TEST(board_simple_ko) {
    board b = B(". . . . .\n"
                ". X O . .\n"
                "X O . O .\n"
                ". X O . .\n"
                ". . . . .\n");
    CHECK_EQ_INT(play(&b, BLACK, "C3"), 1); /* takes the ko */
    CHECK_EQ_INT(board_ko(&b), vtx(5, "B3"));
    CHECK_EQ_INT(board_check(&b, WHITE, vtx(5, "B3")), MOVE_KO); /* no immediate retake */
    CHECK_EQ_INT(board_check(&b, BLACK, vtx(5, "B3")), MOVE_OK); /* black may fill it */
    play(&b, WHITE, "E5");                                       /* a threat elsewhere */
    play(&b, BLACK, "E1");
    CHECK_EQ_INT(play(&b, WHITE, "B3"), 1); /* now the retake is fine */
    CHECK_EQ_INT(board_check(&b, BLACK, vtx(5, "C3")), MOVE_KO);
    board_pass(&b); /* a pass lifts it */
    CHECK_EQ_INT(board_check(&b, BLACK, vtx(5, "C3")), MOVE_OK);
}

TEST(board_snapback_is_not_ko) {
    board b = B(". . . . .\n"
                ". . . . .\n"
                ". . X X X\n"
                ". X O O O\n"
                ". X O . .\n");
    CHECK(board_would_atari(&b, BLACK, vtx(5, "E1"))); /* the throw-in ataris */
    CHECK_EQ_INT(play(&b, BLACK, "E1"), 0);
    CHECK_EQ_INT(play(&b, WHITE, "D1"), 1); /* white takes one... */
    CHECK_EQ_INT(board_ko(&b), NO_POINT);   /* ...with a five-stone group: no ko */
    CHECK_EQ_INT(play(&b, BLACK, "E1"), 5); /* and black takes five */
    CHECK(same_text(&b, ". . . . .\n"
                        ". . . . .\n"
                        ". . X X X\n"
                        ". X . . .\n"
                        ". X . . X\n"));
}

TEST(board_capture_across_torus_edge) {
    const char *pos = ". . . . . . . . .\n"
                      ". . . . . . . . .\n"
                      ". . . . . . . . .\n"
                      ". . . . . . . . .\n"
                      ". . . . . . . . .\n"
                      ". . . . . . . . .\n"
                      ". . . . . . . . .\n"
                      ". . . . . . . . .\n"
                      "O X . . . . . . .\n";
    board plane = B(pos), torus = T(pos);
    CHECK_EQ_INT(board_liberties(&plane, vtx(9, "A1")), 1);
    CHECK_EQ_INT(board_liberties(&torus, vtx(9, "A1")), 3); /* A2, J1 and A9 */
    CHECK_EQ_INT(play(&plane, BLACK, "A2"), 1);
    CHECK_EQ_INT(play(&torus, BLACK, "A2"), 0);
    CHECK(board_would_atari(&torus, BLACK, vtx(9, "J1")));
    CHECK_EQ_INT(play(&torus, BLACK, "J1"), 0);
    CHECK_EQ_INT(board_check(&torus, WHITE, vtx(9, "A9")), MOVE_OK); /* white could extend... */
    CHECK_EQ_INT(play(&torus, BLACK, "A9"), 1);                      /* ...black captures across */
    CHECK_EQ_INT(board_at(&torus, vtx(9, "A1")), EMPTY);
    CHECK_EQ_INT(board_captures(&torus, BLACK), 1);
}

TEST(board_torus_groups_and_regions_wrap) {
    board t = T("X . . . . . . . X\n"
                ". . . . . . . . .\n"
                ". . . . . . . . .\n"
                ". . . . . . . . .\n"
                "O O O O O O O O O\n"
                ". . . . . . . . .\n"
                ". . . . . . . . .\n"
                ". . . . . . . . .\n"
                "X . . . . . . . X\n");
    /* The four corner stones touch across both edges: one group. */
    CHECK_EQ_INT(board_liberties(&t, vtx(9, "A1")), 8);
    CHECK(board_in_atari(&t, vtx(9, "J9")) == false);
    /* A white ring around the torus: the empty region above and below it is
     * one region wrapping the top edge, touching both colours: neutral. */
    int black, white;
    board_score_area(&t, &black, &white);
    CHECK_EQ_INT(black, 4);
    CHECK_EQ_INT(white, 9);
    board p = B("X . . . . . . . X\n"
                ". . . . . . . . .\n"
                ". . . . . . . . .\n"
                ". . . . . . . . .\n"
                "O O O O O O O O O\n"
                ". . . . . . . . .\n"
                ". . . . . . . . .\n"
                ". . . . . . . . .\n"
                ". . . . . . . . .\n");
    board_score_area(&p, &black, &white);
    CHECK_EQ_INT(black, 2);
    CHECK_EQ_INT(white, 9 + 36); /* the lower half touches only white */
}

TEST(board_atari_announcement_is_new_atari_only) {
    board b = B(". . X . .\n"
                ". X O . .\n"
                ". . O X .\n"
                ". . . . .\n"
                ". . . . .\n");
    CHECK(!board_would_atari(&b, BLACK, vtx(5, "B3"))); /* 3 -> 2 liberties */
    play(&b, BLACK, "B3");
    CHECK(board_would_atari(&b, BLACK, vtx(5, "C2"))); /* 2 -> 1 */
    play(&b, BLACK, "C2");
    CHECK(!board_would_atari(&b, BLACK, vtx(5, "D4"))); /* captures: no atari left */
    CHECK(!board_would_atari(&b, BLACK, vtx(5, "E5"))); /* not adjacent to anything */
}

TEST(board_eyes_true_and_false) {
    board b = B(". X . X .\n"
                "X . X O .\n"
                ". X . . .\n"
                ". . . . .\n"
                "X X . . .\n");
    CHECK(board_is_eye(&b, BLACK, vtx(5, "B4"))); /* one opponent diagonal: still an eye */
    CHECK(board_is_eye(&b, BLACK, vtx(5, "A5"))); /* corner, no opponent diagonal */
    CHECK(!board_is_eye(&b, WHITE, vtx(5, "B4")));
    CHECK(!board_is_eye(&b, BLACK, vtx(5, "C5"))); /* edge with an opponent diagonal */
    CHECK(!board_is_eye(&b, BLACK, vtx(5, "C3"))); /* not surrounded */
    board f = B(". . . . .\n"
                ". . . . .\n"
                ". . . . .\n"
                "X O . . .\n"
                ". X . . .\n");
    CHECK(!board_is_eye(&f, BLACK, vtx(5, "A1"))); /* corner, white on the diagonal: false */
}

TEST(board_hash_after_matches_play) {
    board b = B(". . . . .\n"
                ". X O . .\n"
                "X O . O .\n"
                ". X O . .\n"
                ". . . . .\n");
    uint64_t predicted = board_hash_after(&b, BLACK, vtx(5, "C3"));
    play(&b, BLACK, "C3");
    CHECK(predicted == board_hash(&b));
    predicted = board_hash_after(&b, WHITE, vtx(5, "A1"));
    play(&b, WHITE, "A1");
    CHECK(predicted == board_hash(&b));
}

TEST(board_score_seki_and_dame) {
    /* Black's nine stones and White's B4 share the liberties A4 and C4:
     * seki. Tromp-Taylor gives those two points to nobody. */
    board b = B(". . . . . . .\n"
                "O O O O O . .\n"
                "X X X X O . .\n"
                ". O . X O . .\n"
                "X X X X O . .\n"
                "O O O O O . .\n"
                ". . . . . . .\n");
    CHECK_EQ_INT(board_liberties(&b, vtx(7, "A5")), 2);
    CHECK_EQ_INT(board_liberties(&b, vtx(7, "B4")), 2);
    int black, white;
    board_score_area(&b, &black, &white);
    CHECK_EQ_INT(black, 9);
    CHECK_EQ_INT(white, 14 + 24);
    board d = B("X X . O O\n"
                "X X . O O\n"
                "X X . O O\n"
                "X X . O O\n"
                "X X . O O\n");
    board_score_area(&d, &black, &white);
    CHECK_EQ_INT(black, 10);
    CHECK_EQ_INT(white, 10);
    board e;
    board_init(&e, 9, false);
    board_score_area(&e, &black, &white);
    CHECK_EQ_INT(black, 0);
    CHECK_EQ_INT(white, 0);
}

TEST(board_copy_equals_assignment) {
    board a = B(". X O . .\n"
                "X O . O .\n"
                ". X O . .\n"
                ". . . X .\n"
                ". . . . .\n");
    board c;
    board_copy(&c, &a);
    CHECK(board_consistent(&c));
    CHECK_EQ_INT(play(&c, BLACK, "C4"), 1);
    CHECK_EQ_INT(board_at(&a, vtx(5, "B4")), WHITE); /* the original is untouched */
    CHECK(board_consistent(&a));
}

TEST(board_init_rejects_sizes) {
    board b;
    CHECK(!board_init(&b, 4, false));
    CHECK(!board_init(&b, 26, false));
    CHECK(board_init(&b, 25, true));
    CHECK_EQ_INT(board_points(&b), 625);
    CHECK(board_init(&b, 5, false));
}

/* Territory for a position given as colours (what a finished view
 * holds): the same Tromp-Taylor fill as the score, region by region. */
TEST(board_territory_matches_the_score) {
    board b = B(". . . . . . .\n"
                "O O O O O . .\n"
                "X X X X O . .\n"
                ". O . X O . .\n"
                "X X X X O . .\n"
                "O O O O O . .\n"
                ". . . . . . .\n");
    uint8_t owner[BOARD_MAX_POINTS];
    board_territory(b.geo, b.color, owner);
    CHECK_EQ_INT(owner[vtx(7, "A4")], EMPTY); /* seki: both colours */
    CHECK_EQ_INT(owner[vtx(7, "G7")], WHITE);
    CHECK_EQ_INT(owner[vtx(7, "A5")], EMPTY); /* a stone */
    int counted[3] = { 0, 0, 0 }, black, white;
    for (point p = 0; p < b.npoints; p++) counted[owner[p]] += b.color[p] == EMPTY;
    board_score_area(&b, &black, &white);
    CHECK_EQ_INT(counted[BLACK] + board_count(&b, BLACK), black);
    CHECK_EQ_INT(counted[WHITE] + board_count(&b, WHITE), white);
    /* A torus wraps regions: one black stone owns the whole empty board. */
    board t;
    board_init(&t, 5, true);
    CHECK_EQ_INT(board_play(&t, BLACK, vtx(5, "C3"), NULL), 0);
    board_territory(t.geo, t.color, owner);
    CHECK_EQ_INT(owner[vtx(5, "A1")], BLACK);
    CHECK_EQ_INT(owner[vtx(5, "E5")], BLACK);
}

TEST(board_geometry_and_edge_distance) {
    CHECK(board_geometry_for(4, false) == NULL && board_geometry_for(26, true) == NULL);
    board b;
    board_init(&b, 25, false);
    CHECK(board_geometry_for(25, false) == b.geo);
    CHECK(board_geometry_for(25, true) != b.geo);
    CHECK_EQ_INT(board_geometry_for(19, true)->npoints, 361);
    CHECK_EQ_INT(board_edge_distance(&b, vtx(25, "A1")), 0);
    CHECK_EQ_INT(board_edge_distance(&b, vtx(25, "C17")), 2);
    CHECK_EQ_INT(board_edge_distance(&b, vtx(25, "Z24")), 0);
    CHECK_EQ_INT(board_edge_distance(&b, vtx(25, "N13")), 12);
    board_init(&b, 5, true);
    CHECK_EQ_INT(board_edge_distance(&b, vtx(5, "A1")), BOARD_NO_EDGE);
}

TEST(board_neighbour_macros_visit_four_points) {
    const board_geometry *g = board_geometry_for(5, false);
    point corner = vtx(5, "A1"), seen[4];
    int n = 0, off = 0;
    foreach_neighbour(g, corner, q) {
        seen[n++] = q;
        off += q == BOARD_OFF_POINT;
    }
    CHECK_EQ_INT(n, 4);
    CHECK_EQ_INT(off, 2);
    CHECK_EQ_INT(seen[0], vtx(5, "A2")); /* N, S, W, E */
    CHECK_EQ_INT(seen[3], vtx(5, "B1"));
    n = 0;
    foreach_diagonal(g, corner, q) {
        if (q == BOARD_OFF_POINT) continue;
        n++;
        CHECK_EQ_INT(q, vtx(5, "B2"));
    }
    CHECK_EQ_INT(n, 1);
    /* On a torus every neighbour is a point (south of A1 is A5), and
     * break leaves the loop at once. */
    n = 0;
    foreach_neighbour(board_geometry_for(5, true), corner, q) {
        CHECK(q != BOARD_OFF_POINT);
        if (q == vtx(5, "A5")) break;
        n++;
    }
    CHECK_EQ_INT(n, 1);
}

/* The checker finds each kind of damage to the incremental structures. */
TEST(board_invariant_checker_finds_damage) {
    board good = B(". X O . .\n"
                   "X O . O .\n"
                   ". X O . .\n"
                   ". . . X .\n"
                   ". . . . .\n");
    CHECK(board_invariant_violation(&good) == NULL);
    board b = good;
    b.hash ^= 1;
    CHECK(board_invariant_violation(&b) != NULL);
    b = good;
    b.nbc[vtx(5, "E1")] += 1;
    CHECK(board_invariant_violation(&b) != NULL);
    b = good;
    b.grp[b.group[vtx(5, "B4")]].libs++;
    CHECK(board_invariant_violation(&b) != NULL);
    b = good;
    b.n_empty--;
    CHECK(board_invariant_violation(&b) != NULL);
    b = good;
    b.stones[WHITE]++;
    CHECK(board_invariant_violation(&b) != NULL);
    b = good;
    b.ko = vtx(5, "B4"); /* a stone, and no ko colour */
    CHECK(board_invariant_violation(&b) != NULL);
}

TEST(vertex_parse_and_format) {
    point p;
    CHECK(vertex_parse("A1", 9, &p) && p == 0);
    CHECK(vertex_parse("j9", 9, &p) && p == 80);
    CHECK(vertex_parse("D4", 9, &p) && p == 3 * 9 + 3);
    CHECK(vertex_parse("PASS", 9, &p) && p == PASS_POINT);
    CHECK(vertex_parse("Z25", 25, &p) && p == 624);
    CHECK(vertex_parse("T19", 19, &p) && p == 18 * 19 + 18);
    CHECK(!vertex_parse("I5", 9, &p));
    CHECK(!vertex_parse("K1", 9, &p));
    CHECK(!vertex_parse("A10", 9, &p));
    CHECK(!vertex_parse("A0", 9, &p));
    CHECK(!vertex_parse("A01", 9, &p));
    CHECK(!vertex_parse("A", 9, &p));
    CHECK(!vertex_parse("", 9, &p));
    CHECK(!vertex_parse(" A1", 9, &p));
    CHECK(!vertex_parse("A1 ", 9, &p));
    CHECK(!vertex_parse("resign", 9, &p));
    CHECK(!vertex_parse("A99999999999", 9, &p));
    char buf[VERTEX_BUF];
    CHECK_EQ_STR(vertex_format(0, 9, buf), "A1");
    CHECK_EQ_STR(vertex_format(80, 9, buf), "J9");
    CHECK_EQ_STR(vertex_format(624, 25, buf), "Z25");
    CHECK_EQ_STR(vertex_format(PASS_POINT, 9, buf), "pass");
    CHECK_EQ_STR(vertex_format(81, 9, buf), "?");
    for (int size = 5; size <= 25; size++)
        for (point q = 0; q < size * size; q++) {
            point back;
            CHECK(vertex_parse(vertex_format(q, size, buf), size, &back) && back == q);
        }
}

static void check_handicap(int size, int n, const char *expect) {
    point pts[HANDICAP_MAX];
    char got[128] = "", buf[VERTEX_BUF];
    int k = handicap_points(size, n, pts);
    for (int i = 0; i < k; i++) {
        if (i) strcat(got, " ");
        strcat(got, vertex_format(pts[i], size, buf));
    }
    CHECK_EQ_STR(got, expect);
}

TEST(handicap_points_follow_gtp) {
    check_handicap(19, 2, "D4 Q16");
    check_handicap(19, 3, "D4 Q16 D16");
    check_handicap(19, 4, "D4 Q16 D16 Q4");
    check_handicap(19, 5, "D4 Q16 D16 Q4 K10");
    check_handicap(19, 6, "D4 Q16 D16 Q4 D10 Q10");
    check_handicap(19, 7, "D4 Q16 D16 Q4 D10 Q10 K10");
    check_handicap(19, 8, "D4 Q16 D16 Q4 D10 Q10 K4 K16");
    check_handicap(19, 9, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
    check_handicap(13, 9, "D4 K10 D10 K4 D7 K7 G4 G10 G7");
    check_handicap(13, 5, "D4 K10 D10 K4 G7");
    check_handicap(9, 2, "C3 G7");
    check_handicap(9, 9, "C3 G7 C7 G3 C5 G5 E3 E7 E5");
    check_handicap(7, 4, "C3 E5 C5 E3");
    check_handicap(7, 2, "C3 E5");
    point pts[HANDICAP_MAX];
    CHECK_EQ_INT(handicap_points(7, 5, pts), -1);  /* at most 4 on 7x7 */
    CHECK_EQ_INT(handicap_points(10, 5, pts), -1); /* and on even sizes */
    CHECK_EQ_INT(handicap_points(10, 4, pts), 4);
    CHECK_EQ_INT(handicap_points(6, 2, pts), -1); /* none below 7x7 */
    CHECK_EQ_INT(handicap_points(9, 1, pts), -1);
    CHECK_EQ_INT(handicap_points(9, 10, pts), -1);
    CHECK_EQ_INT(handicap_points(5, 0, pts), 0);
    CHECK_EQ_INT(handicap_max(25), 9);
    CHECK_EQ_INT(handicap_max(24), 4);
}
