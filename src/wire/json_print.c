/* json_print: compact JSON text of a cJSON tree (see json_print.h).
 *
 * The rules are cJSON 1.7's print_value, print_string_ptr and print_number:
 * strings escape '"', '\\', the five named controls and every other byte
 * below 0x20 as \u00xx (lower-case hex), and copy all other bytes as they
 * are; a NULL string prints as ""; NaN and infinities print as null. */
#include "wire/json_print.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void put_string(strbuf *sb, const char *s) {
    static const char hex[] = "0123456789abcdef";
    strbuf_append(sb, "\"", 1);
    if (s) {
        const char *run = s; /* bytes copied as they are, pending */
        for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
            if (*p >= 0x20 && *p != '"' && *p != '\\') continue;
            strbuf_append(sb, run, (size_t)((const char *)p - run));
            char esc[6] = { '\\', 0 };
            size_t n = 2;
            switch (*p) {
            case '"': esc[1] = '"'; break;
            case '\\': esc[1] = '\\'; break;
            case '\b': esc[1] = 'b'; break;
            case '\f': esc[1] = 'f'; break;
            case '\n': esc[1] = 'n'; break;
            case '\r': esc[1] = 'r'; break;
            case '\t': esc[1] = 't'; break;
            default:
                memcpy(esc + 1, "u00", 3);
                esc[4] = hex[*p >> 4];
                esc[5] = hex[*p & 15];
                n = 6;
            }
            strbuf_append(sb, esc, n);
            run = (const char *)p + 1;
        }
        strbuf_puts(sb, run);
    }
    strbuf_append(sb, "\"", 1);
}

/* Whole numbers below 10^15 in magnitude: "%1.15g" writes them as plain
 * digits and reads them back exactly, so cJSON prints just the digits. */
static bool put_whole_number(strbuf *sb, double d) {
    if (!(fabs(d) < 1e15) || d != floor(d) || (d == 0 && signbit(d))) return false;
    char digits[24];
    char *end = digits + sizeof digits, *p = end;
    int64_t v = (int64_t)d;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) *--p = '-';
    strbuf_append(sb, p, (size_t)(end - p));
    return true;
}

/* Any other number, through cJSON's printer itself. */
static bool put_other_number(strbuf *sb, const cJSON *item) {
    cJSON *alone = cJSON_CreateNumber(item->valuedouble);
    char *text = alone ? cJSON_PrintUnformatted(alone) : NULL;
    cJSON_Delete(alone);
    if (!text) return false;
    strbuf_puts(sb, text);
    cJSON_free(text);
    return true;
}

static bool put_value(strbuf *sb, const cJSON *item) {
    switch (item->type & 0xFF) {
    case cJSON_NULL: strbuf_puts(sb, "null"); return true;
    case cJSON_False: strbuf_puts(sb, "false"); return true;
    case cJSON_True: strbuf_puts(sb, "true"); return true;
    case cJSON_Number:
        if (isnan(item->valuedouble) || isinf(item->valuedouble)) {
            strbuf_puts(sb, "null");
            return true;
        }
        return put_whole_number(sb, item->valuedouble) || put_other_number(sb, item);
    case cJSON_Raw:
        if (!item->valuestring) return false;
        strbuf_puts(sb, item->valuestring);
        return true;
    case cJSON_String: put_string(sb, item->valuestring); return true;
    case cJSON_Array:
    case cJSON_Object: {
        bool object = (item->type & 0xFF) == cJSON_Object;
        strbuf_append(sb, object ? "{" : "[", 1);
        for (const cJSON *c = item->child; c; c = c->next) {
            if (object) {
                put_string(sb, c->string);
                strbuf_append(sb, ":", 1);
            }
            if (!put_value(sb, c)) return false;
            if (c->next) strbuf_append(sb, ",", 1);
        }
        strbuf_append(sb, object ? "}" : "]", 1);
        return true;
    }
    default: return false; /* cJSON_Invalid */
    }
}

bool json_print_append(strbuf *sb, const cJSON *item) {
    return item && put_value(sb, item);
}

bool json_print_members(strbuf *sb, const cJSON *o) {
    if (!cJSON_IsObject(o)) return false;
    for (const cJSON *c = o->child; c; c = c->next) {
        put_string(sb, c->string);
        strbuf_append(sb, ":", 1);
        if (!put_value(sb, c)) return false;
        if (c->next) strbuf_append(sb, ",", 1);
    }
    return true;
}

char *json_print(const cJSON *item, size_t *len_out) {
    strbuf sb;
    strbuf_init(&sb);
    if (!json_print_append(&sb, item)) {
        strbuf_free(&sb);
        return NULL;
    }
    return strbuf_take(&sb, len_out);
}
