#!/usr/bin/env bash
# Runs the whole test suite of the committed HEAD on another Node.js release, e.g.
#
#   npm run test:node -- 22        # the newest 22.x
#   npm run test:node -- 24.21.0   # an exact release
#
# The code must run on Node 20, 22 and 24, but a machine usually has one of them. Node's
# official Linux and macOS builds are published on the npm registry as node-<platform>-<arch>
# (the packages behind the `node` package), so this needs nothing but the registry: no nvm, no
# download from nodejs.org. That package carries Node's headers too, which better-sqlite3's
# native build compiles against (npm_config_nodedir) without fetching them.
#
# The suite runs in a fresh clone of HEAD under a temporary directory, as CI runs it, so the
# native modules built for that Node's ABI never replace the ones of this checkout. Set
# KEEP_CLONE=1 to keep the clone; CI=true is passed through (legs needing PostgreSQL or Redis
# then fail instead of being skipped).
set -euo pipefail
cd "$(dirname "$0")/.."

wanted="${1:-}"
if [[ ! "$wanted" =~ ^[0-9]+(\.[0-9]+\.[0-9]+)?$ ]]; then
  echo "usage: npm run test:node -- <major or exact version>, e.g. 22 or 24.21.0" >&2
  exit 2
fi

package="node-$(node -p process.platform)-$(node -p process.arch)"
# `npm view pkg@22 version` lists every matching version; the registry's order is not semver's.
version="$(npm view "$package@$wanted" version --json | node -e '
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk)).on("end", () => {
    const found = [].concat(text.trim() ? JSON.parse(text) : []);
    found.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    if (found.length) console.log(found.at(-1));
  });
')"
if [ -z "$version" ]; then
  echo "no release of $package matches $wanted on the npm registry" >&2
  exit 1
fi

cache="${XDG_CACHE_HOME:-$HOME/.cache}/stockroom/$package-$version"
if [ ! -x "$cache/package/bin/node" ]; then
  echo "== fetching $package@$version from the npm registry"
  rm -rf "$cache" && mkdir -p "$cache"
  (cd "$cache" && npm pack --silent "$package@$version" >/dev/null && tar xzf ./*.tgz && rm ./*.tgz)
fi
runtime="$cache/package"

clone="$(mktemp -d "${TMPDIR:-/tmp}/stockroom-node-$version-XXXXXX")"
if [ "${KEEP_CLONE:-}" != 1 ]; then trap 'rm -rf "$clone"' EXIT; fi
git clone --quiet . "$clone"
cd "$clone"
echo "== HEAD $(git rev-parse --short HEAD) on Node $("$runtime/bin/node" --version), in $clone"

export PATH="$runtime/bin:$PATH"
export npm_config_nodedir="$runtime"
npm install --no-audit --no-fund
npm test
