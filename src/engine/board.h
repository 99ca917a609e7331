/* board: the fast Go board shared by the referee and the bot's playouts.
 *
 * Shaped after Pachi and michi-c: one fixed-size struct, copyable by plain
 * assignment (or the faster board_copy), with no allocation anywhere. Points
 * are y*size+x (x = column from the left, y = row from the bottom, so y = 0
 * is row 1), for sizes 5..25, on a plane or a torus.
 *
 * Speed comes from three incremental structures:
 *  - a neighbour table per (size, topology), built once at program start and
 *    shared read-only by every board (off-board neighbours point to a
 *    sentinel whose colour is BOARD_OFF, so loops need no bounds checks);
 *  - groups as circular linked lists of stones, each group (identified by
 *    its root point) carrying its pseudo-liberty count together with the
 *    sum and sum of squares of its pseudo-liberties: the group is in atari
 *    exactly when libs * sum_sq == sum^2 (all pseudo-liberties are the same
 *    point), so atari, capture and suicide tests are O(1);
 *  - the list of empty points, so a playout draws a random move in O(1);
 *  - per point, how many of its neighbours are empty, black, white or off
 *    the board (one byte each in a 32-bit word), so "has a liberty next to
 *    it" and "is surrounded by one colour" are a load and a mask.
 * A Zobrist hash of the position is kept for positional superko.
 *
 * The board knows only the simple ko rule (no immediate recapture of a
 * single stone); superko history, turns and phantom rules are the referee's.
 * Pure C: no I/O, no globals other than the read-only tables. */
#ifndef PG_ENGINE_BOARD_H
#define PG_ENGINE_BOARD_H

#include <stdbool.h>
#include <stdint.h>

/* Colours. BOARD_OFF is the colour of the off-board sentinel only. */
enum { EMPTY = 0, BLACK = 1, WHITE = 2, BOARD_OFF = 3 };
static inline int color_other(int c) { return 3 - c; }

#define BOARD_MIN_SIZE 5
#define BOARD_MAX_SIZE 25
#define BOARD_MAX_POINTS (BOARD_MAX_SIZE * BOARD_MAX_SIZE) /* 625 */

/* A point: y*size+x, or one of the two special values below. */
typedef int16_t point;
#define PASS_POINT ((point)-1)
#define NO_POINT ((point)-2)
/* Index of the off-board sentinel in the neighbour tables (not a point). */
#define BOARD_OFF_POINT ((point)BOARD_MAX_POINTS)

/* The result of checking a move on the board (not the referee's verdict:
 * the referee adds superko and the phantom refusals on top). */
typedef enum { MOVE_OK = 0, MOVE_OCCUPIED, MOVE_SUICIDE, MOVE_KO } move_result;

/* One group's incremental data, stored at the index of its root point. */
typedef struct board_group {
    int16_t libs;       /* pseudo-liberties: (stone, empty neighbour) pairs */
    int16_t stones;     /* number of stones */
    int32_t lib_sum;    /* sum of the pseudo-liberty points */
    int32_t lib_sum_sq; /* sum of their squares */
} board_group;

/* Distance to the edge of every point on a torus, which has none. */
#define BOARD_NO_EDGE BOARD_MAX_SIZE

/* Neighbour tables for one size and topology (read-only, shared). */
typedef struct board_geometry {
    int16_t size, npoints;
    bool torus;
    point neighbour[BOARD_MAX_POINTS][4];    /* N, S, W, E; BOARD_OFF_POINT off-board */
    point diagonal[BOARD_MAX_POINTS][4];     /* the four diagonals, same convention */
    uint8_t edge_distance[BOARD_MAX_POINTS]; /* 0 on the first line; BOARD_NO_EDGE on a torus */
} board_geometry;

/* The shared tables of a size (BOARD_MIN_SIZE..BOARD_MAX_SIZE) and
 * topology, without building a board; NULL for a size out of range. */
const board_geometry *board_geometry_for(int size, bool torus);

/* Pachi-style iteration over the four neighbours (or diagonals) of point p:
 * declares q and binds it to each in turn (BOARD_OFF_POINT beyond the edge
 * of a plane). break and continue work as in any loop; p is read each
 * time, so pass a plain variable.
 *     foreach_neighbour(b->geo, p, q) if (board_at(b, q) == EMPTY) libs++;  */
