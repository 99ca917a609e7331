/* talk_text: the text rules of names and chat messages (see talk_text.h).
 *
 * Two passes. The first walks the text as typed, one code point at a time,
 * and refuses the first character that may not be shown, so the error can
 * name it and its position. The second normalizes what passed to NFC, turns
 * spaces into U+0020, trims (and for names collapses) them, and counts the
 * characters of that stored form against the kind's limit. Unicode's tables
 * come from libunistring (Debian's libunistring-dev), not from a copy here. */
#include "wire/talk_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

/* More combining marks than this on one base is "zalgo" text, built to
 * spill over the lines around it; real scripts need fewer. */
#define TALK_MAX_STACKED_MARKS 4

#define ZERO_WIDTH_JOINER 0x200D
#define BRAILLE_PATTERN_BLANK 0x2800 /* a symbol by category, blank to the eye */

const char *talk_fault_code(talk_fault f) {
    switch (f) {
    case TALK_EMPTY: return "empty";
    case TALK_TOO_LONG: return "too_long";
    case TALK_BAD_UTF8: return "bad_utf8";
    case TALK_CONTROL: return "control";
    case TALK_BIDI: return "bidi";
    case TALK_INVISIBLE: return "invisible";
    case TALK_SYMBOL: return "symbol";
    case TALK_NOT_ALLOWED: return "not_allowed";
    case TALK_MARKS: return "marks";
    case TALK_NO_LETTER: return "no_letter";
    case TALK_OK: break;
    }
    return NULL;
}

static bool is_space(ucs4_t uc) { return uc_is_general_category(uc, UC_CATEGORY_Zs); }

/* An emoji a joiner may link (ASCII digits and '#' count as emoji in
 * Unicode's table, but a joiner between them only hides something). */
static bool is_pictograph(ucs4_t uc) { return uc >= 0x80 && uc_is_property_emoji(uc); }

/* The walk's memory of what came before the current character. */
typedef struct {
    ucs4_t last_base; /* the latest character that is not a mark, selector or joiner; 0 at the start */
    int marks_in_row; /* combining marks on last_base so far */
} walk_state;

/* The fault of one character, given its neighbours; TALK_OK if it may stay. */
static talk_fault judge(talk_kind kind, ucs4_t uc, ucs4_t next, walk_state *w) {
    if (uc_is_general_category(uc, UC_CATEGORY_Cc)) return TALK_CONTROL;
    if (uc_is_property_bidi_control(uc)) return TALK_BIDI;
    if (uc_is_general_category(uc, UC_CATEGORY_Zl) || uc_is_general_category(uc, UC_CATEGORY_Zp) ||
        uc_is_general_category(uc, UC_CATEGORY_Co) || uc_is_general_category(uc, UC_CATEGORY_Cn) ||
        uc_is_general_category(uc, UC_CATEGORY_Cs))
        return TALK_NOT_ALLOWED;
    if (uc == ZERO_WIDTH_JOINER) {
        bool in_emoji = kind == TALK_MESSAGE && is_pictograph(w->last_base) && is_pictograph(next);
        return in_emoji ? TALK_OK : TALK_INVISIBLE;
    }
    if (uc_is_property_variation_selector(uc))
        return w->last_base && !is_space(w->last_base) ? TALK_OK : TALK_INVISIBLE;
    if (uc_is_property_default_ignorable_code_point(uc) || uc_is_general_category(uc, UC_CATEGORY_Cf) ||
        uc == BRAILLE_PATTERN_BLANK)
        return TALK_INVISIBLE;
    if (uc_is_general_category(uc, UC_CATEGORY_M)) {
        if (!w->last_base || is_space(w->last_base) || ++w->marks_in_row > TALK_MAX_STACKED_MARKS)
            return TALK_MARKS;
        return TALK_OK;
    }
    if (kind == TALK_NAME && uc_is_general_category(uc, UC_CATEGORY_S)) return TALK_SYMBOL;
    w->last_base = uc;
    w->marks_in_row = 0;
    return TALK_OK;
}

/* Pass one: the first character that may not be shown, if any. */
static talk_fault check_characters(talk_kind kind, const uint8_t *s, size_t len, talk_verdict *v) {
    const uint8_t *bad = u8_check(s, len);
    if (bad) {
        v->at = (size_t)(bad - s) + 1; /* a byte position: no character is there */
        return TALK_BAD_UTF8;
    }
    walk_state w = { 0, 0 };
    size_t at = 0;
    for (size_t i = 0; i < len;) {
        ucs4_t uc, next = 0;
        int n = u8_mbtouc(&uc, s + i, len - i);
        if (i + (size_t)n < len) u8_mbtouc(&next, s + i + n, len - i - n);
        at++;
        talk_fault f = judge(kind, uc, next, &w);
        if (f != TALK_OK) {
            v->at = at;
            v->code_point = uc;
            return f;
        }
        i += (size_t)n;
    }
    return TALK_OK;
}

