/* fuzz_gtp: the GTP engine's command parser (src/cli/gtp_engine.c) and the
 * reports of the phantom- dialect.
 *
 * The first byte chooses how the rest is read:
 *  - even: as text, one command a line, fed to a fresh engine (the random
 *    player, so genmove is cheap). Every response must be well formed: ""
 *    for a line without a command, else "=" or "?", the id echoed when the
 *    line started with one, one empty line at the very end and none
 *    inside; genmove answers a vertex of the board or "pass"; nothing is
 *    answered after quit;
 *  - odd: as a game the referee plays from the bytes (table settings, then
 *    attempts and passes by the player to move), reported to an engine in
 *    one seat exactly as the arena reports it (gtp_report_write of that
 *    seat's view_observe). Every report must be accepted, and the engine's
 *    genmove must never name its own stone or a point it tried this turn
 *    (checked against view_build of the seat). */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot/bot.h"
#include "cli/gtp_engine.h"
#include "cli/gtp_report.h"
#include "engine/handicap.h"
#include "engine/referee.h"
#include "engine/vertex.h"
#include "engine/view.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char response[GTP_RESPONSE_MAX];

static gtp_engine *new_engine(void) {
    bot_config cfg = { BOT_RANDOM, 0, 0, NULL };
    gtp_engine *e = gtp_engine_new(&cfg, "random", 1);
    FUZZ_CHECK(e != NULL, "out of memory");
    return e;
}

/* The id a line starts with after GTP's preprocessing, or "" (into id). */
static void leading_id(const char *line, size_t len, char *id, size_t cap) {
    size_t n = 0, i = 0;
    for (; i < len && line[i] != '\n' && line[i] != '#'; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == ' ' || c == '\t') {
            if (n) break;
            continue;
        }
        if (c < 32 || c == 127) continue;
        if (!isdigit(c)) {
            n = 0;
            break;
        }
        if (n + 1 < cap) id[n] = (char)c;
        n++;
    }
    id[n < cap ? n : 0] = '\0';
    if (n >= cap) id[0] = '\0';
}

/* The command word of a line after GTP's preprocessing (control characters
 * dropped, a tab as a space, '#' starts a comment), past the id if any, or
 * "" (into word). Only a line whose command is genmove is held to answer a
 * vertex: "known_command genmove" rightly answers "true". */
static void command_word(const char *line, size_t len, char *word, size_t cap) {
    size_t n = 0;
    bool id_checked = false, all_digits = true;
    word[0] = '\0';
    for (size_t i = 0; i <= len; i++) {
        unsigned char c = i < len ? (unsigned char)line[i] : '\n';
        if (c == '#' || c == '\n') c = ' ', len = i;
        if (c == '\t') c = ' ';
        if (c != ' ' && (c < 32 || c == 127)) continue;
        if (c != ' ') {
            all_digits = all_digits && isdigit(c);
            if (n + 1 < cap) word[n++] = (char)c;
            continue;
        }
        if (!n) continue;
        word[n] = '\0';
        if (id_checked || !all_digits) return;
        id_checked = true, all_digits = true, n = 0;
        word[0] = '\0';
    }
    word[n] = '\0';
}

static void check_response(const char *line, size_t len, size_t n) {
    FUZZ_CHECK(n == strlen(response), "length %zu for a %zu-byte response", n, strlen(response));
    if (n == 0) return;
    FUZZ_CHECK(response[0] == '=' || response[0] == '?', "response starts with %c", response[0]);
    FUZZ_CHECK(n >= 3 && !strcmp(response + n - 2, "\n\n"), "response does not end with an empty line");
    FUZZ_CHECK(strstr(response, "\n\n") == response + n - 2, "an empty line inside the response");
    char id[24];
    leading_id(line, len, id, sizeof id);
    if (id[0] && strlen(id) <= 18)
        FUZZ_CHECK(!strncmp(response + 1, id, strlen(id)) && response[1 + strlen(id)] == ' ',
                   "id %s not echoed: %s", id, response);
}

static void fuzz_text(const uint8_t *data, size_t size) {
    gtp_engine *e = new_engine();
    bool quit = false;
    for (size_t at = 0; at < size && !quit;) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t len = nl ? (size_t)(nl - (data + at)) : size - at;
        const char *line = (const char *)data + at;
        size_t n = gtp_engine_execute(e, line, len, response, &quit);
        check_response(line, len, n);
        char command[16];
        command_word(line, len, command, sizeof command);
        if (n > 0 && response[0] == '=' && !strcmp(command, "genmove")) {
            char word[GTP_RESPONSE_MAX];
            sscanf(strchr(response, ' ') + 1, "%s", word);
            point p;
            FUZZ_CHECK(vertex_parse(word, 25, &p), "genmove answered '%s'", word);
        }
        at += len + 1;
    }
    gtp_engine_free(e);
}

