/* ismcts: information-set Monte-Carlo tree search with RAVE, the strong
 * player (after Cowling, Powley and Whitehouse's ISMCTS, 2012, and Wang et
 * al.'s belief-state search for Phantom Go, 2018).
 *
 * The tree is over OUR attempts only. The opponent's moves are hidden from
 * us, so in our information sets they are not branches: each simulation
 * draws one board from the informed belief, walks the tree choosing our
 * moves among those legal on that board, answers each with an opponent
 * reply on the board, and finishes with a light playout. Every node thus
 * stands for the sequence of our moves, whatever the opponent did in
 * between (the "multiple-observer" collapse of opponent moves).
 *
 * The replies come from a second tree, the opponent's, over ITS moves
 * only: our moves are as hidden from the opponent as theirs from us, so
 * its node stands for its own sequence of replies, whatever we played
 * (Cowling, Powley and Whitehouse's ISMCTS with partially observable
 * moves). It is searched like ours, on the complement of the result, so
 * the simulated opponent learns the replies that hurt us on the boards
 * we believe in, where a uniformly random reply (still played below its
 * leaves, and always when the budget is too small for the opponent's
 * tree to learn: opponent_tree_pays) lets almost every move of ours look
 * safe.
 *
 * Selection is UCB with RAVE (Gelly and Silver) among the children legal
 * on this simulation's board: a child's value blends its mean with its
 * AMAF mean, β = rn / (rn + n + rn·n/RAVE_EQUIV), plus a small exploration
 * term. (ISMCTS counts exploration in availability, how often a child was
 * legal; with RAVE and this small a term, the parent's visits do as well
 * and spare a legality test per child.) Children start with a small prior
 * (the edge is worse), and ties are broken by a tiny seeded noise so that
 * no point order wins.
 * At the root we choose the most simulated move, or one drawn at random
 * among the moves as good as it (the draw seeded by the seat's view and
 * the decision's seed: reproducible, fair, and no habit to learn), or pass
 * when passing scores at least as well as every move (by their own means).
 *
 * Our pass at the root is answered from a node of the opponent's tree of
 * its own (passes are public, so its tree branches on ours): it passes,
 * ending the game, where that pays it, and plays on elsewhere.
 *
 * Nodes of both trees live in one pool allocated per decision; when it is
 * full the trees stop growing and the simulations go on below the leaves. */
#include "bot/players.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bot/search.h"

#define POOL_MAX (1 << 20) /* nodes: 24 MiB at most per decision */
#define EXPAND_AT 3        /* visits before a node gets children */
#define RAVE_EQUIV 2000.0
#define EXPLORE 0.05
#define PRIOR_N 4.0
#define MAX_DEPTH 64
#define NEAR_VISITS 0.9        /* root moves this close to the best count as good as it... */
#define NEAR_MEAN 0.01         /* ...when their mean is within this of its mean */
#define PASS_ENDS_PERMILLE 150 /* how often our pass is answered by a pass (opponent_answers_pass) */
/* The score margin's share of a result (search_finish): 0.03 measured +63
 * Elo [+16, +113] over 0.1 at 3,000 playouts (docs/BOT.md): playing for the
 * win rather than the margin. */
#define SCORE_WEIGHT 0.03

typedef struct node {
    int32_t first_child; /* index in the pool, or -1 */
    point move;          /* PASS_POINT for the root's pass child */
    int16_t n_children;
    float n, w;   /* simulations through this node, their wins */
    float rn, rw; /* AMAF simulations and wins */
} node;

typedef struct tree_work {
    belief bf;
    board sample;
    int32_t n_nodes, pool_size;
    int32_t path[MAX_DEPTH + 1];              /* nodes chosen, root first */
    int32_t opp_root;                         /* the opponent's tree's root, -1 if none */
    int32_t opp_after_pass;                   /* its node answering our pass, -1 if none */
    int32_t opp_path[MAX_DEPTH + 1];          /* its nodes chosen, its root first */
    point mine[MAX_DEPTH], theirs[MAX_DEPTH]; /* moves along the path */
    uint8_t first_mover[BOARD_MAX_POINTS];
    float expected_map_at_start[BOARD_MAX_POINTS]; /* the carried expected map, or zeros */
    point scratch[BOARD_MAX_POINTS + 1];           /* candidates, then PASS_POINT */
    node pool[];                                   /* pool_size nodes, in the same allocation */
} tree_work;

