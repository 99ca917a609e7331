/* A very small unit-test harness: TEST() registers a function before main
 * runs (a constructor), CHECK*() record failures without stopping the test,
 * and main() in harness.c runs every test and ends with the project's
 * closing line "N passed, N failed". Kept home-grown because it is forty
 * lines and the suites need nothing more. */
#ifndef PG_TEST_HARNESS_H
#define PG_TEST_HARNESS_H

#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void harness_register(const char *name, const char *file, test_fn fn);
void harness_fail(const char *file, int line, const char *what);
int harness_current_failed(void);

#define TEST(name)                                                   \
    static void test_##name(void);                                   \
    __attribute__((constructor)) static void register_##name(void) { \
        harness_register(#name, __FILE__, test_##name);              \
    }                                                                \
    static void test_##name(void)

#define CHECK(cond)                                           \
    do {                                                      \
        if (!(cond)) harness_fail(__FILE__, __LINE__, #cond); \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                            \
    do {                                                                              \
        long long va_ = (long long)(a), vb_ = (long long)(b);                         \
        if (va_ != vb_) {                                                             \
            char msg_[256];                                                           \
            snprintf(msg_, sizeof msg_, "%s == %s (%lld != %lld)", #a, #b, va_, vb_); \
            harness_fail(__FILE__, __LINE__, msg_);                                   \
        }                                                                             \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                                   \
    do {                                                                                                     \
        const char *sa_ = (a), *sb_ = (b);                                                                   \
        if (!sa_ || !sb_ || strcmp(sa_, sb_) != 0) {                                                         \
            char msg_[1024];                                                                                 \
            snprintf(msg_, sizeof msg_, "%s == %s (\"%.400s\" != \"%.400s\")", #a, #b, sa_ ? sa_ : "(null)", \
                     sb_ ? sb_ : "(null)");                                                                  \
            harness_fail(__FILE__, __LINE__, msg_);                                                          \
        }                                                                                                    \
    } while (0)

#endif
