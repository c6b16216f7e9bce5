/**
 * Word lists that decide what may carry a match. A topic made only of these
 * never matches anything.
 */
const english = `a about above after again against all almost also although am an and any anybody anyone anything
are aren't around as at be because been before being below between both but by can can't cannot could couldn't
did didn't do does doesn't doing don't down during each either else even ever every few for from further had
hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him himself his how how's
however i i'd i'll i'm i've if in into is isn't it it's its itself just let's like many may me might mine more
most much must mustn't my myself neither no nor not now of off often on once only or other others ought our
ours ourselves out over own quite rather really same shall shan't she she'd she'll she's should shouldn't so
some such than that that's the their theirs them themselves then there there's these they they'd they'll
they're they've this those though through thus to too under until up upon us very was wasn't we we'd we'll
we're we've well were weren't what what's when when's where where's whether which while who who's whom whose
why why's will with within without won't would wouldn't yet you you'd you'll you're you've your yours yourself
yourselves yeah yes okay oh uh um mm hmm gonna wanna kind sort lot lots thing things got get gets go going went
one ones said say says also still back way`;

/** Function words and fillers, normalised like transcript tokens (apostrophes removed). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  english.split(/\s+/).filter(Boolean).map((w) => w.replace(/'/g, '')),
);

/**
 * Words people put around a topic when they ask for it ("where do they talk
 * about …", "any mention of …"); they say nothing about the topic itself.
 */
export const QUERY_FILLERS: ReadonlySet<string> = new Set(
  `talk talks talked talking discuss discusses discussed discussing discussion discussions mention mentions
  mentioned mentioning speak speaks spoke speaking tell telling part parts bit bits section segment episode
  episodes podcast topic topics subject anything something everything anyone someone somebody
  where find search look looking`
    .split(/\s+/)
    .filter(Boolean),
);

/** The fillers that are things, not ways of asking: searched for themselves when a topic holds nothing else ("podcast"). */
export const FILLER_NOUNS: ReadonlySet<string> = new Set('part parts bit bits section segment episode episodes podcast topic topics subject'.split(' '));

/** Titles and honorifics: part of a name, but too common to decide a match on their own. */
export const TITLE_WORDS: ReadonlySet<string> = new Set(
  'mr mrs ms miss sir lady lord dame colonel captain major general professor prof dr saint st rev reverend madam madame'
    .split(' '),
);
