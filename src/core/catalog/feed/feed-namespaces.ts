/** The namespaces Podtext reads, by the prefix they conventionally use. */
export type KnownNamespace = 'itunes' | 'podcast' | 'content' | 'media' | 'atom' | 'dc';

const URIS: Record<string, KnownNamespace> = {
  'www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'podcastindex.org/namespace/1.0': 'podcast',
  'github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md': 'podcast',
  'purl.org/rss/1.0/modules/content': 'content',
  'search.yahoo.com/mrss': 'media',
  'www.w3.org/2005/atom': 'atom',
  'purl.org/dc/elements/1.1': 'dc',
};

/** Qualified element names for a namespace, whatever prefix the feed bound it to. */
export type NameLookup = (ns: KnownNamespace, local: string) => string[];

function canonicalUri(uri: string): string {
  return uri.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/+$/, '');
}

/**
 * Collects every prefix the document binds to a known namespace (feeds bind
 * Atom to `atom10:`, some bind iTunes to odd prefixes), plus the
 * conventional prefix, since many feeds use `itunes:` without declaring it.
 * Scope is ignored: a prefix bound anywhere counts everywhere.
 */
export function collectNamespaces(xml: string): NameLookup {
  const prefixes = new Map<KnownNamespace, Set<string>>();
  for (const ns of new Set(Object.values(URIS))) prefixes.set(ns, new Set([ns]));
  for (const match of xml.matchAll(/\bxmlns:([A-Za-z_][\w.-]*)\s*=\s*["']([^"']{1,300})["']/g)) {
    const ns = URIS[canonicalUri(match[2])];
    if (ns) prefixes.get(ns)?.add(match[1]);
  }
  const cache = new Map<string, string[]>();
  return (ns, local) => {
    const key = `${ns}:${local}`;
    let names = cache.get(key);
    if (!names) {
      names = [...(prefixes.get(ns) ?? [])].map((prefix) => `${prefix}:${local}`);
      cache.set(key, names);
    }
    return names;
  };
}
