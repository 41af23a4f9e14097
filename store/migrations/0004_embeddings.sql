-- Embeddings computed once per model and text (tool descriptions and
-- examples), so grounding does not ask the embedding model again.
-- text_hash is sha256(text); vector is dims little-endian float32s.

CREATE TABLE embeddings (
    model      TEXT    NOT NULL,
    text_hash  BLOB    NOT NULL CHECK (length(text_hash) = 32),
    dims       INTEGER NOT NULL CHECK (dims > 0),
    vector     BLOB    NOT NULL CHECK (length(vector) = 4 * dims),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
