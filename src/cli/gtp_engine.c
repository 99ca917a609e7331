/* gtp_engine: one seat of a Phantom Go game over GTP (see gtp_engine.h and
 * docs/GTP.md, which lists every command and error).
 *
 * A line goes through GTP's preprocessing (control characters dropped, tabs
 * to spaces, '#' comments cut), is split into words, the optional numeric
 * id is taken off, and the command's handler runs with the other words.
 * Handlers write their answer (or error) into a reply and return whether
 * they succeeded; nothing changes when they fail.
 *
 * The three report commands build an observation word by word and check it
 * against what the referee tells this seat under the table's rules (the
 * same rules view_observe applies), then fold it in with bot_memory_apply.
 * Turn, sequence number and the end of the game by two passes or by the
 * capture target are the engine's own bookkeeping from public facts. */
#include "cli/gtp_engine.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/game_seed.h"
#include "cli/gtp_report.h"
#include "engine/handicap.h"
#include "engine/vertex.h"
#include "version.h"

#define REPLY_MAX (GTP_RESPONSE_MAX - 64)
#define ID_MAX 18

typedef struct reply {
    char text[REPLY_MAX];
    size_t len;
} reply;

struct gtp_engine {
    reply reply;       /* the answer being written (large: kept off the stack) */
    bot_config config; /* the player and its budget */
    char player_name[48];
    uint64_t seed;          /* this game's seed (phantom-seed) */
    game_settings settings; /* the table, as the controller set it */
    int seat;               /* BLACK, WHITE, or EMPTY until chosen */
    bot_memory memory;      /* the seat's knowledge; valid once seated */
    bot_carry carry;        /* the search's carry from attempt to attempt */
    /* time_settings and time_left, in seconds; no limit when !timed */
    bool timed;
    int main_s, byo_s, byo_stones;
    bool left_known;
    double left_s;
    int left_stones;
};

typedef struct args {
    int n;
    char **v;
} args;

/* Appends to the reply (truncating if ever too long) and returns true. */
static bool say(reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool say(reply *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->text + r->len, sizeof r->text - r->len, fmt, ap);
    va_end(ap);
    if (n > 0) r->len = r->len + (size_t)n < sizeof r->text ? r->len + (size_t)n : sizeof r->text - 1;
    return true;
}

/* Replaces the reply by an error message and returns false. */
static bool fail(reply *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(reply *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->text, sizeof r->text, fmt, ap);
    va_end(ap);
    r->len = n < 0 ? 0 : (size_t)n < sizeof r->text ? (size_t)n : sizeof r->text - 1;
    return false;
}

/* ---- the game ---- */

static bool started(const gtp_engine *e) { return e->seat != EMPTY && e->memory.view.seq > 0; }

/* A fresh game with the current settings (keeps the seat and the seed). */
static void new_game(gtp_engine *e) {
    if (e->seat != EMPTY) bot_memory_init(&e->memory, &e->settings, e->seat);
    bot_carry_init(&e->carry);
    e->left_known = false;
}

static bool refuse_if_started(const gtp_engine *e, reply *r) {
    if (started(e)) return fail(r, "the game has started: send clear_board first");
    return true;
}

