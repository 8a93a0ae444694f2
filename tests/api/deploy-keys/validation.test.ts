// Refused deploy keys: Grape's parameter errors and the Key model's validations in GitLab 13.6's words, nested under
// `deploy_key.` as DeployKeysProject reports them. Every refusal writes nothing.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../db/schema/index.ts';
import { testDb } from '../../helpers/app.ts';
import { addKey, createDeployKey, generateKey, linkCount, projectWithRoles } from './helpers.ts';

const FORBIDDEN_TYPE = 'type is forbidden. Must be RSA, DSA, ECDSA, or ED25519';
const UNREADABLE = { 'deploy_key.fingerprint': ['cannot be generated'], 'deploy_key.key': [FORBIDDEN_TYPE] };

const keysCreatedBy = async (userId: number) => (await testDb().db.select().from(keys).where(eq(keys.userId, userId))).length;

describe('refused keys write nothing', () => {
  const valid = generateKey();
  const [type, blob] = valid.pub.split(' ') as [string, string];
  const cases: Array<[string, Record<string, unknown>, unknown]> = [
    ['empty key', { key: '' }, { 'deploy_key.key': ["can't be blank", 'is invalid', FORBIDDEN_TYPE], 'deploy_key.fingerprint': ['cannot be generated'] }],
    ['blank key', { key: ' \n\t ' }, { 'deploy_key.key': ["can't be blank", 'is invalid', FORBIDDEN_TYPE], 'deploy_key.fingerprint': ['cannot be generated'] }],
    ['not a key', { key: 'hello world' }, { 'deploy_key.key': ['is invalid', FORBIDDEN_TYPE], 'deploy_key.fingerprint': ['cannot be generated'] }],
    ['truncated base64', { key: `${type} ${blob.slice(0, 40)}` }, UNREADABLE],
    ['corrupted base64', { key: `${type} ${blob.slice(0, -8)}!!!!!!!!` }, UNREADABLE],
    ['blob under another type name', { key: `ssh-rsa ${blob}` }, UNREADABLE],
    ['unsupported type', { key: 'ssh-foo AAAAB3NzaC1yc2EAAAADAQAB' }, UNREADABLE],
    [
      'security-key type (not in 13.6)',
      { key: 'sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t' },
      { 'deploy_key.key': ['is invalid', FORBIDDEN_TYPE], 'deploy_key.fingerprint': ['cannot be generated'] },
    ],
    ['private key pasted', { key: valid.privateKey }, { 'deploy_key.key': ['is invalid', FORBIDDEN_TYPE], 'deploy_key.fingerprint': ['cannot be generated'] }],
    [
      'longer than 5000 characters',
      { key: `ssh-rsa ${'A'.repeat(5000)}` },
      { 'deploy_key.key': ['is too long (maximum is 5000 characters)', FORBIDDEN_TYPE], 'deploy_key.fingerprint': ['cannot be generated'] },
    ],
    ['blank title', { title: ' ' }, { 'deploy_key.title': ["can't be blank"] }],
    ['title over 255 characters', { title: 't'.repeat(256) }, { 'deploy_key.title': ['is too long (maximum is 255 characters)'] }],
    [
      'blank title and no key',
      { title: '', key: 'x' },
      { 'deploy_key.title': ["can't be blank"], 'deploy_key.key': ['is invalid', FORBIDDEN_TYPE], 'deploy_key.fingerprint': ['cannot be generated'] },
    ],
  ];

  for (const [name, override, errors] of cases) {
    it(`${name}: 400 with the model's messages`, async () => {
      const fx = await projectWithRoles();
      const res = await addKey(fx.project.id, { token: fx.maintainer.token, body: { title: 'a key', key: generateKey().pub, ...override } });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual({ message: errors });
      expect(JSON.stringify(res.body)).toBe(JSON.stringify({ message: errors }));
      expect(await linkCount(fx.project.id)).toBe(0);
      expect(await keysCreatedBy(fx.maintainer.user.id)).toBe(0);
    });
  }

  const paramCases: Array<[string, Record<string, unknown>, string]> = [
    ['no key', { title: 't' }, 'key is missing'],
    ['no title', { key: valid.pub }, 'title is missing'],
    ['neither', {}, 'key is missing, title is missing'],
    ['can_push not a boolean', { title: 't', key: valid.pub, can_push: 'sometimes' }, 'can_push is invalid'],
    ['a control character in the key', { title: 't', key: `${valid.pub}\u0000` }, 'key is invalid'],
  ];
  for (const [name, body, error] of paramCases) {
    it(`${name}: 400 ${error}`, async () => {
      const fx = await projectWithRoles();
      expect(await addKey(fx.project.id, { token: fx.maintainer.token, body })).toMatchObject({ status: 400, body: { error } });
      expect(await linkCount(fx.project.id)).toBe(0);
    });
  }

  it('a key whose fingerprint another project holds (and the caller cannot reach) is taken', async () => {
    const fx = await projectWithRoles();
    const other = await projectWithRoles();
    const k = generateKey('ed25519', 'one');
    await createDeployKey(other.project.id, other.maintainer.token, { key: k.pub });
    // The same key under another comment: not the same text, so GitLab validates it as a new key.
    const res = await addKey(fx.project.id, { token: fx.maintainer.token, body: { title: 'copy', key: k.pub.replace(/ one$/, ' two') } });
    expect(res).toMatchObject({ status: 400, body: { message: { 'deploy_key.fingerprint': ['has already been taken'] } } });
    // And the exact text too: the caller may not enable a key of a project it does not maintain.
    const exact = await addKey(fx.project.id, { token: fx.maintainer.token, body: { title: 'copy', key: k.pub } });
    expect(exact).toMatchObject({ status: 400, body: { message: { 'deploy_key.fingerprint': ['has already been taken'] } } });
    expect(await linkCount(fx.project.id)).toBe(0);
  });

  it('checks the project and role before the parameters (a developer with no key gets 403, a stranger 404)', async () => {
    const fx = await projectWithRoles();
    expect(await addKey(fx.project.id, { token: fx.developer.token, body: {} })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await addKey(fx.project.id, { token: fx.stranger.token, body: {} })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});
