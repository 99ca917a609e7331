/* The store when the disk fails it, tested for real, not with mocks:
 *
 * - A full disk mid-run: RLIMIT_FSIZE caps file growth for this process,
 *   which root is subject to as well, so the next commit cannot extend the
 *   WAL (SQLite sees a short write or EFBIG). Every write of that batch
 *   must answer STORE_UNAVAILABLE, nothing of it may reach the file, and
 *   once the limit is lifted the next writes must work with nothing
 *   acknowledged lost.
 * - A read-only directory or file: chmod does not stop root (it has
 *   CAP_DAC_OVERRIDE), so the opening runs in a forked child that first
 *   becomes the unprivileged user "nobody" (65534), for whom the
 *   permissions really apply. Run as a non-root user, the child simply
 *   keeps its own identity.
 * - kill -9: a child process appends from several threads and reports each
 *   acknowledged commit through a pipe; the parent kills it at a moment of
 *   its choosing, reopens the file and finds everything acknowledged (a
 *   process crash; power loss is what synchronous=FULL is for and cannot
 *   be simulated here). */
#include "harness.h"
#include "test_store_util.h"
#include "util/now.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

enum { FAULT_WRITERS = 6 };

struct fault_writer {
    store *st;
    char id[24];
    int seq;
    int result;
};

static void *append_one(void *p) {
    struct fault_writer *w = p;
    store_action a = test_action(w->seq, "attempt", 1, "E5");
    w->result = store_append_action(w->st, w->id, &a);
    return NULL;
}

/* Appends seq to every game from its own thread at once; returns how many
 * answered `expected`. */
static int append_concurrently(store *st, int seq, int expected) {
    pthread_t t[FAULT_WRITERS];
    struct fault_writer w[FAULT_WRITERS];
    for (int i = 0; i < FAULT_WRITERS; i++) {
        w[i] = (struct fault_writer){ .st = st, .seq = seq };
        snprintf(w[i].id, sizeof w[i].id, "faultgame%02d", i);
        pthread_create(&t[i], NULL, append_one, &w[i]);
    }
    int matching = 0;
    for (int i = 0; i < FAULT_WRITERS; i++) {
        pthread_join(t[i], NULL);
        matching += w[i].result == expected;
    }
    return matching;
}

static off_t file_size(const char *path) {
    struct stat sb;
    return stat(path, &sb) == 0 ? sb.st_size : -1;
}

TEST(store_disk_full_fails_cleanly_and_recovers) {
    char dir[256], wal[300];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    snprintf(wal, sizeof wal, "%s/games.db-wal", dir);
    store *st = test_store_open(dir, "games.db");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    for (int i = 0; i < FAULT_WRITERS; i++) {
        char id[24];
        snprintf(id, sizeof id, "faultgame%02d", i);
        store_game g = test_game(id, "online");
        CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    }
    CHECK_EQ_INT(append_concurrently(st, 1, STORE_OK), FAULT_WRITERS);

    struct rlimit old;
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    struct rlimit full = { .rlim_cur = (rlim_t)file_size(wal), .rlim_max = old.rlim_max };
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK(setrlimit(RLIMIT_FSIZE, &full) == 0);
    int unavailable = append_concurrently(st, 2, STORE_UNAVAILABLE);
    store_action lone = test_action(2, "pass", 1, "");
    int lone_result = store_append_action(st, "faultgame00", &lone);
    CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
    signal(SIGXFSZ, old_handler);
    CHECK_EQ_INT(unavailable, FAULT_WRITERS);
    CHECK_EQ_INT(lone_result, STORE_UNAVAILABLE);

    /* The fault is gone: the same seq goes through now, then the next. */
    CHECK_EQ_INT(append_concurrently(st, 2, STORE_OK), FAULT_WRITERS);
    CHECK_EQ_INT(append_concurrently(st, 3, STORE_OK), FAULT_WRITERS);
    store_close(st);

    st = test_store_open(dir, "games.db");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    for (int i = 0; i < FAULT_WRITERS; i++) {
        char id[24];
        snprintf(id, sizeof id, "faultgame%02d", i);
        store_game g;
        store_action *list = NULL;
        int n = 0;
        CHECK_EQ_INT(store_load_game(st, id, &g, &list, &n), STORE_OK);
        CHECK_EQ_INT(n, 3);
        for (int k = 0; k < n; k++) {
            CHECK_EQ_INT(list[k].seq, k + 1);
            CHECK_EQ_STR(list[k].kind, "attempt"); /* never the failed "pass" */
        }
        free(list);
        store_game_free_fields(&g);
    }
    store_close(st);
    test_rmtree(dir);
}

/* Runs store_open(db) in a child process that is not privileged (see the
 * top of the file) and returns the child's STORE_* code; 101 if a failure
 * came without a message, -1 if the child could not run. */
static int open_as_nobody(const char *db) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
            _exit(100);
        char err[256] = "";
        store *st = NULL;
        int code = store_open(&st, db, TEST_SCHEMA_PATH, err, sizeof err);
        store_close(st);
        _exit(code != STORE_OK && err[0] == '\0' ? 101 : code);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

static void make_dir(const char *parent, const char *name, mode_t mode, char *out, size_t cap) {
    snprintf(out, cap, "%s/%s", parent, name);
    mkdir(out, 0700);
    chmod(out, mode);
}

