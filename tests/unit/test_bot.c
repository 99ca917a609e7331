/* Unit tests of the computer player: fairness (same observations and seed,
 * same decisions, whatever the hidden stones), legality of everything it
 * plays over whole games in every referee mode, its passing, and its
 * configuration names. */
#include "harness.h"

#include <math.h>
#include <string.h>

#include "bot/bot.h"
#include "bot/players.h"
#include "bot/search.h"
#include "engine/board_text.h"
#include "test_bot_util.h"

/* strong:2000 searches the opponent's replies too (20 playouts a point
 * or more on 9x9), strong:150 does not. */
static const char *const fair_players[] = { "random",     "heuristic",   "flat:150",
                                            "strong:150", "strong:2000", "reference:150" };

static bool same_memory(const duel *a, const duel *b, int colour) {
    return memcmp(&a->mem[colour], &b->mem[colour], sizeof a->mem[colour]) == 0;
}

/* The two games differ only in where White's first stone is: Black's
 * memories are byte-identical and every player decides the same. */
TEST(bot_fair_hidden_stone_changes_nothing) {
    game_settings s = settings_default();
    for (size_t i = 0; i < sizeof fair_players / sizeof fair_players[0]; i++) {
        bot_config cfg;
        CHECK(bot_config_parse(fair_players[i], &cfg));
        duel *a = duel_new(&s), *b = duel_new(&s);
        duel_play(a, "E5");
        duel_play(b, "E5");
        duel_play(a, "A1");
        duel_play(b, "J9");
        CHECK(same_memory(a, b, BLACK));
        for (uint64_t seed = 1; seed <= 3; seed++)
            CHECK_EQ_INT(bot_choose(&cfg, &a->mem[BLACK], seed, NULL, NULL),
                         bot_choose(&cfg, &b->mem[BLACK], seed, NULL, NULL));
        duel_free(a);
        duel_free(b);
    }
}

/* The next point of a White script still empty on d's board (*next
 * moves past the ones Black has taken; a White attempt refused there
 * would tell Black something the other game does not). */
static const char *next_free_point(const duel *d, const char *const *script, size_t n, size_t *next) {
    while (*next < n && board_at(referee_truth_board(d->ref), duel_point(d, script[*next])) != EMPTY) ++*next;
    return *next < n ? script[(*next)++] : NULL;
}

/* Over a game against two different hidden White scripts: as long as
 * Black's observations are the same, its decisions are the same, with
 * each game's own carry (bot_carry) too. */
static void fair_over_a_game(bool carrying) {
    static const char *const white_a[] = { "A1", "C1", "E1", "G1", "J1", "A3", "J3", "A5",
                                           "J5", "A7", "B1", "D1", "F1", "H1", "A2" };
    static const char *const white_b[] = { "A9", "C9", "E9", "G9", "J9", "A8", "J8", "B9",
                                           "H9", "J7", "B8", "D9", "F9", "H8", "A6" };
    const size_t n_script = sizeof white_a / sizeof white_a[0];
    size_t next_a = 0, next_b = 0;
    game_settings s = settings_default();
    bot_config cfg;
    CHECK(bot_config_parse("strong:2000", &cfg)); /* with the opponent's tree */
    duel *a = duel_new(&s), *b = duel_new(&s);
    static bot_carry carry_a, carry_b;
    bot_carry_init(&carry_a);
    bot_carry_init(&carry_b);
    int compared = 0;
    for (int turn = 0; turn < 10 && same_memory(a, b, BLACK); turn++) {
        /* Black until its move lands (the same in both games while equal). */
        while (referee_to_move(a->ref) == BLACK && same_memory(a, b, BLACK)) {
            point pa, pb;
            CHECK_EQ_INT(
                duel_bot_step_carrying(a, &cfg, 77 + (uint64_t)a->seen, carrying ? &carry_a : NULL, &pa),
                REFUSE_NONE);
            CHECK_EQ_INT(
                duel_bot_step_carrying(b, &cfg, 77 + (uint64_t)b->seen, carrying ? &carry_b : NULL, &pb),
                REFUSE_NONE);
            CHECK_EQ_INT(pa, pb);
            CHECK(!carrying || memcmp(&carry_a, &carry_b, sizeof carry_a) == 0);
            compared++;
        }
        if (referee_to_move(a->ref) != WHITE || referee_to_move(b->ref) != WHITE) break;
        const char *wa = next_free_point(a, white_a, n_script, &next_a);
        const char *wb = next_free_point(b, white_b, n_script, &next_b);
        if (!wa || !wb || duel_play(a, wa) != REFUSE_NONE || duel_play(b, wb) != REFUSE_NONE) break;
    }
    CHECK(compared >= 5);
    duel_free(a);
    duel_free(b);
}

