/* handicap: GTP v2 fixed_handicap placement (see handicap.h). */
#include "engine/handicap.h"

int handicap_max(int size) {
    if (size < 7 || size > BOARD_MAX_SIZE) return 0;
    return (size % 2 == 1 && size >= 9) ? 9 : 4;
}

int handicap_points(int size, int n, point out[HANDICAP_MAX]) {
    if (n == 0) return 0;
    if (n < 2 || n > handicap_max(size)) return -1;
    int lo = size >= 13 ? 3 : 2, hi = size - 1 - lo, mid = size / 2;
    /* GTP's order: the corners, then (5, 7, 9) centre, (6+) left and right
     * sides, (8+) bottom and top sides. */
    int xy[HANDICAP_MAX][2], k = 0;
    xy[k][0] = lo;
    xy[k++][1] = lo;
    xy[k][0] = hi;
    xy[k++][1] = hi;
    if (n >= 3) {
        xy[k][0] = lo;
        xy[k++][1] = hi;
    }
    if (n >= 4) {
        xy[k][0] = hi;
        xy[k++][1] = lo;
    }
    if (n >= 6) {
        xy[k][0] = lo;
        xy[k++][1] = mid;
        xy[k][0] = hi;
        xy[k++][1] = mid;
    }
    if (n >= 8) {
        xy[k][0] = mid;
        xy[k++][1] = lo;
        xy[k][0] = mid;
        xy[k++][1] = hi;
    }
    if (n % 2 == 1 && n >= 5) {
        xy[k][0] = mid;
        xy[k++][1] = mid;
    }
    for (int i = 0; i < k; i++) out[i] = (point)(xy[i][1] * size + xy[i][0]);
    return k;
}
