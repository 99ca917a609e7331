/* board_text: ASCII diagrams <-> boards (see board_text.h).
 *
 * Stones are placed with board_play in reading order. That never captures
 * when the drawn position is valid: a partly placed group either is the
 * whole group (with its final liberties) or touches a not yet placed stone
 * of its own, an empty point until then. So the only check needed is that
 * each play is legal and, at the end, that every group has a liberty. */
#include "engine/board_text.h"

#include <string.h>

static int row_width(const char *s, const char **end) {
    int w = 0;
    for (; *s && *s != '\n'; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r') w++;
    *end = s;
    return w;
}

bool board_from_text(board *b, const char *text, bool torus) {
    char cells[BOARD_MAX_POINTS];
    int rows = 0, width = -1;
    const char *s = text;
    while (*s) {
        const char *end;
        int w = row_width(s, &end);
        if (w > 0) {
            if ((width >= 0 && w != width) || w > BOARD_MAX_SIZE || rows >= BOARD_MAX_SIZE) return false;
            width = w;
            int i = 0;
            for (const char *c = s; c < end; c++)
                if (*c != ' ' && *c != '\t' && *c != '\r') cells[rows * w + i++] = *c;
            rows++;
        }
        s = *end ? end + 1 : end;
    }
    board tmp;
    if (rows != width || !board_init(&tmp, rows, torus)) return false;
    for (int i = 0; i < rows * rows; i++) {
        int color = cells[i] == 'X' ? BLACK : cells[i] == 'O' ? WHITE : EMPTY;
        if (color == EMPTY && cells[i] != '.' && cells[i] != '+') return false;
        if (color == EMPTY) continue;
        point p = (point)((rows - 1 - i / rows) * rows + i % rows); /* top row first */
        if (board_check(&tmp, color, p) != MOVE_OK) return false;
        if (board_play(&tmp, color, p, NULL) != 0) return false;
    }
    for (point p = 0; p < tmp.npoints; p++)
        if (board_at(&tmp, p) != EMPTY && board_liberties(&tmp, p) == 0) return false;
    board_pass(&tmp);
    *b = tmp;
    return true;
}

bool board_to_text(const board *b, char *buf, size_t len) {
    int n = b->size;
    if (len < (size_t)(n * (n + 1) + 1)) return false;
    char *o = buf;
    for (int y = n - 1; y >= 0; y--) {
        for (int x = 0; x < n; x++) {
            int c = b->color[y * n + x];
            *o++ = c == BLACK ? 'X' : c == WHITE ? 'O' : '.';
        }
        *o++ = '\n';
    }
    *o = 0;
    return true;
}
