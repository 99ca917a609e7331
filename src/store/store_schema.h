/* What both backends share when they open a database (store_schema.c),
 * seen only inside the store module. */
#ifndef PG_STORE_SCHEMA_H
#define PG_STORE_SCHEMA_H

#include <stddef.h>

/* The one rule of schema versions, for both backends: a database at
 * version `found` may be opened by a binary that knows versions up to
 * `supported` (its upgrade steps bring it forward) when
 * 1 <= found <= supported. STORE_OK then; otherwise STORE_ERROR with the
 * reason in err ("database: schema version 9 is newer than this
 * binary's 3: run a newer phantomgo"). A new, empty database is the
 * caller's to create before asking. */
int store_schema_judge(int found, int supported, char *err, size_t errlen);
/* The text of a schema file (schema.sql, schema_pg.sql), at most 1 MiB,
 * NUL-terminated; the caller frees it. NULL with err set when unreadable. */
char *store_read_schema_file(const char *path, char *err, size_t errlen);
/* Writes "what: detail" into err (when there is room) and returns code. */
int store_fail(char *err, size_t errlen, int code, const char *what, const char *detail);

#endif
