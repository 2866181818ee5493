import { RepeatedWarning } from './repeated-warning';

describe('RepeatedWarning', () => {
  let clock = 0;
  const warning = () => new RepeatedWarning(1000, 2, () => clock);
  beforeEach(() => (clock = 0));

  it('says a state once, then only with the count of repeats after the interval', () => {
    const w = warning();
    expect(w.shouldSay('budget-1', 'EUR:3')).toEqual({ say: true, repeats: 0 });
    for (let i = 0; i < 149; i++) expect(w.shouldSay('budget-1', 'EUR:3')).toEqual({ say: false });
    clock = 1000;
    expect(w.shouldSay('budget-1', 'EUR:3')).toEqual({ say: true, repeats: 149 });
  });

  it('says a changed state at once, and each subject on its own', () => {
    const w = warning();
    w.shouldSay('budget-1', 'EUR:3');
    expect(w.shouldSay('budget-1', 'EUR:4')).toEqual({ say: true, repeats: 0 });
    expect(w.shouldSay('budget-2', 'EUR:4')).toEqual({ say: true, repeats: 0 });
  });

  it('forgets the least recently said subject beyond its bound', () => {
    const w = warning();
    w.shouldSay('a', 's');
    w.shouldSay('b', 's');
    w.shouldSay('c', 's'); // forgets a
    expect(w.shouldSay('b', 's')).toEqual({ say: false });
    expect(w.shouldSay('a', 's')).toEqual({ say: true, repeats: 0 });
  });
});
