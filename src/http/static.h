/* static: the browser application's files. Pages (/ -> web/index.html,
 * /rules -> web/rules.html, /g/{id} -> web/game.html) and the files under
 * /web/ and /static/, with their content types and caching headers (ETag
 * and Last-Modified for revalidation; Cache-Control "no-cache" for the
 * application, a day for static/ media). Never a directory listing, never
 * a file outside web/ and static/: names are checked segment by segment
 * and the resolved real path must stay inside its directory. A path that
 * names nothing answers 404 with web/not-found.html to a browser's
 * navigation (Accept: text/html) and a plain line to anything else.
 * One file lies outside them: /vendor/qrcode.js is the QR code library of
 * a Debian package, at the one path the configuration names (--qrcode-js),
 * 503 naming the package when it is missing. */
#ifndef PG_HTTP_STATIC_H
#define PG_HTTP_STATIC_H

#include "http/http_reply.h"

/* Answers rq (a page, a file, 404 or 405). */
void static_handle(http_request *rq);

#endif
