-- Conversations, their turns and messages, and what each turn did.
-- Times are Unix milliseconds (UTC); latencies and durations milliseconds.

CREATE TABLE conversations (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    title            TEXT    NOT NULL DEFAULT '',
    mode             TEXT    NOT NULL CHECK (mode IN ('chat', 'direct', 'baseline')),
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    chat_engine      TEXT    NOT NULL DEFAULT '',
    chat_model       TEXT    NOT NULL DEFAULT '',
    grounding_engine TEXT    NOT NULL DEFAULT '',
    grounding_model  TEXT    NOT NULL DEFAULT '',
    embedding_engine TEXT    NOT NULL DEFAULT '',
    embedding_model  TEXT    NOT NULL DEFAULT '',
    participant_id   TEXT    NOT NULL DEFAULT '',
    study_phase      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX conversations_updated ON conversations (updated_at);

CREATE TABLE turns (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    query           TEXT    NOT NULL,
    mode            TEXT    NOT NULL CHECK (mode IN ('chat', 'direct', 'baseline')),
    status          TEXT    NOT NULL DEFAULT 'running'
                    CHECK (status IN ('running', 'done', 'failed', 'cancelled', 'awaiting-confirmation')),
    route           TEXT    NOT NULL DEFAULT '' CHECK (route IN ('', 'tool', 'none')),
    route_by        TEXT    NOT NULL DEFAULT '' CHECK (route_by IN ('', 'model', 'threshold', 'combined')),
    tool            TEXT    NOT NULL DEFAULT '',
    tool_family     TEXT    NOT NULL DEFAULT '',
    -- NULL when grounding did not run (baseline turns, exact calls).
    confidence      REAL    CHECK (confidence BETWEEN 0 AND 1),
    emission        TEXT    NOT NULL DEFAULT ''
                    CHECK (emission IN ('', 'guided', 'stepped', 'prompted', 'repaired', 'exact', 'offline')),
    repair_note     TEXT    NOT NULL DEFAULT '',
    error           TEXT    NOT NULL DEFAULT '',
    route_ms        REAL    NOT NULL DEFAULT 0,
    ground_ms       REAL    NOT NULL DEFAULT 0,
    emit_ms         REAL    NOT NULL DEFAULT 0,
    tool_ms         REAL    NOT NULL DEFAULT 0,
    answer_ms       REAL    NOT NULL DEFAULT 0,
    total_ms        REAL    NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    finished_at     INTEGER
);
CREATE INDEX turns_conversation ON turns (conversation_id, id);
CREATE INDEX turns_created ON turns (created_at);

-- One user message per turn (what the user typed, committed before any
-- model or tool is called) and at most one answer.
CREATE TABLE messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    turn_id         INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    role            TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
    text            TEXT    NOT NULL,
    created_at      INTEGER NOT NULL
);
CREATE INDEX messages_conversation ON messages (conversation_id, id);
CREATE UNIQUE INDEX messages_turn_role ON messages (turn_id, role);

-- Model calls and tokens per role in a turn.
CREATE TABLE turn_usage (
    turn_id           INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    role              TEXT    NOT NULL CHECK (role IN ('chat', 'grounding', 'embedding')),
    calls             INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    estimated         INTEGER NOT NULL DEFAULT 0 CHECK (estimated IN (0, 1)),
    PRIMARY KEY (turn_id, role)
) WITHOUT ROWID;

-- GEAR's table for a turn: every tool's S, P and f, its probe call and
-- an excerpt of the probe's response.
CREATE TABLE grounding_scores (
    turn_id       INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    tool          TEXT    NOT NULL,
    family        TEXT    NOT NULL DEFAULT '',
    rank          INTEGER NOT NULL,
    semantic      REAL    NOT NULL,
    pattern       REAL    NOT NULL,
    final         REAL    NOT NULL,
    call          TEXT    NOT NULL DEFAULT '',
    response      TEXT    NOT NULL DEFAULT '',
    response_kind TEXT    NOT NULL CHECK (response_kind IN ('real', 'mock', 'timeout', 'error', 'empty')),
    PRIMARY KEY (turn_id, tool)
) WITHOUT ROWID;

-- The calls a turn emitted, in order.
CREATE TABLE tool_calls (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    turn_id     INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    tool        TEXT    NOT NULL,
    call        TEXT    NOT NULL,
    checked     TEXT    NOT NULL CHECK (checked IN ('validated', 'repaired', 'rejected')),
    original    TEXT    NOT NULL DEFAULT '',
    response    TEXT    NOT NULL DEFAULT '',
    error       TEXT    NOT NULL DEFAULT '',
    duration_ms REAL    NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    UNIQUE (turn_id, seq)
);
