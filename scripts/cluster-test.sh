#!/usr/bin/env bash
# The test over the cluster: brings up scripts/cluster.sh's cluster unless it is up, runs the
# cluster tests of api/cluster_test.go against it (64 conflicting actions across the 3 instances;
# an instance and the replica killed mid-load), starts the killed instance and replica again
# (cluster.sh heal), and brings the cluster down if it brought it up.
#
#   scripts/cluster-test.sh [go test flags, e.g. -run TestClusterConflicting]
set -euo pipefail
cd "$(dirname "$0")/.."

export CLUSTER_DIR=${CLUSTER_DIR:-/tmp/primegames-cluster}
if [ ! -f "$CLUSTER_DIR/ports" ]; then
  trap 'scripts/cluster.sh down' EXIT
  scripts/cluster.sh up
fi
TEST_CLUSTER_DIR=$CLUSTER_DIR go test ./api -run 'TestCluster' -count=1 -v "$@"
scripts/cluster.sh heal
scripts/cluster.sh status
