/* sgf: a finished game's record (see sgf.h and docs/SGF.md).
 *
 * One pass over the spectator's observations, seq 1..n. Illegal attempts
 * are collected per turn and written on the node of the move or pass that
 * ends that turn (PGILLEGAL), or on a last node without a move when the
 * game ended mid-turn (resignation, timeout, forfeit). Text is built in a
 * strbuf, which remembers a failed allocation, so the code reads straight
 * through and checks once at the end.
 *
 * Only view.h is used for facts: observations of a finished game are the
 * whole truth, and view_build tells whether the game is over at all. The
 * wire names of reasons and rules come from the JSON encoders so that the
 * SGF and the API spell them alike. */
#include "wire/sgf.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/color.h"
#include "engine/vertex.h"
#include "util/strbuf.h"
#include "version.h"
#include "wire/event_json.h"
#include "wire/settings_json.h"

/* An SGF text value: ']' and '\' escaped; for SimpleText (one line) the
 * line breaks become spaces. */
static void sb_value(strbuf *b, const char *s, bool simple) {
    strbuf_puts(b, "[");
    for (; *s; s++) {
        if (*s == ']' || *s == '\\') strbuf_puts(b, "\\");
        if (simple && (*s == '\n' || *s == '\r')) strbuf_puts(b, " ");
        else strbuf_append(b, s, 1);
    }
    strbuf_puts(b, "]");
}

/* ---- SGF vocabulary ---- */

/* SGF points are two letters, column then row, counted from the top left. */
static void sb_point(strbuf *b, point p, int size) {
    char pt[3] = { (char)('a' + p % size), (char)('a' + (size - 1 - p / size)), '\0' };
    strbuf_puts(b, pt);
}

static void sb_half_points(strbuf *b, int x2) { strbuf_printf(b, "%g", x2 / 2.0); }

/* RE: "W+3.5", "0" (jigo), "B+R", "B+T", "B+F", "B+" (capture Go). */
static void sb_result(strbuf *b, const game_result *res) {
    if (res->reason == END_PASSES && res->winner == EMPTY) {
        strbuf_puts(b, "0");
        return;
    }
    strbuf_printf(b, "%s+", color_letter(res->winner));
    switch (res->reason) {
    case END_PASSES: sb_half_points(b, abs(res->score_black_x2 - res->score_white_x2)); break;
    case END_RESIGN: strbuf_puts(b, "R"); break;
    case END_TIMEOUT: strbuf_puts(b, "T"); break;
    case END_FORFEIT: strbuf_puts(b, "F"); break;
    default: break;
    }
}

static void sb_date(strbuf *b, int64_t ms) {
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;
    char date[16];
    if (gmtime_r(&secs, &tm) && strftime(date, sizeof date, "%Y-%m-%d", &tm))
        strbuf_printf(b, "DT[%s]", date);
}

/* ---- the root node ---- */

static void sb_rules_text(strbuf *b, const game_settings *s) {
    char text[160];
    snprintf(text, sizeof text, "Phantom Go, %s referee, area scoring, %s%s%s", referee_rules_name(s->rules),
             s->ko == KO_SUPERKO ? "positional superko" : "simple ko", s->torus ? ", torus" : "",
             s->capture_target ? ", capture Go" : "");
    sb_value(b, text, true);
}

static void sb_handicap_stones(strbuf *b, const game_settings *s) {
    if (s->handicap == 0) return;
    view start;
    view_init(&start, s, VIEWER_SPECTATOR);
    strbuf_puts(b, "AB");
    for (int p = 0; p < s->size * s->size; p++)
        if (start.mark[p] & VIEW_HANDICAP) {
            strbuf_puts(b, "[");
            sb_point(b, (point)p, s->size);
            strbuf_puts(b, "]");
        }
    strbuf_puts(b, "PL[W]");
}

static void sb_root(strbuf *b, const view *end, const sgf_meta *meta) {
    const game_settings *s = &end->settings;
    strbuf_printf(b, "(;FF[4]GM[1]CA[UTF-8]AP[Phantom Go:%s]SZ[%d]KM[", pg_version, s->size);
    sb_half_points(b, s->komi_x2);
    strbuf_printf(b, "]HA[%d]RU", s->handicap);
    sb_rules_text(b, s);
    strbuf_puts(b, "RE[");
    sb_result(b, &end->result);
    strbuf_puts(b, "]");
    if (meta && meta->started_ms > 0) sb_date(b, meta->started_ms);
    if (meta && meta->game_id && *meta->game_id) {
        strbuf_puts(b, "GN");
        sb_value(b, meta->game_id, true);
    }
    if (meta && meta->black_name && *meta->black_name) {
        strbuf_puts(b, "PB");
        sb_value(b, meta->black_name, true);
    }
    if (meta && meta->white_name && *meta->white_name) {
        strbuf_puts(b, "PW");
        sb_value(b, meta->white_name, true);
    }
    strbuf_printf(b, "PGRULES[%s]PGKO[%s]PGTORUS[%s]PGCAPTURE[%d]PGEND[%s]", referee_rules_name(s->rules),
                  ko_rule_name(s->ko), s->torus ? "true" : "false", s->capture_target,
                  end_reason_name(end->result.reason));
    sb_handicap_stones(b, s);
}

