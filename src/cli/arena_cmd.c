/* `phantomgo arena`: plays two computer players against each other and
 * measures the difference in strength (the bot ladder, `make bench-bot`).
 *
 *   phantomgo arena --a strong --b flat --games 400 [--size 9] [--komi 7.5]
 *                   [--rules olympiad|common|hamburg] [--ko simple|superko]
 *                   [--torus] [--handicap N] [--capture N] [--threads K] [--seed S]
 *                   [--timeout SECONDS] [--sgf DIR] [--opening PLIES]
 *                   [--sprt ELO0,ELO1 [--alpha A] [--beta B]]
 *
 * Game i gives A black when i is even, white when odd, and has its own
 * seed, so results do not depend on how games are spread over threads.
 * --opening N starts every game with N random moves on the third line and
 * above, played by the arena for both sides (the players observe them as
 * their own and the opponent's moves), so that deterministic players still
 * meet in many different games.
 *
 * --sprt plays the match as a sequential probability ratio test (see
 * arena_stats.h): games go in pairs, both of a pair from the same seed
 * and opening with the colours swapped (a thread plays a pair), and after
 * each pair the pentanomial LLR is updated; the match stops when it
 * crosses a bound (from the tenth pair on, so that a lucky start cannot
 * decide it), or after --games games. The games under way when it stops
 * are finished and counted. `make bench-bot BASE=...` (bench/sprt.sh)
 * uses it to test the working tree's player against a base binary.
 * Games run in parallel on K threads (default: the cores available), each
 * player single-threaded, so the time per move and the playouts per second
 * printed are one core's. The arena is a referee-side tool: it holds the
 * truth, but each player only ever receives view_observe output for its
 * own colour, folded into its bot_memory, exactly as the server does.
 * A game that reaches the event cap (a very long ko fight between weak
 * players) is ended by two passes, so it is scored on the board as it
 * stands.
 *
 * A player "gtp:COMMAND" is an external engine speaking the Phantom Go
 * dialect of GTP (docs/GTP.md): each arena thread runs it as its own
 * process, reused game after game (clear_board), and sends it what its
 * seat observed, one report a referee event, written from view_observe's
 * output like everything else. An engine that crashes, times out, answers
 * a command with an error or garbage, or attempts what the referee refuses
 * (its own stone, a point already tried) loses that game by forfeit (by
 * timeout when it was thinking); the game and the reason are printed and
 * counted, and a fresh process plays the next game.
 *
 * Prints a progress line per finished game on stderr (so a match cut
 * short still tells its score so far), then the result in words and
 * machine-readable lines starting with "RESULT" for bench/bot-ladder.sh;
 * for a strong player in this process, also how well it foresaw what it
 * could not see (arena_forecast.h).
 * SIGINT or SIGTERM (a long SPRT stopped by hand) prints that report
 * at once for the games finished so far, the games under way dropped,
 * and exits with 128 + the signal (SIGINT only when not ignored, as a
 * shell's background job has it): the workers block both signals and
 * a watcher thread waits for them (sigwait), so the report is printed
 * by an ordinary thread under the progress lock, never from a handler. */
#include "commands.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <signal.h>
#include <sys/stat.h>

#include "bot/bot.h"
#include "cli/arena_forecast.h"
#include "cli/arena_stats.h"
#include "cli/game_seed.h"
#include "cli/gtp_client.h"
#include "cli/gtp_report.h"
#include "engine/referee.h"
#include "engine/rng.h"
#include "engine/vertex.h"
#include "engine/view.h"
#include "util/now.h"
#include "wire/sgf.h"

typedef struct side_totals {
    long decisions, turns, playouts;
    double seconds;
    forecast_totals forecast; /* the strong player's (arena_forecast.h) */
} side_totals;

typedef struct game_record {
    double a_score; /* 1 win, 0.5 jigo, 0 loss for A */
    bool a_black;
    bool capped;
    side_totals side[2]; /* [0] A, [1] B */
    int refused;         /* actions the referee refused: a bot bug */
    int forfeit;         /* -1, or the side (0 A, 1 B) that lost by a protocol failure */
    char why[200];       /* what that side did wrong */
} game_record;

typedef struct arena {
    game_settings settings;
    bot_config player[2]; /* [0] A, [1] B */
    const char *name[2];
    const char *gtp_command[2]; /* an external engine's command, or NULL */
    int timeout_ms;             /* per GTP command */
    const char *sgf_dir;        /* write each game's SGF there, or NULL */
    int games, threads;
    int opening; /* random plies at the start of each game */
    uint64_t seed;
    bool sprt_on; /* games in pairs, stopping on the SPRT's verdict */
    sprt_run sprt;
    atomic_int next_unit; /* the next game, or the next pair under --sprt */
    atomic_int finished;
    atomic_bool stop;              /* the SPRT has decided */
    pthread_mutex_t progress_lock; /* guards what follows and the lines */
    bool reported;                 /* the report is printed: no second one */
    int stopped_by;                /* the signal that stopped the match, or 0 */
    double a_score_sum;
    game_record *records; /* a worker's own until counted */
    bool *counted;        /* [game]: finished and counted, so reported */
} arena;

