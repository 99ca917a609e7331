/* `phantomgo backup --db PATH --to FILE`: a consistent copy of the SQLite
 * database of a running server, without stopping it. The store does the
 * work (store_backup: SQLite's online backup API, an integrity check, a
 * temporary name, fsync, rename); this file reads the command line and
 * reports. --db defaults to $PHANTOMGO_DB, as `serve` reads it, so inside
 * the Docker image `phantomgo backup --to /data/backup.db` is enough.
 *
 * Exit status: 0 when the copy is in place, 1 when it could not be made
 * (nothing is left at FILE then, or its previous content), 2 for bad
 * arguments. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "util/now.h"

static void backup_usage(FILE *out) {
    fprintf(out, "usage: phantomgo backup [--db PATH] --to FILE\n"
                 "\n"
                 "Copies the SQLite database PATH into FILE while `phantomgo serve` keeps\n"
                 "running on it (SQLite's online backup API): the copy holds every action\n"
                 "acknowledged before the command started, passes PRAGMA integrity_check,\n"
                 "and `phantomgo serve --db FILE` serves it. FILE appears only when whole\n"
                 "(written as FILE.partial, fsynced, renamed); an existing FILE is replaced.\n"
                 "\n"
                 "  --db PATH  the database (default $PHANTOMGO_DB, else ./data/phantomgo.db)\n"
                 "  --to FILE  where the copy goes\n"
                 "\n"
                 "For PostgreSQL use pg_dump (docs/SELF-HOSTING.md, \"Backups\").\n");
}

/* "--name VALUE" or "--name=VALUE"; *i is advanced past VALUE. NULL: not
 * this option, or (with *missing set) the value is absent. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

int cmd_backup(int argc, char **argv) {
    const char *db = getenv("PHANTOMGO_DB");
    const char *to = NULL;
    if (!db || !*db) db = "./data/phantomgo.db";
    for (int i = 1; i < argc; i++) {
        bool missing = false;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            backup_usage(stdout);
            return 0;
        } else if ((v = option_value(argc, argv, &i, "--db", &missing))) {
            db = v;
        } else if ((v = option_value(argc, argv, &i, "--to", &missing))) {
            to = v;
        } else {
            if (missing) fprintf(stderr, "phantomgo backup: %s needs a value\n", argv[i]);
            else fprintf(stderr, "phantomgo backup: unexpected argument '%s'\n", argv[i]);
            backup_usage(stderr);
            return 2;
        }
    }
    if (!to || !*to || !*db) {
        fprintf(stderr, "phantomgo backup: --to FILE is required (and --db may not be empty)\n");
        backup_usage(stderr);
        return 2;
    }
    char err[512] = "";
    store_backup_info info;
    double t0 = now_monotonic_s();
    if (store_backup(db, to, &info, err, sizeof err) != STORE_OK) {
        fprintf(stderr, "phantomgo backup: %s\n", err);
        return 1;
    }
    printf("backed up %s to %s: %d pages, %lld bytes, integrity ok, %.0f ms\n", db, to, info.pages, info.bytes,
           (now_monotonic_s() - t0) * 1000.0);
    return 0;
}
