/* static: pages and files of the browser application. See static.h.
 *
 * Names are held to a whitelist ([A-Za-z0-9._-] segments, none starting
 * with a dot) before they touch the file system, and the real path of what
 * they name must lie inside web/ or static/, so neither "..", encoded
 * slashes, dot files nor symbolic links can reach anything else. */
#include "http/static.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "http/admin.h"

enum { NAME_MAX_LEN = 512, INLINE_MAX = 256 * 1024, CHUNK = 64 * 1024 };

typedef struct content_type {
    const char *ext, *type;
} content_type;

static const content_type types[] = {
    { "html", "text/html; charset=utf-8" },
    { "js", "text/javascript; charset=utf-8" },
    { "mjs", "text/javascript; charset=utf-8" },
    { "css", "text/css; charset=utf-8" },
    { "json", "application/json" },
    { "map", "application/json" },
    { "webmanifest", "application/manifest+json" },
    { "txt", "text/plain; charset=utf-8" },
    { "svg", "image/svg+xml" },
    { "png", "image/png" },
    { "jpg", "image/jpeg" },
    { "jpeg", "image/jpeg" },
    { "gif", "image/gif" },
    { "webp", "image/webp" },
    { "ico", "image/x-icon" },
    { "woff", "font/woff" },
    { "woff2", "font/woff2" },
    { "ttf", "font/ttf" },
    { "ogg", "audio/ogg" },
    { "oga", "audio/ogg" },
    { "mp3", "audio/mpeg" },
    { "wav", "audio/wav" },
    { "webm", "audio/webm" },
};

static const char *type_of(const char *name) {
    const char *dot = strrchr(name, '.');
    if (dot)
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (!strcasecmp(dot + 1, types[i].ext)) return types[i].type;
    return "application/octet-stream";
}

/* "a/b.js": segments of [A-Za-z0-9._-], none empty or starting with '.'. */
static bool name_is_safe(const char *rel) {
    size_t n = strlen(rel);
    if (n == 0 || n > NAME_MAX_LEN) return false;
    bool segment_start = true;
    for (const char *p = rel; *p; p++) {
        char c = *p;
        if (c == '/') {
            if (segment_start) return false;
            segment_start = true;
            continue;
        }
        if (segment_start && c == '.') return false;
        segment_start = false;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '_' || c == '-';
        if (!ok) return false;
    }
    return !segment_start;
}

/* Opens dir/rel if it is a regular file whose real path is inside dir. */
static int open_inside(const char *dir, const char *rel, struct stat *st) {
    if (!dir[0] || !name_is_safe(rel)) return -1;
    char joined[PATH_MAX], real[PATH_MAX];
    if (snprintf(joined, sizeof joined, "%s/%s", dir, rel) >= (int)sizeof joined) return -1;
    if (!realpath(joined, real)) return -1;
    size_t dl = strlen(dir);
    if (strncmp(real, dir, dl) != 0 || real[dl] != '/') return -1;
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return -1;
    }
    return fd;
}

static void http_date(time_t t, char *out, size_t outlen) {
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, outlen, "%a, %d %b %Y %H:%M:%S GMT", &tm);
}

static time_t parse_http_date(const char *s) {
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *end = strptime(s, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    return end ? timegm(&tm) : (time_t)-1;
}

/* If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2). */
static bool not_modified(const http_request *rq, const char *etag, time_t mtime) {
    const char *inm = http_header(rq, "If-None-Match");
    if (inm) return strstr(inm, etag) != NULL || !strcmp(inm, "*");
    const char *ims = http_header(rq, "If-Modified-Since");
    if (!ims) return false;
    time_t since = parse_http_date(ims);
    return since != (time_t)-1 && mtime <= since;
}

static bool read_all(int fd, char *buf, size_t len) {
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);
        if (n <= 0) return false;
        got += (size_t)n;
    }
    return true;
}

static void send_body(http_request *rq, int fd, const struct stat *st, const char *type, const char *cache,
                      const char *extra) {
    size_t len = (size_t)st->st_size;
    if (len <= INLINE_MAX) {
        char *buf = malloc(len ? len : 1);
        if (buf && read_all(fd, buf, len)) http_send(rq, 200, type, cache, extra, buf, len);
        else http_send_error(rq, 503, "unavailable", "The file could not be read.");
        free(buf);
        return;
    }
    http_send_head(rq, 200, type, cache, extra, len);
    if (rq->head) return;
    char *buf = malloc(CHUNK);
    size_t left = len;
    while (buf && left > 0) {
        ssize_t n = read(fd, buf, left < CHUNK ? left : CHUNK);
        if (n <= 0 || !http_write(rq, buf, (size_t)n)) break;
        left -= (size_t)n;
    }
    if (left > 0) http_close_after(rq); /* the body fell short */
    free(buf);
}

/* Whether the client asked for a page (a browser's navigation says
 * text/html in Accept), not a script, image or program. */
static bool wants_html(const http_request *rq) {
    const char *accept = http_header(rq, "Accept");
    return accept && strstr(accept, "text/html") && (!strcmp(rq->method, "GET") || rq->head);
}

/* 404: the translated page web/not-found.html to a browser's navigation
 * (a heading and the way home), a plain line to anything else. The page is
 * the same file whatever was asked, so it tells nothing of what exists. */
