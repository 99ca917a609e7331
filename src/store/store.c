/* Opening and closing the store: the database file, its connections, the
 * schema and its migrations (on PostgreSQL: store_pg.c).
 *
 * A new database gets schema.sql, which always describes the latest version
 * and sets PRAGMA user_version itself. An existing one is brought forward by
 * the upgrade steps below, one SQL text per version, all in one transaction
 * so a crash mid-upgrade leaves the old version intact. A database newer
 * than this binary is refused rather than guessed at.
 *
 * The file is created 0600 before SQLite opens it (SQLite gives the -wal and
 * -shm files the same mode): it holds hidden stones of games in progress. */
#include "store/store_admin.h"
#include "store/store_internal.h"
#include "store/store_pg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STORE_SCHEMA_VERSION 6
#define STORE_BUSY_TIMEOUT_MS 5000
#define STORE_SCHEMA_MAX_BYTES (1 << 20)

/* upgrades[v - 1] takes a database from user_version v to v + 1 (it must
 * leave the same schema as schema.sql at v + 1, which sets user_version
 * itself). The last element is the NULL end marker, so there are exactly
 * STORE_SCHEMA_VERSION elements: adding version 2 means inserting its step
 * before the NULL, bumping STORE_SCHEMA_VERSION and editing schema.sql. */
