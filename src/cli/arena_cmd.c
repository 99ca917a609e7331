/* `phantomgo arena`: plays two computer players against each other and
 * measures the difference in strength (the bot ladder, `make bench-bot`).
 *
 *   phantomgo arena --a strong --b flat --games 400 [--size 9] [--komi 7.5]
 *                   [--rules olympiad|common|hamburg] [--torus]
 *                   [--handicap N] [--capture N] [--threads K] [--seed S]
 *
 * Game i gives A black when i is even, white when odd, and has its own
 * seed, so results do not depend on how games are spread over threads.
 * Games run in parallel on K threads (default: the cores available), each
 * player single-threaded, so the time per move and the playouts per second
 * printed are one core's. The arena is a referee-side tool: it holds the
 * truth, but each player only ever receives view_observe output for its
 * own colour, folded into its bot_memory, exactly as the server does.
 * A game that reaches the event cap (a very long ko fight between weak
 * players) is scored on the board as it stands.
 *
 * Prints a progress line per finished game on stderr (so a match cut
 * short still tells its score so far), then the result in words and
 * machine-readable lines starting with "RESULT" for bench/bot-ladder.sh. */
#include "commands.h"

#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/bot.h"
#include "cli/arena_stats.h"
#include "engine/referee.h"
#include "engine/view.h"
#include "util/now.h"

typedef struct side_totals {
    long decisions, turns, playouts;
    double seconds;
} side_totals;

typedef struct game_record {
    double a_score;          /* 1 win, 0.5 jigo, 0 loss for A */
    bool a_black;
    bool capped;
    side_totals side[2];     /* [0] A, [1] B */
    int refused;             /* actions the referee refused: a bot bug */
} game_record;

typedef struct arena {
    game_settings settings;
    bot_config player[2];    /* [0] A, [1] B */
    const char *name[2];
    int games, threads;
    uint64_t seed;
    atomic_int next_game;
    atomic_int finished;
    pthread_mutex_t progress_lock;   /* guards a_score_sum and the line */
    double a_score_sum;
    game_record *records;
} arena;

static uint64_t mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Folds events from..to of the referee into both players' memories. */
static void observe_events(const referee *r, bot_memory mem[3], int from, int to) {
    observation ob;
    for (int seq = from; seq <= to; seq++)
        for (int c = BLACK; c <= WHITE; c++)
            if (view_observe(r, (viewer)c, seq, &ob))
                bot_memory_apply(&mem[c], &ob);
}

static double capped_score_for(const referee *r, int colour) {
    int black, white;
    board_score_area(referee_truth_board(r), &black, &white);
    int diff = 2 * (black - white) - referee_settings(r)->komi_x2;
    if (diff == 0) return 0.5;
    return (diff > 0) == (colour == BLACK) ? 1.0 : 0.0;
}

static void play_game(const arena *ar, int index, game_record *rec) {
    memset(rec, 0, sizeof *rec);
    rec->a_black = index % 2 == 0;
    int a_colour = rec->a_black ? BLACK : WHITE;
    uint64_t game_seed = mix64(ar->seed ^ mix64((uint64_t)index));
    referee *r = referee_new(&ar->settings);
    if (!r) { rec->refused = 1; return; }
    bot_memory *mem = malloc(3 * sizeof *mem);
    if (!mem) { referee_free(r); rec->refused = 1; return; }
    bot_memory_init(&mem[BLACK], &ar->settings, BLACK);
    bot_memory_init(&mem[WHITE], &ar->settings, WHITE);
    int seen = 0, cap = 40 * ar->settings.size * ar->settings.size;
    while (referee_to_move(r) != EMPTY && seen < cap) {
        observe_events(r, mem, seen + 1, referee_event_count(r));
        seen = referee_event_count(r);
        int colour = referee_to_move(r), who = colour == a_colour ? 0 : 1;
        bot_stats st;
        point p = bot_choose(&ar->player[who], &mem[colour],
                             mix64(game_seed + (uint64_t)seen), &st);
        action act = { p == PASS_POINT ? ACT_PASS : ACT_ATTEMPT, colour, p };
        const ref_event *ev;
        if (referee_apply(r, act, &ev) != REFUSE_NONE) {
            rec->refused++;   /* never expected; pass so the game goes on */
            referee_apply(r, (action){ ACT_PASS, colour, NO_POINT }, &ev);
        }
        side_totals *t = &rec->side[who];
        t->decisions++;
        t->playouts += st.playouts;
        t->seconds += st.seconds;
        if (ev->kind != EV_ILLEGAL) t->turns++;
    }
    game_result res = referee_result(r);
    rec->capped = !res.over;
    if (rec->capped)
        rec->a_score = capped_score_for(r, a_colour);
    else
        rec->a_score = res.winner == EMPTY ? 0.5 : res.winner == a_colour ? 1.0 : 0.0;
    free(mem);
    referee_free(r);
}

