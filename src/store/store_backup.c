/* store_backup: a consistent copy of a live SQLite database, taken while
 * `phantomgo serve` keeps writing it (`phantomgo backup`).
 *
 * The copy is made with SQLite's online backup API in one step
 * (sqlite3_backup_step(-1)), which reads the whole database inside one read
 * transaction: in WAL mode that is a snapshot which never blocks the
 * server's writer and is never restarted by its commits (a backup in slices
 * would start over after each commit of another process, and might never
 * end on a busy server). Every action the server acknowledged before the
 * snapshot began is committed (synchronous=FULL) and so in the copy.
 *
 * The copy is written under a temporary name beside the target
 * (TO.partial), checked with PRAGMA integrity_check, closed, fsynced, and
 * only then renamed over TO, and the directory fsynced: a crash or kill -9
 * at any moment leaves TO either absent (or the previous copy) or whole,
 * never a torn file. A stale TO.partial of a killed run is removed by the
 * next run. The copy gets mode 0600, like the database: it holds the hidden
 * stones of games in play. */
#include "store/store_sqlite_db.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { BACKUP_BUSY_TIMEOUT_MS = 5000, BACKUP_BUSY_TRIES = 100 };

static int backup_fail(char *err, size_t errlen, int code, const char *what, const char *detail) {
    if (err && errlen) snprintf(err, errlen, "%s: %s", what, detail);
    return code;
}

static int backup_fail_db(char *err, size_t errlen, sqlite3 *db, int rc, const char *what) {
    return backup_fail(err, errlen, store_code_of(rc), what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
}

/* Removes path and the journal files SQLite may have left beside it. */
static void remove_with_journals(const char *path) {
    static const char *const suffixes[] = { "", "-journal", "-wal", "-shm" };
    char name[PATH_MAX + 16];
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
        snprintf(name, sizeof name, "%s%s", path, suffixes[i]);
        unlink(name);
    }
}

/* True when a and b name the same existing file. */
static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The source, read-only; refused unless it holds a Phantom Go schema. */
static int open_source(const char *path, sqlite3 **out, char *err, size_t errlen) {
    int rc = sqlite3_open_v2(path, out, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) return backup_fail_db(err, errlen, *out, rc, path);
    sqlite3_extended_result_codes(*out, 1);
    sqlite3_busy_timeout(*out, BACKUP_BUSY_TIMEOUT_MS);
    sqlite3_stmt *s;
    rc = sqlite3_prepare_v2(*out, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'actions'", -1, &s,
                            NULL);
    if (rc != SQLITE_OK) return backup_fail_db(err, errlen, *out, rc, path);
    rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc == SQLITE_ROW) return STORE_OK;
    if (rc == SQLITE_DONE) return backup_fail(err, errlen, STORE_ERROR, path, "not a Phantom Go database");
    return backup_fail_db(err, errlen, *out, rc, path);
}

/* Creates path (mode 0600, which SQLite keeps) and opens it read-write. */
static int open_target(const char *path, sqlite3 **out, char *err, size_t errlen) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return backup_fail(err, errlen, STORE_UNAVAILABLE, path, strerror(errno));
    close(fd);
    int rc = sqlite3_open_v2(path, out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) return backup_fail_db(err, errlen, *out, rc, path);
    sqlite3_extended_result_codes(*out, 1);
    return STORE_OK;
}

/* The whole copy in one step, retried while the source is busy (a
 * checkpoint or recovery holding a lock for a moment). */
static int copy_database(sqlite3 *to, sqlite3 *from, int *pages, char *err, size_t errlen) {
    sqlite3_backup *b = sqlite3_backup_init(to, "main", from, "main");
    if (!b) return backup_fail_db(err, errlen, to, sqlite3_errcode(to), "starting the backup");
    int rc;
    for (int tries = 0;; tries++) {
        rc = sqlite3_backup_step(b, -1);
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || tries >= BACKUP_BUSY_TRIES) break;
        sqlite3_sleep(50);
    }
    *pages = sqlite3_backup_pagecount(b);
    int finish = sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) return backup_fail(err, errlen, store_code_of(rc), "copying", sqlite3_errstr(rc));
    if (finish != SQLITE_OK) return backup_fail_db(err, errlen, to, finish, "finishing the copy");
    return STORE_OK;
}

