/* board: stones, groups, liberties, captures, simple ko and area scoring.
 * See board.h for the data structures and why they are shaped this way.
 *
 * The neighbour tables and Zobrist keys are built once, before main, by a
 * constructor: every board then only points at its read-only table, so
 * boards stay cheap to create and copy and no lazy initialisation races
 * between threads. */
#include "engine/board.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

static board_geometry geometries[BOARD_MAX_SIZE + 1][2];
static uint64_t zobrist[BOARD_MAX_POINTS][3];

static point wrap_or_off(int x, int y, int size, bool torus) {
    if (torus) return (point)(((y + size) % size) * size + (x + size) % size);
    if (x < 0 || y < 0 || x >= size || y >= size) return BOARD_OFF_POINT;
    return (point)(y * size + x);
}

static int min_int(int a, int b) { return a < b ? a : b; }

static void geometry_build(board_geometry *g, int size, bool torus) {
    static const int dx[4] = { 0, 0, -1, 1 }, dy[4] = { 1, -1, 0, 0 };
    static const int ddx[4] = { -1, 1, -1, 1 }, ddy[4] = { 1, 1, -1, -1 };
    g->size = (int16_t)size;
    g->npoints = (int16_t)(size * size);
    g->torus = torus;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) {
            int p = y * size + x;
            for (int i = 0; i < 4; i++) {
                g->neighbour[p][i] = wrap_or_off(x + dx[i], y + dy[i], size, torus);
                g->diagonal[p][i] = wrap_or_off(x + ddx[i], y + ddy[i], size, torus);
            }
            g->edge_distance[p] =
                (uint8_t)(torus ? BOARD_NO_EDGE
                                : min_int(min_int(x, y), min_int(size - 1 - x, size - 1 - y)));
        }
}

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

__attribute__((constructor)) static void board_tables_build(void) {
    for (int size = BOARD_MIN_SIZE; size <= BOARD_MAX_SIZE; size++) {
        geometry_build(&geometries[size][0], size, false);
        geometry_build(&geometries[size][1], size, true);
    }
    uint64_t seed = 0x5048414e544f4d47ull; /* fixed: hashes are reproducible */
    for (int p = 0; p < BOARD_MAX_POINTS; p++) {
        zobrist[p][BLACK] = splitmix64(&seed);
        zobrist[p][WHITE] = splitmix64(&seed);
    }
}

const board_geometry *board_geometry_for(int size, bool torus) {
    if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE) return NULL;
    return &geometries[size][torus ? 1 : 0];
}

bool board_init(board *b, int size, bool torus) {
    if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE) return false;
    memset(b, 0, sizeof *b);
    b->geo = board_geometry_for(size, torus);
    b->size = (int16_t)size;
    b->npoints = (int16_t)(size * size);
    b->torus = torus;
    b->ko = NO_POINT;
    b->color[BOARD_OFF_POINT] = BOARD_OFF;
    for (int p = 0; p < b->npoints; p++) {
        b->empty[p] = (point)p;
        b->empty_pos[p] = (int16_t)p;
        for (int i = 0; i < 4; i++)
            b->nbc[p] += b->geo->neighbour[p][i] == BOARD_OFF_POINT ? 1u << (8 * BOARD_OFF) : 1u;
    }
    b->n_empty = b->npoints;
    return true;
}

void board_copy(board *dst, const board *src) {
    size_t n = (size_t)src->npoints;
    memcpy(dst, src, offsetof(board, color));
    memcpy(dst->color, src->color, n);
    dst->color[BOARD_OFF_POINT] = BOARD_OFF;
    memcpy(dst->group, src->group, n * sizeof src->group[0]);
    memcpy(dst->next_stone, src->next_stone, n * sizeof src->next_stone[0]);
    memcpy(dst->grp, src->grp, n * sizeof src->grp[0]);
    memcpy(dst->empty, src->empty, (size_t)src->n_empty * sizeof src->empty[0]);
    memcpy(dst->empty_pos, src->empty_pos, n * sizeof src->empty_pos[0]);
    memcpy(dst->nbc, src->nbc, n * sizeof src->nbc[0]);
}

/* --- neighbour colour counts ----------------------------------------------- */

/* What a neighbour's count word changes by when p turns from empty to c
 * (added) or from c back to empty (subtracted). Writes to the sentinel's
 * word are harmless: it is never read. */
