#!/usr/bin/env bash
# The test over the cluster: brings up scripts/cluster.sh's cluster unless it is up, runs the
# cluster tests of api/cluster_test.go against it (64 conflicting actions across the 3 instances;
# an instance and the replica killed mid-load), and brings the cluster down again if it brought it
# up. The outage test leaves one instance and the replica dead, so a cluster that was already up
# is left degraded: run `scripts/cluster.sh down` before the next run.
#
#   scripts/cluster-test.sh [go test flags, e.g. -run TestClusterConflicting]
set -euo pipefail
cd "$(dirname "$0")/.."

export CLUSTER_DIR=${CLUSTER_DIR:-/tmp/primegames-cluster}
started=
if [ ! -f "$CLUSTER_DIR/ports" ]; then
  scripts/cluster.sh up
  started=1
  trap 'scripts/cluster.sh down' EXIT
fi
TEST_CLUSTER_DIR=$CLUSTER_DIR go test ./api -run 'TestCluster' -count=1 -v "$@"
[ -n "$started" ] || echo "cluster-test: the cluster was up before and is left as the test left it (one instance and the replica killed)"
