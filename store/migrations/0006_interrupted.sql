-- A turn whose process ended before it finished (killed, crashed, the
-- machine stopped) stayed 'running' for ever. Each turn now records the
-- process that runs it (owner_pid), and opening the history marks the
-- running turns whose process is gone 'interrupted'.
--
-- SQLite cannot change a CHECK constraint in place, so turns is rebuilt
-- (foreign keys are off while a migration runs, see migrate.go, so the
-- rows that reference turns stay as they are).

CREATE TABLE turns_new (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id   INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    query             TEXT    NOT NULL,
    input             TEXT    NOT NULL DEFAULT '',
    mode              TEXT    NOT NULL CHECK (mode IN ('chat', 'direct', 'baseline')),
    status            TEXT    NOT NULL DEFAULT 'running'
                      CHECK (status IN ('running', 'done', 'failed', 'cancelled', 'awaiting-confirmation', 'interrupted')),
    route             TEXT    NOT NULL DEFAULT '' CHECK (route IN ('', 'tool', 'none')),
    route_by          TEXT    NOT NULL DEFAULT ''
                      CHECK (route_by IN ('', 'model', 'threshold', 'decisive', 'mode', 'user')),
    route_probability REAL    CHECK (route_probability BETWEEN 0 AND 1),
    route_threshold   REAL,
    grounded          INTEGER NOT NULL DEFAULT 0 CHECK (grounded IN (0, 1)),
    tool              TEXT    NOT NULL DEFAULT '',
    tool_family       TEXT    NOT NULL DEFAULT '',
    chosen_by         TEXT    NOT NULL DEFAULT '' CHECK (chosen_by IN ('', 'grounding', 'user', 'call')),
    confidence        REAL    CHECK (confidence BETWEEN 0 AND 1),
    emission          TEXT    NOT NULL DEFAULT ''
                      CHECK (emission IN ('', 'guided', 'stepped', 'prompted', 'repaired', 'exact', 'offline')),
    repair_note       TEXT    NOT NULL DEFAULT '',
    answered_by       TEXT    NOT NULL DEFAULT '' CHECK (answered_by IN ('', 'model', 'tool', 'gear')),
    error             TEXT    NOT NULL DEFAULT '',
    route_ms          REAL    NOT NULL DEFAULT 0,
    ground_ms         REAL    NOT NULL DEFAULT 0,
    emit_ms           REAL    NOT NULL DEFAULT 0,
    tool_ms           REAL    NOT NULL DEFAULT 0,
    answer_ms         REAL    NOT NULL DEFAULT 0,
    total_ms          REAL    NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL,
    finished_at       INTEGER,
    -- The process running the turn; NULL for turns from before this
    -- migration.
    owner_pid         INTEGER
);

INSERT INTO turns_new (id, conversation_id, query, input, mode, status, route, route_by, route_probability,
    route_threshold, grounded, tool, tool_family, chosen_by, confidence, emission, repair_note, answered_by, error,
    route_ms, ground_ms, emit_ms, tool_ms, answer_ms, total_ms, created_at, finished_at)
SELECT id, conversation_id, query, input, mode, status, route, route_by, route_probability,
    route_threshold, grounded, tool, tool_family, chosen_by, confidence, emission, repair_note, answered_by, error,
    route_ms, ground_ms, emit_ms, tool_ms, answer_ms, total_ms, created_at, finished_at
FROM turns;

DELETE FROM sqlite_sequence WHERE name = 'turns_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'turns_new', seq FROM sqlite_sequence WHERE name = 'turns';

DROP TABLE turns;
ALTER TABLE turns_new RENAME TO turns;
CREATE INDEX turns_conversation ON turns (conversation_id, id);
CREATE INDEX turns_created ON turns (created_at);
CREATE INDEX turns_running ON turns (status) WHERE status = 'running';

-- An older gear stored whatever a model or tool sent, and indexed it whole:
-- one 100 MB answer made every search read its 100 MB term. Such rows (over
-- 64 KiB, the most a turn stores now) are indexed again by their first
-- 64 KiB, and the index merged so the old entries are gone; the rows
-- themselves are kept. A history without such rows is not touched.
DELETE FROM messages_fts WHERE docid IN (SELECT id FROM messages WHERE octet_length(text) > 65536);
INSERT INTO messages_fts (docid, text) SELECT id, substr(text, 1, 65536) FROM messages WHERE octet_length(text) > 65536;
INSERT INTO messages_fts (messages_fts) SELECT 'optimize' WHERE EXISTS (SELECT 1 FROM messages WHERE octet_length(text) > 65536);
DELETE FROM tool_calls_fts WHERE docid IN (SELECT id FROM tool_calls WHERE octet_length(response) > 65536);
INSERT INTO tool_calls_fts (docid, response) SELECT id, substr(response, 1, 65536) FROM tool_calls WHERE octet_length(response) > 65536;
INSERT INTO tool_calls_fts (tool_calls_fts) SELECT 'optimize' WHERE EXISTS (SELECT 1 FROM tool_calls WHERE octet_length(response) > 65536);
