// git-upload-pack over HTTP (gitprotocol-http, gitprotocol-v2, gitprotocol-pack): the ref advertisement, protocol
// v2's ls-refs and fetch, and the v0/v1 exchange clients that do not speak v2 still use. Stateless: each POST carries
// the whole request and gets one response. A fetch's objects are planned in one statement (planPack) and the pack is
// streamed in side-band-64k packets as it is written (pack.ts); a fetch of a whole history starts with the project's
// stored pack when it has one (stored-pack.ts, written by repack.ts) and plans only what is newer. GitLab's Gitaly
// allows any readable object id in a want (uploadpack.allowAnySHA1InWant); here "readable" is the project's own
// reachable set (readableObjectSql), so an object of another project of the pool is refused as git refuses an id it
// does not have.
import type { Db } from '../../../db/client.ts';
import type { StoredPack } from '../../../db/queries/repositories/packs.ts';
import { advertisedRefs, planPack, readableTypes, type PackPlan } from '../../../db/queries/repositories/transport.ts';
import { readObjects } from '../../../db/queries/repositories/reads.ts';
import { decodeTag } from '../git/tag.ts';
import { writePack } from './pack.ts';
import { bloblessPack, usableStoredPack, withoutPacked } from './stored-pack.ts';
import { DELIM, FLUSH, pkt, PktReader, ProtocolError, sideband } from './pkt-line.ts';
import { deepens, fetchArgument, oidArg, type FetchArgs } from './fetch-args.ts';

export const AGENT = 'agent=git/2.29.0-edge-gitlab';
const TAG = 4;
const COMMIT = 1;

export interface GitRepository {
  projectId: number;
  /** The default branch's short name: HEAD's target. */
  defaultBranch: string | null;
}

interface Ref {
  name: string;
  oid: string;
  /** An annotated tag's target. */
  peeled?: string;
}

/** The advertised refs, tags peeled, and HEAD's target when it exists. */
async function refsOf(db: Db, repo: GitRepository): Promise<{ refs: Ref[]; head: Ref | null }> {
  const refs = (await advertisedRefs(db, repo.projectId)).map((r): Ref => {
    if (r.type !== TAG || !r.tagBody) return { name: r.name, oid: r.oid };
    return { name: r.name, oid: r.oid, peeled: decodeTag(r.tagBody).object };
  });
  const headName = repo.defaultBranch ? `refs/heads/${repo.defaultBranch}` : null;
  const target = refs.find((r) => r.name === headName);
  return { refs, head: target ? { name: 'HEAD', oid: target.oid } : null };
}

const V0_CAPABILITIES = [
  'multi_ack',
  'thin-pack',
  'side-band',
  'side-band-64k',
  'ofs-delta',
  'shallow',
  'deepen-since',
  'deepen-not',
  'deepen-relative',
  'no-progress',
  'include-tag',
  'multi_ack_detailed',
  'allow-tip-sha1-in-want',
  'allow-reachable-sha1-in-want',
  'no-done',
  'filter',
  'object-format=sha1',
];

/** `GET info/refs?service=git-upload-pack` in protocol v0: the service line, then every ref, capabilities on the first. */
export async function advertiseUploadPack(db: Db, repo: GitRepository): Promise<Uint8Array[]> {
  const { refs, head } = await refsOf(db, repo);
  const caps = [...V0_CAPABILITIES, ...(head && repo.defaultBranch ? [`symref=HEAD:refs/heads/${repo.defaultBranch}`] : []), AGENT].join(' ');
  const lines = [pkt('# service=git-upload-pack\n'), FLUSH];
  const all: Ref[] = head ? [head, ...refs] : refs;
  // git 2.29 (GitLab 13.6's) advertises nothing, not even capabilities, for an empty repository.
  all.forEach((r, i) => {
    lines.push(pkt(i === 0 ? `${r.oid} ${r.name}\0${caps}\n` : `${r.oid} ${r.name}\n`));
    if (r.peeled) lines.push(pkt(`${r.peeled} ${r.name}^{}\n`));
  });
  lines.push(FLUSH);
  return lines;
}

/** `GET info/refs?service=git-upload-pack` with `Git-Protocol: version=2`: the capability advertisement. */
export function advertiseV2(): Uint8Array[] {
  return [
    pkt('# service=git-upload-pack\n'),
    FLUSH,
    pkt('version 2\n'),
    pkt(`${AGENT}\n`),
    pkt('ls-refs=unborn\n'),
    pkt('fetch=shallow filter\n'),
    pkt('server-option\n'),
    pkt('object-format=sha1\n'),
    FLUSH,
  ];
}

