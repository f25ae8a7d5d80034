#!/bin/sh
# Make sure PostgreSQL's server programs (initdb, pg_ctl) are installed, for the storage
# tests that run against a real PostgreSQL (tests/pgserver.py starts one in a temporary
# directory). Debian's package; the lead's .ci/run calls this before the tests.
set -eu
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends postgresql
