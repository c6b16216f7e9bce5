import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { pgliteExtensions } from '../src/infra/db/open-database.js';
import { migrate } from '../src/infra/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplateDb: string | null;
  }
}

/**
 * Migrates once per run: a PGlite dump every test file starts from, and on
 * PostgreSQL (TEST_DATABASE_URL) a template database each file copies.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const dir = path.resolve('.tmp');
  await mkdir(dir, { recursive: true });
  const lite = await PGlite.create({ extensions: pgliteExtensions });
  await migrate({ exec: async (s) => void (await lite.exec(s)), query: async (s, p) => (await lite.query(s, p)).rows as never });
  const dump = await lite.dumpDataDir('none');
  const file = path.join(dir, `pglite-template-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await lite.close();
  project.provide('pgliteTemplate', file);

  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    project.provide('pgTemplateDb', null);
    return;
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // One template per run, so runs from several checkouts can share a server.
  const template = `podtext_test_template_${process.pid}`;
  await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${template}' AND pid <> pg_backend_pid()`);
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${template}`;
  const client = new pg.Client({ connectionString: u.toString() });
  await client.connect();
  await migrate({ exec: async (s) => void (await client.query(s)), query: async (s, p) => (await client.query(s, p)).rows as never });
  await client.end();
  project.provide('pgTemplateDb', template);
  return async () => {
    const drop = new pg.Client({ connectionString: url });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await drop.end();
  };
}
