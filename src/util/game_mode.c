/* game_mode: mode names (see game_mode.h). Indexed by the enum value. */
#include "util/game_mode.h"

#include <string.h>

static const char *const names[] = {
    [MODE_ONLINE] = "online",
    [MODE_HOTSEAT] = "hotseat",
    [MODE_COMPUTER] = "computer",
};

enum { N_MODES = sizeof names / sizeof names[0] };

const char *mode_name(game_mode m) { return (unsigned)m < N_MODES ? names[m] : NULL; }

bool mode_parse(const char *name, game_mode *out) {
    for (unsigned m = 0; m < N_MODES; m++)
        if (!strcmp(name, names[m])) {
            *out = (game_mode)m;
            return true;
        }
    return false;
}
