/* Helpers of the games module's unit tests (see test_games_util.h). */
#include "test_games_util.h"

#include <stdlib.h>
#include <string.h>

#include "test_store_util.h"

bool games_fixture_open(games_fixture *f) {
    memset(f, 0, sizeof *f);
    char err[200];
    if (test_tmpdir(f->dir, sizeof f->dir) != 0 || !(f->st = test_store_open(f->dir, "games.db")))
        return false;
    return registry_open(&f->gm, f->st, err, sizeof err) == GAME_OK;
}

void games_fixture_close(games_fixture *f) {
    registry_close(f->gm);
    store_close(f->st);
    test_rmtree(f->dir);
}

char *game_view_copy(game *g, viewer v, int *seq) {
    strbuf sb = { 0 };
    if (game_view_text(g, v, &sb, seq)) return strbuf_take(&sb, NULL);
    strbuf_free(&sb);
    return NULL;
}

game_status game_act_copy(game *g, int color, int seq, const action *a, char **answer) {
    strbuf sb = { 0 };
    game_status st = game_act(g, color, seq, a, &sb);
    *answer = st == GAME_OK ? strbuf_take(&sb, NULL) : NULL;
    strbuf_free(&sb);
    return st;
}
