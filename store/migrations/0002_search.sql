-- Full-text search over messages and tool responses. FTS4 is compiled into
-- go-sqlite3 without build tags; the tables index the rows in place
-- (external content) and triggers keep them in step, cascaded deletes
-- included. Existing rows are indexed by 'rebuild'.

CREATE VIRTUAL TABLE messages_fts USING fts4 (
    content="messages", text, tokenize=unicode61 "remove_diacritics=2"
);
CREATE VIRTUAL TABLE tool_calls_fts USING fts4 (
    content="tool_calls", response, tokenize=unicode61 "remove_diacritics=2"
);

CREATE TRIGGER messages_fts_before_update BEFORE UPDATE ON messages BEGIN
    DELETE FROM messages_fts WHERE docid = old.id;
END;
CREATE TRIGGER messages_fts_before_delete BEFORE DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE docid = old.id;
END;
CREATE TRIGGER messages_fts_after_update AFTER UPDATE ON messages BEGIN
    INSERT INTO messages_fts (docid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER messages_fts_after_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (docid, text) VALUES (new.id, new.text);
END;

CREATE TRIGGER tool_calls_fts_before_update BEFORE UPDATE ON tool_calls BEGIN
    DELETE FROM tool_calls_fts WHERE docid = old.id;
END;
CREATE TRIGGER tool_calls_fts_before_delete BEFORE DELETE ON tool_calls BEGIN
    DELETE FROM tool_calls_fts WHERE docid = old.id;
END;
CREATE TRIGGER tool_calls_fts_after_update AFTER UPDATE ON tool_calls BEGIN
    INSERT INTO tool_calls_fts (docid, response) VALUES (new.id, new.response);
END;
CREATE TRIGGER tool_calls_fts_after_insert AFTER INSERT ON tool_calls BEGIN
    INSERT INTO tool_calls_fts (docid, response) VALUES (new.id, new.response);
END;

INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
INSERT INTO tool_calls_fts (tool_calls_fts) VALUES ('rebuild');
