/* push_crypto: VAPID keys and tokens, RFC 8188 and RFC 8291 encryption
 * (see push_crypto.h). OpenSSL 3's EVP interface only (no deprecated
 * EC_KEY); HKDF is written out as the RFCs state it, two HMACs, because
 * every output needed is at most one SHA-256 block. Secrets on the stack
 * are wiped with OPENSSL_cleanse before returning. */
#include "push/push_crypto.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

struct push_key {
    EVP_PKEY *pkey;
};

/* ---- keys ---- */

static push_key *wrap(EVP_PKEY *pkey) {
    if (!pkey) return NULL;
    push_key *k = malloc(sizeof *k);
    if (!k) {
        EVP_PKEY_free(pkey);
        return NULL;
    }
    k->pkey = pkey;
    return k;
}

push_key *push_key_generate(void) { return wrap(EVP_EC_gen("P-256")); }

void push_key_free(push_key *k) {
    if (!k) return;
    EVP_PKEY_free(k->pkey);
    free(k);
}

/* An EC key of P-256 from its point, and its scalar when priv is not NULL;
 * checked: the point lies on the curve, and the pair matches. */
static EVP_PKEY *pkey_from_raw(const uint8_t *priv, const uint8_t pub[PUSH_PUBLIC_BYTES]) {
    if (pub[0] != 0x04) return NULL; /* uncompressed points only, as the Push API gives */
    EVP_PKEY *pkey = NULL;
    BIGNUM *d = priv ? BN_bin2bn(priv, PUSH_PRIVATE_BYTES, NULL) : NULL;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    bool ok = bld && ctx && (!priv || d) &&
              OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) &&
              OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, PUSH_PUBLIC_BYTES) &&
              (!d || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d)) &&
              (params = OSSL_PARAM_BLD_to_param(bld)) != NULL && EVP_PKEY_fromdata_init(ctx) == 1 &&
              EVP_PKEY_fromdata(ctx, &pkey, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) == 1;
    if (ok) {
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
        ok = check && (d ? EVP_PKEY_pairwise_check(check) : EVP_PKEY_public_check(check)) == 1;
        EVP_PKEY_CTX_free(check);
    }
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    BN_clear_free(d);
    if (!ok) {
        EVP_PKEY_free(pkey);
        return NULL;
    }
    return pkey;
}

push_key *push_key_from_raw(const uint8_t priv[PUSH_PRIVATE_BYTES], const uint8_t pub[PUSH_PUBLIC_BYTES]) {
    if (!priv || !pub) return NULL;
    return wrap(pkey_from_raw(priv, pub));
}

bool push_public_key_valid(const uint8_t pub[PUSH_PUBLIC_BYTES]) {
    EVP_PKEY *pkey = pub ? pkey_from_raw(NULL, pub) : NULL;
    EVP_PKEY_free(pkey);
    return pkey != NULL;
}

bool push_key_raw(const push_key *k, uint8_t priv[PUSH_PRIVATE_BYTES], uint8_t pub[PUSH_PUBLIC_BYTES]) {
    if (!k) return false;
    if (pub) {
        size_t len = 0;
        if (EVP_PKEY_get_octet_string_param(k->pkey, OSSL_PKEY_PARAM_PUB_KEY, pub, PUSH_PUBLIC_BYTES, &len) !=
                1 ||
            len != PUSH_PUBLIC_BYTES || pub[0] != 0x04)
            return false;
    }
    if (priv) {
        BIGNUM *d = NULL;
        bool ok = EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1 &&
                  BN_bn2binpad(d, priv, PUSH_PRIVATE_BYTES) == PUSH_PRIVATE_BYTES;
        BN_clear_free(d);
        if (!ok) return false;
    }
    return true;
}

/* ---- VAPID (RFC 8292): an ES256 JWT ---- */

/* Appends s to out as the body of a JSON string (quotes, backslashes and
 * control characters escaped). False if it does not fit. */
static bool json_escape_into(const char *s, char *out, size_t cap, size_t *pos) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        char esc[8];
        int n;
        if (c == '"' || c == '\\') n = snprintf(esc, sizeof esc, "\\%c", c);
        else if (c < 0x20) n = snprintf(esc, sizeof esc, "\\u%04x", c);
        else n = snprintf(esc, sizeof esc, "%c", c);
        if (*pos + (size_t)n >= cap) return false;
        memcpy(out + *pos, esc, (size_t)n);
        *pos += (size_t)n;
    }
    out[*pos] = '\0';
    return true;
}

