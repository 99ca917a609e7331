/* Web Push cryptography against the RFCs' own examples: RFC 8188 section
 * 3.1 (aes128gcm with a given key) and RFC 8291 Appendix A (a whole push
 * message from the example keys, salt and auth secret), byte for byte;
 * VAPID tokens checked with OpenSSL's verifier on the raw r || s; keys
 * kept and restored as raw bytes; bad keys and oversize messages refused. */
#include "harness.h"

#include <stdlib.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "push/push_crypto.h"

/* Decodes base64url text the test trusts; n bytes into out. */
static size_t b64(const char *text, uint8_t *out, size_t cap) {
    size_t n = 0;
    if (!base64url_decode(text, out, cap, &n)) {
        harness_fail(__FILE__, __LINE__, text);
        return 0;
    }
    return n;
}

static char *b64_of(const uint8_t *in, size_t len) {
    char *s = malloc(PUSH_B64_LEN(len) + 1);
    if (s) base64url_encode(in, len, s);
    return s;
}

TEST(push_b64url_round_trip_and_refusals) {
    uint8_t raw[5] = { 0xfb, 0xff, 0x00, 0x10, 0x7e }, back[8];
    char text[PUSH_B64_LEN(5) + 1];
    CHECK_EQ_INT(base64url_encode(raw, 5, text), 7);
    CHECK_EQ_STR(text, "-_8AEH4");
    size_t n = 0;
    CHECK(base64url_decode(text, back, sizeof back, &n) && n == 5 && !memcmp(raw, back, 5));
    CHECK(base64url_decode("-_8AEH4=", back, sizeof back, &n) && n == 5); /* padding tolerated */
    CHECK(!base64url_decode("-_8AEH5", back, sizeof back, &n));          /* stray low bits */
    CHECK(!base64url_decode("+/8AEH4", back, sizeof back, &n));          /* plain base64's alphabet */
    CHECK(!base64url_decode("-_8AE", back, sizeof back, &n));            /* impossible length */
    CHECK(!base64url_decode("-_8AEH4", back, 4, &n));                    /* too long for the buffer */
    CHECK(base64url_decode("", back, sizeof back, &n) && n == 0);
}

/* RFC 8188, 3.1: "I am the walrus", rs 4096, no key id. */
TEST(push_ece_rfc8188_example_3_1) {
    uint8_t ikm[16], salt[16];
    CHECK_EQ_INT(b64("yqdlZ-tYemfogSmv7Ws5PQ", ikm, sizeof ikm), 16);
    CHECK_EQ_INT(b64("I1BsxtFttlv3u_Oo94xnmw", salt, sizeof salt), 16);
    const char *plain = "I am the walrus";
    uint8_t *body = NULL;
    size_t len = 0;
    CHECK(push_ece_encrypt(ikm, 16, salt, 4096, NULL, 0, (const uint8_t *)plain, strlen(plain), 0, &body, &len));
    char *text = b64_of(body, len);
    CHECK_EQ_STR(text, "I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg");
    free(text);
    free(body);
    /* A record that cannot hold the data, delimiter and tag is refused. */
    CHECK(!push_ece_encrypt(ikm, 16, salt, 31, NULL, 0, (const uint8_t *)plain, strlen(plain), 0, &body, &len));
    CHECK(push_ece_encrypt(ikm, 16, salt, 32, NULL, 0, (const uint8_t *)plain, strlen(plain), 0, &body, &len));
    free(body);
}

#define RFC8291_AS_PRIVATE "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
#define RFC8291_AS_PUBLIC "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
#define RFC8291_UA_PUBLIC "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"

/* RFC 8291, Appendix A: the whole message from the example's values. */
TEST(push_webpush_rfc8291_appendix_a) {
    uint8_t as_priv[32], as_pub[65], ua_pub[65], salt[16], auth[16];
    CHECK_EQ_INT(b64(RFC8291_AS_PRIVATE, as_priv, sizeof as_priv), 32);
    CHECK_EQ_INT(b64(RFC8291_AS_PUBLIC, as_pub, sizeof as_pub), 65);
    CHECK_EQ_INT(b64(RFC8291_UA_PUBLIC, ua_pub, sizeof ua_pub), 65);
    CHECK_EQ_INT(b64("DGv6ra1nlYgDCS1FRnbzlw", salt, sizeof salt), 16);
    CHECK_EQ_INT(b64("BTBZMqHH6r4Tts7J_aSIgg", auth, sizeof auth), 16);
    push_key *as = push_key_from_raw(as_priv, as_pub);
    CHECK(as != NULL);
    if (!as) return;
    const char *plain = "When I grow up, I want to be a watermelon";
    uint8_t *body = NULL;
    size_t len = 0;
    CHECK(push_webpush_encrypt(ua_pub, auth, as, salt, (const uint8_t *)plain, strlen(plain), 0, &body, &len));
    char *text = b64_of(body, len);
    CHECK_EQ_STR(text, "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6Tl"
                       "zAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN");
    free(text);
    free(body);

    /* Fresh key and salt: the same length, another body; padding adds its length. */
    uint8_t *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;
    CHECK(push_webpush_encrypt(ua_pub, auth, NULL, NULL, (const uint8_t *)plain, strlen(plain), 0, &a, &alen));
    CHECK(push_webpush_encrypt(ua_pub, auth, NULL, NULL, (const uint8_t *)plain, strlen(plain), 100, &b, &blen));
    CHECK_EQ_INT(alen, len);
    CHECK_EQ_INT(blen, len + 100);
    CHECK(a && b && memcmp(a, b, 86) != 0);
    free(a);
    free(b);
    /* Too much for one message of 4096 bytes. */
    CHECK(!push_webpush_encrypt(ua_pub, auth, NULL, NULL, (const uint8_t *)plain, strlen(plain),
                                PUSH_PLAINTEXT_MAX, &a, &alen));
    push_key_free(as);
}

