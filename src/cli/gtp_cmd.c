/* `phantomgo gtp`: the computer player as a GTP engine on stdin/stdout.
 *
 *   phantomgo gtp [--level easy|medium|strong | --player PLAYER] [--seed S]
 *
 * One command a line in, one response out (flushed at once, so a
 * controller can converse through pipes); the protocol, its phantom-
 * extension and an example session are in docs/GTP.md. The engine itself
 * is gtp_engine.c; this file only parses the options and moves lines.
 * Exits 0 after `quit` or at the end of the input. */
#include "commands.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bot/bot.h"
#include "cli/gtp_engine.h"

static const char usage_text[] =
    "usage: phantomgo gtp [--level easy|medium|strong | --player PLAYER] [--seed S]\n"
    "  Speaks GTP version 2 with the phantom- extension of docs/GTP.md on\n"
    "  stdin/stdout, playing one seat of a Phantom Go game.\n"
    "  --level   the levels of the web application (default: strong)\n"
    "  --player  random, heuristic, flat, strong or reference, optionally :N (N playouts a\n"
    "            decision) or :Nms (N milliseconds a decision), as in the arena\n"
    "  --seed    the random seed until the controller sends phantom-seed\n"
    "            (default: from the clock)\n";

static int serve(gtp_engine *e) {
    char *line = NULL, *out = malloc(GTP_RESPONSE_MAX);
    size_t cap = 0;
    ssize_t len;
    bool quit = false;
    if (!out) return 1;
    while (!quit && (len = getline(&line, &cap, stdin)) >= 0) {
        size_t n = gtp_engine_execute(e, line, (size_t)len, out, &quit);
        if (n > 0 && (fwrite(out, 1, n, stdout) != n || fflush(stdout) != 0)) break;
    }
    free(line);
    free(out);
    return 0;
}

int cmd_gtp(int argc, char **argv) {
    static const struct option opts[] = {
        { "level", required_argument, 0, 'l' },
        { "player", required_argument, 0, 'p' },
        { "seed", required_argument, 0, 's' },
        { "help", no_argument, 0, 'h' },
        { 0, 0, 0, 0 },
    };
    const char *level = NULL, *player = NULL;
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'l': level = optarg; break;
        case 'p': player = optarg; break;
        case 's': seed = strtoull(optarg, NULL, 10); break;
        case 'h': fputs(usage_text, stdout); return 0;
        default: fputs(usage_text, stderr); return 2;
        }
    }
    bot_config cfg;
    if (optind != argc || (level && player)) {
        fputs(usage_text, stderr);
        return 2;
    }
    if (player ? !bot_config_parse(player, &cfg) : !bot_level(level ? level : "strong", &cfg)) {
        fprintf(stderr, "gtp: unknown %s '%s'\n", player ? "player" : "level", player ? player : level);
        fputs(usage_text, stderr);
        return 2;
    }
    gtp_engine *e = gtp_engine_new(&cfg, player ? player : level ? level : "strong", seed);
    if (!e) {
        fprintf(stderr, "gtp: out of memory\n");
        return 1;
    }
    int rc = serve(e);
    gtp_engine_free(e);
    return rc;
}
