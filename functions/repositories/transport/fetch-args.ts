// The arguments of an upload-pack fetch (gitprotocol-v2 `fetch`, and the same lines of the v0/v1 exchange): parsed
// into one FetchArgs both protocol versions plan from (upload-pack.ts).
import { ProtocolError } from './pkt-line.ts';

/** The fetch arguments both protocol versions share. */
export interface FetchArgs {
  wants: string[];
  haves: string[];
  done: boolean;
  depth?: number;
  /** deepen-relative: the depth counts from the client's shallow commits (git fetch --deepen). */
  relative?: boolean;
  /** deepen-since: seconds since the epoch. */
  since?: number;
  /** deepen-not: ref names. */
  notRefs?: string[];
  shallow: string[];
  blobLimit?: number;
  progress: boolean;
  includeTag: boolean;
  /** The client reads OFS_DELTA entries (every git does; the stored pack has them). */
  ofsDelta: boolean;
}

const OID = /^[0-9a-f]{40}$/;

export function oidArg(value: string | undefined, what: string): string {
  if (!value || !OID.test(value)) throw new ProtocolError(`protocol error: expected ${what}, got '${value ?? ''}'`);
  return value;
}

/** `filter <spec>`: blob:none and blob:limit=<n>[kmg]; any other is refused as git refuses what it does not allow. */
function blobLimitOf(spec: string): number {
  if (spec === 'blob:none') return 0;
  const limit = /^blob:limit=(\d+)([kmg]?)$/.exec(spec);
  if (!limit) throw new ProtocolError(`filter '${spec.split(':')[0]}' not supported`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[limit[2] as '' | 'k' | 'm' | 'g'];
  return Math.min(Number(limit[1]) * unit, 2_147_483_647);
}

/** Parses one fetch argument line into `args`; false when the line is not a fetch argument. */
export function fetchArgument(line: string, args: FetchArgs): boolean {
  const [word, value] = splitOnce(line);
  switch (word) {
    case 'want':
      args.wants.push(oidArg(value, 'want'));
      return true;
    case 'have':
      args.haves.push(oidArg(value, 'have'));
      return true;
    case 'shallow':
      args.shallow.push(oidArg(value, 'shallow'));
      return true;
    case 'deepen': {
      const depth = Number(value);
      if (!Number.isInteger(depth) || depth <= 0) throw new ProtocolError(`protocol error: invalid depth '${value ?? ''}'`);
      args.depth = Math.min(depth, 2_147_483_647);
      return true;
    }
    case 'deepen-since': {
      const since = Number(value);
      if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(since)) throw new ProtocolError(`protocol error: invalid deepen-since '${value ?? ''}'`);
      args.since = since;
      return true;
    }
    case 'deepen-not':
      if (!value) throw new ProtocolError('protocol error: expected deepen-not <ref>');
      (args.notRefs ??= []).push(value);
      return true;
    case 'deepen-relative':
      args.relative = true;
      return true;
    case 'filter':
      args.blobLimit = blobLimitOf(value ?? '');
      return true;
    case 'done':
      args.done = true;
      return true;
    case 'no-progress':
      args.progress = false;
      return true;
    case 'include-tag':
      args.includeTag = true;
      return true;
    case 'ofs-delta':
      args.ofsDelta = true;
      return true;
    case 'thin-pack':
    case 'sideband-all':
    case 'wait-for-done':
      return true;
    default:
      return false;
  }
}

/** Whether the request asks for a shallow history (or comes from a shallow clone): the answer starts with shallow lines. */
export const deepens = (f: FetchArgs) => f.depth !== undefined || f.since !== undefined || f.notRefs !== undefined || f.shallow.length > 0;

const splitOnce = (line: string): [string, string | undefined] => {
  const at = line.indexOf(' ');
  return at < 0 ? [line, undefined] : [line.slice(0, at), line.slice(at + 1)];
};
