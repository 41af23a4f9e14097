-- What a turn really did, recorded rather than guessed when it is read:
-- whether grounding ran (grounded, also for a turn routed to no tool), who
-- chose the tool (chosen_by), what the user typed when it was not the query
-- answered (input: "use wiki instead", "/GEAR what time is it"), routing's
-- probability and threshold, who wrote the answer (answered_by), and each
-- grounding row's calibrated probability. route_by takes every way the
-- agent decides the route; 'combined' is renamed 'decisive', the agent's
-- word for it.
--
-- SQLite cannot change a CHECK constraint in place, so turns is rebuilt
-- (foreign keys are off while a migration runs, see migrate.go, so the
-- rows that reference turns stay as they are).

CREATE TABLE turns_new (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id   INTEGER NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    query             TEXT    NOT NULL,
    -- What the user typed, when it differs from query; '' otherwise.
    input             TEXT    NOT NULL DEFAULT '',
    mode              TEXT    NOT NULL CHECK (mode IN ('chat', 'direct', 'baseline')),
    status            TEXT    NOT NULL DEFAULT 'running'
                      CHECK (status IN ('running', 'done', 'failed', 'cancelled', 'awaiting-confirmation')),
    route             TEXT    NOT NULL DEFAULT '' CHECK (route IN ('', 'tool', 'none')),
    route_by          TEXT    NOT NULL DEFAULT ''
                      CHECK (route_by IN ('', 'model', 'threshold', 'decisive', 'mode', 'user')),
    -- NULL when not recorded (no route, or a turn from before this migration).
    route_probability REAL    CHECK (route_probability BETWEEN 0 AND 1),
    route_threshold   REAL,
    grounded          INTEGER NOT NULL DEFAULT 0 CHECK (grounded IN (0, 1)),
    tool              TEXT    NOT NULL DEFAULT '',
    tool_family       TEXT    NOT NULL DEFAULT '',
    chosen_by         TEXT    NOT NULL DEFAULT '' CHECK (chosen_by IN ('', 'grounding', 'user', 'call')),
    -- NULL unless grounding ran and a tool was chosen.
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
    finished_at       INTEGER
);

-- Earlier turns get what their other columns say. Grounding ran when it
-- left a confidence, scores or a routing method. The agent stored a route
-- without a method when direct mode or the user decided it: a /GEAR query
-- ('mode'), or a typed call or a tool switch ('user'). A typed call was
-- chosen by the user's 'call'; a chat turn routed to a tool without a
-- method was a tool switch, chosen by the 'user'; any other tool, by
-- 'grounding'. The answer came from the tool in direct mode or without a
-- chat model, from gear when no call ran there or the call was rejected,
-- otherwise from the model.
INSERT INTO turns_new (id, conversation_id, query, mode, status, route, route_by, grounded, tool, tool_family,
    chosen_by, confidence, emission, repair_note, answered_by, error,
    route_ms, ground_ms, emit_ms, tool_ms, answer_ms, total_ms, created_at, finished_at)
SELECT t.id, t.conversation_id, t.query, t.mode, t.status, t.route,
    CASE
        WHEN t.route_by = 'combined' THEN 'decisive'
        WHEN t.route <> '' AND t.route_by = '' THEN
            CASE WHEN t.mode = 'direct' AND t.emission <> 'exact' THEN 'mode' ELSE 'user' END
        ELSE t.route_by
    END,
    t.confidence IS NOT NULL OR t.route_by <> '' OR EXISTS (SELECT 1 FROM grounding_scores g WHERE g.turn_id = t.id),
    t.tool, t.tool_family,
    CASE
        WHEN t.tool = '' THEN ''
        WHEN t.emission = 'exact' THEN 'call'
        WHEN t.mode = 'chat' AND t.route = 'tool' AND t.route_by = '' THEN 'user'
        ELSE 'grounding'
    END,
    t.confidence, t.emission, t.repair_note,
    CASE
        WHEN NOT EXISTS (SELECT 1 FROM messages m WHERE m.turn_id = t.id AND m.role = 'assistant') THEN ''
        WHEN t.mode = 'direct' OR c.chat_engine = 'offline' THEN
            CASE WHEN EXISTS (SELECT 1 FROM tool_calls k WHERE k.turn_id = t.id AND k.checked <> 'rejected')
                THEN 'tool' ELSE 'gear' END
        WHEN EXISTS (SELECT 1 FROM tool_calls k WHERE k.turn_id = t.id AND k.checked = 'rejected')
            AND NOT EXISTS (SELECT 1 FROM tool_calls k WHERE k.turn_id = t.id AND k.checked <> 'rejected') THEN 'gear'
        ELSE 'model'
    END,
    t.error, t.route_ms, t.ground_ms, t.emit_ms, t.tool_ms, t.answer_ms, t.total_ms, t.created_at, t.finished_at
FROM turns t JOIN conversations c ON c.id = t.conversation_id;

-- AUTOINCREMENT's high-water mark moves with the table, so the id of a
-- deleted turn is never given again.
DELETE FROM sqlite_sequence WHERE name = 'turns_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'turns_new', seq FROM sqlite_sequence WHERE name = 'turns';

DROP TABLE turns;
ALTER TABLE turns_new RENAME TO turns;
CREATE INDEX turns_conversation ON turns (conversation_id, id);
CREATE INDEX turns_created ON turns (created_at);

-- Each tool's calibrated probability; NULL for rows from before it was kept.
ALTER TABLE grounding_scores ADD COLUMN probability REAL CHECK (probability BETWEEN 0 AND 1);
