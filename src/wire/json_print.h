/* json_print: a cJSON tree as compact text, byte for byte what
 * cJSON_PrintUnformatted gives, at a fraction of its cost.
 *
 * cJSON prints every number with sprintf("%1.15g") and reads it back with
 * sscanf to check the round trip; a view holds about a hundred whole
 * numbers (seq, turn, counts, times), and that pair was 45% of the
 * instructions of a view read (docs: /work/shared-notes/i22-profile.md).
 * Here a whole number below 10^15 in magnitude, which "%1.15g" writes as
 * plain digits, is written as digits directly; any other number goes
 * through cJSON's own printer, so the text never differs. */
#ifndef PG_WIRE_JSON_PRINT_H
#define PG_WIRE_JSON_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "util/strbuf.h"

/* item as cJSON_PrintUnformatted prints it (free() the text), its length
 * in *len_out when len_out is not NULL; NULL when out of memory or when
 * cJSON would fail too (an invalid item, a raw item without text). */
char *json_print(const cJSON *item, size_t *len_out);
/* The same text appended to sb; false when item is invalid (sb may then
 * hold part of it). An allocation failure is sb's own (sb->failed). */
bool json_print_append(strbuf *sb, const cJSON *item);
/* The members of object o appended to sb without its braces ({"a":1}
 * gives "a":1), for a caller that writes the braces and members of its
 * own around them; false as json_print_append. */
bool json_print_members(strbuf *sb, const cJSON *o);

#endif