static const char *const upgrades[] = {
    /* 1 -> 2: time controls, the lobby, and the moment the clock started
     * (for games of version 1, untimed: their creation once both seats
     * were taken, so an abandoned old game can still be claimed). */
    "ALTER TABLE games ADD COLUMN time_control_json TEXT NOT NULL DEFAULT '{\"type\":\"none\"}'"
    "  CHECK (json_valid(time_control_json));"
    "ALTER TABLE games ADD COLUMN public INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1));"
    "ALTER TABLE games ADD COLUMN started_at_ms INTEGER;"
    "UPDATE games SET started_at_ms = created_at_ms"
    "  WHERE mode <> 'online' OR (black_hash IS NOT NULL AND white_hash IS NOT NULL);"
    "CREATE INDEX games_public ON games (created_at_ms) WHERE public = 1;",
    /* 2 -> 3: table talk (names, the two chat rooms) and cancelled games. */
    "ALTER TABLE games ADD COLUMN cancelled_at_ms INTEGER;"
    "CREATE TABLE seat_names ("
    "  game_id TEXT NOT NULL REFERENCES games (id),"
    "  color INTEGER NOT NULL CHECK (color IN (1, 2)),"
    "  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 32),"
    "  updated_at_ms INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, color)) STRICT, WITHOUT ROWID;"
    "CREATE TABLE chat ("
    "  game_id TEXT NOT NULL REFERENCES games (id),"
    "  room INTEGER NOT NULL CHECK (room IN (1, 2)),"
    "  n INTEGER NOT NULL CHECK (n >= 1),"
    "  author INTEGER NOT NULL CHECK (author IN (0, 1, 2) AND (author = 0) = (room = 2)),"
    "  name TEXT NOT NULL DEFAULT '' CHECK (length(name) <= 32),"
    "  text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 300),"
    "  at_ms INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, room, n)) STRICT, WITHOUT ROWID;",
    /* 3 -> 4: the answers of requests sent with an Idempotency-Key. */
    "CREATE TABLE idempotency ("
    "  id TEXT PRIMARY KEY CHECK (length(id) = 22),"
    "  owner INTEGER NOT NULL,"
    "  created_at_ms INTEGER NOT NULL,"
    "  answer BLOB CHECK (answer IS NULL OR length(answer) BETWEEN 1 AND 70000),"
    "  seed BLOB CHECK (seed IS NULL OR length(seed) BETWEEN 1 AND 1024)) STRICT, WITHOUT ROWID;"
    "CREATE INDEX idempotency_age ON idempotency (created_at_ms);",
    /* 4 -> 5: tombstones of removed messages (the chat table rebuilt, as
     * SQLite changes a CHECK), reports, mutes and bans, the admin log. */
    "CREATE TABLE chat_v5 ("
    "  game_id TEXT NOT NULL REFERENCES games (id),"
    "  room INTEGER NOT NULL CHECK (room IN (1, 2)),"
    "  n INTEGER NOT NULL CHECK (n >= 1),"
    "  author INTEGER NOT NULL CHECK (author IN (0, 1, 2) AND (author = 0) = (room = 2)),"
    "  name TEXT NOT NULL DEFAULT '' CHECK (length(name) <= 32),"
    "  text TEXT NOT NULL CHECK (length(text) <= 300"
    "    AND (length(text) >= 1 OR removed_at_ms IS NOT NULL)),"
    "  at_ms INTEGER NOT NULL,"
    "  removed_at_ms INTEGER,"
    "  PRIMARY KEY (game_id, room, n)) STRICT, WITHOUT ROWID;"
    "INSERT INTO chat_v5 (game_id, room, n, author, name, text, at_ms)"
    "  SELECT game_id, room, n, author, name, text, at_ms FROM chat;"
    "DROP TABLE chat;"
    "ALTER TABLE chat_v5 RENAME TO chat;"
    "CREATE TABLE reports ("
    "  id INTEGER PRIMARY KEY,"
    "  game_id TEXT NOT NULL REFERENCES games (id),"
    "  room INTEGER NOT NULL CHECK (room IN (1, 2)),"
    "  n INTEGER NOT NULL CHECK (n >= 1),"
    "  reporter TEXT NOT NULL CHECK (reporter IN ('black', 'white', 'spectator')),"
    "  reason TEXT NOT NULL DEFAULT '' CHECK (length(reason) <= 300),"
    "  at_ms INTEGER NOT NULL,"
    "  closed_at_ms INTEGER) STRICT;"
    "CREATE INDEX reports_open ON reports (at_ms) WHERE closed_at_ms IS NULL;"
    "CREATE TABLE sanctions ("
    "  id INTEGER PRIMARY KEY,"
    "  kind TEXT NOT NULL CHECK (kind IN ('mute', 'ban')),"
    "  game_id TEXT,"
    "  seat INTEGER CHECK (seat IN (1, 2)),"
    "  network TEXT CHECK (length(network) <= 64),"
    "  what INTEGER NOT NULL CHECK (what BETWEEN 1 AND 7),"
    "  at_ms INTEGER NOT NULL,"
    "  until_ms INTEGER NOT NULL,"
    "  CHECK ((game_id IS NULL) = (seat IS NULL) AND (game_id IS NULL) <> (network IS NULL))) STRICT;"
    "CREATE INDEX sanctions_until ON sanctions (until_ms);"
    "CREATE TABLE admin_log ("
    "  id INTEGER PRIMARY KEY,"
    "  at_ms INTEGER NOT NULL,"
    "  action TEXT NOT NULL CHECK (length(action) <= 32),"
    "  target TEXT NOT NULL CHECK (length(target) <= 128),"
    "  detail TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(detail))) STRICT;",
    /* 5 -> 6: Web Push: the VAPID key, subscriptions and the outbox. */
    "CREATE TABLE push_key ( "
    "id INTEGER NOT NULL PRIMARY KEY CHECK (id = 1), "
    "private_key BLOB NOT NULL CHECK (length(private_key) = 32), "
    "public_key BLOB NOT NULL CHECK (length(public_key) = 65), "
    "created_at_ms INTEGER NOT NULL "
    ") STRICT;"
    "CREATE TABLE push_subscriptions ( "
    "game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE, "
    "color INTEGER NOT NULL CHECK (color IN (1, 2)), "
    "endpoint TEXT NOT NULL CHECK (length(endpoint) BETWEEN 9 AND 1024), "
    "p256dh BLOB NOT NULL CHECK (length(p256dh) = 65), "
    "auth BLOB NOT NULL CHECK (length(auth) = 16), "
    "lang TEXT NOT NULL CHECK (lang IN ('en', 'ru', 'ko')), "
    "created_at_ms INTEGER NOT NULL, "
    "PRIMARY KEY (game_id, color, endpoint) "
    ") STRICT, WITHOUT ROWID;"
    "CREATE TABLE push_outbox ( "
    "id INTEGER NOT NULL PRIMARY KEY, "
    "game_id TEXT NOT NULL, "
    "color INTEGER NOT NULL, "
    "endpoint TEXT NOT NULL, "
    "notice INTEGER NOT NULL CHECK (notice >= 0), "
    "kind TEXT NOT NULL CHECK (length(kind) BETWEEN 1 AND 15), "
    "payload TEXT NOT NULL CHECK (json_valid(payload)), "
    "urgency TEXT NOT NULL CHECK (urgency IN ('normal', 'high')), "
    "state INTEGER NOT NULL CHECK (state IN (0, 1, 2, 3)), "
    "attempts INTEGER NOT NULL DEFAULT 0, "
    "next_at_ms INTEGER NOT NULL, "
    "created_at_ms INTEGER NOT NULL, "
    "UNIQUE (game_id, color, endpoint, notice), "
    "FOREIGN KEY (game_id, color, endpoint) "
    "REFERENCES push_subscriptions (game_id, color, endpoint) ON DELETE CASCADE "
    ") STRICT;"
    "CREATE INDEX push_outbox_due ON push_outbox (next_at_ms) WHERE state = 0;",
    NULL
};
_Static_assert(sizeof upgrades / sizeof upgrades[0] == STORE_SCHEMA_VERSION,
               "one upgrade step per schema version after the first");

