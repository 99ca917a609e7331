/* Where a push may go: https only, a host and no user info, and (unless
 * private targets are allowed) no loopback, private, link-local,
 * multicast or otherwise reserved address, as a literal or resolved. */
#include "harness.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include "push/push_target.h"

static bool parses(const char *url, bool allow_private) {
    push_target t;
    const char *why;
    return push_target_parse(url, allow_private, &t, &why);
}

static bool v4_public(const char *text) {
    struct sockaddr_in a = { .sin_family = AF_INET };
    return inet_pton(AF_INET, text, &a.sin_addr) == 1 && push_address_public((struct sockaddr *)&a);
}

static bool v6_public(const char *text) {
    struct sockaddr_in6 a = { .sin6_family = AF_INET6 };
    return inet_pton(AF_INET6, text, &a.sin6_addr) == 1 && push_address_public((struct sockaddr *)&a);
}

TEST(push_target_parse_and_origin) {
    push_target t;
    const char *why = NULL;
    CHECK(push_target_parse("https://fcm.googleapis.com/fcm/send/abc:def", false, &t, &why));
    CHECK_EQ_STR(t.host, "fcm.googleapis.com");
    CHECK_EQ_INT(t.port, 443);
    CHECK_EQ_STR(t.origin, "https://fcm.googleapis.com");
    CHECK(push_target_parse("https://push.example.net:8443/x?y=1", false, &t, &why));
    CHECK_EQ_STR(t.origin, "https://push.example.net:8443");
    CHECK(push_target_parse("https://[2606:4700::1]/wpush", false, &t, &why));
    CHECK_EQ_STR(t.host, "2606:4700::1");
    CHECK_EQ_STR(t.origin, "https://[2606:4700::1]");
    CHECK(!parses("http://push.example.net/x", true));
    CHECK(!parses("https://user:pw@push.example.net/x", true));
    CHECK(!parses("https:///x", true));
    CHECK(!parses("https://push.example.net:0/x", true));
    CHECK(!parses("https://push.example.net:99999/x", true));
    CHECK(!parses("https://push.exa mple.net/x", true));
    CHECK(!parses("https://push.example.net/x\n", true));
    CHECK(!parses("https://push_example.net/x", true));
    CHECK(!parses("https://[::1/x", true));
    /* Private literals: refused unless allowed. */
    const char *privates[] = { "127.0.0.1", "10.0.0.8", "172.20.1.1", "192.168.1.1", "169.254.169.254",
                               "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "[::1]",
                               "[fe80::1]", "[fd00::1]", "[::ffff:10.0.0.1]", "[ff02::1]", "localhost",
                               "a.localhost" };
    for (size_t i = 0; i < sizeof privates / sizeof privates[0]; i++) {
        char url[80];
        snprintf(url, sizeof url, "https://%s/x", privates[i]);
        CHECK(!parses(url, false));
        CHECK(parses(url, true));
    }
}

TEST(push_target_address_rule) {
    CHECK(v4_public("8.8.8.8"));
    CHECK(v4_public("172.32.0.1"));
    CHECK(v4_public("100.128.0.1"));
    CHECK(!v4_public("172.31.255.255"));
    CHECK(!v4_public("198.18.0.1"));
    CHECK(!v4_public("203.0.113.9"));
    CHECK(!v4_public("192.0.2.1"));
    CHECK(v6_public("2606:4700:4700::1111"));
    CHECK(!v6_public("::"));
    CHECK(!v6_public("2001:db8::1"));
    CHECK(!v6_public("2002:a00:1::1"));
    CHECK(!v6_public("::ffff:127.0.0.1"));
    CHECK(v6_public("::ffff:8.8.8.8"));
}

TEST(push_target_resolve_checks_the_answer) {
    push_target t;
    const char *why = NULL;
    char addr[64];
    CHECK(push_target_parse("https://localhost:8443/x", true, &t, &why));
    CHECK(!push_target_resolve(&t, false, addr, sizeof addr, &why)); /* resolves to loopback only */
    CHECK(push_target_resolve(&t, true, addr, sizeof addr, &why));
    CHECK(push_target_parse("https://127.0.0.1/x", true, &t, &why));
    CHECK(push_target_resolve(&t, true, addr, sizeof addr, &why));
    CHECK_EQ_STR(addr, "127.0.0.1");
}
