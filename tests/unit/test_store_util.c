/* See test_store_util.h. */
#include "test_store_util.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int test_tmpdir(char *dir, size_t cap) {
    const char *base = getenv("TMPDIR");
    snprintf(dir, cap, "%s/pgstore-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

void test_rmtree(const char *dir) {
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

store *test_store_open(const char *dir, const char *name) {
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    store *st = NULL;
    int code = store_open(&st, path, TEST_SCHEMA_PATH, err, sizeof err);
    if (code != STORE_OK)
        fprintf(stderr, "    store_open(%s): %s (%s)\n", path, store_strerror(code), err);
    return st;
}

store_game test_game(const char *id, const char *mode) {
    store_game g;
    memset(&g, 0, sizeof g);
    snprintf(g.id, sizeof g.id, "%s", id);
    snprintf(g.mode, sizeof g.mode, "%s", mode);
    g.created_at_ms = 1700000000000;
    g.settings_json = (char *)"{\"size\":9,\"komi\":7.5}";
    g.options_json = (char *)"{}";
    return g;
}

store_action test_action(int seq, const char *kind, int color, const char *vertex) {
    store_action a;
    memset(&a, 0, sizeof a);
    a.seq = seq;
    snprintf(a.kind, sizeof a.kind, "%s", kind);
    a.color = color;
    snprintf(a.vertex, sizeof a.vertex, "%s", vertex);
    a.at_ms = 1700000000000 + seq;
    return a;
}
