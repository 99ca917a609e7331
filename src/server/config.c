/* config: flags and environment variables of `phantomgo serve`. One table
 * describes every option (flag, variable, kind, default, help line), so the
 * parser, the environment lookup and --help cannot disagree. */
#include "server/config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef enum { OPT_TEXT, OPT_INT, OPT_BOOL } opt_kind;

typedef struct option_spec {
    const char *flag; /* without the leading "--" */
    const char *env;
    opt_kind kind;
    size_t offset;   /* into server_config */
    size_t size;     /* OPT_TEXT: buffer size */
    int min, max;    /* OPT_INT: accepted range */
    const char *arg; /* metavariable shown by --help */
    const char *help;
} option_spec;

#define TEXT(f, e, field, a, h) \
    { f, e, OPT_TEXT, offsetof(server_config, field), sizeof(((server_config *)0)->field), 0, 0, a, h }
#define INT(f, e, field, lo, hi, a, h) \
    { f, e, OPT_INT, offsetof(server_config, field), 0, lo, hi, a, h }
#define BOOL(f, e, field, h) \
    { f, e, OPT_BOOL, offsetof(server_config, field), 0, 0, 1, "", h }

static const option_spec options[] = {
    TEXT("listen", "PHANTOMGO_LISTEN", listen, "ADDR",
         "address to listen on (IPv4; default 127.0.0.1, 0.0.0.0 for all interfaces)"),
    INT("port", "PHANTOMGO_PORT", port, 0, 65535, "N", "TCP port (default 8080; 0 picks a free port)"),
    TEXT("db", "PHANTOMGO_DB", db, "PATH",
         "SQLite file (default ./data/phantomgo.db; directory created) or PostgreSQL connection string"),
    INT("threads", "PHANTOMGO_THREADS", threads, 1, 1024, "N",
        "worker threads for HTTP requests (default 32)"),
    INT("max-websockets", "PHANTOMGO_MAX_WEBSOCKETS", max_websockets, 0, 20000, "N",
        "open WebSockets at once; more are closed with 1013 (default 1000)"),
    INT("websockets-per-address", "PHANTOMGO_WEBSOCKETS_PER_ADDRESS", websockets_per_address, 1, 20000, "N",
        "open WebSockets of one client address; more are refused with 429 (default 32)"),
    TEXT("base-url", "PHANTOMGO_BASE_URL", base_url, "URL",
         "public base URL of invite and watch links (default: from the Host header)"),
    TEXT("root", "PHANTOMGO_ROOT", root, "DIR",
         "directory holding web/, static/ and schema.sql (default: .)"),
    INT("rate-limit", "PHANTOMGO_RATE_LIMIT", rate_limit, 0, 1000000, "N",
        "API requests per second per client address, bursts of 5N (default 30; 0 = off)"),
    INT("create-limit", "PHANTOMGO_CREATE_LIMIT", create_limit, 0, 1000000, "N",
        "games created per minute per client address (default 30; 0 = off)"),
    INT("chat-limit", "PHANTOMGO_CHAT_LIMIT", chat_limit, 0, 10000, "N",
        "chat messages per minute per seat and per spectator address, bursts\n"
        "                          of 2N; an address 4N, bursts of 8N (default 5; 0 = off)"),
    BOOL("trust-proxy", "PHANTOMGO_TRUST_PROXY", trust_proxy,
         "behind a reverse proxy on this host: the client address is the last\n"
         "                          X-Forwarded-For entry of requests from loopback"),
    INT("abandon-after", "PHANTOMGO_ABANDON_AFTER", abandon_after, 10, 30 * 86400, "SECONDS",
        "an untimed game may be claimed by the waiting player when the player\n"
        "                          to move has been silent this long (default 600)"),
    TEXT("metrics-listen", "PHANTOMGO_METRICS_LISTEN", metrics_listen, "ADDR:PORT",
         "serve /metrics on this address of its own (e.g. 127.0.0.1:9100,\n"
         "                          [::1]:9100; port 0 picks one); the public port's /metrics\n"
         "                          then answers 404 (default: /metrics on the public port)"),
    TEXT("admin-token-file", "PHANTOMGO_ADMIN_TOKEN_FILE", admin_token_file, "PATH",
         "file holding the operator's token (32+ characters) for the admin API\n"
         "                          and the /admin page; without it they answer 404"),
    INT("chat-retention-days", "PHANTOMGO_CHAT_RETENTION_DAYS", chat_retention_days, 0, 36500, "N",
        "names and chat of games that ended more than N days ago are erased\n"
        "                          (the moves stay); 0 keeps them (default 90)"),
    BOOL("test-clock", "PHANTOMGO_TEST_CLOCK", test_clock,
         "FOR TESTS ONLY: POST /api/v1/test/clock moves the server's clock\n"
         "                          forward; refused unless --listen is a loopback address"),
    BOOL("push", "PHANTOMGO_PUSH", push, "Web Push notifications for players who closed the page (default on)"),
    TEXT("push-contact", "PHANTOMGO_PUSH_CONTACT", push_contact, "URL",
         "the contact push services see (mailto: or https:; default the base URL)"),
    TEXT("push-ca", "PHANTOMGO_PUSH_CA", push_ca, "FILE",
         "PEM file of CAs to trust for push services besides the system's"),
    BOOL("push-allow-private", "PHANTOMGO_PUSH_ALLOW_PRIVATE", push_allow_private,
         "allow push endpoints on loopback and private addresses (tests, closed\n"
         "                          networks); refused by default"),
    TEXT("qrcode-js", "PHANTOMGO_QRCODE_JS", qrcode_js, "FILE",
         "the QR code script served as /vendor/qrcode.js (default Debian's\n"
         "                          node-qrcode-generator, " QRCODE_JS_DEFAULT ")"),
};
enum { N_OPTIONS = sizeof options / sizeof options[0] };