static bool parse_int(const char *s, long lo, long hi, long *out) {
    char *end;
    if (!*s || isspace((unsigned char)*s)) return false;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

static bool want_args(const args *a, int n, const char *what, reply *r) {
    if (a->n != n) return fail(r, "syntax error: expected %s", what);
    return true;
}

/* ---- administrative commands ---- */

static bool cmd_protocol_version(gtp_engine *e, const args *a, reply *r) {
    (void)e;
    return want_args(a, 0, "no arguments", r) && say(r, "2");
}

static bool cmd_name(gtp_engine *e, const args *a, reply *r) {
    (void)e;
    return want_args(a, 0, "no arguments", r) && say(r, "phantomgo");
}

static bool cmd_version(gtp_engine *e, const args *a, reply *r) {
    return want_args(a, 0, "no arguments", r) &&
           say(r, "%s (%s, phantom dialect %d)", pg_version, e->player_name, GTP_PHANTOM_VERSION);
}

static bool cmd_phantom_protocol_version(gtp_engine *e, const args *a, reply *r) {
    (void)e;
    return want_args(a, 0, "no arguments", r) && say(r, "%d", GTP_PHANTOM_VERSION);
}

static bool cmd_known_command(gtp_engine *e, const args *a, reply *r);
static bool cmd_list_commands(gtp_engine *e, const args *a, reply *r);

static bool cmd_quit(gtp_engine *e, const args *a, reply *r) {
    (void)e;
    (void)a;
    (void)r;
    return true;
}

/* ---- the table ---- */

static bool cmd_boardsize(gtp_engine *e, const args *a, reply *r) {
    long n;
    if (!want_args(a, 1, "a board size", r)) return false;
    if (!parse_int(a->v[0], BOARD_MIN_SIZE, BOARD_MAX_SIZE, &n)) return fail(r, "unacceptable size");
    e->settings.size = (int)n;
    e->settings.handicap = 0;
    new_game(e);
    return true;
}

static bool cmd_clear_board(gtp_engine *e, const args *a, reply *r) {
    if (!want_args(a, 0, "no arguments", r)) return false;
    e->settings.handicap = 0;
    new_game(e);
    return true;
}

static bool cmd_komi(gtp_engine *e, const args *a, reply *r) {
    if (!want_args(a, 1, "a komi", r)) return false;
    char *end;
    double k = strtod(a->v[0], &end);
    if (end == a->v[0] || *end || !isfinite(k)) return fail(r, "syntax error: komi must be a number");
    if (fabs(k) > 1000) return fail(r, "komi must be between -1000 and 1000");
    if (k * 2 != floor(k * 2)) return fail(r, "komi must be a multiple of 0.5");
    e->settings.komi_x2 = (int)lround(k * 2);
    e->memory.view.settings.komi_x2 = e->settings.komi_x2; /* public, may change any time */
    return true;
}

static bool set_handicap(gtp_engine *e, int n, reply *r) {
    point hc[HANDICAP_MAX];
    if (n < 2 || handicap_points(e->settings.size, n, hc) < 0) return fail(r, "invalid number of stones");
    if (started(e) || e->settings.handicap != 0) return fail(r, "board not empty");
    e->settings.handicap = n;
    new_game(e);
    char v[VERTEX_BUF];
    for (int i = 0; i < n; i++) say(r, "%s%s", i ? " " : "", vertex_format(hc[i], e->settings.size, v));
    return true;
}

static bool cmd_fixed_handicap(gtp_engine *e, const args *a, reply *r) {
    long n;
    if (!want_args(a, 1, "a number of stones", r)) return false;
    if (!parse_int(a->v[0], 0, 1000, &n)) return fail(r, "syntax error: expected a number of stones");
    return set_handicap(e, (int)n, r);
}

/* The engine chooses the points: the fixed ones (the referee knows no others). */
static bool cmd_place_free_handicap(gtp_engine *e, const args *a, reply *r) {
    return cmd_fixed_handicap(e, a, r);
}

/* Accepted when the points are the fixed handicap points of that count, in
 * any order: the referee of this project places no other handicap. */
static bool cmd_set_free_handicap(gtp_engine *e, const args *a, reply *r) {
    point hc[HANDICAP_MAX];
    int n = a->n;
    if (n < 2 || handicap_points(e->settings.size, n, hc) < 0) return fail(r, "invalid number of stones");
    for (int i = 0; i < n; i++) {
        point p;
        if (!vertex_parse(a->v[i], e->settings.size, &p) || p == PASS_POINT)
            return fail(r, "syntax error: '%s' is not a vertex of this board", a->v[i]);
        bool fixed = false;
        for (int j = 0; j < n; j++) fixed |= hc[j] == p;
        for (int j = 0; j < i; j++) {
            point q;
            vertex_parse(a->v[j], e->settings.size, &q);
            if (q == p) return fail(r, "bad vertex list: %s is given twice", a->v[i]);
        }
        if (!fixed) return fail(r, "only the fixed handicap points are supported (see fixed_handicap)");
    }
    reply ignored = { "", 0 };
    return set_handicap(e, n, &ignored) || fail(r, "%s", ignored.text);
}

static bool cmd_phantom_rules(gtp_engine *e, const args *a, reply *r) {
    referee_rules rules;
    if (!want_args(a, 1, "olympiad, common or hamburg", r) || !refuse_if_started(e, r)) return false;
    if (!gtp_rules_parse(a->v[0], &rules))
        return fail(r, "syntax error: expected olympiad, common or hamburg");
    e->settings.rules = rules;
    new_game(e);
    return true;
}

static bool cmd_phantom_ko(gtp_engine *e, const args *a, reply *r) {
    if (!want_args(a, 1, "simple or superko", r) || !refuse_if_started(e, r)) return false;
    if (!strcmp(a->v[0], "simple")) e->settings.ko = KO_SIMPLE;
    else if (!strcmp(a->v[0], "superko")) e->settings.ko = KO_SUPERKO;
    else return fail(r, "syntax error: expected simple or superko");
    new_game(e);
    return true;
}

static bool cmd_phantom_torus(gtp_engine *e, const args *a, reply *r) {
    if (!want_args(a, 1, "on or off", r) || !refuse_if_started(e, r)) return false;
    if (!strcmp(a->v[0], "on")) e->settings.torus = true;
    else if (!strcmp(a->v[0], "off")) e->settings.torus = false;
    else return fail(r, "syntax error: expected on or off");
    new_game(e);
    return true;
}

static bool cmd_phantom_capture_target(gtp_engine *e, const args *a, reply *r) {
    long n;
    if (!want_args(a, 1, "a number of stones (0: ordinary Go)", r) || !refuse_if_started(e, r)) return false;
    if (!parse_int(a->v[0], 0, BOARD_MAX_POINTS, &n))
        return fail(r, "syntax error: the capture target must be 0 (off) to %d", BOARD_MAX_POINTS);
    e->settings.capture_target = (int)n;
    new_game(e);
    return true;
}

static bool cmd_phantom_seat(gtp_engine *e, const args *a, reply *r) {
    int colour;
    if (!want_args(a, 1, "a colour", r)) return false;
    if (!gtp_colour_parse(a->v[0], &colour)) return fail(r, "syntax error: expected black or white");
    if (colour == e->seat) return true;
    if (!refuse_if_started(e, r)) return false;
    e->seat = colour;
    new_game(e);
    return true;
}

static bool cmd_phantom_seed(gtp_engine *e, const args *a, reply *r) {
    if (!want_args(a, 1, "a seed", r)) return false;
    char *end;
    const char *s = a->v[0];
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!isdigit((unsigned char)s[0]) || *end || errno)
        return fail(r, "syntax error: the seed must be a whole number from 0 to 2^64-1");
    e->seed = v;
    return true;
}