/* One game in progress: the truth, and what each side needs to play it.
 * who 0 is A, 1 is B; engines[who] are the worker's processes (NULL for a
 * built-in player), kept from game to game. */
typedef struct game_ctx {
    const arena *ar;
    referee *r;
    int colour[2];
    bot_memory *mem;      /* [colour]: the built-in players' memories */
    bot_carry *carry;     /* [colour]: their carries (bot_carry) */
    gtp_client **engines; /* [who] */
    point expected[3];    /* [colour]: the reply its played decision expected */
    game_record *rec;
    uint64_t seed;
    int index;
} game_ctx;

static bool is_gtp(const game_ctx *g, int who) { return g->ar->gtp_command[who] != NULL; }

/* Side who loses by a protocol failure: the reason is kept, its engine is
 * stopped (the next game starts a fresh one) and the referee ends the game
 * by timeout if it was thinking, else by forfeit. */
static void lose_by_failure(game_ctx *g, int who, bool thinking, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void lose_by_failure(game_ctx *g, int who, bool thinking, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->rec->why, sizeof g->rec->why, fmt, ap);
    va_end(ap);
    g->rec->forfeit = who;
    gtp_client_stop(g->engines[who]);
    g->engines[who] = NULL;
    int colour = g->colour[who];
    bool timeout = thinking && referee_to_move(g->r) == colour;
    referee_apply(g->r, (action){ timeout ? ACT_TIMEOUT : ACT_FORFEIT, colour, NO_POINT }, NULL);
}

/* Sends one command to side who's engine; false (the side has lost) if it
 * does not answer "=". */
static bool ask(game_ctx *g, int who, const char *command, bool thinking, char *answer, size_t len) {
    gtp_outcome o = gtp_client_ask(g->engines[who], command, g->ar->timeout_ms, answer, len);
    if (o == GTP_OK) return true;
    lose_by_failure(g, who, thinking && o == GTP_TIMEOUT, "'%.80s' %s: %.100s", command, gtp_outcome_name(o),
                    answer);
    return false;
}

/* Starts side who's engine if needed and sets up the table and its seat. */
static bool engine_new_game(game_ctx *g, int who) {
    const game_settings *s = &g->ar->settings;
    char err[200], answer[256], cmd[5][64];
    if (!g->engines[who] && !(g->engines[who] = gtp_client_start(g->ar->gtp_command[who], err, sizeof err))) {
        lose_by_failure(g, who, false, "cannot start the engine: %s", err);
        return false;
    }
    snprintf(cmd[0], sizeof cmd[0], "boardsize %d", s->size);
    snprintf(cmd[1], sizeof cmd[1], "komi %g", s->komi_x2 / 2.0);
    snprintf(cmd[2], sizeof cmd[2], "phantom-rules %s", gtp_rules_name(s->rules));
    snprintf(cmd[3], sizeof cmd[3], "phantom-capture_target %d", s->capture_target);
    snprintf(cmd[4], sizeof cmd[4], "phantom-seat %s", gtp_colour_name(g->colour[who]));
    const char *setup[] = { cmd[0],
                            "clear_board",
                            cmd[1],
                            cmd[2],
                            s->ko == KO_SUPERKO ? "phantom-ko superko" : "phantom-ko simple",
                            s->torus ? "phantom-torus on" : "phantom-torus off",
                            cmd[3],
                            cmd[4] };
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++)
        if (!ask(g, who, setup[i], false, answer, sizeof answer)) return false;
    char seed[64];
    snprintf(seed, sizeof seed, "phantom-seed %llu", (unsigned long long)g->seed);
    if (!ask(g, who, seed, false, answer, sizeof answer)) return false;
    if (s->handicap > 0) {
        char hc[32];
        snprintf(hc, sizeof hc, "fixed_handicap %d", s->handicap);
        if (!ask(g, who, hc, false, answer, sizeof answer)) return false;
    }
    return true;
}

/* Tells both sides events from..to, each as its own colour observes it. */
static bool observe_events(game_ctx *g, int from, int to) {
    observation ob;
    char report[8192], answer[256];
    for (int seq = from; seq <= to; seq++)
        for (int who = 0; who < 2; who++) {
            int c = g->colour[who];
            if (!view_observe(g->r, (viewer)c, seq, &ob)) continue;
            if (!is_gtp(g, who)) bot_memory_apply(&g->mem[c], &ob);
            else if (gtp_report_write(&ob, g->ar->settings.size, report, sizeof report) &&
                     !ask(g, who, report, false, answer, sizeof answer))
                return false;
        }
    return true;
}

