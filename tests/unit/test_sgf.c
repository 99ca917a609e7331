/* The SGF record of real games played through the referee: the exact text
 * of a small game with an atari, a capture, illegal attempts and two passes;
 * handicap stones and a resignation in the middle of a turn; every kind of
 * result; escaping of names; and no record at all while a game is on. */
#include "harness.h"

#include <stdlib.h>

#include "engine/referee.h"
#include "engine/vertex.h"
#include "version.h"
#include "wire/sgf.h"

static game_settings settings_9x9(void) { return settings_default(); }

/* Applies one action that must be accepted; returns 0 when it was. */
static int act(referee *r, action_kind kind, int color, const char *vertex) {
    action a = { .kind = kind, .color = color, .point = NO_POINT };
    if (vertex && !vertex_parse(vertex, referee_settings(r)->size, &a.point)) return -1;
    return referee_apply(r, a, NULL) == REFUSE_NONE ? 0 : -1;
}

static int play(referee *r, int color, const char *vertex) { return act(r, ACT_ATTEMPT, color, vertex); }

/* CHECK_EQ_STR for texts longer than its message buffer; "{version}" in
 * the wanted text stands for this build's version (src/version.h). */
static void check_text(const char *got, const char *want_template, int line) {
    const char *mark = strstr(want_template, "{version}");
    char *want = NULL;
    if (mark && asprintf(&want, "%.*s%s%s", (int)(mark - want_template), want_template, pg_version,
                         mark + strlen("{version}")) < 0)
        want = NULL;
    if (!want) want = strdup(want_template);
    if (got && want && !strcmp(got, want)) {
        free(want);
        return;
    }
    fprintf(stderr, "    got:\n%s\n    want:\n%s\n", got ? got : "(null)", want ? want : want_template);
    free(want);
    harness_fail(__FILE__, line, "SGF text differs");
}

#define EXPECTED_VERSION "AP[Phantom Go:{version}]"

TEST(sgf_small_game_exact_text) {
    game_settings s = settings_9x9();
    referee *r = referee_new(&s);
    CHECK(r != NULL);
    if (!r) return;
    CHECK(play(r, BLACK, "E5") == 0);
    CHECK(play(r, WHITE, "A1") == 0);
    CHECK(play(r, BLACK, "B1") == 0); /* A1 in atari */
    CHECK(play(r, WHITE, "B1") == 0); /* occupied: illegal */
    CHECK(play(r, WHITE, "J9") == 0);
    CHECK(play(r, BLACK, "A2") == 0); /* captures A1: Black's point now */
    CHECK(play(r, WHITE, "A1") == 0); /* suicide */
    CHECK(play(r, WHITE, "E5") == 0); /* occupied */
    CHECK(act(r, ACT_PASS, WHITE, NULL) == 0);
    CHECK(act(r, ACT_PASS, BLACK, NULL) == 0);

    sgf_meta meta = { .game_id = "k3v9x2m4qa", .started_ms = 1714521600000 };
    char *sgf = sgf_record_new(r, &meta);
    check_text(
        sgf,
        "(;FF[4]GM[1]CA[UTF-8]" EXPECTED_VERSION "SZ[9]KM[7.5]HA[0]"
        "RU[Phantom Go, olympiad referee, area scoring, simple ko]RE[W+4.5]DT[2024-05-01]GN[k3v9x2m4qa]"
        "PGRULES[olympiad]PGKO[simple]PGTORUS[false]PGCAPTURE[0]PGEND[passes]\n"
        ";B[ee]C[Black plays E5.]\n"
        ";W[ai]C[White plays A1.]\n"
        ";B[bi]PGATARI[]C[Black plays B1. Atari.]\n"
        ";W[ia]PGILLEGAL[bi:occupied]C[White tried B1 (occupied): illegal. White plays J9.]\n"
        ";B[ah]PGCAPTURED[ai]C[Black plays A2. Captures 1: A1.]\n"
        ";W[]PGILLEGAL[ai:suicide][ee:occupied]C[White tried A1 (suicide), E5 (occupied): illegal. White "
        "passes.]\n"
        ";B[]C[Black passes. Two passes end the game: Black 4, White 8.5: White wins.])\n",
        __LINE__);
    free(sgf);
    referee_free(r);
}

