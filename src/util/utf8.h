/* utf8: quoting client text inside our own messages without breaking UTF-8.
 *
 * Error messages quote what the client sent (an unknown field's name, say),
 * cut to a length. A cut by bytes ("%.40s") can split a character, and the
 * client's bytes need not be UTF-8 at all, so either would make the JSON
 * answer invalid. These cut on character boundaries and replace what is not
 * UTF-8. Decoding is libunistring's (u8_mbtoucr), not a copy here. */
#ifndef PG_UTIL_UTF8_H
#define PG_UTIL_UTF8_H

#include <stddef.h>

/* Copies into out (NUL-terminated, outlen >= 4) the longest run of whole
 * characters of s that fits in max_bytes bytes and in out; each byte of s
 * that does not start a valid character becomes U+FFFD. Returns out. */
char *utf8_excerpt(char *out, size_t outlen, const char *s, size_t max_bytes);

/* The bytes of one character at s (s[0] != 0): its length in 1..4, or 0
 * if s does not start a valid UTF-8 character within left bytes. */
int utf8_char_len(const char *s, size_t left);

#endif
