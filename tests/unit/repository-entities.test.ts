// functions/repositories/entities.ts and schemas.ts: the response shapes against GitLab's documented examples (doc/api
// commits.md, branches.md, tags.md, repositories.md, repository_files.md, events.md), in the key order of GitLab
// 13.6's Grape entities, and the parameters' 400 bodies (pure: no app, no database).
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  commitTime,
  commitDescription,
  commitTitle,
  fileHeaders,
  pushCommitTitle,
  toBlob,
  toBranch,
  toCommit,
  toCommitDetail,
  toCommitWithStats,
  toFile,
  toFileCommit,
  toPushPayload,
  toTag,
  toTreeObject,
  type CommitView,
  type FileView,
  type RepositoryContext,
} from '../../functions/repositories/entities.ts';
import { CompareInput } from '../../functions/repositories/diffs/schemas.ts';
import {
  CreateBranchInput,
  CreateCommitInput,
  CreateFileInput,
  CreateTagInput,
  DeleteFileInput,
  GetCommitInput,
  GetFileInput,
  ListBranchesInput,
  ListCommitsInput,
  ListTagsInput,
  TreeInput,
} from '../../functions/repositories/schemas.ts';
import { toValidationError, type Schema } from '../../functions/lib/validate.ts';
import { restError } from '../../functions/rest-errors.ts';

/** Same keys in the same order, same values: what a client parsing the JSON text sees. */
const sameJson = (actual: unknown, expected: unknown) => expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));

const repo: RepositoryContext = { projectId: 5, projectWebUrl: 'https://gitlab.example.com/thedude/gitlab-foss' };

// commits.md, "Create a commit with multiple files and actions" (dates as GitLab writes them: ms, the commit's zone).
const created: CommitView = {
  oid: 'ed899a2f4b50b4370feeea94676502b42383c746',
  parentOids: ['ae1d9fb46aa2b07ee9836d49862ec4e2c46fbbba'],
  authorName: 'Example User',
  authorEmail: 'user@example.com',
  authoredAt: new Date('2016-09-20T16:26:24Z'),
  authorTz: '-0700',
  committerName: 'Example User',
  committerEmail: 'user@example.com',
  committedAt: new Date('2016-09-20T16:26:24Z'),
  committerTz: '-0700',
  message: 'some commit message',
};
const createdJson = {
  id: 'ed899a2f4b50b4370feeea94676502b42383c746',
  short_id: 'ed899a2f',
  created_at: '2016-09-20T09:26:24.000-07:00',
  parent_ids: ['ae1d9fb46aa2b07ee9836d49862ec4e2c46fbbba'],
  title: 'some commit message',
  message: 'some commit message',
  author_name: 'Example User',
  author_email: 'user@example.com',
  authored_date: '2016-09-20T09:26:24.000-07:00',
  committer_name: 'Example User',
  committer_email: 'user@example.com',
  committed_date: '2016-09-20T09:26:24.000-07:00',
  web_url: 'https://gitlab.example.com/thedude/gitlab-foss/-/commit/ed899a2f4b50b4370feeea94676502b42383c746',
};

// branches.md, "Get single repository branch" (author and committer dates differ).
const branchCommit: CommitView = {
  oid: '7b5c3cc8be40ee161ae89a06bba6229da1032a0c',
  parentOids: ['4ad91d3c1144c406e50c7b33bae684bd6837faf8'],
  authorName: 'John Smith',
  authorEmail: 'john@example.com',
  authoredAt: new Date('2012-06-27T12:51:39Z'),
  authorTz: '-0700',
  committerName: 'John Smith',
  committerEmail: 'john@example.com',
  committedAt: new Date('2012-06-28T10:44:20Z'),
  committerTz: '-0700',
  message: 'add projects API',
};
const branchCommitJson = {
  id: '7b5c3cc8be40ee161ae89a06bba6229da1032a0c',
  short_id: '7b5c3cc8',
  created_at: '2012-06-28T03:44:20.000-07:00',
  parent_ids: ['4ad91d3c1144c406e50c7b33bae684bd6837faf8'],
  title: 'add projects API',
  message: 'add projects API',
  author_name: 'John Smith',
  author_email: 'john@example.com',
  authored_date: '2012-06-27T05:51:39.000-07:00',
  committer_name: 'John Smith',
  committer_email: 'john@example.com',
  committed_date: '2012-06-28T03:44:20.000-07:00',
  web_url: 'https://gitlab.example.com/thedude/gitlab-foss/-/commit/7b5c3cc8be40ee161ae89a06bba6229da1032a0c',
};

