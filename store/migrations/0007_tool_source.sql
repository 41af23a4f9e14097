-- Where each called tool came from, so history and replay still make sense
-- after the library changes: 'built-in' (gear's own Go tools), 'file' (a
-- declared tool; source_name is its file's path) or 'mcp' (an MCP server's
-- tool; source_name is the server's name). Every call recorded before this
-- migration was of a built-in tool: gear had no other source.
ALTER TABLE tool_calls ADD COLUMN source_kind TEXT NOT NULL DEFAULT 'built-in'
    CHECK (source_kind IN ('built-in', 'file', 'mcp'));
ALTER TABLE tool_calls ADD COLUMN source_name TEXT NOT NULL DEFAULT '';
