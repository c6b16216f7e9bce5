// `npm run bench`: every benchmark, each against a baseline measured in the same run.
import { runMeBench } from './me.js';

const sections: [string, () => Promise<string[]>][] = [['me', runMeBench]];

const only = process.argv.slice(2);
for (const [name, run] of sections) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  try {
    console.log((await run()).join('\n'));
  } catch (err) {
    console.log(`## ${name}: failed: ${(err as Error).message}`);
    process.exitCode = 1;
  }
  console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
