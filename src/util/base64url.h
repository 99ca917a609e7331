/* base64url: the URL-safe base64 of RFC 4648 (section 5), unpadded, in which
 * seat tokens, invite secrets and Web Push's keys, tokens and signatures
 * travel. One implementation for all of them (secrets, push). */
#ifndef PG_UTIL_BASE64URL_H
#define PG_UTIL_BASE64URL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Characters of the base64url text of n bytes, without the NUL. */
#define BASE64URL_LEN(n) (((n) * 4 + 2) / 3)

/* Writes the base64url text of in[0..len) and a NUL into out, which holds
 * BASE64URL_LEN(len) + 1 bytes; returns the length written. */
size_t base64url_encode(const uint8_t *in, size_t len, char *out);

/* Decodes base64url text (trailing '=' padding tolerated, as some browsers'
 * libraries add it; nothing else) into out, at most cap bytes. False on a
 * character outside the alphabet, an impossible length, non-zero unused
 * bits or too long an input. */
bool base64url_decode(const char *in, uint8_t *out, size_t cap, size_t *out_len);

#endif
