-- Each history entry records the game's version right after it, so a live event carries the version
-- its entry produced rather than one worked out from the game's current version.
--
-- Existing rows: from the start on, each entry moves the version on by exactly one, and so does an
-- abort, which adds no entry (joins move it too, but only before the start). So the last entry of a
-- game produced its current version, less one if the game was aborted, and entry seq k produced
-- (last entry's version) - (last seq - k). These are the versions the event streams have been sending.

-- +goose Up
ALTER TABLE actions ADD COLUMN version bigint;
UPDATE actions a
SET version = g.version - (last.seq - a.seq) - CASE WHEN g.status = 'aborted' THEN 1 ELSE 0 END
FROM games g,
     (SELECT game_id, max(seq) AS seq FROM actions GROUP BY game_id) last
WHERE g.id = a.game_id AND last.game_id = a.game_id;
ALTER TABLE actions ALTER COLUMN version SET NOT NULL;

-- +goose Down
ALTER TABLE actions DROP COLUMN version;
