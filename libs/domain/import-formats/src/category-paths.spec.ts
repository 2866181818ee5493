import { categoryPath, categoryTargets } from './category-paths';

describe('categoryPath', () => {
  it('splits at the first colon and trims both sides', () => {
    expect(categoryPath('Food: Groceries')).toEqual({ parent: 'Food', leaf: 'Groceries' });
    expect(categoryPath('Bills:Phone: Mobile')).toEqual({ parent: 'Bills', leaf: 'Phone: Mobile' });
  });

  it('takes a key with one empty side for the plain name on the other', () => {
    expect(categoryPath('Food:')).toEqual({ parent: null, leaf: 'Food' });
    expect(categoryPath(' : Snacks')).toEqual({ parent: null, leaf: 'Snacks' });
    expect(categoryPath(' : ')).toEqual({ parent: null, leaf: '' });
  });
});

describe('categoryTargets', () => {
  const names = (keys: string[], family: Array<{ name: string; parent: string | null }> = []) =>
    Object.fromEntries([...categoryTargets(keys, family)].map(([key, t]) => [key, `${t.name} < ${t.parent ?? '-'}`]));

  it('sends a leaf named under one parent to its plain name, created under that parent', () => {
    expect(names(['Food: Groceries', 'Food:Groceries', 'Rent'])).toEqual({ 'Food: Groceries': 'Groceries < Food', 'Food:Groceries': 'Groceries < Food', Rent: 'Rent < -' });
  });

  it('qualifies every key of a leaf the file names under two parents when the family lacks it, whatever the order', () => {
    const expected = { 'Food: Other': 'Food: Other < Food', 'Travel: Other': 'Travel: Other < Travel', 'Food: Snacks': 'Snacks < Food' };
    expect(names(['Food: Other', 'Travel: Other', 'Food: Snacks'])).toEqual(expected);
    expect(names(['Food: Snacks', 'Travel: Other', 'Food: Other'])).toEqual(expected);
    expect([...categoryTargets(['Food: Other'], [])][0][1].qualified).toBe(false);
    expect([...categoryTargets(['Food: Other', 'Travel: Other'], [])][0][1].qualified).toBe(true);
  });

  it('gives an existing leaf to the key of its parent and qualifies the others', () => {
    const family = [{ name: 'Other', parent: 'Food' }, { name: 'Food', parent: null }];
    expect(names(['Travel: Other', 'Food: Other', 'Home: Other'], family)).toEqual({
      'Food: Other': 'Other < Food',
      'Travel: Other': 'Travel: Other < Travel',
      'Home: Other': 'Home: Other < Home',
    });
    expect(names(['Travel: Other'], family)).toEqual({ 'Travel: Other': 'Travel: Other < Travel' });
  });

  it('gives an existing leaf of no parent to every key naming it, as before', () => {
    expect(names(['Travel: Other', 'Food: Other'], [{ name: 'Other', parent: null }])).toEqual({ 'Travel: Other': 'Other < Travel', 'Food: Other': 'Other < Food' });
  });

  it('counts a parent the file names as a top-level category, since it is created first', () => {
    expect(names(['Food: Other', 'Travel: Other', 'Other: Misc'])).toEqual({
      'Food: Other': 'Other < Food',
      'Travel: Other': 'Other < Travel',
      'Other: Misc': 'Misc < Other',
    });
    expect(names(['Food: Food'])).toEqual({ 'Food: Food': 'Food < Food' });
  });

  it('matches an existing qualified name, so a later file naming the leaf under one parent finds it', () => {
    const family = [
      { name: 'Food: Other', parent: 'Food' },
      { name: 'Travel: Other', parent: 'Travel' },
    ];
    expect(names(['Travel: Other'], family)).toEqual({ 'Travel: Other': 'Travel: Other < Travel' });
    expect(names(['Food: Other', 'Travel: Other'], family)).toEqual({ 'Food: Other': 'Food: Other < Food', 'Travel: Other': 'Travel: Other < Travel' });
  });

  it("never sends two keys to one name: a leaf spelt as another key's qualified name is qualified in turn", () => {
    // Mobile under Phone and Travel is qualified 'Phone: Mobile'; Bills' own 'Phone: Mobile' is another category.
    expect(names(['Phone: Mobile', 'Travel: Mobile', 'Bills: Phone: Mobile'])).toEqual({
      'Phone: Mobile': 'Phone: Mobile < Phone',
      'Travel: Mobile': 'Travel: Mobile < Travel',
      'Bills: Phone: Mobile': 'Bills: Phone: Mobile < Bills',
    });
  });

  it('sends a plain key to the plain name whatever parent it has', () => {
    expect(names(['Other', 'Travel: Other'], [{ name: 'Other', parent: 'Food' }])).toEqual({ Other: 'Other < -', 'Travel: Other': 'Travel: Other < Travel' });
  });
});
