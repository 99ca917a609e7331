/* The PostgreSQL backend: connecting, the schema and its versions, and the
 * mapping of PostgreSQL's errors to STORE_* (see store_pg.h for the shape).
 *
 * The schema is schema_pg.sql on a new database and the upgrade steps below
 * on an older one, run in one transaction under a transaction-scoped
 * advisory lock, so N servers starting at once create it exactly once and a
 * crash mid-upgrade leaves the old version. The version lives in the
 * one-row table phantomgo_schema; a database newer than this binary, or one
 * that has a games table but no version, is refused rather than guessed at.
 *
 * Every connection gets connect_timeout=5 unless the connection string
 * says otherwise (a later keyword wins in PQconnectdbParams), so a dead host
 * costs seconds, not the kernel's TCP timeout, and client_encoding=UTF8:
 * names and messages are UTF-8, whatever the client's locale says. */
#include "store/store_pg.h"
#include "store/store_schema.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PG_SCHEMA_VERSION 5
/* Any constant shared by every phantomgo server: the lock that serializes
 * schema creation. */
#define PG_SCHEMA_LOCK_KEY 0x70676f31

/* upgrades[v - 1] takes the schema from version v to v + 1 (leaving what
 * schema_pg.sql creates at v + 1); the NULL end marker makes the count
 * PG_SCHEMA_VERSION, as for SQLite in store_sqlite.c. */
