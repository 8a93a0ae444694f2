// Every domain's resolvers, merged once: GraphQL is wiring here; the rules live in the domains' services.
import { userResolvers } from '../users/resolvers.ts';
import { versionResolvers } from '../version/resolvers.ts';
import type { Resolvers } from './generated.ts';
import { scalars } from './scalars.ts';

const parts: Resolvers[] = [versionResolvers, userResolvers];

/** Root types merged field by field; each type belongs to one domain. */
export function mergeResolvers(): Resolvers {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const part of parts) {
    for (const [type, fields] of Object.entries(part)) merged[type] = { ...merged[type], ...(fields as Record<string, unknown>) };
  }
  return { ...scalars, ...(merged as Resolvers) };
}