/* ---- move nodes ---- */

/* The space before a sentence of a node's comment, if it is not the first. */
static const char *sep(const strbuf *comment) { return comment->len ? " " : ""; }

/* The illegal attempts of the turn in progress, in order. */
typedef struct {
    int color;
    int count;
    point point[BOARD_MAX_POINTS];
    int reason[BOARD_MAX_POINTS];
} pending_attempts;

static void sb_attempts(strbuf *b, strbuf *comment, const pending_attempts *pa, int size) {
    if (pa->count == 0) return;
    strbuf_puts(b, "PGILLEGAL");
    strbuf_printf(comment, "%s tried ", color_title(pa->color));
    for (int i = 0; i < pa->count; i++) {
        const char *why = illegal_reason_name((illegal_reason)pa->reason[i]);
        char vx[VERTEX_BUF];
        strbuf_puts(b, "[");
        sb_point(b, pa->point[i], size);
        strbuf_printf(b, ":%s]", why);
        strbuf_printf(comment, "%s%s (%s)", i ? ", " : "", vertex_format(pa->point[i], size, vx), why);
    }
    strbuf_puts(comment, ": illegal.");
}

static void sb_move_facts(strbuf *b, strbuf *comment, const observation *ob, int size) {
    char vx[VERTEX_BUF];
    if (ob->kind == EV_PASS) {
        strbuf_printf(comment, "%s%s passes.", sep(comment), color_title(ob->color));
        return;
    }
    strbuf_printf(comment, "%s%s plays %s.", sep(comment), color_title(ob->color),
                  vertex_format(ob->point, size, vx));
    if (ob->captured_known > 0) {
        strbuf_puts(b, "PGCAPTURED");
        strbuf_printf(comment, " Captures %d:", ob->captured_count);
        for (int i = 0; i < ob->captured_known; i++) {
            strbuf_puts(b, "[");
            sb_point(b, ob->captured[i], size);
            strbuf_puts(b, "]");
            strbuf_printf(comment, " %s", vertex_format(ob->captured[i], size, vx));
        }
        strbuf_puts(comment, ".");
    }
    if (ob->atari || ob->atari_unannounced) {
        strbuf_puts(b, "PGATARI[]");
        strbuf_puts(comment, " Atari.");
    }
}

static void sb_end_text(strbuf *comment, const game_result *res, int loser) {
    switch (res->reason) {
    case END_PASSES:
        strbuf_printf(comment, "%sTwo passes end the game: Black ", sep(comment));
        sb_half_points(comment, res->score_black_x2);
        strbuf_puts(comment, ", White ");
        sb_half_points(comment, res->score_white_x2);
        strbuf_puts(comment, res->winner == EMPTY   ? ", a draw."
                             : res->winner == BLACK ? ": Black wins."
                                                    : ": White wins.");
        break;
    case END_CAPTURE:
        strbuf_printf(comment, "%s%s reaches the capture target and wins.", sep(comment),
                      color_title(res->winner));
        break;
    case END_RESIGN: strbuf_printf(comment, "%s%s resigns.", sep(comment), color_title(loser)); break;
    case END_TIMEOUT:
        strbuf_printf(comment, "%s%s ran out of time.", sep(comment), color_title(loser));
        break;
    case END_FORFEIT: strbuf_printf(comment, "%s%s forfeits.", sep(comment), color_title(loser)); break;
    case END_NONE: break;
    }
}

/* Writes the node of one turn-ending or game-ending event; pa is emptied. */
static void sb_node(strbuf *b, const observation *ob, pending_attempts *pa, int size) {
    strbuf comment = { 0 };
    strbuf_puts(b, "\n;");
    if (ob->kind == EV_MOVE || ob->kind == EV_PASS) {
        strbuf_printf(b, "%s[", color_letter(ob->color));
        if (ob->kind == EV_MOVE) sb_point(b, ob->point, size);
        strbuf_puts(b, "]");
    } else if (pa->count > 0) {
        strbuf_printf(b, "PL[%s]", color_letter(pa->color));
    }
    sb_attempts(b, &comment, pa, size);
    if (ob->kind == EV_MOVE || ob->kind == EV_PASS) sb_move_facts(b, &comment, ob, size);
    if (ob->ended) sb_end_text(&comment, &ob->result, ob->color);
    if (comment.failed) b->failed = true;
    else if (comment.len > 0) {
        strbuf_puts(b, "C");
        sb_value(b, comment.data, false);
    }
    strbuf_free(&comment);
    pa->count = 0;
}

static void sb_moves(strbuf *b, const referee *r, int size, pending_attempts *pa) {
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
        if (ends_turn || ob.ended) sb_node(b, &ob, pa, size);
    }
}

char *sgf_record_new(const referee *r, const sgf_meta *meta) {
    view *end = malloc(sizeof *end);
    pending_attempts *pa = calloc(1, sizeof *pa);
    strbuf b = { 0 };
    if (end && pa) {
        view_build(r, VIEWER_SPECTATOR, end);
        if (end->over) {
            sb_root(&b, end, meta);
            sb_moves(&b, r, end->settings.size, pa);
            strbuf_puts(&b, ")\n");
        } else b.failed = true;
    } else b.failed = true;
    free(end);
    free(pa);
    return strbuf_take(&b, NULL);
}