static void *worker(void *arg) {
    arena *ar = arg;
    for (;;) {
        int i = atomic_fetch_add(&ar->next_game, 1);
        if (i >= ar->games) return NULL;
        play_game(ar, i, &ar->records[i]);
        pthread_mutex_lock(&ar->progress_lock);
        ar->a_score_sum += ar->records[i].a_score;
        int done = atomic_fetch_add(&ar->finished, 1) + 1;
        fprintf(stderr, "arena: %d/%d games, A %.1f\n", done, ar->games, ar->a_score_sum);
        fflush(stderr);
        pthread_mutex_unlock(&ar->progress_lock);
    }
}

static void print_side(const arena *ar, int who) {
    side_totals t = { 0, 0, 0, 0 };
    for (int i = 0; i < ar->games; i++) {
        const side_totals *s = &ar->records[i].side[who];
        t.decisions += s->decisions;
        t.turns += s->turns;
        t.playouts += s->playouts;
        t.seconds += s->seconds;
    }
    double per_move = t.turns ? t.seconds / t.turns : 0;
    double per_s = t.seconds > 0 ? t.playouts / t.seconds : 0;
    double attempts = t.turns ? (double)t.decisions / t.turns : 0;
    printf("  %s (%s): %.4f s per move, %.2f attempts per move, %.0f playouts/s\n",
           who == 0 ? "A" : "B", ar->name[who], per_move, attempts, per_s);
    printf("RESULT side=%s name=%s sec_per_move=%.5f attempts_per_move=%.3f "
           "playouts_per_sec=%.0f\n", who == 0 ? "a" : "b", ar->name[who],
           per_move, attempts, per_s);
}

static void print_report(const arena *ar, double wall) {
    double wins = 0, as_black = 0, as_white = 0;
    int capped = 0, refused = 0, black_games = 0;
    for (int i = 0; i < ar->games; i++) {
        const game_record *g = &ar->records[i];
        wins += g->a_score;
        if (g->a_black) { as_black += g->a_score; black_games++; }
        else as_white += g->a_score;
        capped += g->capped;
        refused += g->refused;
    }
    int n = ar->games;
    interval iv = wilson95(wins, n);
    double p = wins / n;
    char capture[32] = "";
    if (ar->settings.capture_target > 0)
        snprintf(capture, sizeof capture, " capture %d", ar->settings.capture_target);
    printf("arena: A=%s vs B=%s, %dx%d%s%s komi %.1f, %d games, %d threads, seed %llu, %.0f s\n",
           ar->name[0], ar->name[1], ar->settings.size, ar->settings.size,
           ar->settings.torus ? " torus" : "", capture, ar->settings.komi_x2 / 2.0, n,
           ar->threads, (unsigned long long)ar->seed, wall);
    printf("  A won %.1f of %d (as black %.1f/%d, as white %.1f/%d)\n", wins, n,
           as_black, black_games, as_white, n - black_games);
    printf("  win rate %.1f%%, 95%% interval [%.1f%%, %.1f%%] (Wilson)\n",
           100 * p, 100 * iv.low, 100 * iv.high);
    printf("  Elo difference %+.0f [%+.0f, %+.0f]\n", elo_of(p), elo_of(iv.low), elo_of(iv.high));
    if (capped || refused)
        printf("  %d games hit the event cap, %d actions were refused\n", capped, refused);
    printf("RESULT a=%s b=%s games=%d wins=%.1f rate=%.4f low=%.4f high=%.4f "
           "elo=%.0f elo_low=%.0f elo_high=%.0f capped=%d refused=%d\n",
           ar->name[0], ar->name[1], n, wins, p, iv.low, iv.high, elo_of(p),
           elo_of(iv.low), elo_of(iv.high), capped, refused);
    print_side(ar, 0);
    print_side(ar, 1);
}