static double prior_of(const board *b, point p) {
    if (p == PASS_POINT) return 0.5;
    return board_edge_distance(b, p) == 0 ? 0.35 : 0.5; /* a torus has no edge */
}

/* A new node without children; returns its index. */
static int32_t add_node(tree_work *tw) {
    assert(tw->n_nodes < tw->pool_size);
    tw->pool[tw->n_nodes] = (node){ -1, NO_POINT, 0, 0, 0, 0, 0 };
    return tw->n_nodes++;
}

/* Gives node `at` the children moves[0..n-1]; false if the pool is full. */
static bool add_children(tree_work *tw, int32_t at, const point *moves, int n) {
    if (n == 0 || tw->n_nodes + n > tw->pool_size) return false;
    node *parent = &tw->pool[at];
    parent->first_child = tw->n_nodes;
    parent->n_children = (int16_t)n;
    for (int i = 0; i < n; i++) {
        node *c = &tw->pool[tw->n_nodes++];
        double prior = prior_of(&tw->sample, moves[i]);
        *c = (node){ -1, moves[i], 0, 0, 0, (float)PRIOR_N, (float)(PRIOR_N * prior) };
    }
    return true;
}

/* Children of a node below the root: every point not ours on this board,
 * not a known opponent stone and not our eye. */
static void expand(tree_work *tw, const bot_memory *m, int32_t at) {
    int n = 0;
    for (point p = 0; p < board_points(&tw->sample); p++)
        if (board_at(&tw->sample, p) != m->me && m->opp[p] != OPP_CERTAIN &&
            !board_is_eye(&tw->sample, m->me, p))
            tw->scratch[n++] = p;
    add_children(tw, at, tw->scratch, n);
}

/* The opponent's moves as far as we can tell, written to tw->scratch:
 * every point not ours in our view and not a known opponent stone.
 * Returns how many. */
static int opponent_points(tree_work *tw, const bot_memory *m) {
    int n = 0;
    for (point p = 0; p < board_points(&tw->sample); p++)
        if (m->view.stone[p] != m->me && m->opp[p] != OPP_CERTAIN) tw->scratch[n++] = p;
    return n;
}

/* Children of a node of the opponent's tree: its points. */
static void expand_opponent(tree_work *tw, const bot_memory *m, int32_t at) {
    add_children(tw, at, tw->scratch, opponent_points(tw, m));
}

static double child_value(const node *c, double explore_log, rng *r) {
    double q = c->n > 0 ? c->w / c->n : 0;
    double rq = c->rn > 0 ? c->rw / c->rn : 0.5;
    double beta = c->rn / (c->rn + c->n + c->rn * c->n / RAVE_EQUIV);
    double explore = EXPLORE * sqrt(explore_log / (c->n + 1));
    return (1 - beta) * q + beta * rq + explore + rng_below(r, 1024) * 1e-7;
}

/* The best child legal on this board; -1 if none is. Legality is checked
 * only for a child that would beat the best so far, which keeps the board
 * tests to a few per node instead of one per child. */
static int32_t select_child(tree_work *tw, int32_t at, int me, rng *r) {
    const node *parent = &tw->pool[at];
    if (at == 0) {
        /* The root's pass (its last child) gets at least a uniform share of
         * the simulations, as in flat Monte-Carlo: its value decides when
         * to pass, and RAVE never speaks for it. */
        int32_t pass = parent->first_child + parent->n_children - 1;
        if (tw->pool[pass].n * parent->n_children <= parent->n) return pass;
    }
    double explore_log = log(parent->n + 1);
    int32_t best = -1;
    double best_value = -1;
    for (int32_t i = parent->first_child; i < parent->first_child + parent->n_children; i++) {
        node *c = &tw->pool[i];
        double v = child_value(c, explore_log, r);
        if (v <= best_value) continue;
        if (c->move != PASS_POINT &&
            (board_check(&tw->sample, me, c->move) != MOVE_OK || board_is_eye(&tw->sample, me, c->move)))
            continue;
        best = i;
        best_value = v;
    }
    return best;
}

/* Capture Go: a move of `me` on b that captures a group of the other
 * colour in atari (its one liberty) big enough to bring me's captures
 * (captures[me], the public count included) to the target; NO_POINT
 * when there is none or the game is not capture Go (target 0). The tree
 * walk asks it for both sides. */
