/* phantomgo: one binary, several subcommands (serve, referee, arena, gtp,
 * bench, healthcheck, backup). Each subcommand lives in its own module and exposes one
 * entry point declared in commands.h; this file only dispatches. */
#include "commands.h"
#include "version.h"

#include <stdio.h>
#include <string.h>

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    { "serve", cmd_serve, "serve the web application and its HTTP API (make run)" },
    { "referee", cmd_referee, "JSON-lines referee: settings, then one action a line" },
    { "bench", cmd_bench, "engine benchmark: playouts and referee games per second" },
    { "healthcheck", cmd_healthcheck, "exit 0 when the server's /api/health answers HTTP 200" },
    { "arena", cmd_arena, "play computer players against each other and measure strength" },
    { "backup", cmd_backup, "copy the SQLite database of a running server (online backup)" },
    { "gtp", cmd_gtp, "the computer player as a GTP engine (Phantom Go dialect, docs/GTP.md)" },
};

static void usage(FILE *out) {
    fprintf(out, "usage: phantomgo <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\n'phantomgo <command> --help' describes a command's options.\n"
            "phantomgo %s (%s)\n",
            pg_version, pg_commit);
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("phantomgo %s (%s)\n", pg_version, pg_commit);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "phantomgo: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