static inline uint32_t nbc_delta(int c) { return (1u << (8 * c)) - 1u; }

static inline int nbc_count(const board *b, point p, int c) { return (b->nbc[p] >> (8 * c)) & 0xff; }

/* --- group bookkeeping ------------------------------------------------ */

static inline void lib_add(board_group *g, point l) {
    g->libs++;
    g->lib_sum += l;
    g->lib_sum_sq += (int32_t)l * l;
}

static inline void lib_remove(board_group *g, point l) {
    g->libs--;
    g->lib_sum -= l;
    g->lib_sum_sq -= (int32_t)l * l;
}

/* Adds group o's pseudo-liberties to a's (joining groups, or counting a
 * group a move would form). */
static inline void libs_join(board_group *a, const board_group *o) {
    a->libs = (int16_t)(a->libs + o->libs);
    a->lib_sum += o->lib_sum;
    a->lib_sum_sq += o->lib_sum_sq;
}

/* All pseudo-liberties are one point (Cauchy-Schwarz equality). */
static inline bool group_in_atari(const board_group *g) {
    return g->libs > 0 && (int64_t)g->libs * g->lib_sum_sq == (int64_t)g->lib_sum * g->lib_sum;
}

static inline void empty_remove(board *b, point p) {
    int i = b->empty_pos[p];
    point last = b->empty[--b->n_empty];
    b->empty[i] = last;
    b->empty_pos[last] = (int16_t)i;
}

static inline void empty_add(board *b, point p) {
    b->empty_pos[p] = b->n_empty;
    b->empty[b->n_empty++] = p;
}

/* Joins two groups of one colour; the smaller is relabelled. */
static void group_merge(board *b, point ga, point gb) {
    if (b->grp[ga].stones < b->grp[gb].stones) {
        point t = ga;
        ga = gb;
        gb = t;
    }
    point s = gb;
    do {
        b->group[s] = ga;
        s = b->next_stone[s];
    } while (s != gb);
    point t = b->next_stone[ga];
    b->next_stone[ga] = b->next_stone[gb];
    b->next_stone[gb] = t;
    board_group *a = &b->grp[ga];
    const board_group *o = &b->grp[gb];
    libs_join(a, o);
    a->stones = (int16_t)(a->stones + o->stones);
}

/* Removes group g (no liberties left); its points become liberties of the
 * capturer's adjacent groups. Returns the number of stones removed. */
static int group_capture(board *b, point g, int capturer, point *out) {
    int victim = color_other(capturer), n = 0;
    point s = g;
    do {
        point next = b->next_stone[s];
        b->color[s] = EMPTY;
        b->hash ^= zobrist[s][victim];
        empty_add(b, s);
        const point *nb = b->geo->neighbour[s];
        for (int i = 0; i < 4; i++) {
            b->nbc[nb[i]] -= nbc_delta(victim);
            if (b->color[nb[i]] == capturer) lib_add(&b->grp[b->group[nb[i]]], s);
        }
        if (out) out[n] = s;
        n++;
        s = next;
    } while (s != g);
    b->stones[victim] = (int16_t)(b->stones[victim] - n);
    return n;
}

/* --- moves --------------------------------------------------------------- */

move_result board_check(const board *b, int color, point p) {
    if (b->color[p] != EMPTY) return MOVE_OCCUPIED;
    if (p == b->ko && color == b->ko_color) return MOVE_KO;
    if (nbc_count(b, p, EMPTY)) return MOVE_OK;
    const point *nb = b->geo->neighbour[p];
    for (int i = 0; i < 4; i++) {
        int c = b->color[nb[i]];
        if (c == BOARD_OFF) continue;
        bool atari = group_in_atari(&b->grp[b->group[nb[i]]]);
        if (c == color ? !atari : atari) return MOVE_OK; /* a spare liberty, or a capture */
    }
    return MOVE_SUICIDE;
}

