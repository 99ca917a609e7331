/* `phantomgo healthcheck`: asks a running server whether it is healthy and
 * turns the answer into an exit code, 0 for HTTP 200 and 1 for anything else
 * (Docker reserves 2), so the Docker image's HEALTHCHECK and service monitors
 * need neither curl nor wget in the image.
 *
 * It speaks the least HTTP that does the job: one HTTP/1.0 GET over a plain
 * POSIX socket, only the status line is read, and every step (connect, send,
 * receive) runs under one deadline so a hung server cannot hang the check.
 * Name resolution goes through getaddrinfo, so http://localhost:8080/ and
 * http://[::1]:8080/ work as well as literal IPv4 addresses. */
#include "commands.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/now.h"

enum {
    HC_HEALTHY = 0,
    HC_UNHEALTHY = 1,
    HC_DEFAULT_TIMEOUT_S = 5,
    HC_MAX_TIMEOUT_S = 3600,
    HC_DRAIN_LIMIT = 64 * 1024,
};

struct hc_url {
    char host[256];
    char port[6];
    char path[1024];
};

/* ---- command line ---------------------------------------------------- */

static void hc_usage(FILE *out) {
    fprintf(out,
            "usage: phantomgo healthcheck [--url URL] [--timeout SECONDS]\n"
            "\n"
            "GETs URL and exits 0 when the server answers HTTP 200, 1 otherwise\n"
            "(refused, timed out, any other status, bad arguments).\n"
            "\n"
            "  --url URL          http:// URL to check; default\n"
            "                     http://HOST:$PHANTOMGO_PORT/api/health, where PORT\n"
            "                     defaults to 8080 and HOST is $PHANTOMGO_LISTEN when\n"
            "                     that names one address, 127.0.0.1 otherwise\n"
            "  --timeout SECONDS  give up after this long in total (default %d)\n",
            HC_DEFAULT_TIMEOUT_S);
}

/* Accepts "--name VALUE" and "--name=VALUE"; *i is advanced past VALUE. */
static const char *hc_option_value(int argc, char **argv, int *i, const char *name) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] != '\0' || *i + 1 >= argc) return NULL;
    return argv[++*i];
}

static int hc_parse_timeout(const char *text, int *seconds_out) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 1 || v > HC_MAX_TIMEOUT_S) return -1;
    *seconds_out = (int)v;
    return 0;
}

/* The server's own defaults: PHANTOMGO_PORT, and PHANTOMGO_LISTEN unless it
 * is a wildcard address, which any local client reaches through loopback. */
static int hc_default_url(char *buf, size_t size) {
    const char *port = getenv("PHANTOMGO_PORT");
    const char *listen = getenv("PHANTOMGO_LISTEN");
    if (!port || !*port) port = "8080";
    if (!listen || !*listen || !strcmp(listen, "0.0.0.0") || !strcmp(listen, "::")) listen = "127.0.0.1";
    int len = strchr(listen, ':') ? snprintf(buf, size, "http://[%s]:%s/api/health", listen, port)
                                  : snprintf(buf, size, "http://%s:%s/api/health", listen, port);
    return len > 0 && (size_t)len < size ? 0 : -1;
}

/* ---- URL ------------------------------------------------------------- */

static int hc_copy_part(char *dst, size_t size, const char *src, size_t len) {
    if (len == 0 || len >= size) return -1;
    memcpy(dst, src, len);
    dst[len] = '\0';
    return 0;
}

static int hc_valid_port(const char *port) {
    char *end;
    long v = strtol(port, &end, 10);
    return *port && !*end && v >= 1 && v <= 65535;
}

