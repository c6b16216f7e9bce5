/** Word lists the synthetic catalog draws on, so its titles read like real ones. */

export const ADJECTIVES = [
  'Daily', 'Weekly', 'Modern', 'Curious', 'Hidden', 'Lost', 'Brave', 'Quiet', 'Wild', 'Deep', 'Little', 'Big', 'Late',
  'Early', 'Golden', 'Broken', 'Honest', 'Unfiltered', 'Smart', 'Happy', 'Dark', 'Bright', 'Secret', 'Real', 'True',
  'Open', 'Slow', 'Fast', 'Global', 'Local', 'Northern', 'Southern', 'Urban', 'Rural', 'Digital', 'Ancient', 'Future',
  'Mindful', 'Radical', 'Practical', 'Strange', 'Gentle', 'Loud', 'Tiny', 'Grand', 'Electric', 'Cosmic', 'Weird',
];

export const NOUNS = [
  'Mind', 'History', 'Science', 'Money', 'Story', 'Stories', 'Hour', 'Show', 'Talk', 'Table', 'Kitchen', 'Garden',
  'Journey', 'Path', 'Podcast', 'Radio', 'Lab', 'Room', 'House', 'Files', 'Notes', 'Letters', 'Voices', 'Minds',
  'Business', 'Leaders', 'Founders', 'Nation', 'World', 'Planet', 'Universe', 'Machine', 'Code', 'Game', 'Games',
  'Film', 'Cinema', 'Music', 'Beats', 'Books', 'Pages', 'Crime', 'Mystery', 'Mysteries', 'Truth', 'Health', 'Body',
  'Kitchen Table', 'Couch', 'Campfire', 'Road', 'Frontier', 'Circle', 'Club', 'Society', 'Academy', 'School',
];

export const TOPICS = [
  'Marketing', 'Startups', 'Investing', 'Parenting', 'Football', 'Basketball', 'Running', 'Cooking', 'Wine', 'Coffee',
  'Design', 'Photography', 'Philosophy', 'Psychology', 'Economics', 'Politics', 'Climate', 'Space', 'Astronomy',
  'Biology', 'Chemistry', 'Physics', 'Mathematics', 'Programming', 'JavaScript', 'Rust', 'Cybersecurity', 'AI',
  'Machine Learning', 'Crypto', 'Real Estate', 'Careers', 'Leadership', 'Productivity', 'Meditation', 'Yoga',
  'Fitness', 'Nutrition', 'Mental Health', 'Relationships', 'Travel', 'Languages', 'Spanish', 'Japanese', 'Anime',
  'Horror', 'Comedy', 'Improv', 'Jazz', 'Hip Hop', 'Classical Music', 'True Crime', 'Cold Cases', 'World War II',
  'Ancient Rome', 'Mythology', 'Theology', 'Gardening', 'Birdwatching', 'Fishing', 'Hiking', 'Chess', 'Board Games',
  'Video Games', 'Film Reviews', 'TV Recaps', 'Fashion', 'Architecture', 'Urbanism', 'Education', 'Teaching',
];

export const FIRST_NAMES = [
  'Alex', 'Sam', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Jamie', 'Riley', 'Maria', 'Jose', 'Wei', 'Yuki', 'Priya',
  'Arjun', 'Fatima', 'Omar', 'Lena', 'Jonas', 'Sofia', 'Lucas', 'Emma', 'Noah', 'Olivia', 'Liam', 'Ava', 'Ethan',
  'Mia', 'Leo', 'Chloe', 'Hugo', 'Ines', 'Marco', 'Giulia', 'Pierre', 'Camille', 'Anna', 'Erik', 'Sven', 'Kofi',
  'Amara', 'Chen', 'Hana', 'Diego', 'Lucia', 'Ravi', 'Zoe', 'Ben', 'Kate', 'Dan', 'Lenny', 'Tim', 'Joe',
];

export const LAST_NAMES = [
  'Smith', 'Garcia', 'Müller', 'Rossi', 'Dubois', 'Kim', 'Nguyen', 'Patel', 'Okafor', 'Silva', 'Johnson', 'Brown',
  'Lee', 'Martin', 'Lopez', 'Schmidt', 'Novak', 'Kowalski', 'Andersson', 'Jensen', 'Tanaka', 'Sato', 'Wang', 'Li',
  'Khan', 'Ali', 'Cohen', 'Levi', 'Murphy', "O'Brien", 'Walsh', 'Fischer', 'Weber', 'Costa', 'Santos', 'Reyes',
  'Herrera', 'Moreau', 'Laurent', 'Bianchi', 'Ferrari', 'Ivanova', 'Petrov', 'Yilmaz', 'Demir', 'Rachitsky',
];

export const NETWORKS = ['Media', 'Network', 'Studios', 'Audio', 'Productions', 'Podcasts', 'Radio', 'Collective', 'FM', 'Labs'];

/** Title shapes; `{A}` adjective, `{N}` noun, `{T}` topic, `{F}` first name, `{L}` last name. */
export const TITLE_TEMPLATES = [
  'The {A} {N}', '{A} {N}', 'The {T} Show', '{T} Weekly', '{T} Daily', 'The {T} Podcast', "{F}'s {N}", '{F} & {F}',
  'The {F} {L} Show', '{T} with {F} {L}', '{A} {T}', 'Inside {T}', 'All About {T}', '{T} Unfiltered', 'The {A} {T} Hour',
  '{N} of {T}', '{T} for Beginners', 'Talking {T}', 'The {L} Report', '{A} {N} Podcast', '{T} After Dark', 'Mostly {T}',
];

/** Languages with rough shares of the podcast world; the rest of the share is `en`. */
export const LANGUAGES: [string, number][] = [
  ['es', 0.09], ['de', 0.06], ['pt', 0.06], ['fr', 0.05], ['it', 0.03], ['ja', 0.03], ['nl', 0.02], ['sv', 0.02],
  ['ko', 0.02], ['zh', 0.02], ['hi', 0.01], ['pl', 0.01], ['tr', 0.01], ['ru', 0.01], ['id', 0.01], ['he', 0.005],
];
