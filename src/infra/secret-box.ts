import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Encrypts small secrets (API keys, webhook secrets) at rest with AES-256-GCM. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/**
 * @param secret any string of at least 32 characters; it is hashed to the AES key.
 * @example const box = createSecretBox(config.secretKey); box.open(box.seal('x')) === 'x'
 */
export function createSecretBox(secret: string): SecretBox {
  const key = createHash('sha256').update(`podtext:secret-box:${secret}`).digest();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** Whether `sealed` opens with `box`: false for another secret's seal. */
export function canOpen(box: SecretBox, sealed: string): boolean {
  try {
    box.open(sealed);
    return true;
  } catch {
    return false;
  }
}

/** The secret and where it came from, for messages: `SECRET_KEY`, or the file (generated now or before). */
export interface ResolvedSecret {
  secret: string;
  from: string;
}

/**
 * The configured secret, or one generated into `$DATA_DIR/secret.key` on first
 * start (mode 0600) and reused after.
 */
export async function resolveSecret(configured: string | undefined, dataDir: string): Promise<ResolvedSecret> {
  if (configured) return { secret: configured, from: 'SECRET_KEY' };
  const file = path.join(dataDir, 'secret.key');
  try {
    return { secret: (await readFile(file, 'utf8')).trim(), from: file };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(dataDir, { recursive: true });
  const fresh = randomBytes(32).toString('base64url');
  try {
    await writeFile(file, `${fresh}\n`, { mode: 0o600, flag: 'wx' });
    return { secret: fresh, from: `${file}, generated at this start` };
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { secret: (await readFile(file, 'utf8')).trim(), from: file };
    throw err;
  }
}
