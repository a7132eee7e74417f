# drydock's container image, built from source:
#
#   docker build -t drydock .
#   docker run --rm -v "$PWD:/work" drydock test
#
# The two static binaries (CGO_ENABLED=0, -trimpath), drydock and the
# drydock-engine it runs, side by side on distroless's static base,
# run as its non-root user 65532. The builder's Go is go.mod's go line
# (release_test.go checks it). Releases publish the same image from the
# release binaries (Dockerfile.goreleaser, .goreleaser.yaml).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=""
ARG COMMIT=""
ARG DATE=""
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT} -X main.date=${DATE}" \
      -o /out/ ./cmd/drydock ./cmd/drydock-engine

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/drydock /out/drydock-engine /usr/local/bin/
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/drydock"]
