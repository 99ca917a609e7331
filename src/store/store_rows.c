/* The descriptions of the games and actions rows (store_rows.h), and
 * turning a row into values and values into a row, for both backends. */
#include "store/store_rows.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLUMN(type, field, name, kind) \
    { name, kind, offsetof(type, field), sizeof(((type *)0)->field) }

const store_column store_game_columns[STORE_GAME_COLUMNS] = {
    COLUMN(store_game, id, "id", COL_CHARS),
    COLUMN(store_game, created_at_ms, "created_at_ms", COL_INT64),
    COLUMN(store_game, mode, "mode", COL_CHARS),
    COLUMN(store_game, settings_json, "settings_json", COL_TEXT),
    COLUMN(store_game, options_json, "options_json", COL_TEXT),
    COLUMN(store_game, seat_hash[0], "black_hash", COL_HASH),
    COLUMN(store_game, seat_hash[1], "white_hash", COL_HASH),
    COLUMN(store_game, invite_hash, "invite_hash", COL_HASH),
    COLUMN(store_game, invite_color, "invite_color", COL_INT),
    COLUMN(store_game, rematch_id, "rematch_id", COL_CHARS_OR_NULL),
    COLUMN(store_game, time_control_json, "time_control_json", COL_TEXT),
    COLUMN(store_game, is_public, "public", COL_FLAG),
    COLUMN(store_game, started_at_ms, "started_at_ms", COL_INT64),
    COLUMN(store_game, cancelled_at_ms, "cancelled_at_ms", COL_INT64),
};

const store_column store_action_columns[STORE_ACTION_COLUMNS] = {
    COLUMN(store_action, seq, "seq", COL_INT),       COLUMN(store_action, kind, "kind", COL_CHARS),
    COLUMN(store_action, color, "color", COL_INT),   COLUMN(store_action, vertex, "vertex", COL_CHARS),
    COLUMN(store_action, at_ms, "at_ms", COL_INT64),
};

static bool is_zero(const uint8_t *bytes, size_t n) {
    uint8_t any = 0;
    for (size_t i = 0; i < n; i++) any |= bytes[i];
    return any == 0;
}

static store_value column_value(const store_column *c, const char *field) {
    switch (c->kind) {
    case COL_CHARS: return sv_text(field);
    case COL_CHARS_OR_NULL: return sv_text(*field ? field : NULL);
    case COL_TEXT: return sv_text(*(char *const *)field);
    case COL_INT: return sv_int(*(const int *)field);
    case COL_INT64: return sv_int(*(const int64_t *)field);
    case COL_FLAG: return sv_bool(*(const int *)field != 0);
    case COL_HASH: return is_zero((const uint8_t *)field, 32) ? sv_null() : sv_blob(field, 32);
    }
    return sv_null();
}

void store_row_values(const store_column *cols, int n, const void *row, store_value *out) {
    for (int i = 0; i < n; i++) out[i] = column_value(&cols[i], (const char *)row + cols[i].offset);
}

static int64_t number_of(const store_value *v) {
    if (v->kind == SV_INT || v->kind == SV_BOOL) return v->i;
    return v->kind == SV_TEXT && v->p ? strtoll(v->p, NULL, 10) : 0;
}

static const char *text_of(const store_value *v) { return v->kind == SV_TEXT && v->p ? v->p : ""; }

bool store_row_fill(const store_column *cols, int n, const store_value *values, void *row) {
    bool ok = true;
    for (int i = 0; i < n; i++) {
        const store_column *c = &cols[i];
        char *field = (char *)row + c->offset;
        const store_value *v = &values[i];
        switch (c->kind) {
        case COL_CHARS:
        case COL_CHARS_OR_NULL: snprintf(field, c->size, "%s", text_of(v)); break;
        case COL_TEXT: ok &= (*(char **)field = strdup(text_of(v))) != NULL; break;
        case COL_INT:
        case COL_FLAG: *(int *)field = (int)number_of(v); break;
        case COL_INT64: *(int64_t *)field = number_of(v); break;
        case COL_HASH:
            if (v->kind == SV_BLOB && v->len == 32) memcpy(field, v->p, 32);
            else memset(field, 0, 32);
            break;
        }
    }
    return ok;
}
