/** Plain English for flite to speak: common words, no numbers or names, so WER measures recognition. */

/** Three sentences, about ten seconds spoken. */
export const SHORT_PASSAGE =
  'The weather was warm and the children played in the park until the evening. ' +
  'My father bought a new car last week and drove it to the city. ' +
  'We will meet again next month to talk about the plan.';

/** Sixteen sentences, about sixty seconds spoken by `rms`, with a pause after each. */
export const LONG_PASSAGE = [
  SHORT_PASSAGE,
  'The old house at the end of the road has a green door and a small garden.',
  'She reads the news every morning before she goes to work.',
  'The train was late, so we waited at the station for an hour.',
  'He told me that the water in the lake was too cold for swimming.',
  'They opened a new school near the river last year.',
  'I would like to visit my brother when the summer comes.',
  'The doctor said that I should walk for thirty minutes every day.',
  'Our team won the game after a long and difficult season.',
  'Please close the window because it is getting cold in here.',
  'The market sells fresh bread, fruit and vegetables on Saturday.',
  'Many people came to the meeting to hear the mayor speak.',
  'After dinner we sat by the fire and listened to the rain.',
  'The little dog ran across the field to find his friend.',
].join(' ');