/* The raw r || s of an ECDSA-SHA-256 signature of data by k. */
static bool es256_sign(const push_key *k, const char *data, size_t len, uint8_t sig[64]) {
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    uint8_t der[80];
    size_t der_len = sizeof der;
    bool ok = md && EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, k->pkey) == 1 &&
              EVP_DigestSign(md, der, &der_len, (const uint8_t *)data, len) == 1;
    EVP_MD_CTX_free(md);
    if (!ok) return false;
    const uint8_t *p = der;
    ECDSA_SIG *es = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
    if (!es) return false;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(es, &r, &s);
    ok = BN_bn2binpad(r, sig, 32) == 32 && BN_bn2binpad(s, sig + 32, 32) == 32;
    ECDSA_SIG_free(es);
    return ok;
}

bool push_vapid_jwt(const push_key *k, const char *aud, const char *sub, int64_t exp_s, char *out, size_t cap) {
    if (!k || !aud || !sub || !out || exp_s <= 0) return false;
    static const char header[] = "{\"typ\":\"JWT\",\"alg\":\"ES256\"}";
    char claims[1024];
    size_t c = 0;
    int n = snprintf(claims, sizeof claims, "{\"aud\":\"");
    c = (size_t)n;
    if (!json_escape_into(aud, claims, sizeof claims, &c)) return false;
    n = snprintf(claims + c, sizeof claims - c, "\",\"exp\":%lld,\"sub\":\"", (long long)exp_s);
    if (n < 0 || (size_t)n >= sizeof claims - c) return false;
    c += (size_t)n;
    if (!json_escape_into(sub, claims, sizeof claims, &c) || c + 3 > sizeof claims) return false;
    memcpy(claims + c, "\"}", 3);
    c += 2;

    size_t need = PUSH_B64_LEN(sizeof header - 1) + 1 + PUSH_B64_LEN(c) + 1 + PUSH_B64_LEN(64) + 1;
    if (need > cap) return false;
    size_t o = base64url_encode((const uint8_t *)header, sizeof header - 1, out);
    out[o++] = '.';
    o += base64url_encode((const uint8_t *)claims, c, out + o);
    uint8_t sig[64];
    if (!es256_sign(k, out, o, sig)) return false;
    out[o++] = '.';
    base64url_encode(sig, sizeof sig, out + o);
    return true;
}

/* ---- RFC 8188 and RFC 8291 ---- */

/* HKDF-SHA-256 (RFC 5869) for an output of at most one block: extract
 * with salt, expand with info || 0x01. */
static bool hkdf_one_block(const uint8_t *salt, size_t salt_len, const uint8_t *ikm, size_t ikm_len,
                           const uint8_t *info, size_t info_len, uint8_t *out, size_t out_len) {
    assert(out_len <= 32 && info_len <= 256);
    uint8_t prk[32], t[32], msg[257];
    unsigned int len = 0;
    memcpy(msg, info, info_len);
    msg[info_len] = 0x01;
    bool ok = HMAC(EVP_sha256(), salt, (int)salt_len, ikm, ikm_len, prk, &len) && len == 32 &&
              HMAC(EVP_sha256(), prk, 32, msg, info_len + 1, t, &len) && len == 32;
    if (ok) memcpy(out, t, out_len);
    OPENSSL_cleanse(prk, sizeof prk);
    OPENSSL_cleanse(t, sizeof t);
    return ok;
}

/* AES-128-GCM of in (len bytes) into out, then the 16-byte tag. */
static bool aes128gcm_seal(const uint8_t key[16], const uint8_t nonce[12], const uint8_t *in, size_t len,
                           uint8_t *out) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int n = 0, fin = 0;
    bool ok = ctx && len <= INT32_MAX && EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, key, nonce) == 1 &&
              EVP_EncryptUpdate(ctx, out, &n, in, (int)len) == 1 && EVP_EncryptFinal_ex(ctx, out + n, &fin) == 1 &&
              (size_t)(n + fin) == len && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, out + len) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