type Wanted = Awaited<ReturnType<typeof resolveWants>>;

/** What the wants name, split for planPack: commits (tags peeled, the tags themselves sent too) and other objects. */
export async function resolveWants(db: Db, repo: GitRepository, wants: readonly string[]) {
  const types = await readableTypes(db, repo.projectId, wants);
  const missing = wants.find((w) => !types.has(w));
  if (missing) throw new ProtocolError(`upload-pack: not our ref ${missing}`);
  const commits: string[] = [];
  const objects: string[] = [];
  let tags = wants.filter((w) => types.get(w) === TAG);
  for (const w of wants) if (types.get(w) === COMMIT) commits.push(w);
  for (const w of wants) if (types.get(w) !== COMMIT && types.get(w) !== TAG) objects.push(w);
  // Tags (and tags of tags) are sent as objects and peeled to what they point at.
  for (let round = 0; tags.length && round < 10; round++) {
    objects.push(...tags);
    const bodies = await readObjects(db, repo.projectId, tags);
    tags = [];
    for (const body of bodies) {
      const tag = decodeTag(body.data);
      if (tag.type === 'commit') commits.push(tag.object);
      else if (tag.type === 'tag') tags.push(tag.object);
      else objects.push(tag.object);
    }
  }
  return { commits, objects };
}

/** include-tag: the annotated tags whose targets the pack carries, added to the plan. */
async function withIncludedTags(db: Db, repo: GitRepository, plan: PackPlan): Promise<PackPlan> {
  const sent = new Set(plan.objects.map((o) => o.oid));
  const { refs } = await refsOf(db, repo);
  const extra = refs.filter((r) => r.peeled && sent.has(r.peeled) && !sent.has(r.oid)).map((r) => ({ oid: r.oid, type: TAG }));
  return extra.length ? { ...plan, objects: [...plan.objects, ...extra] } : plan;
}

/** What a fetch sends: the stored pack it starts with, if any, then the planned objects. */
interface FetchPlan extends PackPlan {
  stored?: StoredPack | undefined;
}

/** The plan for the arguments: what to send, and which commits it cuts history at (shallow). */
async function plan(db: Db, repo: GitRepository, args: FetchArgs, wanted?: Wanted): Promise<FetchPlan> {
  const { commits, objects } = wanted ?? (await resolveWants(db, repo, args.wants));
  // A whole history, or a blob-less partial clone of one, can start with the stored pack (or its blob-less twin).
  const blobless = args.blobLimit === 0;
  const whole = !args.haves.length && !deepens(args) && (args.blobLimit === undefined || blobless) && args.ofsDelta;
  const usable = whole ? await usableStoredPack(db, repo.projectId, { commits, objects }) : null;
  const stored = usable && blobless ? bloblessPack(usable) : usable;
  if (stored) {
    // What is newer than the pack: its tips are the haves; what the pack already holds is left out (a revert brings
    // back an old tree, which the boundary's trees do not show).
    const newer = await planPack(db, repo.projectId, { commits, objects, haves: stored.tips, blobLimit: args.blobLimit });
    const extra = newer.objects.length ? await withoutPacked(db, stored, newer.objects, { blobs: !blobless }) : [];
    const planned = { objects: extra, shallow: [], unshallow: [], stored };
    return args.includeTag ? { ...(await withIncludedTags(db, repo, planned)), stored } : planned;
  }
  const planned = await planPack(db, repo.projectId, {
    commits,
    objects,
    haves: args.haves,
    depth: args.depth,
    relative: args.relative,
    since: args.since,
    notCommits: args.notRefs?.length ? await deepenNot(db, repo, args.notRefs) : undefined,
    shallow: args.shallow,
    blobLimit: args.blobLimit,
  });
  return args.includeTag ? withIncludedTags(db, repo, planned) : planned;
}

/**
 * deepen-not's refs as commits: each must name one of the project's refs (git's expand_ref: the name itself or under
 * refs/, refs/tags/, refs/heads/), annotated tags peeled.
 */
async function deepenNot(db: Db, repo: GitRepository, names: readonly string[]): Promise<string[]> {
  const { refs } = await refsOf(db, repo);
  return names.map((name) => {
    const ref = [name, `refs/${name}`, `refs/tags/${name}`, `refs/heads/${name}`].map((n) => refs.find((r) => r.name === n)).find((r) => r);
    if (!ref) throw new ProtocolError(`git upload-pack: not a ref ${name}`);
    return ref.peeled ?? ref.oid;
  });
}

