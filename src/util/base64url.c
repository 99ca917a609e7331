/* base64url: RFC 4648 section 5 without padding (see base64url.h). Bits
 * go through a 32-bit accumulator, six out (or eight in) at a time. */
#include "util/base64url.h"

#include <string.h>

static const char B64URL[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

size_t base64url_encode(const uint8_t *in, size_t len, char *out) {
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        acc = (acc << 8) | in[i];
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out[o++] = B64URL[(acc >> bits) & 63];
        }
    }
    if (bits > 0) out[o++] = B64URL[(acc << (6 - bits)) & 63];
    out[o] = '\0';
    return o;
}

static int b64url_value(char c) {
    const char *p = c ? strchr(B64URL, c) : NULL;
    return p ? (int)(p - B64URL) : -1;
}

bool base64url_decode(const char *in, uint8_t *out, size_t cap, size_t *out_len) {
    if (!in || !out || !out_len) return false;
    size_t n = strlen(in);
    while (n > 0 && in[n - 1] == '=') n--;
    if (n % 4 == 1 || (n * 3) / 4 > cap) return false;
    size_t o = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = b64url_value(in[i]);
        if (v < 0) return false;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    if (acc & ((1u << bits) - 1)) return false; /* stray bits: not a canonical encoding */
    *out_len = o;
    return true;
}
