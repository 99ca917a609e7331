/* Unit tests of the computer seat in the server (games/computer_player.c):
 * the hook its workers call keeps one bot_carry per game and seat, so a
 * computer game's next turn starts from the seat's last search as the
 * arena's players do (test_bot.c tests the carry itself). The hook is
 * asked directly, with the seat's observations as the games module builds
 * them (game_computer_turn_of), and plays the real strong player on a
 * budget of 300 simulations (PHANTOMGO_BOT_PLAYOUTS) so its decisions are
 * reproducible. */
#include "harness.h"
#include "test_bot_util.h"

#include <stdlib.h>

#include "games/computer_player.h"

/* Asks the hook for the action of the colour to move in d's game, known to
 * the hook as game_id, from that seat's observations only. */
static action ask_hook(const games_bot *hook, duel *d, const char *game_id, uint64_t seed) {
    static observation obs[16];
    int color = referee_to_move(d->ref), n = referee_event_count(d->ref);
    CHECK(n <= (int)(sizeof obs / sizeof obs[0]));
    for (int seq = 1; seq <= n; seq++) view_observe(d->ref, (viewer)color, seq, &obs[seq - 1]);
    bot_request rq = { game_id, "strong", color, &d->mem[color].view, obs, n, seed, 0, NULL };
    action out = { ACT_PASS, color, PASS_POINT };
    CHECK(hook->choose(hook->ctx, &rq, &out));
    CHECK_EQ_INT(out.color, color);
    return out;
}

/* The computer plays Black:
 *
 *       A B C D E F G H J
 *     8 . w . . . . . . .    Black played E5, White C3. The hook's
 *     7 . . . . . . . . .    decision for game "carry-a" (seed 2) is
 *     6 . . . . . . . . .    the bot's with an empty carry; it is
 *     5 . . . . B . . . .    played, White answers B8. For a game the
 *     4 . . . . . . . . .    hook never thought about ("carry-b"), the
 *     3 . . w . . . . . .    same observations then give the decision
 *     2 . . . . . . . . .    without a carry; for "carry-a", the bot's
 *     1 . . . . . . . . .    with the carry the first decision wrote. */
TEST(computer_player_carries_a_seat_search_to_its_next_turn) {
    setenv("PHANTOMGO_BOT_PLAYOUTS", "300", 1);
    games_bot hook = computer_player_hook();
    unsetenv("PHANTOMGO_BOT_PLAYOUTS");
    bot_config cfg;
    CHECK(bot_config_parse("strong:300", &cfg));
    static bot_carry carry;
    bot_carry_init(&carry);

    game_settings s = settings_default();
    duel *d = duel_new(&s);
    CHECK_EQ_INT(duel_play(d, "E5"), REFUSE_NONE);
    CHECK_EQ_INT(duel_play(d, "C3"), REFUSE_NONE);
    action first = ask_hook(&hook, d, "carry-a", 2);
    CHECK_EQ_INT(first.kind, ACT_ATTEMPT);
    point played;
    CHECK_EQ_INT(duel_bot_step_carrying(d, &cfg, 2, &carry, &played), REFUSE_NONE);
    CHECK_EQ_INT(played, first.point);
    CHECK_EQ_INT(duel_play(d, "B8"), REFUSE_NONE);

    uint64_t seed = 0;
    point with = NO_POINT, without = NO_POINT;
    CHECK(duel_carry_changes_a_decision(&cfg, d, &carry, 12, &seed, &with, &without));
    CHECK_EQ_INT(ask_hook(&hook, d, "carry-b", seed).point, without);
    CHECK_EQ_INT(ask_hook(&hook, d, "carry-a", seed).point, with);
    duel_free(d);
}