TEST(push_keys_raw_round_trip_and_refusals) {
    push_key *k = push_key_generate();
    CHECK(k != NULL);
    if (!k) return;
    uint8_t priv[32], pub[65], priv2[32], pub2[65];
    CHECK(push_key_raw(k, priv, pub));
    CHECK_EQ_INT(pub[0], 0x04);
    push_key *again = push_key_from_raw(priv, pub);
    CHECK(again && push_key_raw(again, priv2, pub2));
    CHECK(!memcmp(priv, priv2, 32) && !memcmp(pub, pub2, 65));
    CHECK(push_public_key_valid(pub));
    /* The example's user agent key is not the pair of this scalar. */
    uint8_t ua_pub[65];
    b64(RFC8291_UA_PUBLIC, ua_pub, sizeof ua_pub);
    CHECK(push_key_from_raw(priv, ua_pub) == NULL);
    pub[64] ^= 1; /* off the curve */
    CHECK(!push_public_key_valid(pub));
    ua_pub[0] = 0x02; /* compressed form: refused */
    CHECK(!push_public_key_valid(ua_pub));
    push_key_free(again);
    push_key_free(k);
}

/* Verifies the JWT's signature with OpenSSL from its raw r || s. */
static bool jwt_signature_ok(const char *jwt, const uint8_t pub[65]) {
    const char *dot = strrchr(jwt, '.');
    uint8_t sig[64];
    size_t n = 0;
    if (!dot || !base64url_decode(dot + 1, sig, sizeof sig, &n) || n != 64) return false;
    ECDSA_SIG *es = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(sig, 32, NULL), *s = BN_bin2bn(sig + 32, 32, NULL);
    if (!es || !r || !s || ECDSA_SIG_set0(es, r, s) != 1) return false;
    uint8_t *der = NULL;
    int der_len = i2d_ECDSA_SIG(es, &der);
    ECDSA_SIG_free(es);
    /* The point as a public key, imported apart from the module under test. */
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pub, 65);
    params[2] = OSSL_PARAM_construct_end();
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (!pc || EVP_PKEY_fromdata_init(pc) != 1 || EVP_PKEY_fromdata(pc, &pkey, EVP_PKEY_PUBLIC_KEY, params) != 1)
        pkey = NULL;
    EVP_PKEY_CTX_free(pc);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    bool ok = pkey && md && der_len > 0 && EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, pkey) == 1 &&
              EVP_DigestVerify(md, der, (size_t)der_len, (const uint8_t *)jwt, (size_t)(dot - jwt)) == 1;
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(pkey);
    OPENSSL_free(der);
    return ok;
}

TEST(push_vapid_jwt_shape_and_signature) {
    push_key *k = push_key_generate();
    uint8_t pub[65];
    CHECK(k && push_key_raw(k, NULL, pub));
    if (!k) return;
    char jwt[1024];
    CHECK(push_vapid_jwt(k, "https://push.example.net", "mailto:ops@example.org \"x\"", 1453523768, jwt, sizeof jwt));
    char *dot1 = strchr(jwt, '.'), *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
    CHECK(dot1 && dot2);
    if (!dot1 || !dot2) return;
    uint8_t part[512];
    size_t n = 0;
    *dot1 = '\0';
    CHECK(base64url_decode(jwt, part, sizeof part - 1, &n));
    part[n] = '\0';
    CHECK_EQ_STR((char *)part, "{\"typ\":\"JWT\",\"alg\":\"ES256\"}");
    *dot1 = '.';
    *dot2 = '\0';
    CHECK(base64url_decode(dot1 + 1, part, sizeof part - 1, &n));
    part[n] = '\0';
    CHECK_EQ_STR((char *)part,
                 "{\"aud\":\"https://push.example.net\",\"exp\":1453523768,\"sub\":\"mailto:ops@example.org \\\"x\\\"\"}");
    *dot2 = '.';
    CHECK(jwt_signature_ok(jwt, pub));
    /* Another key's point does not verify it; a changed claim does not either. */
    push_key *other = push_key_generate();
    uint8_t other_pub[65];
    CHECK(other && push_key_raw(other, NULL, other_pub));
    CHECK(!jwt_signature_ok(jwt, other_pub));
    dot1[2] ^= 1;
    CHECK(!jwt_signature_ok(jwt, pub));
    /* Too small a buffer is refused, not cut. */
    CHECK(!push_vapid_jwt(k, "https://push.example.net", "mailto:a@b", 1, jwt, 100));
    push_key_free(other);
    push_key_free(k);
}
