// Git's smart HTTP endpoints at a project's `http_url_to_repo` (GitLab 13.6's Repositories::GitHttpController behind
// workhorse): `GET <path>.git/info/refs?service=git-upload-pack|git-receive-pack`, `POST <path>.git/git-upload-pack`
// and `POST <path>.git/git-receive-pack`. Every check
// that can fail happens on info/refs, where git shows the answer's text (`remote: ...`); a POST's body on failure is
// discarded by git. Answers as GitLab's: no or wrong credentials 401 with the Basic challenge (also for a project that
// does not exist or is private, so existence is not revealed), a signed-in user who may not read the project 404,
// one who may read it but not its code 403.
import { Hono, type Context } from 'hono';
import { findRepository } from '../../../db/queries/repositories/refs.ts';
import { anonymous, type AppEnv, type Actor, type RequestContext } from '../../lib/context.ts';
import { fullMessages, isDomainError } from '../../lib/errors.ts';
import { can } from '../../lib/policy.ts';
import { clientIp } from '../../lib/rate-limit.ts';
import { findProjectView, findRedirectedProjectId } from '../../projects/lookups.ts';
import { deployTokenReads } from '../../deploy-tokens/lookups.ts';
import { projectFacts } from '../../projects/service.ts';
import { createProjectByPush } from '../../projects/create.ts';
import { basicCredentials, credentialAllows, gitActor, GitUnauthorized, type GitAccess } from './auth.ts';
import { pkt, ProtocolError } from './pkt-line.ts';
import { advertiseUploadPack, advertiseV2, uploadPackV0, uploadPackV2, type GitRepository } from './upload-pack.ts';
import { advertiseReceivePack, receivePack, type ReceiveScope } from './receive-pack.ts';
import { ByteStream } from './byte-stream.ts';
import { repositoryInfo } from '../service.ts';
import { maxFileSize } from '../writes/commit-limits.ts';
import { projectWebUrl } from '../../projects/schemas.ts';
import { projectSettings } from '../../projects/settings.ts';

export const gitHttpRoutes = new Hono<AppEnv>();

/** The largest upload-pack request read (wants and haves of a big negotiation are far below it). */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

const NOT_FOUND = 'The project you were looking for could not be found.';

/** A failed check, answered as GitLab's controller renders it: plain text, and the Basic challenge on a 401. */
class GitRefusal extends Error {
  constructor(
    readonly status: 401 | 403 | 404 | 415 | 422,
    message: string,
  ) {
    super(message);
  }
}

function refuse(c: Context<AppEnv>, error: unknown) {
  if (error instanceof GitUnauthorized) return refuse(c, new GitRefusal(401, 'HTTP Basic: Access denied'));
  if (!(error instanceof GitRefusal)) throw error;
  if (error.status === 401) c.header('WWW-Authenticate', 'Basic realm="GitLab"');
  return c.text(`${error.message}\n`, error.status);
}

const noCache = { 'Cache-Control': 'no-cache' } as const;

/**
 * The project at `path` the request's actor may read for `access`, as Gitlab::GitAccess#check orders it: the
 * credential's abilities first (a token without a repository scope is refused before any project is looked at,
 * which tells nothing of one), then the project (401 without credentials, else 404), then the role (403).
 */
async function gitProject(c: Context<AppEnv>, path: string, access: GitAccess) {
  const ctx = c.var.ctx;
  const actor: Actor = await gitActor(ctx, c.req.header('authorization'), clientIp(c));
  ctx.actor = actor;
  if (actor.user && !credentialAllows(actor, access)) {
    throw new GitRefusal(403, access === 'push' ? 'You are not allowed to upload code.' : 'You are not allowed to download code.');
  }
  // A renamed or moved project is served at its former paths too, as GitLab does (follow_redirects), not redirected.
  let view = await findProjectView(ctx.db, actor, { path });
  let movedFrom: string | null = null;
  if (!view) {
    const redirected = await findRedirectedProjectId(ctx.db, path);
    view = redirected === null ? undefined : await findProjectView(ctx.db, actor, { id: redirected });
    if (view) movedFrom = path;
  }
  if (!view || !can(actor, 'project:read', projectFacts(view))) {
    if (!actor.user) throw new GitRefusal(401, 'HTTP Basic: Access denied');
    throw new GitRefusal(404, NOT_FOUND);
  }
  return { actor, view, facts: projectFacts(view), movedFrom };
}

/**
 * A fetch authenticated with a deploy token: the project at `path` (or its former path), when the Basic credentials
 * are a deploy token that reads it; null otherwise (the request goes on as a user's). Checked first, so a deploy
 * token's login never counts as a failed password.
 */
