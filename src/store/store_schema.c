/* What both backends share when they open a database: the rule of schema
 * versions, reading a schema file, and the form of an error message. It
 * calls no other file of the module. */
#include "store/store_schema.h"

#include "store/store.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STORE_SCHEMA_MAX_BYTES (1 << 20)

int store_fail(char *err, size_t errlen, int code, const char *what, const char *detail) {
    if (err && errlen) snprintf(err, errlen, "%s: %s", what, detail);
    return code;
}

int store_schema_judge(int found, int supported, char *err, size_t errlen) {
    char detail[128];
    if (found < 1) return store_fail(err, errlen, STORE_ERROR, "database", "holds no schema version");
    if (found <= supported) return STORE_OK;
    snprintf(detail, sizeof detail, "schema version %d is newer than this binary's %d: run a newer phantomgo",
             found, supported);
    return store_fail(err, errlen, STORE_ERROR, "database", detail);
}

char *store_read_schema_file(const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        store_fail(err, errlen, STORE_ERROR, path, strerror(errno));
        return NULL;
    }
    char *text = malloc(STORE_SCHEMA_MAX_BYTES + 1);
    size_t n = text ? fread(text, 1, STORE_SCHEMA_MAX_BYTES + 1, f) : 0;
    bool bad = !text || ferror(f) || n > STORE_SCHEMA_MAX_BYTES;
    fclose(f);
    if (bad) {
        store_fail(err, errlen, STORE_ERROR, path, text ? "unreadable or over 1 MiB" : "out of memory");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}
