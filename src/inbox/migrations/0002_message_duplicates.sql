-- A form sent twice with the same fields within a short window is stored once: the insert looks
-- for an earlier copy by sender and time first (src/inbox/inbox-sql.ts).
CREATE INDEX IF NOT EXISTS messages_by_sender ON messages (email, received_at);
