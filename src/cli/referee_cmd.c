/* `phantomgo referee`: the rules engine as a JSON-lines filter, so people
 * can check game records and tests can drive the engine without a server.
 *
 *   stdin:  one settings object, then one action a line: a JSON string,
 *           a vertex ("D4"), "pass" or "resign"; the colour is always the
 *           player to move. Blank lines are skipped.
 *   stdout: one truth line per action (cli/truth_json.h), and one more,
 *           {"over":true,...}, when the game ends. Flushed per line, so a
 *           test or a person can converse with it through a pipe.
 *   errors: a line that is not JSON, not a string, or bad settings: one
 *           line on stderr, exit 1. A bad vertex is not an input error but
 *           a refused action, answered on stdout like any other.
 * Unlike the server, this tool prints the whole truth: it is a referee's
 * notebook, not a client. */
#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "cli/truth_json.h"
#include "engine/referee.h"
#include "engine/vertex.h"
#include "wire/event_json.h"
#include "wire/json_parse.h"
#include "wire/settings_json.h"

#define ERR_LEN 160

static const char usage_text[] =
    "usage: phantomgo referee < game.jsonl\n"
    "  line 1: settings, e.g. {\"size\":9,\"komi\":7.5,\"handicap\":0,\"ko\":\"simple\",\n"
    "          \"rules\":\"olympiad\",\"torus\":false,\"capture_go\":false} (all optional)\n"
    "  then:   one action a line: \"D4\", \"pass\" or \"resign\" (JSON strings)\n"
    "  prints: one JSON line per action with the referee's whole truth, and\n"
    "          {\"over\":true,...} when the game ends.\n";

/* Prints a JSON object as one line and frees it; false if out of memory. */
static bool print_line(cJSON *obj) {
    char *text = obj ? cJSON_PrintUnformatted(obj) : NULL;
    cJSON_Delete(obj);
    if (!text) return false;
    puts(text);
    fflush(stdout);
    cJSON_free(text);
    return true;
}

static bool is_blank(const char *s) { return s[strspn(s, " \t\r\n")] == '\0'; }

/* Turns the action text into an action for the player to move. Returns the
 * refusal to print when it is no action at all. */
static refusal action_from_text(const referee *r, const char *text, action *out) {
    if (referee_result(r).over) return REFUSE_GAME_OVER;
    out->color = referee_to_move(r);
    out->point = NO_POINT;
    if (!strcmp(text, "resign")) {
        out->kind = ACT_RESIGN;
        return REFUSE_NONE;
    }
    point p;
    if (!vertex_parse(text, referee_settings(r)->size, &p)) return REFUSE_BAD_VERTEX;
    out->kind = p == PASS_POINT ? ACT_PASS : ACT_ATTEMPT;
    out->point = p;
    return REFUSE_NONE;
}

/* Judges one action line and prints its answer(s). Returns false, with a
 * message in err, if the line is bad input. */
static bool handle_action_line(referee *r, const char *line, char *err) {
    json_parse_status parsed;
    cJSON *json = json_parse_str(line, &parsed);
    if (!json) {
        snprintf(err, ERR_LEN, "%s", parsed == JSON_PARSE_SYNTAX ? "not valid JSON" : json_parse_message(parsed));
        return false;
    }
    if (!cJSON_IsString(json)) {
        cJSON_Delete(json);
        snprintf(err, ERR_LEN, "an action must be a JSON string: a vertex, \"pass\" or \"resign\"");
        return false;
    }
    action a;
    refusal why = action_from_text(r, json->valuestring, &a);
    cJSON_Delete(json);
    const ref_event *ev = NULL;
    if (why == REFUSE_NONE) why = referee_apply(r, a, &ev);
    bool ok = why == REFUSE_NONE ? print_line(truth_json_event(r, ev)) : print_line(event_json_refusal(why));
    if (ok && ev && ev->ended) {
        game_result res = referee_result(r);
        ok = print_line(event_json_result(&res));
    }
    if (!ok) snprintf(err, ERR_LEN, "out of memory");
    return ok;
}

static int fail(long line_no, const char *msg) {
    fprintf(stderr, "phantomgo referee: line %ld: %s\n", line_no, msg);
    return 1;
}

static int run(FILE *in) {
    char *line = NULL, err[ERR_LEN];
    size_t cap = 0;
    long line_no = 0;
    referee *r = NULL;
    int rc = 0;
    ssize_t len;
    while (rc == 0 && (len = getline(&line, &cap, in)) >= 0) {
        line_no++;
        if ((size_t)len != strlen(line)) {
            rc = fail(line_no, "a NUL byte in the line");
            break;
        }
        if (is_blank(line)) continue;
        if (!r) {
            game_settings s;
            if (!settings_parse_json(line, &s, err, sizeof err)) rc = fail(line_no, err);
            else if (!(r = referee_new(&s))) rc = fail(line_no, "out of memory");
        } else if (!handle_action_line(r, line, err)) {
            rc = fail(line_no, err);
        }
    }
    if (rc == 0 && !r) {
        fprintf(stderr, "phantomgo referee: no settings line on stdin\n");
        rc = 1;
    }
    free(line);
    referee_free(r);
    return rc;
}

int cmd_referee(int argc, char **argv) {
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "phantomgo referee: unexpected argument '%s'\n%s", argv[1], usage_text);
        return 2;
    }
    return run(stdin);
}
