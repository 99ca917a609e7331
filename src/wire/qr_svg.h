/* qr_svg: a text (an invite or watch link) as a QR code in SVG, so a phone
 * can join a game by pointing its camera at the screen.
 *
 * Encoding is Debian's libqrencode (error correction level M, the usual
 * compromise between size and damage tolerance); this file only draws: one
 * <path> of horizontal runs of dark modules on a white square, with the
 * 4-module quiet zone the QR standard asks for, and crisp edges. The text
 * itself never appears in the SVG (links carry secrets). */
#ifndef PG_WIRE_QR_SVG_H
#define PG_WIRE_QR_SVG_H

typedef enum {
    QR_SVG_OK = 0,
    QR_SVG_EMPTY,    /* no text */
    QR_SVG_TOO_LONG, /* more than a version-40 code holds at level M */
    QR_SVG_INVALID,  /* libqrencode refused the text for another reason */
    QR_SVG_NO_MEMORY
} qr_svg_status;

/* The SVG document of text's QR code (malloc'd, the caller frees) in *out,
 * or NULL with the reason returned. Each module is 4 user units; the svg
 * has a viewBox, so CSS may scale it. */
qr_svg_status qr_svg_new(const char *text, char **out);

/* A short English message for a status, fit for an error answer. */
const char *qr_svg_strerror(qr_svg_status status);

#endif
