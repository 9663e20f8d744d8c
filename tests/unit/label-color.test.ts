import { normaliseLabelColor } from '../../src/domain/label.ts';

describe('normaliseLabelColor', () => {
  it.each([
    ['#ff0000', '#ff0000'],
    ['ff0000', '#ff0000'],
    ['FF00aa', '#ff00aa'],
    ['  #ABC ', '#aabbcc'],
    ['abc', '#aabbcc'],
    ['#0f0', '#00ff00'],
  ])('reads %p as %p', (input, expected) => {
    expect(normaliseLabelColor(input)).toBe(expected);
  });

  it.each(['', '#', 'ff00', '#ff00000', 'ggg', 'red', '##fff', 'f f f'])('refuses %p', (input) => {
    expect(normaliseLabelColor(input)).toBeNull();
  });
});
