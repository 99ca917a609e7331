/* secrets: random tokens and ids from getrandom(2), SHA-256 through
 * OpenSSL's EVP interface, constant-time comparison. See secrets.h. */
#include "games/secrets.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "util/base64url.h"

bool secrets_random_bytes(void *buf, size_t len) {
    uint8_t *p = buf;
    while (len > 0) {
        ssize_t n = getrandom(p, len, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += n;
        len -= (size_t)n;
    }
    return true;
}

bool secrets_new_token(char out[SECRET_TEXT_LEN + 1]) {
    uint8_t raw[SECRET_BYTES];
    if (!secrets_random_bytes(raw, sizeof raw)) return false;
    base64url_encode(raw, sizeof raw, out);
    OPENSSL_cleanse(raw, sizeof raw);
    return true;
}

void secrets_token_from(const uint8_t bytes[SECRET_BYTES], char out[SECRET_TEXT_LEN + 1]) {
    base64url_encode(bytes, SECRET_BYTES, out);
}

/* Takes id characters from bytes; returns how many were written to out. */
static int id_chars(const uint8_t *bytes, size_t len, char *out, int n) {
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (size_t i = 0; i < len && n < GAME_ID_LEN; i++)
        if (bytes[i] < 252) /* 252 = 7 * 36: no modulo bias */
            out[n++] = alphabet[bytes[i] % 36];
    return n;
}

bool secrets_game_id_from(const uint8_t *bytes, size_t len, char out[GAME_ID_LEN + 1]) {
    int n = id_chars(bytes, len, out, 0);
    out[n] = '\0';
    return n == GAME_ID_LEN;
}

bool secrets_new_game_id(char out[GAME_ID_LEN + 1]) {
    int n = 0;
    while (n < GAME_ID_LEN) {
        uint8_t raw[32];
        if (!secrets_random_bytes(raw, sizeof raw)) return false;
        n = id_chars(raw, sizeof raw, out, n);
    }
    out[n] = '\0';
    return true;
}

bool secrets_hash(const char *text, size_t len, uint8_t out[SECRET_HASH_LEN]) {
    unsigned int outlen = 0;
    return EVP_Digest(text, len, out, &outlen, EVP_sha256(), NULL) == 1 && outlen == SECRET_HASH_LEN;
}

bool secrets_hash_equal(const uint8_t a[SECRET_HASH_LEN], const uint8_t b[SECRET_HASH_LEN]) {
    return CRYPTO_memcmp(a, b, SECRET_HASH_LEN) == 0;
}

bool secrets_hash_is_zero(const uint8_t h[SECRET_HASH_LEN]) {
    uint8_t acc = 0;
    for (int i = 0; i < SECRET_HASH_LEN; i++) acc |= h[i];
    return acc == 0;
}

bool secrets_token_well_formed(const char *s) {
    size_t n = 0;
    for (; s[n]; n++) {
        char c = s[n];
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                  c == '_';
        if (!ok || n >= SECRET_TEXT_LEN) return false;
    }
    return n == SECRET_TEXT_LEN;
}
