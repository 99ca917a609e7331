/* strbuf: a growable byte buffer for composing responses (headers, metrics
 * text, WebSocket frames). Allocation failure is sticky: the buffer records
 * it and later appends do nothing, so a composer checks once at the end. */
#ifndef PG_SERVER_STRBUF_H
#define PG_SERVER_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;     /* NUL-terminated while not failed */
    size_t len, cap;
    bool failed;
} strbuf;

void strbuf_init(strbuf *sb);
void strbuf_free(strbuf *sb);
void strbuf_append(strbuf *sb, const void *bytes, size_t len);
void strbuf_puts(strbuf *sb, const char *s);
__attribute__((format(printf, 2, 3)))
void strbuf_printf(strbuf *sb, const char *fmt, ...);
/* Hands the bytes to the caller (who frees them) and resets sb. NULL if an
 * allocation failed. */
char *strbuf_take(strbuf *sb, size_t *len_out);

#endif
