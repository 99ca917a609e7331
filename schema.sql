-- Phantom Go database schema: always the LATEST version, complete.
--
-- src/store/store.c runs this file once, on a new (empty) database; it ends
-- by setting PRAGMA user_version to the version it creates. An existing
-- database is brought up to date instead by the upgrade steps compiled into
-- store.c (one SQL step per version). A change here therefore comes with a
-- new step there and a bump of both version numbers.
--
-- A game is its settings plus its action log; the log is the truth and the
-- server rebuilds a game by replaying it through the referee, so nothing
-- derived (board, score, whose turn) is stored. Secrets are stored only as
-- SHA-256 hashes. Tables are STRICT so a wrong type is an error, not a
-- silent conversion.

CREATE TABLE games (
    id            TEXT    NOT NULL PRIMARY KEY
                          CHECK (length(id) BETWEEN 10 AND 20 AND id NOT GLOB '*[^a-z0-9]*'),
    created_at_ms INTEGER NOT NULL,
    mode          TEXT    NOT NULL CHECK (mode IN ('online', 'hotseat', 'computer')),
    settings_json TEXT    NOT NULL CHECK (json_valid(settings_json)),
    options_json  TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options_json)),
    -- SHA-256 of each seat's token; NULL while the seat is free.
    black_hash    BLOB    CHECK (black_hash IS NULL OR length(black_hash) = 32),
    white_hash    BLOB    CHECK (white_hash IS NULL OR length(white_hash) = 32),
    -- SHA-256 of the one-time invite secret and the colour it claims;
    -- both cleared by the claim.
    invite_hash   BLOB    CHECK (invite_hash IS NULL OR length(invite_hash) = 32),
    invite_color  INTEGER NOT NULL DEFAULT 0 CHECK (invite_color IN (0, 1, 2)),
    -- The game offered as a rematch of this one (it may be created first).
    rematch_id    TEXT,
    -- Version 2. The time control chosen at creation (docs/API.md).
    time_control_json TEXT NOT NULL DEFAULT '{"type":"none"}' CHECK (json_valid(time_control_json)),
    -- Listed in the open-games lobby (online games only).
    public        INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1)),
    -- When the clock started (both seats taken); NULL before. The clocks
    -- are derived from this and the actions' at_ms.
    started_at_ms INTEGER,
    -- Version 3. When the creator cancelled the game, before anyone took
    -- the other seat (the invite is cleared with it); NULL otherwise.
    cancelled_at_ms INTEGER
) STRICT;

CREATE INDEX games_by_mode ON games (mode, created_at_ms);
CREATE INDEX games_public ON games (created_at_ms) WHERE public = 1;

-- One row per accepted action; seq is the referee's event number (1, 2, ...).
CREATE TABLE actions (
    game_id TEXT    NOT NULL REFERENCES games (id),
    seq     INTEGER NOT NULL CHECK (seq >= 1),
    kind    TEXT    NOT NULL CHECK (kind IN ('attempt', 'pass', 'resign', 'timeout', 'forfeit')),
    color   INTEGER NOT NULL CHECK (color IN (1, 2)),
    vertex  TEXT    NOT NULL DEFAULT ''
                    CHECK ((kind = 'attempt') = (vertex <> '') AND length(vertex) < 8),
    at_ms   INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

-- A seat's private notes (ghost stones it placed where it guesses the
-- opponent's stones are); never shown to anyone else.
CREATE TABLE notes (
    game_id       TEXT    NOT NULL REFERENCES games (id),
    color         INTEGER NOT NULL CHECK (color IN (1, 2)),
    ghosts_json   TEXT    NOT NULL CHECK (json_valid(ghosts_json)),
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, color)
) STRICT, WITHOUT ROWID;

-- Version 3. Table talk: each seat's display name, and the messages of a
-- game's two rooms (1: the players', 2: the spectators'). Messages are
-- numbered per room, so one room's numbers say nothing about the other's.
-- Neither touches the action log: talk never changes a game's seq.
CREATE TABLE seat_names (
    game_id       TEXT    NOT NULL REFERENCES games (id),
    color         INTEGER NOT NULL CHECK (color IN (1, 2)),
    name          TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 32),
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, color)
) STRICT, WITHOUT ROWID;

CREATE TABLE chat (
    game_id TEXT    NOT NULL REFERENCES games (id),
    room    INTEGER NOT NULL CHECK (room IN (1, 2)),
    n       INTEGER NOT NULL CHECK (n >= 1),
    -- 1 black, 2 white, 0 a spectator (who is never identified further).
    author  INTEGER NOT NULL CHECK (author IN (0, 1, 2) AND (author = 0) = (room = 2)),
    -- The author's display name when the message was written ('' for none).
    name    TEXT    NOT NULL DEFAULT '' CHECK (length(name) <= 32),
    -- Version 5: a message removed by the operator, or erased with its
    -- game's talk, keeps its number with name and text '' (a tombstone).
    text    TEXT    NOT NULL CHECK (length(text) <= 300
                                    AND (length(text) >= 1 OR removed_at_ms IS NOT NULL)),
    at_ms   INTEGER NOT NULL,
    removed_at_ms INTEGER,
    PRIMARY KEY (game_id, room, n)
) STRICT, WITHOUT ROWID;

