import { readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { boot } from '../boot.js';
import { MAX_BALANCE } from '../core/ledger.js';
import { planNames } from '../core/pricing.js';
import { openDatabase } from '../infra/db/open-database.js';
import { canOpen, createSecretBox } from '../infra/secret-box.js';
import type { Config } from '../config.js';
import { CATALOG_USAGE, isCatalogCommand, runCatalogCommand } from './catalog-commands.js';
import { adminConfig } from './admin-config.js';
import { type CommandSpec, readCommand, usageOf } from './command-line.js';
import { commandMessage } from '../infra/operator-error.js';

/**
 * Writes `body` to `file` as one step: into a new file beside it, renamed over
 * `file` once complete. A backup that fails midway (a full disk, a signal)
 * leaves the previous one at `file` whole, and the file is always new, so
 * readable by its owner only (the whole database: addresses, key hashes and
 * sealed keys) even when it replaces one made with other permissions.
 */
async function writeWhole(file: string, body: Buffer): Promise<void> {
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  try {
    await writeFile(partial, body, { mode: 0o600, flag: 'wx' });
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

const COMMANDS: Record<string, CommandSpec> = {
  'grant-credits': {
    usage: '  grant-credits <email> <credits> [--reason TEXT]   add credits as a ledger grant',
    args: ['email', 'credits'],
    options: { reason: 'string' },
    counts: { credits: { max: MAX_BALANCE } },
  },
  'set-plan': {
    usage: `  set-plan <email> <free|plus|pro|business> [--customer ID]
                                                    move an account to a plan (new cycle starts now)`,
    args: ['email', 'plan'],
    options: { customer: 'string' },
    choices: { plan: planNames },
  },
  'show-account': { usage: '  show-account <email>                              print the account, usage and ledger', args: ['email'] },
  migrate: { usage: '  migrate                                           apply database migrations and exit', args: [] },
  backup: { usage: '  backup <file.tar.gz>                              PGlite: write the database to one file (server stopped)', args: ['file'] },
  restore: { usage: '  restore <file.tar.gz>                             PGlite: start an empty $DATA_DIR from such a file', args: ['file'] },
};

const USAGE = usageOf(
  `Podtext commands (npm run cli -- <command>):
  serve                                             serve the API, site and workers (what npm start runs)
  worker                                            run the workers only (what npm run worker runs)`,
  COMMANDS,
);

/**
 * Restores a `backup` file into `$DATA_DIR/pglite`, which must not hold a
 * database yet. The backup's sealed values (API keys mailed again on request,
 * webhook secrets) open only with the secret they were sealed with, so the
 * secret must be in place first and must open them: a fresh one generated at
 * the next start would make every known address's registration fail.
 */
async function restore(config: Config, file: string): Promise<number> {
  if (config.databaseUrl) throw new Error('restore: this Podtext uses PostgreSQL (DATABASE_URL); restore with pg_restore');
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

/** Runs one admin command against the configured database; returns the exit code. */
export async function runAdminCommand(config: Config, command: string, argv: string[]): Promise<number> {
  if (command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n${CATALOG_USAGE}\n`);
    return 0;
  }
  if (!command) {
    process.stderr.write(`No command given.\n${USAGE}\n${CATALOG_USAGE}\n`);
    return 2;
  }
  if (isCatalogCommand(command)) return runCatalogCommand(config, command, argv);
  const read = readCommand(COMMANDS, command, argv, `${USAGE}\n${CATALOG_USAGE}`);
  if (typeof read === 'number') return read;
  const { args, options, counts } = read;
  if (command === 'restore') {
    try {
      return await restore(config, args.file!);
    } catch (err) {
      process.stderr.write(`${commandMessage(err, args.file)}\n`);
      return 1;
    }
  }
  // Only `migrate` may create a database: a mistyped DATA_DIR must not give a backup of an empty one.
  if (!config.databaseUrl && command !== 'migrate' && (await readdir(path.join(config.dataDir, 'pglite')).catch(() => [])).length === 0) {
    process.stderr.write(`${command}: ${path.resolve(config.dataDir)} holds no Podtext database; set DATA_DIR to the server's data directory (or run migrate to create one there).\n`);
    return 1;
  }
  const podtext = await boot(adminConfig(config));
  const { accounts } = podtext.services;
  try {
    switch (command) {
      case 'migrate':
        process.stdout.write('Migrations applied.\n');
        return 0;
      case 'backup': {
        const file = args.file!;
        if (!podtext.db.dump) throw new Error('backup: this Podtext uses PostgreSQL (DATABASE_URL); back it up with pg_dump');
        const dump = Buffer.from(await (await podtext.db.dump()).arrayBuffer());
        await writeWhole(file, dump);
        process.stdout.write(`Wrote ${file} (${dump.length} bytes). Keep $DATA_DIR/secret.key (or SECRET_KEY) with it.\n`);
        return 0;
      }
      case 'grant-credits': {
        const balance = await accounts.grantCredits(args.email!, counts.credits!, (options.reason as string | undefined) ?? 'Granted by an administrator');
        process.stdout.write(`Granted ${counts.credits} credits to ${args.email}; balance ${balance}.\n`);
        return 0;
      }
      case 'set-plan': {
        await accounts.setPlan(args.email!, args.plan!, options.customer as string | undefined);
        process.stdout.write(`${args.email} is now on ${args.plan}.\n`);
        return 0;
      }
      case 'show-account': {
        const shown = await accounts.show(args.email!);
        process.stdout.write(`${JSON.stringify(shown, (_k, v) => (typeof v === 'bigint' ? String(v) : v), 2)}\n`);
        return 0;
      }
      default:
        throw new Error(`Unknown command "${command}".`);
    }
  } catch (err) {
    process.stderr.write(`${commandMessage(err, args.file)}\n`);
    return 1;
  } finally {
    await podtext.stop();
  }
}