const char *store_strerror(int code) {
    switch (code) {
    case STORE_OK: return "ok";
    case STORE_NOT_FOUND: return "not found";
    case STORE_CONFLICT: return "conflict";
    case STORE_UNAVAILABLE: return "storage unavailable";
    default: return "storage error";
    }
}

int store_code_of(int sqlite_rc) {
    switch (sqlite_rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE: return STORE_OK;
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_PERM: return STORE_UNAVAILABLE;
    default: return STORE_ERROR;
    }
}

int store_prepare_all(sqlite3 *db, const char *const *sql, int count, sqlite3_stmt **out) {
    for (int i = 0; i < count; i++) {
        int rc = sqlite3_prepare_v3(db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &out[i], NULL);
        if (rc != SQLITE_OK) {
            store_finalize_all(out, i);
            return rc;
        }
    }
    return SQLITE_OK;
}

void store_finalize_all(sqlite3_stmt **stmts, int count) {
    for (int i = 0; i < count; i++) {
        sqlite3_finalize(stmts[i]);
        stmts[i] = NULL;
    }
}

/* Records a failure message and returns code, for one-line error exits. */
static int fail(char *err, size_t errlen, int code, const char *what, const char *detail) {
    if (err && errlen) snprintf(err, errlen, "%s: %s", what, detail);
    return code;
}

static int fail_db(char *err, size_t errlen, sqlite3 *db, int rc, const char *what) {
    return fail(err, errlen, store_code_of(rc), what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
}

/* Creates the file's directory (one level) and the file itself, mode 0600,
 * so that a missing directory or a read-only one is reported plainly. */
static int create_file(const char *path, char *err, size_t errlen) {
    char *dir = strdup(path);
    if (!dir) return fail(err, errlen, STORE_ERROR, path, "out of memory");
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        if (mkdir(dir, 0750) != 0 && errno != EEXIST) {
            int code = errno == ENOENT ? STORE_ERROR : STORE_UNAVAILABLE;
            fail(err, errlen, code, dir, strerror(errno));
            free(dir);
            return code;
        }
    }
    free(dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return fail(err, errlen, STORE_UNAVAILABLE, path, strerror(errno));
    close(fd);
    return STORE_OK;
}

static int exec_sql(sqlite3 *db, const char *sql, char *err, size_t errlen, const char *what) {
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        fail(err, errlen, store_code_of(rc), what, msg ? msg : sqlite3_errstr(rc));
        sqlite3_free(msg);
        return store_code_of(rc);
    }
    return STORE_OK;
}

