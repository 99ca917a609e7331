/* The store's reads of games, for both backends: each public function
 * checks its arguments, clears its outputs and asks the backend's table
 * (st->be). store_list_games copies the ids out before calling back, so a
 * callback may itself call the store without holding a connection. */
#include "store/store_backend.h"

#include <stdlib.h>
#include <string.h>

int store_load_game(store *st, const char *game_id, store_game *out_row, store_action **out_actions,
                    int *out_count) {
    if (out_actions) *out_actions = NULL;
    if (out_count) *out_count = 0;
    if (!st || !game_id || !out_row || (out_actions && !out_count)) return STORE_ERROR;
    memset(out_row, 0, sizeof *out_row);
    return st->be->load_game(st->db, game_id, out_row, out_actions, out_count);
}

int store_ping(store *st) {
    if (!st) return STORE_ERROR;
    return st->be->ping(st->db);
}

int store_get_notes(store *st, const char *game_id, int color, char **out_ghosts_json) {
    if (out_ghosts_json) *out_ghosts_json = NULL;
    if (!st || !game_id || (color != 1 && color != 2) || !out_ghosts_json) return STORE_ERROR;
    return st->be->get_notes(st->db, game_id, color, out_ghosts_json);
}

/* store_list_games' kinds by name. */
static const char *const list_names[SL_COUNT] = {
    [SL_ALL] = "all",
    [SL_COMPUTER_TO_RESUME] = "computer_to_resume",
    [SL_CLOCK_TO_RESUME] = "clock_to_resume",
    [SL_PUBLIC_TO_LIST] = "public_to_list",
};

int store_list_games(store *st, const char *where_kind, int (*each)(void *ctx, const char *game_id),
                     void *ctx) {
    if (!st || !where_kind || !each) return STORE_ERROR;
    int which = 0;
    while (which < SL_COUNT && strcmp(where_kind, list_names[which]) != 0) which++;
    if (which == SL_COUNT) return STORE_ERROR;
    char(*ids)[24] = NULL;
    int count = 0;
    int code = st->be->list_ids(st->db, (enum store_list)which, &ids, &count);
    for (int i = 0; code == STORE_OK && i < count; i++) {
        int stop = each(ctx, ids[i]);
        if (stop) code = stop;
    }
    free(ids);
    return code;
}
