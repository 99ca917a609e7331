/* push_target: where a push may be sent. A browser hands the server an
 * endpoint URL; the server will POST to it, so the URL is a request the
 * server makes on a stranger's behalf. It must be https, name a host
 * (a DNS name or an IP literal) and, unless the operator allows private
 * targets (--push-allow-private, for tests and closed networks), that host
 * must not be or resolve to a loopback, private, link-local, multicast,
 * unspecified or otherwise reserved address. The check runs when the
 * subscription arrives (the literal) and again before each send (what the
 * name resolves to then; the sender connects to the address it checked,
 * so a name cannot change its answer in between). */
#ifndef PG_PUSH_TARGET_H
#define PG_PUSH_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define PUSH_HOST_BYTES 256
#define PUSH_ORIGIN_BYTES 300

typedef struct {
    char host[PUSH_HOST_BYTES];     /* without brackets for IPv6 */
    int port;                       /* 443 unless given */
    char origin[PUSH_ORIGIN_BYTES]; /* "https://host[:port]": the VAPID audience */
} push_target;

/* Parses and checks an endpoint URL (at most 1024 bytes, no whitespace or
 * control characters, https, a host, no user info). An IP literal host is
 * checked against the address rule unless allow_private. False with a
 * short reason in why (a static string) otherwise. */
bool push_target_parse(const char *url, bool allow_private, push_target *out, const char **why);

/* True when sa is an address a push may go to: public unicast only. */
bool push_address_public(const struct sockaddr *sa);

/* Resolves t's host and picks its first address that is allowed (any
 * address with allow_private), written as text into addr (for curl's
 * CURLOPT_RESOLVE). False when it does not resolve or every address is
 * refused, with the reason in why. */
bool push_target_resolve(const push_target *t, bool allow_private, char *addr, size_t cap, const char **why);

#endif
