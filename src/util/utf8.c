/* utf8: character-safe excerpts (see utf8.h). */
#include "util/utf8.h"

#include <assert.h>
#include <string.h>
#include <unistr.h>

static const char REPLACEMENT[] = "\xef\xbf\xbd"; /* U+FFFD */

int utf8_char_len(const char *s, size_t left) {
    ucs4_t uc;
    int n = u8_mbtoucr(&uc, (const uint8_t *)s, left);
    return n > 0 ? n : 0;
}

char *utf8_excerpt(char *out, size_t outlen, const char *s, size_t max_bytes) {
    assert(out && outlen >= 4 && s);
    size_t room = outlen - 1 < max_bytes ? outlen - 1 : max_bytes;
    size_t used = 0, left = strlen(s);
    while (left > 0) {
        int n = utf8_char_len(s, left);
        const char *piece = n ? s : REPLACEMENT;
        size_t size = n ? (size_t)n : sizeof REPLACEMENT - 1;
        if (used + size > room) break;
        memcpy(out + used, piece, size);
        used += size;
        s += n ? n : 1;
        left -= n ? (size_t)n : 1;
    }
    out[used] = '\0';
    return out;
}