static const char *const upgrades[] = {
    /* 1 -> 2: table talk (names, the two chat rooms), cancelled games, and
     * the notifications of every change of a game (phantomgo_games). */
    "ALTER TABLE games ADD COLUMN cancelled_at_ms bigint;"
    "CREATE TABLE seat_names ("
    "  game_id text NOT NULL REFERENCES games (id),"
    "  color integer NOT NULL CHECK (color IN (1, 2)),"
    "  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 32),"
    "  updated_at_ms bigint NOT NULL,"
    "  PRIMARY KEY (game_id, color));"
    "CREATE TABLE chat ("
    "  game_id text NOT NULL REFERENCES games (id),"
    "  room integer NOT NULL CHECK (room IN (1, 2)),"
    "  n integer NOT NULL CHECK (n >= 1),"
    "  author integer NOT NULL CHECK (author IN (0, 1, 2) AND (author = 0) = (room = 2)),"
    "  name text NOT NULL DEFAULT '' CHECK (char_length(name) <= 32),"
    "  text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 300),"
    "  at_ms bigint NOT NULL,"
    "  PRIMARY KEY (game_id, room, n));"
    "CREATE FUNCTION phantomgo_notify_game() RETURNS trigger LANGUAGE plpgsql AS $$"
    " BEGIN"
    "  IF TG_TABLE_NAME = 'chat' THEN"
    "   PERFORM pg_notify('phantomgo_games', 'chat ' || NEW.game_id || ' ' || NEW.room || ' ' || NEW.n);"
    "  ELSIF TG_TABLE_NAME = 'seat_names' THEN"
    "   PERFORM pg_notify('phantomgo_games', 'names ' || coalesce(NEW.game_id, OLD.game_id));"
    "  ELSIF TG_OP = 'INSERT' THEN"
    "   PERFORM pg_notify('phantomgo_games', 'public ' || NEW.id);"
    "  ELSE"
    "   PERFORM pg_notify('phantomgo_games', 'row ' || NEW.id);"
    "  END IF;"
    "  RETURN NULL;"
    " END $$;"
    "CREATE TRIGGER games_created_notify AFTER INSERT ON games"
    "  FOR EACH ROW WHEN (NEW.public) EXECUTE FUNCTION phantomgo_notify_game();"
    "CREATE TRIGGER games_changed_notify AFTER UPDATE ON games"
    "  FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION phantomgo_notify_game();"
    "CREATE TRIGGER seat_names_notify AFTER INSERT OR UPDATE OR DELETE ON seat_names"
    "  FOR EACH ROW EXECUTE FUNCTION phantomgo_notify_game();"
    "CREATE TRIGGER chat_notify AFTER INSERT ON chat"
    "  FOR EACH ROW EXECUTE FUNCTION phantomgo_notify_game();",
    /* 2 -> 3: the answers of requests sent with an Idempotency-Key. */
    "CREATE TABLE idempotency ("
    "  id text PRIMARY KEY CHECK (char_length(id) = 22),"
    "  owner bigint NOT NULL,"
    "  created_at_ms bigint NOT NULL,"
    "  answer bytea CHECK (answer IS NULL OR length(answer) BETWEEN 1 AND 70000),"
    "  seed bytea CHECK (seed IS NULL OR length(seed) BETWEEN 1 AND 1024));"
    "CREATE INDEX idempotency_age ON idempotency (created_at_ms);",
    /* 3 -> 4: tombstones of removed messages (and their news), reports,
     * mutes and bans, the admin log. */
    "ALTER TABLE chat DROP CONSTRAINT chat_text_check;"
    "ALTER TABLE chat ADD COLUMN removed_at_ms bigint;"
    "ALTER TABLE chat ADD CONSTRAINT chat_text_check CHECK (char_length(text) <= 300"
    "  AND (char_length(text) >= 1 OR removed_at_ms IS NOT NULL));"
    "CREATE OR REPLACE FUNCTION phantomgo_notify_game() RETURNS trigger LANGUAGE plpgsql AS $$"
    " BEGIN"
    "  IF TG_TABLE_NAME = 'chat' AND TG_OP = 'UPDATE' THEN"
    "   PERFORM pg_notify('phantomgo_games', 'unchat ' || NEW.game_id || ' ' || NEW.room || ' ' || NEW.n);"
    "  ELSIF TG_TABLE_NAME = 'chat' THEN"
    "   PERFORM pg_notify('phantomgo_games', 'chat ' || NEW.game_id || ' ' || NEW.room || ' ' || NEW.n);"
    "  ELSIF TG_TABLE_NAME = 'seat_names' THEN"
    "   PERFORM pg_notify('phantomgo_games', 'names ' || coalesce(NEW.game_id, OLD.game_id));"
    "  ELSIF TG_OP = 'INSERT' THEN"
    "   PERFORM pg_notify('phantomgo_games', 'public ' || NEW.id);"
    "  ELSE"
    "   PERFORM pg_notify('phantomgo_games', 'row ' || NEW.id);"
    "  END IF;"
    "  RETURN NULL;"
    " END $$;"
    "CREATE TRIGGER chat_removed_notify AFTER UPDATE ON chat"
    "  FOR EACH ROW WHEN (OLD.removed_at_ms IS NULL AND NEW.removed_at_ms IS NOT NULL)"
    "  EXECUTE FUNCTION phantomgo_notify_game();"
    "CREATE TABLE reports ("
    "  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    "  game_id text NOT NULL REFERENCES games (id),"
    "  room integer NOT NULL CHECK (room IN (1, 2)),"
    "  n integer NOT NULL CHECK (n >= 1),"
    "  reporter text NOT NULL CHECK (reporter IN ('black', 'white', 'spectator')),"
    "  reason text NOT NULL DEFAULT '' CHECK (char_length(reason) <= 300),"
    "  at_ms bigint NOT NULL,"
    "  closed_at_ms bigint);"
    "CREATE INDEX reports_open ON reports (at_ms) WHERE closed_at_ms IS NULL;"
    "CREATE TABLE sanctions ("
    "  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    "  kind text NOT NULL CHECK (kind IN ('mute', 'ban')),"
    "  game_id text,"
    "  seat integer CHECK (seat IN (1, 2)),"
    "  network text CHECK (char_length(network) <= 64),"
    "  what integer NOT NULL CHECK (what BETWEEN 1 AND 7),"
    "  at_ms bigint NOT NULL,"
    "  until_ms bigint NOT NULL,"
    "  CHECK ((game_id IS NULL) = (seat IS NULL) AND (game_id IS NULL) <> (network IS NULL)));"
    "CREATE INDEX sanctions_until ON sanctions (until_ms);"
    "CREATE TABLE admin_log ("
    "  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
    "  at_ms bigint NOT NULL,"
    "  action text NOT NULL CHECK (char_length(action) <= 32),"
    "  target text NOT NULL CHECK (char_length(target) <= 128),"
    "  detail text NOT NULL DEFAULT '{}');",
    /* 4 -> 5: Web Push: the VAPID key, subscriptions and the outbox. */
    "CREATE TABLE push_key ( "
    "id integer NOT NULL PRIMARY KEY CHECK (id = 1), "
    "private_key bytea NOT NULL CHECK (length(private_key) = 32), "
    "public_key bytea NOT NULL CHECK (length(public_key) = 65), "
    "created_at_ms bigint NOT NULL "
    "); "
    "CREATE TABLE push_subscriptions ( "
    "game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE, "
    "color integer NOT NULL CHECK (color IN (1, 2)), "
    "endpoint text NOT NULL CHECK (char_length(endpoint) BETWEEN 9 AND 1024), "
    "p256dh bytea NOT NULL CHECK (length(p256dh) = 65), "
    "auth bytea NOT NULL CHECK (length(auth) = 16), "
    "lang text NOT NULL CHECK (lang IN ('en', 'ru', 'ko')), "
    "created_at_ms bigint NOT NULL, "
    "PRIMARY KEY (game_id, color, endpoint) "
    "); "
    "CREATE TABLE push_outbox ( "
    "id bigserial NOT NULL PRIMARY KEY, "
    "game_id text NOT NULL, "
    "color integer NOT NULL, "
    "endpoint text NOT NULL, "
    "notice bigint NOT NULL CHECK (notice >= 0), "
    "kind text NOT NULL CHECK (char_length(kind) BETWEEN 1 AND 15), "
    "payload text NOT NULL, "
    "urgency text NOT NULL CHECK (urgency IN ('normal', 'high')), "
    "state integer NOT NULL CHECK (state IN (0, 1, 2, 3)), "
    "attempts integer NOT NULL DEFAULT 0, "
    "next_at_ms bigint NOT NULL, "
    "created_at_ms bigint NOT NULL, "
    "UNIQUE (game_id, color, endpoint, notice), "
    "FOREIGN KEY (game_id, color, endpoint) "
    "REFERENCES push_subscriptions (game_id, color, endpoint) ON DELETE CASCADE "
    "); "
    "CREATE INDEX push_outbox_due ON push_outbox (next_at_ms) WHERE state = 0;",
    NULL
};
_Static_assert(sizeof upgrades / sizeof upgrades[0] == PG_SCHEMA_VERSION,
               "one upgrade step per schema version after the first");