/* Side who's engine chooses an action (its time goes to *seconds). */
static bool engine_choose(game_ctx *g, int who, action *act, double *seconds) {
    char cmd[32], answer[256];
    int colour = g->colour[who];
    snprintf(cmd, sizeof cmd, "genmove %s", gtp_colour_name(colour));
    double t0 = now_monotonic_s();
    bool ok = ask(g, who, cmd, true, answer, sizeof answer);
    *seconds = now_monotonic_s() - t0;
    if (!ok) return false;
    point p;
    *act = (action){ ACT_ATTEMPT, colour, NO_POINT };
    if (!strcasecmp(answer, "resign")) act->kind = ACT_RESIGN;
    else if (!vertex_parse(answer, g->ar->settings.size, &p)) {
        for (char *c = answer; *c; c++) *c = (char)tolower((unsigned char)*c);
        if (!vertex_parse(answer, g->ar->settings.size, &p)) {
            lose_by_failure(g, who, false, "'%s' answered '%.60s', not a vertex", cmd, answer);
            return false;
        }
    }
    if (act->kind == ACT_ATTEMPT) {
        act->kind = p == PASS_POINT ? ACT_PASS : ACT_ATTEMPT;
        act->point = p;
    }
    return true;
}

/* A move or pass ev was played, answering side who's last played
 * decision: scores the reply that decision expected, if it named one,
 * and keeps `expected`, the mover's own, for the answer to ev. */
static void score_expected_reply(game_ctx *g, int who, const ref_event *ev, point expected) {
    int colour = g->colour[who];
    forecast_totals *f = &g->rec->side[who].forecast;
    if (g->expected[colour] != NO_POINT) {
        f->replies_expected++;
        f->replies_matched += ev->kind == EV_MOVE && ev->point == g->expected[colour];
    }
    g->expected[colour] = NO_POINT;
    g->expected[ev->color] = expected;
}

/* The side to move acts; false when the game ended by its failure. */
static bool take_turn(game_ctx *g, int seen) {
    int colour = referee_to_move(g->r), who = colour == g->colour[0] ? 0 : 1;
    side_totals *t = &g->rec->side[who];
    action act;
    bot_stats st = { 0, 0, NO_POINT, NO_POINT };
    if (is_gtp(g, who)) {
        if (!engine_choose(g, who, &act, &st.seconds)) return false;
    } else {
        uint64_t seed = seed_of_decision(g->seed, seen);
        if (g->ar->player[who].kind == BOT_STRONG && g->mem[colour].view.n_tried == 0)
            forecast_score_belief(&g->mem[colour], bot_carry_expected_map(&g->carry[colour], &g->mem[colour]),
                                  referee_truth_board(g->r), seed_mix(~seed), &t->forecast);
        point p = bot_choose(&g->ar->player[who], &g->mem[colour], seed, &g->carry[colour], &st);
        act = (action){ p == PASS_POINT ? ACT_PASS : ACT_ATTEMPT, colour, p };
    }
    const ref_event *ev;
    refusal why = referee_apply(g->r, act, &ev);
    if (why != REFUSE_NONE && is_gtp(g, who)) {
        char v[VERTEX_BUF];
        lose_by_failure(g, who, false, "attempted %s, which the referee refuses (%s)",
                        vertex_format(act.point, g->ar->settings.size, v),
                        why == REFUSE_OWN_STONE       ? "its own stone"
                        : why == REFUSE_ALREADY_TRIED ? "already tried this turn"
                                                      : "not a point of the board");
        return false;
    }
    if (why != REFUSE_NONE) {
        g->rec->refused++; /* never expected of a built-in player; pass so the game goes on */
        referee_apply(g->r, (action){ ACT_PASS, colour, NO_POINT }, &ev);
    }
    t->decisions++;
    t->playouts += st.playouts;
    t->seconds += st.seconds;
    if (ev->kind != EV_ILLEGAL) t->turns++;
    if (ev->kind == EV_MOVE || ev->kind == EV_PASS) score_expected_reply(g, 1 - who, ev, st.expected_reply);
    return true;
}

