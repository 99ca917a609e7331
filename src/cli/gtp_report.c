/* gtp_report: the shared words of the phantom- GTP dialect (gtp_report.h). */
#include "cli/gtp_report.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engine/vertex.h"

const char *gtp_colour_name(int colour) { return colour == BLACK ? "black" : "white"; }

bool gtp_colour_parse(const char *s, int *out) {
    if (!strcasecmp(s, "b") || !strcasecmp(s, "black")) {
        *out = BLACK;
        return true;
    }
    if (!strcasecmp(s, "w") || !strcasecmp(s, "white")) {
        *out = WHITE;
        return true;
    }
    return false;
}

static const char *const rules_names[] = { "olympiad", "common", "hamburg" };
static const char *const reason_names[] = { "", "occupied", "suicide", "ko" };

const char *gtp_rules_name(referee_rules r) { return rules_names[r]; }

bool gtp_rules_parse(const char *s, referee_rules *out) {
    for (int i = 0; i < 3; i++)
        if (!strcasecmp(s, rules_names[i])) {
            *out = (referee_rules)i;
            return true;
        }
    return false;
}

const char *gtp_reason_name(illegal_reason r) { return reason_names[r]; }

bool gtp_reason_parse(const char *s, illegal_reason *out) {
    for (int i = ILLEGAL_OCCUPIED; i <= ILLEGAL_KO; i++)
        if (!strcasecmp(s, reason_names[i])) {
            *out = (illegal_reason)i;
            return true;
        }
    return false;
}

/* Appends text to out at *at; false when it does not fit. */
static bool put(char *out, size_t len, size_t *at, const char *text) {
    size_t n = strlen(text);
    if (*at + n + 1 > len) return false;
    memcpy(out + *at, text, n + 1);
    *at += n;
    return true;
}

static bool put_vertex(char *out, size_t len, size_t *at, point p, int size) {
    char v[VERTEX_BUF];
    return put(out, len, at, " ") && put(out, len, at, vertex_format(p, size, v));
}

static bool write_move(const observation *ob, int size, char *out, size_t len, size_t *at) {
    if (ob->point >= 0 && !put_vertex(out, len, at, ob->point, size)) return false;
    if (ob->captured_count > 0) {
        char count[32];
        snprintf(count, sizeof count, " captures %d", ob->captured_count);
        if (!put(out, len, at, count)) return false;
        for (int i = 0; i < ob->captured_known; i++)
            if (!put_vertex(out, len, at, ob->captured[i], size)) return false;
    }
    return !ob->atari || put(out, len, at, " atari");
}

bool gtp_report_write(const observation *ob, int size, char *out, size_t len) {
    static const char *const names[] = { "phantom-played", "phantom-illegal", "phantom-passed" };
    if (ob->kind != EV_MOVE && ob->kind != EV_ILLEGAL && ob->kind != EV_PASS) return false;
    size_t at = 0;
    if (len == 0) return false;
    out[0] = '\0';
    if (!put(out, len, &at, names[ob->kind]) || !put(out, len, &at, " ") ||
        !put(out, len, &at, gtp_colour_name(ob->color)))
        return false;
    if (ob->kind == EV_MOVE) return write_move(ob, size, out, len, &at);
    if (ob->kind == EV_ILLEGAL && ob->point >= 0) {
        if (!put_vertex(out, len, &at, ob->point, size)) return false;
        if (ob->reason != ILLEGAL_NONE &&
            !(put(out, len, &at, " ") && put(out, len, &at, gtp_reason_name((illegal_reason)ob->reason))))
            return false;
    }
    return true;
}
