/* The group commit under load: many threads append to many games at once
 * (each game written by one thread, in order, as the server's per-game lock
 * guarantees) while another thread keeps reading. Every acknowledged action
 * must be there after a reopen, in order, and every read must see a gap-free
 * prefix of each game's log, never a half-applied batch. Duplicates
 * (retries of an acknowledged seq) mixed into the batches must fail alone. */
#include "harness.h"
#include "test_store_util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

enum { WRITERS = 24, GAMES_PER_WRITER = 3, ACTIONS_PER_GAME = 20 };

struct writer_arg {
    store *st;
    int index;
    int failures;
};

static void game_id_of(char *id, int writer, int game) {
    snprintf(id, 24, "conc%02dgame%d", writer % 100, game % 10);
}

static const char *vertex_of(int writer, int game, int seq) {
    static const char *const points[] = { "A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8", "J9" };
    return points[(writer + game + seq) % 9];
}

static void *append_many(void *p) {
    struct writer_arg *w = p;
    for (int seq = 1; seq <= ACTIONS_PER_GAME; seq++)
        for (int game = 0; game < GAMES_PER_WRITER; game++) {
            char id[24];
            game_id_of(id, w->index, game);
            store_action a = test_action(seq, "attempt", 2 - seq % 2, vertex_of(w->index, game, seq));
            if (store_append_action(w->st, id, &a) != STORE_OK) w->failures++;
            /* A retried duplicate now and then, in a batch with others'
             * good writes: it alone must fail. */
            store_action dup = test_action(seq, "pass", 2 - seq % 2, "");
            if ((seq + game) % 4 == 0 && store_append_action(w->st, id, &dup) != STORE_CONFLICT)
                w->failures++;
        }
    return NULL;
}

struct reader_arg {
    store *st;
    atomic_int *stop;
    int reads, bad_prefixes;
};

static void *read_while_writing(void *p) {
    struct reader_arg *r = p;
    for (int i = 0; !atomic_load(r->stop); i++) {
        char id[24];
        game_id_of(id, i % WRITERS, i % GAMES_PER_WRITER);
        store_game g;
        store_action *list = NULL;
        int n = 0;
        if (store_load_game(r->st, id, &g, &list, &n) != STORE_OK) {
            r->bad_prefixes++;
            continue;
        }
        for (int k = 0; k < n; k++)
            if (list[k].seq != k + 1) r->bad_prefixes++;
        free(list);
        store_game_free_fields(&g);
        r->reads++;
    }
    return NULL;
}

static int verify_all_games(store *st) {
    int bad = 0;
    for (int w = 0; w < WRITERS; w++)
        for (int game = 0; game < GAMES_PER_WRITER; game++) {
            char id[24];
            game_id_of(id, w, game);
            store_game g;
            store_action *list = NULL;
            int n = 0;
            if (store_load_game(st, id, &g, &list, &n) != STORE_OK) {
                bad++;
                continue;
            }
            bad += n != ACTIONS_PER_GAME;
            for (int k = 0; k < n; k++)
                bad += list[k].seq != k + 1 || list[k].color != 2 - (k + 1) % 2 ||
                       strcmp(list[k].vertex, vertex_of(w, game, k + 1)) != 0;
            free(list);
            store_game_free_fields(&g);
        }
    return bad;
}

TEST(store_many_threads_append_to_many_games) {
    char dir[256];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    store *st = test_store_open(dir, "games.db");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    for (int w = 0; w < WRITERS; w++)
        for (int game = 0; game < GAMES_PER_WRITER; game++) {
            char id[24];
            game_id_of(id, w, game);
            store_game g = test_game(id, "online");
            CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
        }

    atomic_int stop = 0;
    struct reader_arg reader = { .st = st, .stop = &stop };
    pthread_t reader_thread, threads[WRITERS];
    struct writer_arg args[WRITERS];
    CHECK(pthread_create(&reader_thread, NULL, read_while_writing, &reader) == 0);
    for (int w = 0; w < WRITERS; w++) {
        args[w] = (struct writer_arg){ .st = st, .index = w };
        CHECK(pthread_create(&threads[w], NULL, append_many, &args[w]) == 0);
    }
    for (int w = 0; w < WRITERS; w++) {
        pthread_join(threads[w], NULL);
        CHECK_EQ_INT(args[w].failures, 0);
    }
    atomic_store(&stop, 1);
    pthread_join(reader_thread, NULL);
    CHECK_EQ_INT(reader.bad_prefixes, 0);
    CHECK(reader.reads > 0);
    CHECK_EQ_INT(verify_all_games(st), 0);
    store_close(st);

    st = test_store_open(dir, "games.db");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    CHECK_EQ_INT(verify_all_games(st), 0);
    store_close(st);
    test_rmtree(dir);
}
