// git-receive-pack over HTTP (gitprotocol-pack "Reference Update Request and Packfile Transfer", git's
// builtin/receive-pack.c), in receive-pack's order: the commands and push options, the pack (read and checked as it
// streams: pack-reader.ts, unpack.ts), connectivity, the refs git itself refuses, GitLab's pre-receive checks
// (push-checks.ts), then ONE write of every object and ref move with its events and jobs (store/ref-write.ts, the
// write every repository verb ends with: pushes get the same events, merge request updates and pipelines as the
// API's commits), and the report (report-status, nested in side-band 1 when side-band-64k was asked for) after
// GitLab's post-receive messages on side-band 2. Nothing is stored unless a ref moves.
import type { Db } from '../../../db/client.ts';
import { findRefs, createRepository } from '../../../db/queries/repositories/refs.ts';
import { readObjects } from '../../../db/queries/repositories/reads.ts';
import { advertisedRefs, HIDDEN_REF_PREFIXES, isAncestorOfAny, readableTypes } from '../../../db/queries/repositories/transport.ts';
import { decodeCommit, messageText } from '../git/commit.ts';
import { decodeTree } from '../git/tree.ts';
import { isValidRefName } from '../writes/ref-names.ts';
import { writeRefs, type RefMove } from '../store/ref-write.ts';
import { prepareWrite, RefConflictError } from '../store/store.ts';
import type { ByteStream } from './byte-stream.ts';
import { PackError, readPack } from './pack-reader.ts';
import { FLUSH, pkt, ProtocolError, sideband } from './pkt-line.ts';
import { postReceiveMessages, type PushOptions, parsePushOptions } from './post-receive.ts';
import { pushRefusal, type PushScope, type RefChange } from './push-checks.ts';
import { completeTips, outsideLinks, TYPE_NAMES, unpackObjects, type ReceivedObject } from './unpack.ts';
import { AGENT } from './upload-pack.ts';

const ZERO = '0'.repeat(40);
const HEADS = 'refs/heads/';

const CAPABILITIES = [
  'report-status',
  'report-status-v2',
  'delete-refs',
  'side-band-64k',
  'quiet',
  'atomic',
  'ofs-delta',
  'push-options',
  'object-format=sha1',
  AGENT,
].join(' ');

/** `GET info/refs?service=git-receive-pack`: every ref but the hidden ones (no HEAD, no peeled tags), capabilities first. */
export async function advertiseReceivePack(db: Db, projectId: number | null): Promise<Uint8Array[]> {
  // No project yet (a push that will create it): an empty repository's advertisement.
  const refs = projectId === null ? [] : await advertisedRefs(db, projectId);
  const lines = [pkt('# service=git-receive-pack\n'), FLUSH];
  if (!refs.length) lines.push(pkt(`${ZERO} capabilities^{}\0${CAPABILITIES}\n`));
  refs.forEach((r, i) => lines.push(pkt(i === 0 ? `${r.oid} ${r.name}\0${CAPABILITIES}\n` : `${r.oid} ${r.name}\n`)));
  lines.push(FLUSH);
  return lines;
}

export interface ReceiveScope extends PushScope {
  /** MAX_FILE_SIZE: a larger blob is refused with GitLab's words. */
  maxFileSize: number;
  /** Whether merge requests may be opened in the project (the MR links and push options need it). */
  mergeRequestsEnabled: boolean;
  /** The project's printing_merge_request_link_enabled: the `remote:` lines that link a pushed branch's merge request. */
  printMergeRequestLinks: boolean;
  /** The former path the push came through (redirect_routes), for the "moved" message; null at the project's own. */
  movedFrom: string | null;
  /** The push created the project (push to create), for GitLab's "successfully created" message. */
  created: boolean;
}

interface Command {
  old: string | null;
  new: string | null;
  name: string;
  /** Why the ref is refused (git's report words), or null while it may still move. */
  error: string | null;
}