TEST(bot_fair_over_a_game) { fair_over_a_game(false); }

TEST(bot_fair_over_a_game_with_a_carry) { fair_over_a_game(true); }

/* A 9x9 game after Black's first action and White's (vertices or "pass"). */
static duel *duel_after(const char *black, const char *white) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    CHECK_EQ_INT(duel_play(d, black), REFUSE_NONE);
    CHECK_EQ_INT(duel_play(d, white), REFUSE_NONE);
    return d;
}

/* A carry's root statistics are read whole only by the attempt right
 * after the one that wrote it, once that attempt was refused:
 *
 *       A B C D E F G H J
 *     6 . . . . . . . . .    Black played E5, White D5 (unseen by Black).
 *     5 . . . w B . . . .    Black's carry is written by a decision, then
 *     4 . . . . . . . . .    D5 is tried and refused: the retry starts from
 *                            the carry (the same decision for the same carry
 *     and seed) on a short budget, while a decision asked twice or on a
 *     long budget ignores it. */
TEST(bot_carry_starts_only_the_retry_just_after) {
    bot_config cfg;
    CHECK(bot_config_parse("strong:300", &cfg));
    duel *d = duel_after("E5", "D5");
    static bot_carry carry, copy, again;
    bot_carry_init(&carry);
    point first = bot_choose(&cfg, &d->mem[BLACK], 1, &carry, NULL);
    CHECK(carry.valid);
    /* Asked again at the same point of the game: the carry does not apply. */
    again = carry;
    CHECK_EQ_INT(bot_choose(&cfg, &d->mem[BLACK], 1, &again, NULL), first);

    CHECK_EQ_INT(duel_play(d, "D5"), REFUSE_NONE); /* an attempt the referee answers "illegal" */
    CHECK_EQ_INT(referee_to_move(d->ref), BLACK);
    bool differs = false;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        copy = carry;
        again = carry;
        point with = bot_choose(&cfg, &d->mem[BLACK], seed, &copy, NULL);
        CHECK_EQ_INT(bot_choose(&cfg, &d->mem[BLACK], seed, &again, NULL), with);
        CHECK(with != duel_point(d, "D5"));
        differs |= with != bot_choose(&cfg, &d->mem[BLACK], seed, NULL, NULL);
    }
    CHECK(differs);

    /* A long budget (the strong level's) starts a retry from nothing. */
    bot_config long_budget;
    CHECK(bot_config_parse("strong:10000", &long_budget));
    copy = carry;
    CHECK_EQ_INT(bot_choose(&long_budget, &d->mem[BLACK], 2, &copy, NULL),
                 bot_choose(&long_budget, &d->mem[BLACK], 2, NULL, NULL));
    duel_free(d);
}

/* The next turn's first attempt starts from the AMAF statistics of the
 * decision whose point was played, on every budget:
 *
 *       A B C D E F G H J
 *     8 . w . . . . . . .    Black played E5, White C3. Black's decision
 *     7 . . . . . . . . .    (seed 2) is played, White answers B8:
 *     6 . . . . . . . . .    Black's next decision reads the carry. Not
 *     5 . . . . B . . . .    a turn later (Black passed, White played
 *     4 . . . . . . . . .    B2), nor when the point played was not the
 *     3 . . w . . . . . .    one the carry chose.
 *     2 . w . . . . . . . */
