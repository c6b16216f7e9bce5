/**
 * A deterministic two-hour, three-speaker "long conversation" transcript
 * (≈ 20k words), for latency and for needles in a haystack: everyday filler
 * talk with a few topics planted at seeded positions, some of them under
 * other words or misspelt the way recognisers misspell names. The filler
 * never uses the planted topics' words or their synonyms.
 */
import type { SearchableSegment, SearchableTranscript } from '../../src/core/aisearch/searchable-transcript.js';
import { seededRandom } from '../../src/core/seeded-random.js';

export interface LongTranscript {
  doc: SearchableTranscript;
  /** Planted topic key → indexes of the segments that carry it. */
  planted: Record<string, number[]>;
}

const people = ['my sister', 'our producer', 'a listener from Leeds', 'my landlord', 'the guy at the garage', 'my old flatmate', 'our neighbour', 'my cousin', 'a friend from school', 'my manager'];
const places = ['Lisbon', 'the Lake District', 'Glasgow', 'a campsite in Wales', 'Berlin', 'the seaside', 'Manchester', 'a little village in Kent', 'Dublin', 'Porto'];
const things = ['the new phone', 'that podcast app', 'the kitchen renovation', 'the football season', 'the quiz night', 'the new coffee machine', 'the gym membership', 'the garden fence', 'the washing machine', 'the office move', 'the group chat', 'the music festival'];
const adjectives = ['brilliant', 'a bit of a disaster', 'surprisingly fun', 'way too expensive', 'harder than it looks', 'completely overrated', 'really relaxing', 'exhausting', 'hilarious', 'a total mystery'];
const activities = ['the guitar', 'pottery', 'running', 'Spanish', 'baking', 'rock climbing', 'chess openings', 'knitting', 'photography', 'swimming'];
const durations = ['three weeks', 'a couple of months', 'most of the summer', 'two years', 'a long weekend', 'about a fortnight'];

const templates = [
  'I was talking to {person} about {thing} the other day, and honestly it was {adj}.',
  'We spent {time} in {place} and the food was {adj}.',
  'Do you remember when {person} tried to learn {activity}?',
  'The thing about {activity} is that you need patience more than talent.',
  'Anyway, let us get back to the listener questions.',
  "That's a great point, and I think a lot of people feel the same way.",
  '{person} has been going on about {thing} for {time} now.',
  'If you are just joining us, this is the long conversation episode, so settle in.',
  'I tried {activity} once in {place}, and it was {adj}.',
  'Okay, so the next email is from {person}, who wants to know about {thing}.',
  'To be fair, {thing} turned out to be {adj}.',
  'I mean, nobody warned me that {activity} would be {adj}.',
  'Right, right, I see what you mean.',
  "We should probably mention that {thing} is not sponsoring this episode, sadly.",
  'Last time I was in {place}, it rained for {time} straight.',
  '{person} told me that {place} is {adj} this time of year.',
  'Can I just say, {thing} has been the story of my week.',
  'I think the honest answer is that nobody really knows.',
  'Let me read you what {person} wrote, because it made me laugh.',
  'So we booked a trip to {place} for {time}, mostly on a whim.',
  'You know what, I would happily spend {time} learning {activity}.',
  'Yes, exactly, and that is the bit people forget.',
  'I have opinions about {thing}, but I will keep them to myself for once.',
  'The queue at the station in {place} was {adj}.',
];