static bool cmd_phantom_settings(gtp_engine *e, const args *a, reply *r) {
    const game_settings *s = &e->settings;
    if (!want_args(a, 0, "no arguments", r)) return false;
    return say(r, "size %d komi %g handicap %d rules %s ko %s torus %s capture_target %d seat %s", s->size,
               s->komi_x2 / 2.0, s->handicap, gtp_rules_name(s->rules),
               s->ko == KO_SUPERKO ? "superko" : "simple", s->torus ? "on" : "off", s->capture_target,
               e->seat == EMPTY ? "none" : gtp_colour_name(e->seat));
}

/* ---- time ---- */

static bool cmd_time_settings(gtp_engine *e, const args *a, reply *r) {
    long m, b, s;
    if (!want_args(a, 3, "main_time byo_yomi_time byo_yomi_stones", r)) return false;
    if (!parse_int(a->v[0], 0, 100000000, &m) || !parse_int(a->v[1], 0, 100000000, &b) ||
        !parse_int(a->v[2], 0, 100000000, &s))
        return fail(r, "syntax error: expected three whole numbers of seconds and stones");
    /* GTP: byo-yomi time without stones means no limit; so does no time at all */
    e->timed = !(s == 0 && (b > 0 || m == 0));
    e->main_s = (int)m;
    e->byo_s = (int)b;
    e->byo_stones = (int)s;
    e->left_known = false;
    return true;
}