describe("commit dates: the commit's own zone, xmlschema(3)", () => {
  const at = new Date('2012-05-28T11:42:42Z');
  it.each([
    ['-0700', '2012-05-28T04:42:42.000-07:00'],
    ['+0200', '2012-05-28T13:42:42.000+02:00'],
    ['+0530', '2012-05-28T17:12:42.000+05:30'],
    ['-0930', '2012-05-28T02:12:42.000-09:30'],
    ['+1400', '2012-05-29T01:42:42.000+14:00'],
    // Ruby's strptime: +0000 is a zero offset, -0000 is UTC.
    ['+0000', '2012-05-28T11:42:42.000+00:00'],
    ['-0000', '2012-05-28T11:42:42.000Z'],
    // Not a zone git writes: UTC, GitLab's reading of a commit without one.
    ['', '2012-05-28T11:42:42.000Z'],
    ['+2500', '2012-05-28T11:42:42.000Z'],
    ['junk', '2012-05-28T11:42:42.000Z'],
  ])('%j -> %s', (tz, expected) => expect(commitTime(at, tz)).toBe(expected));

  it('crosses the day, month and year boundary backwards', () => {
    expect(commitTime(new Date('2021-01-01T03:00:00Z'), '-0800')).toBe('2020-12-31T19:00:00.000-08:00');
  });
});

describe('Entities::Commit and friends', () => {
  it('Commit: exposure order, 8-character short_id, web_url under /-/commit/', () => sameJson(toCommit(created, repo), createdJson));

  it('CommitDetail: stats, status, project_id, last_pipeline after the commit fields', () => {
    sameJson(toCommitDetail(created, repo, { additions: 2, deletions: 2 }), {
      ...createdJson,
      stats: { additions: 2, deletions: 2, total: 4 },
      status: null,
      project_id: 5,
      last_pipeline: null,
    });
  });

  it('CommitDetail with stats=false leaves stats out', () => {
    sameJson(toCommitDetail(created, repo, null), { ...createdJson, status: null, project_id: 5, last_pipeline: null });
  });

  it('CommitWithStats (with_stats=true)', () => {
    sameJson(toCommitWithStats(created, { additions: 7, deletions: 1 }, repo), { ...createdJson, stats: { additions: 7, deletions: 1, total: 8 } });
  });

  it.each([
    ['Replace sanitize with escape once\n\nLonger body\n', 'Replace sanitize with escape once'],
    ['Windows line\r\nnext', 'Windows line'],
    ['', 'No commit message'],
    [' \n\t\n', 'No commit message'],
    ['\nstarts with a newline', ''],
  ])('title (Commit#full_title) of %j is %j', (message, title) => expect(commitTitle(message)).toBe(title));

  it('title (Commit#title) cuts a full title of 100 characters or more at the last space up to index 80, with …', () => {
    const words = `${'word '.repeat(19)}tail ends here`; // 109 characters; spaces at 4, 9, ..., 94
    expect(commitTitle(`${words}\n\nbody`)).toBe(`${'word '.repeat(15)}word…`);
    expect(commitTitle('x'.repeat(99))).toBe('x'.repeat(99));
    expect(commitTitle('x'.repeat(100))).toBe(`${'x'.repeat(80)}…`);
    expect(commitDescription(`${words}\n\nbody`)).toBe(`${words}\n\nbody`);
    expect(commitDescription('subject\n\nbody\n')).toBe('\nbody');
    expect(commitDescription('subject')).toBeNull();
  });

  it('message is the stored message, unchanged', () => {
    expect(toCommit({ ...created, message: 'subject\n\nbody\n' }, repo)).toMatchObject({ title: 'subject', message: 'subject\n\nbody\n' });
  });
});

