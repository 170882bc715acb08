#!/bin/sh
# Writes the secrets compose.yaml reads: a random PostgreSQL password, and the DATABASE_URL
# holding it. Run once, from this folder; it never overwrites existing files.
set -eu
cd "$(dirname "$0")"
mkdir -p secrets
chmod 700 secrets
if [ ! -f secrets/postgres_password ]; then
  umask 077
  password=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
  printf '%s\n' "$password" > secrets/postgres_password
  printf 'postgres://stockroom:%s@postgres:5432/stockroom\n' "$password" > secrets/database_url
  echo "wrote secrets/postgres_password and secrets/database_url"
else
  echo "secrets/ already holds a password: left as it is"
fi