async function deployTokenFetch(c: Context<AppEnv>, path: string): Promise<GitRepository | null> {
  const credentials = basicCredentials(c.req.header('authorization'));
  if (!credentials?.password) return null;
  const db = c.var.ctx.db;
  const view = (await findProjectView(db, anonymous, { path })) ?? (await redirectedView(db, path));
  if (!view || !(await deployTokenReads(db, credentials.login, credentials.password, view.project.id))) return null;
  const repository = await findRepository(db, view.project.id);
  return { projectId: view.project.id, defaultBranch: repository?.defaultBranch ?? null };
}

async function redirectedView(db: RequestContext['db'], path: string) {
  const id = await findRedirectedProjectId(db, path);
  return id === null ? undefined : findProjectView(db, anonymous, { id });
}

/** The project at `path` the actor may download code of, and its repository. */
async function downloadable(c: Context<AppEnv>, path: string): Promise<GitRepository> {
  const viaDeployToken = await deployTokenFetch(c, path);
  if (viaDeployToken) return viaDeployToken;
  const { actor, view, facts } = await gitProject(c, path, 'download');
  if (!can(actor, 'project:download_code', facts)) {
    if (!actor.user) throw new GitRefusal(401, 'HTTP Basic: Access denied');
    throw new GitRefusal(403, 'You are not allowed to download code from this project.');
  }
  const repository = await findRepository(c.var.ctx.db, view.project.id);
  return { projectId: view.project.id, defaultBranch: repository?.defaultBranch ?? null };
}

/** The largest push read when MAX_PUSH_SIZE is not set: Cloudflare's smallest request body limit. */
const DEFAULT_MAX_PUSH_SIZE = 100 * 1024 * 1024;

/**
 * The project at `path` the actor may push to (Gitlab::GitAccess#check_push_access!: anonymous never pushes, a
 * token needs write_repository or api, a job token never pushes), as the receive-pack scope. Where no project is and
 * the pusher may create one (push to create), the ref advertisement (`advertise`) answers for an empty repository
 * (null) and the push itself creates the project first.
 */
async function pushable(c: Context<AppEnv>, path: string, step: 'advertise' | 'push'): Promise<ReceiveScope | null> {
  const ctx = c.var.ctx;
  let found: Awaited<ReturnType<typeof gitProject>>;
  let created = false;
  try {
    found = await gitProject(c, path, 'push');
  } catch (error) {
    if (!(error instanceof GitRefusal && error.status === 404) || !(await pushToCreate(ctx, path, step))) throw error;
    if (step === 'advertise') return null;
    found = await gitProject(c, path, 'push');
    created = true;
  }
  const { actor, view, facts, movedFrom } = found;
  if (!actor.user) throw new GitRefusal(401, 'HTTP Basic: Access denied');
  if (!can(actor, 'project:push_code', facts)) {
    throw new GitRefusal(
      403,
      facts.archived ? 'You are not allowed to push code to an archived project.' : 'You are not allowed to push code to this project.',
    );
  }
  return {
    ctx,
    facts,
    repository: await repositoryInfo(ctx, view.project.id),
    fullPath: view.project.pathWithNamespace,
    webUrl: projectWebUrl(ctx.config, view.project),
    maxFileSize: maxFileSize(ctx),
    mergeRequestsEnabled: can(actor, 'project:create_merge_request_from', facts),
    printMergeRequestLinks: projectSettings(view.project).printing_merge_request_link_enabled,
    movedFrom,
    created,
  };
}

/** Whether the push creates the project at `path` (created here unless only advertising); GitLab's 422 on a bad path. */
async function pushToCreate(ctx: RequestContext, path: string, step: 'advertise' | 'push'): Promise<boolean> {
  if (!ctx.actor.user || !credentialAllows(ctx.actor, 'push')) return false;
  try {
    return await createProjectByPush(ctx, path, { dryRun: step === 'advertise' });
  } catch (error) {
    if (!isDomainError(error, 'invalid')) throw error;
    throw new GitRefusal(422, `Could not create project: ${fullMessages(error.problem.kind === 'model' ? error.problem.fields : {}).join(', ')}`);
  }
}

const protocolV2 = (c: Context<AppEnv>) => /(^|:)version=2(:|$)/.test(c.req.header('git-protocol') ?? '');