static bool cmd_time_left(gtp_engine *e, const args *a, reply *r) {
    int colour;
    long t, s;
    if (!want_args(a, 3, "colour time stones", r)) return false;
    if (!gtp_colour_parse(a->v[0], &colour)) return fail(r, "syntax error: expected black or white");
    if (!parse_int(a->v[1], 0, 100000000, &t) || !parse_int(a->v[2], 0, 100000000, &s))
        return fail(r, "syntax error: expected whole numbers of seconds and stones");
    if (colour == e->seat) {
        e->left_known = true;
        e->left_s = (double)t;
        e->left_stones = (int)s;
    }
    return true;
}

/* The time cap of one decision from the clock, in ms (0: none). Byo-yomi:
 * the period shared by its stones; main time: a share of what is left
 * sized for the moves still to come; a fifth kept as a margin for the
 * attempts that follow an illegal answer and the pipe. */
static int clock_cap_ms(const gtp_engine *e) {
    if (!e->timed) return 0;
    double left = e->left_known ? e->left_s : e->main_s > 0 ? e->main_s : e->byo_s;
    int stones = e->left_known ? e->left_stones : e->main_s > 0 ? 0 : e->byo_stones;
    int points = e->settings.size * e->settings.size;
    double share = stones > 0 ? left / stones : left / (points / 3 > 20 ? points / 3 : 20);
    long ms = lround(share * 1000 * 0.8);
    return ms < 10 ? 10 : ms > 100000000 ? 100000000 : (int)ms;
}

/* ---- play ---- */

static bool cmd_genmove(gtp_engine *e, const args *a, reply *r) {
    int colour;
    if (!want_args(a, 1, "a colour", r)) return false;
    if (!gtp_colour_parse(a->v[0], &colour)) return fail(r, "syntax error: expected black or white");
    if (e->seat == EMPTY) {
        e->seat = colour; /* the first genmove of a game chooses the seat */
        new_game(e);
    }
    if (colour != e->seat) return fail(r, "this engine plays %s (phantom-seat)", gtp_colour_name(e->seat));
    const view *v = &e->memory.view;
    if (v->over) return say(r, "pass");
    if (v->to_move != colour) return fail(r, "it is %s's turn", gtp_colour_name(v->to_move));
    bot_config cfg = e->config;
    int cap = clock_cap_ms(e);
    if (cap > 0 && (cfg.time_ms == 0 || cap < cfg.time_ms)) cfg.time_ms = cap;
    point p = bot_choose(&cfg, &e->memory, seed_of_decision(e->seed, v->seq), &e->carry, NULL);
    char buf[VERTEX_BUF];
    return say(r, "%s", vertex_format(p, e->settings.size, buf));
}

/* What a report starts with: the seat chosen, the game on, the colour to
 * move. Fills the public fields of ob. */
static bool report_start(gtp_engine *e, const args *a, int kind, observation *ob, reply *r) {
    int colour;
    if (e->seat == EMPTY) return fail(r, "no seat: send phantom-seat first");
    if (a->n < 1 || !gtp_colour_parse(a->v[0], &colour))
        return fail(r, "syntax error: expected black or white");
    const view *v = &e->memory.view;
    if (v->over) return fail(r, "the game is over: send clear_board");
    if (colour != v->to_move) return fail(r, "it is %s's turn", gtp_colour_name(v->to_move));
    memset(ob, 0, sizeof *ob);
    ob->seq = v->seq + 1;
    ob->turn = v->turn;
    ob->kind = kind;
    ob->color = colour;
    ob->point = NO_POINT;
    ob->reason = ILLEGAL_NONE;
    return true;
}

static bool is_keyword(const char *s) { return !strcmp(s, "captures") || !strcmp(s, "atari"); }

/* The vertex of the report at word *i, if any: required for the engine's
 * own attempts, forbidden for the opponent's (hidden). */
static bool report_vertex(const gtp_engine *e, const args *a, int *i, observation *ob, reply *r) {
    bool own = ob->color == e->seat;
    int size = e->settings.size;
    bool given = *i < a->n && !is_keyword(a->v[*i]);
    if (!own && given) return fail(r, "the opponent's attempts are hidden: report them without a vertex");
    if (!own) return true;
    if (!given) return fail(r, "syntax error: the engine's own attempt needs its vertex");
    point p;
    if (!vertex_parse(a->v[*i], size, &p))
        return fail(r, "syntax error: '%s' is not a vertex of this board", a->v[*i]);
    if (p == PASS_POINT) return fail(r, "a pass is reported with phantom-passed");
    if (e->memory.view.stone[p] == e->seat) return fail(r, "%s holds the engine's own stone", a->v[*i]);
    if (e->memory.view.mark[p] & VIEW_TRIED) return fail(r, "%s was already tried this turn", a->v[*i]);
    ob->point = p;
    (*i)++;
    return true;
}

