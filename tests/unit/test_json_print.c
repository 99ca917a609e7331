/* json_print: byte for byte what cJSON_PrintUnformatted prints, for every
 * kind of value, every byte in strings and keys, numbers around the
 * whole-number fast path's edges, and random trees. */
#include "harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire/json_print.h"

/* json_print(o) equals cJSON's text of o; frees o. */
static void same_as_cjson(cJSON *o) {
    CHECK(o != NULL);
    if (!o) return;
    char *want = cJSON_PrintUnformatted(o);
    size_t len = 0;
    char *got = json_print(o, &len);
    CHECK(want != NULL && got != NULL);
    if (want && got) {
        CHECK_EQ_STR(got, want);
        CHECK(len == strlen(want));
    }
    free(got);
    cJSON_free(want);
    cJSON_Delete(o);
}

TEST(json_print_numbers_as_cjson) {
    const double numbers[] = { 0,      -0.0,    1,          -1,      7.5,       0.1,         1.0 / 3,
                               40,     -273,    1767225600000.0,     999999999999999.0, 1e15,  -1e15,
                               -999999999999999.0, 9007199254740992.0, 1e300, -1e-300, 123456789.25,
                               2147483647.0, -2147483648.0, 4294967296.0, NAN, INFINITY, -INFINITY };
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) same_as_cjson(cJSON_CreateNumber(numbers[i]));
}

TEST(json_print_strings_and_keys_as_cjson) {
    char all[256];
    for (int i = 1; i < 256; i++) all[i - 1] = (char)i;
    all[255] = 0;
    same_as_cjson(cJSON_CreateString(all));
    same_as_cjson(cJSON_CreateString(""));
    same_as_cjson(cJSON_CreateString("Иван \"D4\" \\ 이세돌\n"));
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, all, 1);
    cJSON_AddStringToObject(o, "", "empty key");
    cJSON *nulled = cJSON_AddStringToObject(o, "nulled", "x");
    free(nulled->valuestring);
    nulled->valuestring = NULL; /* cJSON prints a NULL string as "" */
    same_as_cjson(o);
}

TEST(json_print_kinds_as_cjson) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNullToObject(o, "n");
    cJSON_AddTrueToObject(o, "t");
    cJSON_AddFalseToObject(o, "f");
    cJSON_AddRawToObject(o, "raw", "[1, 2]");
    cJSON_AddItemToObject(o, "empty_array", cJSON_CreateArray());
    cJSON_AddItemToObject(o, "empty_object", cJSON_CreateObject());
    cJSON *a = cJSON_AddArrayToObject(o, "a");
    cJSON_AddItemToArray(a, cJSON_CreateString("B6"));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(13));
    cJSON_AddItemToArray(a, cJSON_CreateArray());
    same_as_cjson(o);
    CHECK(json_print(NULL, NULL) == NULL);
    cJSON invalid;
    memset(&invalid, 0, sizeof invalid);
    CHECK(json_print(&invalid, NULL) == NULL);
    cJSON *raw = cJSON_CreateRaw("1");
    free(raw->valuestring);
    raw->valuestring = NULL;
    CHECK(json_print(raw, NULL) == NULL);
    cJSON_Delete(raw);
}

static uint64_t rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static cJSON *random_value(uint64_t *s, int depth) {
    char text[8];
    switch (rnd(s) % (depth > 3 ? 5 : 7)) {
    case 0: return cJSON_CreateNull();
    case 1: return cJSON_CreateBool(rnd(s) & 1);
    case 2: return cJSON_CreateNumber((double)(int64_t)(rnd(s) % 4000000000000000ULL) - 2e15);
    case 3: return cJSON_CreateNumber((double)(int64_t)(rnd(s) % 2000001) / 4 - 250000);
    case 4:
        for (int i = 0; i < 7; i++) text[i] = (char)(1 + rnd(s) % 255);
        text[rnd(s) % 8 == 0 ? 0 : 7] = 0;
        return cJSON_CreateString(text);
    default: {
        bool object = rnd(s) & 1;
        cJSON *c = object ? cJSON_CreateObject() : cJSON_CreateArray();
        for (int n = (int)(rnd(s) % 6); c && n > 0; n--) {
            cJSON *v = random_value(s, depth + 1);
            if (object) {
                char key[16];
                snprintf(key, sizeof key, "k%d\"", n);
                cJSON_AddItemToObject(c, key, v);
            } else {
                cJSON_AddItemToArray(c, v);
            }
        }
        return c;
    }
    }
}

TEST(json_print_random_trees_as_cjson) {
    uint64_t s = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 500; i++) {
        cJSON *o = cJSON_CreateArray();
        cJSON_AddItemToArray(o, random_value(&s, 0));
        same_as_cjson(o);
    }
}

/* An object's members without its braces, for a caller's own envelope. */
TEST(json_print_members_drops_only_the_braces) {
    cJSON *o = cJSON_Parse("{\"a\":1,\"b\":[2,\"x\\\"y\"],\"c\":{}}");
    strbuf sb = { 0 };
    CHECK(json_print_members(&sb, o));
    CHECK_EQ_STR(sb.data, "\"a\":1,\"b\":[2,\"x\\\"y\"],\"c\":{}");
    strbuf_free(&sb);
    cJSON *empty = cJSON_CreateObject(), *list = cJSON_CreateArray();
    CHECK(json_print_members(&sb, empty) && sb.len == 0);
    CHECK(!json_print_members(&sb, list)); /* not an object */
    strbuf_free(&sb);
    cJSON_Delete(list);
    cJSON_Delete(empty);
    cJSON_Delete(o);
}