static bool send(gtp_engine *e, const char *command) {
    bool quit = false;
    size_t n = gtp_engine_execute(e, command, strlen(command), response, &quit);
    FUZZ_CHECK(n > 0, "no response to %s", command);
    return response[0] == '=';
}

static void set_up(gtp_engine *e, const game_settings *s, int seat) {
    char cmd[64];
    snprintf(cmd, sizeof cmd, "boardsize %d", s->size);
    FUZZ_CHECK(send(e, cmd), "%s: %s", cmd, response);
    snprintf(cmd, sizeof cmd, "phantom-rules %s", gtp_rules_name(s->rules));
    FUZZ_CHECK(send(e, cmd), "%s: %s", cmd, response);
    snprintf(cmd, sizeof cmd, "phantom-capture_target %d", s->capture_target);
    FUZZ_CHECK(send(e, cmd), "%s: %s", cmd, response);
    FUZZ_CHECK(send(e, s->torus ? "phantom-torus on" : "phantom-torus off"), "torus: %s", response);
    FUZZ_CHECK(send(e, s->ko ? "phantom-ko superko" : "phantom-ko simple"), "ko: %s", response);
    if (s->handicap) {
        snprintf(cmd, sizeof cmd, "fixed_handicap %d", s->handicap);
        FUZZ_CHECK(send(e, cmd), "%s: %s", cmd, response);
    }
    snprintf(cmd, sizeof cmd, "phantom-seat %s", gtp_colour_name(seat));
    FUZZ_CHECK(send(e, cmd), "%s: %s", cmd, response);
}

/* Asks for the seat's move and checks it against the seat's view. */
static void check_genmove(gtp_engine *e, const referee *r, int seat) {
    char cmd[32], word[32];
    snprintf(cmd, sizeof cmd, "genmove %s", gtp_colour_name(seat));
    FUZZ_CHECK(send(e, cmd), "%s: %s", cmd, response);
    sscanf(response + 2, "%31s", word);
    point p;
    int size = referee_settings(r)->size;
    FUZZ_CHECK(vertex_parse(word, size, &p), "genmove answered '%s'", word);
    if (p == PASS_POINT) return;
    static view v;
    view_build(r, (viewer)seat, &v);
    FUZZ_CHECK(v.stone[p] != seat && !(v.mark[p] & VIEW_TRIED), "genmove chose %s: own stone or tried", word);
}

static void fuzz_game(fuzz_bytes *fb) {
    game_settings s = settings_default();
    s.size = 5 + (int)fuzz_below(fb, 5);
    s.rules = (referee_rules)fuzz_below(fb, 3);
    s.torus = fuzz_below(fb, 4) == 0;
    s.ko = fuzz_below(fb, 3) == 0 ? KO_SUPERKO : KO_SIMPLE;
    s.capture_target = fuzz_below(fb, 3) == 0 ? 1 + (int)fuzz_below(fb, 4) : 0;
    if (s.size == 9 && fuzz_below(fb, 4) == 0) s.handicap = 2 + (int)fuzz_below(fb, 3);
    int seat = fuzz_below(fb, 2) ? BLACK : WHITE;
    referee *r = referee_new(&s);
    FUZZ_CHECK(r != NULL, "referee_new");
    gtp_engine *e = new_engine();
    set_up(e, &s, seat);
    char report[GTP_RESPONSE_MAX];
    for (int steps = 0; steps < 400 && fuzz_left(fb) && referee_to_move(r) != EMPTY; steps++) {
        int colour = referee_to_move(r);
        unsigned pick = fuzz_below(fb, (unsigned)(s.size * s.size + 8));
        if (colour == seat && pick >= (unsigned)(s.size * s.size + 6)) check_genmove(e, r, seat);
        action a = { pick < (unsigned)(s.size * s.size) ? ACT_ATTEMPT : ACT_PASS, colour, (point)pick };
        if (referee_apply(r, a, NULL) != REFUSE_NONE || referee_to_move(r) == EMPTY) continue;
        observation ob;
        FUZZ_CHECK(view_observe(r, (viewer)seat, referee_event_count(r), &ob), "view_observe");
        FUZZ_CHECK(gtp_report_write(&ob, s.size, report, sizeof report), "no report for kind %d", ob.kind);
        FUZZ_CHECK(send(e, report), "'%s' refused: %s", report, response);
    }
    gtp_engine_free(e);
    referee_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    if (data[0] % 2 == 0) {
        fuzz_text(data + 1, size - 1);
    } else {
        fuzz_bytes fb = fuzz_bytes_of(data + 1, size - 1);
        fuzz_game(&fb);
    }
    return 0;
}
