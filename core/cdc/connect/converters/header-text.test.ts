import { describe, expect, it } from 'vitest';
import { headerText } from './header-text.js';

describe('headerText (SimpleHeaderConverter, Values.convertToString)', () => {
  it('a struct prints as a map with embedded strings quoted, only \\ and " escaped', () => {
    expect(headerText({ id: 1, code: 'a"b\\c', none: null })).toBe('{"id":1,"code":"a\\"b\\\\c","none":null}');
    expect(headerText({ ids: [1, 'x'] })).toBe('{"ids":[1,"x"]}');
  });
  it('top-level values: a string is itself, numbers and booleans print, null stays null', () => {
    expect(headerText('c')).toBe('c');
    expect(headerText('a"b')).toBe('a"b');
    expect(headerText(1704164645000)).toBe('1704164645000');
    expect(headerText(true)).toBe('true');
    expect(headerText(null)).toBeNull();
  });
});
