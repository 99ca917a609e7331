/* fuzz_referee_cli: the command-line referee's input, through cmd_referee
 * itself (the same code path as `phantomgo referee < file`).
 *
 * The input is the whole stdin text: a settings line, then action lines.
 * The target swaps the stdio streams for the call (stdin reads the input
 * from memory, stdout is captured, stderr is muted), then checks the
 * contract of referee_cmd.c: exit code 0 or 1; on success every output line
 * is a JSON object, one per non-blank action line, plus one {"over":true,...}
 * line when the game ends; on failure nothing after the failing line. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Non-blank lines of the input after the first non-blank one (the
 * settings): the action lines the referee must answer. */
static int action_lines(const uint8_t *data, size_t size) {
    int n = 0;
    bool blank = true;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            if (!blank) n++;
            blank = true;
        } else if (!strchr(" \t\r", data[i])) {
            blank = false;
        }
    }
    return n > 0 ? n - 1 : 0;
}

/* Checks the captured output; returns the number of lines, *overs the
 * number of {"over":true} lines. */
static int check_output(char *out, int *overs) {
    int lines = 0;
    *overs = 0;
    for (char *line = out, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        cJSON *json = cJSON_Parse(line);
        FUZZ_CHECK(cJSON_IsObject(json), "output line %d is not a JSON object: %s", lines + 1, line);
        if (cJSON_IsTrue(cJSON_GetObjectItem(json, "over"))) (*overs)++;
        FUZZ_CHECK(*overs == 0 || cJSON_IsTrue(cJSON_GetObjectItem(json, "over")) ||
                       !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(json, "result")) ?: "", "refused"),
                   "an action was judged after the end: %s", line);
        cJSON_Delete(json);
        lines++;
    }
    return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0; /* fmemopen refuses an empty buffer */
    FILE *in = fmemopen((void *)data, size, "r");
    char *out = NULL;
    size_t out_len = 0;
    FILE *captured = open_memstream(&out, &out_len);
    FILE *muted = fopen("/dev/null", "w");
    FUZZ_CHECK(in && captured && muted, "cannot set up the streams");
    FILE *saved_in = stdin, *saved_out = stdout, *saved_err = stderr;
    stdin = in;
    stdout = captured;
    stderr = muted;
    char *argv[] = { "referee", NULL };
    int rc = cmd_referee(1, argv);
    stdin = saved_in;
    stdout = saved_out;
    stderr = saved_err;
    fclose(in);
    fclose(muted);
    fclose(captured);
    FUZZ_CHECK(rc == 0 || rc == 1, "exit code %d", rc);
    int overs, lines = check_output(out, &overs);
    FUZZ_CHECK(overs <= 1, "%d end lines", overs);
    if (rc == 0)
        FUZZ_CHECK(lines == action_lines(data, size) + overs, "%d output lines for %d action lines", lines,
                   action_lines(data, size));
    else FUZZ_CHECK(lines <= action_lines(data, size) + overs, "more output than input");
    free(out);
    return 0;
}