/** Planted sentences per topic: the words a listener would later search for, in several wordings. */
const plantings: Record<string, string[]> = {
  glacier: [
    'When we hiked up there in the nineties, the glacier came right down to the path.',
    'The glaciers in the Alps have lost something like half their volume in a century.',
    'There is a photo of my grandfather standing on a glacier that simply is not there any more.',
    'Scientists measure how fast glaciers are retreating by comparing old survey maps.',
    'Meltwater from a glacier feeds the whole river valley in the summer.',
  ],
  aqueduct: [
    'The Roman aqueducts were basically gravity, patience and an enormous amount of stone.',
    'We visited the Roman aqueduct near Nimes, the Pont du Gard, and it is breathtaking up close.',
    'Each Roman aqueduct dropped only a few centimetres per kilometre, which is astonishing engineering.',
    'People assume Roman aqueducts were all arches, but most of the channel ran underground.',
  ],
  physician: [
    'My physician told me to cut back, so this is decaf, I promise.',
    'She trained as a physician in Nairobi before moving into research.',
    'The surgeon who fixed my knee said I could run again by the spring.',
    'Our family GP has been seeing the same patients for thirty years.',
    'The medic on the ferry was brilliant when that passenger fainted.',
  ],
  okonkwo: [
    'Our guest in the next hour is Professor Okonkwo, who studies ancient water systems.',
    'Professor Okonquo, thank you for staying on with us.',
    'As Professor Oconkwo was saying before the break, the engineering is the easy part.',
    'We asked professor Okon Kwo what surprised her most.',
    'Professor Okonkwo laughed and said she has been asked that at every conference.',
  ],
  bicycle: [
    'I finally bought a second-hand bike, and I have ridden it to work every day since.',
    'My bike got a puncture on the canal path and I had to push it home in the rain.',
    'He rode his mountain bike all the way to the coast, which is about sixty miles.',
    'Honestly, a decent lock costs more than the bike itself these days.',
  ],
  earthquake: [
    'The earthquake hit just after four in the morning and the whole building swayed.',
    'Japan builds for earthquakes in a way that still amazes engineers elsewhere.',
    'Small earthquakes happen in Britain more often than people think, they are just too weak to feel.',
    'After the earthquake, the town rebuilt every school to a stricter code.',
  ],
  telescope: [
    'For my fortieth birthday I got a telescope, and I have seen the rings of Saturn with my own eyes.',
    'You do not need an expensive telescope to see the moons of Jupiter, decent binoculars will do.',
    'The telescope at the observatory is older than the building around it.',
  ],
};

function fill(template: string, rand: () => number): string {
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
  return template
    .replace('{person}', pick(people))
    .replace('{place}', pick(places))
    .replace('{thing}', pick(things))
    .replace('{adj}', pick(adjectives))
    .replace('{activity}', pick(activities))
    .replace('{time}', pick(durations))
    .replace(/^./, (c) => c.toUpperCase());
}

/**
 * Generates the transcript.
 *
 * @param seed Default: 7 (the evaluation set's labels are for this seed).
 * @param seconds Length to generate. Default: 7200.
 */
export function makeLongTranscript(seed = 7, seconds = 7200): LongTranscript {
  const rand = seededRandom(seed);
  const speakers = ['Ana', 'Ben', 'Chloe'];
  const texts: string[] = [];
  const bySegment: string[][] = [];
  // Rough segment count from the speaking rate; planted topics are spread over it.
  const estimate = Math.round(seconds / 8);
  const plantAt = new Map<number, string>();
  for (const key of Object.keys(plantings)) {
    for (let i = 0; i < plantings[key].length; i++) {
      let at: number;
      do at = 5 + Math.floor(rand() * (estimate - 10));
      while ([at - 1, at, at + 1].some((x) => plantAt.has(x)));
      plantAt.set(at, `${key}:${i}`);
    }
  }
  const planted: Record<string, number[]> = {};
  const segments: SearchableSegment[] = [];
  let t = 2;
  let speaker = 0;
  for (let index = 0; t < seconds; index++) {
    const sentences = [fill(templates[Math.floor(rand() * templates.length)], rand)];
    if (rand() < 0.6) sentences.push(fill(templates[Math.floor(rand() * templates.length)], rand));
    const plant = plantAt.get(index);
    if (plant) {
      const [key, i] = plant.split(':');
      sentences.splice(Math.floor(rand() * (sentences.length + 1)), 0, plantings[key][Number(i)]);
      (planted[key] ??= []).push(index);
    }
    const text = sentences.join(' ');
    const start = t;
    const words = text.split(' ').map((w) => {
      const s = Math.round(t * 100) / 100;
      t += 0.13 + 0.043 * w.length + 0.05 * rand();
      return { w, s };
    });
    segments.push({ start: Math.round(start * 100) / 100, end: Math.round(t * 100) / 100, text, speaker: speakers[speaker], words });
    texts.push(text);
    bySegment.push(sentences);
    t += 0.25 + 0.5 * rand();
    if (rand() < 0.55) speaker = (speaker + 1 + Math.floor(rand() * 2)) % 3;
  }
  return { doc: { segments, language: 'en', wordTimesEstimated: false }, planted };
}
