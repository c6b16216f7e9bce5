#!/bin/sh
# Sets up what a fresh clone lacks: npm packages and the generated Prisma client.
# Safe to run every time; it does nothing when everything is in place.
set -e
cd "$(dirname "$0")/.."
# A symlinked node_modules is shared with another checkout: installing here would replace it under that one.
if [ ! -e node_modules ] || { [ ! -L node_modules ] && [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  echo "Installing npm packages…"
  npm ci --no-audit --no-fund --loglevel=error
fi
if [ ! -f src/generated/prisma/client.ts ] || [ prisma/schema.prisma -nt src/generated/prisma/client.ts ]; then
  # generate needs no schema engine; pointing at an existing file stops Prisma from downloading one.
  PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-/bin/false}" npx prisma generate >/dev/null
  touch src/generated/prisma/client.ts
fi