/** The haves the project may read (the commits a negotiation may call common). */
async function commonHaves(db: Db, repo: GitRepository, haves: readonly string[]): Promise<string[]> {
  const types = await readableTypes(db, repo.projectId, haves);
  return haves.filter((h) => types.has(h));
}

/** How often a keepalive goes out while a pack is planned (git's uploadpack.keepAlive default: 5 seconds). */
export const KEEPALIVE_MS = 5000;

/**
 * Waits for `work`, sending git's keepalive (an empty side-band 1 packet) every `interval` meanwhile, so a proxy or
 * the client does not give up on a response that has sent nothing for a while (a large repository's plan); the
 * result is put in `out`.
 */
export async function* keepalive<T>(work: Promise<T>, out: { value?: T }, interval = KEEPALIVE_MS): AsyncGenerator<Uint8Array> {
  const done = work.then((value) => ({ value }));
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), interval)));
    const result = await Promise.race([done, tick]);
    clearTimeout(timer);
    if (result) {
      out.value = result.value;
      return;
    }
    yield pkt(Uint8Array.of(1));
  }
}

/** The pack on band 1 (progress would be band 2), each piece as side-band-64k packets. */
async function* packPackets(db: Db, repo: GitRepository, planned: FetchPlan, sidebandOn: boolean): AsyncGenerator<Uint8Array> {
  for await (const piece of writePack(db, repo.projectId, planned.objects, planned.stored)) {
    if (sidebandOn) yield* sideband(1, piece);
    else yield piece;
  }
}

/** The new shallow commits, then the client's shallow commits whose parents now come (git's send_shallow, send_unshallow). */
function* shallowLines(planned: PackPlan): Generator<Uint8Array> {
  for (const s of planned.shallow) yield pkt(`shallow ${s}\n`);
  for (const s of planned.unshallow) yield pkt(`unshallow ${s}\n`);
}

/** Protocol v2: one command (ls-refs or fetch) per request. */
export async function* uploadPackV2(db: Db, repo: GitRepository, body: Uint8Array): AsyncGenerator<Uint8Array> {
  const reader = new PktReader(body);
  let command: string | null = null;
  for (let p = reader.next(); p && p.kind === 'data'; p = reader.next()) {
    const line = new TextDecoder().decode(p.data).replace(/\n$/, '');
    if (line.startsWith('command=')) command = line.slice('command='.length);
  }
  // A request that is only a flush: no more commands (git sends it at the end of a session).
  if (command === null) return;
  const args: string[] = [];
  for (let line = reader.line(); line !== null; line = reader.line()) args.push(line);

  if (command === 'ls-refs') {
    const peel = args.includes('peel');
    const symrefs = args.includes('symrefs');
    const unborn = args.includes('unborn');
    const prefixes = args.filter((a) => a.startsWith('ref-prefix ')).map((a) => a.slice('ref-prefix '.length));
    const matches = (name: string) => !prefixes.length || prefixes.some((p) => name.startsWith(p));
    const { refs, head } = await refsOf(db, repo);
    const headTarget = repo.defaultBranch ? `refs/heads/${repo.defaultBranch}` : null;
    if (matches('HEAD')) {
      if (head) yield pkt(`${head.oid} HEAD${symrefs && headTarget ? ` symref-target:${headTarget}` : ''}\n`);
      else if (unborn && symrefs && headTarget) yield pkt(`unborn HEAD symref-target:${headTarget}\n`);
    }
    for (const r of refs) if (matches(r.name)) yield pkt(`${r.oid} ${r.name}${peel && r.peeled ? ` peeled:${r.peeled}` : ''}\n`);
    yield FLUSH;
    return;
  }
  if (command !== 'fetch') throw new ProtocolError(`invalid command '${command}'`);

  const fetch: FetchArgs = { wants: [], haves: [], done: false, shallow: [], progress: true, includeTag: false, ofsDelta: false };
  for (const a of args) if (!fetchArgument(a, fetch)) throw new ProtocolError(`unexpected line: '${a}'`);
  if (!fetch.wants.length) throw new ProtocolError('expected wants');

  if (fetch.haves.length && !fetch.done) {
    // Negotiation: the common haves, and `ready` once there are any (any common commit lets the pack be cut there;
    // a server may say ready as early as it likes).
    const common = await commonHaves(db, repo, fetch.haves);
    yield pkt('acknowledgments\n');
    if (!common.length) {
      yield pkt('NAK\n');
      yield FLUSH;
      return;
    }
    for (const c of common) yield pkt(`ACK ${c}\n`);
    yield pkt('ready\n');
    yield DELIM;
  }
  if (deepens(fetch)) {
    // The shallow lines come before the pack section, so they wait for the plan.
    const planned = await plan(db, repo, fetch);
    yield pkt('shallow-info\n');
    yield* shallowLines(planned);
    yield DELIM;
    yield pkt('packfile\n');
    yield* packPackets(db, repo, planned, true);
  } else {
    // Wants are checked before anything is sent: one the project cannot read is an ERR line, not a broken pack.
    const wanted = await resolveWants(db, repo, fetch.wants);
    yield pkt('packfile\n');
    const planned: { value?: FetchPlan } = {};
    yield* keepalive(plan(db, repo, fetch, wanted), planned);
    yield* packPackets(db, repo, planned.value!, true);
  }
  yield FLUSH;
}

