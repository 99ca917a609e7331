/* The PostgreSQL backend's side of the operator's work (store_admin.c): a
 * connection of its own, opened on first use and dropped when a failure
 * lost it (the next transaction reconnects), and one statement at a time
 * inside the transaction store_admin.c opens and ends. The caller's
 * admin_lock serializes every use.
 *
 * store_admin.c writes its SQL once with SQLite's ?N parameters; here '?'
 * becomes '$' (no statement there has a '?' anywhere else) and the
 * parameters go as text, which PostgreSQL types from the columns they
 * meet. Every column comes back as text (or NULL). */
#include "store/store_pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ADMIN_SQL_MAX 2048
#define ADMIN_MAX_PARAMS 8
#define ADMIN_MAX_COLUMNS 16

/* Runs one command; on failure records whether it lost the connection. */
static int command(pg_store *pg, const char *sql) {
    PGresult *res = PQexec(pg->admin.conn, sql);
    int code = PQresultStatus(res) == PGRES_COMMAND_OK ? STORE_OK
                                                       : pg_code_of(pg->admin.conn, res, &pg->admin_broken);
    if (code == STORE_OK && PQresultStatus(res) != PGRES_COMMAND_OK) code = STORE_ERROR;
    PQclear(res);
    return code;
}

int pg_admin_begin(pg_store *pg, bool writes, bool *fresh) {
    (void)writes; /* PostgreSQL's rows lock as they are written */
    char err[512];
    *fresh = !pg->admin.conn;
    pg->admin_broken = false;
    int code = pg_link_ensure(pg, &pg->admin, "a", NULL, 0, err, sizeof err);
    if (code != STORE_OK) {
        fprintf(stderr, "store: %s\n", err);
        return code;
    }
    return command(pg, "BEGIN");
}

/* The columns of row i as values (text or NULL). */
static int deliver_rows(const PGresult *res, store_row_fn fn, void *ctx) {
    int ncols = PQnfields(res);
    if (ncols > ADMIN_MAX_COLUMNS) return STORE_ERROR;
    store_value cols[ADMIN_MAX_COLUMNS];
    int code = STORE_OK;
    for (int i = 0; i < PQntuples(res) && code == STORE_OK; i++) {
        for (int c = 0; c < ncols; c++)
            cols[c] = PQgetisnull(res, i, c) ? sv_null() : sv_text(PQgetvalue(res, i, c));
        code = fn ? fn(cols, ncols, ctx) : STORE_OK;
    }
    return code;
}

int pg_admin_run(pg_store *pg, const store_sql *sql, const store_value *params, int nparams, store_row_fn fn,
                 void *ctx, int *changes) {
    const char *text_in = sql->sql_pg ? sql->sql_pg : sql->sql;
    char text[ADMIN_SQL_MAX], numbers[ADMIN_MAX_PARAMS][24];
    const char *values[ADMIN_MAX_PARAMS];
    if (strlen(text_in) >= sizeof text || nparams > ADMIN_MAX_PARAMS) return STORE_ERROR;
    for (size_t i = 0;; i++)
        if (!(text[i] = text_in[i] == '?' ? '$' : text_in[i])) break;
    for (int i = 0; i < nparams; i++) {
        const store_value *v = &params[i];
        values[i] = v->kind == SV_TEXT ? v->p : NULL;
        if (v->kind == SV_INT || v->kind == SV_BOOL) {
            snprintf(numbers[i], sizeof numbers[i], "%lld", (long long)v->i);
            values[i] = numbers[i];
        }
        if (v->kind == SV_BLOB) return STORE_ERROR; /* the operator's statements bind no bytes */
    }
    PGresult *res = PQexecParams(pg->admin.conn, text, nparams, NULL, values, NULL, NULL, 0);
    ExecStatusType status = PQresultStatus(res);
    int code = STORE_OK;
    if (status == PGRES_TUPLES_OK) {
        code = deliver_rows(res, fn, ctx);
    } else if (status != PGRES_COMMAND_OK) {
        code = pg_code_of(pg->admin.conn, res, &pg->admin_broken);
        if (code == STORE_OK) code = STORE_ERROR;
        /* A CHECK or a bad value: the caller's request, not the database. */
        const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
        if (state && !strncmp(state, "23", 2) && code == STORE_UNAVAILABLE) code = STORE_ERROR;
    }
    if (code == STORE_OK && changes) *changes = atoi(PQcmdTuples(res));
    PQclear(res);
    return code;
}

int pg_admin_end(pg_store *pg, int code, bool *lost) {
    *lost = false;
    if (!pg->admin.conn) return code;
    if (code == STORE_OK) code = command(pg, "COMMIT");
    else if (!pg->admin_broken) command(pg, "ROLLBACK");
    if (pg->admin_broken) {
        pg_link_drop(&pg->admin);
        *lost = true;
    }
    return code;
}

void pg_admin_close(pg_store *pg) { pg_link_drop(&pg->admin); }
