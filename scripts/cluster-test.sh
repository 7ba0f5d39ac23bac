#!/usr/bin/env bash
# The test over the cluster: brings up scripts/cluster.sh's cluster unless it is up, runs the
# cluster tests of api/cluster_test.go against it (64 conflicting actions across the 3 instances;
# an instance and the replica killed mid-load), starts the killed instance and replica again
# (cluster.sh heal), and brings the cluster down if it brought it up.
#
#   scripts/cluster-test.sh [go test flags, e.g. -run TestClusterConflicting]
#
# Without flags it then runs repo's test of the replica's reads against the cluster too.
# It fails unless every cluster test that go test ran passed, and without flags unless all of
# them ran: a test that skipped (it found no cluster) or did not run fails it, so that CI cannot
# pass without having tested the cluster.
set -euo pipefail
cd "$(dirname "$0")/.."

export CLUSTER_DIR=${CLUSTER_DIR:-/tmp/primegames-cluster}
output=$(mktemp)
brought_up=
trap 'rm -f "$output"; [ -z "$brought_up" ] || scripts/cluster.sh down' EXIT
if [ ! -f "$CLUSTER_DIR/ports" ]; then
  brought_up=yes
  scripts/cluster.sh up
fi
TEST_CLUSTER_DIR=$CLUSTER_DIR go test ./api -run 'TestCluster' -count=1 -v "$@" 2>&1 | tee "$output"

ran=$(sed -n 's/^=== RUN   \(TestCluster[^/]*\)$/\1/p' "$output" | sort -u)
passed=$(sed -n 's/^--- PASS: \(TestCluster[^ ]*\) .*/\1/p' "$output" | sort -u)
expected=$ran
if [ $# -eq 0 ]; then
  expected=$(sed -n 's/^func \(TestCluster[A-Za-z0-9_]*\)(.*/\1/p' api/*_test.go | sort -u)
fi
not_passed=$(comm -23 <(echo "$expected") <(echo "$passed"))
if [ -z "$expected" ] || [ -n "$not_passed" ]; then
  not_passed=${not_passed:-none ran at all}
  echo "cluster-test: these cluster tests skipped or did not run: ${not_passed//$'\n'/ }" >&2
  exit 1
fi
echo "cluster-test: passed:" $passed

scripts/cluster.sh heal

# Then, on the full run, the replica's own test (repo), once heal has it streaming again: reads go
# to the replica only when it has replayed every write committed before them.
if [ $# -eq 0 ]; then
  port() { sed -n "s/^$1=//p" "$CLUSTER_DIR/ports"; }
  replica_test=TestReadsGoToTheReplicaOnlyOnceItHasReplayedTheWrites
  TEST_PRIMARY_URL="postgres://postgres@127.0.0.1:$(port primary)/primegames?sslmode=disable" \
  TEST_REPLICA_URL="postgres://postgres@127.0.0.1:$(port replica)/primegames?sslmode=disable" \
    go test ./repo -run "^$replica_test\$" -count=1 -v 2>&1 | tee "$output"
  if ! grep -q "^--- PASS: $replica_test " "$output"; then
    echo "cluster-test: $replica_test skipped or did not run" >&2
    exit 1
  fi
fi
scripts/cluster.sh status
