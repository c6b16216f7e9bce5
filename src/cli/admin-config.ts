import type { Config } from '../config.js';

/**
 * The config an admin command boots with: quieter logs, and no statement
 * time limit, since an import, a reindex or a migration may rightly run one
 * statement for minutes (the limit is for calls someone is waiting on).
 */
export function adminConfig(config: Config): Config {
  return { ...config, logLevel: 'warn', statementTimeoutSeconds: 0 };
}
