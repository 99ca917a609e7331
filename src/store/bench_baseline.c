/* The storage benchmarks of bench_baseline.h.
 *
 * The baseline is deliberately naive, exactly what the issue describes: one
 * connection, one prepared INSERT, autocommit, so each row pays one WAL
 * fsync. The group-commit figure goes through the public store API with
 * many threads at once, the way the server's handler threads use it, so
 * what it measures is the batching of store_write.c (its queue) and
 * store_sqlite_write.c (one transaction per batch). */
#include "store/bench_baseline.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "util/now.h"

/* Removes a database and its WAL and shared-memory files. */
static void remove_database(const char *path) {
    char side[4200];
    unlink(path);
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
}

static bool exec_ok(sqlite3 *db, const char *sql) {
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK) return true;
    fprintf(stderr, "bench: %s: %s\n", sql, sqlite3_errmsg(db));
    return false;
}

static long insert_rows_for(sqlite3 *db, sqlite3_stmt *ins, double seconds) {
    long rows = 0;
    double end = now_monotonic_s() + seconds;
    while (now_monotonic_s() < end) {
        sqlite3_bind_int64(ins, 1, rows + 1);
        int rc = sqlite3_step(ins);
        sqlite3_reset(ins);
        if (rc != SQLITE_DONE) {
            fprintf(stderr, "bench: insert: %s\n", sqlite3_errmsg(db));
            return -1;
        }
        rows++;
    }
    return rows;
}

double store_bench_single_row_commits(const char *dir, double seconds) {
    char path[4096];
    snprintf(path, sizeof path, "%s/baseline-single-row.db", dir);
    remove_database(path);
    sqlite3 *db = NULL;
    sqlite3_stmt *ins = NULL;
    double rate = -1;
    if (sqlite3_open(path, &db) != SQLITE_OK) {
        fprintf(stderr, "bench: %s: %s\n", path, sqlite3_errmsg(db));
    } else if (exec_ok(db, "PRAGMA journal_mode = WAL") && exec_ok(db, "PRAGMA synchronous = FULL") &&
               exec_ok(db, "CREATE TABLE actions (game_id TEXT NOT NULL, seq INTEGER NOT NULL,"
                           " kind TEXT NOT NULL, color INTEGER NOT NULL, vertex TEXT NOT NULL,"
                           " at_ms INTEGER NOT NULL, PRIMARY KEY (game_id, seq)) WITHOUT ROWID") &&
               sqlite3_prepare_v2(db,
                                  "INSERT INTO actions VALUES ('k3v9x2m4qa', ?1, 'attempt', 1, 'D4',"
                                  " 1700000000000)",
                                  -1, &ins, NULL) == SQLITE_OK) {
        double start = now_monotonic_s();
        long rows = insert_rows_for(db, ins, seconds);
        if (rows >= 0) rate = rows / (now_monotonic_s() - start);
    }
    sqlite3_finalize(ins);
    sqlite3_close(db);
    remove_database(path);
    return rate;
}

/* ---- group commit through the store ---- */

