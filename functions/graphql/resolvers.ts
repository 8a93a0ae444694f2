// Every domain's resolvers, merged once: GraphQL is wiring here; the rules live in the domains' services.
import { groupResolvers } from '../groups/resolvers.ts';
import { projectResolvers } from '../projects/resolvers.ts';
import { snippetResolvers } from '../snippets/resolvers.ts';
import { userResolvers } from '../users/resolvers.ts';
import { versionResolvers } from '../version/resolvers.ts';
import { issueResolvers } from '../issues/resolvers.ts';
import { noteResolvers } from '../notes/resolvers.ts';
import { awardEmojiResolvers } from '../award-emoji/resolvers.ts';
import { repositoryResolvers } from '../repositories/resolvers.ts';
import { mergeRequestMutationResolvers } from '../merge-requests/mutations.ts';
import { mergeRequestResolvers } from '../merge-requests/resolvers.ts';
import { requirementResolvers } from '../requirements/resolvers.ts';
import { clusterAgentResolvers } from '../cluster-agents/resolvers.ts';
import { dastResolvers } from '../dast/resolvers.ts';
import { sastResolvers } from '../sast/resolvers.ts';
import { alertIntegrationResolvers } from '../alert-integrations/resolvers.ts';
import { securityDashboardResolvers } from '../security-dashboard/resolvers.ts';
import { containerExpirationPolicyResolvers } from '../container-expiration-policies/resolvers.ts';
import { complianceFrameworkResolvers } from '../compliance-frameworks/resolvers.ts';
import { testCaseResolvers } from '../test-cases/resolvers.ts';
import { boardResolvers } from '../boards/resolvers.ts';
import { boardEpicResolvers, epicResolvers } from '../epics/resolvers.ts';
import { iterationResolvers } from '../iterations/resolvers.ts';
import { todoResolvers } from '../todos/resolvers.ts';
import { backgroundJobResolvers } from '../background-jobs/resolvers.ts';
import { alertResolvers } from '../alerts/resolvers.ts';
import { environmentResolvers } from '../environments/resolvers.ts';
import { pipelineResolvers } from '../pipelines/resolvers.ts';
import type { Resolvers } from './generated.ts';
import { scalars } from './scalars.ts';

/** Every domain's resolvers, by their name (which an error about a field two of them define gives). */
const parts: Record<string, Resolvers> = {
  versionResolvers,
  userResolvers,
  projectResolvers,
  groupResolvers,
  snippetResolvers,
  issueResolvers,
  noteResolvers,
  awardEmojiResolvers,
  repositoryResolvers,
  mergeRequestResolvers,
  mergeRequestMutationResolvers,
  requirementResolvers,
  clusterAgentResolvers,
  dastResolvers,
  sastResolvers,
  alertIntegrationResolvers,
  securityDashboardResolvers,
  containerExpirationPolicyResolvers,
  complianceFrameworkResolvers,
  testCaseResolvers,
  boardResolvers,
  iterationResolvers,
  epicResolvers,
  boardEpicResolvers,
  todoResolvers,
  alertResolvers,
  backgroundJobResolvers,
  pipelineResolvers,
  environmentResolvers,
};

/**
 * Root types merged field by field; each field belongs to one domain, so a field two parts define is a mistake that
 * would let the later silently win: assembling refuses it.
 */
export function mergeResolvers(domains: Readonly<Record<string, Resolvers>> = parts): Resolvers {
  const merged: Record<string, Record<string, unknown>> = {};
  const owner = new Map<string, string>();
  for (const [domain, part] of Object.entries(domains)) {
    for (const [type, fields] of Object.entries(part)) {
      const into = (merged[type] ??= {});
      for (const [field, resolver] of Object.entries(fields as Record<string, unknown>)) {
        const earlier = owner.get(`${type}.${field}`);
        if (earlier) throw new Error(`GraphQL resolvers: ${type}.${field} is defined by both ${earlier} and ${domain}`);
        owner.set(`${type}.${field}`, domain);
        into[field] = resolver;
      }
    }
  }
  return { ...scalars, ...(merged as Resolvers) };
}
