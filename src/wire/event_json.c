/* event_json: the wire names of the rules' words, and the refusal and end
 * lines (see event_json.h). */
#include "wire/event_json.h"

#include <stdbool.h>

#include "engine/color.h"

const char *illegal_reason_name(illegal_reason r) {
    switch (r) {
    case ILLEGAL_OCCUPIED: return "occupied";
    case ILLEGAL_SUICIDE: return "suicide";
    case ILLEGAL_KO: return "ko";
    case ILLEGAL_NONE: break;
    }
    return NULL;
}

const char *refusal_name(refusal r) {
    switch (r) {
    case REFUSE_NOT_YOUR_TURN: return "not_your_turn";
    case REFUSE_ALREADY_TRIED: return "already_tried";
    case REFUSE_OWN_STONE: return "own_stone";
    case REFUSE_BAD_VERTEX: return "bad_vertex";
    case REFUSE_GAME_OVER: return "game_over";
    case REFUSE_NONE: break;
    }
    return NULL;
}

const char *end_reason_name(end_reason r) {
    switch (r) {
    case END_PASSES: return "passes";
    case END_CAPTURE: return "capture";
    case END_RESIGN: return "resign";
    case END_TIMEOUT: return "timeout";
    case END_FORFEIT: return "forfeit";
    case END_NONE: break;
    }
    return NULL;
}

cJSON *event_json_refusal(refusal why) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    if (!cJSON_AddStringToObject(o, "result", "refused") ||
        !cJSON_AddStringToObject(o, "error", refusal_name(why))) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *event_json_result(const game_result *res) {
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    bool ok = cJSON_AddBoolToObject(o, "over", res->over) != NULL;
    if (ok && res->over) {
        const char *winner = color_letter(res->winner);
        ok = cJSON_AddStringToObject(o, "reason", end_reason_name(res->reason)) &&
             (winner ? cJSON_AddStringToObject(o, "winner", winner) != NULL
                     : cJSON_AddNullToObject(o, "winner") != NULL);
        if (ok && res->scored) {
            cJSON *score = cJSON_AddObjectToObject(o, "score");
            ok = score && cJSON_AddNumberToObject(score, "black", res->score_black_x2 / 2.0) &&
                 cJSON_AddNumberToObject(score, "white", res->score_white_x2 / 2.0);
        }
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}
