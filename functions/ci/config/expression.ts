// GitLab 13.6's CI/CD variable expressions (Gitlab::Ci::Pipeline::Expression), as `rules:if` and
// `only/except:variables` use them: `$VAR`, "string" / 'string', /pattern/flags, null, ==, !=, =~, !~, &&, ||
// and parentheses. `&&` binds tighter than `||`. Patterns are RE2 (re2js), as GitLab's UntrustedRegexp.
import { RE2JS } from 're2js';

type Node =
  | { kind: 'variable'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'pattern'; source: string; flags: string }
  | { kind: 'null' }
  | { kind: 'binary'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||'; left: Node; right: Node };

type Token = Node | { kind: 'op'; op: string } | { kind: 'paren'; open: boolean };

// Lexeme::Variable, String, Pattern, Null and the operators, tried in this order at each position.
const LEXEMES: ReadonlyArray<[RegExp, (m: RegExpExecArray) => Token]> = [
  [/^\$(\w+)/, (m) => ({ kind: 'variable', name: m[1]! })],
  [/^"([^"]*)"/, (m) => ({ kind: 'string', value: m[1]! })],
  [/^'([^']*)'/, (m) => ({ kind: 'string', value: m[1]! })],
  // Lexeme::Pattern: /.../ with RE2's flags; an escaped slash does not end it.
  [/^\/((?:\\.|[^\\/])+)\/([ismU]*)/, (m) => ({ kind: 'pattern', source: m[1]!, flags: m[2]! })],
  [/^null\b/, () => ({ kind: 'null' })],
  [/^(==|!=|=~|!~|&&|\|\|)/, (m) => ({ kind: 'op', op: m[1]! })],
  [/^\(/, () => ({ kind: 'paren', open: true })],
  [/^\)/, () => ({ kind: 'paren', open: false })],
];

function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  let rest = text.trimStart();
  while (rest) {
    let matched = false;
    for (const [re, make] of LEXEMES) {
      const m = re.exec(rest);
      if (!m) continue;
      tokens.push(make(m));
      rest = rest.slice(m[0].length).trimStart();
      matched = true;
      break;
    }
    if (!matched) return null;
  }
  return tokens;
}

const PRECEDENCE: Record<string, number> = { '||': 1, '&&': 2, '==': 3, '!=': 3, '=~': 3, '!~': 3 };

/** A recursive-descent parser over the tokens; null when the statement is not a valid expression. */
export function parseExpression(text: string): Node | null {
  const tokens = tokenize(text);
  if (!tokens || tokens.length === 0) return null;
  let pos = 0;
  const operand = (): Node | null => {
    const t = tokens[pos++];
    if (!t) return null;
    if (t.kind === 'paren') {
      if (!t.open) return null;
      const inner = binary(1);
      const close = tokens[pos++];
      return inner && close?.kind === 'paren' && !close.open ? inner : null;
    }
    return t.kind === 'op' ? null : t;
  };
  const binary = (min: number): Node | null => {
    let left = operand();
    while (left) {
      const t = tokens[pos];
      if (t?.kind !== 'op' || PRECEDENCE[t.op]! < min) break;
      pos++;
      const right = binary(PRECEDENCE[t.op]! + 1);
      if (!right) return null;
      left = { kind: 'binary', op: t.op as '==', left, right };
    }
    return left;
  };
  const tree = binary(1);
  return tree && pos === tokens.length ? tree : null;
}

/** Statement#valid?: the text parses. */
export const isValidExpression = (text: string): boolean => parseExpression(text) !== null;

type Value = string | null | boolean | { pattern: RE2JS };

function compile(source: string, flags: string): RE2JS | null {
  let f = 0;
  if (flags.includes('i')) f |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) f |= RE2JS.MULTILINE;
  if (flags.includes('s')) f |= RE2JS.DOTALL;
  try {
    return RE2JS.compile(source, f);
  } catch {
    return null;
  }
}

function evaluate(node: Node, vars: Readonly<Record<string, string>>): Value {
  switch (node.kind) {
    case 'variable':
      return Object.hasOwn(vars, node.name) ? vars[node.name]! : null;
    case 'string':
      return node.value;
    case 'null':
      return null;
    case 'pattern': {
      const re = compile(node.source, node.flags);
      return re ? { pattern: re } : null;
    }
    case 'binary': {
      // Ruby truthiness for the operands of && and || (only nil and false are false; "" is true).
      const truthy = (v: Value) => v !== null && v !== false;
      if (node.op === '&&') {
        const l = evaluate(node.left, vars);
        return truthy(l) ? evaluate(node.right, vars) : l;
      }
      if (node.op === '||') {
        const l = evaluate(node.left, vars);
        return truthy(l) ? l : evaluate(node.right, vars);
      }
      const l = evaluate(node.left, vars);
      const r = evaluate(node.right, vars);
      if (node.op === '==' || node.op === '!=') {
        const same = typeof l === 'object' || typeof r === 'object' ? l === r : l === r;
        return node.op === '==' ? same : !same;
      }
      // Matches: the left side (nil as "") searched with the pattern. 13.6 does not turn a string (or a variable's
      // value) on the right into a pattern: Ruby's String#scan then looks for the left text inside it.
      const text = typeof l === 'string' ? l : '';
      const found = r !== null && typeof r === 'object' ? r.pattern.matcher(text).find() : typeof r === 'string' ? r.includes(text) : false;
      return node.op === '=~' ? found : !found;
    }
  }
}

/** Statement#truthful?: the value is present (not nil, false or an empty string). An invalid statement is false. */
export function expressionIsTrue(text: string, vars: Readonly<Record<string, string>>): boolean {
  const tree = parseExpression(text);
  if (!tree) return false;
  const v = evaluate(tree, vars);
  return v !== null && v !== false && v !== '';
}