static int read_int_pragma(sqlite3 *db, const char *sql, int *out) {
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *out = sqlite3_column_int(s, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(s);
    return rc;
}

char *store_read_schema_file(const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, errlen, STORE_ERROR, path, strerror(errno));
        return NULL;
    }
    char *text = malloc(STORE_SCHEMA_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, STORE_SCHEMA_MAX_BYTES + 1, f) : 0;
    bool bad = !text || ferror(f) || n > STORE_SCHEMA_MAX_BYTES;
    fclose(f);
    if (bad) {
        fail(err, errlen, STORE_ERROR, path, text ? "unreadable or over 1 MiB" : "out of memory");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

/* Runs schema.sql on a new database (inside the caller's transaction) and
 * checks it produced the version this binary expects. */
static int create_schema(sqlite3 *db, const char *schema_path, char *err, size_t errlen) {
    int tables = 0;
    int rc = read_int_pragma(db, "SELECT count(*) FROM sqlite_schema", &tables);
    if (rc != SQLITE_OK) return fail_db(err, errlen, db, rc, "reading the schema");
    if (tables != 0)
        return fail(err, errlen, STORE_ERROR, "database",
                    "has tables but user_version 0: not a Phantom Go database");
    char *sql = store_read_schema_file(schema_path, err, errlen);
    if (!sql) return STORE_ERROR;
    int code = exec_sql(db, sql, err, errlen, schema_path);
    free(sql);
    if (code != STORE_OK) return code;
    int version = 0;
    rc = read_int_pragma(db, "PRAGMA user_version", &version);
    if (rc != SQLITE_OK) return fail_db(err, errlen, db, rc, "reading user_version");
    if (version != STORE_SCHEMA_VERSION) {
        char detail[96];
        snprintf(detail, sizeof detail, "sets user_version %d, this binary expects %d", version,
                 STORE_SCHEMA_VERSION);
        return fail(err, errlen, STORE_ERROR, schema_path, detail);
    }
    return STORE_OK;
}

int store_schema_judge(int found, int supported, char *err, size_t errlen) {
    char detail[128];
    if (found < 1) return fail(err, errlen, STORE_ERROR, "database", "holds no schema version");
    if (found <= supported) return STORE_OK;
    snprintf(detail, sizeof detail, "schema version %d is newer than this binary's %d: run a newer phantomgo",
             found, supported);
    return fail(err, errlen, STORE_ERROR, "database", detail);
}

static int upgrade_schema(sqlite3 *db, int from, char *err, size_t errlen) {
    for (int v = from; v < STORE_SCHEMA_VERSION; v++) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);
        int code = exec_sql(db, upgrades[v - 1], err, errlen, "upgrading the schema");
        if (code == STORE_OK) code = exec_sql(db, sql, err, errlen, "upgrading the schema");
        if (code != STORE_OK) return code;
    }
    return STORE_OK;
}

/* Brings the database to STORE_SCHEMA_VERSION in one write transaction, so
 * two processes opening a new file at once cannot both create it. */
static int migrate(sqlite3 *db, const char *schema_path, char *err, size_t errlen) {
    int code = exec_sql(db, "BEGIN IMMEDIATE", err, errlen, "starting the migration");
    if (code != STORE_OK) return code;
    int version = 0;
    int rc = read_int_pragma(db, "PRAGMA user_version", &version);
    if (rc != SQLITE_OK) code = fail_db(err, errlen, db, rc, "reading user_version");
    else if (version == 0) code = create_schema(db, schema_path, err, errlen);
    else if ((code = store_schema_judge(version, STORE_SCHEMA_VERSION, err, errlen)) == STORE_OK)
        code = upgrade_schema(db, version, err, errlen);
    if (code == STORE_OK) return exec_sql(db, "COMMIT", err, errlen, "committing the migration");
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return code;
}