/* Sorts captured points by column, then row (the referee's order). */
static void sort_by_column(point *pts, int n, int size) {
    for (int i = 1; i < n; i++) {
        point p = pts[i];
        int key = (p % size) * size + p / size, j = i;
        for (; j > 0 && (pts[j - 1] % size) * size + pts[j - 1] / size > key; j--) pts[j] = pts[j - 1];
        pts[j] = p;
    }
}

/* The captured points listed after "captures N". */
static bool report_captured_points(const gtp_engine *e, const args *a, int *i, observation *ob, reply *r) {
    bool own = ob->color == e->seat;
    int size = e->settings.size, n = 0;
    bool listed[BOARD_MAX_POINTS] = { false };
    for (; *i < a->n && !is_keyword(a->v[*i]); (*i)++) {
        point p;
        const char *w = a->v[*i];
        if (!vertex_parse(w, size, &p) || p == PASS_POINT)
            return fail(r, "syntax error: '%s' is not a vertex of this board", w);
        if (n == ob->captured_count) return fail(r, "more captured points than the %d captured", n);
        if (listed[p]) return fail(r, "%s is listed twice", w);
        if (own && (e->memory.view.stone[p] == e->seat || p == ob->point))
            return fail(r, "%s holds the engine's own stone, not a captured one", w);
        if (!own && e->memory.view.stone[p] != e->seat)
            return fail(r, "%s is not the engine's stone: only its own captured stones are shown to it", w);
        listed[p] = true;
        ob->captured[n++] = p;
    }
    bool told = !own || e->settings.rules != RULES_HAMBURG;
    if (!told && n > 0) return fail(r, "hamburg rules tell the engine only how many stones it captured");
    if (told && n != ob->captured_count)
        return fail(r, "captures %d needs the %d captured points", ob->captured_count, ob->captured_count);
    sort_by_column(ob->captured, n, size);
    ob->captured_known = (int16_t)n;
    return true;
}

static bool report_captures(const gtp_engine *e, const args *a, int *i, observation *ob, reply *r) {
    if (*i >= a->n || strcmp(a->v[*i], "captures") != 0) return true;
    (*i)++;
    int victim = color_other(ob->color);
    long n;
    int most = e->memory.view.on_board[victim];
    if (*i >= a->n || !parse_int(a->v[*i], 1, BOARD_MAX_POINTS, &n))
        return fail(r, "syntax error: captures needs a number of stones");
    if (n > most)
        return fail(r, "captures %ld: only %d %s stones are on the board", n, most, gtp_colour_name(victim));
    ob->captured_count = (int16_t)n;
    (*i)++;
    return report_captured_points(e, a, i, ob, r);
}

static bool report_end(const args *a, int i, reply *r) {
    if (i < a->n) return fail(r, "syntax error: unexpected '%s'", a->v[i]);
    return true;
}

static void report_apply(gtp_engine *e, observation *ob) {
    const view *v = &e->memory.view;
    int target = e->settings.capture_target;
    if (ob->kind == EV_MOVE && target > 0 && ob->captured_count > 0 &&
        v->captured_by[ob->color] + ob->captured_count >= target) {
        ob->ended = true;
        ob->result = (game_result){ true, false, END_CAPTURE, ob->color, 0, 0 };
    } else if (ob->kind == EV_PASS && v->passes >= 1) {
        ob->ended = true; /* scored by the referee; the engine cannot see the board */
        ob->result = (game_result){ true, false, END_PASSES, EMPTY, 0, 0 };
    }
    bot_memory_apply(&e->memory, ob);
}

static bool cmd_phantom_played(gtp_engine *e, const args *a, reply *r) {
    observation ob;
    int i = 1;
    if (!report_start(e, a, EV_MOVE, &ob, r) || !report_vertex(e, a, &i, &ob, r) ||
        !report_captures(e, a, &i, &ob, r))
        return false;
    if (i < a->n && !strcmp(a->v[i], "atari")) {
        if (e->settings.rules == RULES_OLYMPIAD) return fail(r, "olympiad rules announce no atari");
        ob.atari = true;
        i++;
    }
    if (!report_end(a, i, r)) return false;
    report_apply(e, &ob);
    return true;
}