static void write_sgf(const game_ctx *g) {
    sgf_meta meta = { NULL, g->ar->name[g->colour[0] == BLACK ? 0 : 1],
                      g->ar->name[g->colour[0] == BLACK ? 1 : 0], 0 };
    char id[32], path[4096];
    snprintf(id, sizeof id, "arena-%d", g->index + 1);
    meta.game_id = id;
    char *text = sgf_record_new(g->r, &meta);
    snprintf(path, sizeof path, "%s/game-%04d.sgf", g->ar->sgf_dir, g->index + 1);
    FILE *f = text ? fopen(path, "w") : NULL;
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) fprintf(stderr, "arena: cannot write %s\n", path);
    free(text);
}

/* Plays the opening: ar->opening random legal moves, away from the first
 * two lines where the board is big enough, drawn from the game's seed, so
 * both games of a pair (same seed) open alike. */
static void play_opening(game_ctx *g) {
    const board *truth = referee_truth_board(g->r);
    int min_line = g->ar->settings.size >= 7 ? 2 : 0;
    rng r;
    rng_seed(&r, seed_mix(g->seed ^ 0x6f70656e696e67ull));
    for (int ply = 0; ply < g->ar->opening && referee_to_move(g->r) != EMPTY; ply++) {
        int colour = referee_to_move(g->r), n = 0;
        point choice[BOARD_MAX_POINTS];
        for (point p = 0; p < board_points(truth); p++)
            if (board_edge_distance(truth, p) >= min_line && board_at(truth, p) == EMPTY &&
                board_check(truth, colour, p) == MOVE_OK && !board_is_eye(truth, colour, p))
                choice[n++] = p;
        if (n == 0) return;
        const ref_event *ev;
        point p = choice[rng_below(&r, (uint32_t)n)];
        if (referee_apply(g->r, (action){ ACT_ATTEMPT, colour, p }, &ev) != REFUSE_NONE ||
            ev->kind != EV_MOVE)
            return; /* superko, say: the players take over from here */
    }
}

static void play_game(const arena *ar, int index, game_record *rec, gtp_client *engines[2]) {
    memset(rec, 0, sizeof *rec);
    rec->forfeit = -1;
    rec->a_black = index % 2 == 0;
    game_ctx g = { ar,
                   referee_new(&ar->settings),
                   { rec->a_black ? BLACK : WHITE, rec->a_black ? WHITE : BLACK },
                   malloc(3 * sizeof(bot_memory)),
                   malloc(3 * sizeof(bot_carry)),
                   engines,
                   { NO_POINT, NO_POINT, NO_POINT },
                   rec,
                   seed_of_game(ar->seed, ar->sprt_on ? index / 2 : index),
                   index };
    if (!g.r || !g.mem || !g.carry) {
        rec->refused = 1;
        referee_free(g.r);
        free(g.mem);
        free(g.carry);
        return;
    }
    bot_memory_init(&g.mem[BLACK], &ar->settings, BLACK);
    bot_memory_init(&g.mem[WHITE], &ar->settings, WHITE);
    bot_carry_init(&g.carry[BLACK]);
    bot_carry_init(&g.carry[WHITE]);
    for (int who = 0; who < 2; who++)
        if (is_gtp(&g, who) && referee_to_move(g.r) != EMPTY) engine_new_game(&g, who);
    if (rec->forfeit < 0) play_opening(&g);
    int seen = 0, cap = 40 * ar->settings.size * ar->settings.size;
    while (referee_to_move(g.r) != EMPTY && seen < cap) {
        if (!observe_events(&g, seen + 1, referee_event_count(g.r))) break;
        seen = referee_event_count(g.r);
        if (!take_turn(&g, seen)) break;
    }
    rec->capped = referee_to_move(g.r) != EMPTY;
    for (int i = 0; i < 2 && referee_to_move(g.r) != EMPTY; i++) /* the cap: score as it stands */
        referee_apply(g.r, (action){ ACT_PASS, referee_to_move(g.r), NO_POINT }, NULL);
    game_result res = referee_result(g.r);
    int a_colour = g.colour[0];
    rec->a_score = res.winner == EMPTY ? 0.5 : res.winner == a_colour ? 1.0 : 0.0;
    if (ar->sgf_dir) write_sgf(&g);
    free(g.mem);
    free(g.carry);
    referee_free(g.r);
}

/* Counts a finished game (under the progress lock) and prints its line. */
static void count_game(arena *ar, int i) {
    const game_record *rec = &ar->records[i];
    ar->counted[i] = true;
    ar->a_score_sum += rec->a_score;
    int done = atomic_fetch_add(&ar->finished, 1) + 1;
    if (rec->forfeit >= 0)
        fprintf(stderr, "arena: game %d: %s (%s) lost by a protocol failure: %s\n", i + 1,
                rec->forfeit == 0 ? "A" : "B", ar->name[rec->forfeit], rec->why);
    fprintf(stderr, "arena: %d/%d games, A %.1f\n", done, ar->games, ar->a_score_sum);
}

