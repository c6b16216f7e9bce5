import { parseArgs } from 'node:util';
import { boot } from '../boot.js';
import type { Config } from '../config.js';
import { CATALOG_COMMANDS, CATALOG_USAGE, runCatalogCommand } from './catalog-commands.js';

const USAGE = `Podtext admin commands (npm run cli -- <command>):
  grant-credits <email> <credits> [--reason TEXT]   add credits as a ledger grant
  set-plan <email> <free|plus|pro|business> [--customer ID]
                                                    move an account to a plan (new cycle starts now)
  show-account <email>                              print the account, usage and ledger
  migrate                                           apply database migrations and exit`;

/** Runs one admin command against the configured database; returns the exit code. */
export async function runAdminCommand(config: Config, command: string, args: string[]): Promise<number> {
  if (command === 'help' || command === '--help') {
    process.stdout.write(`${USAGE}\n${CATALOG_USAGE}\n`);
    return 0;
  }
  if (CATALOG_COMMANDS.has(command)) return runCatalogCommand(config, command, args);
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' }, customer: { type: 'string' } } });
  const podtext = await boot({ ...config, logLevel: 'warn' });
  const { accounts } = podtext.services;
  try {
    switch (command) {
      case 'migrate':
        process.stdout.write('Migrations applied.\n');
        return 0;
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
        process.stderr.write(`Unknown command "${command}".\n${USAGE}\n`);
        return 2;
    }
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 1;
  } finally {
    await podtext.stop();
  }
}