static point winning_capture(const board *b, int me, int target, const int captures[3]) {
    if (target <= 0) return NO_POINT;
    int need = target - captures[me];
    int opp = color_other(me);
    for (point p = 0; p < board_points(b); p++) {
        if (board_at(b, p) != opp || b->group[p] != p || b->grp[p].stones < need) continue;
        point liberty = board_atari_liberty(b, p);
        if (liberty != NO_POINT && board_check(b, me, liberty) == MOVE_OK) return liberty;
    }
    return NO_POINT;
}

/* The child of node `at` playing p, or -1. */
static int32_t child_playing(const tree_work *tw, int32_t at, point p) {
    const node *parent = &tw->pool[at];
    for (int32_t i = parent->first_child; i < parent->first_child + parent->n_children; i++)
        if (tw->pool[i].move == p) return i;
    return -1;
}

/* Credits the AMAF statistics of the children of node `parent` whose
 * point `color` played first after the parent's position, with value
 * (color's own). */
static void credit_amaf(tree_work *tw, int32_t parent, int color, double value) {
    const node *p = &tw->pool[parent];
    for (int32_t i = p->first_child; i < p->first_child + p->n_children; i++) {
        node *c = &tw->pool[i];
        if (c->move != PASS_POINT && tw->first_mover[c->move] == color) {
            c->rn += 1;
            c->rw += (float)value;
        }
    }
}

/* Walks back up both paths, crediting each node and the AMAF statistics
 * of the siblings its colour played first after their parent's position:
 * ours with the result, the opponent's with its complement. The
 * opponent's node at depth d chose the reply to our move at depth d. */
static void backup(tree_work *tw, int depth, int opp_depth, int me, double result) {
    int opp = color_other(me);
    for (int d = depth - 1; d >= 0; d--) {
        if (tw->theirs[d] != PASS_POINT) tw->first_mover[tw->theirs[d]] = (uint8_t)opp;
        if (d < opp_depth) credit_amaf(tw, tw->opp_path[d], opp, 1 - result);
        if (tw->mine[d] != PASS_POINT) tw->first_mover[tw->mine[d]] = (uint8_t)me;
        credit_amaf(tw, tw->path[d], me, result);
    }
    for (int d = 0; d <= depth; d++) {
        tw->pool[tw->path[d]].n += 1;
        tw->pool[tw->path[d]].w += (float)result;
    }
    for (int d = 0; d <= opp_depth && tw->opp_root >= 0; d++) {
        tw->pool[tw->opp_path[d]].n += 1;
        tw->pool[tw->opp_path[d]].w += (float)(1 - result);
    }
}

/* The opponent's reply from its tree, node *at, chosen as ours are among
 * the children legal on this board; NO_POINT once the walk has left the
 * tree (*at is -1 then: at a leaf not yet visited EXPAND_AT times, a full
 * pool, or no child legal here), and the reply is a random one. Its root
 * gets its children with ours, before the first simulation. */
static point opponent_tree_reply(tree_work *tw, const bot_memory *m, int32_t *at, int *opp_depth, rng *r) {
    if (*at < 0) return NO_POINT;
    if (tw->pool[*at].n_children == 0) {
        if (tw->pool[*at].n >= EXPAND_AT) expand_opponent(tw, m, *at);
        if (tw->pool[*at].n_children == 0) {
            *at = -1;
            return NO_POINT;
        }
    }
    int32_t child = select_child(tw, *at, color_other(m->me), r);
    if (child < 0) {
        *at = -1;
        return NO_POINT;
    }
    tw->opp_path[++*opp_depth] = child;
    *at = child;
    return tw->pool[child].move;
}

