/* Helpers shared by the games module's unit tests: a registry over a real
 * SQLite store in a temporary directory, opened and removed per test. */
#ifndef PG_TEST_GAMES_UTIL_H
#define PG_TEST_GAMES_UTIL_H

#include <stdbool.h>

#include "games/registry.h"
#include "store/store.h"

typedef struct games_fixture {
    char dir[256];
    store *st;
    registry *gm;
} games_fixture;

/* A fresh directory, a store in it and the registry over that store. */
bool games_fixture_open(games_fixture *f);
/* Closes the registry and the store and removes the directory. */
void games_fixture_close(games_fixture *f);

/* Viewer v's view of g as text (malloc'd; NULL when it failed), and the
 * seq it is current for in *seq (if not NULL). */
char *game_view_copy(game *g, viewer v, int *seq);
/* game_act, its answer's text (malloc'd) in *answer, NULL unless GAME_OK. */
game_status game_act_copy(game *g, int color, int seq, const action *a, char **answer);

#endif