/* Splits "host", "host:port", "[v6]" or "[v6]:port" into out. */
static int hc_parse_authority(const char *s, size_t len, struct hc_url *out) {
    const char *host = s, *colon;
    size_t host_len;
    if (len > 0 && s[0] == '[') {
        const char *close = memchr(s, ']', len);
        if (!close) return -1;
        host = s + 1;
        host_len = (size_t)(close - host);
        colon = close + 1 < s + len ? close + 1 : NULL;
        if (colon && *colon != ':') return -1;
    } else {
        colon = memchr(s, ':', len);
        host_len = colon ? (size_t)(colon - s) : len;
    }
    if (hc_copy_part(out->host, sizeof out->host, host, host_len)) return -1;
    if (!colon) return hc_copy_part(out->port, sizeof out->port, "80", 2);
    if (hc_copy_part(out->port, sizeof out->port, colon + 1, (size_t)(s + len - colon - 1))) return -1;
    return hc_valid_port(out->port) ? 0 : -1;
}

/* Only plain http: the check runs next to the server, never through TLS. */
static int hc_parse_url(const char *url, struct hc_url *out) {
    static const char scheme[] = "http://";
    if (strncasecmp(url, scheme, sizeof scheme - 1) != 0) return -1;
    const char *authority = url + sizeof scheme - 1;
    const char *slash = strchr(authority, '/');
    size_t authority_len = slash ? (size_t)(slash - authority) : strlen(authority);
    if (hc_parse_authority(authority, authority_len, out)) return -1;
    const char *path = slash ? slash : "/";
    for (const char *p = path; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f) return -1; /* no header injection */
    return hc_copy_part(out->path, sizeof out->path, path, strlen(path));
}

/* ---- I/O under one deadline ------------------------------------------ */

/* Waits for events on fd until the deadline; 0 when ready, -1 with errno
 * (ETIMEDOUT when the deadline passed). */
static int hc_wait(int fd, short events, long long deadline_ms) {
    for (;;) {
        long long left = deadline_ms - now_monotonic_ms();
        if (left <= 0) {
            errno = ETIMEDOUT;
            return -1;
        }
        struct pollfd pfd = { .fd = fd, .events = events };
        int n = poll(&pfd, 1, (int)left);
        if (n > 0) return 0;
        if (n < 0 && errno != EINTR) return -1;
    }
}

/* 0 once a non-blocking connect has completed, else the errno why not. */
static int hc_connect_result(int fd, long long deadline_ms) {
    int err = 0;
    socklen_t len = sizeof err;
    if (hc_wait(fd, POLLOUT, deadline_ms)) return errno;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)) return errno;
    return err;
}

static int hc_connect_one(const struct addrinfo *ai, long long deadline_ms) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) return -1;
    int err = connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 ? 0 : errno;
    if (err == EINPROGRESS) err = hc_connect_result(fd, deadline_ms);
    if (err == 0) return fd;
    close(fd);
    errno = err;
    return -1;
}

/* Tries every address of the host in turn; the fd, or -1 with errno set
 * (or *gai_error set when the name did not resolve). */
static int hc_connect(const struct hc_url *url, long long deadline_ms, int *gai_error) {
    struct addrinfo hints = { .ai_family = AF_UNSPEC,
                              .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_NUMERICSERV };
    struct addrinfo *list;
    *gai_error = getaddrinfo(url->host, url->port, &hints, &list);
    if (*gai_error) return -1;
    int fd = -1;
    for (const struct addrinfo *ai = list; ai && fd < 0; ai = ai->ai_next)
        fd = hc_connect_one(ai, deadline_ms);
    int err = errno;
    freeaddrinfo(list);
    errno = err;
    return fd;
}

