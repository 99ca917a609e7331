/* `phantomgo serve`: builds the server from its parts (config, store,
 * games, hub, rate limiters, civetweb), prints where it listens, and waits
 * for SIGTERM or SIGINT to take it down: first the drain (http_drain:
 * the balancer moves away, WebSockets close with 1012), then the parts in
 * the reverse order, so every request in flight is answered, every
 * pending write committed and every thread joined before exit 0.
 *
 * The two signals are blocked before any thread starts (threads inherit
 * the mask) and taken synchronously with sigwait, so no handler ever runs
 * in the middle of a request. */
#include "commands.h"

#include <civetweb.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "http/admin.h"
#include "server/config.h"
#include "games/deadlines.h"
#include "games/registry.h"
#include "games/computer_player.h"
#include "games/games_push.h"
#include "http/http.h"
#include "http/hub.h"
#include "games/lobby.h"
#include "push/push_sender.h"
#include "games/retention.h"
#include "http/server.h"
#include "util/now.h"

/* mkdir -p of the directory that will hold path. */
static bool make_parent_dirs(const char *path) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return true;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) return false;
        *p = '/';
    }
    return mkdir(dir, 0755) == 0 || errno == EEXIST;
}

/* realpath of ROOT/name, or "" (with a warning) if it does not exist: the
 * API still works, the pages answer 404. */
static void resolve_dir(const char *root, const char *name, char out[PATH_MAX]) {
    char joined[PATH_MAX];
    snprintf(joined, sizeof joined, "%s/%s", root, name);
    if (!realpath(joined, out)) {
        fprintf(stderr, "phantomgo: warning: %s not found; its files will answer 404\n", joined);
        out[0] = '\0';
    }
}

/* civetweb starts all its worker threads up front and each open WebSocket
 * also has a writer thread of the hub, so the server needs about
 * threads + 2 * max_websockets threads. Under a process limit (RLIMIT_NPROC,
 * e.g. `docker run --ulimit nproc=1024` as a non-root user) the threads that
 * cannot start are silently missing and the server answers nothing, so the
 * WebSocket allowance is shrunk to fit the limit, and the operator told. */
