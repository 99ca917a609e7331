/* color: colour names (see color.h). Indexed by the colour value. */
#include "engine/color.h"

#include <string.h>

static const struct {
    const char *name, *title, *letter;
} colors[] = {
    [BLACK] = { "black", "Black", "B" },
    [WHITE] = { "white", "White", "W" },
};

static bool is_color(int c) { return c == BLACK || c == WHITE; }

const char *color_name(int color) { return is_color(color) ? colors[color].name : NULL; }

const char *color_title(int color) { return is_color(color) ? colors[color].title : NULL; }

const char *color_letter(int color) { return is_color(color) ? colors[color].letter : NULL; }

bool color_parse(const char *name, int *out) {
    for (int c = BLACK; c <= WHITE; c++)
        if (!strcmp(name, colors[c].name)) {
            *out = c;
            return true;
        }
    return false;
}
