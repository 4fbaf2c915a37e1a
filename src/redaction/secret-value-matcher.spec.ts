import { randomBytes } from 'node:crypto';
import { SecretValueMatcher } from './secret-value-matcher';

/** The same result the slow way: every occurrence of every value, covered runs replaced once each. */
function scrubbedNaively(text: string, values: readonly string[]): string {
  const covered = new Array<boolean>(text.length).fill(false);
  for (const value of values) {
    if (value.length < 8) continue;
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
      covered.fill(true, at, at + value.length);
    }
  }
  let result = '';
  for (let index = 0; index < text.length; index++) {
    if (!covered[index]) result += text[index];
    else if (index === 0 || !covered[index - 1]) result += '[redacted]';
  }
  return result;
}

describe('SecretValueMatcher', () => {
  it('replaces a value wherever it stands, and answers the very string it was given when none is there', () => {
    const matcher = new SecretValueMatcher(['zq7Kp2Vx9Lm4']);
    expect(matcher.scrub('the key zq7Kp2Vx9Lm4 was refused')).toBe('the key [redacted] was refused');
    const clean = `nothing ${'here '.repeat(20)}`;
    expect(matcher.scrub(clean)).toBe(clean);
  });

  it('finds values at the start, at the end, as the whole text and back to back', () => {
    const matcher = new SecretValueMatcher(['zq7Kp2Vx9Lm4']);
    expect(matcher.scrub('zq7Kp2Vx9Lm4 first')).toBe('[redacted] first');
    expect(matcher.scrub('last zq7Kp2Vx9Lm4')).toBe('last [redacted]');
    expect(matcher.scrub('zq7Kp2Vx9Lm4')).toBe('[redacted]');
    expect(matcher.scrub('zq7Kp2Vx9Lm4zq7Kp2Vx9Lm4-zq7Kp2Vx9Lm4')).toBe('[redacted]-[redacted]');
    expect(matcher.scrub('zq7Kp2Vx9Lm')).toBe('zq7Kp2Vx9Lm');
  });

  it('matches no value shorter than 8 characters', () => {
    const matcher = new SecretValueMatcher(['short77', 'abc', 'exactly8']);
    expect(matcher.scrub('short77 abc exactly8')).toBe('short77 abc [redacted]');
    expect(matcher.has('short77')).toBe(false);
    expect(matcher.has('exactly8')).toBe(true);
    expect(matcher.minLength).toBe(8);
    expect(new SecretValueMatcher(['tiny']).minLength).toBe(Infinity);
    expect(new SecretValueMatcher([]).scrub('anything at all')).toBe('anything at all');
  });

  it('takes the longest value where several start at one place, and covers a value inside another', () => {
    const matcher = new SecretValueMatcher(['abcdefgh', 'abcdefghXYZ1', 'cdefghXY']);
    expect(matcher.scrub('<abcdefghXYZ1>')).toBe('<[redacted]>');
    expect(matcher.scrub('<abcdefghXYZ>')).toBe('<[redacted]Z>');
    expect(matcher.scrub('<abcdefgh->')).toBe('<[redacted]->');
    expect(matcher.scrub('<..cdefghXY..>')).toBe('<..[redacted]..>');
  });

  it('covers overlapping values whole, as one run', () => {
    const matcher = new SecretValueMatcher(['aaaa1111bbbb', 'bbbbcccc2222', 'ffff0000']);
    // Replacing the first alone would leave "cccc2222", most of the second.
    expect(matcher.scrub('x aaaa1111bbbbcccc2222 y')).toBe('x [redacted] y');
    expect(matcher.scrub('aaaa1111bbbbffff0000')).toBe('[redacted]');
  });

  it('matches code unit for code unit: accents, astral characters, combining marks around a value', () => {
    const values = ['pässwörd-ünïcode', 'key🔑🔑secret', 'zq7Kp2Vx9Lm4', 'Пароль-секрет'];
    const matcher = new SecretValueMatcher(values);
    expect(matcher.scrub('a pässwörd-ünïcode b')).toBe('a [redacted] b');
    expect(matcher.scrub('🔑key🔑🔑secret🔑')).toBe('🔑[redacted]🔑');
    // A combining mark joins the last letter into one grapheme; the value is there all the same.
    expect(matcher.scrub('zq7Kp2Vx9Lm4\u0301!')).toBe('[redacted]\u0301!');
    expect(matcher.scrub('\u0301zq7Kp2Vx9Lm4')).toBe('\u0301[redacted]');
    expect(matcher.scrub('«Пароль-секрет»')).toBe('«[redacted]»');
    // Not normalised: the decomposed spelling is other text.
    expect(matcher.scrub('pa\u0308sswo\u0308rd-ünïcode')).toBe('pa\u0308sswo\u0308rd-ünïcode');
  });

  it('finds long values whole, and tells apart long values that begin alike', () => {
    const head = 'x'.repeat(70);
    const first = `${head}first-tail`;
    const second = `${head}second-tail`;
    const matcher = new SecretValueMatcher([first, second]);
    expect(matcher.scrub(`<${second}>`)).toBe('<[redacted]>');
    expect(matcher.scrub(`<${first}><${second}>`)).toBe('<[redacted]><[redacted]>');
    expect(matcher.scrub(`<${head}other>`)).toBe(`<${head}other>`);
  });

  it('gives what the naive search gives, over many values and texts built from them', () => {
    const alphabet = 'abcdé🔑';
    const pick = (length: number) =>
      Array.from({ length }, () => [...alphabet][randomBytes(1)[0] % 6]).join('');
    for (let round = 0; round < 200; round++) {
      const values = Array.from({ length: 1 + (round % 12) }, () => pick(6 + (randomBytes(1)[0] % 10)));
      const text = Array.from({ length: 6 }, () =>
        randomBytes(1)[0] % 2 ? values[randomBytes(1)[0] % values.length] : pick(randomBytes(1)[0] % 12),
      ).join('');
      expect(new SecretValueMatcher(values).scrub(text)).toBe(scrubbedNaively(text, values));
    }
  });

  it('finds every one of thousands of values', () => {
    const values = Array.from({ length: 3_000 }, () => randomBytes(9).toString('base64url'));
    const matcher = new SecretValueMatcher(values);
    for (const value of values) expect(matcher.scrub(`"${value}"`)).toBe('"[redacted]"');
    expect(matcher.scrub(values.join(' '))).toBe(values.map(() => '[redacted]').join(' '));
  });
});