static int hc_send_all(int fd, const char *buf, size_t len, long long deadline_ms) {
    while (len > 0) {
        if (hc_wait(fd, POLLOUT, deadline_ms)) return -1;
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n < 0) return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Reads into buf until the status line is complete or the peer closes;
 * returns the bytes read, or -1 with errno. */
static ssize_t hc_read_status_line(int fd, char *buf, size_t size, long long deadline_ms) {
    size_t used = 0;
    while (used + 1 < size && !memchr(buf, '\n', used)) {
        if (hc_wait(fd, POLLIN, deadline_ms)) return -1;
        ssize_t n = recv(fd, buf + used, size - 1 - used, 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n < 0) return -1;
        if (n == 0) break;
        used += (size_t)n;
    }
    buf[used] = '\0';
    return (ssize_t)used;
}

/* Reads the rest of a short answer so the server sees an orderly close
 * rather than a reset; gives up quietly at the deadline or the limit. */
static void hc_drain(int fd, long long deadline_ms) {
    char scratch[4096];
    size_t total = 0;
    while (total < HC_DRAIN_LIMIT && hc_wait(fd, POLLIN, deadline_ms) == 0) {
        ssize_t n = recv(fd, scratch, sizeof scratch, 0);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (n <= 0) return;
        total += (size_t)n;
    }
}

/* The status code of "HTTP/1.x NNN ...", or -1. */
static int hc_status_code(const char *line) {
    int minor, status;
    if (sscanf(line, "HTTP/1.%d %3d", &minor, &status) != 2) return -1;
    return status >= 100 && status <= 599 ? status : -1;
}

/* ---- the check ------------------------------------------------------- */

/* Performs the GET; returns the HTTP status, or -1 after reporting why. */
static int hc_fetch_status(const char *url_text, const struct hc_url *url, int timeout_s) {
    long long deadline_ms = now_monotonic_ms() + (long long)timeout_s * 1000;
    int gai_error = 0;
    int fd = hc_connect(url, deadline_ms, &gai_error);
    if (fd < 0) {
        fprintf(stderr, "healthcheck: %s: %s\n", url_text,
                gai_error ? gai_strerror(gai_error) : strerror(errno));
        return -1;
    }
    char request[1536], answer[512];
    int len = snprintf(request, sizeof request,
                       "GET %s HTTP/1.0\r\nHost: %s:%s\r\nUser-Agent: phantomgo-healthcheck\r\n"
                       "Accept: application/json\r\nConnection: close\r\n\r\n",
                       url->path, url->host, url->port);
    int status = -1;
    if (len < 0 || (size_t)len >= sizeof request || hc_send_all(fd, request, (size_t)len, deadline_ms) ||
        hc_read_status_line(fd, answer, sizeof answer, deadline_ms) < 0) {
        fprintf(stderr, "healthcheck: %s: %s\n", url_text, strerror(errno));
    } else if ((status = hc_status_code(answer)) < 0) {
        fprintf(stderr, "healthcheck: %s: not an HTTP answer\n", url_text);
    } else {
        hc_drain(fd, deadline_ms);
    }
    close(fd);
    return status;
}

int cmd_healthcheck(int argc, char **argv) {
    char default_url[600];
    const char *url_text = NULL, *value;
    int timeout_s = HC_DEFAULT_TIMEOUT_S;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            hc_usage(stdout);
            return HC_HEALTHY;
        } else if ((value = hc_option_value(argc, argv, &i, "--url"))) {
            url_text = value;
        } else if ((value = hc_option_value(argc, argv, &i, "--timeout"))) {
            if (hc_parse_timeout(value, &timeout_s)) {
                fprintf(stderr, "healthcheck: --timeout wants whole seconds from 1 to %d\n",
                        HC_MAX_TIMEOUT_S);
                return HC_UNHEALTHY;
            }
        } else {
            fprintf(stderr, "healthcheck: unknown or incomplete option '%s'\n", argv[i]);
            hc_usage(stderr);
            return HC_UNHEALTHY;
        }
    }
    if (!url_text) url_text = hc_default_url(default_url, sizeof default_url) ? "" : default_url;
    struct hc_url url;
    if (hc_parse_url(url_text, &url)) {
        fprintf(stderr, "healthcheck: '%s' is not an http://host[:port][/path] URL\n", url_text);
        return HC_UNHEALTHY;
    }
    int status = hc_fetch_status(url_text, &url, timeout_s);
    if (status == 200) return HC_HEALTHY;
    if (status > 0) fprintf(stderr, "healthcheck: %s: HTTP %d\n", url_text, status);
    return HC_UNHEALTHY;
}
