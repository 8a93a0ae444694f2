// git's post-processing of a line diff (xdiff/xdiffi.c xdl_change_compact, with the indent heuristic git enables
// by default since 2.14, blame included): a run of added or removed lines that could sit one line higher or lower
// (the line leaving it equals the line entering it) is slid to merge with neighbouring runs, lined up with a change
// on the other side when it can be, and otherwise placed where the indentation reads best. Myers' diff alone leaves
// such runs wherever its walk happened to put them; blame would then credit the wrong one of two equal lines
// (a blank line, a closing brace). Written by hand: no diff library exposes this step.

/** One side of a diff: its lines, and which of them are changed (added or removed). */
interface Side {
  lines: readonly string[];
  changed: Uint8Array;
}

interface Group {
  start: number;
  end: number;
}

const MAX_INDENT = 200;
const MAX_BLANKS = 20;
const START_OF_FILE_PENALTY = 1;
const END_OF_FILE_PENALTY = 21;
const TOTAL_BLANK_WEIGHT = -30;
const POST_BLANK_WEIGHT = 6;
const RELATIVE_INDENT_PENALTY = -4;
const RELATIVE_INDENT_WITH_BLANK_PENALTY = 10;
const RELATIVE_OUTDENT_PENALTY = 24;
const RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17;
const RELATIVE_DEDENT_PENALTY = 23;
const RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17;
const INDENT_WEIGHT = 60;
const INDENT_HEURISTIC_MAX_SLIDING = 100;

// The arrays have a 0 on either side in xdiff; out of range reads as unchanged here.
const isChanged = (s: Side, i: number) => i >= 0 && i < s.changed.length && s.changed[i] === 1;

function groupInit(s: Side): Group {
  const g = { start: 0, end: 0 };
  while (isChanged(s, g.end)) g.end++;
  return g;
}

/** Moves to the next group; false at the end of the file. */
function groupNext(s: Side, g: Group): boolean {
  if (g.end === s.lines.length) return false;
  g.start = g.end + 1;
  for (g.end = g.start; isChanged(s, g.end); g.end++);
  return true;
}

function groupPrevious(s: Side, g: Group): boolean {
  if (g.start === 0) return false;
  g.end = g.start - 1;
  for (g.start = g.end; isChanged(s, g.start - 1); g.start--);
  return true;
}

function slideDown(s: Side, g: Group): boolean {
  if (g.end < s.lines.length && s.lines[g.start] === s.lines[g.end]) {
    s.changed[g.start++] = 0;
    s.changed[g.end++] = 1;
    while (isChanged(s, g.end)) g.end++;
    return true;
  }
  return false;
}

function slideUp(s: Side, g: Group): boolean {
  if (g.start > 0 && s.lines[g.start - 1] === s.lines[g.end - 1]) {
    s.changed[--g.start] = 1;
    s.changed[--g.end] = 0;
    while (isChanged(s, g.start - 1)) g.start--;
    return true;
  }
  return false;
}

const bug = (what: string): never => {
  throw new Error(`diff compaction: ${what}`);
};