/* Counts a finished pair (under the progress lock) in the SPRT, and stops
 * the match when the test has decided. */
static void count_pair(arena *ar, int first) {
    const game_record *g = &ar->records[first];
    int half_points = (int)lround(2 * (g[0].a_score + g[1].a_score));
    bool decided = sprt_run_add_pair(&ar->sprt, half_points);
    const sprt_state *v = &ar->sprt.now;
    fprintf(stderr, "arena: pair %ld: A %.1f of 2, LLR %.2f [%.2f, %.2f], Elo %+.1f [%+.1f, %+.1f]\n",
            sprt_run_pairs(&ar->sprt), g[0].a_score + g[1].a_score, v->llr, v->lower, v->upper, v->elo,
            v->elo_low, v->elo_high);
    if (decided) atomic_store(&ar->stop, true);
}

static void *worker(void *arg) {
    arena *ar = arg;
    gtp_client *engines[2] = { NULL, NULL };
    int per_unit = ar->sprt_on ? 2 : 1;
    while (!atomic_load(&ar->stop)) {
        int u = atomic_fetch_add(&ar->next_unit, 1);
        if (u >= ar->games / per_unit) break;
        for (int i = u * per_unit; i < (u + 1) * per_unit; i++) {
            play_game(ar, i, &ar->records[i], engines);
            pthread_mutex_lock(&ar->progress_lock);
            count_game(ar, i);
            if (ar->sprt_on && i % 2 == 1) count_pair(ar, i - 1);
            fflush(stderr);
            pthread_mutex_unlock(&ar->progress_lock);
        }
    }
    gtp_client_stop(engines[0]);
    gtp_client_stop(engines[1]);
    return NULL;
}

/* A player's name as one word for the RESULT lines (a gtp: command has spaces). */
static const char *result_word(const char *name, char *buf, size_t len) {
    snprintf(buf, len, "%s", name);
    for (char *c = buf; *c; c++)
        if (isspace((unsigned char)*c) || *c == '=') *c = '_';
    return buf;
}

/* The strong player's forecasts (arena_forecast.h), when it made any. */
static void print_forecast(int who, const forecast_totals *f) {
    if (f->belief_points == 0 && f->replies_expected == 0) return;
    double bits = f->belief_points ? f->belief_bits / f->belief_points : 0;
    double uniform = f->belief_points ? f->uniform_bits / f->belief_points : 0;
    double matched = f->replies_expected ? (double)f->replies_matched / f->replies_expected : 0;
    printf("    its belief: %.4f bits a hidden point (a uniform one: %.4f) over %ld points; the reply it "
           "expected was played %.1f%% of %ld times\n",
           bits, uniform, f->belief_points, 100 * matched, f->replies_expected);
    printf("RESULT forecast side=%s belief_bits=%.5f uniform_bits=%.5f points=%ld replies_expected=%ld "
           "replies_matched=%ld\n",
           who == 0 ? "a" : "b", bits, uniform, f->belief_points, f->replies_expected, f->replies_matched);
}

static void print_side(const arena *ar, int who) {
    char word[256];
    side_totals t = { 0 };
    for (int i = 0; i < ar->games; i++) {
        if (!ar->counted[i]) continue;
        const side_totals *s = &ar->records[i].side[who];
        t.decisions += s->decisions;
        t.turns += s->turns;
        t.playouts += s->playouts;
        t.seconds += s->seconds;
        forecast_add(&t.forecast, &s->forecast);
    }
    double per_move = t.turns ? t.seconds / t.turns : 0;
    double per_s = t.seconds > 0 ? t.playouts / t.seconds : 0;
    double attempts = t.turns ? (double)t.decisions / t.turns : 0;
    printf("  %s (%s): %.4f s per move, %.2f attempts per move, %.0f playouts/s\n", who == 0 ? "A" : "B",
           ar->name[who], per_move, attempts, per_s);
    printf("RESULT side=%s name=%s sec_per_move=%.5f attempts_per_move=%.3f "
           "playouts_per_sec=%.0f\n",
           who == 0 ? "a" : "b", result_word(ar->name[who], word, sizeof word), per_move, attempts, per_s);
    print_forecast(who, &t.forecast);
}

static const char *verdict_name(sprt_verdict v) { return v == SPRT_H1 ? "H1" : v == SPRT_H0 ? "H0" : "none"; }

/* The SPRT's outcome: pairs, LLR against its bounds, the verdict, and the
 * Elo difference with its interval from the pairs' variance. */