/** One pkt-line of the stream: its payload, or null for a flush; throws on a malformed or missing line. */
async function readLine(input: ByteStream): Promise<Uint8Array | null> {
  if (!(await input.fill(4))) throw new ProtocolError('unexpected end of request');
  const head = new TextDecoder().decode(input.take(4));
  if (!/^[0-9a-f]{4}$/i.test(head)) throw new ProtocolError(`bad line length character: ${head}`);
  const length = parseInt(head, 16);
  if (length === 0) return null;
  if (length < 4) throw new ProtocolError(`bad line length ${length}`);
  if (!(await input.fill(length - 4))) throw new ProtocolError('unexpected end of request');
  return Uint8Array.from(input.take(length - 4));
}

const text = (bytes: Uint8Array) => {
  const s = new TextDecoder().decode(bytes);
  return s.endsWith('\n') ? s.slice(0, -1) : s;
};

/** The commands (`<old> <new> <ref>`, capabilities after NUL on the first) up to the flush. */
async function readCommands(input: ByteStream): Promise<{ commands: Command[]; capabilities: Set<string> }> {
  const commands: Command[] = [];
  let capabilities = new Set<string>();
  for (let line = await readLine(input); line !== null; line = await readLine(input)) {
    let s = text(line);
    const nul = s.indexOf('\0');
    if (nul >= 0) {
      if (!commands.length)
        capabilities = new Set(
          s
            .slice(nul + 1)
            .split(' ')
            .filter(Boolean),
        );
      s = s.slice(0, nul);
    }
    // A shallow clone names its shallow commits. Nothing to do with them: a push is refused only when what it
    // brings is not connected to what the project has (the connectivity check), as git's receive-pack without
    // receive.shallowUpdate refuses only pushes that would make the repository shallow.
    if (s.startsWith('shallow ')) continue;
    const match = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.+)$/.exec(s);
    if (!match) throw new ProtocolError(`protocol error: expected old/new/ref, got '${s}'`);
    const [, old, next, name] = match;
    commands.push({ old: old === ZERO ? null : old!, new: next === ZERO ? null : next!, name: name!, error: null });
  }
  return { commands, capabilities };
}

/** The report-status lines, as one pkt-line stream. */
function report(unpack: string, commands: readonly Command[]): Uint8Array[] {
  return [pkt(`unpack ${unpack}\n`), ...commands.map((c) => pkt(c.error === null ? `ok ${c.name}\n` : `ng ${c.name} ${c.error}\n`)), FLUSH];
}

/** The response: messages on band 2 and the report nested in band 1 with side-band-64k, else the report alone. */
function respond(capabilities: Set<string>, messages: string, unpack: string, commands: readonly Command[]): Uint8Array[] {
  const lines = report(unpack, commands);
  if (!capabilities.has('side-band-64k')) return lines;
  const nested = new Uint8Array(lines.reduce((n, l) => n + l.length, 0));
  lines.reduce((at, l) => (nested.set(l, at), at + l.length), 0);
  return [...(messages ? sideband(2, new TextEncoder().encode(messages)) : []), ...sideband(1, nested), FLUSH];
}

