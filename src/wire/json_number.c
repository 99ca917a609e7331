/* json_number: whole numbers in range from cJSON values (see json_number.h).
 * cJSON keeps every number as a double; the test is done on that double so
 * that 1e3 and 1000 read alike and 1000.5 is refused. */
#include "wire/json_number.h"

#include <math.h>

bool json_whole_int64(const cJSON *v, int64_t lo, int64_t hi, int64_t *out) {
    if (!cJSON_IsNumber(v)) return false;
    double d = v->valuedouble;
    if (!(d >= (double)lo && d <= (double)hi) || d != floor(d)) return false;
    *out = (int64_t)d;
    return true;
}

bool json_whole_int(const cJSON *v, int lo, int hi, int *out) {
    int64_t n;
    if (!json_whole_int64(v, lo, hi, &n)) return false;
    *out = (int)n;
    return true;
}
