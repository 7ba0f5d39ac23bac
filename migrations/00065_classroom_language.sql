-- A classroom's default language (issue 43): the language its pages, pictures and refusals are
-- said in when a request names none the service speaks. '' is none (English).
-- +goose Up
ALTER TABLE classrooms ADD COLUMN language text NOT NULL DEFAULT '' CHECK (length(language) <= 35);

-- +goose Down
ALTER TABLE classrooms DROP COLUMN language;
