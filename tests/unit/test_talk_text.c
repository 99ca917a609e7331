/* The text rules of names and chat messages: what is kept and in which
 * form (NFC, spaces, trimming), every refusal with its position, and the
 * limits counted in characters, Korean and Russian included. */
#include "harness.h"

#include "wire/talk_text.h"

static char out[TALK_TEXT_MAX_BYTES];

/* out compared without CHECK_EQ_STR, whose message buffer is smaller. */
static void stored_is(const char *expect) {
    if (strcmp(out, expect) != 0) {
        fprintf(stderr, "    stored \"%.80s\", expected \"%.80s\"\n", out, expect);
        CHECK(!"the stored form differs");
    }
}

static talk_fault clean(talk_kind kind, const char *text, talk_verdict *v) {
    return talk_text_clean(kind, text, strlen(text), out, v);
}

static void keeps(talk_kind kind, const char *text, const char *stored) {
    talk_verdict v;
    talk_fault f = clean(kind, text, &v);
    if (f != TALK_OK) {
        char msg[300];
        talk_verdict_message("text", kind, &v, msg, sizeof msg);
        fprintf(stderr, "    refused: %s\n", msg);
    }
    CHECK_EQ_INT(f, TALK_OK);
    stored_is(stored);
}

static void refuses(talk_kind kind, const char *text, talk_fault fault, size_t at, uint32_t cp) {
    talk_verdict v;
    CHECK_EQ_INT(clean(kind, text, &v), fault);
    CHECK_EQ_INT(v.fault, fault);
    CHECK_EQ_INT(v.at, at);
    if (cp) CHECK_EQ_INT(v.code_point, cp);
    stored_is("");
}

TEST(talk_text_keeps_names_of_every_script) {
    keeps(TALK_NAME, "Alice", "Alice");
    keeps(TALK_NAME, "  Go Seigen  ", "Go Seigen");
    keeps(TALK_NAME, "Иван   Петров", "Иван Петров"); /* inner runs collapse in names */
    keeps(TALK_NAME, "이세돌", "이세돌");
    keeps(TALK_NAME, "O'Brien-Smith, Jr.", "O'Brien-Smith, Jr.");
    keeps(TALK_NAME, "7", "7");
    keeps(TALK_NAME,
          "\xe3\x80\x80"
          "本因坊\xc2\xa0秀策",
          "本因坊 秀策");                                           /* ideographic space, NBSP */
    keeps(TALK_NAME, "Zoe\xcc\x88", "Zo\xc3\xab");                  /* e + combining diaeresis -> NFC */
    keeps(TALK_NAME, "\xe1\x84\x92\xe1\x85\xa1\xe1\x86\xab", "한"); /* conjoining jamo compose */
}

TEST(talk_text_keeps_messages_with_symbols_and_emoji) {
    keeps(TALK_MESSAGE, "gg, well played! 5+3=8 $", "gg, well played! 5+3=8 $");
    keeps(TALK_MESSAGE, "  hello   there  ", "hello   there"); /* messages keep inner spaces */
    keeps(TALK_MESSAGE, "<script>alert(1)</script>",
          "<script>alert(1)</script>"); /* text, escaped by whoever shows it */
    keeps(TALK_MESSAGE, "\xe2\x9d\xa4\xef\xb8\x8f", "\xe2\x9d\xa4\xef\xb8\x8f"); /* heart + VS16 */
    keeps(TALK_MESSAGE, "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd",
          "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd"); /* thumbs up, skin tone */
    /* a family: man ZWJ woman ZWJ girl */
    keeps(TALK_MESSAGE, "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7",
          "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7");
    keeps(TALK_MESSAGE, "Спасибо за игру", "Спасибо за игру");
    keeps(TALK_MESSAGE, "잘 두셨습니다", "잘 두셨습니다");
}

TEST(talk_text_refuses_control_characters) {
    refuses(TALK_NAME, "Al\x07ice", TALK_CONTROL, 3, 0x07);
    refuses(TALK_MESSAGE, "line one\nline two", TALK_CONTROL, 9, 0x0A);
    refuses(TALK_MESSAGE, "tab\there", TALK_CONTROL, 4, 0x09);
    refuses(TALK_MESSAGE, "del\x7f", TALK_CONTROL, 4, 0x7F);
    refuses(TALK_MESSAGE, "c1 \xc2\x85", TALK_CONTROL, 4, 0x85);
    talk_verdict v; /* an embedded NUL is a control too */
    CHECK_EQ_INT(talk_text_clean(TALK_MESSAGE, "a\0b", 3, out, &v), TALK_CONTROL);
    CHECK_EQ_INT(v.at, 2);
}

