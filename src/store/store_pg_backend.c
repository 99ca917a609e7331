/* The PostgreSQL backend's table of functions (store_backend.h): chosen by
 * store_open.c for a connection string, it opens the database (store_pg.c),
 * connects the writer with its statements (store_pg_write.c) and hands
 * every call to the backend's files. This file sits on top of them: it
 * calls them and none calls it. */
#include "store/store_pg.h"
#include "store/store_schema.h"

#include <stdio.h>
#include <string.h>

/* schema_pg.sql, the PostgreSQL schema kept beside schema.sql. */
static int schema_pg_path(const char *schema_path, char *out, size_t cap) {
    const char *slash = strrchr(schema_path, '/');
    int dir_len = slash ? (int)(slash - schema_path + 1) : 0;
    int n = snprintf(out, cap, "%.*sschema_pg.sql", dir_len, schema_path);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

static int pg_open(pg_store **out, const char *conninfo, const char *schema_path, char *err, size_t errlen) {
    char pg_schema[4096];
    *out = NULL;
    if (schema_pg_path(schema_path, pg_schema, sizeof pg_schema) != 0)
        return store_fail(err, errlen, STORE_ERROR, schema_path, "path too long");
    pg_store *pg;
    int code = pg_store_open(&pg, conninfo, pg_schema, err, errlen);
    if (code != STORE_OK) return code;
    /* The writer's connection now, so that a server that cannot prepare
     * its writes says so at start rather than at the first move. */
    code = pg_link_ensure(pg, &pg->writer, "w", pg_write_sql, PW_COUNT, err, errlen);
    if (code != STORE_OK) {
        pg_store_close(pg);
        return code;
    }
    *out = pg;
    return STORE_OK;
}

static void pg_close(pg_store *pg) {
    pg_store_watch(pg, NULL);
    pg_store_close(pg);
}

const store_backend store_pg_backend = {
    .name = "postgresql",
    .accepts = pg_store_is_conninfo,
    .open = pg_open,
    .close = pg_close,
    .watch = pg_store_watch,
    .commit = pg_store_commit,
    .load_game = pg_store_load_game,
    .ping = pg_store_ping,
    .get_notes = pg_store_get_notes,
    .list_ids = pg_store_list_ids,
    .get_names = pg_store_get_names,
    .chat_count = pg_store_chat_count,
    .read_chat = pg_store_read_chat,
    .idem_get = pg_store_idem_get,
    .push_key_get = pg_store_push_key_get,
    .push_count = pg_store_push_count,
    .push_game_ids = pg_store_push_game_ids,
    .push_due = pg_store_push_due,
    .push_next_due = pg_store_push_next_due,
    .admin_begin = pg_admin_begin,
    .admin_run = pg_admin_run,
    .admin_end = pg_admin_end,
    .admin_close = pg_admin_close,
};