static void send_not_found(http_request *rq) {
    static const char plain[] = "404 not found\n";
    struct stat st;
    int fd = wants_html(rq) ? open_inside(rq->srv->web_dir, "not-found.html", &st) : -1;
    size_t len = fd >= 0 ? (size_t)st.st_size : 0;
    char *page = fd >= 0 && len <= INLINE_MAX ? malloc(len ? len : 1) : NULL;
    if (page && read_all(fd, page, len))
        http_send(rq, 404, "text/html; charset=utf-8", "no-cache", "", page, len);
    else http_send(rq, 404, "text/plain; charset=utf-8", NULL, "", plain, sizeof plain - 1);
    free(page);
    if (fd >= 0) close(fd);
}

/* Sends the open regular file fd as type, or 304 when the client's copy
 * is current (ETag from size and modification time). The caller closes fd. */
static void send_open_file(http_request *rq, int fd, const struct stat *st, const char *type, const char *cache) {
    char etag[64], modified[64], extra[192];
    snprintf(etag, sizeof etag, "\"%llx-%llx\"", (unsigned long long)st->st_size,
             (unsigned long long)st->st_mtim.tv_sec * 1000000000ull + (unsigned long long)st->st_mtim.tv_nsec);
    http_date(st->st_mtim.tv_sec, modified, sizeof modified);
    snprintf(extra, sizeof extra, "ETag: %s\r\nLast-Modified: %s\r\n", etag, modified);
    if (not_modified(rq, etag, st->st_mtim.tv_sec)) http_send(rq, 304, NULL, cache, extra, "", 0);
    else send_body(rq, fd, st, type, cache, extra);
}

static void send_file(http_request *rq, const char *dir, const char *rel, const char *cache) {
    struct stat st;
    int fd = open_inside(dir, rel, &st);
    if (fd < 0) {
        send_not_found(rq);
        return;
    }
    send_open_file(rq, fd, &st, type_of(rel), cache);
    close(fd);
}

/* The browser's QR code library, from its Debian package: the one file the
 * configuration names (--qrcode-js), never a name taken from the request.
 * Missing, it answers 503 naming the package, so the page can say it has
 * no QR code and the operator what to install. */
static void send_qrcode_js(http_request *rq) {
    struct stat st;
    int fd = open(rq->srv->cfg.qrcode_js, O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        http_send_error(rq, 503, "missing_package",
                        "The QR code script is not installed on this server (Debian package node-qrcode-generator).");
        return;
    }
    send_open_file(rq, fd, &st, "text/javascript; charset=utf-8", "no-cache");
    close(fd);
}

static bool game_id_like(const char *s) {
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9'))) return false;
    return n >= 1 && n <= 20;
}

void static_handle(http_request *rq) {
    const server_ctx *srv = rq->srv;
    const char *p = rq->path;
    /* /admin exists only when the operator has a token (admin.h). */
    bool admin_page = !strcmp(p, "/admin") && admin_enabled(srv->adm);
    bool page = !strcmp(p, "/") || !strcmp(p, "/rules") || !strcmp(p, "/lesson") || !strcmp(p, "/lobby") ||
                !strcmp(p, "/my-games") || admin_page || (!strncmp(p, "/g/", 3) && game_id_like(p + 3));
    bool file = !strncmp(p, "/web/", 5) || !strncmp(p, "/static/", 8) || !strcmp(p, "/favicon.ico") ||
                !strcmp(p, "/sw.js") || !strcmp(p, "/vendor/qrcode.js");
    rq->route = page ? ROUTE_PAGE : file ? ROUTE_STATIC : ROUTE_OTHER;
    if (!page && !file) {
        send_not_found(rq);
        return;
    }
    if (strcmp(rq->method, "GET") && !rq->head) {
        http_send_method_not_allowed(rq, "GET, HEAD");
        return;
    }
    if (!strcmp(p, "/")) send_file(rq, srv->web_dir, "index.html", "no-cache");
    else if (!strcmp(p, "/rules")) send_file(rq, srv->web_dir, "rules.html", "no-cache");
    else if (!strcmp(p, "/lesson")) send_file(rq, srv->web_dir, "lesson.html", "no-cache");
    else if (!strcmp(p, "/lobby")) send_file(rq, srv->web_dir, "lobby.html", "no-cache");
    else if (!strcmp(p, "/my-games")) send_file(rq, srv->web_dir, "my-games.html", "no-cache");
    else if (admin_page) send_file(rq, srv->web_dir, "admin.html", "no-cache");
    else if (page) send_file(rq, srv->web_dir, "game.html", "no-cache");
    else if (!strncmp(p, "/web/", 5)) send_file(rq, srv->web_dir, p + 5, "no-cache");
    else if (!strcmp(p, "/sw.js")) /* the service worker: at the root, so its scope is the whole site */
        send_file(rq, srv->web_dir, "js/sw.js", "no-cache");
    else if (!strcmp(p, "/vendor/qrcode.js")) send_qrcode_js(rq);
    else if (!strcmp(p, "/favicon.ico"))
        send_file(rq, srv->static_dir, "favicon.ico", "public, max-age=86400");
    else send_file(rq, srv->static_dir, p + 8, "public, max-age=86400");
}
