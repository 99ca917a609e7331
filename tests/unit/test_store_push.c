/* Web Push in the store (SQLite): the key is kept once, whoever writes
 * first; a seat holds at most five subscriptions, renewing one is always
 * allowed; a notice is queued once per subscription and rank, never again
 * nor below a newer one; claiming takes a row once; retries and finishing
 * move it on; unsubscribing takes its rows with it. */
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "store/store_push.h"
#include "test_store_util.h"

static store_push_sub sub_of(int color, int i) {
    store_push_sub s;
    memset(&s, 0, sizeof s);
    s.color = color;
    snprintf(s.endpoint, sizeof s.endpoint, "https://push.example.net/send/%d-%d", color, i);
    memset(s.p256dh, 4, sizeof s.p256dh);
    memset(s.auth, 7, sizeof s.auth);
    snprintf(s.lang, sizeof s.lang, "en");
    return s;
}

static store_push_notice notice_of(int color, int64_t rank, bool skipped) {
    store_push_notice n = { .color = color,
                            .rank = rank,
                            .kind = "your_turn",
                            .payload_json = "{\"game\":\"pushgame0001\",\"kind\":\"your_turn\"}",
                            .high = true,
                            .skipped = skipped,
                            .at_ms = 1000 };
    return n;
}

static int count_due(store *st, int64_t now) {
    store_push_message *list = NULL;
    int n = -1;
    if (store_push_due(st, now, 100, &list, &n) != STORE_OK) return -1;
    store_push_messages_free(list, n);
    return n;
}

TEST(store_push_key_is_kept_once) {
    char dir[256];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    store *st = test_store_open(dir, "push.db");
    CHECK(st != NULL);
    if (!st) return;
    uint8_t priv[32], pub[65], a_priv[32], a_pub[65], b_priv[32], b_pub[65];
    CHECK_EQ_INT(store_push_key_get(st, priv, pub), STORE_NOT_FOUND);
    memset(a_priv, 1, 32), memset(a_pub, 2, 65), memset(b_priv, 3, 32), memset(b_pub, 4, 65);
    CHECK_EQ_INT(store_push_key_put(st, a_priv, a_pub), STORE_OK);
    CHECK_EQ_INT(store_push_key_put(st, b_priv, b_pub), STORE_OK); /* a second server's: kept out */
    CHECK_EQ_INT(store_push_key_get(st, priv, pub), STORE_OK);
    CHECK(!memcmp(priv, a_priv, 32) && !memcmp(pub, a_pub, 65));
    store_close(st);
    test_rmtree(dir);
}

