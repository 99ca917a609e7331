/* gtp_client: an engine process spoken to over GTP (see gtp_client.h).
 *
 * The child is spawned with posix_spawn (safe in a threaded program) with
 * its stdin and stdout on two pipes. A response is read until the empty
 * line that ends it; bytes after it (there should be none: one command
 * is in flight at a time) are kept for the next response. Waiting uses
 * poll with the time left, so a silent engine costs the timeout and no
 * more. */
#include "cli/gtp_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/now.h"

extern char **environ;

#define READ_MAX 65536

struct gtp_client {
    pid_t pid;
    int to_engine, from_engine;
    char buf[READ_MAX];
    size_t have;
};

gtp_client *gtp_client_start(const char *command, char *err, size_t err_len) {
    int in[2], out[2];
    gtp_client *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(err, err_len, "pipe: %s", strerror(errno));
        free(c);
        return NULL;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, err_len, "pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        free(c);
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    /* Its own process group, so stopping it also stops what sh started
     * and a terminal's Ctrl-C reaches only the arena; and no signal
     * blocked, whatever the calling thread blocks (the arena's workers
     * leave SIGINT and SIGTERM to its watcher). */
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    char *argv[] = { "sh", "-c", (char *)command, NULL };
    int rc = posix_spawn(&c->pid, "/bin/sh", &fa, &attr, argv, environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        snprintf(err, err_len, "cannot start /bin/sh: %s", strerror(rc));
        close(in[1]);
        close(out[0]);
        free(c);
        return NULL;
    }
    c->to_engine = in[1];
    c->from_engine = out[0];
    return c;
}

static bool write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        s += w;
        n -= (size_t)w;
    }
    return true;
}

/* The end of the first complete response in the buffer (just past its
 * empty line), or 0. Carriage returns are tolerated. */
static size_t response_end(const gtp_client *c) {
    for (size_t i = 0; i + 1 < c->have; i++) {
        if (c->buf[i] != '\n') continue;
        size_t j = i + 1;
        if (j < c->have && c->buf[j] == '\r') j++;
        if (j < c->have && c->buf[j] == '\n') return j + 1;
    }
    return 0;
}

/* Reads until a whole response is buffered. */
static gtp_outcome read_response(gtp_client *c, int timeout_ms, size_t *end) {
    double deadline = (double)now_monotonic_ms() + timeout_ms;
    while ((*end = response_end(c)) == 0) {
        if (c->have == sizeof c->buf) return GTP_GARBLED;
        int left = (int)(deadline - (double)now_monotonic_ms());
        if (left <= 0) return GTP_TIMEOUT;
        struct pollfd p = { c->from_engine, POLLIN, 0 };
        int n = poll(&p, 1, left);
        if (n < 0 && errno == EINTR) continue;
        if (n == 0) return GTP_TIMEOUT;
        ssize_t got = read(c->from_engine, c->buf + c->have, sizeof c->buf - c->have);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return GTP_DEAD;
        c->have += (size_t)got;
    }
    return GTP_OK;
}

/* Splits the response buf[0..end) into its outcome and text. */
static gtp_outcome parse_response(gtp_client *c, size_t end, char *answer, size_t len) {
    char text[READ_MAX];
    size_t n = 0;
    for (size_t i = 0; i < end; i++)
        if (c->buf[i] != '\r') text[n++] = c->buf[i];
    while (n > 0 && text[n - 1] == '\n') n--;
    text[n] = '\0';
    memmove(c->buf, c->buf + end, c->have - end);
    c->have -= end;
    if (text[0] != '=' && text[0] != '?') {
        snprintf(answer, len, "not a GTP response: '%.60s'", text);
        return GTP_GARBLED;
    }
    size_t at = 1 + strspn(text + 1, "0123456789");
    if (text[at] != ' ' && text[at] != '\n' && text[at] != '\0') {
        snprintf(answer, len, "not a GTP response: '%.60s'", text);
        return GTP_GARBLED;
    }
    if (text[at] == ' ') at++;
    snprintf(answer, len, "%s", text + at);
    return text[0] == '=' ? GTP_OK : GTP_REFUSED;
}

gtp_outcome gtp_client_ask(gtp_client *c, const char *command, int timeout_ms, char *answer, size_t len) {
    size_t n = strlen(command), end;
    char *line = malloc(n + 2);
    if (!line) {
        snprintf(answer, len, "out of memory");
        return GTP_DEAD;
    }
    memcpy(line, command, n);
    line[n] = '\n';
    bool sent = write_all(c->to_engine, line, n + 1);
    free(line);
    if (!sent) {
        snprintf(answer, len, "the engine closed its input (%s)", strerror(errno));
        return GTP_DEAD;
    }
    gtp_outcome o = read_response(c, timeout_ms, &end);
    if (o == GTP_TIMEOUT) {
        snprintf(answer, len, "no answer within %d ms", timeout_ms);
        return o;
    }
    if (o == GTP_DEAD) {
        snprintf(answer, len, "the engine exited or closed its output");
        return o;
    }
    if (o == GTP_GARBLED) {
        snprintf(answer, len, "an answer longer than %d bytes", READ_MAX);
        return o;
    }
    return parse_response(c, end, answer, len);
}

void gtp_client_stop(gtp_client *c) {
    if (!c) return;
    write_all(c->to_engine, "quit\n", 5);
    close(c->to_engine);
    int status;
    pid_t done = 0;
    for (int i = 0; i < 50 && (done = waitpid(c->pid, &status, WNOHANG)) == 0; i++) {
        struct timespec t = { 0, 20 * 1000 * 1000 };
        nanosleep(&t, NULL);
    }
    if (done == 0) { /* unreaped, so its group id is still its own */
        kill(-c->pid, SIGKILL);
        waitpid(c->pid, &status, 0);
    }
    close(c->from_engine);
    free(c);
}

const char *gtp_outcome_name(gtp_outcome o) {
    static const char *const names[] = { "answered", "answered with an error", "answered garbage",
                                         "timed out", "crashed or exited" };
    return names[o];
}
