/* computer_player: plugs the computer player (src/bot) into the games
 * module's hook, so a `computer` game's seat is played by the bot. Its
 * time per decision is also capped by what its clock allows (think_ms).
 *
 * The computer's workers (server/computer.c) call computer_choose off the HTTP threads with the
 * computer seat's observations only (the visibility filter's output); this
 * file folds them into a fresh bot_memory each time, so a restarted server
 * resumes a game from its stored log with nothing else to restore. The
 * level picks the configuration (bot_level: easy, medium, strong ~1 s a
 * move). PHANTOMGO_BOT_PLAYOUTS=N, for tests only, replaces every level's
 * budget by N simulations a decision so whole games take seconds.
 *
 * When games wait for the computer, a turn gets a share of that budget
 * (computer.h; the bot reads it as it searches): its time cap and, for a
 * level counted in simulations, its simulations too, so every level
 * yields to the queue.
 * Two more knobs, read once at start, for benchmarks and tests only:
 * PHANTOMGO_COMPUTER_SHARE=off gives every turn its whole budget (the
 * reference the benchmark compares with), PHANTOMGO_COMPUTER_THREADS=N
 * sets the number of workers (one per core otherwise). */
#include "games/computer_player.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bot/bot.h"
#include "games/secrets.h"

/* The bot's carries (bot_carry), one per computer seat of the games
 * thought about lately, so that a retry after a refusal, and the next
 * turn after a played attempt, start from the seat's last search. A
 * seat's slot is chosen by its game id; two seats sharing a slot
 * overwrite each other, which costs only strength (a carry another seat
 * wrote never applies, bot_carry). Held in memory only: a restarted
 * server, or another server of a cluster, carries nothing, and the
 * decision searches from scratch as before. */
#define CARRY_SLOTS 64

typedef struct carry_slot {
    char game_id[GAME_ID_LEN + 1];
    int color;
    bot_carry carry;
} carry_slot;

typedef struct computer_ctx {
    int test_playouts;
    pthread_mutex_t carry_lock;
    carry_slot carries[CARRY_SLOTS];
} computer_ctx;

/* What one decision allocates around the bot's own allocation. */
typedef struct decision_input {
    bot_memory memory;
    bot_carry carry;
} decision_input;

/* The seat's slot; NULL when the id is longer than a slot keeps. */
static carry_slot *slot_of_seat(computer_ctx *cc, const char *game_id, int color) {
    if (strlen(game_id) > GAME_ID_LEN) return NULL;
    uint32_t h = 2166136261u;
    for (const char *c = game_id; *c; c++) h = (h ^ (uint8_t)*c) * 16777619u;
    h = (h ^ (uint32_t)color) * 16777619u;
    return &cc->carries[h % CARRY_SLOTS];
}

/* Copies the seat's carry into out (an empty one if its slot holds another
 * seat's, or the id is longer than the slot keeps). */
static void carry_fetch(computer_ctx *cc, const char *game_id, int color, bot_carry *out) {
    bot_carry_init(out);
    carry_slot *slot = slot_of_seat(cc, game_id, color);
    if (!slot) return;
    pthread_mutex_lock(&cc->carry_lock);
    if (slot->color == color && !strcmp(slot->game_id, game_id)) *out = slot->carry;
    pthread_mutex_unlock(&cc->carry_lock);
}

/* Keeps a carry the bot wrote; an empty one (the easy level's: flat
 * Monte-Carlo carries nothing) would only take the slot from a seat
 * that carries. */
static void carry_store(computer_ctx *cc, const char *game_id, int color, const bot_carry *carry) {
    carry_slot *slot = slot_of_seat(cc, game_id, color);
    if (!slot || !carry->valid) return;
    pthread_mutex_lock(&cc->carry_lock);
    snprintf(slot->game_id, sizeof slot->game_id, "%s", game_id);
    slot->color = color;
    slot->carry = *carry;
    pthread_mutex_unlock(&cc->carry_lock);
}

static bool computer_choose(void *ctx, const bot_request *rq, action *out) {
    computer_ctx *cc = ctx;
    bot_config cfg;
    if (!bot_level(rq->level, &cfg)) return false;
    if (cc->test_playouts > 0) cfg = (bot_config){ cfg.kind, cc->test_playouts, 0, NULL };
    cfg.share = rq->share;
    if (rq->think_ms > 0 && (cfg.time_ms == 0 || cfg.time_ms > rq->think_ms)) cfg.time_ms = (int)rq->think_ms;
    decision_input *in = malloc(sizeof *in);
    if (!in) return false;
    bot_memory *m = &in->memory;
    bot_memory_init(m, &rq->vw->settings, rq->color);
    for (int i = 0; i < rq->n_obs; i++) bot_memory_apply(m, &rq->obs[i]);
    carry_fetch(cc, rq->game_id, rq->color, &in->carry);
    point p = bot_choose(&cfg, m, rq->seed, &in->carry, NULL);
    carry_store(cc, rq->game_id, rq->color, &in->carry);
    free(in);
    if (p != PASS_POINT && (rq->vw->stone[p] == rq->color || (rq->vw->mark[p] & VIEW_TRIED))) {
        /* Never expected: the seat's own view forbids the point. Logged so
         * tests notice; the games module then asks again. */
        fprintf(stderr, "phantomgo: game %s: the computer chose a point it may not play\n", rq->game_id);
    }
    out->kind = p == PASS_POINT ? ACT_PASS : ACT_ATTEMPT;
    out->color = rq->color;
    out->point = p;
    return true;
}

games_bot computer_player_hook(void) {
    static computer_ctx ctx = { .carry_lock = PTHREAD_MUTEX_INITIALIZER };
    const char *budget = getenv("PHANTOMGO_BOT_PLAYOUTS");
    ctx.test_playouts = budget ? atoi(budget) : 0;
    const char *threads = getenv("PHANTOMGO_COMPUTER_THREADS");
    long workers = threads ? atol(threads) : sysconf(_SC_NPROCESSORS_ONLN);
    const char *share = getenv("PHANTOMGO_COMPUTER_SHARE");
    return (games_bot){ computer_choose, &ctx, workers > 0 ? (int)workers : 1,
                        !share || strcmp(share, "off") };
}

computer *computer_player_start(registry *gm) {
    games_bot hook = computer_player_hook();
    return computer_start(gm, &hook);
}