int board_play(board *b, int color, point p, point *captured_out) {
    assert((color == BLACK || color == WHITE) && board_on(b, p));
    assert(board_check(b, color, p) == MOVE_OK);
    int other = color_other(color);
    b->ko = NO_POINT;
    b->ko_color = EMPTY;
    empty_remove(b, p);
    b->color[p] = (uint8_t)color;
    b->hash ^= zobrist[p][color];
    b->stones[color]++;
    b->group[p] = p;
    b->next_stone[p] = p;
    b->grp[p] = (board_group){ 0, 1, 0, 0 };

    const point *nb = b->geo->neighbour[p];
    uint32_t delta = nbc_delta(color);
    for (int i = 0; i < 4; i++) {
        int c = b->color[nb[i]];
        b->nbc[nb[i]] += delta;
        if (c == EMPTY) lib_add(&b->grp[p], nb[i]);
        else if (c != BOARD_OFF) lib_remove(&b->grp[b->group[nb[i]]], p);
    }
    int captured = 0;
    for (int i = 0; i < 4; i++) {
        point n = nb[i];
        int c = b->color[n];
        if (c == color) {
            if (b->group[n] != b->group[p]) group_merge(b, b->group[p], b->group[n]);
        } else if (c == other && b->grp[b->group[n]].libs == 0) {
            captured += group_capture(b, b->group[n], color, captured_out ? captured_out + captured : NULL);
            if (captured == 1) b->ko = n;
        }
    }
    const board_group *mine = &b->grp[b->group[p]];
    if (captured == 1 && mine->stones == 1 && mine->libs == 1) b->ko_color = (uint8_t)other;
    else b->ko = NO_POINT;
    b->captures[color] += captured;
    return captured;
}

void board_pass(board *b) {
    b->ko = NO_POINT;
    b->ko_color = EMPTY;
}

/* The pseudo-liberties group g would have once a stone fills p: each of
 * p's adjacencies to g counted off. */
static board_group group_filled_at(const board *b, point g, point p) {
    const point *nb = b->geo->neighbour[p];
    const board_group *gr = &b->grp[g];
    int k = 0; /* adjacencies of p to g */
    for (int j = 0; j < 4; j++)
        if (b->color[nb[j]] == b->color[g] && b->group[nb[j]] == g) k++;
    return (board_group){ (int16_t)(gr->libs - k), gr->stones, gr->lib_sum - k * p,
                          gr->lib_sum_sq - k * (int32_t)p * p };
}

bool board_would_atari(const board *b, int color, point p) {
    assert(board_on(b, p) && board_check(b, color, p) == MOVE_OK);
    int other = color_other(color);
    const point *nb = b->geo->neighbour[p];
    for (int i = 0; i < 4; i++) {
        if (b->color[nb[i]] != other) continue;
        point g = b->group[nb[i]];
        if (group_in_atari(&b->grp[g])) continue; /* captured, or already in atari */
        board_group after = group_filled_at(b, g, p);
        if (group_in_atari(&after)) return true;
    }
    return false;
}

uint64_t board_hash_after(const board *b, int color, point p) {
    assert(board_on(b, p) && board_check(b, color, p) == MOVE_OK);
    int other = color_other(color);
    uint64_t h = b->hash ^ zobrist[p][color];
    point done[4];
    int ndone = 0;
    const point *nb = b->geo->neighbour[p];
    for (int i = 0; i < 4; i++) {
        if (b->color[nb[i]] != other) continue;
        point g = b->group[nb[i]];
        if (!group_in_atari(&b->grp[g])) continue;
        bool seen = false;
        for (int j = 0; j < ndone; j++) seen |= done[j] == g;
        if (seen) continue;
        done[ndone++] = g;
        point s = g;
        do {
            h ^= zobrist[s][other];
            s = b->next_stone[s];
        } while (s != g);
    }
    return h;
}

bool board_is_eye(const board *b, int color, point p) {
    assert(board_on(b, p));
    if (nbc_count(b, p, color) + nbc_count(b, p, BOARD_OFF) != 4) return false;
    int other = color_other(color), bad = 0, edge = 0;
    const point *dg = b->geo->diagonal[p];
    for (int i = 0; i < 4; i++) {
        int c = b->color[dg[i]];
        if (c == other) bad++;
        else if (c == BOARD_OFF) edge = 1;
    }
    return bad + edge < 2;
}

