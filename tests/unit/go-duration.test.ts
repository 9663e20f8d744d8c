import { parseGoDuration } from '../../src/lib/go-duration.ts';

describe('parseGoDuration', () => {
  it.each([
    ['8h', 28800],
    ['1h30m', 5400],
    ['10m0s', 600],
    ['72h', 259200],
    ['168h', 604800],
    ['0', 0],
    ['-0', 0],
    ['0s', 0],
    ['1.5h', 5400],
    ['.5m', 30],
    ['1.m', 60],
    ['+5m', 300],
    ['-5m', -300],
    ['1500ms', 2],
    ['2000000us', 2],
    ['3000000000ns', 3],
    ['1000000µs', 1],
    ['1000000μs', 1],
    ['1h1h', 7200],
  ])('reads %s as %s seconds', (text, seconds) => {
    expect(parseGoDuration(text)).toBe(seconds);
  });

  it.each(['', 'nonsense', '10', '1d', 'h', '.h', '1 h', ' 1h', '1h ', '--1h', '1H', '1.5.5h'])(
    'refuses %j as Go does',
    (text) => {
      expect(parseGoDuration(text)).toBeNull();
    },
  );
});
