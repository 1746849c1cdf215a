-- The form inbox: one row per accepted message. Used as is by `ssg serve` (SQLite, applied at
-- start) and by Cloudflare D1 (`wrangler d1 migrations apply`). A row is undelivered while
-- delivered_at is NULL; next_attempt_at says when it may be tried again.
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  received_at TEXT NOT NULL,
  client_address TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  subject TEXT NOT NULL,
  message TEXT NOT NULL,
  delivered_at TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  next_attempt_at TEXT
);
CREATE INDEX IF NOT EXISTS messages_undelivered ON messages (next_attempt_at) WHERE delivered_at IS NULL;
