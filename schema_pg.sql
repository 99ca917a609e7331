-- Phantom Go database schema for PostgreSQL: always the LATEST version,
-- complete. The same tables as schema.sql (SQLite), in PostgreSQL's types.
--
-- src/store/store_pg.c runs this file once, on a database without the
-- phantomgo_schema table, in one transaction; it ends by recording the
-- version it creates. An existing database is brought up to date instead by
-- the upgrade steps compiled into store_pg.c (one SQL step per version), so a
-- change here comes with a new step there and a bump of both numbers.
--
-- The log is the truth, as on SQLite: a game is its settings plus its
-- actions. The primary key (game_id, seq) of actions is what keeps several
-- servers honest: an action can be stored once, by one of them. JSON stays
-- text (checked by a cast) so every backend hands back the bytes it stored.

CREATE TABLE games (
    id            text    NOT NULL PRIMARY KEY CHECK (id ~ '^[a-z0-9]{10,20}$'),
    created_at_ms bigint  NOT NULL,
    mode          text    NOT NULL CHECK (mode IN ('online', 'hotseat', 'computer')),
    settings_json text    NOT NULL CHECK (settings_json::jsonb IS NOT NULL),
    options_json  text    NOT NULL DEFAULT '{}' CHECK (options_json::jsonb IS NOT NULL),
    -- SHA-256 of each seat's token; NULL while the seat is free.
    black_hash    bytea   CHECK (black_hash IS NULL OR octet_length(black_hash) = 32),
    white_hash    bytea   CHECK (white_hash IS NULL OR octet_length(white_hash) = 32),
    -- SHA-256 of the one-time invite secret and the colour it claims.
    invite_hash   bytea   CHECK (invite_hash IS NULL OR octet_length(invite_hash) = 32),
    invite_color  integer NOT NULL DEFAULT 0 CHECK (invite_color IN (0, 1, 2)),
    rematch_id    text,
    time_control_json text NOT NULL DEFAULT '{"type":"none"}'
                          CHECK (time_control_json::jsonb IS NOT NULL),
    public        boolean NOT NULL DEFAULT false,
    started_at_ms bigint,
    -- Version 2. When the creator cancelled the game, before anyone took
    -- the other seat (the invite is cleared with it); NULL otherwise.
    cancelled_at_ms bigint
);

CREATE INDEX games_by_mode ON games (mode, created_at_ms);
CREATE INDEX games_public ON games (created_at_ms) WHERE public;

CREATE TABLE actions (
    game_id text    NOT NULL REFERENCES games (id),
    seq     integer NOT NULL CHECK (seq >= 1),
    kind    text    NOT NULL CHECK (kind IN ('attempt', 'pass', 'resign', 'timeout', 'forfeit')),
    color   integer NOT NULL CHECK (color IN (1, 2)),
    vertex  text    NOT NULL DEFAULT ''
                    CHECK ((kind = 'attempt') = (vertex <> '') AND length(vertex) < 8),
    at_ms   bigint  NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE notes (
    game_id       text    NOT NULL REFERENCES games (id),
    color         integer NOT NULL CHECK (color IN (1, 2)),
    ghosts_json   text    NOT NULL CHECK (ghosts_json::jsonb IS NOT NULL),
    updated_at_ms bigint  NOT NULL,
    PRIMARY KEY (game_id, color)
);

-- Version 2. Table talk, as in schema.sql: each seat's display name and
-- the messages of a game's two rooms (1: the players', 2: the
-- spectators'), numbered per room. Lengths count characters (the
-- database's encoding must be UTF8, as initdb's default locale gives).
CREATE TABLE seat_names (
    game_id       text    NOT NULL REFERENCES games (id),
    color         integer NOT NULL CHECK (color IN (1, 2)),
    name          text    NOT NULL CHECK (char_length(name) BETWEEN 1 AND 32),
    updated_at_ms bigint  NOT NULL,
    PRIMARY KEY (game_id, color)
);