/* Pass two, on the NFC text: spaces as U+0020, trimmed, collapsed in names.
 * Writes into dst (at least len + 1 bytes); returns the character count and
 * whether a letter or digit was seen. */
static size_t shape_spaces(talk_kind kind, const uint8_t *s, size_t len, char *dst, bool *has_letter) {
    size_t out = 0, chars = 0, pending_spaces = 0;
    *has_letter = false;
    for (size_t i = 0; i < len;) {
        ucs4_t uc;
        int n = u8_mbtouc(&uc, s + i, len - i);
        if (is_space(uc)) {
            if (chars > 0 && (kind == TALK_MESSAGE || pending_spaces == 0)) pending_spaces++;
        } else {
            for (; pending_spaces; pending_spaces--, chars++) dst[out++] = ' ';
            if (uc_is_general_category(uc, UC_CATEGORY_L) || uc_is_general_category(uc, UC_CATEGORY_N))
                *has_letter = true;
            memcpy(dst + out, s + i, (size_t)n);
            out += (size_t)n;
            chars++;
        }
        i += (size_t)n;
    }
    dst[out] = '\0';
    return chars;
}

talk_fault talk_text_clean(talk_kind kind, const char *in, size_t len, char out[TALK_TEXT_MAX_BYTES],
                           talk_verdict *why) {
    talk_verdict v = { TALK_OK, 0, 0, 0 };
    out[0] = '\0';
    const uint8_t *s = (const uint8_t *)in;
    v.fault = in ? check_characters(kind, s, len, &v) : TALK_EMPTY;
    size_t nfc_len = 0;
    uint8_t *nfc = NULL;
    char *shaped = NULL;
    if (v.fault == TALK_OK) {
        nfc = u8_normalize(UNINORM_NFC, s, len, NULL, &nfc_len);
        shaped = nfc ? malloc(nfc_len + 1) : NULL;
        if (!shaped) v.fault = TALK_TOO_LONG; /* out of memory: only an enormous text gets here */
    }
    if (v.fault == TALK_OK) {
        bool has_letter;
        v.chars = shape_spaces(kind, nfc, nfc_len, shaped, &has_letter);
        size_t max = kind == TALK_NAME ? TALK_NAME_MAX_CHARS : TALK_MESSAGE_MAX_CHARS;
        if (v.chars == 0) v.fault = TALK_EMPTY;
        else if (v.chars > max) v.fault = TALK_TOO_LONG;
        else if (kind == TALK_NAME && !has_letter) v.fault = TALK_NO_LETTER;
        else memcpy(out, shaped, strlen(shaped) + 1);
    }
    free(shaped);
    free(nfc);
    if (why) *why = v;
    return v.fault;
}

static const char *fault_phrase(talk_fault f) {
    switch (f) {
    case TALK_CONTROL: return "is a control character";
    case TALK_BIDI: return "is a bidirectional control, which could disguise the text";
    case TALK_INVISIBLE: return "is an invisible character";
    case TALK_SYMBOL: return "is a symbol; a name may hold letters, digits, spaces and punctuation";
    case TALK_NOT_ALLOWED: return "is not allowed (unassigned, private use or a line separator)";
    case TALK_MARKS: return "is a combining mark with no letter to sit on, or one too many";
    default: return "is not allowed";
    }
}

void talk_verdict_message(const char *field, talk_kind kind, const talk_verdict *v, char *buf, size_t cap) {
    size_t max = kind == TALK_NAME ? TALK_NAME_MAX_CHARS : TALK_MESSAGE_MAX_CHARS;
    switch (v->fault) {
    case TALK_OK: snprintf(buf, cap, "%s is fine", field); break;
    case TALK_EMPTY: snprintf(buf, cap, "%s must not be empty", field); break;
    case TALK_TOO_LONG:
        snprintf(buf, cap, "%s must be at most %zu characters (it has %zu)", field, max, v->chars);
        break;
    case TALK_BAD_UTF8: snprintf(buf, cap, "%s is not valid UTF-8 (at byte %zu)", field, v->at); break;
    case TALK_NO_LETTER: snprintf(buf, cap, "%s must contain a letter or a digit", field); break;
    default:
        snprintf(buf, cap, "%s: character %zu (U+%04X) %s", field, v->at, (unsigned)v->code_point,
                 fault_phrase(v->fault));
        break;
    }
}
