/**
 * The health routes in the OpenAPI document. They live at the site root, so
 * each path names its own server instead of the document's `/api/v1`.
 */
export function withOperationsPaths<T extends { paths?: object }>(doc: T, siteUrl: string): T {
  const health = (operationId: string, summary: string, description: string, ok: string) => ({
    servers: [{ url: siteUrl }],
    get: {
      operationId,
      tags: ['Operations'],
      summary,
      description,
      security: [],
      responses: {
        '200': { description: ok, content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } } } },
        ...(operationId === 'getReadyz'
          ? {
              '503': {
                description: 'Not ready: shutting down (`draining`), or the database is unreachable, busy or not migrated (`unavailable`; each problem names which, as `database: busy: …` or `database: unreachable: …`).',
                content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string', enum: ['draining', 'unavailable'] }, problems: { type: 'array', items: { type: 'string' } } }, required: ['status', 'problems'] } } },
              },
            }
          : {}),
      },
    },
  });
  return {
    ...doc,
    paths: {
      ...doc.paths,
      '/livez': health('getLivez', `Liveness, at ${siteUrl}/livez (not under /api/v1)`, 'The process answers. Keyless and not metered; at the site root, not under /api/v1.', 'Alive: `{"status": "ok"}`.'),
      '/readyz': health(
        'getReadyz',
        `Readiness, at ${siteUrl}/readyz (not under /api/v1)`,
        'Ready for traffic: the database answers, every migration is applied and the process is not shutting down. Keyless and not metered; at the site root, not under /api/v1.',
        'Ready: `{"status": "ready"}`.',
      ),
    },
  };
}