CREATE TABLE chat (
    game_id text    NOT NULL REFERENCES games (id),
    room    integer NOT NULL CHECK (room IN (1, 2)),
    n       integer NOT NULL CHECK (n >= 1),
    author  integer NOT NULL CHECK (author IN (0, 1, 2) AND (author = 0) = (room = 2)),
    name    text    NOT NULL DEFAULT '' CHECK (char_length(name) <= 32),
    -- Version 4: a removed or erased message keeps its number with name
    -- and text '' (a tombstone).
    text    text    NOT NULL,
    at_ms   bigint  NOT NULL,
    removed_at_ms bigint,
    PRIMARY KEY (game_id, room, n),
    CONSTRAINT chat_text_check CHECK (char_length(text) <= 300
        AND (char_length(text) >= 1 OR removed_at_ms IS NOT NULL))
);

-- Every stored action tells the servers sharing the database (LISTEN
-- phantomgo_actions, payload "game_id seq"), delivered at its commit, so a
-- server holding that game in memory can catch up with the log.
CREATE FUNCTION phantomgo_notify_action() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('phantomgo_actions', NEW.game_id || ' ' || NEW.seq);
    RETURN NULL;
END $$;
CREATE TRIGGER actions_notify AFTER INSERT ON actions
    FOR EACH ROW EXECUTE FUNCTION phantomgo_notify_action();