TEST(bot_carry_starts_the_next_turn_from_the_played_attempt) {
    static bot_carry carry, stale;
    const char *budgets[] = { "strong:300", "strong:10000" };
    for (int k = 0; k < 2; k++) {
        bot_config cfg;
        CHECK(bot_config_parse(budgets[k], &cfg));
        uint64_t seeds = k == 0 ? 12 : 4;
        duel *d = duel_after("E5", "C3");
        bot_carry_init(&carry);
        point played;
        CHECK_EQ_INT(duel_bot_step_carrying(d, &cfg, 2, &carry, &played), REFUSE_NONE);
        CHECK_EQ_INT(duel_play(d, "B8"), REFUSE_NONE);
        memset(carry.expected_map, 0, sizeof carry.expected_map); /* the AMAF half alone */
        CHECK(duel_carry_changes_a_decision(&cfg, d, &carry, seeds, NULL, NULL, NULL));

        /* A turn later the carry is stale, though our stones are the same. */
        stale = carry;
        CHECK_EQ_INT(duel_play(d, "pass"), REFUSE_NONE);
        CHECK_EQ_INT(duel_play(d, "B2"), REFUSE_NONE);
        CHECK(!duel_carry_changes_a_decision(&cfg, d, &stale, seeds, NULL, NULL, NULL));
        duel_free(d);

        /* The caller played another point than the carry's: the expected
         * map still applies (left out here), the AMAF half does not. */
        d = duel_after("E5", "C3");
        bot_carry_init(&carry);
        CHECK(bot_choose(&cfg, &d->mem[BLACK], 2, &carry, NULL) != duel_point(d, "J9"));
        CHECK_EQ_INT(duel_play(d, "J9"), REFUSE_NONE);
        CHECK_EQ_INT(duel_play(d, "pass"), REFUSE_NONE);
        CHECK(bot_carry_expected_map(&carry, &d->mem[BLACK]) == carry.expected_map);
        memset(carry.expected_map, 0, sizeof carry.expected_map);
        CHECK(!duel_carry_changes_a_decision(&cfg, d, &carry, seeds, NULL, NULL, NULL));
        duel_free(d);
    }
}

static double map_sum(const float *map) {
    double sum = 0;
    for (int k = 0; k < BOARD_MAX_POINTS; k++) {
        CHECK(map[k] >= 0);
        sum += map[k];
    }
    return sum;
}

/* The point of the map's largest entry. */
static point map_top(const float *map) {
    point top = 0;
    for (point p = 1; p < BOARD_MAX_POINTS; p++)
        if (map[p] > map[top]) top = p;
    return top;
}

/* The expected map: where the opponent's tree of each decision spent its
 * first moves, summed over the seat's run of decisions, which the belief
 * leans toward (belief_prepare_expecting); the retries of a turn start
 * from the map its first attempt started from:
 *
 *       A B C D E F G H J
 *     6 . . . . . . . . .    Black played E5, White D5 (unseen). Black's
 *     5 . . . w B . . . .    first decision maps the shares of White's
 *     4 . . . . . . . . .    replies (1 in all, the largest on the reply
 *                            it expects); D5 refused, the retry starts
 *     from the first's start (nothing) and maps its own; the point played
 *     and White's C3, Black's next decision adds its shares to the map,
 *     and the map alone changes its decisions. A search without the
 *     opponent's tree (300 simulations) keeps the map; two turns later
 *     it is not read. */
TEST(bot_carry_keeps_where_the_opponent_was_expected) {
    bot_config cfg, small;
    CHECK(bot_config_parse("strong:2000", &cfg));
    CHECK(bot_config_parse("strong:300", &small));
    duel *d = duel_after("E5", "D5");
    static bot_carry carry, after_first, after_retry, copy;
    bot_carry_init(&carry);
    CHECK(bot_carry_expected_map(&carry, &d->mem[BLACK]) == NULL);
    bot_stats stats;
    bot_choose(&cfg, &d->mem[BLACK], 1, &carry, &stats);
    CHECK(map_sum(carry.expected_map_at_start) == 0);
    CHECK(fabs(map_sum(carry.expected_map) - 1) < 1e-3);
    CHECK_EQ_INT(map_top(carry.expected_map), stats.expected_reply);
    /* Asked again at the same point of the game: nothing carried. */
    CHECK(bot_carry_expected_map(&carry, &d->mem[BLACK]) == NULL);

    CHECK_EQ_INT(duel_play(d, "D5"), REFUSE_NONE); /* refused */
    CHECK(bot_carry_expected_map(&carry, &d->mem[BLACK]) == carry.expected_map_at_start);
    after_first = carry;
    point played;
    CHECK_EQ_INT(duel_bot_step_carrying(d, &cfg, 2, &carry, &played), REFUSE_NONE);
    CHECK(map_sum(carry.expected_map_at_start) == 0);
    CHECK(fabs(map_sum(carry.expected_map) - 1) < 1e-3);
    CHECK(memcmp(carry.expected_map, after_first.expected_map, sizeof carry.expected_map) != 0);
    after_retry = carry;
    CHECK_EQ_INT(duel_play(d, "C3"), REFUSE_NONE);

    CHECK(bot_carry_expected_map(&carry, &d->mem[BLACK]) == carry.expected_map);
    copy = carry;
    bot_choose(&small, &d->mem[BLACK], 3, &copy, NULL);
    CHECK(memcmp(copy.expected_map_at_start, after_retry.expected_map, sizeof copy.expected_map) == 0);
    CHECK(memcmp(copy.expected_map, after_retry.expected_map, sizeof copy.expected_map) == 0);
    copy = carry;
    bot_choose(&cfg, &d->mem[BLACK], 3, &copy, NULL);
    CHECK(memcmp(copy.expected_map_at_start, after_retry.expected_map, sizeof copy.expected_map) == 0);
    CHECK(fabs(map_sum(copy.expected_map) - 2) < 1e-3);

    /* The map alone (the root's statistics left out) changes decisions. */
    copy = carry;
    memset(copy.n, 0, sizeof copy.n);
    memset(copy.w, 0, sizeof copy.w);
    memset(copy.rn, 0, sizeof copy.rn);
    memset(copy.rw, 0, sizeof copy.rw);
    copy.root_n = copy.root_w = 0;
    CHECK(duel_carry_changes_a_decision(&cfg, d, &copy, 6, NULL, NULL, NULL));

    CHECK_EQ_INT(duel_play(d, "pass"), REFUSE_NONE);
    CHECK_EQ_INT(duel_play(d, "B2"), REFUSE_NONE);
    CHECK(bot_carry_expected_map(&carry, &d->mem[BLACK]) == NULL);
    duel_free(d);
}

