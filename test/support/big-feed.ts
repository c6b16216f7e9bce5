/**
 * A valid RSS feed of `items` episodes, newest last in the document, each
 * with show notes of `notesBytes` (about): megabytes of real-looking feed.
 */
export function bigFeed(items: number, notesBytes = 500): Buffer {
  const sentence = 'Show notes with links and a long description of the guests and the topics of the day. ';
  const notes = sentence.repeat(Math.max(1, Math.round(notesBytes / sentence.length)));
  const list = Array.from({ length: items }, (_, i) =>
    `<item><title>Episode ${i}</title><guid>big-${i}</guid><pubDate>${new Date(Date.UTC(2010, 0, 1) + i * 3_600_000).toUTCString()}</pubDate>` +
    `<enclosure url="https://cdn.example.com/${i}.mp3" type="audio/mpeg" length="1"/><description>${notes}</description></item>`,
  );
  return Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title>${list.join('')}</channel></rss>`);
}