#define foreach_neighbour(geo, p, q) foreach_point_of_((geo)->neighbour[p], q)
#define foreach_diagonal(geo, p, q) foreach_point_of_((geo)->diagonal[p], q)
#define foreach_point_of_(list, q) \
    for (point q##_i_ = 0, q = (list)[0]; q##_i_ < 4; q##_i_++, q = q##_i_ < 4 ? (list)[q##_i_] : q)

typedef struct board {
    const board_geometry *geo;
    uint64_t hash; /* Zobrist hash of the stones alone */
    int16_t size, npoints;
    bool torus;
    uint8_t ko_color;                    /* colour forbidden to play at ko (EMPTY: none) */
    point ko;                            /* the simple-ko point, or NO_POINT */
    int16_t stones[3];                   /* stones on the board per colour */
    int32_t captures[3];                 /* stones captured so far BY each colour */
    int16_t n_empty;                     /* how many entries of empty[] are valid */
    uint8_t color[BOARD_MAX_POINTS + 1]; /* +1: the sentinel, BOARD_OFF */
    point group[BOARD_MAX_POINTS];       /* root point of the stone's group */
    point next_stone[BOARD_MAX_POINTS];  /* circular list of a group's stones */
    board_group grp[BOARD_MAX_POINTS];   /* valid at root points only */
    point empty[BOARD_MAX_POINTS];       /* the empty points, in no order */
    int16_t empty_pos[BOARD_MAX_POINTS]; /* index of an empty point in empty[] */
    uint32_t nbc[BOARD_MAX_POINTS + 1];  /* neighbour colour counts: byte c counts
                                               neighbours of colour c (+1: sentinel) */
} board;

/* Sets up an empty board. Returns false (board untouched) if size is not in
 * BOARD_MIN_SIZE..BOARD_MAX_SIZE. */
bool board_init(board *b, int size, bool torus);

/* Copies src into dst touching only the used part of the arrays: much
 * faster than assignment on small boards (what the bot does per playout). */
void board_copy(board *dst, const board *src);

static inline int board_size(const board *b) { return b->size; }
static inline int board_points(const board *b) { return b->npoints; }
static inline bool board_is_torus(const board *b) { return b->torus; }
/* Colour at an on-board point p (0 <= p < npoints): EMPTY, BLACK or WHITE. */
static inline int board_at(const board *b, point p) { return b->color[p]; }
static inline int board_x(const board *b, point p) { return p % b->size; }
static inline int board_y(const board *b, point p) { return p / b->size; }
static inline bool board_on(const board *b, point p) { return p >= 0 && p < b->npoints; }
/* Lines between p and the nearest edge: 0 on the first line, 1 on the
 * second...; BOARD_NO_EDGE on a torus. */
static inline int board_edge_distance(const board *b, point p) { return b->geo->edge_distance[p]; }
/* Stones of colour c on the board; stones captured so far by colour c. */
static inline int board_count(const board *b, int c) { return b->stones[c]; }
static inline int board_captures(const board *b, int c) { return b->captures[c]; }
static inline uint64_t board_hash(const board *b) { return b->hash; }
/* The point the player to move may not retake now (simple ko), or NO_POINT. */
static inline point board_ko(const board *b) { return b->ko; }

/* Would colour c playing at on-board point p be legal? MOVE_OK, or why not
 * (occupied by any stone, suicide, simple ko). No side effect. */
move_result board_check(const board *b, int color, point p);

/* Plays a move that board_check found MOVE_OK (anything else is undefined).
 * Returns the number of stones captured; if captured_out is not NULL it
 * receives their points (room for BOARD_MAX_POINTS, in no particular order). */
int board_play(board *b, int color, point p, point *captured_out);

/* A pass: only clears the ko restriction. */
void board_pass(board *b);

/* Before playing a legal move: would colour c at p leave some opponent group
 * in atari that is not in atari now? (The "atari" announcement; captures by
 * the same move never give an opponent group a liberty, so this is exact.) */
bool board_would_atari(const board *b, int color, point p);

/* The position's hash after colour c plays the legal move p (for superko),
 * computed without playing it. */
uint64_t board_hash_after(const board *b, int color, point p);

/* Is point p an eye of colour c that a playout must not fill? All
 * orthogonal neighbours are c's stones (or the edge), and at most one
 * diagonal is an opponent stone (none when p is on the edge of a plane).
 * Only the neighbours are read, so the bot may ask about a point whose
 * content it cannot see. */
bool board_is_eye(const board *b, int color, point p);

/* Exact liberty count of the group holding stone p (0 if p is empty). */
int board_liberties(const board *b, point p);
/* Is the group holding stone p in atari (exactly one liberty)? */
bool board_in_atari(const board *b, point p);
/* That one liberty when the group holding stone p is in atari, else
 * NO_POINT (also for an empty p). */
point board_atari_liberty(const board *b, point p);
/* The one liberty the group of colour c's stone at p would have after the
 * legal move p, or NO_POINT if it would have several. Found from the
 * neighbouring groups' liberties without playing the move, unless the
 * move captures (then on a copy of the board). */
point board_atari_liberty_after(const board *b, int color, point p);

/* Tromp-Taylor area: each colour's stones plus the empty regions reaching
 * only that colour (regions wrap on a torus). Komi is the caller's. */
void board_score_area(const board *b, int *black, int *white);

/* The territory behind that score, for any position given as one colour
 * per point (EMPTY, BLACK or WHITE, geo->npoints of them), such as a
 * finished game's view: owner[p] is the colour that alone borders the empty
 * region holding p, EMPTY for a stone or a point of a region reaching both
 * colours or none. */
void board_territory(const board_geometry *geo, const uint8_t *color, uint8_t *owner);

/* A slow from-scratch check of every incremental structure (groups and
 * their liberty sums, the empty list, the neighbour colour counts, stone
 * counts, the ko fields and the hash) against the colours alone: NULL when
 * they agree, else what disagrees. For tests, the fuzzer and the referee's
 * debug assertions. */
const char *board_invariant_violation(const board *b);

#endif
