/* lesson: the referee's side of the interactive lesson (/lesson, docs/API.md
 * "Lesson"), where a newcomer learns Phantom Go by playing a few steps on a
 * 5x5 board.
 *
 * Each step is a position the lesson sets up (a fixed list of actions of
 * both colours), a scripted White that tries a fixed list of points in
 * order, and a goal. The learner plays Black. A request carries the
 * learner's actions of the step so far; the answer replays the set-up and
 * those actions on the real referee, with White's scripted answers after
 * each of Black's turns, and gives Black's view through the visibility
 * filter (wire/view_json): the page learns what a player would, no more.
 * Nothing is stored: the same actions always give the same answer. */
#ifndef PG_GAMES_LESSON_H
#define PG_GAMES_LESSON_H

#include "util/strbuf.h"

/* The most actions a request may carry for one step (a 5x5 board). */
#define LESSON_MOVES_MAX 64

typedef enum {
    LESSON_OK = 0,
    LESSON_NO_STEP,    /* no step by that name */
    LESSON_BAD_VERTEX, /* moves[*bad_index] is not a point of the board nor "pass" */
    LESSON_REFUSED,    /* moves[*bad_index] (not the last) was refused by the referee */
    LESSON_NO_MEMORY
} lesson_status;

/* The steps in order, NULL-terminated: "see", "illegal", "once",
 * "capture", "end". */
extern const char *const lesson_steps[];

/* Replays step `step` with the learner's actions moves[0..n) (GTP vertices
 * or "pass"; n <= LESSON_MOVES_MAX) and appends the answer
 *   {"step", "first_seq", "refused", "done", "view"}
 * to out. A refusal of the LAST action is the
 * referee's answer ("refused" names it; the view is the one before it); a
 * refusal of an earlier one is LESSON_REFUSED. *bad_index names the action
 * at fault for LESSON_BAD_VERTEX and LESSON_REFUSED. */
lesson_status lesson_answer(const char *step, const char *const *moves, int n, strbuf *out, int *bad_index);

#endif