static const char usage_text[] =
    "usage: phantomgo arena --a PLAYER --b PLAYER --games N [--size 9] [--komi 7.5]\n"
    "                       [--rules olympiad|common|hamburg] [--torus] [--handicap N]\n"
    "                       [--capture N] [--threads K] [--seed S]\n"
    "  PLAYER: random, heuristic, flat or strong, optionally :N (N playouts a\n"
    "          decision; default 10000) or :Nms (N milliseconds a decision).\n"
    "  Colours alternate (A is black in even games); each game has its own seed.\n";

static bool parse_rules(const char *s, referee_rules *out) {
    static const char *names[] = { "olympiad", "common", "hamburg" };
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) { *out = (referee_rules)i; return true; }
    return false;
}

/* Fills ar from argv; prints the problem and returns false on bad input. */
static bool parse_args(int argc, char **argv, arena *ar) {
    static const struct option opts[] = {
        { "a", required_argument, 0, 'a' }, { "b", required_argument, 0, 'b' },
        { "games", required_argument, 0, 'g' }, { "size", required_argument, 0, 's' },
        { "komi", required_argument, 0, 'k' }, { "rules", required_argument, 0, 'r' },
        { "torus", no_argument, 0, 't' }, { "handicap", required_argument, 0, 'h' },
        { "capture", required_argument, 0, 'c' },
        { "threads", required_argument, 0, 'j' }, { "seed", required_argument, 0, 'S' },
        { "help", no_argument, 0, '?' }, { 0, 0, 0, 0 },
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
        case 'k': komi = atof(optarg); komi_set = true; break;
        case 'r': if (!parse_rules(optarg, &ar->settings.rules)) return false; break;
        case 't': ar->settings.torus = true; break;
        case 'h': ar->settings.handicap = atoi(optarg); break;
        case 'c': ar->settings.capture_target = atoi(optarg); break;
        case 'j': ar->threads = atoi(optarg); break;
        case 'S': ar->seed = strtoull(optarg, NULL, 10); break;
        default: return false;
        }
    }
    ar->settings.komi_x2 = komi_set ? (int)lround(komi * 2)
                                    : settings_default_komi_x2(ar->settings.handicap);
    if (optind != argc || !ar->name[0] || !ar->name[1] || ar->games <= 0 || ar->threads <= 0)
        return false;
    for (int i = 0; i < 2; i++)
        if (!bot_config_parse(ar->name[i], &ar->player[i])) {
            fprintf(stderr, "arena: unknown player '%s'\n", ar->name[i]);
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
    if (!parse_args(argc, argv, &ar)) {
        fputs(usage_text, stderr);
        return 2;
    }
    if (ar.threads > ar.games) ar.threads = ar.games;
    pthread_mutex_init(&ar.progress_lock, NULL);
    ar.records = calloc((size_t)ar.games, sizeof *ar.records);
    pthread_t *tids = calloc((size_t)ar.threads, sizeof *tids);
    if (!ar.records || !tids) {
        fprintf(stderr, "arena: out of memory\n");
        free(ar.records);
        free(tids);
        return 1;
    }
    double t0 = now_monotonic_s();
    int started = 0;
    for (; started < ar.threads; started++)
        if (pthread_create(&tids[started], NULL, worker, &ar) != 0) break;
    if (started == 0) worker(&ar);
    for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
    print_report(&ar, now_monotonic_s() - t0);
    free(ar.records);
    free(tids);
    pthread_mutex_destroy(&ar.progress_lock);
    return 0;
}