/* The opponent's answer to our pass at the root; passes counts ours.
 * Returns the passes in a row after it: 2 when they pass too (the game
 * ends); 0 when they answer with a move (played on the board, its
 * captures counted, recorded as theirs: the playout goes on, ours to
 * play); passes, unchanged, when no answer is drawn (without the
 * opponent's tree: the playout goes on, theirs to play).
 *
 * After our pass the playout would have the game go on, with our random
 * moves still capturing the stones we know of in our area. A real
 * opponent may pass too and end it, and then every stone left stands
 * (area scoring, no dead stones), scored by search_finish's cautious
 * count. Without the opponent's tree they pass in PASS_ENDS_PERMILLE of
 * the simulations: passing is no longer free while known stones of
 * theirs sit in our area. Measured (docs/BOT.md): 15% gained against the
 * textbook reference (74% to 92%, as Black 50% to 85%) and did not lose
 * in self-play; 50% lost (-91 Elo), the player then refusing to pass and
 * spoiling its own area. With it, their answer comes from its node for
 * our pass (passes are public, so its tree branches on ours): it learns
 * whether our pass lets them end the game ahead (a region of ours left
 * open to their stones, say), which a fixed share could not tell. */
static int opponent_answers_pass(tree_work *tw, int me, int passes, int *opp_depth, int captures[3], rng *r) {
    if (passes >= 2) return passes;
    if (tw->opp_after_pass < 0) return rng_below(r, 1000) < PASS_ENDS_PERMILLE ? 2 : passes;
    int opp = color_other(me);
    int32_t child = select_child(tw, tw->opp_after_pass, opp, r);
    assert(child >= 0); /* their pass is always legal */
    tw->opp_path[0] = tw->opp_after_pass;
    tw->opp_path[++*opp_depth] = child;
    point q = tw->pool[child].move;
    if (q == PASS_POINT) return 2;
    captures[opp] += board_play(&tw->sample, opp, q, NULL);
    tw->theirs[0] = q; /* our pass is a child of the root */
    return 0;
}

static void simulate(tree_work *tw, const bot_memory *m, rng *r) {
    int me = m->me, opp = color_other(me), komi = m->view.settings.komi_x2;
    /* Capture Go: a capture in the tree that reaches the target decides
     * the simulation (1 or 0) without a playout. */
    int target = m->view.settings.capture_target;
    int captures[3] = { 0, m->view.captured_by[BLACK], m->view.captured_by[WHITE] };
    double decided = -1;
    belief_sample(&tw->bf, &tw->sample, r);
    memset(tw->first_mover, 0, (size_t)board_points(&tw->sample));
    int32_t at = 0, opp_at = tw->opp_root;
    int depth = 0, opp_depth = 0, passes = m->view.passes;
    tw->path[0] = 0;
    tw->opp_path[0] = opp_at;
    while (depth < MAX_DEPTH) {
        if (tw->pool[at].n_children == 0) {
            if (depth == 0 || tw->pool[at].n < EXPAND_AT) break;
            expand(tw, m, at);
            if (tw->pool[at].n_children == 0) break;
        }
        /* A capture that wins on this board is what any player would play:
         * the search would find it only by luck, since AMAF cannot see it. */
        point win = winning_capture(&tw->sample, me, target, captures);
        int32_t child = win != NO_POINT ? child_playing(tw, at, win) : -1;
        if (child < 0) child = select_child(tw, at, me, r);
        if (child < 0) break;
        point p = tw->pool[child].move;
        tw->mine[depth] = p;
        tw->theirs[depth] = PASS_POINT;
        tw->path[++depth] = child;
        at = child;
        if (p == PASS_POINT) {
            board_pass(&tw->sample);
            passes++;
            /* The pass is a leaf, but the opponent's winning capture
             * still comes: else passing dodged it, and the player passed
             * with a stone in atari. */
            if (winning_capture(&tw->sample, opp, target, captures) != NO_POINT) {
                decided = 0;
            } else {
                passes = opponent_answers_pass(tw, me, passes, &opp_depth, captures, r);
                if (target > 0 && captures[opp] >= target) decided = 0;
            }
            break; /* the pass child is a leaf: the game goes on below */
        }
        captures[me] += board_play(&tw->sample, me, p, NULL);
        if (target > 0 && captures[me] >= target) {
            decided = 1;
            break;
        }
        /* The opponent's reply: in capture Go a winning capture of ours
         * when the board has one (they may have found those stones by
         * their refusals; the walk then leaves their tree, whose depth
         * must match ours), else their tree's reply, or a random move
         * below its leaves. Taking our groups in atari in every reply
         * lost in ordinary Go (docs/BOT.md); the tree learns which
         * replies hurt us instead. */
        point q = winning_capture(&tw->sample, opp, target, captures);
        if (q != NO_POINT) opp_at = -1;
        else q = opponent_tree_reply(tw, m, &opp_at, &opp_depth, r);
        if (q == NO_POINT) q = search_random_move(&tw->sample, opp, r);
        if (q == PASS_POINT) {
            board_pass(&tw->sample);
        } else {
            captures[opp] += board_play(&tw->sample, opp, q, NULL);
            tw->theirs[depth - 1] = q;
            if (target > 0 && captures[opp] >= target) {
                decided = 0;
                break;
            }
        }
        passes = 0;
    }
    /* Our pass not answered by a move: the game is over or theirs to play. */
    bool ended_on_pass =
        depth > 0 && tw->mine[depth - 1] == PASS_POINT && tw->theirs[depth - 1] == PASS_POINT;
    double result = decided >= 0 ? decided
                                 : search_finish(&tw->sample, me, ended_on_pass ? opp : me,
                                                 ended_on_pass ? passes : 0, komi, SCORE_WEIGHT, r, tw->first_mover);
    backup(tw, depth, opp_depth, me, result);
}