/* The starting gate: writers wait until every thread exists, so thread
 * creation is not timed; end is set when the gate opens. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t opened;
    bool open;
    double end;
} start_gate;

typedef struct {
    store *st;
    start_gate *gate;
    char game_id[24];
    long acknowledged;
    bool failed;
} bench_writer;

static double wait_for_gate(start_gate *g) {
    pthread_mutex_lock(&g->lock);
    while (!g->open) pthread_cond_wait(&g->opened, &g->lock);
    double end = g->end;
    pthread_mutex_unlock(&g->lock);
    return end;
}

static void open_gate(start_gate *g, double end) {
    pthread_mutex_lock(&g->lock);
    g->open = true;
    g->end = end;
    pthread_cond_broadcast(&g->opened);
    pthread_mutex_unlock(&g->lock);
}

static void *append_until_end(void *arg) {
    bench_writer *w = arg;
    double end = wait_for_gate(w->gate);
    store_action a = { .kind = "attempt", .vertex = "D4", .at_ms = 1700000000000 };
    while (now_monotonic_s() < end) {
        a.seq = (int)w->acknowledged + 1;
        a.color = 1 + a.seq % 2;
        if (store_append_action(w->st, w->game_id, &a) != STORE_OK) {
            w->failed = true;
            break;
        }
        w->acknowledged++;
    }
    return NULL;
}

static bool insert_bench_games(store *st, bench_writer *w, int writers, start_gate *gate) {
    for (int i = 0; i < writers; i++) {
        store_game g = { .created_at_ms = 1700000000000,
                         .mode = "online",
                         .settings_json = (char *)"{\"size\":9}",
                         .options_json = (char *)"{}" };
        snprintf(g.id, sizeof g.id, "benchgame%05d", i);
        memcpy(w[i].game_id, g.id, sizeof g.id);
        w[i].st = st;
        w[i].gate = gate;
        if (store_insert_game(st, &g) != STORE_OK) return false;
    }
    return true;
}

/* Starts the writers together and waits for them; appends/s, or -1. */
static double run_writers(bench_writer *w, int writers, start_gate *gate, double seconds) {
    pthread_t *threads = calloc((size_t)writers, sizeof *threads);
    if (!threads) return -1;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    int started = 0;
    while (started < writers && pthread_create(&threads[started], &attr, append_until_end, &w[started]) == 0)
        started++;
    pthread_attr_destroy(&attr);
    double begin = now_monotonic_s();
    open_gate(gate, started == writers ? begin + seconds : 0);
    long total = 0;
    bool failed = started < writers;
    for (int i = 0; i < started; i++) {
        pthread_join(threads[i], NULL);
        total += w[i].acknowledged;
        failed |= w[i].failed;
    }
    double elapsed = now_monotonic_s() - begin;
    free(threads);
    if (started < writers)
        fprintf(stderr, "bench: could start only %d of %d writer threads\n", started, writers);
    return failed ? -1 : total / elapsed;
}

double store_bench_group_commit_appends(const char *dir, const char *schema_path, int writers,
                                        double seconds) {
    char path[4096], err[256];
    snprintf(path, sizeof path, "%s/baseline-group-commit.db", dir);
    remove_database(path);
    store *st = NULL;
    if (writers < 1 || store_open(&st, path, schema_path, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "bench: %s: %s\n", path, writers < 1 ? "no writers" : err);
        return -1;
    }
    bench_writer *w = calloc((size_t)writers, sizeof *w);
    start_gate gate = { .lock = PTHREAD_MUTEX_INITIALIZER, .opened = PTHREAD_COND_INITIALIZER };
    double rate = -1;
    if (w && insert_bench_games(st, w, writers, &gate)) rate = run_writers(w, writers, &gate, seconds);
    if (rate < 0) fprintf(stderr, "bench: group-commit appends failed\n");
    free(w);
    store_close(st);
    remove_database(path);
    return rate;
}

/* ---- the table ---- */

static void report_row(FILE *out, const char *what, double rate, double baseline) {
    fprintf(out, "%-52s %12.0f %-10s", what, rate, "/s");
    if (baseline > 0 && rate >= 0) fprintf(out, " %6.2fx\n", rate / baseline);
    else fprintf(out, " %7s\n", "-");
}

int store_bench_report(FILE *out, const char *dir, const char *schema_path, int writers, double seconds) {
    char work[4096];
    snprintf(work, sizeof work, "%s/phantomgo-bench-XXXXXX", dir);
    if (!mkdtemp(work)) {
        fprintf(stderr, "bench: cannot make a directory under %s\n", dir);
        return 1;
    }
    fprintf(out, "%-52s %12s %-10s %7s\n", "durable writes (WAL, synchronous=FULL)", "rate", "unit",
            "vs loop");
    double loop = store_bench_single_row_commits(work, seconds);
    report_row(out, "plain SQLite loop, one row per commit", loop, loop);
    char what[96];
    double one = store_bench_group_commit_appends(work, schema_path, 1, seconds);
    report_row(out, "store appends, 1 writer thread", one, loop);
    snprintf(what, sizeof what, "store appends, %d writer threads (group commit)", writers);
    double many = store_bench_group_commit_appends(work, schema_path, writers, seconds);
    report_row(out, what, many, loop);
    fprintf(out, "(on %s; each append is acknowledged only after its own commit)\n", dir);
    rmdir(work);
    return loop > 0 && one > 0 && many > 0 ? 0 : 1;
}