/** Protocol v0/v1 over stateless HTTP: wants (capabilities on the first), shallow/deepen, a flush, haves, done. */
export async function* uploadPackV0(db: Db, repo: GitRepository, body: Uint8Array): AsyncGenerator<Uint8Array> {
  const reader = new PktReader(body);
  const fetch: FetchArgs = { wants: [], haves: [], done: false, shallow: [], progress: true, includeTag: false, ofsDelta: false };
  let caps: string[] = [];
  for (let line = reader.line(); line !== null; line = reader.line()) {
    if (line.startsWith('want ') && !fetch.wants.length) {
      const [want, ...rest] = line.slice(5).split(' ');
      caps = rest;
      fetch.wants.push(oidArg(want, 'want'));
      continue;
    }
    if (!fetchArgument(line, fetch)) throw new ProtocolError(`protocol error: unexpected '${line}'`);
  }
  // The haves, then `done` or a flush (stateless: "tell me what you know"). A request that ends with the wants
  // (git's first request of a shallow fetch) asks for the shallow lines alone: git's upload-pack sends them, then
  // finds no haves section and stops.
  const wantsOnly = reader.rest().length === 0;
  for (let p = reader.next(); p && p.kind === 'data'; p = reader.next()) {
    const line = new TextDecoder().decode(p.data).replace(/\n$/, '');
    if (!fetchArgument(line, fetch)) throw new ProtocolError(`protocol error: unexpected '${line}'`);
  }
  if (!fetch.wants.length) return;
  if (caps.includes('no-progress')) fetch.progress = false;
  if (caps.includes('include-tag')) fetch.includeTag = true;
  if (caps.includes('ofs-delta')) fetch.ofsDelta = true;
  if (caps.includes('deepen-relative')) fetch.relative = true;
  const sidebandOn = caps.includes('side-band-64k') || caps.includes('side-band');
  const multiAck = caps.includes('multi_ack_detailed');
  const noDone = caps.includes('no-done');

  // Planned once a round needs it: for the shallow lines it starts with, or for the pack it ends with.
  let planned: FetchPlan | undefined;
  // Wants are checked before anything is sent, as git's receive_needs does.
  const wanted = await resolveWants(db, repo, fetch.wants);
  const planOnce = async () => (planned ??= await plan(db, repo, fetch, wanted));
  if (deepens(fetch)) {
    yield* shallowLines(await planOnce());
    yield FLUSH;
    if (wantsOnly) return;
  }
  const common = fetch.haves.length ? await commonHaves(db, repo, fetch.haves) : [];
  const last = common.at(-1);
  if (!fetch.done) {
    // A round of negotiation (the request ended with a flush).
    if (multiAck) for (const c of common) yield pkt(`ACK ${c} common\n`);
    if (last && multiAck) yield pkt(`ACK ${last} ready\n`);
    yield pkt('NAK\n');
    // no-done: the client takes `ready` as done and reads the pack from this response.
    if (!(last && multiAck && noDone)) return;
    yield pkt(`ACK ${last}\n`);
  } else {
    yield pkt(last ? `ACK ${last}\n` : 'NAK\n');
  }
  const pack: { value?: FetchPlan } = {};
  if (sidebandOn) yield* keepalive(planOnce(), pack);
  else pack.value = await planOnce();
  yield* packPackets(db, repo, pack.value!, sidebandOn);
  if (sidebandOn) yield FLUSH;
}
