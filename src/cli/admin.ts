import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { boot } from '../boot.js';
import { openDatabase } from '../infra/db/open-database.js';
import { canOpen, createSecretBox } from '../infra/secret-box.js';
import type { Config } from '../config.js';
import { CATALOG_COMMANDS, CATALOG_USAGE, runCatalogCommand } from './catalog-commands.js';

const USAGE = `Podtext commands (npm run cli -- <command>):
  serve                                             serve the API, site and workers (what npm start runs)
  worker                                            run the workers only (what npm run worker runs)
  grant-credits <email> <credits> [--reason TEXT]   add credits as a ledger grant
  set-plan <email> <free|plus|pro|business> [--customer ID]
                                                    move an account to a plan (new cycle starts now)
  show-account <email>                              print the account, usage and ledger
  migrate                                           apply database migrations and exit
  backup <file.tar.gz>                              PGlite: write the database to one file (server stopped)
  restore <file.tar.gz>                             PGlite: start an empty $DATA_DIR from such a file`;

/**
 * Restores a `backup` file into `$DATA_DIR/pglite`, which must not hold a
 * database yet. The backup's sealed values (API keys mailed again on request,
 * webhook secrets) open only with the secret they were sealed with, so the
 * secret must be in place first and must open them: a fresh one generated at
 * the next start would make every known address's registration fail.
 */
async function restore(config: Config, file: string | undefined): Promise<number> {
  if (config.databaseUrl) throw new Error('restore: this Podtext uses PostgreSQL (DATABASE_URL); restore with pg_restore');
  if (!file) throw new Error('usage: restore <file.tar.gz>');
  const dir = path.join(config.dataDir, 'pglite');
  const present = await readdir(dir).catch(() => []);
  if (present.length > 0) throw new Error(`restore: ${dir} already holds a database; point DATA_DIR at an empty directory`);
  const secret = config.secretKey ?? (await readFile(path.join(config.dataDir, 'secret.key'), 'utf8').then((s) => s.trim(), () => ''));
  if (!secret) throw new Error(`restore: put the secret.key kept with the backup into ${config.dataDir} (or set SECRET_KEY) first: without it the backup's API keys and webhook secrets cannot be read`);
  let db;
  try {
    const backup = await readFile(file);
    // PGlite reads a truncated archive on a stream whose error escapes it: unpack it here first.
    if (backup[0] === 0x1f && backup[1] === 0x8b) gunzipSync(backup);
    db = await openDatabase({ pgliteDir: dir, pgliteTemplate: new Blob([backup]) });
  } catch (err) {
    // A truncated or foreign file: leave the directory as empty as it was, lock file included.
    await rm(dir, { recursive: true, force: true });
    await rm(path.join(config.dataDir, 'pglite.lock'), { force: true });
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`restore: there is no file ${file}.`);
    throw new Error(`restore: ${file} is not a Podtext backup, or it is damaged (${(err as Error).message}). Nothing was restored.`);
  }
  let opens = true;
  try {
    const [sealed] = await db.prisma.$queryRaw<{ encrypted_key: string }[]>`SELECT encrypted_key FROM api_keys LIMIT 1`;
    if (sealed) opens = canOpen(createSecretBox(secret), sealed.encrypted_key);
  } finally {
    await db.close();
  }
  if (!opens) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`restore: the secret key in place does not open this backup's API keys; use the secret.key (or SECRET_KEY) kept with the backup. Nothing was restored.`);
  }
  process.stdout.write(`Restored ${file} into ${dir}.\n`);
  return 0;
}

const ADMIN_COMMANDS = new Set(['migrate', 'backup', 'grant-credits', 'set-plan', 'show-account']);

/** Runs one admin command against the configured database; returns the exit code. */
export async function runAdminCommand(config: Config, command: string, args: string[]): Promise<number> {
  if (command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n${CATALOG_USAGE}\n`);
    return 0;
  }
  if (!command) {
    process.stderr.write(`No command given.\n${USAGE}\n${CATALOG_USAGE}\n`);
    return 2;
  }
  if (CATALOG_COMMANDS.has(command)) return runCatalogCommand(config, command, args);
  if (command === 'restore') {
    try {
      return await restore(config, args[0]);
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n`);
      return 1;
    }
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' }, customer: { type: 'string' } } });
  } catch (err) {
    // A mistyped option (or a negative number read as one): the usage, not a stack trace.
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (!ADMIN_COMMANDS.has(command)) {
    process.stderr.write(`Unknown command "${command}".\n${USAGE}\n`);
    return 2;
  }
  // Only `migrate` may create a database: a mistyped DATA_DIR must not give a backup of an empty one.
  if (!config.databaseUrl && command !== 'migrate' && (await readdir(path.join(config.dataDir, 'pglite')).catch(() => [])).length === 0) {
    process.stderr.write(`${command}: ${path.resolve(config.dataDir)} holds no Podtext database; set DATA_DIR to the server's data directory (or run migrate to create one there).\n`);
    return 1;
  }
  const podtext = await boot({ ...config, logLevel: 'warn' });
  const { accounts } = podtext.services;
  try {
    switch (command) {
      case 'migrate':
        process.stdout.write('Migrations applied.\n');
        return 0;
      case 'backup': {
        const [file] = positionals;
        if (!file) throw new Error('usage: backup <file.tar.gz>');
        if (!podtext.db.dump) throw new Error('backup: this Podtext uses PostgreSQL (DATABASE_URL); back it up with pg_dump');
        const dump = Buffer.from(await (await podtext.db.dump()).arrayBuffer());
        await writeFile(file, dump);
        process.stdout.write(`Wrote ${file} (${dump.length} bytes). Keep $DATA_DIR/secret.key (or SECRET_KEY) with it.\n`);
        return 0;
      }
      case 'grant-credits': {
        const [email, n] = positionals;
        const credits = Number(n);
        if (!email || !Number.isInteger(credits) || credits <= 0) throw new Error('usage: grant-credits <email> <positive credits>');
        const balance = await accounts.grantCredits(email, credits, values.reason ?? 'Granted by an administrator');
        process.stdout.write(`Granted ${credits} credits to ${email}; balance ${balance}.\n`);
        return 0;
      }
      case 'set-plan': {
        const [email, plan] = positionals;
        if (!email || !plan) throw new Error('usage: set-plan <email> <plan>');
        await accounts.setPlan(email, plan, values.customer);
        process.stdout.write(`${email} is now on ${plan}.\n`);
        return 0;
      }
      case 'show-account': {
        const [email] = positionals;
        if (!email) throw new Error('usage: show-account <email>');
        const shown = await accounts.show(email);
        process.stdout.write(`${JSON.stringify(shown, (_k, v) => (typeof v === 'bigint' ? String(v) : v), 2)}\n`);
        return 0;
      }
      default:
        throw new Error(`Unknown command "${command}".`);
    }
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 1;
  } finally {
    await podtext.stop();
  }
}
