/* Runs every registered unit test; see harness.h. An optional argument
 * runs only the tests whose name contains it. */
#include "harness.h"

#include <stdlib.h>

#define MAX_TESTS 4096

struct test_case { const char *name, *file; test_fn fn; };
static struct test_case tests[MAX_TESTS];
static int test_count;
static int failures_in_current;

void harness_register(const char *name, const char *file, test_fn fn) {
    if (test_count == MAX_TESTS) { fprintf(stderr, "harness: too many tests\n"); exit(2); }
    tests[test_count++] = (struct test_case){ name, file, fn };
}

void harness_fail(const char *file, int line, const char *what) {
    failures_in_current++;
    fprintf(stderr, "    %s:%d: check failed: %s\n", file, line, what);
}

int harness_current_failed(void) { return failures_in_current; }

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    for (int i = 0; i < test_count; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
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
