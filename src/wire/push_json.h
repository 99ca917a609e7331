/* push_json: what a Web Push notice may say, read from the seat's own view.
 *
 * A notice is decided and worded from one thing only: the view text the
 * visibility filter made for that seat (docs/API.md, Views). This module
 * reads the few facts the decision needs out of that text and writes the
 * payload {"game","kind","turn","you","opponent","result"} from it, so the
 * games layer holds no JSON and a notice cannot say more than the view. */
#ifndef PG_WIRE_PUSH_JSON_H
#define PG_WIRE_PUSH_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* A seat's view, read (opaque: the parsed text). */
typedef struct push_view push_view;

/* The facts a notice is decided on. */
typedef struct push_view_facts {
    bool over, cancelled;
    bool taken[3], connected[3]; /* [BLACK], [WHITE] */
    int turn;                    /* the view's turn number */
    int to_move;                 /* BLACK, WHITE, or 0 */
    const char *rematch_id;      /* the open rematch offer's game (owned by the view), or NULL */
} push_view_facts;

/* The view in text (len bytes); NULL when it is not a view object or out
 * of memory. */
push_view *push_view_read(const char *text, size_t len);
void push_view_free(push_view *v);
void push_view_facts_of(const push_view *v, push_view_facts *out);
/* The payload of a notice of `kind` to seat `color` of game `game_id`
 * (malloc'd text; NULL when out of memory): the opponent's display name
 * or null, and for game_over the result's reason, winner and score (no
 * territory lists), else null. */
char *push_payload_text(const push_view *v, const char *game_id, const char *kind, int color);

#endif
