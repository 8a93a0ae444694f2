// The `author`, `committer` and `tagger` lines: `Name <email> <unix seconds> <+hhmm>`.

export interface Signature {
  name: string;
  email: string;
  /** Unix seconds. */
  time: number;
  /** The zone as written, e.g. '+0200'. */
  tz: string;
  /**
   * The stored line, kept only when the fields above would not write it back byte for byte (odd spacing, a missing
   * zone, no email at all: old or foreign tools wrote such lines). It is written back while the fields still say what
   * was read from it; change any field and the line is written afresh from the fields.
   */
  raw?: string;
}

const TAIL = /^\s*(\d+)\s+([+-]\d+)\s*$/;
const ZONE = /^[+-]\d{4}$/;

/**
 * Reads a signature from the right, as git does: the time and zone follow the last '>', the email runs from the
 * first '<' to that '>', the name is what comes before, trailing spaces trimmed. What cannot be read yields the
 * closest fields (time 0, zone +0000) and keeps the line in `raw`.
 */
export function parseSignature(line: string): Signature {
  const lt = line.indexOf('<');
  const gt = line.lastIndexOf('>');
  const fields =
    lt < 0 || gt < lt
      ? { name: line.trim(), email: '', time: 0, tz: '+0000' }
      : { name: line.slice(0, lt).trimEnd(), email: line.slice(lt + 1, gt), ...tail(line.slice(gt + 1)) };
  return problem(fields) === undefined && formatFields(fields) === line ? fields : { ...fields, raw: line };
}

function tail(text: string): { time: number; tz: string } {
  const match = TAIL.exec(text);
  return match ? { time: Number(match[1]), tz: match[2]! } : { time: 0, tz: '+0000' };
}

const formatFields = (s: Signature) => `${s.name} <${s.email}> ${s.time} ${s.tz}`;

/** Why the fields cannot be written as a line of their own, if they cannot. */
function problem({ name, email, time, tz }: Signature): string | undefined {
  // git strips these from identities ('<', '>' delimit the email, a newline would end the header).
  if (/[<>\n]/.test(name) || /[<>\n]/.test(email)) return `invalid identity ${JSON.stringify(`${name} <${email}>`)}`;
  if (!Number.isSafeInteger(time) || time < 0) return `invalid signature time ${time}`;
  if (!ZONE.test(tz)) return `invalid signature zone ${JSON.stringify(tz)}`;
  return undefined;
}

/** The line to store: `raw` when the fields are still the ones read from it, else the fields, checked. */
export function formatSignature(signature: Signature): string {
  if (signature.raw !== undefined) {
    const read = parseSignature(signature.raw);
    if (read.name === signature.name && read.email === signature.email && read.time === signature.time && read.tz === signature.tz) {
      return signature.raw;
    }
  }
  const error = problem(signature);
  if (error) throw new Error(error);
  return formatFields(signature);
}