TEST(bot_same_seed_same_decision_other_seed_may_differ) {
    game_settings s = settings_default();
    bot_config cfg;
    CHECK(bot_config_parse("flat:100", &cfg));
    duel *d = duel_new(&s);
    point first = bot_choose(&cfg, &d->mem[BLACK], 5, NULL, NULL);
    CHECK_EQ_INT(bot_choose(&cfg, &d->mem[BLACK], 5, NULL, NULL), first);
    bool differs = false;
    for (uint64_t seed = 6; seed < 30 && !differs; seed++)
        differs = bot_choose(&cfg, &d->mem[BLACK], seed, NULL, NULL) != first;
    CHECK(differs);
    duel_free(d);
}

/* Plays a whole game between two players; every action must be accepted
 * and the game must end (by passes) well within the cap. */
static void play_out(const game_settings *s, const char *black, const char *white, uint64_t seed) {
    bot_config cfg[3];
    CHECK(bot_config_parse(black, &cfg[BLACK]));
    CHECK(bot_config_parse(white, &cfg[WHITE]));
    duel *d = duel_new(s);
    int steps = 0, cap = 30 * s->size * s->size;
    while (referee_to_move(d->ref) != EMPTY && steps < cap) {
        int c = referee_to_move(d->ref);
        point p;
        refusal r = duel_bot_step(d, &cfg[c], seed + (uint64_t)steps, &p);
        if (r != REFUSE_NONE) {
            char msg[128];
            snprintf(msg, sizeof msg, "refused %d at step %d (%s, size %d)", (int)r, steps,
                     c == BLACK ? black : white, s->size);
            harness_fail(__FILE__, __LINE__, msg);
            break;
        }
        steps++;
    }
    CHECK(referee_result(d->ref).over);
    duel_free(d);
}

TEST(bot_whole_games_are_legal_in_every_mode) {
    game_settings s = settings_default();
    play_out(&s, "strong:40", "flat:40", 1);
    s.rules = RULES_HAMBURG;
    play_out(&s, "flat:40", "strong:40", 2);
    s = settings_default();
    s.rules = RULES_COMMON;
    s.size = 7;
    s.torus = true;
    play_out(&s, "strong:40", "heuristic", 3);
    s = settings_default();
    s.handicap = 3;
    s.komi_x2 = 1;
    s.ko = KO_SUPERKO;
    play_out(&s, "heuristic", "strong:40", 4);
    s = settings_default();
    s.size = 13;
    play_out(&s, "random", "flat:20", 5);
}

/* Every player kind on the smallest and the largest boards, plane and
 * torus, with small budgets (they run under ASan in `make test`). On an
 * empty 25x25 board a player's candidate list is longest: all 625 points
 * plus the pass, which once overflowed ISMCTS's array by one. There the
 * first decisions of both sides are played (a whole game would be slow);
 * on 5x5 whole games are played to the end. */
static const char *const every_kind[] = { "random", "heuristic", "flat:16", "strong:16", "reference:16" };

static void first_decisions(const game_settings *s, const bot_config *cfg, int steps) {
    duel *d = duel_new(s);
    CHECK(d != NULL);
    for (int i = 0; d && i < steps && referee_to_move(d->ref) != EMPTY; i++) {
        point p;
        CHECK_EQ_INT(duel_bot_step(d, cfg, 100 + (uint64_t)i, &p), REFUSE_NONE);
    }
    duel_free(d);
}