bool pg_store_is_conninfo(const char *location) {
    if (!strncmp(location, "postgresql://", 13) || !strncmp(location, "postgres://", 11)) return true;
    /* keyword=value: the first word is a run of letters and '_' then '='. */
    const char *p = location;
    while (*p == ' ') p++;
    const char *word = p;
    while (islower((unsigned char)*p) || *p == '_') p++;
    while (*p == ' ') p++;
    return p > word && *p == '=';
}

/* libpq's messages end in a newline and, for several hosts, hold several
 * lines: one line for the log and the caller. */
static void copy_message(char *err, size_t errlen, const char *what, const char *msg) {
    if (!err || !errlen) return;
    int n = snprintf(err, errlen, "%s: %s", what, msg ? msg : "unknown error");
    size_t len = n < 0 ? 0 : (size_t)n < errlen ? (size_t)n : errlen - 1;
    while (len > 0 && (err[len - 1] == '\n' || err[len - 1] == ' ')) err[--len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (err[i] == '\n') err[i] = ';';
}

static int fail(char *err, size_t errlen, int code, const char *what, const char *detail) {
    copy_message(err, errlen, what, detail);
    return code;
}

int pg_code_of(PGconn *conn, const PGresult *res, bool *broken) {
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    *broken = false;
    if (PQstatus(conn) != CONNECTION_OK || !state) {
        *broken = true;
        return STORE_UNAVAILABLE;
    }
    if (!strcmp(state, "23505")) /* unique_violation */
        return STORE_CONFLICT;
    if (!strcmp(state, "23503")) /* foreign_key_violation */
        return STORE_NOT_FOUND;
    if (!strncmp(state, "08", 2) || !strncmp(state, "57P", 3) || !strncmp(state, "53", 2) ||
        !strcmp(state, "25006")) { /* read-only: a standby now */
        *broken = true;
        return STORE_UNAVAILABLE;
    }
    if (!strcmp(state, "40001") || !strcmp(state, "40P01") || !strcmp(state, "55P03"))
        return STORE_UNAVAILABLE; /* retry later */
    return STORE_ERROR;
}

static void ignore_notice(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

static PGconn *connect_to(const char *conninfo, char *err, size_t errlen) {
    const char *const keys[] = { "connect_timeout", "application_name", "client_encoding", "dbname", NULL };
    const char *const values[] = { "5", "phantomgo", "UTF8", conninfo, NULL };
    PGconn *conn = PQconnectdbParams(keys, values, 1);
    if (!conn) {
        fail(err, errlen, STORE_ERROR, "PostgreSQL", "out of memory");
        return NULL;
    }
    if (PQstatus(conn) != CONNECTION_OK) {
        copy_message(err, errlen, "cannot connect to PostgreSQL", PQerrorMessage(conn));
        PQfinish(conn);
        return NULL;
    }
    PQsetNoticeProcessor(conn, ignore_notice, NULL);
    return conn;
}

static int prepare_all(PGconn *conn, const char *prefix, const char *const *sql, int count, char *err,
                       size_t errlen) {
    for (int i = 0; i < count; i++) {
        char name[16];
        snprintf(name, sizeof name, "%s%d", prefix, i);
        PGresult *res = PQprepare(conn, name, sql[i], 0, NULL);
        bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
        if (!ok) copy_message(err, errlen, "preparing a statement", PQresultErrorMessage(res));
        PQclear(res);
        if (!ok) return STORE_UNAVAILABLE;
    }
    return STORE_OK;
}

int pg_link_ensure(pg_store *pg, pg_link *link, const char *prefix, const char *const *sql, int count,
                   char *err, size_t errlen) {
    if (link->conn && PQstatus(link->conn) == CONNECTION_OK) return STORE_OK;
    pg_link_drop(link);
    char local[512];
    if (!err) {
        err = local;
        errlen = sizeof local;
    }
    PGconn *conn = connect_to(pg->conninfo, err, errlen);
    if (!conn) return STORE_UNAVAILABLE;
    if (prepare_all(conn, prefix, sql, count, err, errlen) != STORE_OK) {
        PQfinish(conn);
        return STORE_UNAVAILABLE;
    }
    link->conn = conn;
    return STORE_OK;
}

void pg_link_drop(pg_link *link) {
    PQfinish(link->conn);
    link->conn = NULL;
}

/* ---- the schema ---- */

/* Runs sql (one or more statements); STORE_OK or the failure's code. */
static int exec_sql(PGconn *conn, const char *sql, char *err, size_t errlen, const char *what) {
    PGresult *res = PQexec(conn, sql);
    ExecStatusType status = PQresultStatus(res);
    int code = STORE_OK;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        bool broken;
        code = pg_code_of(conn, res, &broken);
        copy_message(err, errlen, what, PQresultErrorMessage(res));
    }
    PQclear(res);
    return code;
}

/* The single integer answer of sql, or -1 for no row / NULL. */
static int query_int(PGconn *conn, const char *sql, int *out, char *err, size_t errlen) {
    PGresult *res = PQexec(conn, sql);
    int code = STORE_OK;
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        bool broken;
        code = pg_code_of(conn, res, &broken);
        copy_message(err, errlen, "reading the schema", PQresultErrorMessage(res));
    } else {
        *out = PQntuples(res) == 1 && !PQgetisnull(res, 0, 0) ? atoi(PQgetvalue(res, 0, 0)) : -1;
    }
    PQclear(res);
    return code;
}

