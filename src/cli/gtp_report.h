/* gtp_report: the words of the phantom- dialect of GTP (docs/GTP.md) that
 * both sides share: colour and rule names, and the report command that
 * tells one seat what the referee said, written from that seat's
 * observation.
 *
 * The controller (the arena) writes a report from view_observe's output for
 * the engine's seat, so an engine learns exactly what a human in that seat
 * would; the engine (gtp_engine.c) reads it back into the same observation.
 * One report per event: phantom-played, phantom-illegal or phantom-passed.
 * No I/O. */
#ifndef PG_CLI_GTP_REPORT_H
#define PG_CLI_GTP_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/view.h"

/* "black" / "white". */
const char *gtp_colour_name(int colour);
/* Parses "b", "black", "w", "white" (any case) into BLACK or WHITE. */
bool gtp_colour_parse(const char *s, int *out);

/* "olympiad", "common", "hamburg"; and back. */
const char *gtp_rules_name(referee_rules r);
bool gtp_rules_parse(const char *s, referee_rules *out);
/* "occupied", "suicide", "ko"; and back (ILLEGAL_NONE is no word). */
const char *gtp_reason_name(illegal_reason r);
bool gtp_reason_parse(const char *s, illegal_reason *out);

/* Writes the report command of observation ob (of a board of the given
 * size) into out, e.g. "phantom-played black D4 captures 2 C3 C4 atari",
 * without a newline. Returns false if the event needs no report (a
 * resignation, a timeout, a forfeit) or out is too small. */
bool gtp_report_write(const observation *ob, int size, char *out, size_t len);

#endif
