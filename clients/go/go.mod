module primegames.dev/client

go 1.24

require (
	github.com/google/uuid v1.6.0
	github.com/oapi-codegen/runtime v1.3.1
)

require github.com/apapsch/go-jsonmerge/v2 v2.0.0 // indirect