static int create_schema(PGconn *conn, const char *schema_pg_path, char *err, size_t errlen) {
    int games = 0;
    int code = query_int(conn,
                         "SELECT count(*) FROM pg_catalog.pg_tables"
                         " WHERE schemaname = current_schema() AND tablename = 'games'",
                         &games, err, errlen);
    if (code != STORE_OK) return code;
    if (games != 0)
        return fail(err, errlen, STORE_ERROR, "database",
                    "has a games table but no phantomgo_schema: not a Phantom Go database");
    char *sql = store_read_schema_file(schema_pg_path, err, errlen);
    if (!sql) return STORE_ERROR;
    code = exec_sql(conn, sql, err, errlen, schema_pg_path);
    free(sql);
    if (code != STORE_OK) return code;
    int version = 0;
    code = query_int(conn, "SELECT max(version) FROM phantomgo_schema", &version, err, errlen);
    if (code == STORE_OK && version != PG_SCHEMA_VERSION) {
        char detail[96];
        snprintf(detail, sizeof detail, "creates schema version %d, this binary expects %d", version,
                 PG_SCHEMA_VERSION);
        return fail(err, errlen, STORE_ERROR, schema_pg_path, detail);
    }
    return code;
}

static int upgrade_schema(PGconn *conn, int from, char *err, size_t errlen) {
    for (int v = from; v < PG_SCHEMA_VERSION; v++) {
        char sql[64];
        snprintf(sql, sizeof sql, "UPDATE phantomgo_schema SET version = %d", v + 1);
        int code = exec_sql(conn, upgrades[v - 1], err, errlen, "upgrading the schema");
        if (code == STORE_OK) code = exec_sql(conn, sql, err, errlen, "upgrading the schema");
        if (code != STORE_OK) return code;
    }
    return STORE_OK;
}