TEST(bot_every_kind_on_25x25_plane_and_torus) {
    game_settings s = settings_default();
    s.size = 25;
    for (int torus = 0; torus <= 1; torus++) {
        s.torus = torus;
        for (size_t i = 0; i < sizeof every_kind / sizeof every_kind[0]; i++) {
            bot_config cfg;
            CHECK(bot_config_parse(every_kind[i], &cfg));
            first_decisions(&s, &cfg, 6);
        }
    }
}

/* The user-facing levels (medium and strong are ISMCTS, easy is flat),
 * their budgets cut to a few simulations. */
TEST(bot_every_level_on_25x25_and_5x5) {
    static const char *const levels[] = { "easy", "medium", "strong" };
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        bot_config cfg;
        CHECK(bot_level(levels[i], &cfg));
        cfg.playouts = 16;
        cfg.time_ms = 0;
        for (int size = 5; size <= 25; size += 20)
            for (int torus = 0; torus <= 1; torus++) {
                game_settings s = settings_default();
                s.size = size;
                s.torus = torus;
                first_decisions(&s, &cfg, 4);
            }
    }
}

TEST(bot_every_kind_plays_whole_5x5_games_plane_and_torus) {
    game_settings s = settings_default();
    s.size = 5;
    size_t n = sizeof every_kind / sizeof every_kind[0];
    for (int torus = 0; torus <= 1; torus++) {
        s.torus = torus;
        for (size_t i = 0; i < n; i++)
            play_out(&s, every_kind[i], every_kind[(i + 1) % n], 40 + i + (size_t)torus);
    }
}

/* After Black's move White passes: passing now ends the game with Black
 * owning the whole board, so Black passes. */
TEST(bot_passes_when_passing_wins) {
    bot_config cfg;
    CHECK(bot_config_parse("strong:300", &cfg));
    duel *d = duel_after("E5", "pass");
    point p;
    CHECK_EQ_INT(duel_bot_step(d, &cfg, 9, &p), REFUSE_NONE);
    CHECK_EQ_INT(p, PASS_POINT);
    CHECK_EQ_INT(referee_result(d->ref).winner, BLACK);
    CHECK(bot_config_parse("flat:300", &cfg));
    duel_free(d);
    d = duel_after("E5", "pass");
    CHECK_EQ_INT(bot_choose(&cfg, &d->mem[BLACK], 9, NULL, NULL), PASS_POINT);
    duel_free(d);
}

/* Two passes end a simulation scored as the sampled board stands, but a
 * region the two colours share counts for the opponent, whoever judges:
 * the sample's stones are guesses, scattered where the real ones would
 * wall off an area. Komi 0.
 *
 *   X X . . .    exactly: Black 4, White 1, the rest neutral
 *   X X . . .    Black's judgement: Black 4, White 21   -> lost
 *   . . . . .    White's judgement: White 1, Black 24   -> lost
 *   . . . . O
 *   . . . . .
 *
 *   . X . . .    the empty points border Black alone:
 *   X X . . .    Black 25, White 0                      -> won
 *   . . . . .
 *   . . . . .
 *   . . . . .                                                          */
TEST(bot_two_passes_count_shared_regions_for_the_opponent) {
    rng r;
    rng_seed(&r, 1);
    board b;
    CHECK(board_from_text(&b, "X X . . .\nX X . . .\n. . . . .\n. . . . O\n. . . . .\n", false));
    CHECK(search_finish(&b, BLACK, WHITE, 2, 0, 0.1, &r, NULL) < 0.5);
    CHECK(search_finish(&b, WHITE, BLACK, 2, 0, 0.1, &r, NULL) < 0.5);
    CHECK(board_from_text(&b, ". X . . .\nX X . . .\n. . . . .\n. . . . .\n. . . . .\n", false));
    CHECK(search_finish(&b, BLACK, WHITE, 2, 0, 0.1, &r, NULL) > 0.5);
    CHECK(search_finish(&b, WHITE, BLACK, 2, 0, 0.1, &r, NULL) < 0.5);
}

/* White's first reply, after Black's unseen first move: passing gives
 * the game away, and flat must not do it by chance. With pass on one
 * simulation in n + 1 (the first), flat:30 passed 14 times in 300 GTP seeds
 * and flat:1 always; with its tenth of the simulations, never the first,
 * flat:1 plays and flat:30 passes at most once in the first 100 seeds. */
