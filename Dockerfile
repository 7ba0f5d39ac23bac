# Build a static binary, then run it as a non-root user on a minimal image.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/primegames ./cmd/primegames

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/primegames /usr/local/bin/primegames
USER nonroot:nonroot
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/primegames"]
CMD ["serve"]
