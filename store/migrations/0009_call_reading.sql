-- The call confidence of the call that ran (or was asked about): how well
-- the engine read the call's arguments, in [0, 1], and its doubts, a JSON
-- array of one-line strings ("the number 7 found no place", ...). NULL and
-- '' for turns recorded before this migration, and for calls no engine
-- read (the chat model wrote them, a typed call): nothing was said then.
ALTER TABLE turns ADD COLUMN call_confidence REAL CHECK (call_confidence BETWEEN 0 AND 1);
ALTER TABLE turns ADD COLUMN call_doubts TEXT NOT NULL DEFAULT '';
