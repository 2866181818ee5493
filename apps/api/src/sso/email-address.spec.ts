import { domainAllowed, parseEmailAddress } from './email-address';

describe('parseEmailAddress', () => {
  it.each([
    ['u@example.com', 'u', 'example.com'],
    ['First.Last+tag@Example.COM', 'First.Last+tag', 'example.com'],
    ['"a@b"@example.com', '"a@b"', 'example.com'],
    ['"quoted \\" pair"@example.com', '"quoted \\" pair"', 'example.com'],
  ])('reads %s', (value, local, domain) => {
    expect(parseEmailAddress(value)).toMatchObject({ local, domain });
  });

  it.each([
    ['a@evil.com@allowed.com'],
    ['a@allowed.com@evil.com'],
    ['u@allowed.com.'],
    ['u@allowed.com '],
    [' u@allowed.com'],
    ['u@'],
    ['@allowed.com'],
    ['u'],
    [''],
    ['u@localhost'],
    ['u@[127.0.0.1]'],
    ['u@allowed..com'],
    ['u..v@allowed.com'],
    ['.u@allowed.com'],
    ['u@-allowed.com'],
    ['u@allowed.123'],
    ['Name <u@allowed.com>'],
    ['u(comment)@allowed.com'],
    ['ü@allowed.com'],
    ['u@аllowed.com'], // Cyrillic а
    ['"unterminated@allowed.com'],
    [`${'a'.repeat(65)}@allowed.com`],
  ])('refuses %j', (value) => {
    expect(parseEmailAddress(value)).toBeNull();
  });

  it.each([[['u@allowed.com']], [{ email: 'u@allowed.com' }], [null], [undefined], [42]])('refuses non-strings (%j)', (value) => {
    expect(parseEmailAddress(value)).toBeNull();
  });
});

describe('domainAllowed', () => {
  const allowed = ['allowed.com'];
  const check = (value: string) => {
    const address = parseEmailAddress(value);
    return address !== null && domainAllowed(address, allowed);
  };

  it('matches the exact domain case-insensitively', () => {
    expect(check('u@allowed.com')).toBe(true);
    expect(check('u@ALLOWED.COM')).toBe(true);
  });

  it.each(['u@sub.allowed.com', 'u@allowed.com.evil.com', 'u@xn--llowed-9ua.com', 'u@evil.com@allowed.com', 'u@notallowed.com'])(
    'refuses %s',
    (value) => expect(check(value)).toBe(false),
  );

  it('allows any domain when the list is empty', () => {
    expect(domainAllowed(parseEmailAddress('u@anything.org')!, [])).toBe(true);
  });
});