TEST(store_push_subscriptions_outbox_and_sending) {
    char dir[256];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    store *st = test_store_open(dir, "push.db");
    CHECK(st != NULL);
    if (!st) return;
    store_game g = test_game("pushgame0001", "online");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);

    for (int i = 0; i < STORE_PUSH_PER_SEAT; i++) {
        store_push_sub s = sub_of(1, i);
        CHECK_EQ_INT(store_push_subscribe(st, "pushgame0001", &s), STORE_OK);
    }
    store_push_sub extra = sub_of(1, 99), renew = sub_of(1, 0), white = sub_of(2, 0);
    CHECK_EQ_INT(store_push_subscribe(st, "pushgame0001", &extra), STORE_CONFLICT);
    snprintf(renew.lang, sizeof renew.lang, "ko");
    CHECK_EQ_INT(store_push_subscribe(st, "pushgame0001", &renew), STORE_OK);
    CHECK_EQ_INT(store_push_subscribe(st, "pushgame0001", &white), STORE_OK);
    CHECK_EQ_INT(store_push_subscribe(st, "nosuchgame01", &white), STORE_NOT_FOUND);
    snprintf(white.lang, sizeof white.lang, "de");
    CHECK_EQ_INT(store_push_subscribe(st, "pushgame0001", &white), STORE_ERROR);
    int n = -1;
    CHECK_EQ_INT(store_push_count(st, "pushgame0001", 1, &n), STORE_OK);
    CHECK_EQ_INT(n, 5);

    /* Queued once per subscription and rank; not again, not below. */
    store_push_notice turn = notice_of(1, 10, false);
    CHECK_EQ_INT(store_push_enqueue(st, "pushgame0001", &turn), STORE_OK);
    CHECK_EQ_INT(store_push_enqueue(st, "pushgame0001", &turn), STORE_OK);
    store_push_notice older = notice_of(1, 9, false);
    CHECK_EQ_INT(store_push_enqueue(st, "pushgame0001", &older), STORE_OK);
    CHECK_EQ_INT(count_due(st, 999), 0); /* not due before its time */
    CHECK_EQ_INT(count_due(st, 1000), 5);
    int64_t next = 0;
    CHECK_EQ_INT(store_push_next_due(st, &next), STORE_OK);
    CHECK_EQ_INT(next, 1000);
    /* Skipped: recorded, never due, and it blocks the same rank. */
    store_push_notice seen = notice_of(2, 10, true);
    CHECK_EQ_INT(store_push_enqueue(st, "pushgame0001", &seen), STORE_OK);
    store_push_notice seen_again = notice_of(2, 10, false);
    CHECK_EQ_INT(store_push_enqueue(st, "pushgame0001", &seen_again), STORE_OK);
    CHECK_EQ_INT(count_due(st, 1000), 5);

    store_push_message *list = NULL;
    int count = 0;
    CHECK_EQ_INT(store_push_due(st, 1000, 100, &list, &count), STORE_OK);
    CHECK_EQ_INT(count, 5);
    if (count == 5) {
        const store_push_message *m = &list[0];
        CHECK_EQ_STR(m->game_id, "pushgame0001");
        CHECK_EQ_STR(m->kind, "your_turn");
        CHECK(m->high && m->color == 1 && m->attempts == 0);
        CHECK(m->p256dh[0] == 4 && m->auth[15] == 7);
        CHECK(!strcmp(m->lang, "ko") || !strcmp(m->lang, "en"));
        /* A claim takes it once; a retry moves it on; finishing ends it. */
        CHECK_EQ_INT(store_push_claim(st, m, 1000, 31000), STORE_OK);
        CHECK_EQ_INT(store_push_claim(st, m, 1000, 31000), STORE_CONFLICT);
        CHECK_EQ_INT(count_due(st, 1000), 4);
        CHECK_EQ_INT(store_push_retry(st, m, 5000), STORE_OK);
        CHECK_EQ_INT(count_due(st, 5000), 5);
        CHECK_EQ_INT(store_push_finish(st, &list[1], STORE_PUSH_SENT), STORE_OK);
        CHECK_EQ_INT(store_push_finish(st, &list[2], STORE_PUSH_FAILED), STORE_OK);
        CHECK_EQ_INT(count_due(st, 5000), 3);
        store_push_message *again = NULL;
        int again_n = 0;
        CHECK_EQ_INT(store_push_due(st, 5000, 100, &again, &again_n), STORE_OK);
        for (int i = 0; i < again_n; i++)
            if (again[i].id == m->id) CHECK_EQ_INT(again[i].attempts, 1);
        store_push_messages_free(again, again_n);
    }
    store_push_messages_free(list, count);

    /* A seat's unsubscribe takes its rows; the other seat's stay. */
    CHECK_EQ_INT(store_push_unsubscribe(st, "pushgame0001", 1, "https://push.example.net/send/1-3"), STORE_OK);
    CHECK_EQ_INT(store_push_unsubscribe(st, "pushgame0001", 1, "https://push.example.net/none"), STORE_OK);
    CHECK_EQ_INT(count_due(st, 5000), 2);
    CHECK_EQ_INT(store_push_unsubscribe(st, "pushgame0001", 1, NULL), STORE_OK);
    CHECK_EQ_INT(count_due(st, 5000), 0);
    CHECK_EQ_INT(store_push_count(st, "pushgame0001", 1, &n), STORE_OK);
    CHECK_EQ_INT(n, 0);
    CHECK_EQ_INT(store_push_count(st, "pushgame0001", 2, &n), STORE_OK);
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(store_push_next_due(st, &next), STORE_OK);
    CHECK(next == INT64_MAX);
    store_close(st);
    test_rmtree(dir);
}