/** An async generator of pkt-lines as a response body; a protocol error becomes git's `ERR` line. */
function streamOf(lines: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (error) {
        if (error instanceof ProtocolError) {
          controller.enqueue(pkt(`ERR ${error.message}\n`));
          controller.close();
        } else controller.error(error);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
}

/**
 * The POST body of `service`: its Content-Type checked (workhorse's 415 otherwise), un-gzipped when git compressed it
 * (upload-pack requests above 1 KiB). Not read yet: the caller checks who is asking first.
 */
function serviceBody(c: Context<AppEnv>, service: 'git-upload-pack' | 'git-receive-pack'): ReadableStream<Uint8Array> | null {
  const type = c.req.header('content-type') ?? '';
  const expected = `application/x-${service}-request`;
  if (type !== expected) throw new GitRefusal(415, `Expected POST with Content-Type '${expected}', but received '${type}' instead.`);
  const body = c.req.raw.body;
  return body && (c.req.header('content-encoding') ?? '').toLowerCase() === 'gzip' ? body.pipeThrough(new DecompressionStream('gzip')) : body;
}

/** An upload-pack request read whole (wants, haves and arguments: small), refused above MAX_REQUEST_BYTES. */
async function readWhole(body: ReadableStream<Uint8Array> | null): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of body as unknown as AsyncIterable<Uint8Array>) {
    size += part.length;
    if (size > MAX_REQUEST_BYTES) throw new GitRefusal(403, 'The request is too large.');
    parts.push(part);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

gitHttpRoutes.get('/:repo{.+\\.git}/info/refs', async (c) => {
  // GitLab's deny_head_requests: a HEAD of info/refs is 403 with an empty body (Hono runs HEAD through GET routes).
  if (c.req.method === 'HEAD') return c.body(null, 403);
  const service = c.req.query('service');
  try {
    if (service === 'git-receive-pack') {
      const scope = await pushable(c, c.req.param('repo').slice(0, -'.git'.length), 'advertise');
      const lines = await advertiseReceivePack(c.var.ctx.db, scope?.repository.projectId ?? null);
      return c.body(new Blob(lines as Uint8Array<ArrayBuffer>[]).stream(), 200, { 'Content-Type': 'application/x-git-receive-pack-advertisement', ...noCache });
    }
    // The dumb protocol (no service) is not served, as GitLab's.
    if (service !== 'git-upload-pack') throw new GitRefusal(403, "The command you're trying to execute is not allowed.");
    const repo = await downloadable(c, c.req.param('repo').slice(0, -'.git'.length));
    const lines = protocolV2(c) ? advertiseV2() : await advertiseUploadPack(c.var.ctx.db, repo);
    return c.body(new Blob(lines as Uint8Array<ArrayBuffer>[]).stream(), 200, { 'Content-Type': 'application/x-git-upload-pack-advertisement', ...noCache });
  } catch (error) {
    return refuse(c, error);
  }
});

gitHttpRoutes.post('/:repo{.+\\.git}/git-upload-pack', async (c) => {
  try {
    const request = serviceBody(c, 'git-upload-pack');
    const repo = await downloadable(c, c.req.param('repo').slice(0, -'.git'.length));
    const body = await readWhole(request);
    const db = c.var.ctx.db;
    const lines = protocolV2(c) ? uploadPackV2(db, repo, body) : uploadPackV0(db, repo, body);
    return c.body(streamOf(lines), 200, { 'Content-Type': 'application/x-git-upload-pack-result', ...noCache });
  } catch (error) {
    return refuse(c, error);
  }
});

gitHttpRoutes.post('/:repo{.+\\.git}/git-receive-pack', async (c) => {
  try {
    const body = serviceBody(c, 'git-receive-pack');
    const scope = (await pushable(c, c.req.param('repo').slice(0, -'.git'.length), 'push'))!;
    const limit = c.var.ctx.config.maxPushSize ?? DEFAULT_MAX_PUSH_SIZE;
    let lines: Uint8Array[];
    try {
      lines = await receivePack(scope, ByteStream.of(body), limit);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      lines = [pkt(`ERR ${error.message}\n`)];
    }
    return c.body(new Blob(lines as Uint8Array<ArrayBuffer>[]).stream(), 200, { 'Content-Type': 'application/x-git-receive-pack-result', ...noCache });
  } catch (error) {
    return refuse(c, error);
  }
});

// Without `.git`, GitLab redirects info/refs (only) to the `.git` form, keeping the query.
// The path is taken as sent (still percent-encoded): a decoded one may hold what no Location header can (a NUL).
gitHttpRoutes.get('/:repo{.+}/info/refs', (c) => {
  const url = new URL(c.req.url);
  const repo = url.pathname.slice(1, -'/info/refs'.length);
  return c.redirect(`${c.var.ctx.config.publicUrl}/${repo}.git/info/refs${url.search}`, 301);
});
