/* options_json: a table's stored options, and the text of a game's stored
 * settings and time control, for the games layer, which holds no JSON of
 * its own (it hands the store text and reads text back).
 *
 * A table's options are stored as {"deduction_aid":true}, plus
 * {"level":"medium","computer":"white"} for a computer game; a game stored
 * before the aid existed has no "deduction_aid" (off). */
#ifndef PG_WIRE_OPTIONS_JSON_H
#define PG_WIRE_OPTIONS_JSON_H

#include <stdbool.h>

#include "engine/clock.h"
#include "engine/rules.h"

typedef struct table_options {
    bool deduction_aid;
    char level[16];     /* computer games: "easy" | "medium" | "strong" */
    int computer_color; /* BLACK or WHITE in a computer game, else 0 */
} table_options;

/* The stored text of o (malloc'd); NULL when out of memory. */
char *table_options_text(const table_options *o);
/* Reads stored options text (NULL reads as "{}"); a computer game's must
 * name its level and seat. False when the text is not such an object. */
bool table_options_parse(const char *text, bool computer_game, table_options *out);

/* The stored text of settings and of a time control (the API's shapes,
 * settings_json.h and clock_json.h); malloc'd, NULL when out of memory. */
char *settings_text(const game_settings *s);
char *time_control_text(const time_control *tc);

#endif