int board_liberties(const board *b, point p) {
    if (b->color[p] != BLACK && b->color[p] != WHITE) return 0;
    uint8_t counted[BOARD_MAX_POINTS + 1];
    memset(counted, 0, (size_t)b->npoints);
    int libs = 0;
    point g = b->group[p], s = g;
    do {
        const point *nb = b->geo->neighbour[s];
        for (int i = 0; i < 4; i++)
            if (b->color[nb[i]] == EMPTY && !counted[nb[i]]) {
                counted[nb[i]] = 1;
                libs++;
            }
        s = b->next_stone[s];
    } while (s != g);
    return libs;
}

bool board_in_atari(const board *b, point p) {
    if (b->color[p] != BLACK && b->color[p] != WHITE) return false;
    return group_in_atari(&b->grp[b->group[p]]);
}

point board_atari_liberty(const board *b, point p) {
    if (!board_in_atari(b, p)) return NO_POINT;
    const board_group *g = &b->grp[b->group[p]];
    return (point)(g->lib_sum / g->libs); /* every pseudo-liberty is that point */
}

/* Whether colour c at p would take a neighbouring group's last liberty. */
static bool move_captures(const board *b, int color, point p) {
    const point *nb = b->geo->neighbour[p];
    for (int i = 0; i < 4; i++)
        if (b->color[nb[i]] == color_other(color) && group_in_atari(&b->grp[b->group[nb[i]]])) return true;
    return false;
}

point board_atari_liberty_after(const board *b, int color, point p) {
    assert(board_on(b, p) && board_check(b, color, p) == MOVE_OK);
    if (nbc_count(b, p, EMPTY) >= 2) return NO_POINT; /* they stay liberties */
    if (move_captures(b, color, p)) {
        board after; /* the taken stones' points become liberties: play it */
        board_copy(&after, b);
        board_play(&after, color, p, NULL);
        return board_atari_liberty(&after, p);
    }
    /* The new group's pseudo-liberties: p's empty neighbours, and those of
     * each group of c it joins, less the adjacencies p fills. */
    const point *nb = b->geo->neighbour[p];
    board_group joined = { 0 };
    point counted[4];
    int n_counted = 0;
    for (int i = 0; i < 4; i++) {
        point q = nb[i];
        if (b->color[q] == EMPTY) lib_add(&joined, q);
        if (b->color[q] != color) continue;
        point g = b->group[q];
        bool seen = false;
        for (int j = 0; j < n_counted; j++) seen |= counted[j] == g;
        if (seen) continue;
        counted[n_counted++] = g;
        board_group part = group_filled_at(b, g, p);
        libs_join(&joined, &part);
    }
    return group_in_atari(&joined) ? (point)(joined.lib_sum / joined.libs) : NO_POINT;
}

/* --- scoring ------------------------------------------------------------- */

/* Gives every point of the empty region around p (marked in seen) the
 * colour that alone borders it in owner[], EMPTY if both or none do.
 * color[] has no sentinel entry, so off-board neighbours are skipped. */
static void region_own(const board_geometry *geo, const uint8_t *color, point p, uint8_t *seen,
                       uint8_t *owner) {
    point region[BOARD_MAX_POINTS];
    int n = 0, borders = 0;
    region[n++] = p;
    seen[p] = 1;
    for (int i = 0; i < n; i++) {
        point r = region[i];
        foreach_neighbour(geo, r, q) {
            if (q == BOARD_OFF_POINT) continue;
            if (color[q] == EMPTY && !seen[q]) {
                seen[q] = 1;
                region[n++] = q;
            } else if (color[q] != EMPTY) borders |= 1 << color[q];
        }
    }
    int who = borders == 1 << BLACK ? BLACK : borders == 1 << WHITE ? WHITE : EMPTY;
    for (int i = 0; i < n; i++) owner[region[i]] = (uint8_t)who;
}

void board_territory(const board_geometry *geo, const uint8_t *color, uint8_t *owner) {
    uint8_t seen[BOARD_MAX_POINTS];
    memset(seen, 0, (size_t)geo->npoints);
    memset(owner, EMPTY, (size_t)geo->npoints);
    for (point p = 0; p < geo->npoints; p++)
        if (color[p] == EMPTY && !seen[p]) region_own(geo, color, p, seen, owner);
}

void board_score_area(const board *b, int *black, int *white) {
    uint8_t owner[BOARD_MAX_POINTS];
    board_territory(b->geo, b->color, owner);
    int area[3] = { 0, b->stones[BLACK], b->stones[WHITE] };
    for (point p = 0; p < b->npoints; p++) area[owner[p]]++;
    *black = area[BLACK];
    *white = area[WHITE];
}

