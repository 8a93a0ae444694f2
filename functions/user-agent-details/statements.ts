// The statement other domains put in the batch or transaction that creates an issue or a snippet
// (UserAgentDetailService#create, from Issues::CreateService and the snippet services): the request's User-Agent and
// IP, when the change comes from a request (a background job has none).
import type { Db } from '../../db/client.ts';
import { insertUserAgentDetailStatement, type UserAgentSubject } from '../../db/queries/user-agent-details.ts';
import type { RequestContext } from '../lib/context.ts';

export const userAgentDetailStatements = (db: Db, ctx: RequestContext, subject: UserAgentSubject) =>
  ctx.client ? [insertUserAgentDetailStatement(db, subject, ctx.client)] : [];
