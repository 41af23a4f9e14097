-- What users say about gear: ratings per turn, questionnaire answers, and
-- the study settings (participant id, phase).

CREATE TABLE ratings (
    turn_id     INTEGER PRIMARY KEY REFERENCES turns (id) ON DELETE CASCADE,
    score       INTEGER NOT NULL CHECK (score IN (-1, 0, 1)),
    wrong_tool  INTEGER NOT NULL DEFAULT 0 CHECK (wrong_tool IN (0, 1)),
    wanted_tool TEXT    NOT NULL DEFAULT '',
    comment     TEXT    NOT NULL DEFAULT '',
    rated_at    INTEGER NOT NULL
);

CREATE TABLE survey_responses (
    id                    INTEGER PRIMARY KEY AUTOINCREMENT,
    participant_id        TEXT    NOT NULL,
    questionnaire_version TEXT    NOT NULL,
    phase                 TEXT    NOT NULL DEFAULT '',
    answers               TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(answers)),
    status                TEXT    NOT NULL CHECK (status IN ('in-progress', 'complete')),
    started_at            INTEGER NOT NULL,
    updated_at            INTEGER NOT NULL,
    completed_at          INTEGER
);
CREATE INDEX survey_responses_participant ON survey_responses (participant_id, questionnaire_version, status);

CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
) WITHOUT ROWID;
