/* fuzz_util: what every libFuzzer target of tests/fuzz/ shares.
 *
 * A fuzz input is read as a stream of decisions through fuzz_bytes: each
 * call takes the next byte(s) and reads zeros once the input runs out, so
 * every input, however short, is a complete and deterministic run and
 * libFuzzer's mutations map to small changes in the run. FUZZ_CHECK aborts
 * with the failed invariant and its line, which libFuzzer reports as a crash
 * and saves the input that caused it. Header-only: each target is one .c. */
#ifndef PG_FUZZ_UTIL_H
#define PG_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct fuzz_bytes {
    const uint8_t *data;
    size_t size, pos;
} fuzz_bytes;

static inline fuzz_bytes fuzz_bytes_of(const uint8_t *data, size_t size) {
    fuzz_bytes fb = { data, size, 0 };
    return fb;
}

static inline int fuzz_left(const fuzz_bytes *fb) { return fb->pos < fb->size; }

static inline unsigned fuzz_u8(fuzz_bytes *fb) { return fb->pos < fb->size ? fb->data[fb->pos++] : 0; }

static inline unsigned fuzz_u16(fuzz_bytes *fb) {
    unsigned hi = fuzz_u8(fb);
    return hi << 8 | fuzz_u8(fb);
}

/* A value in 0..n-1 (n >= 1) from one byte, or two when n > 256. */
static inline unsigned fuzz_below(fuzz_bytes *fb, unsigned n) {
    return (n > 256 ? fuzz_u16(fb) : fuzz_u8(fb)) % n;
}

#define FUZZ_CHECK(cond, ...)                                                              \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "invariant failed at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            abort();                                                                       \
        }                                                                                  \
    } while (0)

#endif
