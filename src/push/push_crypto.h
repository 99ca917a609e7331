/* push_crypto: the cryptography of Web Push, with OpenSSL and nothing else.
 *
 *   - the server's VAPID key (RFC 8292): a P-256 key pair, made once and
 *     kept in the store as its raw private scalar and public point;
 *   - the VAPID token: an ES256-signed JWT (RFC 7515/7519) whose signature
 *     is the raw r || s (64 bytes), never DER;
 *   - RFC 8188's aes128gcm content coding, one record, and RFC 8291's
 *     message encryption on top of it (ECDH with the browser's key, the
 *     auth secret, HKDF-SHA-256), byte for byte as the RFCs' examples.
 *
 * Text forms are base64url without padding, as the Push API hands keys
 * over. Every function checks its inputs and returns false (or NULL) on
 * bad input or a library failure; nothing here logs, locks or allocates
 * beyond what it returns. The module sees util only. */
#ifndef PG_PUSH_CRYPTO_H
#define PG_PUSH_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/base64url.h"

#define PUSH_PUBLIC_BYTES 65  /* uncompressed P-256 point: 0x04 || x || y */
#define PUSH_PRIVATE_BYTES 32 /* the P-256 scalar */
#define PUSH_AUTH_BYTES 16    /* the subscription's auth secret */
#define PUSH_SALT_BYTES 16
#define PUSH_PUBLIC_TEXT 87   /* base64url of 65 bytes, no padding */
/* The record size of every message sent (RFC 8291 allows one record of at
 * most 4096 bytes of body; the header takes 86 of them). */
#define PUSH_RECORD_SIZE 4096
/* The most plaintext (payload and padding) one message may carry. */
#define PUSH_PLAINTEXT_MAX (PUSH_RECORD_SIZE - 86 - 16 - 1)

/* Characters of the base64url text of n bytes, without the NUL. */
#define PUSH_B64_LEN(n) BASE64URL_LEN(n)

/* A P-256 key pair (the VAPID key or an ephemeral one). */
typedef struct push_key push_key;

push_key *push_key_generate(void);
/* From the raw scalar and point; NULL unless they are a valid pair. */
push_key *push_key_from_raw(const uint8_t priv[PUSH_PRIVATE_BYTES], const uint8_t pub[PUSH_PUBLIC_BYTES]);
/* The raw scalar and point of k (either may be NULL if unwanted). */
bool push_key_raw(const push_key *k, uint8_t priv[PUSH_PRIVATE_BYTES], uint8_t pub[PUSH_PUBLIC_BYTES]);
void push_key_free(push_key *k);

/* True if p is an uncompressed point on P-256 (a browser's p256dh). */
bool push_public_key_valid(const uint8_t pub[PUSH_PUBLIC_BYTES]);

/* The VAPID JWT for audience aud (the push service's origin, e.g.
 * "https://push.example.net"), expiring at exp_s (Unix seconds), with
 * subject sub (mailto: or https: contact): "header.claims.signature",
 * NUL-terminated in out (cap bytes; 1024 are always enough for an aud and
 * sub of 300 bytes each). */
bool push_vapid_jwt(const push_key *k, const char *aud, const char *sub, int64_t exp_s, char *out, size_t cap);

/* RFC 8188 aes128gcm with one record: the header (salt, rs, keyid) and
 * the record, plaintext || 0x02 || pad zero bytes, sealed with the CEK
 * and nonce derived from ikm and salt. *out is malloc'd (caller frees).
 * False if the record would not fit rs. */
bool push_ece_encrypt(const uint8_t *ikm, size_t ikm_len, const uint8_t salt[PUSH_SALT_BYTES], uint32_t rs,
                      const uint8_t *keyid, size_t keyid_len, const uint8_t *plain, size_t plain_len, size_t pad,
                      uint8_t **out, size_t *out_len);

/* RFC 8291: the body of one push message to the browser whose key is
 * ua_public and auth secret auth. as_key is the sender's ephemeral key and
 * salt the salt: both NULL in real use (a fresh key and salt per message),
 * given only to reproduce the RFC's example. pad zero bytes follow the
 * delimiter, so every message of a kind has one length on the wire. */
bool push_webpush_encrypt(const uint8_t ua_public[PUSH_PUBLIC_BYTES], const uint8_t auth[PUSH_AUTH_BYTES],
                          const push_key *as_key, const uint8_t *salt, const uint8_t *plain, size_t plain_len,
                          size_t pad, uint8_t **out, size_t *out_len);

#endif