/* How a turn's attempts share the budget depends on its size. A short
 * one (under SHORT_BUDGET_PLAYOUTS simulations, or a time under
 * SHORT_BUDGET_MS when no count is set) is alike on the first three
 * attempts, three quarters each: a refusal tells where an unseen stone
 * stands, and a retry starved of simulations chooses badly. Every attempt
 * alike, against search_shares_shrinking, measured +60 Elo on 9x9 and +70
 * on 13x13 at equal time a move; these shares +28.5 [-2.6, +60.1] at 40
 * ms a decision (docs/BOT.md, fifteenth and sixteenth sessions). From the
 * fourth attempt on a quarter, so that a long run of refusals late in a
 * game stays within a few budgets. A longer budget shrinks as the other
 * players' do: there the retry's half is already thousands of
 * simulations, and the alike shares measured -16.3 [-44.9, +12.0] over
 * 468 games at 150 and 300 ms (seventeenth session). */
#define SHORT_BUDGET_PLAYOUTS 10000
#define SHORT_BUDGET_MS 100
static const attempt_shares shares_of_a_short_budget = { { 3, 3, 3, 1 }, { 4, 4, 4, 4 } };

static bool is_short_budget(const bot_config *cfg) {
    return cfg->playouts > 0 ? cfg->playouts < SHORT_BUDGET_PLAYOUTS : cfg->time_ms < SHORT_BUDGET_MS;
}

const attempt_shares *ismcts_attempt_shares(const bot_config *cfg) {
    return is_short_budget(cfg) ? &shares_of_a_short_budget : &search_shares_shrinking;
}

/* FNV-1a, the hash of a seat's view and of its position (never of a
 * pointer, so the same in every process). */
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* FNV-1a: folds the value v into the hash h. */
static uint64_t fnv_fold(uint64_t h, uint64_t v) { return (h ^ v) * FNV_PRIME; }

static uint64_t fnv_fold_bytes(uint64_t h, const uint8_t *bytes, int n) {
    for (int i = 0; i < n; i++) h = fnv_fold(h, bytes[i]);
    return h;
}

/* FNV-1a over what the seat has seen: its view's stones and marks and the
 * facts its memory drew from them (never a pointer, so the hash is the
 * same in every process). */
static uint64_t view_hash(const bot_memory *m) {
    int n = m->view.settings.size * m->view.settings.size;
    uint64_t h = FNV_OFFSET;
    h = fnv_fold_bytes(h, m->view.stone, n);
    h = fnv_fold_bytes(h, m->view.mark, n);
    h = fnv_fold_bytes(h, m->opp, n);
    return fnv_fold(h, (uint64_t)m->view.seq);
}

/* The move to play: not always the most simulated one, but one drawn at
 * random among the moves as good as it (visits within NEAR_VISITS of its
 * count, mean within NEAR_MEAN of its mean), so that a person cannot learn
 * the computer's habits. The draw is seeded by the seat's view mixed with
 * the decision's own randomness, so it depends on nothing hidden and the
 * same (memory, seed) still gives the same decision. */
