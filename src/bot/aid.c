/* aid: the deduction aid's estimate (see aid.h). */
#include "bot/aid.h"

#include <stdlib.h>
#include <string.h>

#include "bot/belief.h"

/* FNV-1a, 64 bits: stable across builds and machines, which keeps the
 * aid's answers byte-identical wherever the server runs. */
uint64_t aid_seed(const view *v) {
    const unsigned char *bytes = (const unsigned char *)v;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < sizeof *v; i++) {
        h ^= bytes[i];
        h *= 1099511628211ull;
    }
    return h ? h : 1; /* xorshift needs a non-zero state */
}

static void count_samples(const belief *bf, const bot_memory *m, uint64_t seed, int samples, board *sample,
                          aid_map *out) {
    int size = m->view.settings.size, n = size * size, opp = color_other(m->me);
    int count[BOARD_MAX_POINTS] = { 0 };
    rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < samples; i++) {
        belief_sample(bf, sample, &r);
        for (point p = 0; p < n; p++) count[p] += sample->color[p] == opp;
    }
    out->size = size;
    out->samples = samples;
    for (point p = 0; p < n; p++) out->percent[p] = (uint8_t)((count[p] * 100 + samples / 2) / samples);
}

bool aid_estimate(const bot_memory *m, uint64_t seed, int samples, aid_map *out) {
    memset(out, 0, sizeof *out);
    belief *bf = samples >= 1 ? malloc(sizeof *bf) : NULL; /* tens of KiB: off the stack */
    board *sample = bf ? malloc(sizeof *sample) : NULL;
    bool ok = sample && belief_prepare(bf, m, true);
    if (ok) count_samples(bf, m, seed, samples, sample, out);
    free(sample);
    free(bf);
    return ok;
}