static void print_sprt(const arena *ar) {
    const sprt_run *run = &ar->sprt;
    const sprt_state *v = &run->now;
    const long *c = run->pairs;
    long n = sprt_run_pairs(run);
    printf("  SPRT elo0 %g elo1 %g alpha %g beta %g, pentanomial over %ld pairs (A's points 0, 0.5, 1, 1.5, "
           "2: %ld %ld %ld %ld %ld)\n",
           run->test.elo0, run->test.elo1, run->test.alpha, run->test.beta, n, c[0], c[1], c[2], c[3], c[4]);
    printf("  LLR %.3f [%.3f, %.3f]: %s", v->llr, v->lower, v->upper,
           run->decision == SPRT_H1   ? "H1 accepted (A is stronger by about elo1)"
           : run->decision == SPRT_H0 ? "H0 accepted (A is not stronger by elo1)"
           : ar->stopped_by           ? "no decision before the match was stopped"
                                      : "no decision within the games allowed");
    if (run->decision != SPRT_CONTINUE && run->decided_at < n)
        printf(" at pair %ld (LLR %.3f); the %ld pairs still in play then are counted here", run->decided_at,
               run->decided_llr, n - run->decided_at);
    printf("\n  score %.1f%%, Elo %+.1f [%+.1f, %+.1f] (95%%, pentanomial)\n", 100 * v->score, v->elo,
           v->elo_low, v->elo_high);
    printf("RESULT sprt pairs=%ld penta=%ld,%ld,%ld,%ld,%ld llr=%.4f lower=%.4f upper=%.4f verdict=%s "
           "decided_at=%ld decided_llr=%.4f score=%.4f elo=%.1f elo_low=%.1f elo_high=%.1f\n",
           n, c[0], c[1], c[2], c[3], c[4], v->llr, v->lower, v->upper, verdict_name(run->decision),
           run->decided_at, run->decided_llr, v->score, v->elo, v->elo_low, v->elo_high);
}

static void print_report(const arena *ar, double wall) {
    double wins = 0, as_black = 0, as_white = 0;
    int capped = 0, refused = 0, black_games = 0, forfeits[2] = { 0, 0 }, n = 0;
    for (int i = 0; i < ar->games; i++) {
        if (!ar->counted[i]) continue;
        const game_record *g = &ar->records[i];
        n++;
        if (g->forfeit >= 0) forfeits[g->forfeit]++;
        wins += g->a_score;
        if (g->a_black) {
            as_black += g->a_score;
            black_games++;
        } else as_white += g->a_score;
        capped += g->capped;
        refused += g->refused;
    }
    if (n == 0) {
        printf("arena: no game was finished\n");
        return;
    }
    interval iv = wilson95(wins, n);
    double p = wins / n;
    char capture[32] = "";
    if (ar->settings.capture_target > 0)
        snprintf(capture, sizeof capture, " capture %d", ar->settings.capture_target);
    printf("arena: A=%s vs B=%s, %dx%d%s%s komi %.1f, %d games, %d threads, seed %llu, %.0f s\n", ar->name[0],
           ar->name[1], ar->settings.size, ar->settings.size, ar->settings.torus ? " torus" : "", capture,
           ar->settings.komi_x2 / 2.0, n, ar->threads, (unsigned long long)ar->seed, wall);
    printf("  A won %.1f of %d (as black %.1f/%d, as white %.1f/%d)\n", wins, n, as_black, black_games,
           as_white, n - black_games);
    printf("  win rate %.1f%%, 95%% interval [%.1f%%, %.1f%%] (Wilson)\n", 100 * p, 100 * iv.low,
           100 * iv.high);
    printf("  Elo difference %+.0f [%+.0f, %+.0f]\n", elo_of(p), elo_of(iv.low), elo_of(iv.high));
    if (capped || refused) printf("  %d games hit the event cap, %d actions were refused\n", capped, refused);
    for (int i = 0, shown = 0; i < n; i++) {
        const game_record *g = &ar->records[i];
        if (g->forfeit < 0 || shown++ >= 20) continue;
        printf("  game %d: %s (%s) lost by a protocol failure: %s\n", i + 1, g->forfeit == 0 ? "A" : "B",
               ar->name[g->forfeit], g->why);
    }
    char word_a[256], word_b[256];
    printf("RESULT a=%s b=%s games=%d wins=%.1f rate=%.4f low=%.4f high=%.4f "
           "elo=%.0f elo_low=%.0f elo_high=%.0f capped=%d refused=%d forfeits_a=%d forfeits_b=%d\n",
           result_word(ar->name[0], word_a, sizeof word_a), result_word(ar->name[1], word_b, sizeof word_b),
           n, wins, p, iv.low, iv.high, elo_of(p), elo_of(iv.low), elo_of(iv.high), capped, refused,
           forfeits[0], forfeits[1]);
    print_side(ar, 0);
    print_side(ar, 1);
    if (ar->sprt_on) print_sprt(ar);
}

