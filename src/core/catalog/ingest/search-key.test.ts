import { describe, expect, it } from 'vitest';
import { searchKey } from './search-key.js';

describe('searchKey', () => {
  it.each([
    ["Lenny's Podcast", 'lennys podcast', 'lennyspodcast'],
    ['Lenny’s Podcast', 'lennys podcast', 'lennyspodcast'],
    ['Lenny´s Podcast', 'lennys podcast', 'lennyspodcast'],
    ['DH Unplugged', 'dh unplugged', 'dhunplugged'],
    ['Café  Crème', 'cafe creme', 'cafecreme'],
    ['  Ça va?  Très—bien!  ', 'ca va tres bien', 'cavatresbien'],
    ['AC/DC & Friends (Live)', 'ac dc friends live', 'acdcfriendslive'],
    ['İstanbul Günlüğü', 'istanbul gunlugu', 'istanbulgunlugu'],
    ['The 99% Invisible', 'the 99 invisible', 'the99invisible'],
    ['Ｆｕｌｌ ｗｉｄｔｈ', 'full width', 'fullwidth'],
    ['חדשות הבוקר', 'חדשות הבוקר', 'חדשותהבוקר'],
    ['日本語のポッドキャスト', '日本語のホットキャスト', '日本語のホットキャスト'],
    ['snake_case-title', 'snake case title', 'snakecasetitle'],
    ['', '', ''],
    ['!!!', '', ''],
  ])('%j → %j', (title, name, compact) => {
    expect(searchKey(title)).toEqual({ name, compact });
  });
});
