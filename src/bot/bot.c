/* bot: configurations, levels and the one entry point that dispatches to
 * the players (see bot.h). */
#include "bot/bot.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "bot/players.h"
#include "bot/search.h"
#include "util/now.h"

/* The ladder's budget: the "flat MC, 10,000 playouts a move". */
#define LADDER_PLAYOUTS 10000

static const struct {
    const char *name;
    bot_kind kind;
} kinds[] = {
    { "random", BOT_RANDOM }, { "heuristic", BOT_HEURISTIC }, { "flat", BOT_FLAT },
    { "strong", BOT_STRONG }, { "reference", BOT_REFERENCE },
};

/* "NAME", "NAME:PLAYOUTS" or "NAME:MSms". */
bool bot_config_parse(const char *spec, bot_config *out) {
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strlen(kinds[i].name) != len || strncmp(spec, kinds[i].name, len) != 0) continue;
        bot_config c = { kinds[i].kind, LADDER_PLAYOUTS, 0, NULL };
        if (colon) {
            char *end;
            long v = strtol(colon + 1, &end, 10);
            if (end == colon + 1 || v <= 0 || v > 100000000) return false;
            if (!strcmp(end, "ms")) c = (bot_config){ c.kind, 0, (int)v, NULL };
            else if (*end == '\0') c.playouts = (int)v;
            else return false;
        }
        *out = c;
        return true;
    }
    return false;
}

/* Easy and medium are budgets in simulations, capped by strong's second:
 * on 19x19, or on a busy machine, their simulations cost more, and no level
 * should keep a player waiting longer than the strongest. */
bool bot_level(const char *level, bot_config *out) {
    if (!strcmp(level, "easy")) *out = (bot_config){ BOT_FLAT, 300, 1000, NULL };
    else if (!strcmp(level, "medium")) *out = (bot_config){ BOT_STRONG, 3000, 1000, NULL };
    else if (!strcmp(level, "strong")) *out = (bot_config){ BOT_STRONG, 0, 1000, NULL };
    else return false;
    return true;
}

void bot_carry_init(bot_carry *c) { memset(c, 0, sizeof *c); }

const float *bot_carry_expected_map(const bot_carry *c, const bot_memory *m) {
    if (!c || !c->valid || c->seq >= m->view.seq) return NULL;
    if (c->turn == m->view.turn) return c->expected_map_at_start;
    if (c->turn + 2 == m->view.turn) return c->expected_map;
    return NULL;
}

point bot_choose(const bot_config *cfg, const bot_memory *m, uint64_t seed, bot_carry *carry,
                 bot_stats *stats_out) {
    assert(m->view.to_move == m->me);
    double start = now_monotonic_s();
    rng r;
    rng_seed(&r, seed);
    bot_stats stats = { 0, 0, NO_POINT, NO_POINT };
    point choice;
    if (m->view.over || m->view.to_move != m->me) choice = PASS_POINT;
    else if (cfg->kind == BOT_RANDOM) choice = random_choose(m, &r);
    else if (cfg->kind == BOT_HEURISTIC) choice = heuristic_choose(m, &r);
    else if (cfg->kind == BOT_FLAT) choice = flat_choose(cfg, m, &r, start, &stats.playouts);
    else if (cfg->kind == BOT_REFERENCE) choice = reference_choose(cfg, m, &r, start, &stats.playouts);
    else choice = ismcts_choose(cfg, m, &r, start, carry, &stats);
    stats.seconds = now_monotonic_s() - start;
    if (stats_out) *stats_out = stats;
    return choice;
}