/** get_indent: columns of leading white space (tabs to multiples of 8), -1 for a line of white space only. */
function indentOf(line: string): number {
  let indent = 0;
  for (const ch of line) {
    if (ch === ' ') indent += 1;
    else if (ch === '\t') indent += 8 - (indent % 8);
    else if (ch !== '\n' && ch !== '\v' && ch !== '\f' && ch !== '\r') return indent;
    if (indent >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

interface Score {
  effectiveIndent: number;
  penalty: number;
}

/** measure_split and score_add_split: how good a place the boundary before line `split` is. */
function scoreSplit(lines: readonly string[], indents: (i: number) => number, split: number, score: Score) {
  const endOfFile = split >= lines.length;
  const indentHere = endOfFile ? -1 : indents(split);
  let preBlank = 0;
  let preIndent = -1;
  for (let i = split - 1; i >= 0; i--) {
    preIndent = indents(i);
    if (preIndent !== -1) break;
    preBlank += 1;
    if (preBlank === MAX_BLANKS) {
      preIndent = 0;
      break;
    }
  }
  let postBlankCount = 0;
  let postIndent = -1;
  for (let i = split + 1; i < lines.length; i++) {
    postIndent = indents(i);
    if (postIndent !== -1) break;
    postBlankCount += 1;
    if (postBlankCount === MAX_BLANKS) {
      postIndent = 0;
      break;
    }
  }

  if (preIndent === -1 && preBlank === 0) score.penalty += START_OF_FILE_PENALTY;
  if (endOfFile) score.penalty += END_OF_FILE_PENALTY;
  const postBlank = indentHere === -1 ? 1 + postBlankCount : 0;
  const totalBlank = preBlank + postBlank;
  score.penalty += TOTAL_BLANK_WEIGHT * totalBlank + POST_BLANK_WEIGHT * postBlank;
  const indent = indentHere !== -1 ? indentHere : postIndent;
  const anyBlanks = totalBlank !== 0;
  score.effectiveIndent += indent;
  if (indent === -1 || preIndent === -1 || indent === preIndent) return;
  if (indent > preIndent) score.penalty += anyBlanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  else if (postIndent !== -1 && postIndent > indent) score.penalty += anyBlanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
  else score.penalty += anyBlanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
}

const compareScores = (a: Score, b: Score) => INDENT_WEIGHT * Math.sign(a.effectiveIndent - b.effectiveIndent) + (a.penalty - b.penalty);

/** xdl_change_compact on `side` (the other side's groups kept in step). */
function compact(side: Side, other: Side, indentOfLine: (line: string) => number) {
  const cache = new Map<number, number>();
  const indents = (i: number) => {
    let found = cache.get(i);
    if (found === undefined) cache.set(i, (found = indentOfLine(side.lines[i]!)));
    return found;
  };
  const g = groupInit(side);
  const go = groupInit(other);
  for (;;) {
    if (g.end !== g.start) {
      let groupSize: number;
      let earliestEnd: number;
      let endMatchingOther: number;
      do {
        groupSize = g.end - g.start;
        endMatchingOther = -1;
        while (slideUp(side, g)) if (!groupPrevious(other, go)) bug('group sync broken sliding up');
        earliestEnd = g.end;
        if (go.end > go.start) endMatchingOther = g.end;
        for (;;) {
          if (!slideDown(side, g)) break;
          if (!groupNext(other, go)) bug('group sync broken sliding down');
          if (go.end > go.start) endMatchingOther = g.end;
        }
      } while (groupSize !== g.end - g.start);

      if (g.end === earliestEnd) {
        // no shifting was possible
      } else if (endMatchingOther !== -1) {
        while (go.end === go.start) {
          if (!slideUp(side, g)) bug('match disappeared');
          if (!groupPrevious(other, go)) bug('group sync broken sliding to match');
        }
      } else {
        let shift = Math.max(earliestEnd, g.end - groupSize - 1, g.end - INDENT_HEURISTIC_MAX_SLIDING);
        let bestShift = -1;
        let best: Score = { effectiveIndent: 0, penalty: 0 };
        for (; shift <= g.end; shift++) {
          const score: Score = { effectiveIndent: 0, penalty: 0 };
          scoreSplit(side.lines, indents, shift, score);
          scoreSplit(side.lines, indents, shift - groupSize, score);
          if (bestShift === -1 || compareScores(score, best) <= 0) {
            best = score;
            bestShift = shift;
          }
        }
        while (g.end > bestShift) {
          if (!slideUp(side, g)) bug('best shift unreached');
          if (!groupPrevious(other, go)) bug('group sync broken sliding to blank line');
        }
      }
    }
    if (!groupNext(side, g)) break;
    if (!groupNext(other, go)) bug('group sync broken moving to next group');
  }
}

/**
 * Compacts a diff given as the changed flags of each side (1: removed from `before` / added to `after`), in place,
 * as git does after its Myers pass: the old side first, then the new. `contentOf` gives a line's text for the
 * indent heuristic (the lines may carry markers that are not text).
 */
export function compactChanges(
  before: readonly string[],
  removed: Uint8Array,
  after: readonly string[],
  added: Uint8Array,
  contentOf: (line: string) => string,
) {
  const indent = (line: string) => indentOf(contentOf(line));
  const oldSide = { lines: before, changed: removed };
  const newSide = { lines: after, changed: added };
  compact(oldSide, newSide, indent);
  compact(newSide, oldSide, indent);
}