/** The push, received whole and answered: the response's pkt-lines. */
export async function receivePack(scope: ReceiveScope, input: ByteStream, limit: number): Promise<Uint8Array[]> {
  const { ctx, repository } = scope;
  const { commands, capabilities } = await readCommands(input);
  if (!commands.length) return [];
  const options: PushOptions = parsePushOptions(capabilities.has('push-options') ? await readOptions(input) : []);
  const atomic = capabilities.has('atomic');
  const fail = (command: Command, error: string) => {
    if (command.error === null) command.error = error;
  };

  // The pack (none for a push of deletions only), read to its trailer and checked before any ref is looked at.
  let objects: ReceivedObject[] = [];
  if (commands.some((c) => c.new !== null)) {
    try {
      // An entry is inflated up to twice MAX_FILE_SIZE (a delta may outgrow its result a little; anything larger is
      // refused before it fills memory); the GitLab check of the file size comes once the objects are known.
      const entries = await readPack(input, 2 * scope.maxFileSize, limit);
      objects = await unpackObjects(entries, async (oids) => {
        const found = await readObjects(ctx.db, repository.projectId, oids);
        return new Map(found.map((o) => [o.oid, { type: o.type, data: o.data }]));
      });
    } catch (error) {
      if (!(error instanceof PackError)) throw error;
      await input.cancel();
      for (const c of commands) fail(c, 'unpacker error');
      return respond(capabilities, `fatal: ${error.detail}\n`, error.status, commands);
    }
  }

  const names = commands.map((c) => c.name);
  const received = new Map(objects.map((o) => [o.oid, o]));
  const tips = commands.flatMap((c) => (c.new === null ? [] : [c.new]));
  const [current, readable] = await Promise.all([
    findRefs(ctx.db, repository.projectId, names),
    readableTypes(ctx.db, repository.projectId, [...new Set([...outsideLinks(objects), ...tips.filter((t) => !received.has(t))])]),
  ]);
  const complete = completeTips(objects, tips, new Set(readable.keys()));
  const typeOf = (oid: string) => received.get(oid)?.type ?? TYPE_NAMES[readable.get(oid) ?? 0];

  // What git's receive-pack refuses itself, before the hooks.
  for (const c of commands) {
    if (!c.name.startsWith('refs/') || !isValidRefName(c.name)) fail(c, 'funny refname');
    if (HIDDEN_REF_PREFIXES.some((p) => c.name.startsWith(p))) fail(c, c.new === null ? 'deny deleting a hidden ref' : 'deny updating a hidden ref');
    if ((current.get(c.name) ?? null) !== c.old) fail(c, c.new === null ? 'failed to delete' : 'failed to update ref');
    if (c.new !== null && !complete.has(c.new)) fail(c, 'missing necessary objects');
    if (c.new !== null && c.name.startsWith(HEADS) && c.error === null && typeOf(c.new) !== 'commit') fail(c, 'non-commit object');
  }
  if (atomic && commands.some((c) => c.error !== null)) for (const c of commands) fail(c, 'atomic push failure');

  // GitLab's pre-receive: the first refusal declines every ref.
  let messages = '';
  const changes: RefChange[] = [];
  for (const c of commands.filter((c) => c.error === null)) {
    const forced = c.old !== null && c.new !== null && c.name.startsWith(HEADS) && !(await fastForward(ctx.db, repository.projectId, received, c.old, c.new));
    changes.push({ name: c.name, old: c.old, new: c.new, forced });
  }
  const blob = tooLargeBlob(objects, scope.maxFileSize);
  const refusal = blob ?? changes.map((change) => pushRefusal(scope, change)).find((m) => m !== null);
  if (refusal) {
    messages += `GitLab: ${refusal}\n`;
    for (const c of commands) fail(c, 'pre-receive hook declined');
    return respond(capabilities, messages, 'ok', commands);
  }

  const moving = commands.filter((c) => c.error === null);
  if (moving.length) {
    await writeMoves(scope, moving, objects, received, atomic, options);
    messages += await postReceiveMessages(scope, moving, options);
  }
  return respond(capabilities, messages, 'ok', commands);
}

/** The push options (one pkt-line each) up to their flush. */
async function readOptions(input: ByteStream): Promise<string[]> {
  const options: string[] = [];
  for (let line = await readLine(input); line !== null; line = await readLine(input)) options.push(text(line));
  return options;
}

/** Whether `old` is in `next`'s history: through the received commits, then the stored ones. */
async function fastForward(db: Db, projectId: number, received: ReadonlyMap<string, ReceivedObject>, old: string, next: string): Promise<boolean> {
  const frontier: string[] = [];
  const seen = new Set<string>();
  const stack = [next];
  while (stack.length) {
    const oid = stack.pop()!;
    if (oid === old) return true;
    if (seen.has(oid)) continue;
    seen.add(oid);
    const object = received.get(oid);
    if (!object) frontier.push(oid);
    else if (object.type === 'commit') stack.push(...object.links.slice(1));
  }
  return isAncestorOfAny(db, projectId, old, frontier);
}