/* The watcher: waits for SIGINT or SIGTERM (blocked in every thread) and
 * then prints the report of the games finished so far and exits, unless
 * the match has already reported (cmd_arena then wakes it with SIGTERM to
 * end it). */
typedef struct watch {
    arena *ar;
    sigset_t signals;
    double t0;
} watch;

static void *watcher(void *arg) {
    watch *w = arg;
    int sig = 0;
    if (sigwait(&w->signals, &sig) != 0) return NULL;
    pthread_mutex_lock(&w->ar->progress_lock);
    if (w->ar->reported) {
        pthread_mutex_unlock(&w->ar->progress_lock);
        return NULL;
    }
    w->ar->stopped_by = sig;
    fprintf(stderr, "arena: %s: the report counts the %d finished games; those under way are dropped\n",
            sig == SIGINT ? "interrupted" : "terminated", atomic_load(&w->ar->finished));
    print_report(w->ar, now_monotonic_s() - w->t0);
    fflush(stdout);
    fflush(stderr);
    _exit(128 + sig); /* the workers are mid-game: no exit handlers, no joins */
}

static const char usage_text[] =
    "usage: phantomgo arena --a PLAYER --b PLAYER --games N [--size 9] [--komi 7.5]\n"
    "                       [--rules olympiad|common|hamburg] [--ko simple|superko]\n"
    "                       [--torus] [--handicap N]\n"
    "                       [--capture N] [--threads K] [--seed S]\n"
    "                       [--timeout SECONDS] [--sgf DIR] [--opening PLIES]\n"
    "                       [--sprt ELO0,ELO1 [--alpha A] [--beta B]]\n"
    "  PLAYER: random, heuristic, flat, strong or reference (the textbook ISMCTS),\n"
    "          the last three optionally :N (N playouts a\n"
    "          decision; default 10000) or :Nms (N milliseconds a decision);\n"
    "          or gtp:COMMAND, an engine speaking docs/GTP.md (one process a\n"
    "          thread; --timeout, default 60, bounds each of its answers).\n"
    "  --sgf DIR writes every game's record to DIR/game-NNNN.sgf.\n"
    "  Colours alternate (A is black in even games); each game has its own seed.\n"
    "  --opening PLIES: each game opens with that many random moves (3rd line up).\n"
    "  --sprt ELO0,ELO1: a sequential test (alpha, beta default 0.05) over pairs of\n"
    "          games (same seed and opening, colours swapped), stopping when the\n"
    "          LLR crosses a bound (from the 10th pair on, once 5 pairs were not\n"
    "          split one game each) or after --games games (an odd count is\n"
    "          rounded up to whole pairs).\n";

static bool parse_rules(const char *s, referee_rules *out) {
    static const char *names[] = { "olympiad", "common", "hamburg" };
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *out = (referee_rules)i;
            return true;
        }
    return false;
}

