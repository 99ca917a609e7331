/* vertex: GTP vertex text <-> points (see vertex.h). */
#include "engine/vertex.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

static const char column_letters[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

bool vertex_parse(const char *s, int size, point *out) {
    if (!s || size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE) return false;
    if (!strcasecmp(s, "pass")) {
        *out = PASS_POINT;
        return true;
    }
    const char *col = s[0] ? strchr(column_letters, toupper((unsigned char)s[0])) : NULL;
    if (!col) return false;
    int x = (int)(col - column_letters);
    if (!isdigit((unsigned char)s[1]) || s[1] == '0') return false;
    int row = 0;
    const char *d = s + 1;
    for (; isdigit((unsigned char)*d) && row <= BOARD_MAX_SIZE; d++) row = row * 10 + (*d - '0');
    if (*d || x >= size || row < 1 || row > size) return false;
    *out = (point)((row - 1) * size + x);
    return true;
}

const char *vertex_format(point p, int size, char buf[VERTEX_BUF]) {
    if (p == PASS_POINT) {
        strcpy(buf, "pass");
        return buf;
    }
    if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE || p < 0 || p >= size * size) {
        strcpy(buf, "?");
        return buf;
    }
    int x = p % size, row = p / size + 1;
    buf[0] = column_letters[x];
    if (row >= 10) {
        buf[1] = (char)('0' + row / 10);
        buf[2] = (char)('0' + row % 10);
        buf[3] = 0;
    } else {
        buf[1] = (char)('0' + row);
        buf[2] = 0;
    }
    return buf;
}
