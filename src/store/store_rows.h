/* The persisted rows of the store described once: for each column of the
 * games and actions tables, its kind and where its field lives in the C
 * struct (store.h). Both backends write a row from its description
 * (store_row_values: the parameters of ST_INSERT_GAME and ST_APPEND) and
 * read one back into the struct from the columns of their SELECT
 * (store_row_fill), so a new persisted field is one line here, the
 * struct's field, and the schema and SQL texts of each backend. */
#ifndef PG_STORE_ROWS_H
#define PG_STORE_ROWS_H

#include "store/store_backend.h"

typedef enum {
    COL_CHARS,         /* a char array; written as it is ("" stays "") */
    COL_CHARS_OR_NULL, /* a char array; "" is written as NULL */
    COL_TEXT,          /* a malloc'd char *; NULL is written as NULL, read as "" */
    COL_INT,           /* an int */
    COL_INT64,         /* an int64_t */
    COL_FLAG,          /* an int, 0 or 1, written as a boolean */
    COL_HASH,          /* uint8_t[32]; all zero is written as NULL and read for NULL */
} store_column_kind;

typedef struct {
    const char *name; /* the column's name in both schemas */
    store_column_kind kind;
    size_t offset; /* of the field in the struct */
    size_t size;   /* of the field (the capacity of a char array) */
} store_column;

/* The games row: id, created_at_ms, mode, settings_json, options_json,
 * black_hash, white_hash, invite_hash, invite_color, rematch_id,
 * time_control_json, public, started_at_ms, then cancelled_at_ms, which
 * is read (as 0 for NULL) but never inserted (store_cancel_game sets it). */
enum { STORE_GAME_INSERTED = 13, STORE_GAME_COLUMNS = 14 };
extern const store_column store_game_columns[STORE_GAME_COLUMNS];

/* The actions row after its game_id: seq, kind, color, vertex, at_ms. */
enum { STORE_ACTION_COLUMNS = 5 };
extern const store_column store_action_columns[STORE_ACTION_COLUMNS];

/* The values of row's first n columns, in order (they point into row). */
void store_row_values(const store_column *cols, int n, const void *row, store_value *out);

/* Fills row's fields from the values of n columns as a backend read them:
 * a column of text as SV_TEXT or SV_NULL, of numbers as SV_INT (or
 * SV_TEXT of its digits), a hash as SV_BLOB or SV_NULL. False when out of
 * memory; the row's malloc'd fields filled so far are then the caller's to
 * free (store_game_free_fields). */
bool store_row_fill(const store_column *cols, int n, const store_value *values, void *row);

#endif
