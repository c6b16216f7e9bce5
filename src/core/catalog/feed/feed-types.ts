/** A podcast feed reduced to what the catalog stores. */
export interface ParsedFeed {
  show: ParsedShow;
  /** Newest first by publication date; undated items keep their feed position. At most `maxItems`. */
  episodes: ParsedEpisode[];
  /** Episodes the feed holds (after skipping unusable items and repeated guids), before the `maxItems` cap. */
  totalItems: number;
  /** True when `totalItems` exceeded `maxItems`. */
  truncated: boolean;
}

export interface ParsedShow {
  /** Empty string when the feed has none. */
  title: string;
  author: string | null;
  /** Plain text, at most 5000 characters. */
  description: string | null;
  artwork: string | null;
  /** Lower case with hyphens, e.g. `en` or `en-us`. */
  language: string | null;
  /** itunes:category texts, nested subcategories included, deduplicated, in feed order. */
  categories: string[];
  website: string | null;
  /** itunes:type, lower case (`episodic`, `serial`). */
  itunesType: string | null;
  podcastGuid: string | null;
  explicit: boolean | null;
}

export interface ParsedTranscriptLink {
  url: string;
  type: string;
  /** Lower case. */
  language: string | null;
  rel: string | null;
}

export interface ParsedPerson {
  name: string;
  /** Lower case, as the podcast namespace taxonomy is case-insensitive. */
  role: string | null;
  /** Lower case. */
  group: string | null;
  href: string | null;
  img: string | null;
}

export interface ParsedEpisode {
  /** The feed's guid, or a fallback; see `parseFeed`. */
  guid: string;
  /** `transcriptIdFor(guid)`. */
  transcriptId: string;
  /** Empty string when the item has none (it then has an enclosure). */
  title: string;
  /** Plain text from the HTML or CDATA, whitespace collapsed, at most 5000 characters. */
  description: string | null;
  episode: number | null;
  season: number | null;
  /** Null when missing or unparseable, never an Invalid Date. */
  publishedAt: Date | null;
  /** Whole seconds; null when missing, zero or junk. */
  durationSeconds: number | null;
  audioUrl: string | null;
  audioType: string | null;
  audioBytes: number | null;
  image: string | null;
  link: string | null;
  transcripts: ParsedTranscriptLink[];
  persons: ParsedPerson[];
}
