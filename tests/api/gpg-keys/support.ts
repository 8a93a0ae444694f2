// What the GPG key and commit signature suites share: public keys made in-process with openpgp.js (the keys API
// only stores and parses them), and for signatures the real thing: `gpg` in a throwaway GNUPGHOME making keys and
// signing commits with `git commit -S`, pushed with git over HTTP to a served instance.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as openpgp from 'openpgp';
import { git, hasGit, runGit } from '../../helpers/git-dir.ts';

/** An armored public key for `email` (and more user ids), made by openpgp.js: ed25519 primary key, cv25519 subkey. */
export async function makePublicKey(email: string, more: Array<{ name: string; email: string }> = []): Promise<string> {
  const { publicKey } = await openpgp.generateKey({ userIDs: [{ name: 'Key Owner', email }, ...more], format: 'armored' });
  return publicKey;
}

/** The same key with an armor header added: another text, the same fingerprint. */
export const withComment = (armored: string) =>
  armored.replace('-----BEGIN PGP PUBLIC KEY BLOCK-----\n', '-----BEGIN PGP PUBLIC KEY BLOCK-----\nComment: again\n');

export const hasGpg = () => hasGit() && spawnSync('gpg', ['--version'], { stdio: 'ignore' }).status === 0;

/** gpg in a GNUPGHOME of its own; `close()` stops the agent it started and removes the directory. */
export class Gpg {
  private constructor(readonly home: string) {}

  static async open(): Promise<Gpg> {
    // Short: gpg-agent's socket path must fit a sockaddr_un.
    return new Gpg(await mkdtemp(join(tmpdir(), 'gpg-')));
  }

  run(args: string[], input?: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn('gpg', ['--batch', '--no-tty', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], {
        env: { ...process.env, GNUPGHOME: this.home },
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString()) : reject(new Error(`gpg ${args.join(' ')}: ${Buffer.concat(err)}`))));
      child.stdin.end(input);
    });
  }

  /** A new ed25519 signing key for `uid` ("Name <email>"); its fingerprint. */
  async generate(uid: string): Promise<string> {
    await this.run(['--quick-gen-key', uid, 'ed25519', 'sign', 'never']);
    return this.fingerprints(uid).then((f) => f.primary);
  }

  /** Adds a signing subkey to the key; the subkey's fingerprint. */
  async addSigningSubkey(fingerprint: string): Promise<string> {
    await this.run(['--quick-add-key', fingerprint, 'ed25519', 'sign', 'never']);
    return (await this.fingerprints(fingerprint)).subkeys.at(-1)!;
  }

  /** The primary key's and the subkeys' fingerprints (`--with-colons`). */
  async fingerprints(who: string): Promise<{ primary: string; subkeys: string[] }> {
    const lines = (await this.run(['--with-colons', '--fingerprint', '--fingerprint', who])).split('\n');
    const fprs: Array<{ kind: string; fpr: string }> = [];
    let kind = '';
    for (const line of lines) {
      const f = line.split(':');
      if (f[0] === 'pub' || f[0] === 'sub') kind = f[0];
      else if (f[0] === 'fpr' && kind) {
        fprs.push({ kind, fpr: f[9]! });
        kind = '';
      }
    }
    return { primary: fprs.find((f) => f.kind === 'pub')!.fpr, subkeys: fprs.filter((f) => f.kind === 'sub').map((f) => f.fpr) };
  }

  exportPublic(fingerprint: string): Promise<string> {
    return this.run(['--armor', '--export', fingerprint]);
  }

  async close(): Promise<void> {
    spawnSync('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, GNUPGHOME: this.home }, stdio: 'ignore' });
    await rm(this.home, { recursive: true, force: true });
  }
}

/** A work tree whose commits `gpg` signs: each commit names its signing key (or none) and its committer email. */
export class SignedRepo {
  private constructor(
    readonly dir: string,
    private readonly gpg: Gpg,
  ) {}

  static async open(gpg: Gpg, parent: string, name: string): Promise<SignedRepo> {
    const dir = join(parent, name);
    await runGit(parent, ['init', '-q', '-b', 'main', dir]);
    return new SignedRepo(dir, gpg);
  }

  /** An empty commit on the current branch, signed by `signingKey` (a fingerprint; `!` uses exactly that subkey). */
  async commit(message: string, options: { signingKey?: string; committerEmail: string }): Promise<string> {
    const sign = options.signingKey ? ['-c', 'gpg.program=gpg', '-c', `user.signingkey=${options.signingKey}`, 'commit', '-S'] : ['commit'];
    await runGit(this.dir, [...sign, '-q', '--allow-empty', '-m', message], {
      env: { GNUPGHOME: this.gpg.home, GIT_COMMITTER_EMAIL: options.committerEmail, GIT_AUTHOR_EMAIL: options.committerEmail },
    });
    return git(this.dir, 'rev-parse', 'HEAD');
  }

  /** A copy of HEAD with another message and HEAD's signature kept (which then no longer matches), on `branch`. */
  async tampered(branch: string): Promise<string> {
    const body = (await runGit(this.dir, ['cat-file', 'commit', 'HEAD'])).stdout.toString('latin1');
    const forged = body.replace(/\n\n[\s\S]*$/, '\n\nforged message\n');
    const oid = (await runGit(this.dir, ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: Buffer.from(forged, 'latin1') })).stdout.toString().trim();
    await runGit(this.dir, ['branch', branch, oid]);
    return oid;
  }

  /** A copy of HEAD (unsigned) carrying `signature` as its gpgsig header, on `branch`. */
  async withSignature(branch: string, signature: string): Promise<string> {
    const body = (await runGit(this.dir, ['cat-file', 'commit', 'HEAD'])).stdout.toString('latin1');
    const header = `gpgsig ${signature.trimEnd().replaceAll('\n', '\n ')}\n`;
    const signed = body.replace(/\n\n/, `\n${header}\n`);
    const oid = (await runGit(this.dir, ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: Buffer.from(signed, 'latin1') })).stdout.toString().trim();
    await runGit(this.dir, ['branch', branch, oid]);
    return oid;
  }

  /** Pushes every branch to `url` (a served instance's repository URL with credentials). */
  async pushAll(url: string): Promise<void> {
    await runGit(this.dir, ['push', '-q', url, '--all'], { env: { GIT_TERMINAL_PROMPT: '0' } });
  }
}
