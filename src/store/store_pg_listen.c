/* The PostgreSQL backend's news of other servers: one thread with its own
 * connection LISTENs on the two channels schema_pg.sql's triggers notify at
 * each commit, and passes each notification to the store_news callbacks of
 * store_watch:
 *   phantomgo_actions  "ID SEQ"          -> action
 *   phantomgo_games    "row ID"          -> row
 *                      "names ID"        -> names
 *                      "chat ID ROOM N"  -> chat
 *                      "unchat ID ROOM N" -> unchat (a tombstone)
 *                      "public ID"       -> created
 * Anything else on them (a newer server's news) is ignored.
 *
 * It waits in poll() on the connection's socket and on a pipe that
 * pg_store_watch(NULL) writes to stop it. A lost connection is reopened
 * every half second (through the same multi-host string, so it follows a
 * promoted standby); what was notified meanwhile is lost, so once it
 * listens again the `lost` callback tells the receiver to read afresh what
 * it holds. */
#include "store/store_pg.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RECONNECT_MS 500

static PGconn *listen_connection(pg_store *pg) {
    pg_link link = { NULL };
    if (pg_link_ensure(pg, &link, "l", NULL, 0, NULL, 0) != STORE_OK) return NULL;
    PGresult *res = PQexec(link.conn, "LISTEN phantomgo_actions; LISTEN phantomgo_games");
    bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    if (!ok) pg_link_drop(&link);
    return link.conn;
}

/* One notification of phantomgo_games to its callback. */
static void deliver_game_news(const store_news *news, const char *payload) {
    char kind[8], id[24];
    int room, n;
    if (sscanf(payload, "%7s %23s", kind, id) != 2) return;
    if (!strcmp(kind, "row") && news->row) news->row(news->ctx, id);
    else if (!strcmp(kind, "names") && news->names) news->names(news->ctx, id);
    else if (!strcmp(kind, "public") && news->created) news->created(news->ctx, id);
    else if (!strcmp(kind, "chat") && news->chat && sscanf(payload, "%*s %*s %d %d", &room, &n) == 2)
        news->chat(news->ctx, id, room, n);
    else if (!strcmp(kind, "unchat") && news->unchat && sscanf(payload, "%*s %*s %d %d", &room, &n) == 2)
        news->unchat(news->ctx, id, room, n);
}

static void deliver(pg_store *pg, PGconn *conn) {
    const store_news *news = &pg->news;
    PGnotify *n;
    while ((n = PQnotifies(conn)) != NULL) {
        char id[24];
        int seq;
        if (!strcmp(n->relname, "phantomgo_games")) deliver_game_news(news, n->extra);
        else if (news->action && sscanf(n->extra, "%23s %d", id, &seq) == 2)
            news->action(news->ctx, id, seq);
        PQfreemem(n);
    }
}

/* Waits for the connection or the stop pipe; false when told to stop. */
static bool wait_for(pg_store *pg, int fd, int timeout_ms) {
    struct pollfd fds[2] = { { pg->stop_pipe[0], POLLIN, 0 }, { fd, POLLIN, 0 } };
    int n = poll(fds, fd >= 0 ? 2 : 1, timeout_ms);
    return !(n > 0 && fds[0].revents);
}

static void *listen_main(void *arg) {
    pg_store *pg = arg;
    PGconn *conn = NULL;
    bool lost = false; /* a connection broke: news may be missing */
    for (;;) {
        if (!conn && !(conn = listen_connection(pg))) {
            lost = true;
            if (!wait_for(pg, -1, RECONNECT_MS)) break;
            continue;
        }
        if (lost && pg->news.lost) pg->news.lost(pg->news.ctx);
        lost = false;
        if (!wait_for(pg, PQsocket(conn), -1)) break;
        if (!PQconsumeInput(conn) || PQstatus(conn) != CONNECTION_OK) {
            PQfinish(conn);
            conn = NULL;
            lost = true;
            continue;
        }
        deliver(pg, conn);
    }
    PQfinish(conn);
    return NULL;
}

void pg_store_watch(pg_store *pg, const store_news *news) {
    if (pg->listening) {
        char stop = 1;
        if (write(pg->stop_pipe[1], &stop, 1) != 1) perror("store: stopping the listener");
        pthread_join(pg->listener, NULL);
        close(pg->stop_pipe[0]);
        close(pg->stop_pipe[1]);
        pg->listening = false;
    }
    memset(&pg->news, 0, sizeof pg->news);
    if (!news) return;
    pg->news = *news;
    if (pipe(pg->stop_pipe) != 0) {
        perror("store: no pipe for the listener");
        return;
    }
    if (pthread_create(&pg->listener, NULL, listen_main, pg) != 0) {
        close(pg->stop_pipe[0]);
        close(pg->stop_pipe[1]);
        fprintf(stderr, "store: cannot start the listener thread\n");
        return;
    }
    pg->listening = true;
}