-- Version 2. Every other change of a game tells the servers too, on
-- phantomgo_games, delivered at its commit: "public ID" when a public game
-- is created (for the other servers' lobbies), "row ID" when its row
-- changes (a seat taken, a cancel, a rematch), "names ID" when a seat's
-- name changes, "chat ID ROOM N" when message N of a room is stored. The
-- payload names only what changed, never what was said: a server reads
-- the rest from the tables. A statement that changes nothing tells
-- nothing (the WHEN clauses and the row triggers).
CREATE FUNCTION phantomgo_notify_game() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'chat' AND TG_OP = 'UPDATE' THEN
        PERFORM pg_notify('phantomgo_games', 'unchat ' || NEW.game_id || ' ' || NEW.room || ' ' || NEW.n);
    ELSIF TG_TABLE_NAME = 'chat' THEN
        PERFORM pg_notify('phantomgo_games', 'chat ' || NEW.game_id || ' ' || NEW.room || ' ' || NEW.n);
    ELSIF TG_TABLE_NAME = 'seat_names' THEN
        PERFORM pg_notify('phantomgo_games', 'names ' || coalesce(NEW.game_id, OLD.game_id));
    ELSIF TG_OP = 'INSERT' THEN
        PERFORM pg_notify('phantomgo_games', 'public ' || NEW.id);
    ELSE
        PERFORM pg_notify('phantomgo_games', 'row ' || NEW.id);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER games_created_notify AFTER INSERT ON games
    FOR EACH ROW WHEN (NEW.public) EXECUTE FUNCTION phantomgo_notify_game();
CREATE TRIGGER games_changed_notify AFTER UPDATE ON games
    FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION phantomgo_notify_game();
CREATE TRIGGER seat_names_notify AFTER INSERT OR UPDATE OR DELETE ON seat_names
    FOR EACH ROW EXECUTE FUNCTION phantomgo_notify_game();
CREATE TRIGGER chat_notify AFTER INSERT ON chat
    FOR EACH ROW EXECUTE FUNCTION phantomgo_notify_game();
-- Version 4: "unchat ID ROOM N" when message N became a tombstone.
CREATE TRIGGER chat_removed_notify AFTER UPDATE ON chat
    FOR EACH ROW WHEN (OLD.removed_at_ms IS NULL AND NEW.removed_at_ms IS NOT NULL)
    EXECUTE FUNCTION phantomgo_notify_game();

-- Version 4. Moderation (docs/API.md, Admin), as in schema.sql.
CREATE TABLE reports (
    id           bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id      text    NOT NULL REFERENCES games (id),
    room         integer NOT NULL CHECK (room IN (1, 2)),
    n            integer NOT NULL CHECK (n >= 1),
    reporter     text    NOT NULL CHECK (reporter IN ('black', 'white', 'spectator')),
    reason       text    NOT NULL DEFAULT '' CHECK (char_length(reason) <= 300),
    at_ms        bigint  NOT NULL,
    closed_at_ms bigint
);
CREATE INDEX reports_open ON reports (at_ms) WHERE closed_at_ms IS NULL;

CREATE TABLE sanctions (
    id       bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind     text    NOT NULL CHECK (kind IN ('mute', 'ban')),
    game_id  text,
    seat     integer CHECK (seat IN (1, 2)),
    network  text    CHECK (char_length(network) <= 64),
    what     integer NOT NULL CHECK (what BETWEEN 1 AND 7),
    at_ms    bigint  NOT NULL,
    until_ms bigint  NOT NULL,
    CHECK ((game_id IS NULL) = (seat IS NULL) AND (game_id IS NULL) <> (network IS NULL))
);
CREATE INDEX sanctions_until ON sanctions (until_ms);

CREATE TABLE admin_log (
    id     bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at_ms  bigint  NOT NULL,
    action text    NOT NULL CHECK (char_length(action) <= 32),
    target text    NOT NULL CHECK (char_length(target) <= 128),
    detail text    NOT NULL DEFAULT '{}'
);

-- Version 3. The answers of requests sent with an Idempotency-Key, as in
-- schema.sql: id a hash of the key and its scope, answer sealed
-- (AES-256-GCM) under another hash of them, NULL while pending.
CREATE TABLE idempotency (
    id            text   PRIMARY KEY CHECK (char_length(id) = 22),
    owner         bigint NOT NULL,
    created_at_ms bigint NOT NULL,
    answer        bytea  CHECK (answer IS NULL OR length(answer) BETWEEN 1 AND 70000),
    seed          bytea  CHECK (seed IS NULL OR length(seed) BETWEEN 1 AND 1024)
);
CREATE INDEX idempotency_age ON idempotency (created_at_ms);

-- Version 5. Web Push (src/push): the server's VAPID key (one row, shared
-- by every server), each seat's browser subscriptions (at most 5 a seat)
-- and the outbox of notices, which is also their record (store_push.h).
CREATE TABLE push_key (
    id            integer NOT NULL PRIMARY KEY CHECK (id = 1),
    private_key   bytea   NOT NULL CHECK (length(private_key) = 32),
    public_key    bytea   NOT NULL CHECK (length(public_key) = 65),
    created_at_ms bigint  NOT NULL
);
CREATE TABLE push_subscriptions (
    game_id       text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    color         integer NOT NULL CHECK (color IN (1, 2)),
    endpoint      text    NOT NULL CHECK (char_length(endpoint) BETWEEN 9 AND 1024),
    p256dh        bytea   NOT NULL CHECK (length(p256dh) = 65),
    auth          bytea   NOT NULL CHECK (length(auth) = 16),
    lang          text    NOT NULL CHECK (lang IN ('en', 'ru', 'ko')),
    created_at_ms bigint  NOT NULL,
    PRIMARY KEY (game_id, color, endpoint)
);
CREATE TABLE push_outbox (
    id            bigserial NOT NULL PRIMARY KEY,
    game_id       text    NOT NULL,
    color         integer NOT NULL,
    endpoint      text    NOT NULL,
    notice        bigint  NOT NULL CHECK (notice >= 0),
    kind          text    NOT NULL CHECK (char_length(kind) BETWEEN 1 AND 15),
    payload       text    NOT NULL,
    urgency       text    NOT NULL CHECK (urgency IN ('normal', 'high')),
    -- 0 queued, 1 sent, 2 skipped (a socket was open), 3 given up
    state         integer NOT NULL CHECK (state IN (0, 1, 2, 3)),
    attempts      integer NOT NULL DEFAULT 0,
    next_at_ms    bigint  NOT NULL,
    created_at_ms bigint  NOT NULL,
    UNIQUE (game_id, color, endpoint, notice),
    FOREIGN KEY (game_id, color, endpoint)
        REFERENCES push_subscriptions (game_id, color, endpoint) ON DELETE CASCADE
);
CREATE INDEX push_outbox_due ON push_outbox (next_at_ms) WHERE state = 0;

-- The schema's version, one row.
CREATE TABLE phantomgo_schema (
    version integer NOT NULL
);
INSERT INTO phantomgo_schema (version) VALUES (5);