static void set_defaults(server_config *cfg) {
    memset(cfg, 0, sizeof *cfg);
    strcpy(cfg->listen, "127.0.0.1");
    cfg->port = 8080;
    strcpy(cfg->db, "./data/phantomgo.db");
    cfg->threads = 32;
    cfg->max_websockets = 1000;
    cfg->websockets_per_address = 32;
    strcpy(cfg->root, ".");
    cfg->rate_limit = 30;
    cfg->create_limit = 30;
    cfg->chat_limit = 5;
    cfg->abandon_after = 600;
    cfg->chat_retention_days = 90;
    cfg->push = true;
    strcpy(cfg->qrcode_js, QRCODE_JS_DEFAULT);
}

static bool parse_bool(const char *s, bool *out) {
    if (!strcmp(s, "1") || !strcmp(s, "true") || !strcmp(s, "yes")) {
        *out = true;
        return true;
    }
    if (!strcmp(s, "0") || !strcmp(s, "false") || !strcmp(s, "no") || !*s) {
        *out = false;
        return true;
    }
    return false;
}

/* Stores value into the option's field; the source (flag or variable) only
 * shapes the error message. */
static bool set_option(server_config *cfg, const option_spec *o, const char *value, const char *source,
                       char *err, size_t errlen) {
    char *field = (char *)cfg + o->offset;
    if (o->kind == OPT_TEXT) {
        if (strlen(value) >= o->size) {
            snprintf(err, errlen, "%s: value too long", source);
            return false;
        }
        strcpy(field, value);
        return true;
    }
    if (o->kind == OPT_BOOL) {
        if (!parse_bool(value, (bool *)field)) {
            snprintf(err, errlen, "%s: expected 1/0, true/false or yes/no", source);
            return false;
        }
        return true;
    }
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno || end == value || *end || v < o->min || v > o->max) {
        snprintf(err, errlen, "%s: expected a whole number from %d to %d", source, o->min, o->max);
        return false;
    }
    *(int *)field = (int)v;
    return true;
}

static const option_spec *find_flag(const char *name, size_t len) {
    for (int i = 0; i < N_OPTIONS; i++)
        if (strlen(options[i].flag) == len && !strncmp(options[i].flag, name, len)) return &options[i];
    return NULL;
}

static bool load_env(server_config *cfg, char *err, size_t errlen) {
    for (int i = 0; i < N_OPTIONS; i++) {
        const char *v = getenv(options[i].env);
        if (v && !set_option(cfg, &options[i], v, options[i].env, err, errlen)) return false;
    }
    return true;
}

/* --flag VALUE, --flag=VALUE, and bare --flag for booleans. */
static config_status load_args(server_config *cfg, int argc, char **argv, char *err, size_t errlen) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return CONFIG_HELP;
        if (strncmp(a, "--", 2) != 0) {
            snprintf(err, errlen, "unexpected argument '%s'", a);
            return CONFIG_ERROR;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const option_spec *o = find_flag(name, len);
        if (!o) {
            snprintf(err, errlen, "unknown option '%.*s' (see --help)", (int)(len + 2), a);
            return CONFIG_ERROR;
        }
        const char *value = eq ? eq + 1 : NULL;
        if (!value && o->kind == OPT_BOOL) value = "1";
        if (!value) {
            if (i + 1 >= argc) {
                snprintf(err, errlen, "--%s needs a value", o->flag);
                return CONFIG_ERROR;
            }
            value = argv[++i];
        }
        char source[64];
        snprintf(source, sizeof source, "--%s", o->flag);
        if (!set_option(cfg, o, value, source, err, errlen)) return CONFIG_ERROR;
    }
    return CONFIG_OK;
}

