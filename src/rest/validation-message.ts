import type { z } from '@hono/zod-openapi';

type Issue = z.core.$ZodIssue;

const KINDS: Record<string, string> = {
  string: 'a string',
  array: 'a list',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
};

const UNITS: Record<string, [string, string]> = { string: ['character', 'characters'], array: ['item', 'items'] };

/**
 * A validation failure in the words of the API's own messages ("required",
 * "must be a string", "at most 200 characters"), not the validator's
 * ("Invalid input: expected string, received undefined"). The caller puts the
 * field's name in front.
 */
export function validationMessage(issue: Issue): string {
  if (issue.code === 'unrecognized_keys') return 'not a field of this request (names are snake_case, as documented)';
  // A message the schema wrote itself stands as written.
  if (!/^(Invalid input|Too big|Too small|Invalid option)\b/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return 'required';
      return `must be ${KINDS[issue.expected] ?? issue.expected}`;
    case 'too_big':
    case 'too_small': {
      const unit = UNITS[issue.origin];
      const n = Number(issue.code === 'too_big' ? issue.maximum : issue.minimum);
      const bound = issue.code === 'too_big' ? (issue.inclusive === false ? 'less than' : 'at most') : issue.inclusive === false ? 'more than' : 'at least';
      return `${bound} ${n}${unit ? ` ${n === 1 ? unit[0] : unit[1]}` : ''}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    default:
      return issue.message;
  }
}
