// GET /projects/:id/repository/commits/:sha/signature (GitLab 13.6 commits.rb, Gitlab::Gpg::Commit) on real signed
// commits: `gpg` in a throwaway GNUPGHOME makes the keys, `git commit -S` signs, git pushes over HTTP to a served
// instance, the public keys go up through the API. Each 13.6 status: unknown_key (no stored key; a revoked or deleted
// one), unverified_key (no email of the key is a verified email of its owner), unverified (the signature does not
// match the commit), verified, same_user_different_email, other_user; a signing subkey; 404s for an unsigned commit
// and an unknown one; a gpgsig that holds no readable PGP signature; the project's read rule.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../factories/groups.ts';
import { createProject } from '../../factories/projects.ts';
import { createAdmin, createUser } from '../../factories/users.ts';
import { api, queryCount, serveTestApp } from '../../helpers/app.ts';
import { describeAuthorization } from '../../helpers/common-auth.ts';
import { runGit } from '../../helpers/git-dir.ts';
import { Gpg, hasGpg, SignedRepo } from './support.ts';

type User = Awaited<ReturnType<typeof createUser>>;

describe.skipIf(!hasGpg())('commit signatures of commits signed by gpg and pushed with git', () => {
  let server: Awaited<ReturnType<typeof serveTestApp>>;
  let gpg: Gpg;
  let work: string;
  let alice: User;
  let bob: User;
  let carol: User;
  let dave: User;
  let guest: User;
  let project: { id: number; path_with_namespace: string };
  let repo: SignedRepo;
  const fpr: Record<string, string> = {};
  const c: Record<string, string> = {};
  const keyIds: Record<string, number> = {};
  const ALICE_SECOND = `second-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const ALICE_UNCONFIRMED = `unconfirmed-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

  /** `token` null: anonymous. */
  const signatureOf = (sha: string, token: string | null = alice.token, id: number | string = project.id) =>
    api.get(`/projects/${encodeURIComponent(String(id))}/repository/commits/${encodeURIComponent(sha)}/signature`, { token: token ?? undefined });
  const statusOf = async (sha: string) => (await signatureOf(sha)).body.verification_status;
  const upload = async (owner: User, fingerprint: string) => {
    const res = await api.post('/user/gpg_keys', { token: owner.token, body: { key: await gpg.exportPublic(fingerprint) } });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };

  beforeAll(async () => {
    server = await serveTestApp();
    gpg = await Gpg.open();
    work = await mkdtemp(join(tmpdir(), 'gpg-commits-'));
    [alice, bob, carol, dave, guest] = await Promise.all([createUser(), createUser(), createUser(), createUser({ confirmedAt: null }), createUser()]);
    const admin = await createAdmin();
    // Alice's secondary emails: one confirmed, one not (13.6's all_emails has both, verified_emails the first).
    expect((await api.post(`/users/${alice.user.id}/emails`, { token: admin.token, body: { email: ALICE_SECOND, skip_confirmation: true } })).status).toBe(201);
    expect((await api.post('/user/emails', { token: alice.token, body: { email: ALICE_UNCONFIRMED } })).status).toBe(201);

    fpr.alice = await gpg.generate(`Alice <${alice.user.email}>`);
    fpr.bob = await gpg.generate(`Bob <${bob.user.email}>`);
    fpr.carol = await gpg.generate(`Carol <${carol.user.email}>`);
    fpr.carolSub = await gpg.addSigningSubkey(fpr.carol);
    // Dave's primary email is not confirmed: his key's only email is no verified email of his.
    fpr.dave = await gpg.generate(`Dave <${dave.user.email}>`);
    fpr.unknown = await gpg.generate('Nobody <nobody-at-all@example.com>');

    project = await createProject(alice.token);
    await addMember(alice.token, 'projects', project.id, guest.user.id, 10);
    repo = await SignedRepo.open(gpg, work, 'signed');
    const a = alice.user.email;
    c.unsigned = await repo.commit('unsigned', { committerEmail: a });
    c.verified = await repo.commit('signed by alice', { signingKey: `${fpr.alice}!`, committerEmail: a });
    c.upperCase = await repo.commit('committer email in capitals', { signingKey: `${fpr.alice}!`, committerEmail: a.toUpperCase() });
    c.secondary = await repo.commit('alice signs as her second email', { signingKey: `${fpr.alice}!`, committerEmail: ALICE_SECOND });
    c.unconfirmed = await repo.commit('alice signs as her unconfirmed email', { signingKey: `${fpr.alice}!`, committerEmail: ALICE_UNCONFIRMED });
    c.stranger = await repo.commit('alice signs as someone else', { signingKey: `${fpr.alice}!`, committerEmail: 'somebody-else@example.com' });
    c.bobForAlice = await repo.commit("bob's key, alice's email", { signingKey: `${fpr.bob}!`, committerEmail: a });
    c.subkey = await repo.commit('carol signs with her signing subkey', { signingKey: `${fpr.carolSub}!`, committerEmail: carol.user.email });
    c.dave = await repo.commit('dave signs', { signingKey: `${fpr.dave}!`, committerEmail: dave.user.email });
    c.unknown = await repo.commit('an unknown key signs', { signingKey: `${fpr.unknown}!`, committerEmail: a });
    c.last = await repo.commit('signed by alice again', { signingKey: `${fpr.alice}!`, committerEmail: a });
    await repo.commit('tip', { committerEmail: a });
    // What gpgsig may hold besides a readable PGP signature: armor around no signature, an X.509 (S/MIME) one.
    c.garbled = await repo.withSignature('garbled', '-----BEGIN PGP SIGNATURE-----\n\nbm90IGEgc2lnbmF0dXJl\n-----END PGP SIGNATURE-----');
    c.x509 = await repo.withSignature('x509', '-----BEGIN SIGNED MESSAGE-----\nMIAGCSqGSIb3DQEHAqCAMIACAQ\n-----END SIGNED MESSAGE-----');
    // A signature moved onto another commit (the message changed): it no longer matches what was signed.
    await runGit(repo.dir, ['checkout', '-q', '--detach', c.verified!]);
    c.tampered = await repo.tampered('tampered');
    await repo.pushAll(`${server.url.replace('://', `://x:${alice.token}@`)}/${project.path_with_namespace}.git`);
  });

  afterAll(async () => {
    await server?.close();
    await gpg?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('before any key is uploaded every signature is unknown_key, naming the signing key by its fingerprint', async () => {
    const res = await signatureOf(c.verified!);
    expect([res.status, res.body]).toEqual([
      200,
      {
        signature_type: 'PGP',
        verification_status: 'unknown_key',
        gpg_key_id: null,
        gpg_key_primary_keyid: fpr.alice,
        gpg_key_user_name: null,
        gpg_key_user_email: null,
        gpg_key_subkey_id: null,
        commit_source: 'gitaly',
      },
    ]);
    expect((await signatureOf(c.subkey!)).body.gpg_key_primary_keyid).toBe(fpr.carolSub);
  });

  it('an unsigned commit: 404 Signature Not Found; an unknown commit: 404 Commit Not Found; a branch name is a revision', async () => {
    const unsigned = await signatureOf(c.unsigned!);
    expect([unsigned.status, unsigned.body]).toEqual([404, { message: '404 Signature Not Found' }]);
    // The branch's tip is unsigned; the tampered branch's is signed.
    expect((await signatureOf('main')).body).toEqual({ message: '404 Signature Not Found' });
    expect((await signatureOf('tampered')).status).toBe(200);
    const unknown = await signatureOf('0'.repeat(40));
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Commit Not Found' }]);
    expect((await signatureOf('no-such-branch')).body).toEqual({ message: '404 Commit Not Found' });
  });

  it('a PGP armor around no readable signature is unverified; an X.509 signature answers as unsigned (no X.509 here)', async () => {
    const garbled = await signatureOf(c.garbled!);
    expect([garbled.status, garbled.body]).toEqual([
      200,
      {
        signature_type: 'PGP',
        verification_status: 'unverified',
        gpg_key_id: null,
        gpg_key_primary_keyid: null,
        gpg_key_user_name: null,
        gpg_key_user_email: null,
        gpg_key_subkey_id: null,
        commit_source: 'gitaly',
      },
    ]);
    expect((await signatureOf(c.x509!)).body).toEqual({ message: '404 Signature Not Found' });
  });

  describe('with the keys uploaded', () => {
    beforeAll(async () => {
      keyIds.alice = await upload(alice, fpr.alice!);
      keyIds.bob = await upload(bob, fpr.bob!);
      keyIds.carol = await upload(carol, fpr.carol!);
      keyIds.dave = await upload(dave, fpr.dave!);
    });

    it("verified: the key's email is the committer's and a verified email of the key's owner", async () => {
      const res = await signatureOf(c.verified!);
      expect(res.body).toEqual({
        signature_type: 'PGP',
        verification_status: 'verified',
        gpg_key_id: keyIds.alice,
        gpg_key_primary_keyid: fpr.alice!.slice(-16),
        gpg_key_user_name: 'Alice',
        gpg_key_user_email: alice.user.email.toLowerCase(),
        gpg_key_subkey_id: null,
        commit_source: 'gitaly',
      });
      // The project and the commit object: a constant number of statements, whatever the key.
      expect(queryCount(res)).toBeLessThanOrEqual(5);
      // verified_and_belongs_to_email? downcases the committer's email.
      expect(await statusOf(c.upperCase!)).toBe('verified');
    });

    it("same_user_different_email: the committer's email is another of the owner's (confirmed or not)", async () => {
      expect(await statusOf(c.secondary!)).toBe('same_user_different_email');
      expect(await statusOf(c.unconfirmed!)).toBe('same_user_different_email');
    });

    it("other_user: the committer's email is not the key owner's (another user's key; a stranger's email)", async () => {
      const res = await signatureOf(c.bobForAlice!);
      expect(res.body).toMatchObject({
        verification_status: 'other_user',
        gpg_key_id: keyIds.bob,
        gpg_key_user_name: 'Bob',
        gpg_key_user_email: bob.user.email.toLowerCase(),
      });
      expect(await statusOf(c.stranger!)).toBe('other_user');
    });

    it("unverified_key: none of the key's emails is a verified email of its owner", async () => {
      const res = await signatureOf(c.dave!);
      // user_infos.first when no user id is verified.
      expect(res.body).toMatchObject({
        verification_status: 'unverified_key',
        gpg_key_id: keyIds.dave,
        gpg_key_primary_keyid: fpr.dave!.slice(-16),
        gpg_key_user_name: 'Dave',
        gpg_key_user_email: dave.user.email.toLowerCase(),
      });
    });

    it('unverified: the signature does not match the commit it is on (as `git verify-commit` finds)', async () => {
      expect((await signatureOf(c.tampered!)).body).toMatchObject({ verification_status: 'unverified', gpg_key_id: keyIds.alice });
      const verify = (sha: string) =>
        runGit(repo.dir, ['verify-commit', sha], { env: { GNUPGHOME: gpg.home } }).then(
          () => 'good',
          () => 'bad',
        );
      expect([await verify(c.verified!), await verify(c.tampered!)]).toEqual(['good', 'bad']);
    });

    it('a signing subkey: gpg_key_subkey_id, no gpg_key_id, the subkey id as primary key id (13.6)', async () => {
      const res = await signatureOf(c.subkey!);
      expect(res.body).toEqual({
        signature_type: 'PGP',
        verification_status: 'verified',
        gpg_key_id: null,
        gpg_key_primary_keyid: fpr.carolSub!.slice(-16),
        gpg_key_user_name: 'Carol',
        gpg_key_user_email: carol.user.email.toLowerCase(),
        gpg_key_subkey_id: expect.any(Number),
        commit_source: 'gitaly',
      });
    });

    it('a key no one uploaded stays unknown_key', async () => {
      expect((await signatureOf(c.unknown!)).body).toMatchObject({ verification_status: 'unknown_key', gpg_key_primary_keyid: fpr.unknown });
    });

    it("by the project's path too; a reader that changes nothing (the same answer twice)", async () => {
      const first = await signatureOf(c.last!, alice.token, project.path_with_namespace);
      expect(first.body.verification_status).toBe('verified');
      expect((await signatureOf(c.last!)).body).toEqual(first.body);
    });

    describeAuthorization('GET /projects/:id/repository/commits/:sha/signature', {
      fixture: async () => ({ allowed: alice.token, nonMember: bob.token, insufficientRole: guest.token }),
      call: (_fx, token) => signatureOf(c.verified!, token ?? null),
      success: 200,
      anonymous: { status: 404, body: { message: '404 Project Not Found' } },
      nonMember: { status: 404, body: { message: '404 Project Not Found' } },
      insufficientRole: { status: 403, body: { message: '403 Forbidden' } },
    });

    describe('then revoked or deleted', () => {
      beforeAll(async () => {
        expect((await api.post(`/user/gpg_keys/${keyIds.alice}/revoke`, { token: alice.token })).status).toBe(202);
        expect((await api.delete(`/user/gpg_keys/${keyIds.carol}`, { token: carol.token })).status).toBe(204);
      });

      it("a revoked key's signatures read as unknown_key (13.6's GpgKey#revoke), a deleted key's too", async () => {
        expect((await signatureOf(c.verified!)).body).toEqual({
          signature_type: 'PGP',
          verification_status: 'unknown_key',
          gpg_key_id: null,
          gpg_key_primary_keyid: fpr.alice,
          gpg_key_user_name: null,
          gpg_key_user_email: null,
          gpg_key_subkey_id: null,
          commit_source: 'gitaly',
        });
        expect(await statusOf(c.secondary!)).toBe('unknown_key');
        expect((await signatureOf(c.subkey!)).body).toMatchObject({ verification_status: 'unknown_key', gpg_key_subkey_id: null });
        // Other keys are untouched.
        expect(await statusOf(c.bobForAlice!)).toBe('other_user');
      });

      it('uploaded again (by its owner), the key verifies again', async () => {
        keyIds.alice = await upload(alice, fpr.alice!);
        expect((await signatureOf(c.verified!)).body).toMatchObject({ verification_status: 'verified', gpg_key_id: keyIds.alice });
      });
    });
  });
});