static bool check_base_url(const server_config *cfg, char *err, size_t errlen) {
    const char *u = cfg->base_url;
    if (!*u) return true;
    if (strncmp(u, "http://", 7) && strncmp(u, "https://", 8)) {
        snprintf(err, errlen, "base URL must start with http:// or https://");
        return false;
    }
    for (const char *p = u; *p; p++)
        if (*p <= ' ' || *p == '"' || *p == '<' || *p == '>' || *p == '#' || *p == '?' || *p == 127) {
            snprintf(err, errlen, "base URL holds a character links cannot carry");
            return false;
        }
    return true;
}

/* ADDR:PORT with ADDR an IPv4 address or a bracketed IPv6 one, a port
 * from 0 to 65535 that is not the public port (0 is any free port): the
 * form civetweb's listening_ports takes as it is. */
static bool check_metrics_listen(const server_config *cfg, char *err, size_t errlen) {
    const char *m = cfg->metrics_listen;
    if (!*m) return true;
    const char *colon = strrchr(m, ':');
    bool v6 = m[0] == '[';
    bool shaped = colon && colon > m && (!v6 || (colon[-1] == ']' && colon - m > 2)) &&
                  (v6 || !memchr(m, ':', (size_t)(colon - m)));
    for (const char *p = m; shaped && p < colon; p++)
        if (!(v6 ? (*p == '[' || *p == ']' || *p == ':' || *p == '.' || isxdigit((unsigned char)*p))
                 : (*p == '.' || isdigit((unsigned char)*p))))
            shaped = false;
    char *end;
    errno = 0;
    long port = shaped ? strtol(colon + 1, &end, 10) : -1;
    if (!shaped || errno || end == colon + 1 || *end || port < 0 || port > 65535) {
        snprintf(err, errlen, "--metrics-listen: expected ADDR:PORT (127.0.0.1:9100 or [::1]:9100)");
        return false;
    }
    if (port != 0 && port == cfg->port) {
        snprintf(err, errlen, "--metrics-listen: the port must differ from --port");
        return false;
    }
    return true;
}

static bool loopback_address(const char *a) {
    return !strncmp(a, "127.", 4) || !strcmp(a, "::1") || !strcmp(a, "localhost");
}

config_status config_load(server_config *cfg, int argc, char **argv, char *err, size_t errlen) {
    set_defaults(cfg);
    if (!load_env(cfg, err, errlen)) return CONFIG_ERROR;
    config_status st = load_args(cfg, argc, argv, err, errlen);
    if (st != CONFIG_OK) return st;
    if (!check_base_url(cfg, err, errlen) || !check_metrics_listen(cfg, err, errlen)) return CONFIG_ERROR;
    size_t n = strlen(cfg->base_url);
    while (n > 0 && cfg->base_url[n - 1] == '/') cfg->base_url[--n] = '\0';
    if (!cfg->db[0] || !cfg->root[0] || !cfg->listen[0]) {
        snprintf(err, errlen, "--db, --root and --listen may not be empty");
        return CONFIG_ERROR;
    }
    const char *pc = cfg->push_contact;
    if (*pc && strncmp(pc, "mailto:", 7) && strncmp(pc, "https://", 8)) {
        snprintf(err, errlen, "--push-contact must be a mailto: or https:// URL");
        return CONFIG_ERROR;
    }
    if (cfg->test_clock && !loopback_address(cfg->listen)) {
        snprintf(err, errlen, "--test-clock is for tests only and needs --listen on a loopback address");
        return CONFIG_ERROR;
    }
    return CONFIG_OK;
}

void config_usage(FILE *out) {
    fprintf(out, "usage: phantomgo serve [options]\n\n"
                 "Serves the Phantom Go web application and its HTTP API (docs/API.md).\n"
                 "Every option has an environment variable; a flag wins over it.\n\n");
    for (int i = 0; i < N_OPTIONS; i++) {
        char left[48];
        snprintf(left, sizeof left, "--%s %s", options[i].flag, options[i].arg);
        if (strlen(left) >= 24) fprintf(out, "  %s\n  %-24s", left, ""); /* long flag: own line */
        else fprintf(out, "  %-24s", left);
        fprintf(out, "%s\n  %-24s[%s]\n", options[i].help, "", options[i].env);
    }
    fprintf(out, "\nOn start it prints \"listening on http://ADDR:PORT\". SIGTERM or SIGINT\n"
                 "stops it cleanly: /api/live answers 503 {\"status\":\"draining\"} while a\n"
                 "balancer moves away, WebSockets are closed with 1012, requests in flight\n"
                 "are answered and pending writes committed; it exits 0 within 10 s.\n");
}
