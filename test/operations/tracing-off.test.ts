import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('tracing off', () => {
  it('the bundle loads no OpenTelemetry module until OTEL_EXPORTER_OTLP_ENDPOINT asks for it', async () => {
    // The options of scripts/build.mjs, written to memory.
    const out = await build({ entryPoints: ['src/main.ts'], bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'silent' });
    const code = out.outputFiles[0]!.text;
    // Static imports run at start; only dynamic import() calls may name the SDK.
    expect(code).not.toMatch(/^import[^;]*["']@opentelemetry\//m);
    expect(code).toMatch(/import\(["']@opentelemetry\/sdk-trace-node["']\)/);
  }, 60_000);
});
