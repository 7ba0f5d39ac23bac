-- Codes a person types grew from six characters to eight (issue 39): 31^6 codes could be guessed
-- in hours from a few addresses. A lobby's invite code ends with its lobby (LOBBY_TTL), but a
-- classroom's join code lasted until its teacher rotated it; the six-character codes that exist
-- keep working for 30 days more (the time to hand out the new one), then only a rotated, long code
-- lets students join. A code drawn from now on has no end (NULL) until it is rotated.

-- +goose Up
ALTER TABLE classrooms ADD COLUMN IF NOT EXISTS join_code_expires_at timestamptz;
UPDATE classrooms SET join_code_expires_at = now() + interval '30 days'
    WHERE length(join_code) < 9 AND join_code_expires_at IS NULL;

-- +goose Down
ALTER TABLE classrooms DROP COLUMN IF EXISTS join_code_expires_at;
