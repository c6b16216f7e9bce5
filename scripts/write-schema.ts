// Writes the generated API descriptions into schema/ (committed; a test fails when they drift).
import { writeFile } from 'node:fs/promises';
import { RECEIVER_MODULE_PATH, renderReceiverModule } from '../src/receiver-module.js';
import { renderSchemaFiles } from '../src/schema-files.js';

const files = renderSchemaFiles();
for (const [name, content] of Object.entries(files)) {
  await writeFile(new URL(`../schema/${name}`, import.meta.url), content);
  process.stdout.write(`wrote schema/${name}\n`);
}
await writeFile(new URL(`../${RECEIVER_MODULE_PATH}`, import.meta.url), renderReceiverModule());
process.stdout.write(`wrote ${RECEIVER_MODULE_PATH}\n`);