bool push_ece_encrypt(const uint8_t *ikm, size_t ikm_len, const uint8_t salt[PUSH_SALT_BYTES], uint32_t rs,
                      const uint8_t *keyid, size_t keyid_len, const uint8_t *plain, size_t plain_len, size_t pad,
                      uint8_t **out, size_t *out_len) {
    if (!ikm || !salt || !out || !out_len || (keyid_len && !keyid) || (plain_len && !plain) || keyid_len > 255)
        return false;
    *out = NULL;
    *out_len = 0;
    /* One record: the data, its delimiter (0x02: the last record), the
     * padding and the tag must fit rs (RFC 8188 section 2). */
    if (rs < 18 || plain_len > rs || pad > rs || plain_len + 1 + pad + 16 > rs) return false;
    static const uint8_t cek_info[] = "Content-Encoding: aes128gcm"; /* its NUL is the RFC's 0x00 */
    static const uint8_t nonce_info[] = "Content-Encoding: nonce";
    uint8_t cek[16], nonce[12];
    size_t head = PUSH_SALT_BYTES + 4 + 1 + keyid_len, rec = plain_len + 1 + pad;
    uint8_t *body = malloc(head + rec + 16), *clear = calloc(1, rec);
    bool ok = body && clear && hkdf_one_block(salt, PUSH_SALT_BYTES, ikm, ikm_len, cek_info, sizeof cek_info, cek, 16) &&
              hkdf_one_block(salt, PUSH_SALT_BYTES, ikm, ikm_len, nonce_info, sizeof nonce_info, nonce, 12);
    if (ok) {
        memcpy(body, salt, PUSH_SALT_BYTES);
        body[16] = (uint8_t)(rs >> 24);
        body[17] = (uint8_t)(rs >> 16);
        body[18] = (uint8_t)(rs >> 8);
        body[19] = (uint8_t)rs;
        body[20] = (uint8_t)keyid_len;
        if (keyid_len) memcpy(body + 21, keyid, keyid_len);
        if (plain_len) memcpy(clear, plain, plain_len);
        clear[plain_len] = 0x02; /* the rest of clear stays zero: the padding */
        /* The first record's nonce is the derived one XOR its number, 0. */
        ok = aes128gcm_seal(cek, nonce, clear, rec, body + head);
    }
    OPENSSL_cleanse(cek, sizeof cek);
    OPENSSL_cleanse(nonce, sizeof nonce);
    if (clear) OPENSSL_cleanse(clear, rec);
    free(clear);
    if (!ok) {
        free(body);
        return false;
    }
    *out = body;
    *out_len = head + rec + 16;
    return true;
}

/* The ECDH shared secret (the x coordinate) of our key and their point. */
static bool ecdh_secret(const push_key *mine, const uint8_t theirs[PUSH_PUBLIC_BYTES], uint8_t secret[32]) {
    EVP_PKEY *peer = pkey_from_raw(NULL, theirs);
    EVP_PKEY_CTX *ctx = peer ? EVP_PKEY_CTX_new_from_pkey(NULL, mine->pkey, NULL) : NULL;
    size_t len = 32;
    bool ok = ctx && EVP_PKEY_derive_init(ctx) == 1 && EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
              EVP_PKEY_derive(ctx, secret, &len) == 1 && len == 32;
    EVP_PKEY_CTX_free(ctx);
    EVP_PKEY_free(peer);
    return ok;
}

bool push_webpush_encrypt(const uint8_t ua_public[PUSH_PUBLIC_BYTES], const uint8_t auth[PUSH_AUTH_BYTES],
                          const push_key *as_key, const uint8_t *salt, const uint8_t *plain, size_t plain_len,
                          size_t pad, uint8_t **out, size_t *out_len) {
    if (!ua_public || !auth || !out || !out_len || plain_len + pad > PUSH_PLAINTEXT_MAX) return false;
    push_key *fresh = as_key ? NULL : push_key_generate();
    const push_key *as = as_key ? as_key : fresh;
    uint8_t salt_buf[PUSH_SALT_BYTES], secret[32], ikm[32];
    /* key_info = "WebPush: info" || 0x00 || ua_public || as_public */
    static const char label[] = "WebPush: info";
    uint8_t key_info[sizeof label + 2 * PUSH_PUBLIC_BYTES];
    memcpy(key_info, label, sizeof label);
    memcpy(key_info + sizeof label, ua_public, PUSH_PUBLIC_BYTES);
    uint8_t *as_public = key_info + sizeof label + PUSH_PUBLIC_BYTES;
    bool ok = as && push_key_raw(as, NULL, as_public) && (salt || RAND_bytes(salt_buf, sizeof salt_buf) == 1) &&
              ecdh_secret(as, ua_public, secret) &&
              hkdf_one_block(auth, PUSH_AUTH_BYTES, secret, sizeof secret, key_info, sizeof key_info, ikm, 32) &&
              push_ece_encrypt(ikm, sizeof ikm, salt ? salt : salt_buf, PUSH_RECORD_SIZE, as_public,
                               PUSH_PUBLIC_BYTES, plain, plain_len, pad, out, out_len);
    OPENSSL_cleanse(secret, sizeof secret);
    OPENSSL_cleanse(ikm, sizeof ikm);
    push_key_free(fresh);
    return ok;
}