static point root_choice(const tree_work *tw, const bot_memory *m, rng *r) {
    const node *root = &tw->pool[0];
    const node *best = NULL, *pass = NULL;
    double best_mean = -1;
    for (int32_t i = root->first_child; i < root->first_child + root->n_children; i++) {
        const node *c = &tw->pool[i];
        if (c->move == PASS_POINT) {
            pass = c;
            continue;
        }
        if (c->n > 0 && (!best || c->n > best->n)) best = c;
        if (c->n > 0 && c->w / c->n > best_mean) best_mean = c->w / c->n;
    }
    if (!best || (pass && pass->n > 0 && pass->w / pass->n >= best_mean)) return PASS_POINT;
    rng tie;
    rng_seed(&tie, view_hash(m) ^ rng_next64(r));
    double best_q = best->w / best->n;
    point choice = best->move;
    int seen = 0;
    for (int32_t i = root->first_child; i < root->first_child + root->n_children; i++) {
        const node *c = &tw->pool[i];
        if (c->move == PASS_POINT || c->n < NEAR_VISITS * best->n || c->w / c->n < best_q - NEAR_MEAN)
            continue;
        if (rng_below(&tie, (uint32_t)++seen) == 0) choice = c->move; /* reservoir draw */
    }
    return choice;
}

/* On a short budget (is_short_budget), a retry starts from the refused
 * attempt's root statistics at this weight (bot_carry): against no carry,
 * 85 of 120 games at 1,000 playouts on 13x13, +14.5 Elo [-5.3, +34.4]
 * over two runs at 40 ms a decision on 9x9; at 150 ms on 9x9, 61 of 134
 * (too few to tell, so a longer budget, the strong level's, starts a
 * retry from nothing yet; docs/BOT.md, eighteenth session). On every
 * budget, a turn's first attempt starts from the AMAF half of the played
 * attempt's statistics at this weight (nineteenth session). */
#define CARRY_WEIGHT 0.5

/* FNV-1a over our stones as the view shows them, with our stone at p
 * too unless p is NO_POINT (what the next turn's view shows after p is
 * played, unless the opponent captured some of them); folded around p,
 * so the view is never copied. */
static uint64_t stones_hash(const bot_memory *m, point p) {
    int n = m->view.settings.size * m->view.settings.size;
    if (p == NO_POINT) return fnv_fold_bytes(FNV_OFFSET, m->view.stone, n);
    const uint8_t mine = (uint8_t)m->me;
    uint64_t h = fnv_fold_bytes(FNV_OFFSET, m->view.stone, p);
    h = fnv_fold_bytes(h, &mine, 1);
    return fnv_fold_bytes(h, m->view.stone + p + 1, n - p - 1);
}

/* FNV-1a over what a refusal leaves unchanged: our stones and the public
 * counts. With the turn and the number of tried points it tells the
 * attempt just before from any other decision. */
static uint64_t position_hash(const bot_memory *m) {
    int n = m->view.settings.size * m->view.settings.size;
    uint64_t h = stones_hash(m, NO_POINT);
    const int32_t counts[] = { n, m->view.moves[BLACK], m->view.moves[WHITE], m->view.on_board[BLACK],
                               m->view.on_board[WHITE] };
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) h = fnv_fold(h, (uint32_t)counts[k]);
    return h;
}

static int carry_slot(point p) { return p == PASS_POINT ? BOARD_MAX_POINTS : p; }

/* Was the carry written by the attempt just refused? */
static bool carry_applies_to_retry(const bot_carry *c, const bot_memory *m) {
    return c && c->valid && c->turn == m->view.turn && c->n_tried + 1 == m->view.n_tried &&
           c->seq + 1 == m->view.seq && c->position == position_hash(m);
}

/* Was the carry written by our decision of the turn before, whose point
 * was played, and did the opponent's turn since leave our stones alone? */
static bool carry_applies_to_next_turn(const bot_carry *c, const bot_memory *m) {
    return c && c->valid && c->played_a_point && c->turn + 2 == m->view.turn && m->view.n_tried == 0 &&
           c->stones_after == stones_hash(m, NO_POINT);
}

/* Seeds the fresh root (its children added) with the carried statistics. */
static void carry_load(tree_work *tw, const bot_carry *c) {
    node *root = &tw->pool[0];
    root->n += (float)(CARRY_WEIGHT * c->root_n);
    root->w += (float)(CARRY_WEIGHT * c->root_w);
    for (int32_t i = root->first_child; i < root->first_child + root->n_children; i++) {
        node *child = &tw->pool[i];
        int k = carry_slot(child->move);
        child->n += (float)(CARRY_WEIGHT * c->n[k]);
        child->w += (float)(CARRY_WEIGHT * c->w[k]);
        child->rn += (float)(CARRY_WEIGHT * c->rn[k]);
        child->rw += (float)(CARRY_WEIGHT * c->rw[k]);
    }
}

