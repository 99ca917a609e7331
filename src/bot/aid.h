/* aid: the deduction aid, how likely each point is to hold an opponent
 * stone, estimated from one seat's own knowledge by the computer player's
 * belief sampler (bot/belief.h, the informed prior of the strong level).
 *
 * Fair by the same construction as the player: the only input is a
 * bot_memory, the fold of the observations the visibility filter gave that
 * seat. The seed is derived from the seat's view itself (aid_seed), never
 * from anything the seat cannot see, so two games that differ only in
 * hidden stones give that seat byte-identical maps, and the same knowledge
 * always gives the same map.
 *
 * The cost is bounded: a fixed number of sampled boards (AID_SAMPLES),
 * each a board copy plus one placement per hidden stone, with no search
 * and no playout. `phantomgo bench` prints the time of one estimate on 9x9 and 19x19. */
#ifndef PG_BOT_AID_H
#define PG_BOT_AID_H

#include <stdbool.h>
#include <stdint.h>

#include "bot/bot.h"

/* Boards sampled per estimate: the percentages move by about 3 points
 * between seeds at this budget, finer than the heat map's shades. */
#define AID_SAMPLES 256

typedef struct aid_map {
    int32_t size;
    int32_t samples; /* boards sampled */
    /* Per point: in how many percent of the samples an opponent stone
     * stood there, 0..100 (0 on the seat's own stones). */
    uint8_t percent[BOARD_MAX_POINTS];
} aid_map;

/* A seed made of the bytes of view v (fully zeroed padding, see view.h)
 * and nothing else. */
uint64_t aid_seed(const view *v);

/* Fills out (zeroed first) for the seat whose memory is m, sampling
 * `samples` boards from seed. False if the memory cannot be sampled (an
 * inconsistent memory); out is then all zero. */
bool aid_estimate(const bot_memory *m, uint64_t seed, int samples, aid_map *out);

#endif
