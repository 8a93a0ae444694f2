// CI/CD variable expressions (rules:if, only:variables) as GitLab 13.6 evaluates them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expressionIsTrue, isValidExpression } from '../../../functions/ci/config/expression.ts';

const VARS = { A: 'a', EMPTY: '', BRANCH: 'feature/x', N: '1' };

describe('expressions', () => {
  it.each([
    ['$A', true],
    ['$EMPTY', false],
    ['$MISSING', false],
    ['$A == "a"', true],
    ["$A == 'a'", true],
    ['$A != "a"', false],
    ['$MISSING == null', true],
    ['$A == null', false],
    ['$BRANCH =~ /^feature\\//', true],
    ['$BRANCH =~ /^FEATURE/i', true],
    ['$BRANCH !~ /^feature/', false],
    ['$MISSING =~ /^$/', true],
    ['$A == "a" && $N == "2"', false],
    ['$A == "b" || $N == "1"', true],
    ['$A == "b" || $N == "1" && $EMPTY', false],
    ['($A == "b" || $N == "1") && $A', true],
    ['$A == $A', true],
    // A string on the right is no pattern: the left text is looked for inside it (String#scan).
    ['$A =~ "cat"', true],
    ['$N =~ "cat"', false],
  ])('%s is %s', (text, expected) => {
    expect(expressionIsTrue(text, VARS)).toBe(expected);
  });

  it.each(['', '$A =', '$A = "a"', '"a" ==', '($A', '$A)', '$A $B', 'A == "a"', '$A == "a" &&'])('%j is invalid', (text) => {
    expect(isValidExpression(text)).toBe(false);
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        expect(typeof expressionIsTrue(text, VARS)).toBe('boolean');
      }),
    );
  });
});
