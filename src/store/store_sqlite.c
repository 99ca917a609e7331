/* The SQLite backend: its table of functions (store_sqlite_backend, chosen
 * by store_open.c for any location that is not a connection string), and
 * opening and closing: the database file, its connections, the schema and
 * its migrations. Its reads are store_sqlite_read.c, its group commit
 * store_sqlite_write.c, the operator's connection store_sqlite_admin.c.
 *
 * A new database gets schema.sql, which always describes the latest version
 * and sets PRAGMA user_version itself. An existing one is brought forward by
 * the upgrade steps below, one SQL text per version, all in one transaction
 * so a crash mid-upgrade leaves the old version intact. A database newer
 * than this binary is refused rather than guessed at.
 *
 * The file is created 0600 before SQLite opens it (SQLite gives the -wal and
 * -shm files the same mode): it holds hidden stones of games in progress. */
#include "store/store_sqlite_db.h"
#include "store/store_schema.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STORE_SCHEMA_VERSION 6
#define STORE_BUSY_TIMEOUT_MS 5000

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

/* Records a failure message and returns code, for one-line error exits. */
static int fail(char *err, size_t errlen, int code, const char *what, const char *detail) {
    return store_fail(err, errlen, code, what, detail);
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

static int open_readers(sqlite_db *db, char *err, size_t errlen) {
    for (int i = 0; i < STORE_READERS; i++) {
        sqlite_reader *r = &db->readers[i];
        int code = open_connection(db->path, SQLITE_OPEN_READONLY, &r->db, err, errlen);
        if (code != STORE_OK) return code;
        int rc = sqlite_prepare_all(r->db, sqlite_read_sql, SR_COUNT, r->stmt);
        if (rc != SQLITE_OK) return fail_db(err, errlen, r->db, rc, "preparing reads");
        db->free_readers[db->free_count++] = i;
    }
    return STORE_OK;
}

static int open_writer(sqlite_db *db, const char *schema_path, char *err, size_t errlen) {
    int code = open_connection(db->path, SQLITE_OPEN_READWRITE, &db->wdb, err, errlen);
    if (code == STORE_OK) code = configure_writer(db->wdb, err, errlen);
    if (code == STORE_OK) code = migrate(db->wdb, schema_path, err, errlen);
    if (code != STORE_OK) return code;
    int rc = sqlite_prepare_all(db->wdb, sqlite_write_sql, SW_COUNT, db->wstmt);
    if (rc != SQLITE_OK) return fail_db(err, errlen, db->wdb, rc, "preparing writes");
    return STORE_OK;
}

static void sqlite_close(sqlite_db *db) {
    if (!db) return;
    sqlite_admin_close(db);
    for (int i = 0; i < STORE_READERS; i++) {
        sqlite_finalize_all(db->readers[i].stmt, SR_COUNT);
        sqlite3_close(db->readers[i].db);
    }
    /* The writer closes last: the last connection checkpoints the WAL. */
    sqlite_finalize_all(db->wstmt, SW_COUNT);
    sqlite3_close(db->wdb);
    pthread_cond_destroy(&db->reader_free);
    pthread_mutex_destroy(&db->reader_lock);
    free(db->path);
    free(db);
}

static sqlite_db *sqlite_new(const char *path) {
    sqlite_db *db = calloc(1, sizeof *db);
    if (!db) return NULL;
    db->path = strdup(path);
    if (!db->path) {
        free(db);
        return NULL;
    }
    pthread_mutex_init(&db->reader_lock, NULL);
    pthread_cond_init(&db->reader_free, NULL);
    return db;
}

static int sqlite_open(sqlite_db **out, const char *path, const char *schema_path, char *err, size_t errlen) {
    *out = NULL;
    int code = create_file(path, err, errlen);
    if (code != STORE_OK) return code;
    sqlite_db *db = sqlite_new(path);
    if (!db) return fail(err, errlen, STORE_ERROR, "store_open", "out of memory");
    code = open_writer(db, schema_path, err, errlen);
    if (code == STORE_OK) code = open_readers(db, err, errlen);
    if (code != STORE_OK) {
        sqlite_close(db);
        return code;
    }
    *out = db;
    return STORE_OK;
}

/* Every location that no other backend claimed is a file. */
static bool sqlite_accepts(const char *location) { return location && *location; }

const store_backend store_sqlite_backend = {
    .name = "sqlite",
    .accepts = sqlite_accepts,
    .open = sqlite_open,
    .close = sqlite_close,
    .watch = NULL, /* one server per file: no news from others */
    .commit = sqlite_commit,
    .load_game = sqlite_load_game,
    .ping = sqlite_ping,
    .get_notes = sqlite_get_notes,
    .list_ids = sqlite_list_ids,
    .get_names = sqlite_get_names,
    .chat_count = sqlite_chat_count,
    .read_chat = sqlite_read_chat,
    .idem_get = sqlite_idem_get,
    .push_key_get = sqlite_push_key_get,
    .push_count = sqlite_push_count,
    .push_game_ids = sqlite_push_game_ids,
    .push_due = sqlite_push_due,
    .push_next_due = sqlite_push_next_due,
    .admin_begin = sqlite_admin_begin,
    .admin_run = sqlite_admin_run,
    .admin_end = sqlite_admin_end,
    .admin_close = sqlite_admin_close,
};
