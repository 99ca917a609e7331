/* `phantomgo bench`: the engine benchmark, one table on stdout.
 *
 * Measures, on one thread (so one core), for a fixed wall time each:
 *  - uniform random light playouts from the empty board (the bot's inner
 *    loop), on 9x9 (target: 80,000 per second) and on 19x19;
 *  - random full Phantom Go games through the referee: blind random players
 *    try points that are neither their own stones nor their own eyes nor
 *    already tried this turn, get illegal answers, retry, pass when nothing
 *    is left; reported as games and attempts per second;
 *  - the same games with every event observed by black, white and a
 *    spectator and folded into their views, as the server does;
 *  - the deduction aid (bot/aid.h, AID_SAMPLES boards) of Black in a
 *    middle game (a fifth of the board filled by random players), on 9x9
 *    and 19x19: what one uncached GET .../aid costs the server's thread.
 * The machine is shared and noisy, so time is the benchmark thread's own
 * CPU time (CLOCK_THREAD_CPUTIME_ID: what one core delivers, not what other
 * processes left of it); each rate is printed with its ratio to the target
 * where there is one, and bench/run.sh notes the machine. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bot/aid.h"
#include "engine/playout.h"
#include "engine/referee.h"
#include "engine/rng.h"
#include "engine/view.h"
#include "store/bench_baseline.h"
#include "util/now.h"

#define PLAYOUT_TARGET_9X9 80000.0

typedef struct bench_row {
    const char *what, *board, *unit;
    long count;
    double seconds, target;
} bench_row;

static void print_header(void) {
    printf("%-44s %-6s %10s %8s %12s %-9s %8s %6s\n", "benchmark (one thread)", "board", "count", "cpu s",
           "rate", "unit", "target", "ratio");
}

static void print_row(const bench_row *r) {
    double rate = r->count / r->seconds;
    printf("%-44s %-6s %10ld %8.2f %12.0f %-9s", r->what, r->board, r->count, r->seconds, rate, r->unit);
    if (r->target > 0)
        printf(" %8.0f %5.2fx %s\n", r->target, rate / r->target, rate >= r->target ? "ok" : "BELOW");
    else printf(" %8s %6s\n", "-", "-");
    fflush(stdout);
}

static bench_row bench_playouts(int size, double seconds, uint64_t seed) {
    board empty, b;
    board_init(&empty, size, false);
    rng r;
    rng_seed(&r, seed);
    long n = 0;
    double start = now_thread_cpu_s(), elapsed = 0;
    while (elapsed < seconds) {
        for (int i = 0; i < 256; i++, n++) {
            board_copy(&b, &empty);
            playout_random(&b, BLACK, 15, &r, NULL);
        }
        elapsed = now_thread_cpu_s() - start;
    }
    bench_row row = { "light random playouts from the empty board",
                      size == 9 ? "9x9" : "19x19",
                      "playouts/s",
                      n,
                      elapsed,
                      size == 9 ? PLAYOUT_TARGET_9X9 : 0 };
    return row;
}

/* A point that colour c, seeing only its own stones, takes for its own eye. */
static bool looks_like_own_eye(const board *b, int c, point p) {
    foreach_neighbour(b->geo, p, q)
        if (b->color[q] != c && b->color[q] != BOARD_OFF) return false;
    return true;
}

typedef struct game_stats {
    long games, attempts, events;
} game_stats;

typedef struct viewers {
    view v[3];
} viewers;

static void observe_all(const referee *r, int seq, viewers *vs) {
    static const viewer who[3] = { VIEWER_BLACK, VIEWER_WHITE, VIEWER_SPECTATOR };
    observation ob;
    for (int i = 0; i < 3; i++)
        if (view_observe(r, who[i], seq, &ob)) view_apply(&vs->v[i], &ob);
}

/* Plays one game of blind random players; vs (may be NULL) gets every
 * event observed and folded. */
static void random_phantom_game(const game_settings *s, rng *g, game_stats *st, viewers *vs) {
    referee *r = referee_new(s);
    if (!r) abort();
    if (vs) {
        view_init(&vs->v[0], s, VIEWER_BLACK);
        view_init(&vs->v[1], s, VIEWER_WHITE);
        view_init(&vs->v[2], s, VIEWER_SPECTATOR);
    }
    const board *b = referee_truth_board(r);
    point cand[BOARD_MAX_POINTS];
    int turn_cap = 4 * b->npoints;
    while (!referee_result(r).over) {
        int c = referee_to_move(r), n = 0;
        if (referee_turn(r) < turn_cap)
            for (point p = 0; p < b->npoints; p++)
                if (board_at(b, p) != c && !looks_like_own_eye(b, c, p)) cand[n++] = p;
        bool moved = false;
        while (!moved && n > 0) {
            int i = (int)rng_below(g, (uint32_t)n);
            action a = { ACT_ATTEMPT, c, cand[i] };
            const ref_event *ev;
            if (referee_apply(r, a, &ev) != REFUSE_NONE) abort();
            st->attempts++;
            st->events++;
            if (vs) observe_all(r, ev->seq, vs);
            moved = ev->kind == EV_MOVE;
            cand[i] = cand[--n];
        }
        if (!moved) {
            action pass = { ACT_PASS, c, NO_POINT };
            const ref_event *ev;
            if (referee_apply(r, pass, &ev) != REFUSE_NONE) abort();
            st->events++;
            if (vs) observe_all(r, ev->seq, vs);
        }
    }
    st->games++;
    referee_free(r);
}

