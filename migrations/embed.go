// Package migrations holds the database schema as goose SQL migrations, embedded in the binary.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