/* Seeds the next turn's fresh root with the carried AMAF statistics: the
 * points that were good for us to play, at whatever depth, stay mostly
 * good after our move and the opponent's hidden one, while which move
 * is best first has changed (the visits are left behind). */
static void carry_load_amaf(tree_work *tw, const bot_carry *c) {
    node *root = &tw->pool[0];
    for (int32_t i = root->first_child; i < root->first_child + root->n_children; i++) {
        node *child = &tw->pool[i];
        if (child->move == PASS_POINT) continue;
        child->rn += (float)(CARRY_WEIGHT * c->rn[child->move]);
        child->rw += (float)(CARRY_WEIGHT * c->rw[child->move]);
    }
}

/* The expected map after this decision: the one it started from plus
 * each of the opponent's first moves' share of its tree's simulations
 * (its root has no pass, so the shares add up to 1). Without the
 * opponent's tree the map is kept as it was. */
static void expected_map_save(const tree_work *tw, bot_carry *c) {
    memcpy(c->expected_map_at_start, tw->expected_map_at_start, sizeof c->expected_map_at_start);
    memcpy(c->expected_map, tw->expected_map_at_start, sizeof c->expected_map);
    if (tw->opp_root < 0) return;
    const node *parent = &tw->pool[tw->opp_root];
    double total = 0;
    for (int32_t i = parent->first_child; i < parent->first_child + parent->n_children; i++)
        total += tw->pool[i].n;
    if (total <= 0) return;
    for (int32_t i = parent->first_child; i < parent->first_child + parent->n_children; i++) {
        const node *reply = &tw->pool[i];
        assert(reply->move >= 0 && reply->move < BOARD_MAX_POINTS);
        c->expected_map[reply->move] += (float)(reply->n / total);
    }
}

/* Keeps the root's statistics for the next decision: the retry, should
 * this attempt be refused, or the next turn's first attempt; and the
 * expected map. The children's priors are left out: the next root adds
 * its own. */
static void carry_save(const tree_work *tw, const bot_memory *m, point choice, bot_carry *c) {
    bot_carry_init(c);
    expected_map_save(tw, c);
    const node *root = &tw->pool[0];
    for (int32_t i = root->first_child; i < root->first_child + root->n_children; i++) {
        const node *child = &tw->pool[i];
        int k = carry_slot(child->move);
        c->n[k] = child->n;
        c->w[k] = child->w;
        c->rn[k] = child->rn - (float)PRIOR_N;
        c->rw[k] = child->rw - (float)(PRIOR_N * prior_of(&tw->bf.base, child->move));
    }
    c->root_n = root->n;
    c->root_w = root->w;
    c->seq = m->view.seq;
    c->turn = m->view.turn;
    c->n_tried = m->view.n_tried;
    c->position = position_hash(m);
    c->played_a_point = choice != PASS_POINT;
    c->stones_after = c->played_a_point ? stones_hash(m, choice) : 0;
    c->valid = true;
}

/* Nodes a budget of playouts may need for each tree: it grows by a whole
 * row of children (up to the board's points) at a node's EXPAND_AT-th
 * visit. */
#define POOL_NODES_PER_PLAYOUT 32

/* Does the opponent's tree pay on this budget? It learns its replies
 * only when each gets a few simulations; on fewer it settles early on a
 * handful of lucky ones, and our moves are judged against those alone.
 * Measured (docs/BOT.md, twenty-first session): a gain on 9x9 at 40 and
 * 150 ms a decision and in capture Go at 2,000 playouts (about 25 a
 * point), a loss on 13x13 at 1,000 (6 a point). A time budget is
 * measured on 9x9 only, so there it stays on the small boards. */
#define OPPONENT_TREE_PLAYOUTS_PER_POINT 20
#define OPPONENT_TREE_TIMED_POINTS (11 * 11)

static bool opponent_tree_pays(const bot_config *cfg, const bot_memory *m) {
    int points = m->view.settings.size * m->view.settings.size;
    return cfg->playouts > 0 ? cfg->playouts >= (long)OPPONENT_TREE_PLAYOUTS_PER_POINT * points
                             : points <= OPPONENT_TREE_TIMED_POINTS;
}

