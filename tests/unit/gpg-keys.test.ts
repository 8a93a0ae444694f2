// Pure parts of GPG keys and commit signatures: git's split of a signed commit into its signature and the signed
// payload (commit.c parse_signed_commit), GpgKey's format rule and strip, and the OpenPGP reading of keys and
// signatures (openpgp.js, no database).
import { describe, expect, it } from 'vitest';
import * as openpgp from 'openpgp';
import { extractSignature } from '../../functions/repositories/git/commit.ts';
import { isOneKeyBlock, keyFormatErrors, stripKey } from '../../functions/gpg-keys/schemas.ts';
import { readDetachedSignature, readPublicKey, splitUserId } from '../../functions/gpg-keys/openpgp.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

const SIG = '-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----\n';
// git writes each further line of a header indented by one space, a blank one as a lone space.
const indented = SIG.replace(/\n(?!$)/g, '\n ');

describe('extractSignature', () => {
  it("takes the gpgsig header out (continuation lines un-indented) and keeps every other byte, mergetag's included", () => {
    const head = 'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n';
    const mergetag = 'mergetag object 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n type commit\n';
    const body = `${head}gpgsig ${indented}${mergetag}\nmessage\n\n gpgsig in the message is text\n`;
    const parts = extractSignature(bytes(body));
    expect(parts?.signature).toBe(SIG);
    expect(text(parts!.signed)).toBe(`${head}${mergetag}\nmessage\n\n gpgsig in the message is text\n`);
  });

  it('null for an unsigned commit, and for a gpgsig that is only in the message', () => {
    expect(extractSignature(bytes('tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\ngpgsig x\n'))).toBeNull();
  });

  it('bytes that are not UTF-8 survive in the payload', () => {
    const body = new Uint8Array([
      ...bytes('tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor N\xe9'),
      0xe9,
      ...bytes(` <a@x> 1 +0000\ngpgsig ${indented}\nm\xff\n`),
    ]);
    const parts = extractSignature(body)!;
    expect(parts.signature).toBe(SIG);
    expect(parts.signed.length).toBe(body.length - `gpgsig ${indented}`.length);
  });
});

describe("GpgKey's key rules", () => {
  const block = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxjMEZ\n-----END PGP PUBLIC KEY BLOCK-----';
  it('one public key block, nothing around it, no marker inside', () => {
    expect(isOneKeyBlock(block)).toBe(true);
    expect(isOneKeyBlock(`${block}\n${block}`)).toBe(false);
    expect(isOneKeyBlock(`x${block}`)).toBe(false);
    expect(isOneKeyBlock(`${block}x`)).toBe(false);
    expect(isOneKeyBlock('-----BEGIN PGP PUBLIC KEY BLOCK----------END PGP PUBLIC KEY BLOCK-----')).toBe(false);
    expect(isOneKeyBlock(block.replace('xjMEZ', '-----END PGP PUBLIC KEY BLOCK-----'))).toBe(false);
  });
  it("strip, then can't be blank and is invalid", () => {
    expect(stripKey(` \n${block}\n\0`)).toBe(block);
    expect(keyFormatErrors('')).toEqual(["can't be blank", expect.stringMatching(/^is invalid\. A valid public GPG key begins with/)]);
    expect(keyFormatErrors(block)).toEqual([]);
  });
});

