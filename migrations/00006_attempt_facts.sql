-- A refused action keeps the facts of its refusal (the numbers behind its detail, as the problem
-- document's `facts` gave them), so that a teacher's review and the class statistics can read them.
-- Attempts recorded before this migration have none (NULL).

-- +goose Up
ALTER TABLE attempts ADD COLUMN facts jsonb;

-- +goose Down
ALTER TABLE attempts DROP COLUMN facts;
