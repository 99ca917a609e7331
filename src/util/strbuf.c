/* strbuf: growable byte buffer with sticky allocation failure (see strbuf.h).
 * Capacity doubles from 256 bytes, so n appends cost O(n) copies overall. */
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void strbuf_init(strbuf *sb) { memset(sb, 0, sizeof *sb); }

void strbuf_free(strbuf *sb) {
    free(sb->data);
    strbuf_init(sb);
}

static bool reserve(strbuf *sb, size_t extra) {
    if (sb->failed) return false;
    if (sb->len + extra + 1 <= sb->cap) return true;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1) cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    sb->data = p;
    sb->cap = cap;
    return true;
}

void strbuf_append(strbuf *sb, const void *bytes, size_t len) {
    if (!reserve(sb, len)) return;
    memcpy(sb->data + sb->len, bytes, len);
    sb->len += len;
    sb->data[sb->len] = '\0';
}

void strbuf_puts(strbuf *sb, const char *s) { strbuf_append(sb, s, strlen(s)); }

void strbuf_printf(strbuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(sb, (size_t)n)) {
        sb->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

char *strbuf_take(strbuf *sb, size_t *len_out) {
    if (sb->failed || !reserve(sb, 0)) {
        strbuf_free(sb);
        return NULL;
    }
    char *p = sb->data;
    if (len_out) *len_out = sb->len;
    strbuf_init(sb);
    return p;
}