static void fit_process_limit(server_config *cfg) {
    enum { HEADROOM = 64 }; /* store writer, games workers, civetweb's own */
    struct rlimit rl;
    if (geteuid() == 0 || getrlimit(RLIMIT_NPROC, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return;
    long room = (long)rl.rlim_cur - HEADROOM - cfg->threads;
    long fits = room > 0 ? room / 2 : 0;
    if (cfg->max_websockets <= fits) return;
    fprintf(stderr,
            "phantomgo: warning: the process limit (ulimit -u %ld) leaves room for %ld "
            "WebSockets, not %d: using %ld\n",
            (long)rl.rlim_cur, fits, cfg->max_websockets, fits);
    cfg->max_websockets = (int)fits;
}

/* The registry and its three clients, each loading its stored games. */
static bool open_games(server_ctx *srv, char *err, size_t errlen) {
    const server_config *c = &srv->cfg;
    if (registry_open(&srv->gm, srv->st, err, errlen) != GAME_OK) return false;
    registry_set_options(srv->gm, c->abandon_after, c->test_clock);
    if (c->test_clock) fprintf(stderr, "phantomgo: warning: --test-clock: anyone here can move the clock\n");
    const char *failed = !(srv->dl = deadlines_start(srv->gm)) ? "cannot start the clock thread"
                         : !(srv->lb = lobby_open(srv->gm))    ? "out of memory"
                         : !(srv->cq = computer_player_start(srv->gm))
                             ? "cannot start the computer player's threads"
                             : NULL;
    if (failed) snprintf(err, errlen, "%s", failed);
    return !failed;
}

/* Web Push: the sender (the VAPID key, read or made in the store) and the
 * notices. A database server that cannot give the key now leaves push off
 * with a warning (the rest of the site works); any other failure (an
 * unreadable --push-ca) stops the start. */
static bool open_push(server_ctx *srv, char *err, size_t errlen) {
    const server_config *c = &srv->cfg;
    if (!c->push) return true;
    /* Without a contact or a base URL, push services see a placeholder
     * (docs/SELF-HOSTING.md asks operators to set one). */
    const char *contact = c->push_contact[0] ? c->push_contact
                          : c->base_url[0]   ? c->base_url
                                             : "mailto:admin@localhost";
    push_sender_config pc = { .contact = contact, .ca_file = c->push_ca, .allow_private = c->push_allow_private };
    srv->ps = push_sender_start(srv->st, &pc, err, errlen);
    if (!srv->ps && store_is_server(c->db) && !c->push_ca[0]) {
        fprintf(stderr, "phantomgo: warning: push notifications are off: %s\n", err);
        err[0] = '\0';
        return true;
    }
    if (!srv->ps) return false;
    if (c->push_allow_private)
        fprintf(stderr, "phantomgo: warning: --push-allow-private: push may reach this host's network\n");
    srv->gp = games_push_start(srv->gm, srv->st, srv->ps);
    if (!srv->gp) snprintf(err, errlen, "cannot start the push notices thread");
    return srv->gp != NULL;
}

static bool open_parts(server_ctx *srv, char *err, size_t errlen) {
    const server_config *c = &srv->cfg;
    char schema[PATH_MAX];
    snprintf(schema, sizeof schema, "%s/schema.sql", c->root);
    resolve_dir(c->root, "web", srv->web_dir);
    resolve_dir(c->root, "static", srv->static_dir);
    if (access(c->qrcode_js, R_OK) != 0)
        fprintf(stderr, "phantomgo: warning: %s: %s: My games shows the device link without its QR code "
                        "(install the Debian package node-qrcode-generator, or set --qrcode-js)\n",
                c->qrcode_js, strerror(errno));
    if (!store_is_server(c->db) && !make_parent_dirs(c->db)) {
        snprintf(err, errlen, "cannot create the directory of %.300s: %s", c->db, strerror(errno));
        return false;
    }
    if (!(srv->adm = admin_open(c, err, errlen))) return false;
    if (store_open(&srv->st, c->db, schema, err, errlen) != STORE_OK) return false;
    if (!open_games(srv, err, errlen) || !open_push(srv, err, errlen)) return false;
    srv->rt = retention_start(srv->gm, srv->st, c->chat_retention_days, err, errlen);
    if (c->chat_retention_days > 0 && !srv->rt) return false;
    srv->hb = hub_new(srv);
    srv->api_limit = ratelimit_new(c->rate_limit, 5.0 * c->rate_limit);
    srv->create_limit = ratelimit_new(c->create_limit / 60.0, c->create_limit);
    srv->chat_speaker = ratelimit_new(c->chat_limit / 60.0, 2.0 * c->chat_limit);
    srv->chat_address = ratelimit_new(4.0 * c->chat_limit / 60.0, 8.0 * c->chat_limit);
    if (!srv->hb || !srv->api_limit || !srv->create_limit || !srv->chat_speaker || !srv->chat_address) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return http_start(srv, err, errlen);
}

static void close_parts(server_ctx *srv) {
    http_stop(srv);         /* no request or socket after this */
    computer_stop(srv->cq); /* waits for moves being thought */
    deadlines_stop(srv->dl);
    retention_stop(srv->rt);
    games_push_stop(srv->gp); /* before the games it listens to */
    push_sender_stop(srv->ps); /* a send in flight is cut short */
    lobby_close(srv->lb);
    registry_close(srv->gm);
    store_close(srv->st); /* pending commits are flushed */
    hub_free(srv->hb);
    ratelimit_free(srv->api_limit);
    ratelimit_free(srv->create_limit);
    ratelimit_free(srv->chat_speaker);
    ratelimit_free(srv->chat_address);
    admin_free(srv->adm);
}

/* SIGINT and SIGTERM are blocked in every thread (they inherit the mask)
 * and taken by sigwait on stop; SIGPIPE is ignored. */
static void block_stop_signals(sigset_t *stop) {
    sigemptyset(stop);
    sigaddset(stop, SIGINT);
    sigaddset(stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, stop, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int cmd_serve(int argc, char **argv) {
    static server_ctx srv;
    char err[512] = "";
    config_status cs = config_load(&srv.cfg, argc, argv, err, sizeof err);
    if (cs == CONFIG_HELP) {
        config_usage(stdout);
        return 0;
    }
    if (cs == CONFIG_ERROR) {
        fprintf(stderr, "phantomgo serve: %s\n", err);
        return 2;
    }
    fit_process_limit(&srv.cfg);
    sigset_t stop;
    block_stop_signals(&stop);
    mg_init_library(0);
    if (!open_parts(&srv, err, sizeof err)) {
        fprintf(stderr, "phantomgo serve: %s\n", err);
        close_parts(&srv);
        mg_exit_library();
        return 1;
    }
    if (srv.metrics_port) {
        const char *m = srv.cfg.metrics_listen;
        printf("metrics on http://%.*s:%d/metrics\n", (int)(strrchr(m, ':') - m), m, srv.metrics_port);
    }
    bool v6 = strchr(srv.cfg.listen, ':') != NULL;
    printf("listening on http://%s%s%s:%d\n", v6 ? "[" : "", srv.cfg.listen, v6 ? "]" : "", srv.port);
    fflush(stdout);
    int sig = 0;
    while (sigwait(&stop, &sig) != 0) continue;
    int64_t stopping = now_monotonic_ms();
    fprintf(stderr, "phantomgo: %s received, stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    http_drain(&srv);
    close_parts(&srv);
    fprintf(stderr, "phantomgo: stopped in %lld ms\n", (long long)(now_monotonic_ms() - stopping));
    mg_exit_library();
    return 0;
}
