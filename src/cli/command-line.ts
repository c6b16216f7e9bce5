import { parseArgs } from 'node:util';
import { parseFeedId } from '../core/catalog/discovery/discovery-input.js';
import { wholeNumber } from '../core/whole-number.js';

/** What one command takes; every command is read by `readCommand` from one of these. */
export interface CommandSpec {
  /** Its lines in the usage: the command as typed, then what it does. */
  usage: string;
  /** Positional arguments in order, all required: no more, no fewer. */
  args: readonly string[];
  /** Options it takes (`string` ones take a value); any other is refused. */
  options?: Record<string, 'string' | 'boolean'>;
  /** Options it cannot do without. */
  required?: readonly string[];
  /** Arguments and options that are counts: decimal digits from 1 to `max` (no `0x10`, `1e3`, signs). */
  counts?: Record<string, { max?: number }>;
  /** Options that are feed ids: positive decimal integers, read as the API reads `feed_id`. */
  ids?: readonly string[];
  /** Arguments that take one of a few words (a plan name). */
  choices?: Record<string, readonly string[]>;
  /** Arguments checked by the core's own rule (a feed URL), which throws what is wrong, naming the field. */
  checks?: Record<string, (value: string) => unknown>;
}

/** A command line read by its spec. */
export interface ReadCommand {
  /** The spec's key: one word, or two (`import charts`). */
  name: string;
  args: Record<string, string>;
  options: Record<string, string | boolean | undefined>;
  /** The counts given, as numbers. */
  counts: Record<string, number | undefined>;
  /** The feed ids given. */
  ids: Record<string, bigint | undefined>;
}

class UsageError extends Error {}

/** Reads a count as the API reads one (core `wholeNumber`); an empty value is a wrong one here, not a missing one. */
function count(raw: string, field: string, max: number | undefined): number {
  try {
    return wholeNumber(raw === '' ? '-' : raw, field, { default: 0, max });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** Reads a feed id; an empty value is a wrong one here, not a missing one. */
function feedId(raw: string, field: string): bigint {
  try {
    return parseFeedId(raw === '' ? '-' : raw, field);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function parse(spec: CommandSpec, argv: string[]): Omit<ReadCommand, 'name'> {
  let parsed;
  try {
    const options = Object.fromEntries(Object.entries(spec.options ?? {}).map(([key, type]) => [key, { type }]));
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (err) {
    // A mistyped option, or a negative number read as one: Node's hint about `--` would mislead.
    const unknown = /^Unknown option '(.+?)'/.exec((err as Error).message)?.[1];
    throw new UsageError(unknown ? `unknown option ${unknown}` : (err as Error).message);
  }
  const { positionals, values } = parsed;
  const missing = spec.args.find((_, i) => !positionals[i]);
  if (missing) throw new UsageError(`<${missing}> is missing`);
  if (positionals.length > spec.args.length) throw new UsageError(`unexpected argument "${positionals[spec.args.length]}"`);
  const absent = spec.required?.find((key) => values[key] === undefined);
  if (absent) throw new UsageError(`--${absent} is required`);
  const args = Object.fromEntries(spec.args.map((key, i) => [key, positionals[i]!]));
  for (const [key, words] of Object.entries(spec.choices ?? {})) {
    if (!words.includes(args[key]!)) throw new UsageError(`<${key}>: must be one of ${words.join(', ')}, not "${args[key]}"`);
  }
  for (const [key, check] of Object.entries(spec.checks ?? {})) {
    try {
      check(args[key]!);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  const counts: Record<string, number | undefined> = {};
  for (const [key, { max }] of Object.entries(spec.counts ?? {})) {
    const raw = key in args ? args[key] : (values[key] as string | undefined);
    counts[key] = raw === undefined ? undefined : count(raw, key in args ? key : `--${key}`, max);
  }
  const ids: Record<string, bigint | undefined> = {};
  for (const key of spec.ids ?? []) {
    const raw = values[key] as string | undefined;
    ids[key] = raw === undefined ? undefined : feedId(raw, `--${key}`);
  }
  return { args, options: values, counts, ids };
}

/**
 * Finds `command` (with its first argument, for two-word commands) among
 * `specs` and reads the rest of the line by that spec. Returns the exit code
 * instead when there is nothing to run: 0 after `--help` (the command's
 * usage), 2 after an unknown command or a line its spec does not allow (what
 * is wrong, then the usage).
 * @example readCommand(specs, 'grant-credits', ['a@example.com', '5'], usage) // { name: 'grant-credits', args: { email, credits }, counts: { credits: 5 }, … }
 */
export function readCommand(specs: Record<string, CommandSpec>, command: string, argv: string[], usage: string): ReadCommand | 0 | 2 {
  const pair = `${command} ${argv[0] ?? ''}`.trim();
  const name = pair in specs ? pair : command;
  const spec = specs[name];
  if (!spec) {
    const twoWords = Object.keys(specs).some((key) => key.startsWith(`${command} `));
    process.stderr.write(`Unknown command "${twoWords ? pair : command}".\n${usage}\n`);
    return 2;
  }
  const rest = name === command ? argv : argv.slice(1);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`Usage:\n${spec.usage}\n`);
    return 0;
  }
  try {
    return { name, ...parse(spec, rest) };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${name}: ${err.message}\nUsage:\n${spec.usage}\n`);
    return 2;
  }
}

/** The usage lines of `specs`, under `title`. */
export function usageOf(title: string, specs: Record<string, CommandSpec>): string {
  return [title, ...Object.values(specs).map((spec) => spec.usage)].join('\n');
}
