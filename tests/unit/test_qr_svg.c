/* The QR SVG's shape, not its decoding (no decoder here): the viewBox is a
 * legal QR size plus the quiet zone, the three finder patterns sit where
 * they must, nothing is drawn in the quiet zone, the link's text does not
 * appear in the SVG, and empty or oversize texts are refused. */
#include "harness.h"

#include <stdlib.h>

#include "wire/qr_svg.h"

static const char *LINK = "https://go.example.org/g/k3v9x2m4qa#invite=f0a8c1d2e3b4a5968778695a4b3c2d1e";

/* The side of the viewBox ("0 0 N N"), or -1. */
static int svg_side(const char *svg) {
    int a, b;
    const char *vb = strstr(svg, "viewBox=\"0 0 ");
    if (!vb || sscanf(vb, "viewBox=\"0 0 %d %d\"", &a, &b) != 2 || a != b) return -1;
    return a;
}

/* Checks every run "Mx yhn" of the path lies inside the code; counts runs. */
static int count_runs_inside(const char *svg, int side) {
    const char *d = strstr(svg, " d=\"");
    if (!d) return -1;
    int runs = 0, x, y, n;
    for (const char *p = strchr(d + 4, 'M'); p; p = strchr(p + 1, 'M')) {
        if (sscanf(p, "M%d %dh%d", &x, &y, &n) != 3) return -1;
        if (x < 4 || y < 4 || n < 1 || x + n > side - 4 || y >= side - 4) return -1;
        runs++;
    }
    return runs;
}

TEST(qr_svg_structure_of_a_link) {
    char *svg = NULL;
    CHECK_EQ_INT(qr_svg_new(LINK, &svg), QR_SVG_OK);
    if (!svg) return;
    CHECK(strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 40) == 0);
    CHECK(strstr(svg, "shape-rendering=\"crispEdges\"") != NULL);
    CHECK(strstr(svg, "</svg>") != NULL);
    int side = svg_side(svg);
    int modules = side - 8; /* 4 modules of quiet zone each side */
    CHECK(modules >= 21 && modules <= 177 && (modules - 17) % 4 == 0);
    CHECK(count_runs_inside(svg, side) > 0);
    /* Finder patterns: the top row of each is a run of 7 at its corner. */
    char top_left[32], top_right[32], bottom_left[32];
    snprintf(top_left, sizeof top_left, "M4 4h7v1h-7z");
    snprintf(top_right, sizeof top_right, "M%d 4h7v1h-7z", side - 11);
    snprintf(bottom_left, sizeof bottom_left, "M4 %dh7v1h-7z", side - 11);
    CHECK(strstr(svg, top_left) != NULL);
    CHECK(strstr(svg, top_right) != NULL);
    CHECK(strstr(svg, bottom_left) != NULL);
    CHECK(strstr(svg, "k3v9x2m4qa") == NULL); /* the secret link is not in it */
    char *again = NULL;
    CHECK_EQ_INT(qr_svg_new(LINK, &again), QR_SVG_OK);
    CHECK(again && !strcmp(svg, again)); /* deterministic */
    free(again);
    free(svg);
}

TEST(qr_svg_grows_with_the_text_and_refuses_oversize) {
    char *small = NULL, *big = NULL, *huge = NULL;
    char text[3001];
    memset(text, 'x', 1024);
    text[1024] = '\0'; /* the API's limit: 1 KiB */
    CHECK_EQ_INT(qr_svg_new("a", &small), QR_SVG_OK);
    CHECK_EQ_INT(qr_svg_new(text, &big), QR_SVG_OK);
    if (small && big) {
        CHECK_EQ_INT(svg_side(small), 21 + 8); /* version 1 */
        CHECK(svg_side(big) > svg_side(small));
        CHECK(count_runs_inside(big, svg_side(big)) > 0);
    }
    memset(text, 'x', 3000);
    text[3000] = '\0';
    CHECK_EQ_INT(qr_svg_new(text, &huge), QR_SVG_TOO_LONG);
    CHECK(huge == NULL);
    CHECK_EQ_INT(qr_svg_new("", &huge), QR_SVG_EMPTY);
    CHECK(huge == NULL);
    CHECK(strstr(qr_svg_strerror(QR_SVG_TOO_LONG), "too long") != NULL);
    free(small);
    free(big);
}
