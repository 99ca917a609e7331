/* aid_json: the deduction aid's answer as docs/API.md spells it:
 *   {"color":"black","seq":12,"size":9,"samples":256,
 *    "points":{"C7":38,"D4":100,...}}
 * one entry per point with a chance above zero, in percent, in the order
 * of the board's points (column by column, from A1), so equal estimates
 * print as equal bytes. Takes plain arrays: wire knows views and rules,
 * not the computer player that made the estimate. */
#ifndef PG_WIRE_AID_JSON_H
#define PG_WIRE_AID_JSON_H

#include <stdint.h>

/* The answer for seat `color` after event `seq`, `percent` holding
 * size*size values 0..100 indexed by point; malloc'd compact text, NULL
 * when out of memory. */
char *aid_json_render(int color, int seq, int size, int samples, const uint8_t *percent);

#endif
