-- Every key of a table kept per game includes the game, so that the tables can be distributed by
-- game and co-located (Citus or another Postgres that shards by a column; README "Scaling"):
-- a refused attempt is identified within its game, and a finished game names its rematch without a
-- constraint that reaches into another game (the finished game's row lock keeps it to one).
-- repo's TestSchemaCanBeShardedByGame checks these rules against the catalogue.

-- +goose Up
ALTER TABLE attempts DROP CONSTRAINT attempts_pkey, ADD PRIMARY KEY (game_id, id);
DROP INDEX attempts_game;
ALTER TABLE games DROP CONSTRAINT games_rematch_id_key, DROP CONSTRAINT games_rematch_id_fkey;

-- +goose Down
ALTER TABLE games ADD CONSTRAINT games_rematch_id_fkey FOREIGN KEY (rematch_id) REFERENCES games,
	ADD CONSTRAINT games_rematch_id_key UNIQUE (rematch_id);
CREATE INDEX attempts_game ON attempts (game_id, id);
ALTER TABLE attempts DROP CONSTRAINT attempts_pkey, ADD PRIMARY KEY (id);