/* --- the invariant checker ------------------------------------------------ */

/* The group rooted at root, walked along its stone list (each stone marked
 * in listed[]): every stone names the root, no same-coloured neighbour is
 * in another group, and the root's counts and liberty sums are what the
 * stones' empty neighbours give. */
static const char *group_violation(const board *b, point root, uint8_t *listed) {
    int stones = 0, libs = 0;
    int32_t sum = 0, sq = 0;
    point s = root;
    do {
        if (s < 0 || s >= b->npoints || listed[s] || b->group[s] != root || b->color[s] != b->color[root])
            return "a group's stone list leaves the group or loops";
        listed[s] = 1;
        stones++;
        foreach_neighbour(b->geo, s, q) {
            if (b->color[q] == EMPTY) {
                libs++;
                sum += q;
                sq += (int32_t)q * q;
            } else if (b->color[q] == b->color[s] && b->group[q] != root)
                return "adjacent stones of one colour in two groups";
        }
        s = b->next_stone[s];
    } while (s != root);
    const board_group *g = &b->grp[root];
    if (g->stones != stones) return "a group's stone count is wrong";
    if (g->libs != libs || g->lib_sum != sum || g->lib_sum_sq != sq)
        return "a group's liberty sums are wrong";
    if (libs == 0) return "a group on the board has no liberty";
    return NULL;
}

/* Every stone is in exactly one group's list, that of its root. */
static const char *groups_violation(const board *b) {
    uint8_t listed[BOARD_MAX_POINTS];
    memset(listed, 0, (size_t)b->npoints);
    for (point p = 0; p < b->npoints; p++) {
        if (b->color[p] == EMPTY || b->group[p] != p) continue;
        const char *why = group_violation(b, p, listed);
        if (why) return why;
    }
    for (point p = 0; p < b->npoints; p++)
        if (b->color[p] != EMPTY && !listed[p]) return "a stone is in no group's list";
    return NULL;
}

static const char *empty_list_violation(const board *b) {
    uint8_t listed[BOARD_MAX_POINTS];
    memset(listed, 0, (size_t)b->npoints);
    for (int i = 0; i < b->n_empty; i++) {
        point p = b->empty[i];
        if (p < 0 || p >= b->npoints || b->color[p] != EMPTY || b->empty_pos[p] != i || listed[p])
            return "the empty list holds a stone, a duplicate or a wrong position";
        listed[p] = 1;
    }
    for (point p = 0; p < b->npoints; p++)
        if (b->color[p] == EMPTY && !listed[p]) return "an empty point is missing from the empty list";
    return NULL;
}

const char *board_invariant_violation(const board *b) {
    if (b->geo != board_geometry_for(b->size, b->torus) || b->npoints != b->size * b->size)
        return "size, topology and geometry disagree";
    if (b->color[BOARD_OFF_POINT] != BOARD_OFF) return "the off-board sentinel lost its colour";
    const char *why = empty_list_violation(b);
    if (why) return why;
    int count[4] = { 0, 0, 0, 0 };
    uint64_t hash = 0;
    for (point p = 0; p < b->npoints; p++) {
        int c = b->color[p];
        if (c != EMPTY && c != BLACK && c != WHITE) return "a point holds no colour";
        count[c]++;
        uint32_t nbc = 0;
        foreach_neighbour(b->geo, p, q) nbc += 1u << (8 * b->color[q]);
        if (nbc != b->nbc[p]) return "a neighbour colour count is wrong";
        if (c != EMPTY) hash ^= zobrist[p][c];
    }
    if ((why = groups_violation(b))) return why;
    if (count[BLACK] != b->stones[BLACK] || count[WHITE] != b->stones[WHITE] || count[EMPTY] != b->n_empty)
        return "stone or empty counts are wrong";
    if (hash != b->hash) return "the hash is not the stones' hash";
    if ((b->ko == NO_POINT) != (b->ko_color == EMPTY)) return "ko point and ko colour disagree";
    if (b->ko != NO_POINT && (!board_on(b, b->ko) || b->color[b->ko] != EMPTY))
        return "the ko point is not empty";
    return NULL;
}