/* The copy keeps the source's WAL flag in its header; a rollback journal
 * makes it one self-contained file, whatever is done with it next (the
 * server turns WAL back on when it opens it). */
static int make_self_contained(sqlite3 *db, char *err, size_t errlen) {
    int rc = sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
    return rc == SQLITE_OK ? STORE_OK : backup_fail_db(err, errlen, db, rc, "leaving WAL mode in the copy");
}

/* PRAGMA integrity_check of the copy must answer the single row "ok". */
static int check_integrity(sqlite3 *db, char *err, size_t errlen) {
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL);
    if (rc != SQLITE_OK) return backup_fail_db(err, errlen, db, rc, "checking the copy");
    rc = sqlite3_step(s);
    char first[200] = "";
    if (rc == SQLITE_ROW) snprintf(first, sizeof first, "%s", (const char *)sqlite3_column_text(s, 0));
    bool ok = rc == SQLITE_ROW && !strcmp(first, "ok") && sqlite3_step(s) == SQLITE_DONE;
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW) return backup_fail_db(err, errlen, db, rc, "checking the copy");
    return ok ? STORE_OK : backup_fail(err, errlen, STORE_ERROR, "the copy failed its integrity check", first);
}

static int fsync_path(const char *path, int flags, char *err, size_t errlen) {
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0) return backup_fail(err, errlen, STORE_UNAVAILABLE, path, strerror(errno));
    int rc = fsync(fd);
    int saved = errno;
    close(fd);
    return rc == 0 ? STORE_OK : backup_fail(err, errlen, STORE_UNAVAILABLE, path, strerror(saved));
}

/* The copy made durable under its temporary name, then renamed into place
 * and the rename made durable. */
static int publish(const char *partial, const char *to, char *err, size_t errlen) {
    int code = fsync_path(partial, O_RDONLY, err, errlen);
    if (code != STORE_OK) return code;
    if (rename(partial, to) != 0) return backup_fail(err, errlen, STORE_UNAVAILABLE, to, strerror(errno));
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", to);
    return fsync_path(dirname(dir), O_RDONLY | O_DIRECTORY, err, errlen);
}

static int backup_into(sqlite3 *from, const char *partial, store_backup_info *info, char *err, size_t errlen) {
    sqlite3 *to = NULL;
    int code = open_target(partial, &to, err, errlen);
    if (code == STORE_OK) code = copy_database(to, from, &info->pages, err, errlen);
    if (code == STORE_OK) code = make_self_contained(to, err, errlen);
    if (code == STORE_OK) code = check_integrity(to, err, errlen);
    int rc = sqlite3_close(to);
    if (code == STORE_OK && rc != SQLITE_OK) code = backup_fail(err, errlen, STORE_ERROR, partial, sqlite3_errstr(rc));
    struct stat st;
    if (code == STORE_OK && stat(partial, &st) == 0) info->bytes = (long long)st.st_size;
    return code;
}

int store_backup(const char *db_path, const char *to_path, store_backup_info *info, char *err, size_t errlen) {
    assert(db_path && to_path && info);
    memset(info, 0, sizeof *info);
    if (store_is_server(db_path))
        return backup_fail(err, errlen, STORE_ERROR, "backup",
                           "--db is a PostgreSQL connection string: use pg_dump (docs/SELF-HOSTING.md)");
    if (same_file(db_path, to_path))
        return backup_fail(err, errlen, STORE_ERROR, to_path, "is the database itself");
    char partial[PATH_MAX];
    if ((size_t)snprintf(partial, sizeof partial, "%s.partial", to_path) >= sizeof partial)
        return backup_fail(err, errlen, STORE_ERROR, to_path, "path too long");
    sqlite3 *from = NULL;
    int code = open_source(db_path, &from, err, errlen);
    if (code == STORE_OK) {
        remove_with_journals(partial);
        code = backup_into(from, partial, info, err, errlen);
    }
    sqlite3_close(from);
    if (code == STORE_OK) code = publish(partial, to_path, err, errlen);
    if (code != STORE_OK) remove_with_journals(partial);
    return code;
}