TEST(bot_flat_does_not_pass_early_by_chance) {
    game_settings s = settings_default();
    duel *d = duel_new(&s);
    duel_play(d, "E5");
    bot_config one, thirty;
    CHECK(bot_config_parse("flat:1", &one));
    CHECK(bot_config_parse("flat:30", &thirty));
    CHECK(bot_choose(&one, &d->mem[WHITE], 1, NULL, NULL) != PASS_POINT);
    int passes = 0;
    for (uint64_t seed = 1; seed <= 100; seed++)
        passes += bot_choose(&thirty, &d->mem[WHITE], seed, NULL, NULL) == PASS_POINT;
    CHECK(passes <= 1);
    duel_free(d);
}

/* Flat's pass takes one simulation in ten while the budget is small (the
 * easy level's 300 playouts, a turn's later tries, a time budget), its
 * uniform share (one in n + 1) once that still leaves it 30 simulations. */
TEST(bot_flat_pass_share_follows_the_budget) {
    /*                budget  candidates  period */
    CHECK_EQ_INT((int)flat_pass_period(300, 40), 10);
    CHECK_EQ_INT((int)flat_pass_period(75, 40), 10);
    CHECK_EQ_INT((int)flat_pass_period(0, 40), 10);
    CHECK_EQ_INT((int)flat_pass_period(300, 4), 5);
    CHECK_EQ_INT((int)flat_pass_period(10000, 40), 41);
    CHECK_EQ_INT((int)flat_pass_period(10000, 81), 82);
    CHECK_EQ_INT((int)flat_pass_period(1000, 360), 33);
}

/* A turn's later attempts: on a short budget (under 10,000 playouts or
 * 100 ms) the strong player thinks three quarters of it on each of the
 * first three, then a quarter; on a longer one, and the other players
 * always, the budget halves, then a third, then a quarter. Playouts and
 * time alike. */
static search_budget budget_after(const char *player, int n_tried) {
    bot_config cfg;
    bot_memory m;
    memset(&m, 0, sizeof m);
    m.view.n_tried = (int16_t)n_tried;
    bool parsed = bot_config_parse(player, &cfg);
    CHECK(parsed);
    const attempt_shares *shares =
        cfg.kind == BOT_STRONG ? ismcts_attempt_shares(&cfg) : &search_shares_shrinking;
    return search_budget_for(&cfg, shares, &m, 10.0);
}

static long budget_playouts(const char *player, int n_tried) { return budget_after(player, n_tried).playouts; }
static double budget_seconds(const char *player, int n_tried) { return budget_after(player, n_tried).deadline - 10.0; }

TEST(bot_budget_of_a_turns_later_attempts) {
    /*           refusals so far:      0     1     2     3     4     9 */
    static const long strong[] = { 750, 750, 750, 250, 250, 250 };
    static const long shrinking[] = { 1000, 500, 333, 250, 250, 250 };
    static const long long_budget[] = { 10000, 5000, 3333, 2500, 2500, 2500 };
    static const int tried[] = { 0, 1, 2, 3, 4, 9 };
    for (int i = 0; i < 6; i++) {
        CHECK_EQ_INT((int)budget_playouts("strong:1000", tried[i]), (int)strong[i]);
        CHECK_EQ_INT((int)budget_playouts("flat:1000", tried[i]), (int)shrinking[i]);
        CHECK_EQ_INT((int)budget_playouts("reference:1000", tried[i]), (int)shrinking[i]);
        CHECK_EQ_INT((int)budget_playouts("strong:9999", tried[i]), (int)(strong[i] * 9999 / 1000));
        CHECK_EQ_INT((int)budget_playouts("strong:10000", tried[i]), (int)long_budget[i]);
    }
    CHECK(budget_seconds("strong:99ms", 2) > 0.07424 && budget_seconds("strong:99ms", 2) < 0.07426);
    CHECK(budget_seconds("strong:40ms", 3) > 0.00999 && budget_seconds("strong:40ms", 3) < 0.01001);
    CHECK(budget_seconds("strong:100ms", 0) > 0.09999 && budget_seconds("strong:100ms", 0) < 0.10001);
    CHECK(budget_seconds("strong:1000ms", 1) > 0.4999 && budget_seconds("strong:1000ms", 1) < 0.5001);
    CHECK(budget_seconds("flat:400ms", 1) > 0.1999 && budget_seconds("flat:400ms", 1) < 0.2001);
    CHECK_EQ_INT((int)budget_playouts("strong:1", 3), 1); /* never below one simulation */
}

/* The product's levels: medium's 3,000 playouts are a short budget,
 * strong's second a long one. */
TEST(bot_levels_share_their_budgets_by_its_size) {
    bot_config medium, strong;
    CHECK(bot_level("medium", &medium) && bot_level("strong", &strong));
    CHECK(ismcts_attempt_shares(&medium) != &search_shares_shrinking);
    CHECK(ismcts_attempt_shares(&strong) == &search_shares_shrinking);
}