describe('Entities::Branch', () => {
  it("branches.md single branch, in the entity's order (commit second, default before web_url)", () => {
    const branch = {
      name: 'master',
      commit: branchCommit,
      merged: false,
      protected: true,
      developersCanPush: false,
      developersCanMerge: false,
      canPush: true,
      default: true,
    };
    sameJson(toBranch(branch, { projectId: 3, projectWebUrl: 'http://gitlab.example.com/my-group/my-project' }), {
      name: 'master',
      commit: { ...branchCommitJson, web_url: 'http://gitlab.example.com/my-group/my-project/-/commit/7b5c3cc8be40ee161ae89a06bba6229da1032a0c' },
      merged: false,
      protected: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: true,
      default: true,
      web_url: 'http://gitlab.example.com/my-group/my-project/-/tree/master',
    });
  });

  it.each([
    ['feature/login', 'feature/login'],
    ['fix#12 ü', 'fix%2312%20%C3%BC'],
    ['a+b@c:d=e', 'a+b@c:d=e'],
    ['what?', 'what%3F'],
  ])('web_url escapes %j as Rails does a glob segment', (name, escaped) => {
    const branch = {
      name,
      commit: branchCommit,
      merged: false,
      protected: false,
      developersCanPush: false,
      developersCanMerge: false,
      canPush: false,
      default: false,
    };
    expect(toBranch(branch, repo).web_url).toBe(`${repo.projectWebUrl}/-/tree/${escaped}`);
  });
});