static bool cmd_phantom_illegal(gtp_engine *e, const args *a, reply *r) {
    observation ob;
    int i = 1;
    if (!report_start(e, a, EV_ILLEGAL, &ob, r) || !report_vertex(e, a, &i, &ob, r)) return false;
    bool told = ob.color == e->seat && e->settings.rules == RULES_HAMBURG;
    illegal_reason why = ILLEGAL_NONE;
    if (i < a->n && gtp_reason_parse(a->v[i], &why)) {
        if (!told)
            return fail(r, "%s",
                        ob.color == e->seat ? "only hamburg rules tell the reason"
                                            : "the reason of the opponent's attempt is hidden");
        i++;
    } else if (told) {
        return fail(r, "hamburg rules tell the reason: occupied, suicide or ko");
    }
    if (!report_end(a, i, r)) return false;
    ob.reason = why;
    report_apply(e, &ob);
    return true;
}

static bool cmd_phantom_passed(gtp_engine *e, const args *a, reply *r) {
    observation ob;
    if (!report_start(e, a, EV_PASS, &ob, r) || !report_end(a, 1, r)) return false;
    report_apply(e, &ob);
    return true;
}

/* ---- showboard ---- */

static char board_char(const gtp_engine *e, point p) {
    const bot_memory *m = &e->memory;
    if (m->view.stone[p]) return m->view.stone[p] == BLACK ? 'X' : 'O';
    if (m->view.mark[p] & VIEW_TRIED) return '*';
    if (m->opp[p] == OPP_CERTAIN) return color_other(m->me) == BLACK ? 'x' : 'o';
    if (m->opp[p] == OPP_REFUSED || m->opp[p] == OPP_MAYBE) return '?';
    return '.';
}

static void show_letters(int size, reply *r) {
    say(r, "\n   ");
    for (int x = 0; x < size; x++) say(r, " %c", 'A' + x + (x >= 8));
}

static bool cmd_showboard(gtp_engine *e, const args *a, reply *r) {
    if (!want_args(a, 0, "no arguments", r)) return false;
    if (e->seat == EMPTY) return fail(r, "no seat: send phantom-seat first");
    int size = e->settings.size;
    const view *v = &e->memory.view;
    show_letters(size, r);
    for (int y = size - 1; y >= 0; y--) {
        say(r, "\n%2d ", y + 1);
        for (int x = 0; x < size; x++) say(r, " %c", board_char(e, (point)(y * size + x)));
        say(r, " %2d", y + 1);
    }
    show_letters(size, r);
    return say(r,
               "\n%s's view, turn %d, %s; on the board: black %d, white %d; captured by black %d, white %d"
               "\nX/O stones seen, x/o opponent stones inferred, ? perhaps a stone, * tried this turn",
               gtp_colour_name(e->seat), v->turn,
               v->over               ? "game over"
               : v->to_move == BLACK ? "black to move"
                                     : "white to move",
               v->on_board[BLACK], v->on_board[WHITE], v->captured_by[BLACK], v->captured_by[WHITE]);
}

/* ---- dispatch ---- */

typedef bool (*handler)(gtp_engine *e, const args *a, reply *r);

static const struct {
    const char *name;
    handler run;
} commands[] = {
    { "protocol_version", cmd_protocol_version },
    { "name", cmd_name },
    { "version", cmd_version },
    { "known_command", cmd_known_command },
    { "list_commands", cmd_list_commands },
    { "quit", cmd_quit },
    { "boardsize", cmd_boardsize },
    { "clear_board", cmd_clear_board },
    { "komi", cmd_komi },
    { "fixed_handicap", cmd_fixed_handicap },
    { "place_free_handicap", cmd_place_free_handicap },
    { "set_free_handicap", cmd_set_free_handicap },
    { "time_settings", cmd_time_settings },
    { "time_left", cmd_time_left },
    { "genmove", cmd_genmove },
    { "showboard", cmd_showboard },
    { "phantom-protocol_version", cmd_phantom_protocol_version },
    { "phantom-rules", cmd_phantom_rules },
    { "phantom-ko", cmd_phantom_ko },
    { "phantom-torus", cmd_phantom_torus },
    { "phantom-capture_target", cmd_phantom_capture_target },
    { "phantom-seat", cmd_phantom_seat },
    { "phantom-seed", cmd_phantom_seed },
    { "phantom-settings", cmd_phantom_settings },
    { "phantom-played", cmd_phantom_played },
    { "phantom-illegal", cmd_phantom_illegal },
    { "phantom-passed", cmd_phantom_passed },
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static handler find_command(const char *name) {
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(commands[i].name, name)) return commands[i].run;
    return NULL;
}

