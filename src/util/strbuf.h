/* strbuf: the one growable byte buffer of every layer (HTTP headers, metrics
 * text, WebSocket frames, SGF records). Allocation failure is sticky: the
 * buffer records it and later appends do nothing, so a composer writes
 * straight through and checks once at the end (strbuf_take returns NULL).
 * A zeroed strbuf (strbuf_init or `= {0}`) is an empty buffer. */
#ifndef PG_UTIL_STRBUF_H
#define PG_UTIL_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct strbuf {
    char *data; /* NUL-terminated while not failed */
    size_t len, cap;
    bool failed;
} strbuf;

void strbuf_init(strbuf *sb);
void strbuf_free(strbuf *sb);
void strbuf_append(strbuf *sb, const void *bytes, size_t len);
void strbuf_puts(strbuf *sb, const char *s);
__attribute__((format(printf, 2, 3))) void strbuf_printf(strbuf *sb, const char *fmt, ...);
/* Hands the bytes to the caller (who frees them) and resets sb. NULL if an
 * allocation failed. */
char *strbuf_take(strbuf *sb, size_t *len_out);

#endif