/* An illegal answer is learnt: the next decision of the turn is another
 * point, and the refused one is believed to hold an opponent stone. */
TEST(bot_chooses_again_after_an_illegal_answer) {
    game_settings s = settings_default();
    bot_config cfg;
    CHECK(bot_config_parse("strong:200", &cfg));
    duel *d = duel_new(&s);
    duel_play(d, "A9");
    duel_play(d, "E5");                            /* White's hidden stone in the centre */
    CHECK_EQ_INT(duel_play(d, "E5"), REFUSE_NONE); /* Black finds it */
    CHECK(d->mem[BLACK].view.mark[duel_point(d, "E5")] & VIEW_TRIED);
    for (uint64_t seed = 1; seed <= 5; seed++)
        CHECK(bot_choose(&cfg, &d->mem[BLACK], seed, NULL, NULL) != duel_point(d, "E5"));
    duel_free(d);
}

/* The strong player searches the opponent's replies too: a tree of its
 * own over its own moves, learning which replies hurt us on the boards
 * we believe in. 5x5, Hamburg rules (an occupied point is told): Black's
 * tries found White's stones A4, B2, B3 and C1. Black's three edge
 * stones have one liberty, B1, which Black cannot fill (suicide): they
 * live only by capturing White's stones around them, and B4 is where
 * White's A4 and B2-B3 connect. White at B4, or at C4 (which makes
 * Black's B4 a self-atari), saves them and kills Black's. The search
 * expects White there, every seed, and plays there itself; a random
 * reply would find either point about once in 8.
 *
 *     . . . . O    5
 *     O . . X .    4     White A4, B2, B3, C1 known to Black
 *     X O . . .    3     (E5 hidden)
 *     X O . X .    2
 *     X . O . .    1     -> White's reply B4 or C4, Black's move too
 *     A B C D E                                                        */
TEST(bot_strong_expects_the_reply_that_hurts_us) {
    game_settings s = settings_default();
    s.size = 5;
    s.rules = RULES_HAMBURG;
    bot_config cfg;
    CHECK(bot_config_parse("strong:2000", &cfg));
    duel *d = duel_new(&s);
    /* Black A1, White A4, A2, B2, A3, B3; Black's tries B3, B2 and A4
     * are refused before D4 lands; White C1; Black's C1 is refused, D2
     * lands; White E5. */
    const char *moves[] = {
        "A1", "A4", "A2", "B2", "A3", "B3", "B3", "B2", "A4", "D4", "C1", "C1", "D2", "E5"
    };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        CHECK_EQ_INT(duel_play(d, moves[i]), REFUSE_NONE);
    CHECK_EQ_INT(referee_to_move(d->ref), BLACK);
    const char *known[] = { "A4", "B2", "B3", "C1" };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        CHECK_EQ_INT(d->mem[BLACK].opp[duel_point(d, known[i])], OPP_CERTAIN);
    point b4 = duel_point(d, "B4"), c4 = duel_point(d, "C4");
    for (uint64_t seed = 1; seed <= 6; seed++) {
        bot_stats st;
        point p = bot_choose(&cfg, &d->mem[BLACK], seed, NULL, &st);
        CHECK(p == b4 || p == c4);
        CHECK(st.expected_reply == b4 || st.expected_reply == c4);
    }
    bot_config flat;
    CHECK(bot_config_parse("flat:300", &flat));
    bot_stats st;
    bot_choose(&flat, &d->mem[BLACK], 1, NULL, &st);
    CHECK_EQ_INT(st.expected_reply, NO_POINT);
    duel_free(d);
}

/* The opponent's tree only where it has room to learn: a budget of at
 * least 20 playouts a point, or a time on boards up to 11x11 (the ones
 * measured); elsewhere the simulated replies stay random and no reply is
 * expected. */
static point expected_reply_on_an_open_board(int size, const char *player) {
    game_settings s = settings_default();
    s.size = size;
    bot_config cfg;
    CHECK(bot_config_parse(player, &cfg));
    duel *d = duel_new(&s);
    CHECK_EQ_INT(duel_play(d, "C3"), REFUSE_NONE);
    CHECK_EQ_INT(duel_play(d, "E5"), REFUSE_NONE);
    bot_stats st;
    bot_choose(&cfg, &d->mem[BLACK], 1, NULL, &st);
    duel_free(d);
    return st.expected_reply;
}

