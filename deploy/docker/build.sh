#!/bin/sh
# The build stage of deploy/Dockerfile, as a script so that it runs the same in the image and
# in the test suite (deploy/deploy.e2e.test.ts runs it in a clean copy of the repository).
#   build.sh SOURCE_DIR APP_DIR
# Installs the workspace, builds the server (its docs site included), packs it as npm would
# publish it, and installs that package with its production dependencies only into APP_DIR:
# APP_DIR/node_modules/.bin/stockroom is then the whole application.
set -eu
src=$(cd "$1" && pwd)
app=$2
cd "$src"
# Scripts off for the install: the workspace's `prepare` would build before the sources are
# complete, and only better-sqlite3's native build is wanted (rebuilt explicitly below).
npm install --no-audit --no-fund --ignore-scripts
npm rebuild better-sqlite3
npm run build -w stockroom --silent
tarball=$(npm pack -w stockroom --pack-destination "$src" --silent | tail -n 1)
mkdir -p "$app"
cd "$app"
[ -f package.json ] || printf '{ "name": "stockroom-app", "private": true }\n' > package.json
npm install --omit=dev --no-audit --no-fund --ignore-scripts "$src/$tarball"
npm rebuild better-sqlite3
node node_modules/stockroom/bin/stockroom.js --version