static int open_connection(const char *path, int flags, sqlite3 **out, char *err, size_t errlen) {
    int rc = sqlite3_open_v2(path, out, flags | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) return fail_db(err, errlen, *out, rc, path);
    sqlite3_extended_result_codes(*out, 1);
    sqlite3_busy_timeout(*out, STORE_BUSY_TIMEOUT_MS);
    return STORE_OK;
}

/* The writer connection: WAL (checked: a file system without shared memory
 * would silently keep the rollback journal), synchronous=FULL, foreign keys. */
static int configure_writer(sqlite3 *db, char *err, size_t errlen) {
    if (sqlite3_db_readonly(db, "main") == 1)
        return fail(err, errlen, STORE_UNAVAILABLE, "database", "the file is read-only");
    sqlite3_stmt *s;
    int rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &s, NULL);
    if (rc != SQLITE_OK) return fail_db(err, errlen, db, rc, "setting WAL mode");
    rc = sqlite3_step(s);
    bool wal = rc == SQLITE_ROW && !strcmp((const char *)sqlite3_column_text(s, 0), "wal");
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW) return fail_db(err, errlen, db, rc, "setting WAL mode");
    if (!wal) return fail(err, errlen, STORE_ERROR, "database", "WAL mode is not available here");
    return exec_sql(db, "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;", err, errlen,
                    "configuring the database");
}

static int open_readers(store *st, char *err, size_t errlen) {
    for (int i = 0; i < STORE_READERS; i++) {
        store_reader *r = &st->readers[i];
        int code = open_connection(st->path, SQLITE_OPEN_READONLY, &r->db, err, errlen);
        if (code != STORE_OK) return code;
        int rc = store_prepare_all(r->db, store_read_sql, RS_COUNT, r->stmt);
        if (rc == SQLITE_OK) rc = store_prepare_all(r->db, store_chat_read_sql, CR_IDEM_FIRST, r->chat);
        if (rc == SQLITE_OK)
            rc = store_prepare_all(r->db, store_idem_read_sql + CR_IDEM_FIRST, CR_PUSH_FIRST - CR_IDEM_FIRST,
                                   r->chat + CR_IDEM_FIRST);
        if (rc == SQLITE_OK)
            rc = store_prepare_all(r->db, store_push_read_sql, CR_COUNT - CR_PUSH_FIRST, r->chat + CR_PUSH_FIRST);
        if (rc != SQLITE_OK) return fail_db(err, errlen, r->db, rc, "preparing reads");
        st->free_readers[st->free_count++] = i;
    }
    return STORE_OK;
}

static int open_writer(store *st, const char *schema_path, char *err, size_t errlen) {
    int code = open_connection(st->path, SQLITE_OPEN_READWRITE, &st->wdb, err, errlen);
    if (code == STORE_OK) code = configure_writer(st->wdb, err, errlen);
    if (code == STORE_OK) code = migrate(st->wdb, schema_path, err, errlen);
    if (code != STORE_OK) return code;
    int rc = store_prepare_all(st->wdb, store_write_sql, WS_COUNT, st->wstmt);
    if (rc == SQLITE_OK) rc = store_prepare_all(st->wdb, store_chat_write_sql, CW_IDEM_FIRST, st->wchat);
    if (rc == SQLITE_OK)
        rc = store_prepare_all(st->wdb, store_idem_write_sql + CW_IDEM_FIRST, CW_PUSH_FIRST - CW_IDEM_FIRST,
                               st->wchat + CW_IDEM_FIRST);
    if (rc == SQLITE_OK)
        rc = store_prepare_all(st->wdb, store_push_write_sql, CW_COUNT - CW_PUSH_FIRST, st->wchat + CW_PUSH_FIRST);
    if (rc != SQLITE_OK) return fail_db(err, errlen, st->wdb, rc, "preparing writes");
    return STORE_OK;
}