TEST(bot_strong_searches_replies_only_on_a_budget_that_pays) {
    CHECK(expected_reply_on_an_open_board(9, "strong:1620") != NO_POINT); /* 20 x 81 */
    CHECK_EQ_INT(expected_reply_on_an_open_board(9, "strong:1619"), NO_POINT);
    CHECK(expected_reply_on_an_open_board(13, "strong:3380") != NO_POINT); /* 20 x 169 */
    CHECK_EQ_INT(expected_reply_on_an_open_board(13, "strong:3379"), NO_POINT);
    CHECK(expected_reply_on_an_open_board(11, "strong:20ms") != NO_POINT);
    CHECK_EQ_INT(expected_reply_on_an_open_board(13, "strong:20ms"), NO_POINT);
}

/* Our pass at the root is answered from the opponent's tree: a pass
 * where ending the game wins for them, a move where it would lose. 5x5,
 * Hamburg rules, every White stone known to Black (found by refusals):
 *
 *     Black's wall open    Black's wall closed
 *     . . . . .   5        O . O . O   5
 *     . . . . .   4        X X X X X   4
 *     X X X X O   3        . . . . .   3
 *     . . . . .   2        . . . . .   2
 *     . . . . .   1        . . . . .   1
 *     A B C D E            A B C D E
 *   -> White would pass  -> White would play on
 * Both passing, only a region of Black's alone counts for Black: on the
 * left none (4 points against 21), though Black would win the game played
 * on; on the right the lower three rows (20 against 5). Once White has
 * just passed, Black's pass ends the game and nothing is asked. */
static point answer_to_black_pass(const char *const *actions, size_t n) {
    game_settings s = settings_default();
    s.size = 5;
    s.rules = RULES_HAMBURG;
    duel *d = duel_new(&s);
    for (size_t i = 0; i < n; i++) CHECK_EQ_INT(duel_play(d, actions[i]), REFUSE_NONE);
    CHECK_EQ_INT(referee_to_move(d->ref), BLACK);
    bot_config cfg;
    CHECK(bot_config_parse("strong:2000", &cfg));
    bot_stats st;
    bot_choose(&cfg, &d->mem[BLACK], 1, NULL, &st);
    duel_free(d);
    return st.answer_to_pass;
}

TEST(bot_strong_expects_the_opponent_to_answer_its_pass) {
    /* Black's refused tries come just before its next move. */
    static const char *const open[] = { "A3", "pass", "B3", "pass", "C3", "pass", "D3", "E3", "E3" };
    static const char *const closed[] = { "A4",   "A5", "A5",   "B4", "E5", "E5", "C4",
                                          "pass", "D4", "pass", "E4", "C5", "C5" };
    CHECK_EQ_INT(answer_to_black_pass(open, sizeof open / sizeof open[0]), PASS_POINT);
    point answer = answer_to_black_pass(closed, sizeof closed / sizeof closed[0]);
    CHECK(answer != PASS_POINT && answer != NO_POINT);
    static const char *const after_a_pass[] = { "A4", "A5",   "A5", "B4",   "E5", "E5",
                                                "C4", "pass", "D4", "pass", "E4", "pass" };
    CHECK_EQ_INT(answer_to_black_pass(after_a_pass, sizeof after_a_pass / sizeof after_a_pass[0]), NO_POINT);
}

TEST(bot_config_names) {
    bot_config c;
    CHECK(bot_config_parse("flat", &c));
    CHECK_EQ_INT(c.kind, BOT_FLAT);
    CHECK_EQ_INT(c.playouts, 10000);
    CHECK(bot_config_parse("strong:500", &c));
    CHECK_EQ_INT(c.kind, BOT_STRONG);
    CHECK_EQ_INT(c.playouts, 500);
    CHECK(bot_config_parse("flat:250ms", &c));
    CHECK_EQ_INT(c.playouts, 0);
    CHECK_EQ_INT(c.time_ms, 250);
    CHECK(!bot_config_parse("flat:", &c));
    CHECK(!bot_config_parse("flat:0", &c));
    CHECK(!bot_config_parse("flat:5s", &c));
    CHECK(bot_config_parse("reference:200ms", &c));
    CHECK_EQ_INT(c.kind, BOT_REFERENCE);
    CHECK_EQ_INT(c.time_ms, 200);
    CHECK(!bot_config_parse("grandmaster", &c));
    CHECK(bot_level("easy", &c));
    CHECK(bot_level("medium", &c));
    CHECK(bot_level("strong", &c));
    CHECK_EQ_INT(c.kind, BOT_STRONG);
    CHECK(!bot_level("hard", &c));
}
