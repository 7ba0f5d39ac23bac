-- Each history entry records the computer player that made it, when one did, at the time it is
-- written. A seat's current player is not enough: a student who resigns a game of more than two
-- hands the seat to a computer (G-3), and the entries before that are still the student's, for the
-- history's marks, the move review and the statistics.

-- +goose Up
ALTER TABLE actions ADD COLUMN bot text;
-- Entries written before: a computer's seat made all its entries after the last resignation of
-- that seat (a seat that was a computer's from the start has none).
UPDATE actions a SET bot = s.bot
	FROM seats s
	WHERE s.game_id = a.game_id AND s.seat = a.seat AND s.bot IS NOT NULL AND NOT a.service
	AND a.seq > COALESCE((SELECT max(r.seq) FROM actions r
		WHERE r.game_id = a.game_id AND r.seat = a.seat AND r.service AND r.action->>'type' = 'resign'), -1);

-- +goose Down
ALTER TABLE actions DROP COLUMN bot;
