/* The version (the VERSION file) and the commit of this build, shown by
 * `phantomgo --version`, GET /api/health and the AP property of SGF files.
 * Both live in one object the Makefile generates (build/gen/version.c) and
 * rewrites only when they change, so every user shows the same, current
 * commit and a new commit recompiles that one file, nothing else. */
#ifndef PG_VERSION_H
#define PG_VERSION_H

extern const char pg_version[];
extern const char pg_commit[];

#endif
