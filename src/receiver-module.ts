import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** Where the receivers' module is committed: `podtext/webhook-signature` for plain Node. */
export const RECEIVER_MODULE_PATH = 'src/webhook-signature.mjs';

/**
 * `podtext/webhook-signature` as plain JavaScript: receivers import it with
 * Node alone (a package's TypeScript is never stripped under node_modules).
 * Built from `src/webhook-signature.ts`, committed, and checked by a test.
 */
export function renderReceiverModule(): string {
  const out = buildSync({
    // From the repository's root, so the path comments in the output do not depend on where it is run.
    absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
    entryPoints: ['src/webhook-signature.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node18',
    legalComments: 'none',
    banner: { js: '// Generated from src/core/webhooks/signature.ts by `npm run schema:write`: do not edit.' },
  });
  return out.outputFiles[0]!.text;
}
