// user_agent_details: written in the batch or transaction that creates the subject, read by administrators.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { userAgentDetails, type UserAgentDetailRow } from '../schema/index.ts';

export type UserAgentSubject = { issueId: number | SQL } | { snippetId: number | SQL };

/** The subject's detail (`issueId` may be the SQL of the id the same batch just inserted). */
export const insertUserAgentDetailStatement = (db: Db, subject: UserAgentSubject, client: { userAgent: string; ip: string }) =>
  db.insert(userAgentDetails).values({
    ...('issueId' in subject ? { issueId: sql`${subject.issueId}` } : { snippetId: sql`${subject.snippetId}` }),
    userAgent: client.userAgent,
    ipAddress: client.ip,
  });

export async function findUserAgentDetail(db: Db, subject: { issueId: number } | { snippetId: number }): Promise<UserAgentDetailRow | undefined> {
  const [row] = await db
    .select()
    .from(userAgentDetails)
    .where('issueId' in subject ? eq(userAgentDetails.issueId, subject.issueId) : eq(userAgentDetails.snippetId, subject.snippetId))
    .limit(1);
  return row;
}