TEST(talk_text_refuses_bidi_controls) {
    refuses(TALK_NAME, "abc\xe2\x80\xaetxt.exe", TALK_BIDI, 4, 0x202E);        /* RLO */
    refuses(TALK_MESSAGE, "\xe2\x80\x8fhi", TALK_BIDI, 1, 0x200F);             /* RLM */
    refuses(TALK_MESSAGE, "x\xe2\x81\xa6y\xe2\x81\xa9", TALK_BIDI, 2, 0x2066); /* LRI */
    refuses(TALK_MESSAGE,
            "a\xe2\x80\xaa"
            "b",
            TALK_BIDI, 2, 0x202A);                                                /* LRE */
    refuses(TALK_NAME, "\xd8\xb9\xd9\x84\xd9\x8a\xd8\x9c", TALK_BIDI, 4, 0x061C); /* Arabic letter mark */
    keeps(TALK_NAME, "\xd8\xb9\xd9\x84\xd9\x8a", "\xd8\xb9\xd9\x84\xd9\x8a");     /* Arabic itself is fine */
}

TEST(talk_text_refuses_invisible_characters) {
    refuses(TALK_NAME, "Al\xe2\x80\x8bice", TALK_INVISIBLE, 3, 0x200B); /* zero-width space */
    refuses(TALK_NAME, "\xe3\x85\xa4", TALK_INVISIBLE, 1, 0x3164);      /* Hangul filler */
    refuses(TALK_MESSAGE, "\xef\xbb\xbfhi", TALK_INVISIBLE, 1, 0xFEFF); /* BOM */
    refuses(TALK_MESSAGE, "soft\xc2\xadhyphen", TALK_INVISIBLE, 5, 0x00AD);
    refuses(TALK_MESSAGE,
            "a\xe2\x81\xa0"
            "b",
            TALK_INVISIBLE, 2, 0x2060); /* word joiner */
    refuses(TALK_MESSAGE,
            "a\xe2\x80\x8d"
            "b",
            TALK_INVISIBLE, 2, 0x200D); /* joiner between letters */
    refuses(TALK_NAME, "\xf0\x9f\x91\xa8\xe2\x80\x8d", TALK_SYMBOL, 1, 0x1F468);
    refuses(TALK_MESSAGE, "\xe2\xa0\x80", TALK_INVISIBLE, 1, 0x2800);          /* braille blank */
    refuses(TALK_MESSAGE, "\xef\xb8\x8fx", TALK_INVISIBLE, 1, 0xFE0F);         /* a selector on nothing */
    refuses(TALK_MESSAGE, "flag\xf3\xa0\x81\xa7", TALK_INVISIBLE, 5, 0xE0067); /* tag character */
}

TEST(talk_text_refuses_other_characters) {
    refuses(TALK_MESSAGE, "pua \xee\x80\x80", TALK_NOT_ALLOWED, 5, 0xE000);
    refuses(TALK_MESSAGE,
            "a\xe2\x80\xa8"
            "b",
            TALK_NOT_ALLOWED, 2, 0x2028);                               /* line separator */
    refuses(TALK_MESSAGE, "\xef\xbf\xbf", TALK_NOT_ALLOWED, 1, 0xFFFF); /* noncharacter */
    refuses(TALK_NAME, "<b>Bob</b>", TALK_SYMBOL, 1, '<');
    refuses(TALK_NAME, "Bob \xf0\x9f\x91\x8d", TALK_SYMBOL, 5, 0x1F44D);
    refuses(TALK_NAME,
            "\xcc\x88"
            "a",
            TALK_MARKS, 1, 0x308);                             /* a mark on nothing */
    refuses(TALK_MESSAGE, "a \xcc\x88", TALK_MARKS, 3, 0x308); /* on a space */
    refuses(TALK_MESSAGE, "Z\xcd\x91\xcd\x8b\xcd\x8c\xcd\x92\xcd\x93", TALK_MARKS, 6, 0x353); /* the fifth */
    keeps(TALK_MESSAGE, "Z\xcd\x91\xcd\x8b\xcd\x8c\xcd\x92", "Z\xcd\x91\xcd\x8b\xcd\x8c\xcd\x92");
}