static void bench_games(double seconds, bool with_views, bench_row rows[2]) {
    game_settings s = settings_default();
    game_stats st = { 0, 0, 0 };
    rng g;
    rng_seed(&g, 2);
    viewers *vs = with_views ? malloc(sizeof *vs) : NULL;
    if (with_views && !vs) abort();
    double start = now_thread_cpu_s(), elapsed = 0;
    while (elapsed < seconds) {
        random_phantom_game(&s, &g, &st, vs);
        elapsed = now_thread_cpu_s() - start;
    }
    free(vs);
    rows[0] = (bench_row){ with_views ? "random Phantom games, 3 viewers folded"
                                      : "random Phantom games through the referee",
                           "9x9",
                           "games/s",
                           st.games,
                           elapsed,
                           0 };
    rows[1] = (bench_row){ with_views ? "  events observed by 3 viewers, in them"
                                      : "  attempts (legal or not) in them",
                           "9x9",
                           with_views ? "events/s" : "tries/s",
                           with_views ? st.events : st.attempts,
                           elapsed,
                           0 };
}

/* Random players alternate until a fifth of the board holds stones; both
 * memories fold every event. */
static referee *middle_game(const game_settings *s, bot_memory mem[3]) {
    referee *r = referee_new(s);
    bot_config random_player = { .kind = BOT_RANDOM };
    bot_memory_init(&mem[BLACK], s, BLACK);
    bot_memory_init(&mem[WHITE], s, WHITE);
    int seen = 0, target = s->size * s->size / 5;
    for (uint64_t seed = 1; r && referee_to_move(r) != EMPTY && mem[BLACK].view.moves[BLACK] * 2 < target; seed++) {
        int c = referee_to_move(r);
        point p = bot_choose(&random_player, &mem[c], seed, NULL, NULL);
        action a = { p == PASS_POINT ? ACT_PASS : ACT_ATTEMPT, c, p };
        if (referee_apply(r, a, NULL) != REFUSE_NONE) break;
        for (observation ob; seen < referee_event_count(r);) {
            seen++;
            for (int v = BLACK; v <= WHITE; v++)
                if (view_observe(r, (viewer)v, seen, &ob)) bot_memory_apply(&mem[v], &ob);
        }
    }
    return r;
}

static bench_row bench_aid(int size, double seconds) {
    game_settings s = settings_default();
    s.size = size;
    static bot_memory mem[3];
    static aid_map map;
    referee *r = middle_game(&s, mem);
    long n = 0;
    double start = now_thread_cpu_s(), elapsed = 0;
    while (r && elapsed < seconds && aid_estimate(&mem[BLACK], (uint64_t)n + 1, AID_SAMPLES, &map)) {
        n++;
        elapsed = now_thread_cpu_s() - start;
    }
    referee_free(r);
    return (bench_row){ "deduction aid estimates (ms each: 1000/rate)", size == 9 ? "9x9" : "19x19", "estim./s",
                        n, elapsed > 0 ? elapsed : 1, 0 };
}

static const char usage_text[] =
    "usage: phantomgo bench [--seconds S] [--storage DIR]\n"
    "  runs the engine benchmarks for S seconds each (default 2) and prints a table\n"
    "  --storage DIR: instead, the durable-write benchmarks (plain SQLite loop vs the\n"
    "  store's group commit with 200 writers) in a temporary directory under DIR\n";

int cmd_bench(int argc, char **argv) {
    double seconds = 2.0;
    const char *storage_dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
            char *end;
            seconds = strtod(argv[++i], &end);
            if (*end || !(seconds > 0 && seconds <= 600)) {
                fprintf(stderr, "phantomgo bench: --seconds must be a number in (0, 600]\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--storage") && i + 1 < argc) {
            storage_dir = argv[++i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage_text, stdout);
            return 0;
        } else {
            fprintf(stderr, "phantomgo bench: unexpected argument '%s'\n%s", argv[i], usage_text);
            return 2;
        }
    }
    if (storage_dir) return store_bench_report(stdout, storage_dir, "schema.sql", 200, seconds);
    print_header();
    bench_row row = bench_playouts(9, seconds, 1);
    print_row(&row);
    row = bench_playouts(19, seconds, 1);
    print_row(&row);
    bench_row rows[2];
    bench_games(seconds, false, rows);
    print_row(&rows[0]);
    print_row(&rows[1]);
    bench_games(seconds, true, rows);
    print_row(&rows[0]);
    print_row(&rows[1]);
    row = bench_aid(9, seconds);
    print_row(&row);
    row = bench_aid(19, seconds);
    print_row(&row);
    return 0;
}