/** A blob above MAX_FILE_SIZE, named by a tree entry that holds it (GitLab's push rule wording). */
function tooLargeBlob(objects: readonly ReceivedObject[], max: number): string | null {
  const large = objects.find((o) => o.type === 'blob' && o.body.length > max);
  if (!large) return null;
  let name = large.oid;
  for (const o of objects) {
    if (o.type !== 'tree' || !o.links.includes(large.oid)) continue;
    const entry = decodeTree(o.body).find((e) => e.oid === large.oid);
    if (entry) name = new TextDecoder().decode(entry.name);
    break;
  }
  return `File "${name}" is larger than the allowed size of ${Math.floor(max / (1024 * 1024))} MB`;
}

/**
 * One write for every ref that moves. A ref someone else moved meanwhile loses its compare-and-swap, which rolls the
 * whole batch back: it is marked `failed to update ref` and the others are written again (with `atomic`, none is).
 */
async function writeMoves(
  scope: ReceiveScope,
  moving: Command[],
  objects: readonly ReceivedObject[],
  received: ReadonlyMap<string, ReceivedObject>,
  atomic: boolean,
  options: PushOptions,
) {
  const { ctx, repository } = scope;
  const write = await prepareWrite(objects);
  const poolId = repository.poolId ?? (await createRepository(ctx.db, repository.projectId));
  let pending = moving;
  while (pending.length) {
    const refs: RefMove[] = pending.map((c) => ({ projectId: repository.projectId, name: c.name, old: c.old, new: c.new, ...commitsOf(received, c) }));
    try {
      const head = firstBranch(scope, pending);
      await writeRefs(ctx, { poolId, write, refs, head, ci: { skip: options.ciSkip, variables: options.ciVariables } });
      // The branch this push made the default one is the default for what the push prints.
      if (head) repository.defaultBranch = head.branch;
      return;
    } catch (error) {
      if (!(error instanceof RefConflictError)) throw error;
      const now = await findRefs(
        ctx.db,
        repository.projectId,
        pending.map((c) => c.name),
      );
      const lost = pending.filter((c) => (now.get(c.name) ?? null) !== c.old);
      for (const c of lost) c.error = 'failed to update ref';
      if (atomic || !lost.length) {
        for (const c of pending) if (c.error === null) c.error = 'atomic transaction failed';
        return;
      }
      pending = pending.filter((c) => c.error === null);
    }
  }
}

/** The branch a push into an empty repository makes its default: master when pushed (git's HEAD), else the first. */
function firstBranch(scope: ReceiveScope, moving: readonly Command[]) {
  if (scope.repository.defaultBranch !== null) return undefined;
  const branches = moving
    .filter((c) => c.new !== null && c.name.startsWith(HEADS))
    .map((c) => c.name.slice(HEADS.length))
    .sort();
  const branch = branches.includes('master') ? 'master' : branches[0];
  return branch === undefined ? undefined : { projectId: scope.repository.projectId, branch };
}

/** The push event's commit count and last message: the received commits in the new tip's history. */
function commitsOf(received: ReadonlyMap<string, ReceivedObject>, c: Command): { commitCount: number; lastCommitMessage: string | null } {
  if (c.new === null) return { commitCount: 0, lastCommitMessage: null };
  let count = 0;
  const seen = new Set<string>();
  const stack = [c.new];
  while (stack.length) {
    const oid = stack.pop()!;
    if (oid === c.old || seen.has(oid)) continue;
    seen.add(oid);
    const object = received.get(oid);
    if (object?.type !== 'commit') continue;
    count++;
    stack.push(...object.links.slice(1));
  }
  const tip = received.get(c.new);
  const lastCommitMessage = tip?.type === 'commit' ? messageText(decodeCommit(tip.body)) : null;
  return { commitCount: count, lastCommitMessage };
}