TEST(talk_text_refuses_bad_utf8) {
    refuses(TALK_NAME, "ab\xff", TALK_BAD_UTF8, 3, 0);
    refuses(TALK_MESSAGE, "\xc0\xaf", TALK_BAD_UTF8, 1, 0);     /* overlong '/' */
    refuses(TALK_MESSAGE, "\xed\xa0\x80", TALK_BAD_UTF8, 1, 0); /* a surrogate */
    refuses(TALK_MESSAGE, "ok\xe2\x82", TALK_BAD_UTF8, 3, 0);   /* cut short */
}

TEST(talk_text_counts_characters_not_bytes) {
    char text[2000];
    memset(text, 'a', 300);
    text[300] = '\0';
    talk_verdict v;
    CHECK_EQ_INT(clean(TALK_MESSAGE, text, &v), TALK_OK);
    CHECK_EQ_INT(strlen(out), 300);
    text[300] = 'a';
    text[301] = '\0';
    CHECK_EQ_INT(clean(TALK_MESSAGE, text, &v), TALK_TOO_LONG);
    CHECK_EQ_INT(v.chars, 301);
    char msg[200];
    talk_verdict_message("text", TALK_MESSAGE, &v, msg, sizeof msg);
    CHECK_EQ_STR(msg, "text must be at most 300 characters (it has 301)");

    text[0] = '\0'; /* 300 Korean syllables: 900 bytes, fine */
    for (int i = 0; i < 300; i++) strcat(text, "한");
    CHECK_EQ_INT(clean(TALK_MESSAGE, text, &v), TALK_OK);
    strcat(text, "한");
    CHECK_EQ_INT(clean(TALK_MESSAGE, text, &v), TALK_TOO_LONG);

    text[0] = '\0'; /* 300 four-byte emoji: the most bytes */
    for (int i = 0; i < 300; i++) strcat(text, "\xf0\x9f\x8e\xb2");
    CHECK_EQ_INT(clean(TALK_MESSAGE, text, &v), TALK_OK);
    CHECK_EQ_INT(strlen(out), TALK_TEXT_MAX_BYTES - 1);

    text[0] = '\0';
    for (int i = 0; i < 32; i++) strcat(text, "Ж");
    CHECK_EQ_INT(clean(TALK_NAME, text, &v), TALK_OK);
    CHECK(strlen(out) < TALK_NAME_MAX_BYTES);
    strcat(text, "Ж");
    CHECK_EQ_INT(clean(TALK_NAME, text, &v), TALK_TOO_LONG);
    CHECK_EQ_INT(v.chars, 33);
    memset(text, ' ', 40); /* trimming happens before counting */
    memcpy(text + 40, "Bo", 3);
    CHECK_EQ_INT(clean(TALK_NAME, text, &v), TALK_OK);
    stored_is("Bo");
}

TEST(talk_text_refuses_empty_and_letterless) {
    refuses(TALK_NAME, "", TALK_EMPTY, 0, 0);
    refuses(TALK_NAME, "    ", TALK_EMPTY, 0, 0);
    refuses(TALK_MESSAGE, "\xe3\x80\x80 ", TALK_EMPTY, 0, 0);
    refuses(TALK_NAME, "...", TALK_NO_LETTER, 0, 0);
    keeps(TALK_MESSAGE, "...", "...");
    keeps(TALK_MESSAGE, "?", "?");
}

TEST(talk_text_names_faults_in_its_messages) {
    static const struct {
        const char *text;
        talk_kind kind;
        const char *code, *message;
    } cases[] = {
        { "Al\x07", TALK_NAME, "control", "name: character 3 (U+0007) is a control character" },
        { "a\xe2\x80\xae", TALK_MESSAGE, "bidi",
          "text: character 2 (U+202E) is a bidirectional control, which could disguise the text" },
        { "\xe2\x80\x8b", TALK_NAME, "invisible", "name: character 1 (U+200B) is an invisible character" },
        { "", TALK_NAME, "empty", "name must not be empty" },
        { "--", TALK_NAME, "no_letter", "name must contain a letter or a digit" },
        { "\xfe", TALK_MESSAGE, "bad_utf8", "text is not valid UTF-8 (at byte 1)" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        talk_verdict v;
        CHECK(clean(cases[i].kind, cases[i].text, &v) != TALK_OK);
        CHECK_EQ_STR(talk_fault_code(v.fault), cases[i].code);
        char msg[200];
        talk_verdict_message(cases[i].kind == TALK_NAME ? "name" : "text", cases[i].kind, &v, msg,
                             sizeof msg);
        CHECK_EQ_STR(msg, cases[i].message);
    }
    CHECK(talk_fault_code(TALK_OK) == NULL);
}
