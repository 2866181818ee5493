import { trackListens } from './embedded-postgres';

describe('trackListens', () => {
  it('adds unquoted channels lower-cased and quoted ones verbatim', () => {
    const channels = new Set<string>();
    trackListens('LISTEN Jobs; listen "Mixed""Case"', channels);
    expect([...channels]).toEqual(['jobs', 'Mixed"Case']);
  });

  it('ignores LISTEN inside comments and removes channels on UNLISTEN', () => {
    const channels = new Set<string>(['a', 'b']);
    trackListens('/* LISTEN c */ UNLISTEN a; -- LISTEN d\nSELECT 1', channels);
    expect([...channels]).toEqual(['b']);
    trackListens('UNLISTEN *', channels);
    expect(channels.size).toBe(0);
  });

  it('does not treat other statements mentioning listen as LISTEN', () => {
    const channels = new Set<string>();
    trackListens("SELECT 'LISTEN x'; SELECT listen_count FROM t", channels);
    expect(channels.size).toBe(0);
  });
});
