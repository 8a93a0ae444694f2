// OAuth applications, codes and tokens written straight to the database (digests only, like the real thing).
import { eq } from 'drizzle-orm';
import { oauthAccessTokens, oauthApplications, oauthGrants } from '../../db/schema/index.ts';
import { randomToken, sha256Hex, toHex } from '../../functions/lib/crypto.ts';
import { createAuthorizationCode } from '../../functions/oauth/service.ts';
import { testDb } from '../helpers/app.ts';
import { unique } from './users.ts';

export interface TestApplication {
  id: number;
  uid: string;
  secret: string;
  redirectUris: string[];
  scopes: string[];
  confidential: boolean;
}

export async function createApplication(
  options: { ownerId?: number | null; scopes?: string[]; redirectUris?: string[]; confidential?: boolean } = {},
): Promise<TestApplication> {
  const uid = toHex(crypto.getRandomValues(new Uint8Array(32)));
  const secret = randomToken('gloas-');
  const redirectUris = options.redirectUris ?? ['https://client.example.test/callback'];
  const scopes = options.scopes ?? ['api', 'read_user'];
  const confidential = options.confidential ?? true;
  const [row] = await testDb()
    .db.insert(oauthApplications)
    .values({ uid, secretDigest: await sha256Hex(secret), name: unique('app'), redirectUris, scopes, confidential, ownerId: options.ownerId ?? null })
    .returning();
  return { id: row!.id, uid, secret, redirectUris, scopes, confidential };
}

/** A code as the consent page would create it (through the same service function). */
export function issueCode(args: {
  application: TestApplication;
  userId: number;
  redirectUri?: string;
  scopes?: string[];
  codeChallenge?: string;
  codeChallengeMethod?: 'S256' | 'plain';
}) {
  return createAuthorizationCode({
    db: testDb().db,
    application: args.application,
    userId: args.userId,
    redirectUri: args.redirectUri ?? args.application.redirectUris[0]!,
    scopes: args.scopes ?? ['api'],
    codeChallenge: args.codeChallenge ?? null,
    codeChallengeMethod: args.codeChallengeMethod ?? null,
  });
}

export async function grantRow(code: string) {
  const [row] = await testDb()
    .db.select()
    .from(oauthGrants)
    .where(eq(oauthGrants.codeDigest, await sha256Hex(code)));
  return row;
}

export async function tokenRow(accessToken: string) {
  const [row] = await testDb()
    .db.select()
    .from(oauthAccessTokens)
    .where(eq(oauthAccessTokens.tokenDigest, await sha256Hex(accessToken)));
  return row;
}

export async function tokensOfApplication(applicationId: number) {
  return testDb().db.select().from(oauthAccessTokens).where(eq(oauthAccessTokens.applicationId, applicationId)).orderBy(oauthAccessTokens.id);
}