/* The decision's one allocation: the work space with its node pool, room
 * for the opponent's tree too when it has one; its belief leans toward
 * expected_map (the carry's, or NULL), copied because the decision
 * rewrites the carry (carry_save) after reading it. */
static tree_work *tree_new(const bot_config *cfg, const bot_memory *m, bool opponent_tree,
                           const float *expected_map) {
    long want =
        cfg->playouts > 0 ? (long)cfg->playouts * POOL_NODES_PER_PLAYOUT * (opponent_tree ? 2 : 1) : POOL_MAX;
    int32_t pool_size = (int32_t)(want < POOL_MAX ? want : POOL_MAX);
    if (pool_size < 2 * BOARD_MAX_POINTS) pool_size = 2 * BOARD_MAX_POINTS;
    tree_work *tw = malloc(sizeof *tw + (size_t)pool_size * sizeof tw->pool[0]);
    if (!tw) return NULL;
    memset(tw, 0, sizeof *tw); /* the pool is written as nodes are added */
    tw->pool_size = pool_size;
    if (expected_map) memcpy(tw->expected_map_at_start, expected_map, sizeof tw->expected_map_at_start);
    if (!belief_prepare_expecting(&tw->bf, m, expected_map)) {
        free(tw);
        return NULL;
    }
    return tw;
}

static void tree_free(tree_work *tw) { free(tw); }

/* The move of node at's most simulated child: at the opponent's root
 * the reply our search expects, at its node answering our pass that
 * answer. NO_POINT if at is -1 or no child was simulated. */
static point most_simulated_child(const tree_work *tw, int32_t at) {
    if (at < 0) return NO_POINT;
    const node *parent = &tw->pool[at];
    const node *best = NULL;
    for (int32_t i = parent->first_child; i < parent->first_child + parent->n_children; i++)
        if (!best || tw->pool[i].n > best->n) best = &tw->pool[i];
    return best && best->n > 0 ? best->move : NO_POINT;
}

point ismcts_choose(const bot_config *cfg, const bot_memory *m, rng *r, double start, bot_carry *carry,
                    bot_stats *stats) {
    bool opponent_tree = opponent_tree_pays(cfg, m);
    tree_work *tw = tree_new(cfg, m, opponent_tree, bot_carry_expected_map(carry, m));
    if (!tw) return heuristic_choose(m, r);
    int n = search_candidates(m, &tw->bf.base, tw->scratch);
    if (n == 0) {
        tree_free(tw);
        return PASS_POINT;
    }
    tw->scratch[n] = PASS_POINT;
    board_copy(&tw->sample, &tw->bf.base);
    add_children(tw, add_node(tw), tw->scratch, n + 1);
    tw->opp_root = tw->opp_after_pass = -1;
    if (opponent_tree) {
        tw->opp_root = add_node(tw);
        expand_opponent(tw, m, tw->opp_root);
    }
    /* Its node answering our pass, unless our pass ends the game (kept
     * only with its children, so that their pass is always there). */
    if (opponent_tree && m->view.passes == 0) {
        int32_t answer = add_node(tw);
        int n_points = opponent_points(tw, m);
        tw->scratch[n_points] = PASS_POINT;
        if (add_children(tw, answer, tw->scratch, n_points + 1)) tw->opp_after_pass = answer;
    }
    /* A carry left unwritten (no search) is never read: both tests want
     * the decision just before. */
    if (is_short_budget(cfg) && carry_applies_to_retry(carry, m)) carry_load(tw, carry);
    else if (carry_applies_to_next_turn(carry, m)) carry_load_amaf(tw, carry);
    search_budget budget = search_budget_for(cfg, ismcts_attempt_shares(cfg), m, start);
    long done = 0;
    while (search_continue(&budget, done)) {
        simulate(tw, m, r);
        done++;
    }
    point choice = root_choice(tw, m, r);
    if (carry) carry_save(tw, m, choice, carry);
    stats->playouts = done;
    stats->expected_reply = most_simulated_child(tw, tw->opp_root);
    stats->answer_to_pass = most_simulated_child(tw, tw->opp_after_pass);
    tree_free(tw);
    return choice;
}
