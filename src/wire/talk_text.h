/* talk_text: the text rules of table talk, for players' display names and
 * chat messages. One function checks a text a person typed and, if it may be
 * shown to others, gives it back in the one form the server stores.
 *
 * Why so strict: a name or a message is shown to other people beside the
 * board, so it must not be able to disguise itself or anything around it.
 * Refused: bytes that are not UTF-8, control characters (newlines too: a
 * message is one line), bidirectional controls (an override can make
 * "ok.sgf" read as something else), invisible characters (zero-width
 * spaces, joiners outside emoji, fillers that look like nothing),
 * unassigned and private-use code points, and towers of combining marks.
 * Names hold letters, marks, digits, spaces and punctuation, with at least
 * one letter or digit; messages may also hold symbols and emoji (a joiner
 * between two emoji and a variation selector after a visible character are
 * kept: phone keyboards type them).
 *
 * The stored form is NFC (so one letter is one character however it was
 * typed), every Unicode space turned into U+0020, trimmed at both ends; a
 * name's inner runs of spaces become one. Lengths count characters (code
 * points) of that form: names 1 to 32, messages 1 to 300.
 *
 * Pure: no I/O, no allocation visible to the caller (libunistring
 * classifies the characters and normalizes). */
#ifndef PG_WIRE_TALK_TEXT_H
#define PG_WIRE_TALK_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define TALK_NAME_MAX_CHARS 32
#define TALK_MESSAGE_MAX_CHARS 300
/* Room for the longest stored text (4 bytes a character) and its NUL. */
#define TALK_TEXT_MAX_BYTES (TALK_MESSAGE_MAX_CHARS * 4 + 1)
#define TALK_NAME_MAX_BYTES (TALK_NAME_MAX_CHARS * 4 + 1)

typedef enum { TALK_NAME, TALK_MESSAGE } talk_kind;

typedef enum {
    TALK_OK = 0,
    TALK_EMPTY,       /* nothing left after trimming */
    TALK_TOO_LONG,    /* more characters than the kind allows */
    TALK_BAD_UTF8,    /* not valid UTF-8 */
    TALK_CONTROL,     /* a control character (C0 with NUL and newlines, DEL, C1) */
    TALK_BIDI,        /* a bidirectional control: marks, embeddings, overrides, isolates */
    TALK_INVISIBLE,   /* a character that shows nothing: zero-width, fillers, tags */
    TALK_SYMBOL,      /* a symbol or emoji in a name */
    TALK_NOT_ALLOWED, /* unassigned, private use, line/paragraph separator, noncharacter */
    TALK_MARKS,       /* a combining mark with nothing to sit on, or more than 4 stacked */
    TALK_NO_LETTER    /* a name of punctuation and spaces only */
} talk_fault;

/* What was wrong and where: `at` is the 1-based character position in the
 * input (for TALK_BAD_UTF8 the 1-based byte position; 0 when the fault is
 * not one character's), `code_point` that character, `chars` the length of
 * the cleaned text (for TALK_TOO_LONG). */
typedef struct {
    talk_fault fault;
    size_t at;
    uint32_t code_point;
    size_t chars;
} talk_verdict;

/* Checks `len` bytes of `in` as a text of `kind`. On TALK_OK writes the
 * stored form, NUL-terminated, into out (TALK_TEXT_MAX_BYTES bytes; a name
 * fits in TALK_NAME_MAX_BYTES). On a fault out holds "" and *why (if not
 * NULL) says what and where. */
talk_fault talk_text_clean(talk_kind kind, const char *in, size_t len, char out[TALK_TEXT_MAX_BYTES],
                           talk_verdict *why);

/* The fault's wire name: "empty", "too_long", "bad_utf8", "control", "bidi",
 * "invisible", "symbol", "not_allowed", "marks", "no_letter"; NULL for
 * TALK_OK. */
const char *talk_fault_code(talk_fault f);

/* One English sentence for an API error, naming the field ("name",
 * "text") and the character, e.g. "text: character 3 (U+202E) is a
 * bidirectional control, which could disguise the text". */
void talk_verdict_message(const char *field, talk_kind kind, const talk_verdict *v, char *buf, size_t cap);

#endif