TEST(sgf_handicap_and_resignation_mid_turn) {
    game_settings s = settings_9x9();
    s.handicap = 2;
    s.komi_x2 = 1;
    s.rules = RULES_HAMBURG;
    s.ko = KO_SUPERKO;
    referee *r = referee_new(&s);
    CHECK(r != NULL);
    if (!r) return;
    CHECK(play(r, WHITE, "G7") == 0); /* a handicap stone: occupied */
    CHECK(play(r, WHITE, "D4") == 0);
    CHECK(play(r, BLACK, "F3") == 0);
    CHECK(play(r, WHITE, "F3") == 0); /* occupied */
    CHECK(act(r, ACT_RESIGN, WHITE, NULL) == 0);

    sgf_meta meta = { .black_name = "Mi-rae ]\\ Kim", .white_name = "Ann\nOther" };
    char *sgf = sgf_record_new(r, &meta);
    check_text(sgf,
               "(;FF[4]GM[1]CA[UTF-8]" EXPECTED_VERSION "SZ[9]KM[0.5]HA[2]"
               "RU[Phantom Go, hamburg referee, area scoring, positional superko]RE[B+R]"
               "PB[Mi-rae \\]\\\\ Kim]PW[Ann Other]"
               "PGRULES[hamburg]PGKO[superko]PGTORUS[false]PGCAPTURE[0]PGEND[resign]AB[cg][gc]PL[W]\n"
               ";W[df]PGILLEGAL[gc:occupied]C[White tried G7 (occupied): illegal. White plays D4.]\n"
               ";B[fg]C[Black plays F3.]\n"
               ";PL[W]PGILLEGAL[fg:occupied]C[White tried F3 (occupied): illegal. White resigns.])\n",
               __LINE__);
    free(sgf);
    referee_free(r);
}

/* The RE value of a game ended by one action after the opening move. */
static char *result_of(game_settings s, action_kind end_kind, int end_color) {
    referee *r = referee_new(&s);
    if (!r) return NULL;
    char *sgf = NULL;
    if (end_kind == ACT_PASS) {
        if (act(r, ACT_PASS, BLACK, NULL) == 0 && act(r, ACT_PASS, WHITE, NULL) == 0)
            sgf = sgf_record_new(r, NULL);
    } else if (act(r, end_kind, end_color, NULL) == 0) sgf = sgf_record_new(r, NULL);
    referee_free(r);
    char *re = sgf ? strstr(sgf, "RE[") : NULL;
    char *out = NULL;
    if (re) {
        size_t n = strcspn(re + 3, "]");
        out = strndup(re + 3, n);
    }
    free(sgf);
    return out;
}

TEST(sgf_results_of_every_ending) {
    game_settings s = settings_9x9();
    char *re;
    re = result_of(s, ACT_TIMEOUT, BLACK);
    CHECK_EQ_STR(re, "W+T");
    free(re);
    re = result_of(s, ACT_FORFEIT, WHITE);
    CHECK_EQ_STR(re, "B+F");
    free(re);
    re = result_of(s, ACT_RESIGN, BLACK);
    CHECK_EQ_STR(re, "W+R");
    free(re);
    re = result_of(s, ACT_PASS, 0); /* empty board: White by komi */
    CHECK_EQ_STR(re, "W+7.5");
    free(re);
    s.komi_x2 = 0;
    re = result_of(s, ACT_PASS, 0); /* 0 to 0 */
    CHECK_EQ_STR(re, "0");
    free(re);
}

TEST(sgf_capture_go_and_torus) {
    game_settings s = settings_9x9();
    s.capture_target = 1;
    s.torus = true;
    referee *r = referee_new(&s);
    CHECK(r != NULL);
    if (!r) return;
    /* On a torus A1's neighbours are B1, A2, J1 and A9. */
    CHECK(play(r, BLACK, "B1") == 0);
    CHECK(play(r, WHITE, "A1") == 0);
    CHECK(play(r, BLACK, "A2") == 0);
    CHECK(play(r, WHITE, "E5") == 0);
    CHECK(play(r, BLACK, "J1") == 0);
    CHECK(play(r, WHITE, "E6") == 0);
    CHECK(play(r, BLACK, "A9") == 0); /* captures A1: first capture wins */
    char *sgf = sgf_record_new(r, NULL);
    CHECK(sgf != NULL);
    if (sgf) {
        CHECK(strstr(sgf, "RE[B+]") != NULL);
        CHECK(strstr(sgf, "PGTORUS[true]PGCAPTURE[1]PGEND[capture]") != NULL);
        CHECK(strstr(sgf, "RU[Phantom Go, olympiad referee, area scoring, simple ko, torus, capture Go]") !=
              NULL);
        CHECK(strstr(sgf, ";B[aa]PGCAPTURED[ai]C[Black plays A9. Captures 1: A1. Black reaches the capture "
                          "target and wins.])") != NULL);
    }
    free(sgf);
    referee_free(r);
}

TEST(sgf_no_record_while_the_game_is_on) {
    game_settings s = settings_9x9();
    referee *r = referee_new(&s);
    CHECK(r != NULL);
    if (!r) return;
    CHECK(sgf_record_new(r, NULL) == NULL);
    CHECK(play(r, BLACK, "E5") == 0);
    CHECK(play(r, WHITE, "E5") == 0);
    CHECK(act(r, ACT_PASS, WHITE, NULL) == 0);
    CHECK(sgf_record_new(r, NULL) == NULL); /* one pass does not end it */
    CHECK(act(r, ACT_PASS, BLACK, NULL) == 0);
    char *sgf = sgf_record_new(r, NULL);
    CHECK(sgf != NULL);
    free(sgf);
    referee_free(r);
}
