-- A new emission path: 'grounding', the call grounding's small model wrote
-- for the chosen tool (q_i), accepted by the machine and run without asking
-- the chat model again (agent.reuse_grounding_call); and a new grounding
-- response kind: 'cut', a tool outside grounding's shortlist (not called,
-- f = γS). Earlier rows keep their values.
--
-- SQLite cannot change a CHECK constraint in place, so turns and
-- grounding_scores are rebuilt as in 0005 and 0006; 0007 added the tool source to tool_calls, untouched here (foreign keys are off while a
-- migration runs).

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
                      CHECK (emission IN ('', 'guided', 'stepped', 'prompted', 'repaired', 'exact', 'offline', 'grounding')),
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

INSERT INTO turns_new (id, conversation_id, query, input, mode, status, route, route_by, route_probability, route_threshold, grounded, tool, tool_family,
    chosen_by, confidence, emission, repair_note, answered_by, error,
    route_ms, ground_ms, emit_ms, tool_ms, answer_ms, total_ms, created_at, finished_at, owner_pid)
SELECT id, conversation_id, query, input, mode, status, route, route_by, route_probability, route_threshold, grounded, tool, tool_family,
    chosen_by, confidence, emission, repair_note, answered_by, error,
    route_ms, ground_ms, emit_ms, tool_ms, answer_ms, total_ms, created_at, finished_at, owner_pid
FROM turns;

DELETE FROM sqlite_sequence WHERE name = 'turns_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'turns_new', seq FROM sqlite_sequence WHERE name = 'turns';

DROP TABLE turns;
ALTER TABLE turns_new RENAME TO turns;
CREATE INDEX turns_conversation ON turns (conversation_id, id);
CREATE INDEX turns_created ON turns (created_at);
CREATE INDEX turns_running ON turns (status) WHERE status = 'running';

CREATE TABLE grounding_scores_new (
    turn_id       INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    tool          TEXT    NOT NULL,
    family        TEXT    NOT NULL DEFAULT '',
    rank          INTEGER NOT NULL,
    semantic      REAL    NOT NULL,
    pattern       REAL    NOT NULL,
    final         REAL    NOT NULL,
    call          TEXT    NOT NULL DEFAULT '',
    response      TEXT    NOT NULL DEFAULT '',
    response_kind TEXT    NOT NULL CHECK (response_kind IN ('real', 'mock', 'timeout', 'error', 'empty', 'cut')),
    probability   REAL    CHECK (probability BETWEEN 0 AND 1),
    PRIMARY KEY (turn_id, tool)
) WITHOUT ROWID;

INSERT INTO grounding_scores_new (turn_id, tool, family, rank, semantic, pattern, final, call, response, response_kind, probability)
SELECT turn_id, tool, family, rank, semantic, pattern, final, call, response, response_kind, probability
FROM grounding_scores;

DROP TABLE grounding_scores;
ALTER TABLE grounding_scores_new RENAME TO grounding_scores;