TEST(store_read_only_directory_or_file_is_unavailable) {
    char dir[256], ro_dir[300], rw_dir[300], db[400];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    CHECK(chmod(dir, 0755) == 0);

    /* A new database in a directory nobody may write to. */
    make_dir(dir, "readonly", 0555, ro_dir, sizeof ro_dir);
    snprintf(db, sizeof db, "%s/games.db", ro_dir);
    CHECK_EQ_INT(open_as_nobody(db), STORE_UNAVAILABLE);

    /* An existing database file that is read-only. */
    make_dir(dir, "shared", 0777, rw_dir, sizeof rw_dir);
    store *st = test_store_open(rw_dir, "games.db");
    CHECK(st != NULL);
    store_close(st);
    snprintf(db, sizeof db, "%s/games.db", rw_dir);
    CHECK(chmod(db, 0444) == 0);
    CHECK_EQ_INT(open_as_nobody(db), STORE_UNAVAILABLE);

    /* A writable database in a read-only directory: SQLite cannot create
     * the -wal and -shm files WAL mode needs. */
    CHECK(chmod(db, 0600) == 0);
    if (geteuid() == 0) CHECK(chown(db, 65534, 65534) == 0);
    CHECK(chmod(rw_dir, 0555) == 0);
    CHECK_EQ_INT(open_as_nobody(db), STORE_UNAVAILABLE);

    /* The same file, the directory writable again: it opens. */
    CHECK(chmod(rw_dir, 0777) == 0);
    CHECK_EQ_INT(open_as_nobody(db), STORE_OK);
    test_rmtree(dir);
}

/* ---- kill -9: nothing acknowledged is lost ---- */

enum { KILL_GAMES = 8, KILL_ROUNDS = 4 };

struct ack {
    int32_t game, seq;
};

struct kill_writer {
    store *st;
    int game;
    int fd;
};

static void *append_and_ack(void *p) {
    struct kill_writer *w = p;
    char id[24];
    snprintf(id, sizeof id, "killgame%02d", w->game % 100);
    for (int seq = 1;; seq++) {
        store_action a = test_action(seq, "attempt", 2 - seq % 2, "C3");
        if (store_append_action(w->st, id, &a) != STORE_OK) _exit(3);
        struct ack k = { w->game, seq }; /* 8 bytes: an atomic pipe write */
        if (write(w->fd, &k, sizeof k) != sizeof k) _exit(4);
    }
    return NULL;
}

/* The child: opens the store, creates the games, then appends to all of
 * them from one thread each, acknowledging every commit on fd, until the
 * parent kills it. */
static void child_append_forever(const char *dir, int fd) {
    store *st = test_store_open(dir, "games.db");
    if (!st) _exit(2);
    for (int i = 0; i < KILL_GAMES; i++) {
        char id[24];
        snprintf(id, sizeof id, "killgame%02d", i);
        store_game g = test_game(id, "online");
        int rc = store_insert_game(st, &g);
        if (rc != STORE_OK && rc != STORE_CONFLICT) _exit(2);
    }
    pthread_t t[KILL_GAMES];
    struct kill_writer w[KILL_GAMES];
    for (int i = 0; i < KILL_GAMES; i++) {
        w[i] = (struct kill_writer){ st, i, fd };
        pthread_create(&t[i], NULL, append_and_ack, &w[i]);
    }
    for (;;) pause();
}

static void note_ack(const struct ack *k, int max_acked[KILL_GAMES]) {
    if (k->game >= 0 && k->game < KILL_GAMES && k->seq > max_acked[k->game]) max_acked[k->game] = k->seq;
}

/* Reads acknowledgements for ms milliseconds from the first one (or until
 * the child dies), kills the child, then drains what it wrote before dying;
 * max_acked[g] = highest acknowledged seq. */
static void collect_acks_then_kill(pid_t pid, int fd, int ms, int max_acked[KILL_GAMES]) {
    struct ack k;
    if (read(fd, &k, sizeof k) == sizeof k) note_ack(&k, max_acked);
    int64_t start = now_monotonic_ms();
    int64_t left;
    while ((left = ms - (now_monotonic_ms() - start)) > 0) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        if (poll(&pfd, 1, (int)left) == 1 && read(fd, &k, sizeof k) == sizeof k) note_ack(&k, max_acked);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    while (read(fd, &k, sizeof k) == sizeof k) note_ack(&k, max_acked);
}

/* Every game's log is 1..n with no gap and n >= what was acknowledged;
 * returns the number of violations. */
static int check_acknowledged(const char *dir, const int max_acked[KILL_GAMES]) {
    store *st = test_store_open(dir, "games.db");
    if (!st) return 1;
    int bad = 0;
    for (int i = 0; i < KILL_GAMES; i++) {
        char id[24];
        snprintf(id, sizeof id, "killgame%02d", i);
        store_game g;
        store_action *list = NULL;
        int n = 0;
        int rc = store_load_game(st, id, &g, &list, &n);
        if (rc != STORE_OK) {
            bad += max_acked[i] > 0;
            continue;
        }
        bad += n < max_acked[i];
        for (int k = 0; k < n; k++) bad += list[k].seq != k + 1;
        free(list);
        store_game_free_fields(&g);
    }
    store_close(st);
    return bad;
}

TEST(store_kill_9_loses_nothing_acknowledged) {
    char dir[256], round_dir[300];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    int total_acked = 0;
    for (int round = 0; round < KILL_ROUNDS; round++) {
        snprintf(round_dir, sizeof round_dir, "%s/round%d", dir, round);
        CHECK(mkdir(round_dir, 0700) == 0);
        int fds[2];
        CHECK(pipe(fds) == 0);
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            child_append_forever(round_dir, fds[1]);
        }
        close(fds[1]);
        int max_acked[KILL_GAMES] = { 0 };
        collect_acks_then_kill(pid, fds[0], 20 + 30 * round, max_acked);
        close(fds[0]);
        for (int i = 0; i < KILL_GAMES; i++) total_acked += max_acked[i];
        CHECK_EQ_INT(check_acknowledged(round_dir, max_acked), 0);
    }
    CHECK(total_acked > 0);
    test_rmtree(dir);
}
