import { stemmer } from 'stemmer';

// Irregular forms the Porter stemmer cannot join to their base. Forms that are
// also common words of another meaning ("saw", "left", "found", "rose") are
// left out: mapping them would make "saw" the tool match "see".
const irregular = `children:child men:man women:woman feet:foot teeth:tooth mice:mouse geese:goose oxen:ox
criteria:criterion phenomena:phenomenon gave:give given:give rode:ride ridden:ride wrote:write written:write
spoke:speak spoken:speak told:tell thought:think bought:buy brought:bring taught:teach caught:catch ran:run
began:begin begun:begin drove:drive driven:drive ate:eat eaten:eat drank:drink drunk:drink sang:sing sung:sing
swam:swim flew:fly flown:fly knew:know known:know grew:grow grown:grow threw:throw thrown:throw chose:choose
chosen:choose broke:break broken:break froze:freeze frozen:freeze stole:steal stolen:steal fallen:fall sold:sell
paid:pay built:build sent:send spent:spend lost:lose met:meet kept:keep slept:sleep wept:weep bred:breed fed:feed
held:hold stood:stand understood:understand wore:wear worn:wear hid:hide hidden:hide shook:shake shaken:shake
took:take taken:take forgot:forget forgotten:forget forgave:forgive forgiven:forgive mistook:mistake
mistaken:mistake made:make heard:hear seen:see came:come became:become sat:sit fought:fight sought:seek
struck:strike woke:wake woken:wake drew:draw drawn:draw blew:blow blown:blow swore:swear sworn:swear dug:dig
hung:hang lent:lend meant:mean dealt:deal burnt:burn learnt:learn dreamt:dream fled:flee sank:sink sunk:sink
arose:arise arisen:arise risen:rise awoke:wake sped:speed slid:slide spun:spin shrank:shrink shrunk:shrink
won:win wives:wife knives:knife loaves:loaf leaves:leaf thieves:thief halves:half`;

const irregularBase: ReadonlyMap<string, string> = new Map(
  irregular
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => pair.split(':') as [string, string]),
);

/** The base form of an irregular plural or past form, or the word itself. */
export function irregularBaseOf(norm: string): string {
  return irregularBase.get(norm) ?? norm;
}

/**
 * The matching key of a normalised word: its irregular base form, Porter-stemmed,
 * so "horses"/"horse", "married"/"marry" and "gave"/"give" share a key.
 */
export function stemOf(norm: string): string {
  return stemmer(irregularBaseOf(norm));
}

/** A per-object memo around {@link stemOf}; stemming every token of a long transcript repeats words a lot. */
export function createStemCache(): (norm: string) => string {
  const cache = new Map<string, string>();
  return (norm) => {
    let s = cache.get(norm);
    if (s === undefined) {
      s = stemOf(norm);
      if (cache.size > 100_000) cache.clear();
      cache.set(norm, s);
    }
    return s;
  };
}

const nounRules: [string, string][] = [['ies', 'y'], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['oes', 'o'], ['men', 'man'], ['ves', 'f'], ['ves', 'fe'], ['s', '']];
const verbRules: [string, string][] = [['ies', 'y'], ['es', 'e'], ['es', ''], ['s', ''], ['ied', 'y'], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']];
const adjRules: [string, string][] = [['ier', 'y'], ['iest', 'y'], ['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']];

/**
 * Candidate dictionary forms of an inflected word, most likely first (WordNet's
 * "morphy" detachment rules, without its exception lists, which the package
 * does not ship; {@link irregularBaseOf} covers the common irregulars).
 */
export function baseFormCandidates(norm: string, pos: 'n' | 'v' | 'a' | 'r'): string[] {
  const out = [norm];
  const base = irregularBaseOf(norm);
  if (base !== norm) out.push(base);
  const rules = pos === 'n' ? nounRules : pos === 'v' ? verbRules : pos === 'a' ? adjRules : [];
  for (const [suffix, repl] of rules) {
    if (norm.length > suffix.length + 1 && norm.endsWith(suffix)) {
      const cand = norm.slice(0, -suffix.length) + repl;
      if (!out.includes(cand)) out.push(cand);
    }
  }
  // Doubled final consonant before -ed/-ing: "stopped" -> "stop".
  const doubled = /^(.*([bdgklmnprt]))\2(?:ed|ing)$/.exec(norm);
  if (pos === 'v' && doubled && !out.includes(doubled[1])) out.push(doubled[1]);
  return out;
}

/**
 * Likely inflected forms of a dictionary word ("die" -> "died", "dies",
 * "dying"), for the cases where Porter stems a form and its base apart
 * ("died" -> "di", "die" -> "die"). Unlikely forms are harmless: their stems
 * simply occur nowhere.
 */
export function inflectedForms(word: string): string[] {
  const forms = new Set([word, `${word}s`, `${word}es`, `${word}ed`, `${word}ing`]);
  if (word.endsWith('e')) {
    forms.add(`${word}d`);
    forms.add(`${word.slice(0, -1)}ing`);
  }
  if (word.endsWith('ie')) forms.add(`${word.slice(0, -2)}ying`);
  if (/[^aeiou]y$/.test(word)) {
    forms.add(`${word.slice(0, -1)}ies`);
    forms.add(`${word.slice(0, -1)}ied`);
  }
  return [...forms];
}
