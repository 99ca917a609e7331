/* The two functions of store.h that belong to no backend: the words for
 * the STORE_* codes and freeing a game row's fields. It calls no other
 * file of the module, so every file may call it. */
#include "store/store.h"

#include <stdlib.h>

const char *store_strerror(int code) {
    switch (code) {
    case STORE_OK: return "ok";
    case STORE_NOT_FOUND: return "not found";
    case STORE_CONFLICT: return "conflict";
    case STORE_UNAVAILABLE: return "storage unavailable";
    default: return "storage error";
    }
}

void store_game_free_fields(store_game *g) {
    if (!g) return;
    free(g->settings_json);
    free(g->options_json);
    free(g->time_control_json);
    g->settings_json = g->options_json = g->time_control_json = NULL;
}
