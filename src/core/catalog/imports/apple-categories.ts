/** One Apple Podcasts category and its sub-categories, by name. */
export interface AppleCategory {
  category: string;
  subcategories: string[];
}

/**
 * Apple Podcasts' category tree (the 2019 taxonomy, 19 categories), names
 * only, as published in mr-rigden/Podcast-Categories-List
 * (`podcast_categories_list.json`, WTFPL). Apple's numeric genre ids are not
 * in it; chart imports fill them in as charts reveal them.
 */
export const APPLE_CATEGORIES: readonly AppleCategory[] = [
  { category: 'Arts', subcategories: ['Books', 'Design', 'Fashion & Beauty', 'Food', 'Performing Arts', 'Visual Arts'] },
  { category: 'Business', subcategories: ['Careers', 'Entrepreneurship', 'Investing', 'Management', 'Marketing', 'Non-Profit'] },
  { category: 'Comedy', subcategories: ['Comedy Interviews', 'Improv', 'Stand-Up'] },
  { category: 'Education', subcategories: ['Courses', 'How To', 'Language Learning', 'Self-Improvement'] },
  { category: 'Fiction', subcategories: ['Comedy Fiction', 'Drama', 'Science Fiction'] },
  { category: 'Government', subcategories: [] },
  { category: 'History', subcategories: [] },
  { category: 'Health & Fitness', subcategories: ['Alternative Health', 'Fitness', 'Medicine', 'Mental Health', 'Nutrition', 'Sexuality'] },
  { category: 'Kids & Family', subcategories: ['Education for Kids', 'Parenting', 'Pets & Animals', 'Stories for Kids'] },
  { category: 'Leisure', subcategories: ['Animation & Manga', 'Automotive', 'Aviation', 'Crafts', 'Games', 'Hobbies', 'Home & Garden', 'Video Games'] },
  { category: 'Music', subcategories: ['Music Commentary', 'Music History', 'Music Interviews'] },
  { category: 'News', subcategories: ['Business News', 'Daily News', 'Entertainment News', 'News Commentary', 'Politics', 'Sports News', 'Tech News'] },
  { category: 'Religion & Spirituality', subcategories: ['Buddhism', 'Christianity', 'Hinduism', 'Islam', 'Judaism', 'Religion', 'Spirituality'] },
  { category: 'Science', subcategories: ['Astronomy', 'Chemistry', 'Earth Sciences', 'Life Sciences', 'Mathematics', 'Natural Sciences', 'Nature', 'Physics', 'Social Sciences'] },
  { category: 'Society & Culture', subcategories: ['Documentary', 'Personal Journals', 'Philosophy', 'Places & Travel', 'Relationships'] },
  { category: 'Sports', subcategories: ['Baseball', 'Basketball', 'Cricket', 'Fantasy Sports', 'Football', 'Golf', 'Hockey', 'Rugby', 'Running', 'Soccer', 'Swimming', 'Tennis', 'Volleyball', 'Wilderness', 'Wrestling'] },
  { category: 'Technology', subcategories: [] },
  { category: 'True Crime', subcategories: [] },
  { category: 'TV & Film', subcategories: ['After Shows', 'Film History', 'Film Interviews', 'Film Reviews', 'TV Reviews'] },
];

/**
 * Apple's genre ids of the 19 top-level categories, which their chart URLs
 * take (`…/toppodcasts/limit=50/genre=1310/json` is Music). Sub-category ids
 * are learnt from the charts that carry them.
 */
export const APPLE_GENRE_IDS: Readonly<Record<string, number>> = {
  Arts: 1301, Business: 1321, Comedy: 1303, Education: 1304, Fiction: 1483, Government: 1511, History: 1487,
  'Health & Fitness': 1512, 'Kids & Family': 1305, Leisure: 1502, Music: 1310, News: 1489, 'Religion & Spirituality': 1314,
  Science: 1533, 'Society & Culture': 1324, Sports: 1545, Technology: 1318, 'True Crime': 1488, 'TV & Film': 1309,
};

/**
 * The URL slug of a genre name: lower case, accents and `&` dropped, every
 * other run of punctuation or spaces one hyphen.
 *
 * @example genreSlug('True Crime') // 'true-crime'
 * @example genreSlug('Health & Fitness') // 'health-fitness'
 */
export function genreSlug(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}
