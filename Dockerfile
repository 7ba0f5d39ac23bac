# Build a static binary, then run it as a non-root user on a minimal image.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
# The api tests' client module, which go.mod replaces with this directory: its go.mod is read too.
COPY clients/go/go.mod clients/go/go.sum ./clients/go/
RUN go mod download
COPY . .
# `primegames version` prints VERSION: docker compose build --build-arg VERSION=$(git describe --always --dirty)
ARG VERSION=""
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION}" -o /out/primegames ./cmd/primegames

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/primegames /usr/local/bin/primegames
USER nonroot:nonroot
EXPOSE 8080
# No shell in this image: the binary checks itself (GET /readyz on LISTEN_ADDR).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["/usr/local/bin/primegames", "health"]
ENTRYPOINT ["/usr/local/bin/primegames"]
CMD ["serve"]