/* Fills ar from argv; prints the problem and returns false on bad input. */
static bool parse_args(int argc, char **argv, arena *ar) {
    static const struct option opts[] = {
        { "a", required_argument, 0, 'a' },       { "b", required_argument, 0, 'b' },
        { "games", required_argument, 0, 'g' },   { "size", required_argument, 0, 's' },
        { "komi", required_argument, 0, 'k' },    { "rules", required_argument, 0, 'r' },
        { "torus", no_argument, 0, 't' },         { "handicap", required_argument, 0, 'h' },
        { "capture", required_argument, 0, 'c' }, { "threads", required_argument, 0, 'j' },
        { "seed", required_argument, 0, 'S' },    { "timeout", required_argument, 0, 'T' },
        { "sgf", required_argument, 0, 'o' },     { "ko", required_argument, 0, 'K' },
        { "opening", required_argument, 0, 'O' }, { "sprt", required_argument, 0, 'P' },
        { "alpha", required_argument, 0, 'A' },   { "beta", required_argument, 0, 'B' },
        { "help", no_argument, 0, '?' },          { 0, 0, 0, 0 },
    };
    bool komi_set = false;
    double komi = 0;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'a': ar->name[0] = optarg; break;
        case 'b': ar->name[1] = optarg; break;
        case 'g': ar->games = atoi(optarg); break;
        case 's': ar->settings.size = atoi(optarg); break;
        case 'k':
            komi = atof(optarg);
            komi_set = true;
            break;
        case 'r':
            if (!parse_rules(optarg, &ar->settings.rules)) return false;
            break;
        case 't': ar->settings.torus = true; break;
        case 'h': ar->settings.handicap = atoi(optarg); break;
        case 'c': ar->settings.capture_target = atoi(optarg); break;
        case 'j': ar->threads = atoi(optarg); break;
        case 'S': ar->seed = strtoull(optarg, NULL, 10); break;
        case 'T': ar->timeout_ms = (int)lround(atof(optarg) * 1000); break;
        case 'o': ar->sgf_dir = optarg; break;
        case 'O': ar->opening = atoi(optarg); break;
        case 'P':
            if (sscanf(optarg, "%lf,%lf", &ar->sprt.test.elo0, &ar->sprt.test.elo1) != 2 ||
                ar->sprt.test.elo1 <= ar->sprt.test.elo0)
                return false;
            ar->sprt_on = true;
            break;
        case 'A': ar->sprt.test.alpha = atof(optarg); break;
        case 'B': ar->sprt.test.beta = atof(optarg); break;
        case 'K':
            if (strcmp(optarg, "simple") && strcmp(optarg, "superko")) return false;
            ar->settings.ko = strcmp(optarg, "simple") ? KO_SUPERKO : KO_SIMPLE;
            break;
        default: return false;
        }
    }
    ar->settings.komi_x2 = komi_set ? (int)lround(komi * 2) : settings_default_komi_x2(ar->settings.handicap);
    if (optind != argc || !ar->name[0] || !ar->name[1] || ar->games <= 0 || ar->threads <= 0 ||
        ar->timeout_ms <= 0 || ar->opening < 0 || !(ar->sprt.test.alpha > 0 && ar->sprt.test.alpha < 0.5) ||
        !(ar->sprt.test.beta > 0 && ar->sprt.test.beta < 0.5))
        return false;
    if (ar->sprt_on) ar->games += ar->games % 2; /* whole pairs */
    for (int i = 0; i < 2; i++) {
        if (!strncmp(ar->name[i], "gtp:", 4) && ar->name[i][4]) {
            ar->gtp_command[i] = ar->name[i] + 4;
            continue;
        }
        if (!bot_config_parse(ar->name[i], &ar->player[i])) {
            fprintf(stderr, "arena: unknown player '%s'\n", ar->name[i]);
            return false;
        }
    }
    if (ar->sgf_dir && mkdir(ar->sgf_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "arena: cannot create %s: %s\n", ar->sgf_dir, strerror(errno));
        return false;
    }
    const char *bad = settings_validate(&ar->settings);
    if (bad) fprintf(stderr, "arena: %s\n", bad);
    return bad == NULL;
}

int cmd_arena(int argc, char **argv) {
    arena ar;
    memset(&ar, 0, sizeof ar);
    ar.settings = settings_default();
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    ar.threads = cores > 0 ? (int)cores : 1;
    ar.seed = 1;
    ar.timeout_ms = 60000;
    ar.sprt = sprt_run_start((sprt_test){ 0, 10, 0.05, 0.05 });
    if (!parse_args(argc, argv, &ar)) {
        fputs(usage_text, stderr);
        return 2;
    }
    int units = ar.sprt_on ? ar.games / 2 : ar.games;
    if (ar.threads > units) ar.threads = units;
    signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe is a lost game, not a dead arena */
    pthread_mutex_init(&ar.progress_lock, NULL);
    ar.records = calloc((size_t)ar.games, sizeof *ar.records);
    ar.counted = calloc((size_t)ar.games, sizeof *ar.counted);
    pthread_t *tids = calloc((size_t)ar.threads, sizeof *tids);
    if (!ar.records || !ar.counted || !tids) {
        fprintf(stderr, "arena: out of memory\n");
        free(ar.records);
        free(ar.counted);
        free(tids);
        return 1;
    }
    watch w = { .ar = &ar, .t0 = now_monotonic_s() };
    sigemptyset(&w.signals);
    struct sigaction inherited;
    if (sigaction(SIGINT, NULL, &inherited) == 0 && inherited.sa_handler != SIG_IGN)
        sigaddset(&w.signals, SIGINT); /* a shell's background job ignores it: left so */
    sigaddset(&w.signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &w.signals, NULL); /* before the threads, which inherit it */
    pthread_t watcher_tid;
    bool watching = pthread_create(&watcher_tid, NULL, watcher, &w) == 0;
    int started = 0;
    for (; started < ar.threads; started++)
        if (pthread_create(&tids[started], NULL, worker, &ar) != 0) break;
    if (started == 0) worker(&ar);
    for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
    pthread_mutex_lock(&ar.progress_lock);
    ar.reported = true;
    print_report(&ar, now_monotonic_s() - w.t0);
    pthread_mutex_unlock(&ar.progress_lock);
    if (watching) {
        pthread_kill(watcher_tid, SIGTERM);
        pthread_join(watcher_tid, NULL);
    }
    free(ar.records);
    free(ar.counted);
    free(tids);
    pthread_mutex_destroy(&ar.progress_lock);
    return 0;
}
