/* secrets: the random values that stand for identity in this server (seat
 * tokens, invite secrets, game ids) and the only way they are compared.
 *
 * Tokens and invite secrets are 256 bits from getrandom(2), written in
 * base64url without padding (43 characters) so they travel in URLs and
 * headers untouched. The server stores only their SHA-256 (OpenSSL's EVP),
 * and compares hashes with CRYPTO_memcmp so timing says nothing about how
 * many bytes matched. Game ids are public but must not be guessable: 12
 * characters of [a-z0-9], about 62 bits, drawn without modulo bias. */
#ifndef PG_GAMES_SECRETS_H
#define PG_GAMES_SECRETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SECRET_BYTES 32
#define SECRET_TEXT_LEN 43 /* base64url of 32 bytes, no padding */
#define SECRET_HASH_LEN 32
#define GAME_ID_LEN 12

/* Fills buf with len random bytes from the kernel. Returns false on failure
 * (never silently weaker randomness). */
bool secrets_random_bytes(void *buf, size_t len);

/* A fresh token or invite secret: SECRET_TEXT_LEN characters + NUL. */
bool secrets_new_token(char out[SECRET_TEXT_LEN + 1]);

/* A fresh game id: GAME_ID_LEN characters of [a-z0-9] + NUL. */
bool secrets_new_game_id(char out[GAME_ID_LEN + 1]);

/* The same from random bytes the caller drew (and keeps, to draw the same
 * again): a token of SECRET_BYTES bytes; a game id of up to `len` bytes
 * (false in the unlikely case they do not suffice: about 12 of 256 bytes
 * are skipped to stay unbiased). */
void secrets_token_from(const uint8_t bytes[SECRET_BYTES], char out[SECRET_TEXT_LEN + 1]);
bool secrets_game_id_from(const uint8_t *bytes, size_t len, char out[GAME_ID_LEN + 1]);

/* SHA-256 of the text. Returns false only if libcrypto fails. */
bool secrets_hash(const char *text, size_t len, uint8_t out[SECRET_HASH_LEN]);

/* Constant-time equality of two hashes. */
bool secrets_hash_equal(const uint8_t a[SECRET_HASH_LEN], const uint8_t b[SECRET_HASH_LEN]);

/* True if every byte of h is zero (the store's "no seat / no invite"). */
bool secrets_hash_is_zero(const uint8_t h[SECRET_HASH_LEN]);

/* Does s look like a token (base64url characters, the right length)?
 * Anything else is rejected before hashing. */
bool secrets_token_well_formed(const char *s);

#endif
