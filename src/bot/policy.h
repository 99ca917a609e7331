/* policy: the playout policy of the search players, Go knowledge in the
 * simulations (issue 26), on a sampled board where every stone is visible.
 *
 * After each move, in the order michi and Pachi use:
 *  1. atari escape: a group of the player to move next to the last move is
 *     in atari; capture an opponent group in atari that touches it, or
 *     extend on its liberty when that gives it two or more;
 *  2. capture: an opponent group next to the last move is in atari;
 *     take it;
 *  3. otherwise a uniformly random legal move that does not fill the
 *     player's own eye and does not put a group of two or more of its
 *     stones in atari (a single-stone throw-in stays allowed).
 * Rules 1 and 2 apply with a fixed probability (POLICY_TACTICS_PCT), so
 * the playouts keep some of the uniform playout's variety. All work is on
 * the board's own incremental data (group liberty sums, the empty list,
 * neighbour colour counts): no allocation, no board copy.
 *
 * Internal to src/bot; the engine's uniform playout (engine/playout.h)
 * stays the benchmark's and the reference player's. */
#ifndef PG_BOT_POLICY_H
#define PG_BOT_POLICY_H

#include "engine/board.h"
#include "engine/playout.h"
#include "engine/rng.h"

/* The policy's move for colour c on b, the opponent's last move being last
 * (PASS_POINT or NO_POINT for none), or PASS_POINT when nothing is left.
 * May reorder b's empty list (its order is free). */
point policy_move(board *b, int c, point last, rng *r);

/* A game played to the end by the policy, as playout_random (the same
 * result, move cap and AMAF contract), starting with to_move after the
 * opponent's move last. */
playout_result policy_playout(board *b, int to_move, point last, int komi_x2, rng *r, uint8_t *first_mover);

#endif
