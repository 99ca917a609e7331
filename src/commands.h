/* Entry points of the subcommands dispatched by main.c. Each takes argv with
 * argv[0] being the subcommand's own name and returns the process exit code. */
#ifndef PG_COMMANDS_H
#define PG_COMMANDS_H

int cmd_referee(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_healthcheck(int argc, char **argv);
int cmd_arena(int argc, char **argv);
int cmd_gtp(int argc, char **argv);
int cmd_backup(int argc, char **argv);

#endif