-- Version 4. The answers of requests sent with an Idempotency-Key
-- (src/store/store_idempotency.h): id is a hash of the key and its scope,
-- answer the answer sealed (AES-256-GCM) under another hash of them, NULL
-- while the request that reserved the key runs. Nothing here reveals a
-- token without the key itself.
CREATE TABLE idempotency (
    id            TEXT    PRIMARY KEY CHECK (length(id) = 22),
    owner         INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    answer        BLOB    CHECK (answer IS NULL OR length(answer) BETWEEN 1 AND 70000),
    -- Random bytes the request draws its new game's id and secrets from,
    -- sealed like the answer: a request run again after a crash makes the
    -- same game instead of another.
    seed          BLOB    CHECK (seed IS NULL OR length(seed) BETWEEN 1 AND 1024)
) STRICT, WITHOUT ROWID;
CREATE INDEX idempotency_age ON idempotency (created_at_ms);

-- Version 5. Moderation (docs/API.md, Admin): reports of chat messages,
-- mutes and bans, and the log of what the operator did.
CREATE TABLE reports (
    id           INTEGER PRIMARY KEY,
    game_id      TEXT    NOT NULL REFERENCES games (id),
    room         INTEGER NOT NULL CHECK (room IN (1, 2)),
    n            INTEGER NOT NULL CHECK (n >= 1),
    -- Who reported: a seat ('black', 'white') or 'spectator'; never more.
    reporter     TEXT    NOT NULL CHECK (reporter IN ('black', 'white', 'spectator')),
    reason       TEXT    NOT NULL DEFAULT '' CHECK (length(reason) <= 300),
    at_ms        INTEGER NOT NULL,
    -- Set when the message is removed or its game's talk erased.
    closed_at_ms INTEGER
) STRICT;
CREATE INDEX reports_open ON reports (at_ms) WHERE closed_at_ms IS NULL;

-- A mute (what = 4, chat) or a ban (what: 1 create, 2 join, 4 chat, or'ed)
-- of one seat of one game, or of an address or prefix ('203.0.113.0/24',
-- '2001:db8::/48'; a single address is /32 or /128), until until_ms.
CREATE TABLE sanctions (
    id       INTEGER PRIMARY KEY,
    kind     TEXT    NOT NULL CHECK (kind IN ('mute', 'ban')),
    game_id  TEXT,
    seat     INTEGER CHECK (seat IN (1, 2)),
    network  TEXT    CHECK (length(network) <= 64),
    what     INTEGER NOT NULL CHECK (what BETWEEN 1 AND 7),
    at_ms    INTEGER NOT NULL,
    until_ms INTEGER NOT NULL,
    CHECK ((game_id IS NULL) = (seat IS NULL) AND (game_id IS NULL) <> (network IS NULL))
) STRICT;
CREATE INDEX sanctions_until ON sanctions (until_ms);

CREATE TABLE admin_log (
    id     INTEGER PRIMARY KEY,
    at_ms  INTEGER NOT NULL,
    action TEXT    NOT NULL CHECK (length(action) <= 32),
    target TEXT    NOT NULL CHECK (length(target) <= 128),
    detail TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(detail))
) STRICT;

-- Version 6. Web Push (src/push): the server's VAPID key (one row, the
-- same for every server sharing the database), each seat's browser
-- subscriptions (at most 5 a seat: the API's rule) and the outbox of
-- notices. The outbox is also their record: a notice is queued once per
-- subscription under its rank in the game (rising with every notice), kept
-- after it was sent or skipped (the seat had a socket open), so no server
-- queues it twice and a restart finds what is still to send.
CREATE TABLE push_key (
    id            INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    private_key   BLOB    NOT NULL CHECK (length(private_key) = 32),
    public_key    BLOB    NOT NULL CHECK (length(public_key) = 65),
    created_at_ms INTEGER NOT NULL
) STRICT;

CREATE TABLE push_subscriptions (
    game_id       TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    color         INTEGER NOT NULL CHECK (color IN (1, 2)),
    endpoint      TEXT    NOT NULL CHECK (length(endpoint) BETWEEN 9 AND 1024),
    p256dh        BLOB    NOT NULL CHECK (length(p256dh) = 65),
    auth          BLOB    NOT NULL CHECK (length(auth) = 16),
    lang          TEXT    NOT NULL CHECK (lang IN ('en', 'ru', 'ko')),
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, color, endpoint)
) STRICT, WITHOUT ROWID;

CREATE TABLE push_outbox (
    id            INTEGER NOT NULL PRIMARY KEY,
    game_id       TEXT    NOT NULL,
    color         INTEGER NOT NULL,
    endpoint      TEXT    NOT NULL,
    notice        INTEGER NOT NULL CHECK (notice >= 0),
    kind          TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 15),
    payload       TEXT    NOT NULL CHECK (json_valid(payload)),
    urgency       TEXT    NOT NULL CHECK (urgency IN ('normal', 'high')),
    -- 0 queued, 1 sent, 2 skipped (a socket was open), 3 given up
    state         INTEGER NOT NULL CHECK (state IN (0, 1, 2, 3)),
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_at_ms    INTEGER NOT NULL,
    created_at_ms INTEGER NOT NULL,
    UNIQUE (game_id, color, endpoint, notice),
    FOREIGN KEY (game_id, color, endpoint)
        REFERENCES push_subscriptions (game_id, color, endpoint) ON DELETE CASCADE
) STRICT;

CREATE INDEX push_outbox_due ON push_outbox (next_at_ms) WHERE state = 0;

PRAGMA user_version = 6;