static bool cmd_known_command(gtp_engine *e, const args *a, reply *r) {
    (void)e;
    return want_args(a, 1, "a command name", r) && say(r, find_command(a->v[0]) ? "true" : "false");
}

static bool cmd_list_commands(gtp_engine *e, const args *a, reply *r) {
    (void)e;
    if (!want_args(a, 0, "no arguments", r)) return false;
    for (size_t i = 0; i < N_COMMANDS; i++) say(r, "%s%s", i ? "\n" : "", commands[i].name);
    return true;
}

/* GTP's preprocessing of one line into a fresh string (the caller frees):
 * control characters other than HT dropped, HT made a space, '#' and what
 * follows cut, the line ending at LF. */
static char *preprocess(const char *line, size_t len) {
    char *out = malloc(len + 1);
    if (!out) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len && line[i] != '\n' && line[i] != '#'; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == '\t') out[n++] = ' ';
        else if (c >= 32 && c != 127) out[n++] = (char)c;
    }
    out[n] = '\0';
    return out;
}

/* Splits s in place into words; words[] has room for len/2 + 1. */
static int split_words(char *s, char **words) {
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(s, " ", &save); w; w = strtok_r(NULL, " ", &save)) words[n++] = w;
    return n;
}

static bool all_digits(const char *s) {
    for (; *s; s++)
        if (!isdigit((unsigned char)*s)) return false;
    return true;
}

static size_t respond(char *out, bool ok, const char *id, const reply *r) {
    int n = snprintf(out, GTP_RESPONSE_MAX, "%c%s %s\n\n", ok ? '=' : '?', id, r->text);
    return n < 0 ? 0 : (size_t)n;
}

/* Runs the command in words[0..n-1] (n > 0); the reply says what to answer. */
static bool run_words(gtp_engine *e, char **words, int n, const char **id, bool *quit) {
    reply *r = &e->reply;
    int first = 0;
    if (all_digits(words[0])) {
        if (strlen(words[0]) > ID_MAX) return fail(r, "syntax error: id too long");
        *id = words[0];
        first = 1;
    }
    if (first == n) return fail(r, "syntax error: no command after the id");
    handler run = find_command(words[first]);
    if (!run) return fail(r, "unknown command");
    args a = { n - first - 1, words + first + 1 };
    if (!run(e, &a, r)) return false;
    *quit = run == cmd_quit;
    return true;
}

size_t gtp_engine_execute(gtp_engine *e, const char *line, size_t len, char *out, bool *quit) {
    reply *r = &e->reply;
    r->len = 0;
    r->text[0] = '\0';
    out[0] = '\0';
    char *clean = preprocess(line, len);
    char **words = clean ? malloc((strlen(clean) / 2 + 2) * sizeof *words) : NULL;
    size_t size = 0;
    if (!words) {
        fail(r, "out of memory");
        size = respond(out, false, "", r);
    } else {
        int n = split_words(clean, words);
        const char *id = "";
        if (n > 0) {
            bool ok = run_words(e, words, n, &id, quit);
            size = respond(out, ok, id, r);
        }
    }
    free(words);
    free(clean);
    return size;
}

gtp_engine *gtp_engine_new(const bot_config *cfg, const char *player_name, uint64_t seed) {
    gtp_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->config = *cfg;
    snprintf(e->player_name, sizeof e->player_name, "%s", player_name);
    e->seed = seed;
    e->settings = settings_default();
    e->seat = EMPTY;
    return e;
}

void gtp_engine_free(gtp_engine *e) { free(e); }
