/* Schema creation and versioning: a new or empty file gets schema.sql and
 * the latest user_version (6); reopening changes nothing; a database from a
 * newer binary, a foreign SQLite file, a file that is not a database, a missing or
 * inconsistent schema.sql are all refused with a message, and a refused
 * creation leaves the file empty so a correct retry works.
 *
 * The version is read from the file header (bytes 60..63, big-endian) after
 * store_close, which checkpoints the WAL into the main file; the tests edit
 * that same field to fake other versions, so they need no SQLite of their
 * own (SQLite is the store's alone). */
#include "harness.h"
#include "test_store_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#define USER_VERSION_OFFSET 60

static int read_user_version(const char *path) {
    unsigned char b[4] = { 0 };
    int fd = open(path, O_RDONLY);
    if (fd < 0 || pread(fd, b, 4, USER_VERSION_OFFSET) != 4) {
        if (fd >= 0) close(fd);
        return -1;
    }
    close(fd);
    return b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3];
}

static int write_user_version(const char *path, int version) {
    unsigned char b[4] = { version >> 24 & 0xff, version >> 16 & 0xff, version >> 8 & 0xff, version & 0xff };
    int fd = open(path, O_WRONLY);
    if (fd < 0) return -1;
    int ok = pwrite(fd, b, 4, USER_VERSION_OFFSET) == 4;
    close(fd);
    return ok ? 0 : -1;
}

static int write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fputs(text, f);
    return fclose(f);
}

static int open_with(const char *db, const char *schema, char *err, size_t errlen) {
    store *st = NULL;
    int code = store_open(&st, db, schema, err, errlen);
    store_close(st);
    return code;
}

TEST(store_migrates_empty_file_and_reopens_idempotently) {
    char dir[256], db[300];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    snprintf(db, sizeof db, "%s/games.db", dir);
    CHECK(write_file(db, "") == 0); /* an empty file, as `touch` makes */
    store *st = test_store_open(dir, "games.db");
    if (!st) {
        CHECK(st != NULL);
        return;
    }
    store_game g = test_game("migrategame", "online");
    CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
    store_close(st);
    CHECK_EQ_INT(read_user_version(db), 6);
    for (int i = 0; i < 2; i++) {
        st = test_store_open(dir, "games.db");
        if (!st) {
            CHECK(st != NULL);
            return;
        }
        store_game back;
        CHECK_EQ_INT(store_load_game(st, "migrategame", &back, NULL, NULL), STORE_OK);
        store_game_free_fields(&back);
        store_close(st);
        CHECK_EQ_INT(read_user_version(db), 6);
    }
    test_rmtree(dir);
}

TEST(store_creates_missing_file_and_directory) {
    char dir[256], db[300];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    snprintf(db, sizeof db, "%s/data/phantomgo.db", dir);
    char err[256];
    CHECK_EQ_INT(open_with(db, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);
    CHECK_EQ_INT(read_user_version(db), 6);
    struct stat sb; /* it holds hidden stones: owner only */
    CHECK(stat(db, &sb) == 0 && (sb.st_mode & 0777) == 0600);
    test_rmtree(dir);
}

TEST(store_refuses_newer_and_foreign_databases) {
    char dir[256], db[300], err[256];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    snprintf(db, sizeof db, "%s/games.db", dir);
    CHECK_EQ_INT(open_with(db, TEST_SCHEMA_PATH, err, sizeof err), STORE_OK);

    CHECK(write_user_version(db, 99) == 0);
    CHECK_EQ_INT(open_with(db, TEST_SCHEMA_PATH, err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "newer") != NULL);
    CHECK_EQ_INT(read_user_version(db), 99); /* left as it was */

    CHECK(write_user_version(db, 0) == 0); /* tables but no version */
    CHECK_EQ_INT(open_with(db, TEST_SCHEMA_PATH, err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "not a Phantom Go database") != NULL);

    CHECK(write_file(db, "this is not an SQLite database, just text long enough to have a header....."
                         "..............................................................") == 0);
    CHECK_EQ_INT(open_with(db, TEST_SCHEMA_PATH, err, sizeof err), STORE_ERROR);
    CHECK(err[0] != '\0');
    test_rmtree(dir);
}

TEST(store_refused_schema_leaves_the_file_empty) {
    char dir[256], db[300], bad_schema[300], err[256];
    CHECK(test_tmpdir(dir, sizeof dir) == 0);
    snprintf(db, sizeof db, "%s/games.db", dir);
    snprintf(bad_schema, sizeof bad_schema, "%s/old-schema.sql", dir);

    CHECK_EQ_INT(open_with(db, "/nonexistent/schema.sql", err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "/nonexistent/schema.sql") != NULL);

    CHECK(write_file(bad_schema, "CREATE TABLE games (id TEXT); PRAGMA user_version = 7;") == 0);
    CHECK_EQ_INT(open_with(db, bad_schema, err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "expects 6") != NULL);

    CHECK(write_file(bad_schema, "CREATE TABLE games (id TEXT); CREATE TABLE games (id TEXT);") == 0);
    CHECK_EQ_INT(open_with(db, bad_schema, err, sizeof err), STORE_ERROR);
    CHECK(strstr(err, "already exists") != NULL);

    store *st = test_store_open(dir, "games.db"); /* nothing of the failures stayed */
    CHECK(st != NULL);
    if (st) {
        store_game g = test_game("afterfailed", "online");
        CHECK_EQ_INT(store_insert_game(st, &g), STORE_OK);
        store_close(st);
    }
    CHECK_EQ_INT(read_user_version(db), 6);
    test_rmtree(dir);
}
