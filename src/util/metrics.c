/* metrics: atomic counters and a fixed-bucket latency histogram per route,
 * rendered as Prometheus text. See metrics.h. */
#include "util/metrics.h"

#include <stdatomic.h>

static const double bucket_le[] = { 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5 };
enum { N_BUCKETS = sizeof bucket_le / sizeof bucket_le[0] };
static const char *const route_name[ROUTE_COUNT] = { "page", "static", "api_read", "api_write", "other" };
static const char *const move_name[MOVE_KIND_COUNT] = { "move", "illegal", "pass", "resign", "other" };
static const char *const status_class[] = { "1xx", "2xx", "3xx", "4xx", "5xx" };

static struct {
    atomic_ulong bucket[ROUTE_COUNT][N_BUCKETS + 1]; /* last: +Inf */
    atomic_ulong sum_us[ROUTE_COUNT];
    atomic_ulong status[ROUTE_COUNT][5];
    atomic_ulong moves[MOVE_KIND_COUNT];
    atomic_ulong games_created;
    atomic_ulong ws_refused;
} m;

void metrics_request(metrics_route route, int status, double seconds) {
    if ((unsigned)route >= ROUTE_COUNT) route = ROUTE_OTHER;
    int b = 0;
    while (b < N_BUCKETS && seconds > bucket_le[b]) b++;
    atomic_fetch_add_explicit(&m.bucket[route][b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m.sum_us[route], (unsigned long)(seconds * 1e6), memory_order_relaxed);
    int cls = status / 100 - 1;
    if (cls >= 0 && cls < 5) atomic_fetch_add_explicit(&m.status[route][cls], 1, memory_order_relaxed);
}

void metrics_move_played(metrics_move kind) {
    if ((unsigned)kind < MOVE_KIND_COUNT) atomic_fetch_add_explicit(&m.moves[kind], 1, memory_order_relaxed);
}

void metrics_game_created(void) { atomic_fetch_add_explicit(&m.games_created, 1, memory_order_relaxed); }
void metrics_ws_refused(void) { atomic_fetch_add_explicit(&m.ws_refused, 1, memory_order_relaxed); }

static unsigned long load(atomic_ulong *a) { return atomic_load_explicit(a, memory_order_relaxed); }

static void render_histogram(strbuf *out) {
    strbuf_puts(out, "# HELP phantomgo_http_request_duration_seconds Time to answer an HTTP request.\n"
                     "# TYPE phantomgo_http_request_duration_seconds histogram\n");
    for (int r = 0; r < ROUTE_COUNT; r++) {
        unsigned long cumulative = 0;
        for (int b = 0; b <= N_BUCKETS; b++) {
            cumulative += load(&m.bucket[r][b]);
            if (b < N_BUCKETS)
                strbuf_printf(out,
                              "phantomgo_http_request_duration_seconds_bucket{route=\"%s\",le=\"%g\"} %lu\n",
                              route_name[r], bucket_le[b], cumulative);
            else
                strbuf_printf(
                    out, "phantomgo_http_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %lu\n",
                    route_name[r], cumulative);
        }
        strbuf_printf(out, "phantomgo_http_request_duration_seconds_sum{route=\"%s\"} %.6f\n", route_name[r],
                      (double)load(&m.sum_us[r]) / 1e6);
        strbuf_printf(out, "phantomgo_http_request_duration_seconds_count{route=\"%s\"} %lu\n", route_name[r],
                      cumulative);
    }
}

void metrics_render(strbuf *out, const metrics_gauges *g) {
    strbuf_printf(out,
                  "# HELP phantomgo_games_loaded Games held in memory.\n"
                  "# TYPE phantomgo_games_loaded gauge\nphantomgo_games_loaded %ld\n"
                  "# HELP phantomgo_games_open Games in memory that are still being played.\n"
                  "# TYPE phantomgo_games_open gauge\nphantomgo_games_open %ld\n"
                  "# HELP phantomgo_websocket_connections Open WebSocket connections.\n"
                  "# TYPE phantomgo_websocket_connections gauge\nphantomgo_websocket_connections %ld\n",
                  g->games_loaded, g->games_in_play, g->websockets);
    strbuf_printf(out,
                  "# HELP phantomgo_websocket_refused_total WebSockets closed at the connection limit.\n"
                  "# TYPE phantomgo_websocket_refused_total counter\nphantomgo_websocket_refused_total %lu\n"
                  "# HELP phantomgo_games_created_total Games created.\n"
                  "# TYPE phantomgo_games_created_total counter\nphantomgo_games_created_total %lu\n",
                  load(&m.ws_refused), load(&m.games_created));
    strbuf_puts(out, "# HELP phantomgo_moves_played_total Actions accepted by the referee, by kind.\n"
                     "# TYPE phantomgo_moves_played_total counter\n");
    for (int k = 0; k < MOVE_KIND_COUNT; k++)
        strbuf_printf(out, "phantomgo_moves_played_total{kind=\"%s\"} %lu\n", move_name[k],
                      load(&m.moves[k]));
    strbuf_puts(out, "# HELP phantomgo_http_responses_total HTTP responses by route and status class.\n"
                     "# TYPE phantomgo_http_responses_total counter\n");
    for (int r = 0; r < ROUTE_COUNT; r++)
        for (int c = 0; c < 5; c++)
            strbuf_printf(out, "phantomgo_http_responses_total{route=\"%s\",code=\"%s\"} %lu\n",
                          route_name[r], status_class[c], load(&m.status[r][c]));
    render_histogram(out);
}