describe('OpenPGP reading', () => {
  it.each([
    ['Alice Example <alice@example.com>', 'Alice Example', 'alice@example.com'],
    ['Alice (laptop) <alice@example.com>', 'Alice', 'alice@example.com'],
    ['<alice@example.com>', '', 'alice@example.com'],
    ['alice@example.com', 'alice@example.com', ''],
    ['  Just A Name  ', 'Just A Name', ''],
  ])("GPGME's split of %j", (uid, name, email) => {
    expect(splitUserId(uid)).toEqual({ name, email });
  });

  it("a key's fingerprint, key id, subkeys and self-certified user ids (emails downcased)", async () => {
    const { publicKey } = await openpgp.generateKey({ userIDs: [{ name: 'Ann', email: 'Ann@Example.COM' }, { name: 'No Mail' }], format: 'object' });
    const facts = await readPublicKey(publicKey.armor());
    expect(facts).toEqual({
      fingerprint: publicKey.getFingerprint().toUpperCase(),
      primaryKeyid: publicKey.getKeyID().toHex().toUpperCase(),
      subkeys: [{ keyid: publicKey.subkeys[0]!.getKeyID().toHex().toUpperCase(), fingerprint: publicKey.subkeys[0]!.getFingerprint().toUpperCase() }],
      userInfos: [
        { name: 'Ann', email: 'ann@example.com' },
        { name: 'No Mail', email: '' },
      ],
    });
    expect(await readPublicKey(block())).toBeNull();
  });

  it("a detached signature's issuer, and whether it verifies the signed bytes with a key", async () => {
    const { privateKey, publicKey } = await openpgp.generateKey({ userIDs: [{ email: 'a@example.com' }], format: 'object' });
    const data = bytes('tree x\n\nsigned\n');
    const armored = await openpgp.sign({ message: await openpgp.createMessage({ binary: data }), signingKeys: privateKey, detached: true });
    const signature = await readDetachedSignature(armored as string);
    expect(signature?.issuerFingerprint).toBe(publicKey.getFingerprint().toUpperCase());
    expect(signature?.issuerKeyid).toBe(publicKey.getKeyID().toHex().toUpperCase());
    expect(await signature!.verifies(data, publicKey.armor())).toBe(true);
    expect(await signature!.verifies(bytes('tree x\n\nsigned!\n'), publicKey.armor())).toBe(false);
    const other = await openpgp.generateKey({ userIDs: [{ email: 'b@example.com' }], format: 'object' });
    expect(await signature!.verifies(data, other.publicKey.armor())).toBe(false);
    expect(await readDetachedSignature('-----BEGIN PGP SIGNATURE-----\n\nbm9wZQ==\n-----END PGP SIGNATURE-----\n')).toBeNull();
  });
});

describe('OpenPGP algorithms (checked with WebCrypto, against keys and signatures openpgp.js makes)', () => {
  it.each([
    ['RSA 2048', { type: 'rsa', rsaBits: 2048 }],
    ['ECDSA P-256', { type: 'ecc', curve: 'nistP256' }],
    ['ECDSA P-384', { type: 'ecc', curve: 'nistP384' }],
    ['EdDSA (ed25519)', { type: 'ecc', curve: 'ed25519Legacy' }],
  ] as const)('%s: certified user ids, and detached signatures by the primary key and by a signing subkey', async (_, options) => {
    const { privateKey, publicKey } = await openpgp.generateKey({
      ...options,
      userIDs: [{ name: 'Alg', email: 'alg@example.com' }],
      subkeys: [{ sign: true }],
      format: 'object',
    } as Parameters<typeof openpgp.generateKey>[0] & { format: 'object' });
    const facts = await readPublicKey(publicKey.armor());
    expect(facts?.userInfos).toEqual([{ name: 'Alg', email: 'alg@example.com' }]);
    expect(facts?.fingerprint).toBe(publicKey.getFingerprint().toUpperCase());
    const data = bytes('tree y\n\nsigned by algorithm\n');
    for (const signingKey of [privateKey, await privateKey.getSigningKey()]) {
      const armored = await openpgp.sign({
        message: await openpgp.createMessage({ binary: data }),
        signingKeys: privateKey,
        signingKeyIDs: [signingKey.getKeyID()],
        detached: true,
      });
      const signature = await readDetachedSignature(armored as string);
      expect(signature?.issuerKeyid).toBe(signingKey.getKeyID().toHex().toUpperCase());
      expect(await signature!.verifies(data, publicKey.armor())).toBe(true);
      expect(await signature!.verifies(bytes('tampered'), publicKey.armor())).toBe(false);
    }
  });

  it('a user id whose self-signature does not verify is not certified; a key without one is refused', async () => {
    const { publicKey } = await openpgp.generateKey({ userIDs: [{ email: 'x@example.com' }], format: 'armored' });
    const facts = await readPublicKey(publicKey);
    expect(facts?.userInfos).toEqual([{ name: '', email: 'x@example.com' }]);
    // Flip one byte of the user id packet: its certification no longer matches.
    const key = await openpgp.readKey({ armoredKey: publicKey });
    const packets = key.toPacketList();
    const uid = packets.findPacket(openpgp.enums.packet.userID) as unknown as { userID: string };
    uid.userID = 'y@example.com';
    const tampered = openpgp.armor(openpgp.enums.armor.publicKey, packets.write());
    expect(await readPublicKey(tampered)).toBeNull();
  });
});

function block() {
  return '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nbm90IGEga2V5\n-----END PGP PUBLIC KEY BLOCK-----';
}