describe('Entities::Tag', () => {
  it('tags.md: name, message, target, commit, release, protected', () => {
    const commit: CommitView = {
      oid: '2695effb5807a22ff3d138d593fd856244e155e7',
      parentOids: ['2a4b78934375d7f53875269ffd4f45fd83a84ebe'],
      authorName: 'John Smith',
      authorEmail: 'john@example.com',
      authoredAt: new Date('2012-05-28T11:42:42Z'),
      authorTz: '-0700',
      committerName: 'Jack Smith',
      committerEmail: 'jack@example.com',
      committedAt: new Date('2017-07-26T09:08:53Z'),
      committerTz: '+0200',
      message: 'Initial commit',
    };
    // A lightweight tag: the target is the commit and the message empty (the docs print null, GitLab sends "").
    sameJson(toTag({ name: 'v1.0.0', message: '', targetOid: '2695effb5807a22ff3d138d593fd856244e155e7', commit, protected: true }, repo), {
      name: 'v1.0.0',
      message: '',
      target: '2695effb5807a22ff3d138d593fd856244e155e7',
      commit: {
        id: '2695effb5807a22ff3d138d593fd856244e155e7',
        short_id: '2695effb',
        created_at: '2017-07-26T11:08:53.000+02:00',
        parent_ids: ['2a4b78934375d7f53875269ffd4f45fd83a84ebe'],
        title: 'Initial commit',
        message: 'Initial commit',
        author_name: 'John Smith',
        author_email: 'john@example.com',
        authored_date: '2012-05-28T04:42:42.000-07:00',
        committer_name: 'Jack Smith',
        committer_email: 'jack@example.com',
        committed_date: '2017-07-26T11:08:53.000+02:00',
        web_url: 'https://gitlab.example.com/thedude/gitlab-foss/-/commit/2695effb5807a22ff3d138d593fd856244e155e7',
      },
      release: null,
      protected: true,
    });
    // An annotated tag: the target is the tag object, the message its own.
    const annotated = toTag(
      { name: 'v1.1.0', message: 'Release 1.1.0\n', targetOid: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', commit, protected: false },
      repo,
    );
    expect(annotated).toMatchObject({ message: 'Release 1.1.0\n', target: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678', commit: { id: commit.oid } });
  });
});

describe('trees, blobs and files', () => {
  it('TreeObject (repositories.md): id, name, type, path, mode; trees padded to 040000', () => {
    sameJson(toTreeObject({ oid: 'a1e8f8d745cc87e3a9248358d9352bb7f9a0aeba', name: 'html', path: 'files/html', mode: '40000' }), {
      id: 'a1e8f8d745cc87e3a9248358d9352bb7f9a0aeba',
      name: 'html',
      type: 'tree',
      path: 'files/html',
      mode: '040000',
    });
    sameJson(toTreeObject({ oid: 'ab09011fa121d0a2bb9fa4ca76094f2482b902b7', name: 'whitespace', path: 'files/whitespace', mode: '100644' }), {
      id: 'ab09011fa121d0a2bb9fa4ca76094f2482b902b7',
      name: 'whitespace',
      type: 'blob',
      path: 'files/whitespace',
      mode: '100644',
    });
  });

  it.each([
    ['100755', 'blob', '100755'],
    ['120000', 'blob', '120000'],
    ['160000', 'commit', '160000'],
  ])('mode %s is a %s shown as %s', (mode, type, shown) => {
    expect(toTreeObject({ oid: 'x', name: 'n', path: 'n', mode })).toMatchObject({ type, mode: shown });
  });

  it('blob JSON (GET repository/blobs/:sha): size, encoding, content, sha', () => {
    const content = new TextEncoder().encode('# Project\n');
    sameJson(toBlob({ oid: '79f7bbd25901e8334750839545a9bd021f0e4c83', content }), {
      size: 10,
      encoding: 'base64',
      content: 'IyBQcm9qZWN0Cg==',
      sha: '79f7bbd25901e8334750839545a9bd021f0e4c83',
    });
  });

  it('base64 of binary content larger than one chunk', () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => i % 256);
    const decoded = Uint8Array.from(atob(toBlob({ oid: 'x', content: bytes }).content), (ch) => ch.charCodeAt(0));
    expect(decoded).toEqual(bytes);
  });

  // repository_files.md: key.rb (the content itself is elided in the docs; this one is ours).
  const file: FileView = {
    path: 'app/models/key.rb',
    content: new TextEncoder().encode('class Key\nend\n'),
    contentSha256: '4c294617b60715c1d218e61164a3abd4808a4284cbc30e6728a01ad9aada4481',
    ref: 'master',
    blobOid: '79f7bbd25901e8334750839545a9bd021f0e4c83',
    commitOid: 'd5a3ff139356ce33e37e73add446f16869741b50',
    lastCommitOid: '570e7b2abdd848b95f2f578043fc23bd6f6fd24d',
  };

  it('file JSON: blob_data, then content (files.rb merges it in last)', () => {
    sameJson(toFile(file), {
      file_name: 'key.rb',
      file_path: 'app/models/key.rb',
      size: 14,
      encoding: 'base64',
      content_sha256: '4c294617b60715c1d218e61164a3abd4808a4284cbc30e6728a01ad9aada4481',
      ref: 'master',
      blob_id: '79f7bbd25901e8334750839545a9bd021f0e4c83',
      commit_id: 'd5a3ff139356ce33e37e73add446f16869741b50',
      last_commit_id: '570e7b2abdd848b95f2f578043fc23bd6f6fd24d',
      content: 'Y2xhc3MgS2V5CmVuZAo=',
    });
  });

  it('HEAD headers (set_http_headers): X-Gitlab-* from blob_data, without the content', () => {
    sameJson(fileHeaders(file), {
      'X-Gitlab-File-Name': 'key.rb',
      'X-Gitlab-File-Path': 'app/models/key.rb',
      'X-Gitlab-Size': '14',
      'X-Gitlab-Encoding': 'base64',
      'X-Gitlab-Content-Sha256': '4c294617b60715c1d218e61164a3abd4808a4284cbc30e6728a01ad9aada4481',
      'X-Gitlab-Ref': 'master',
      'X-Gitlab-Blob-Id': '79f7bbd25901e8334750839545a9bd021f0e4c83',
      'X-Gitlab-Commit-Id': 'd5a3ff139356ce33e37e73add446f16869741b50',
      'X-Gitlab-Last-Commit-Id': '570e7b2abdd848b95f2f578043fc23bd6f6fd24d',
    });
  });

  it('a file at the root is its own name', () =>
    expect(toFile({ ...file, path: 'README.md' })).toMatchObject({ file_name: 'README.md', file_path: 'README.md' }));

  it('POST/PUT files response: {file_path, branch}', () => {
    sameJson(toFileCommit({ file_path: 'app/project.rb', branch: 'master' }), { file_path: 'app/project.rb', branch: 'master' });
  });
});

describe('push_data (PushEventPayloadService)', () => {
  it('events.md example: a push to master', () => {
    const payload = toPushPayload({
      ref: 'refs/heads/master',
      before: '50d4420237a9de7be1304607147aec22e4a14af7',
      after: 'c5feabde2d8cd023215af4d2ceeb7a64839fc428',
      commitCount: 1,
      lastCommitMessage: 'Add simple search to projects in public area\n\nDetails\n',
    });
    sameJson(payload, {
      commitCount: 1,
      action: 'pushed',
      refType: 'branch',
      commitFrom: '50d4420237a9de7be1304607147aec22e4a14af7',
      commitTo: 'c5feabde2d8cd023215af4d2ceeb7a64839fc428',
      ref: 'master',
      commitTitle: 'Add simple search to projects in public area',
    });
  });

  it('a created tag: no commit_from; a removed branch: no commit_to, no title without commits', () => {
    expect(toPushPayload({ ref: 'refs/tags/v1.0', before: '0'.repeat(40), after: 'c5fe', commitCount: 0, lastCommitMessage: null })).toEqual({
      commitCount: 0,
      action: 'created',
      refType: 'tag',
      commitFrom: null,
      commitTo: 'c5fe',
      ref: 'v1.0',
      commitTitle: null,
    });
    expect(toPushPayload({ ref: 'refs/heads/feature/x', before: '50d4', after: null, commitCount: 0, lastCommitMessage: null })).toMatchObject({
      action: 'removed',
      refType: 'branch',
      commitFrom: '50d4',
      commitTo: null,
      ref: 'feature/x',
    });
  });

  it.each([
    ['short', 'short'],
    ['  padded subject \t\nbody', 'padded subject'],
    ['x'.repeat(70), 'x'.repeat(70)],
    ['x'.repeat(71), `${'x'.repeat(67)}...`],
    // Characters, not bytes or UTF-16 units.
    ['é'.repeat(71), `${'é'.repeat(67)}...`],
    ['😀'.repeat(70), '😀'.repeat(70)],
    ['😀'.repeat(71), `${'😀'.repeat(67)}...`],
    // Only the first line counts, however long the rest.
    [`first\n${'y'.repeat(200)}`, 'first'],
    ['\nafter a leading newline', ''],
    ['', ''],
  ])('commit_title of %j', (message, title) => expect(pushCommitTitle(message)).toBe(title));
});

/** The 400 body a schema gives for `input`, or the parsed value. */
function parse(s: Schema, input: Record<string, unknown>): { ok: unknown } | { body: unknown } {
  const result = (s() as z.ZodMiniType).safeParse(input);
  return result.success ? { ok: result.data } : { body: restError(toValidationError(result.error.issues)).body };
}
const error = (message: string) => ({ body: { error: message } });

describe("parameters: Grape's 400 bodies", () => {
  const action = { action: 'create', file_path: 'a.txt', content: 'x' };
  const commit = { branch: 'main', commit_message: 'm', actions: [action] };
  const fileBody = { branch: 'main', commit_message: 'm', content: 'x' };

  it.each<[string, Schema, Record<string, unknown>, unknown]>([
    // branches.rb
    ['create branch without branch', CreateBranchInput, { ref: 'main' }, error('branch is missing')],
    ['create branch without either', CreateBranchInput, {}, error('branch is missing, ref is missing')],
    ['create branch with a blank branch (allow_blank: false)', CreateBranchInput, { branch: '  ', ref: 'main' }, error('branch is empty')],
    ['create branch with a null ref', CreateBranchInput, { branch: 'b', ref: null }, error('ref is empty')],
    ['list branches, page 0', ListBranchesInput, { page: '0' }, error('page does not have a valid value')],
    ['list branches, negative per_page', ListBranchesInput, { per_page: -1 }, error('per_page does not have a valid value')],
    ['list branches, page not a number', ListBranchesInput, { page: 'x' }, error('page is invalid')],
    // commits.rb
    ['commit without branch', CreateCommitInput, { commit_message: 'm', actions: [action] }, error('branch is missing')],
    ['commit without anything', CreateCommitInput, {}, error('branch is missing, commit_message is missing, actions is missing')],
    ['commit with actions not an array', CreateCommitInput, { ...commit, actions: 'create' }, error('actions is invalid')],
    [
      'commit with a bad action',
      CreateCommitInput,
      { ...commit, actions: [{ ...action, action: 'copy' }] },
      error('actions[0][action] does not have a valid value'),
    ],
    [
      'commit with an action without action',
      CreateCommitInput,
      { ...commit, actions: [{ file_path: 'a' }] },
      error('actions[0][action] is missing, actions[0][action] does not have a valid value'),
    ],
    [
      'commit with an action without file_path',
      CreateCommitInput,
      { ...commit, actions: [action, { action: 'delete' }] },
      error('actions[1][file_path] is missing'),
    ],
    [
      'commit with a bad encoding',
      CreateCommitInput,
      { ...commit, actions: [{ ...action, encoding: 'utf-8' }] },
      error('actions[0][encoding] does not have a valid value'),
    ],
    [
      'move without previous_path',
      CreateCommitInput,
      { ...commit, actions: [{ action: 'move', file_path: 'b' }] },
      error('actions[0][previous_path] is missing'),
    ],
    ['update without content', CreateCommitInput, { ...commit, actions: [{ action: 'update', file_path: 'b' }] }, error('actions[0][content] is missing')],
    [
      'chmod without execute_filemode',
      CreateCommitInput,
      { ...commit, actions: [{ action: 'chmod', file_path: 'b' }] },
      error('actions[0][execute_filemode] is missing'),
    ],
    [
      'chmod with a non-boolean execute_filemode',
      CreateCommitInput,
      { ...commit, actions: [{ action: 'chmod', file_path: 'b', execute_filemode: 'maybe' }] },
      error('actions[0][execute_filemode] is invalid'),
    ],
    [
      'commit with start_branch and start_sha',
      CreateCommitInput,
      { ...commit, start_branch: 'a', start_sha: 'b' },
      error('start_branch, start_sha are mutually exclusive'),
    ],
    ['commit with a non-boolean force', CreateCommitInput, { ...commit, force: 'sure' }, error('force is invalid')],
    ['get commit, stats not a boolean', GetCommitInput, { stats: 'all' }, error('stats is invalid')],
    ['list commits, order not default|topo', ListCommitsInput, { order: 'date' }, error('order does not have a valid value')],
    ['list commits, since not a time', ListCommitsInput, { since: 'yesterday' }, error('since is invalid')],
    ['list commits, negative page', ListCommitsInput, { page: -2 }, error('page does not have a valid value')],
    ['list commits, with_stats not a boolean', ListCommitsInput, { with_stats: 'perhaps' }, error('with_stats is invalid')],
    // files.rb
    ['get file without ref', GetFileInput, {}, error('ref is missing')],
    ['get file with an empty ref', GetFileInput, { ref: '' }, error('ref is empty')],
    ['create file without branch', CreateFileInput, { commit_message: 'm', content: 'x' }, error('branch is missing')],
    ['create file with nothing', CreateFileInput, {}, error('branch is missing, commit_message is missing, content is missing')],
    ['create file with a blank commit_message', CreateFileInput, { ...fileBody, commit_message: ' ' }, error('commit_message is empty')],
    [
      'create file with encoding text (13.6 takes base64 only)',
      CreateFileInput,
      { ...fileBody, encoding: 'text' },
      error('encoding does not have a valid value'),
    ],
    ['create file with encoding utf-8', CreateFileInput, { ...fileBody, encoding: 'utf-8' }, error('encoding does not have a valid value')],
    ['delete file without commit_message', DeleteFileInput, { branch: 'main' }, error('commit_message is missing')],
    // repositories.rb
    ['tree, recursive not a boolean', TreeInput, { recursive: 'deep' }, error('recursive is invalid')],
    ['tree, per_page 0', TreeInput, { per_page: 0 }, error('per_page does not have a valid value')],
    ['compare without from and to', CompareInput, {}, error('from is missing, to is missing')],
    ['compare, straight not a boolean', CompareInput, { from: 'a', to: 'b', straight: 'yes please' }, error('straight is invalid')],
    // tags.rb
    ['create tag without tag_name', CreateTagInput, { ref: 'main' }, error('tag_name is missing')],
    ['list tags, order_by not name|updated', ListTagsInput, { order_by: 'created' }, error('order_by does not have a valid value')],
    ['list tags, sort not asc|desc', ListTagsInput, { sort: 'up' }, error('sort does not have a valid value')],
  ])('%s', (_name, s, input, expected) => expect(parse(s, input)).toEqual(expected));

  it('create commit: defaults and the fields each action declares', () => {
    const input = {
      ...commit,
      actions: [
        { action: 'create', file_path: 'a', content: 'x', last_commit_id: 'dropped: not declared for create' },
        { action: 'update', file_path: 'b', content: 'eA==', encoding: 'base64', last_commit_id: 'abc' },
        { action: 'move', file_path: 'c', previous_path: 'd' },
        { action: 'chmod', file_path: 'e', execute_filemode: 'true' },
      ],
      start_project: 12,
    };
    expect(parse(CreateCommitInput, input)).toEqual({
      ok: {
        branch: 'main',
        commit_message: 'm',
        actions: [
          { action: 'create', file_path: 'a', content: 'x', encoding: 'text' },
          { action: 'update', file_path: 'b', content: 'eA==', encoding: 'base64', last_commit_id: 'abc' },
          { action: 'move', file_path: 'c', previous_path: 'd', encoding: 'text' },
          { action: 'chmod', file_path: 'e', encoding: 'text', execute_filemode: true },
        ],
        start_project: { id: 12 },
        stats: true,
        force: false,
      },
    });
  });

  it('list and tree defaults: order default, recursive false, tags by updated desc', () => {
    expect(parse(ListCommitsInput, { since: '2020-01-01T00:00:00Z', all: 'true' })).toEqual({
      ok: { since: new Date('2020-01-01T00:00:00Z'), all: true, order: 'default' },
    });
    expect(parse(TreeInput, { path: 'files/html', ref: 'main' })).toEqual({ ok: { ref: 'main', path: 'files/html', recursive: false } });
    expect(parse(ListTagsInput, {})).toEqual({ ok: { sort: 'desc', order_by: 'updated' } });
    // from_project_id is `type: Integer` (blank: not given); start_project whenever given (an empty one names no project: null, 404).
    expect(parse(CompareInput, { from: 'main', to: 'feature', from_project_id: '12' })).toEqual({
      ok: { from: 'main', to: 'feature', from_project_id: 12, straight: false },
    });
    expect(parse(CompareInput, { from: 'main', to: 'feature', from_project_id: 'group/fork' })).toEqual(error('from_project_id is invalid'));
    expect(parse(CompareInput, { from: 'a', to: 'b', from_project_id: '' })).toEqual({ ok: { from: 'a', to: 'b', straight: false } });
    expect(parse(CreateCommitInput, { ...commit, start_project: '' })).toMatchObject({ ok: { start_project: null } });
    expect(parse(GetCommitInput, {})).toEqual({ ok: { stats: true } });
  });

  it('JSON numbers and booleans are strings where Grape declares String; null optionals are not given', () => {
    expect(parse(CreateTagInput, { tag_name: 1.0, ref: 'main', message: null })).toEqual({ ok: { tag_name: '1', ref: 'main' } });
    expect(parse(CreateFileInput, { ...fileBody, content: 42, author_name: null })).toEqual({ ok: { ...fileBody, content: '42' } });
  });
});
