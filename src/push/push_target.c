/* push_target: parsing an endpoint URL and the address rule (see
 * push_target.h). The rule follows the IANA special-purpose registries:
 * everything that is not plain public unicast is refused. */
#include "push/push_target.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool v4_public(uint32_t a) {
    uint8_t b0 = (uint8_t)(a >> 24), b1 = (uint8_t)(a >> 16);
    if (b0 == 0 || b0 == 10 || b0 == 127 || b0 >= 224) return false; /* this network, private, loopback,
                                                                         multicast, reserved, broadcast */
    if (b0 == 100 && (b1 & 0xc0) == 64) return false;               /* 100.64/10 shared (CGN) */
    if (b0 == 169 && b1 == 254) return false;                       /* link-local */
    if (b0 == 172 && (b1 & 0xf0) == 16) return false;               /* 172.16/12 */
    if (b0 == 192 && b1 == 168) return false;                       /* 192.168/16 */
    if (b0 == 192 && b1 == 0 && (uint8_t)(a >> 8) == 0) return false; /* 192.0.0/24 protocol assignments */
    if (b0 == 192 && b1 == 0 && (uint8_t)(a >> 8) == 2) return false; /* TEST-NET-1 */
    if (b0 == 198 && (b1 & 0xfe) == 18) return false;               /* 198.18/15 benchmarking */
    if (b0 == 198 && b1 == 51 && (uint8_t)(a >> 8) == 100) return false; /* TEST-NET-2 */
    if (b0 == 203 && b1 == 0 && (uint8_t)(a >> 8) == 113) return false;  /* TEST-NET-3 */
    return true;
}

static bool v6_public(const uint8_t *b) {
    static const uint8_t zero[16];
    if (!memcmp(b, zero, 15) && (b[15] == 0 || b[15] == 1)) return false; /* :: and ::1 */
    static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
    if (!memcmp(b, mapped, 12))
        return v4_public((uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 | (uint32_t)b[14] << 8 | b[15]);
    if (b[0] == 0xff) return false;                      /* multicast */
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return false; /* fe80::/10 link-local */
    if ((b[0] & 0xfe) == 0xfc) return false;             /* fc00::/7 unique local */
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) return false; /* documentation */
    if (b[0] == 0x00 || b[0] == 0x01) return false;      /* ::/8 (v4-compatible, NAT64 well-known...), 100::/64 */
    if (b[0] == 0x20 && b[1] == 0x02) return false;      /* 6to4: an IPv4 address in disguise */
    if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) return false; /* Teredo */
    return true;
}

bool push_address_public(const struct sockaddr *sa) {
    if (!sa) return false;
    if (sa->sa_family == AF_INET) return v4_public(ntohl(((const struct sockaddr_in *)(const void *)sa)->sin_addr.s_addr));
    if (sa->sa_family == AF_INET6) return v6_public(((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr.s6_addr);
    return false;
}

/* A host literal's address rule; hosts that are names pass here (they are
 * checked when resolved). */
static bool literal_allowed(const char *host) {
    struct sockaddr_in v4 = { .sin_family = AF_INET };
    struct sockaddr_in6 v6 = { .sin6_family = AF_INET6 };
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) return push_address_public((struct sockaddr *)&v4);
    if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) return push_address_public((struct sockaddr *)&v6);
    /* Names that always mean this machine. */
    size_t n = strlen(host);
    if (!strcasecmp(host, "localhost") || (n > 10 && !strcasecmp(host + n - 10, ".localhost"))) return false;
    return true;
}

static bool host_char_ok(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

bool push_target_parse(const char *url, bool allow_private, push_target *out, const char **why) {
    static const char scheme[] = "https://";
    *why = "endpoint must be an https URL";
    memset(out, 0, sizeof *out);
    if (!url || strlen(url) > 1024 || strncmp(url, scheme, sizeof scheme - 1) != 0) return false;
    for (const char *p = url; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 127 || *p == '\\') {
            *why = "endpoint holds a space or control character";
            return false;
        }
    const char *h = url + sizeof scheme - 1, *end = h + strcspn(h, "/?#");
    if (memchr(h, '@', (size_t)(end - h))) {
        *why = "endpoint may not hold user information";
        return false;
    }
    const char *host_end = end, *port_at = NULL;
    if (*h == '[') {
        const char *close = memchr(h, ']', (size_t)(end - h));
        if (!close) return false;
        h++;
        host_end = close;
        if (close + 1 < end) {
            if (close[1] != ':') return false;
            port_at = close + 2;
        }
    } else {
        const char *colon = memchr(h, ':', (size_t)(end - h));
        if (colon) {
            host_end = colon;
            port_at = colon + 1;
        }
        for (const char *p = h; p < host_end; p++)
            if (!host_char_ok(*p)) return false;
    }
    size_t hlen = (size_t)(host_end - h);
    if (hlen == 0 || hlen >= sizeof out->host) return false;
    memcpy(out->host, h, hlen);
    out->port = 443;
    if (port_at) {
        char *stop;
        long port = strtol(port_at, &stop, 10);
        if (stop != end || port_at == end || port < 1 || port > 65535) {
            *why = "endpoint has a bad port";
            return false;
        }
        out->port = (int)port;
    }
    bool v6 = strchr(out->host, ':') != NULL;
    if (v6) {
        struct in6_addr a;
        if (inet_pton(AF_INET6, out->host, &a) != 1) return false;
    }
    if (!allow_private && !literal_allowed(out->host)) {
        *why = "endpoint host is a loopback, private, link-local or multicast address";
        return false;
    }
    if (out->port == 443) snprintf(out->origin, sizeof out->origin, "https://%s%s%s", v6 ? "[" : "", out->host, v6 ? "]" : "");
    else snprintf(out->origin, sizeof out->origin, "https://%s%s%s:%d", v6 ? "[" : "", out->host, v6 ? "]" : "", out->port);
    *why = NULL;
    return true;
}

bool push_target_resolve(const push_target *t, bool allow_private, char *addr, size_t cap, const char **why) {
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *list = NULL;
    char port[8];
    snprintf(port, sizeof port, "%d", t->port);
    if (getaddrinfo(t->host, port, &hints, &list) != 0 || !list) {
        *why = "the endpoint's host does not resolve";
        return false;
    }
    bool found = false;
    for (struct addrinfo *ai = list; ai && !found; ai = ai->ai_next) {
        if (!allow_private && !push_address_public(ai->ai_addr)) continue;
        const void *a = ai->ai_family == AF_INET ? (const void *)&((struct sockaddr_in *)(void *)ai->ai_addr)->sin_addr
                                                 : (const void *)&((struct sockaddr_in6 *)(void *)ai->ai_addr)->sin6_addr;
        found = inet_ntop(ai->ai_family, a, addr, (socklen_t)cap) != NULL;
    }
    freeaddrinfo(list);
    if (!found) *why = "the endpoint's host resolves only to refused addresses";
    return found;
}
