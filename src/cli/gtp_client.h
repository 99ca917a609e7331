/* gtp_client: the controller's side of GTP, for the arena: an engine run as
 * a child process (`sh -c COMMAND`), one command sent at a time, its
 * response awaited with a timeout.
 *
 * Everything that can go wrong with an external program is an outcome, not
 * a crash of the arena: the engine may answer with an error, answer
 * something that is not a GTP response, take too long, or die (its pipe
 * closes; SIGPIPE must be ignored by the caller). After anything but
 * GTP_OK or GTP_REFUSED the engine is no longer trusted: stop it. The pipes
 * are close-on-exec, so engines started by parallel arena threads do not
 * inherit each other's pipes. The engine's stderr is the arena's. */
#ifndef PG_CLI_GTP_CLIENT_H
#define PG_CLI_GTP_CLIENT_H

#include <stddef.h>

typedef enum {
    GTP_OK = 0,  /* "= ..." */
    GTP_REFUSED, /* "? ...": the engine answered with an error */
    GTP_GARBLED, /* the answer is not a GTP response */
    GTP_TIMEOUT, /* no complete answer in time */
    GTP_DEAD     /* the engine exited or closed its pipes */
} gtp_outcome;

typedef struct gtp_client gtp_client;

/* Starts the engine. NULL (with the reason in err) if it cannot be run. */
gtp_client *gtp_client_start(const char *command, char *err, size_t err_len);

/* Sends one command (no newline) and waits up to timeout_ms for the
 * response. The response's text (after "= " or "? ", without the id and
 * the closing empty line) goes to answer, truncated to len bytes; for the
 * failures, a description of what happened. */
gtp_outcome gtp_client_ask(gtp_client *c, const char *command, int timeout_ms, char *answer, size_t len);

/* Sends quit, gives the engine a moment to exit, then kills it; frees c. */
void gtp_client_stop(gtp_client *c);

/* "engine refused", "engine answered garbage", ... for reports. */
const char *gtp_outcome_name(gtp_outcome o);

#endif
