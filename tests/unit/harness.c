/* Runs every registered unit test; see harness.h. An optional argument
 * runs only the tests whose name or file contains one of its
 * comma-separated parts. */
#include "harness.h"

#include <stdbool.h>
#include <stdlib.h>

#define MAX_TESTS 4096

struct test_case {
    const char *name, *file;
    test_fn fn;
};
static struct test_case tests[MAX_TESTS];
static int test_count;
static int failures_in_current;

void harness_register(const char *name, const char *file, test_fn fn) {
    if (test_count == MAX_TESTS) {
        fprintf(stderr, "harness: too many tests\n");
        exit(2);
    }
    tests[test_count++] = (struct test_case){ name, file, fn };
}

void harness_fail(const char *file, int line, const char *what) {
    failures_in_current++;
    fprintf(stderr, "    %s:%d: check failed: %s\n", file, line, what);
}

int harness_current_failed(void) { return failures_in_current; }

/* The filter is a comma-separated list of substrings of a test's name or
 * file ("store_claim", "test_store.c,test_store_pg.c"). */
static bool matches(const char *filter, const char *name, const char *file) {
    char copy[512];
    snprintf(copy, sizeof copy, "%s", filter);
    for (char *save = NULL, *part = strtok_r(copy, ",", &save); part; part = strtok_r(NULL, ",", &save))
        if (strstr(name, part) || strstr(file, part)) return true;
    return false;
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    for (int i = 0; i < test_count; i++) {
        if (filter && !matches(filter, tests[i].name, tests[i].file)) continue;
        failures_in_current = 0;
        tests[i].fn();
        if (failures_in_current) {
            failed++;
            printf("FAIL %s (%s)\n", tests[i].name, tests[i].file);
        } else {
            passed++;
        }
        fflush(stdout);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
