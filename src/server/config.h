/* config: the settings of `phantomgo serve`, read from flags and their
 * environment variables (a flag wins over its variable, which wins over
 * the default), so the same binary runs from a shell, `make run` and the
 * Docker image. The contract (names, defaults) is shared with the Docker
 * image and documented by `phantomgo serve --help`. */
#ifndef PG_SERVER_CONFIG_H
#define PG_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CONFIG_TEXT_MAX 1024
/* Where Debian 12 and 13 put Kazuhiko Arase's qrcode-generator (package
 * node-qrcode-generator), which draws the device link's QR code in the
 * browser: the link's fragment never reaches the server to be drawn here. */
#define QRCODE_JS_DEFAULT "/usr/share/javascript/qrcode-generator/qrcode.js"

typedef struct server_config {
    char listen[64];            /* address to bind, e.g. 127.0.0.1, 0.0.0.0, :: */
    int port;                   /* 0: any free port */
    char db[CONFIG_TEXT_MAX];   /* SQLite file */
    int threads;                /* worker threads for plain HTTP requests */
    int max_websockets;         /* open WebSockets at once; each holds a thread */
    int websockets_per_address; /* open WebSockets of one client address */
    char base_url[256];         /* public base of links; "" = from the Host header */
    char root[CONFIG_TEXT_MAX]; /* holds web/, static/ and schema.sql */
    int rate_limit;             /* API requests per second per address; 0 = off */
    int create_limit;           /* games created per minute per address; 0 = off */
    int chat_limit;             /* chat messages per minute per seat; 0 = off */
    bool trust_proxy;           /* take the client address from X-Forwarded-For */
    int abandon_after;          /* seconds before an untimed game may be claimed */
    bool test_clock;            /* TESTS ONLY: POST /api/v1/test/clock moves time */
    char metrics_listen[80];    /* "ADDR:PORT" of the private /metrics listener; "" = public port */
    char admin_token_file[CONFIG_TEXT_MAX]; /* the operator's token; "" = no admin routes */
    int chat_retention_days;    /* names and chat of games ended longer ago are erased; 0 = kept */
    bool push;                  /* Web Push notifications on */
    char push_contact[256];     /* VAPID subject (mailto: or https:); "" = the base URL */
    char push_ca[CONFIG_TEXT_MAX]; /* PEM file of extra CAs for push services; "" = none */
    bool push_allow_private;    /* endpoints on private/loopback addresses allowed */
    char qrcode_js[CONFIG_TEXT_MAX]; /* the browser's QR code library, served at /vendor/qrcode.js */
} server_config;

typedef enum { CONFIG_OK = 0, CONFIG_HELP, CONFIG_ERROR } config_status;

/* Fills cfg from defaults, the environment and argv (argv[0] is "serve").
 * CONFIG_HELP: --help was asked (print config_usage, exit 0). CONFIG_ERROR:
 * err holds a one-line message naming the bad flag or variable. */
config_status config_load(server_config *cfg, int argc, char **argv, char *err, size_t errlen);

void config_usage(FILE *out);

#endif