static int migrate_locked(PGconn *conn, const char *schema_pg_path, char *err, size_t errlen) {
    int has_version = 0;
    int code = query_int(conn,
                         "SELECT count(*) FROM pg_catalog.pg_tables"
                         " WHERE schemaname = current_schema()"
                         " AND tablename = 'phantomgo_schema'",
                         &has_version, err, errlen);
    if (code != STORE_OK) return code;
    if (!has_version) return create_schema(conn, schema_pg_path, err, errlen);
    int version = 0;
    code = query_int(conn, "SELECT max(version) FROM phantomgo_schema", &version, err, errlen);
    if (code == STORE_OK) code = store_schema_judge(version, PG_SCHEMA_VERSION, err, errlen);
    return code == STORE_OK ? upgrade_schema(conn, version, err, errlen) : code;
}

static int migrate(PGconn *conn, const char *schema_pg_path, char *err, size_t errlen) {
    char begin[96];
    snprintf(begin, sizeof begin, "BEGIN; SELECT pg_advisory_xact_lock(%d)", PG_SCHEMA_LOCK_KEY);
    int code = exec_sql(conn, begin, err, errlen, "starting the migration");
    if (code == STORE_OK) code = migrate_locked(conn, schema_pg_path, err, errlen);
    if (code == STORE_OK) return exec_sql(conn, "COMMIT", err, errlen, "committing the migration");
    PQclear(PQexec(conn, "ROLLBACK"));
    return code;
}

/* ---- open and close ---- */

static pg_store *pg_store_new(const char *conninfo) {
    pg_store *pg = calloc(1, sizeof *pg);
    if (!pg) return NULL;
    pg->conninfo = strdup(conninfo);
    if (!pg->conninfo) {
        free(pg);
        return NULL;
    }
    pthread_mutex_init(&pg->reader_lock, NULL);
    pthread_cond_init(&pg->reader_free, NULL);
    for (int i = 0; i < STORE_READERS; i++) pg->free_readers[pg->free_count++] = i;
    return pg;
}

/* Wrong credentials and the like are configuration errors; anything else
 * at connect time (refused, timed out, starting up) is the database being
 * unreachable, which a retry may cure. */
static int connect_failure_code(const char *message) {
    static const char *const config_errors[] = {
        "password authentication failed", "no password supplied", "does not exist", "no pg_hba.conf entry",
        "invalid connection option",      "invalid URI",          "missing \"=\"",  "authentication failed",
    };
    for (size_t i = 0; i < sizeof config_errors / sizeof config_errors[0]; i++)
        if (strstr(message, config_errors[i])) return STORE_ERROR;
    return STORE_UNAVAILABLE;
}

int pg_store_open(pg_store **out, const char *conninfo, const char *schema_pg_path, char *err,
                  size_t errlen) {
    *out = NULL;
    pg_store *pg = pg_store_new(conninfo);
    if (!pg) return fail(err, errlen, STORE_ERROR, "store_open", "out of memory");
    int code = STORE_OK;
    PGconn *conn = connect_to(conninfo, err, errlen);
    if (!conn) code = connect_failure_code(err ? err : "");
    if (code == STORE_OK) code = migrate(conn, schema_pg_path, err, errlen);
    PQfinish(conn);
    if (code != STORE_OK) {
        pg_store_close(pg);
        return code;
    }
    *out = pg;
    return STORE_OK;
}

void pg_store_close(pg_store *pg) {
    if (!pg) return;
    pg_link_drop(&pg->writer);
    pg_link_drop(&pg->admin);
    for (int i = 0; i < STORE_READERS; i++) pg_link_drop(&pg->readers[i]);
    pthread_cond_destroy(&pg->reader_free);
    pthread_mutex_destroy(&pg->reader_lock);
    free(pg->conninfo);
    free(pg);
}
