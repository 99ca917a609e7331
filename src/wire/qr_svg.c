/* qr_svg: see qr_svg.h. The path is built row by row: each run of dark
 * modules becomes "M x y h n v 1 h -n z" in module units, scaled by the
 * viewBox, which keeps the SVG small (an invite link gives about 5 KB, the
 * API's 1 KiB maximum text about 55 KB) and leaves no hairline gaps between
 * modules. Checked once by hand: rasterized, zbarimg reads the link back. */
#include "wire/qr_svg.h"

#include <errno.h>
#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QUIET_ZONE 4 /* modules of white around the code */
#define MODULE_PX 4  /* default rendered size of one module */

const char *qr_svg_strerror(qr_svg_status status) {
    switch (status) {
    case QR_SVG_OK: return "ok";
    case QR_SVG_EMPTY: return "the text is empty";
    case QR_SVG_TOO_LONG: return "the text is too long for a QR code";
    case QR_SVG_INVALID: return "the text cannot be encoded as a QR code";
    case QR_SVG_NO_MEMORY: return "out of memory";
    }
    return "unknown error";
}

/* Upper bound of the SVG size: header and footer plus, per run, at most
 * "M" + 3 digits + " " + 3 digits + "h" + 3 digits + "v1h-" + 3 digits + "z". */
static size_t svg_capacity(int width) {
    size_t runs = (size_t)width * (size_t)((width + 1) / 2);
    return 512 + runs * 24;
}

static int append_runs(char *p, const QRcode *qr) {
    int w = qr->width, len = 0;
    for (int y = 0; y < w; y++)
        for (int x = 0; x < w;) {
            if (!(qr->data[y * w + x] & 1)) {
                x++;
                continue;
            }
            int start = x;
            while (x < w && (qr->data[y * w + x] & 1)) x++;
            int n = x - start;
            len += sprintf(p + len, "M%d %dh%dv1h-%dz", start + QUIET_ZONE, y + QUIET_ZONE, n, n);
        }
    return len;
}

static char *draw(const QRcode *qr) {
    int side = qr->width + 2 * QUIET_ZONE;
    char *svg = malloc(svg_capacity(qr->width));
    if (!svg) return NULL;
    int len =
        sprintf(svg,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\""
                " shape-rendering=\"crispEdges\" role=\"img\" aria-label=\"QR code\">"
                "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/><path fill=\"#000\" d=\"",
                side, side, side * MODULE_PX, side * MODULE_PX, side, side);
    len += append_runs(svg + len, qr);
    strcpy(svg + len, "\"/></svg>\n");
    return svg;
}

qr_svg_status qr_svg_new(const char *text, char **out) {
    *out = NULL;
    if (!text || !*text) return QR_SVG_EMPTY;
    errno = 0;
    QRcode *qr = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!qr) return errno == ERANGE ? QR_SVG_TOO_LONG : errno == ENOMEM ? QR_SVG_NO_MEMORY : QR_SVG_INVALID;
    *out = draw(qr);
    QRcode_free(qr);
    return *out ? QR_SVG_OK : QR_SVG_NO_MEMORY;
}
