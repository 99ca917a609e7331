/* sgf: a finished game's record (see sgf.h and docs/SGF.md).
 *
 * One pass over the spectator's observations, seq 1..n. Illegal attempts
 * are collected per turn and written on the node of the move or pass that
 * ends that turn (PGILLEGAL), or on a last node without a move when the
 * game ended mid-turn (resignation, timeout, forfeit). Text is built in a
 * growable buffer that remembers a failed allocation, so the code reads
 * straight through and checks once at the end.
 *
 * Only view.h is used for facts: observations of a finished game are the
 * whole truth, and view_build tells whether the game is over at all. The
 * wire names of reasons and rules come from the JSON encoders so that the
 * SGF and the API spell them alike. */
#include "wire/sgf.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/vertex.h"
#include "wire/event_json.h"
#include "wire/settings_json.h"

/* ---- a growable string that remembers running out of memory ---- */

typedef struct {
    char  *text;
    size_t len, cap;
    bool   failed;
} sbuf;

static void sb_grow(sbuf *b, size_t more) {
    if (b->failed || b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *bigger = realloc(b->text, cap);
    if (!bigger) {
        b->failed = true;
        return;
    }
    b->text = bigger;
    b->cap = cap;
}

static void sb_add(sbuf *b, const char *s, size_t n) {
    sb_grow(b, n);
    if (b->failed)
        return;
    memcpy(b->text + b->len, s, n);
    b->len += n;
    b->text[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s) {
    sb_add(b, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void sb_printf(sbuf *b, const char *fmt, ...) {
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        b->failed = true;
    else if ((size_t)n < sizeof small)
        sb_add(b, small, (size_t)n);
    else {
        sb_grow(b, (size_t)n);
        if (b->failed)
            return;
        va_start(ap, fmt);
        vsnprintf(b->text + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
        b->len += (size_t)n;
    }
}

/* An SGF text value: ']' and '\' escaped; for SimpleText (one line) the
 * line breaks become spaces. */
static void sb_value(sbuf *b, const char *s, bool simple) {
    sb_puts(b, "[");
    for (; *s; s++) {
        if (*s == ']' || *s == '\\')
            sb_puts(b, "\\");
        if (simple && (*s == '\n' || *s == '\r'))
            sb_puts(b, " ");
        else
            sb_add(b, s, 1);
    }
    sb_puts(b, "]");
}

/* ---- SGF vocabulary ---- */

static const char *color_name(int c) {
    return c == BLACK ? "Black" : "White";
}

static char color_letter(int c) {
    return c == BLACK ? 'B' : 'W';
}

/* SGF points are two letters, column then row, counted from the top left. */
static void sb_point(sbuf *b, point p, int size) {
    char pt[3] = { (char)('a' + p % size), (char)('a' + (size - 1 - p / size)), '\0' };
    sb_puts(b, pt);
}

static void sb_half_points(sbuf *b, int x2) {
    sb_printf(b, "%g", x2 / 2.0);
}

/* RE: "W+3.5", "0" (jigo), "B+R", "B+T", "B+F", "B+" (capture Go). */
static void sb_result(sbuf *b, const game_result *res) {
    if (res->reason == END_PASSES && res->winner == EMPTY) {
        sb_puts(b, "0");
        return;
    }
    sb_printf(b, "%c+", color_letter(res->winner));
    switch (res->reason) {
    case END_PASSES:  sb_half_points(b, abs(res->score_black_x2 - res->score_white_x2)); break;
    case END_RESIGN:  sb_puts(b, "R"); break;
    case END_TIMEOUT: sb_puts(b, "T"); break;
    case END_FORFEIT: sb_puts(b, "F"); break;
    default:          break;
    }
}

static void sb_date(sbuf *b, int64_t ms) {
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;
    char date[16];
    if (gmtime_r(&secs, &tm) && strftime(date, sizeof date, "%Y-%m-%d", &tm))
        sb_printf(b, "DT[%s]", date);
}

/* ---- the root node ---- */

static void sb_rules_text(sbuf *b, const game_settings *s) {
    char text[160];
    snprintf(text, sizeof text, "Phantom Go, %s referee, area scoring, %s%s%s",
             referee_rules_name(s->rules), s->ko == KO_SUPERKO ? "positional superko" : "simple ko",
             s->torus ? ", torus" : "", s->capture_target ? ", capture Go" : "");
    sb_value(b, text, true);
}

static void sb_handicap_stones(sbuf *b, const game_settings *s) {
    if (s->handicap == 0)
        return;
    view start;
    view_init(&start, s, VIEWER_SPECTATOR);
    sb_puts(b, "AB");
    for (int p = 0; p < s->size * s->size; p++)
        if (start.mark[p] & VIEW_HANDICAP) {
            sb_puts(b, "[");
            sb_point(b, (point)p, s->size);
            sb_puts(b, "]");
        }
    sb_puts(b, "PL[W]");
}

static void sb_root(sbuf *b, const view *end, const sgf_meta *meta) {
    const game_settings *s = &end->settings;
    sb_printf(b, "(;FF[4]GM[1]CA[UTF-8]AP[Phantom Go:%s]SZ[%d]KM[", PG_VERSION, s->size);
    sb_half_points(b, s->komi_x2);
    sb_printf(b, "]HA[%d]RU", s->handicap);
    sb_rules_text(b, s);
    sb_puts(b, "RE[");
    sb_result(b, &end->result);
    sb_puts(b, "]");
    if (meta && meta->started_ms > 0)
        sb_date(b, meta->started_ms);
    if (meta && meta->game_id && *meta->game_id) {
        sb_puts(b, "GN");
        sb_value(b, meta->game_id, true);
    }
    if (meta && meta->black_name && *meta->black_name) {
        sb_puts(b, "PB");
        sb_value(b, meta->black_name, true);
    }
    if (meta && meta->white_name && *meta->white_name) {
        sb_puts(b, "PW");
        sb_value(b, meta->white_name, true);
    }
    sb_printf(b, "PGRULES[%s]PGKO[%s]PGTORUS[%s]PGCAPTURE[%d]PGEND[%s]",
              referee_rules_name(s->rules), ko_rule_name(s->ko),
              s->torus ? "true" : "false", s->capture_target,
              end_reason_name(end->result.reason));
    sb_handicap_stones(b, s);
}

/* ---- move nodes ---- */

/* The space before a sentence of a node's comment, if it is not the first. */
static const char *sep(const sbuf *comment) {
    return comment->len ? " " : "";
}

/* The illegal attempts of the turn in progress, in order. */
typedef struct {
    int   color;
    int   count;
    point point[BOARD_MAX_POINTS];
    int   reason[BOARD_MAX_POINTS];
} pending_attempts;

static void sb_attempts(sbuf *b, sbuf *comment, const pending_attempts *pa, int size) {
    if (pa->count == 0)
        return;
    sb_puts(b, "PGILLEGAL");
    sb_printf(comment, "%s tried ", color_name(pa->color));
    for (int i = 0; i < pa->count; i++) {
        const char *why = illegal_reason_name((illegal_reason)pa->reason[i]);
        char vx[VERTEX_BUF];
        sb_puts(b, "[");
        sb_point(b, pa->point[i], size);
        sb_printf(b, ":%s]", why);
        sb_printf(comment, "%s%s (%s)", i ? ", " : "", vertex_format(pa->point[i], size, vx), why);
    }
    sb_puts(comment, ": illegal.");
}

static void sb_move_facts(sbuf *b, sbuf *comment, const observation *ob, int size) {
    char vx[VERTEX_BUF];
    if (ob->kind == EV_PASS) {
        sb_printf(comment, "%s%s passes.", sep(comment), color_name(ob->color));
        return;
    }
    sb_printf(comment, "%s%s plays %s.", sep(comment), color_name(ob->color),
              vertex_format(ob->point, size, vx));
    if (ob->captured_known > 0) {
        sb_puts(b, "PGCAPTURED");
        sb_printf(comment, " Captures %d:", ob->captured_count);
        for (int i = 0; i < ob->captured_known; i++) {
            sb_puts(b, "[");
            sb_point(b, ob->captured[i], size);
            sb_puts(b, "]");
            sb_printf(comment, " %s", vertex_format(ob->captured[i], size, vx));
        }
        sb_puts(comment, ".");
    }
    if (ob->atari || ob->atari_unannounced) {
        sb_puts(b, "PGATARI[]");
        sb_puts(comment, " Atari.");
    }
}

static void sb_end_text(sbuf *comment, const game_result *res, int loser) {
    switch (res->reason) {
    case END_PASSES:
        sb_printf(comment, "%sTwo passes end the game: Black ", sep(comment));
        sb_half_points(comment, res->score_black_x2);
        sb_puts(comment, ", White ");
        sb_half_points(comment, res->score_white_x2);
        sb_puts(comment, res->winner == EMPTY ? ", a draw." : res->winner == BLACK ? ": Black wins." : ": White wins.");
        break;
    case END_CAPTURE:
        sb_printf(comment, "%s%s reaches the capture target and wins.", sep(comment), color_name(res->winner));
        break;
    case END_RESIGN:  sb_printf(comment, "%s%s resigns.", sep(comment), color_name(loser)); break;
    case END_TIMEOUT: sb_printf(comment, "%s%s ran out of time.", sep(comment), color_name(loser)); break;
    case END_FORFEIT: sb_printf(comment, "%s%s forfeits.", sep(comment), color_name(loser)); break;
    case END_NONE:    break;
    }
}

/* Writes the node of one turn-ending or game-ending event; pa is emptied. */
static void sb_node(sbuf *b, const observation *ob, pending_attempts *pa, int size) {
    sbuf comment = { 0 };
    sb_puts(b, "\n;");
    if (ob->kind == EV_MOVE || ob->kind == EV_PASS) {
        sb_printf(b, "%c[", color_letter(ob->color));
        if (ob->kind == EV_MOVE)
            sb_point(b, ob->point, size);
        sb_puts(b, "]");
    } else if (pa->count > 0) {
        sb_printf(b, "PL[%c]", color_letter(pa->color));
    }
    sb_attempts(b, &comment, pa, size);
    if (ob->kind == EV_MOVE || ob->kind == EV_PASS)
        sb_move_facts(b, &comment, ob, size);
    if (ob->ended)
        sb_end_text(&comment, &ob->result, ob->color);
    if (comment.failed)
        b->failed = true;
    else if (comment.len > 0) {
        sb_puts(b, "C");
        sb_value(b, comment.text, false);
    }
    free(comment.text);
    pa->count = 0;
}

static void sb_moves(sbuf *b, const referee *r, int size, pending_attempts *pa) {
    observation ob;
    for (int seq = 1; view_observe(r, VIEWER_SPECTATOR, seq, &ob); seq++) {
        if (ob.kind == EV_ILLEGAL) {
            pa->color = ob.color;
            pa->point[pa->count] = ob.point;
            pa->reason[pa->count] = ob.reason;
            pa->count++;
            continue;
        }
        bool ends_turn = ob.kind == EV_MOVE || ob.kind == EV_PASS;
        if (ends_turn || ob.ended)
            sb_node(b, &ob, pa, size);
    }
}

char *sgf_record_new(const referee *r, const sgf_meta *meta) {
    view *end = malloc(sizeof *end);
    pending_attempts *pa = calloc(1, sizeof *pa);
    sbuf b = { 0 };
    if (end && pa) {
        view_build(r, VIEWER_SPECTATOR, end);
        if (end->over) {
            sb_root(&b, end, meta);
            sb_moves(&b, r, end->settings.size, pa);
            sb_puts(&b, ")\n");
        } else
            b.failed = true;
    } else
        b.failed = true;
    free(end);
    free(pa);
    if (b.failed) {
        free(b.text);
        return NULL;
    }
    return b.text;
}