static store *store_new(const char *db_path) {
    store *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->path = strdup(db_path);
    if (!st->path) {
        free(st);
        return NULL;
    }
    pthread_mutex_init(&st->queue_lock, NULL);
    pthread_cond_init(&st->queue_nonempty, NULL);
    pthread_mutex_init(&st->reader_lock, NULL);
    pthread_cond_init(&st->reader_free, NULL);
    pthread_mutex_init(&st->admin_lock, NULL);
    return st;
}

/* schema_pg.sql, the PostgreSQL schema kept beside schema.sql. */
static int schema_pg_path(const char *schema_path, char *out, size_t cap) {
    const char *slash = strrchr(schema_path, '/');
    int dir_len = slash ? (int)(slash - schema_path + 1) : 0;
    int n = snprintf(out, cap, "%.*sschema_pg.sql", dir_len, schema_path);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* The last step of opening either backend: with its connections made
 * (code STORE_OK), starts st's writer and hands st out; on any failure
 * closes st and returns the code. */
static int start_and_hand_out(store **out, store *st, int code, char *err, size_t errlen) {
    if (code == STORE_OK && store_writer_start(st) != 0)
        code = fail(err, errlen, STORE_ERROR, "store_open", "cannot start the writer thread");
    if (code != STORE_OK) {
        store_close(st);
        return code;
    }
    *out = st;
    return STORE_OK;
}

static int open_on_server(store **out, const char *conninfo, const char *schema_path, char *err,
                          size_t errlen) {
    char pg_schema[4096];
    if (schema_pg_path(schema_path, pg_schema, sizeof pg_schema) != 0)
        return fail(err, errlen, STORE_ERROR, schema_path, "path too long");
    store *st = store_new("postgresql");
    if (!st) return fail(err, errlen, STORE_ERROR, "store_open", "out of memory");
    int code = pg_store_open(&st->pg, conninfo, pg_schema, err, errlen);
    return start_and_hand_out(out, st, code, err, errlen);
}

void store_watch(store *st, const store_news *news) {
    if (st && st->pg) pg_store_watch(st->pg, news);
}

bool store_is_server(const char *db_location) { return db_location && pg_store_is_conninfo(db_location); }

int store_open(store **out, const char *db_path, const char *schema_path, char *err, size_t errlen) {
    *out = NULL;
    if (err && errlen) err[0] = '\0';
    if (!db_path || !*db_path || !schema_path)
        return fail(err, errlen, STORE_ERROR, "store_open", "missing database or schema path");
    if (pg_store_is_conninfo(db_path)) return open_on_server(out, db_path, schema_path, err, errlen);
    int code = create_file(db_path, err, errlen);
    if (code != STORE_OK) return code;
    store *st = store_new(db_path);
    if (!st) return fail(err, errlen, STORE_ERROR, "store_open", "out of memory");
    code = open_writer(st, schema_path, err, errlen);
    if (code == STORE_OK) code = open_readers(st, err, errlen);
    return start_and_hand_out(out, st, code, err, errlen);
}

void store_close(store *st) {
    if (!st) return;
    store_writer_stop(st);
    store_admin_close(st);
    pg_store_close(st->pg);
    for (int i = 0; i < STORE_READERS; i++) {
        store_finalize_all(st->readers[i].stmt, RS_COUNT);
        store_finalize_all(st->readers[i].chat, CR_COUNT);
        sqlite3_close(st->readers[i].db);
    }
    /* The writer closes last: the last connection checkpoints the WAL. */
    store_finalize_all(st->wstmt, WS_COUNT);
    store_finalize_all(st->wchat, CW_COUNT);
    sqlite3_close(st->wdb);
    pthread_cond_destroy(&st->reader_free);
    pthread_mutex_destroy(&st->reader_lock);
    pthread_mutex_destroy(&st->admin_lock);
    pthread_cond_destroy(&st->queue_nonempty);
    pthread_mutex_destroy(&st->queue_lock);
    free(st->path);
    free(st);
}
