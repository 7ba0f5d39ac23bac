-- Kept tallies (issue 23): each game keeps what its history has told a class's statistics so far,
-- brought up to date in the transaction of each entry, so that a class's statistics read one small
-- record per game instead of every entry of every game the class ever played.
--
-- tally_version is the game's version the tally was counted up to. A tally is current only while
-- tally_version equals the game's version; the games from before this migration (NULL), and any
-- game an older instance moved on during an upgrade, are counted from their history once, on the
-- next statistics request that needs them, and kept from then on.
--
-- The tally is json, not jsonb: kept as its text, it takes about half the room in the row, which
-- every step of a game rewrites (and which a heap-only update must find room for on its page).

-- +goose Up
ALTER TABLE games ADD COLUMN IF NOT EXISTS tally json;
ALTER TABLE games ADD COLUMN IF NOT EXISTS tally_version bigint;

-- +goose Down
ALTER TABLE games DROP COLUMN IF EXISTS tally_version;
ALTER TABLE games DROP COLUMN IF EXISTS tally;
