// GitLab's TimeTrackingFormatter.parse: ChronicDuration on working time (lib/duration.ts), in whole seconds within
// PostgreSQL's integer. Null when it is not a duration.
import { parseChronicDuration, WORKING_TIME } from '../lib/duration.ts';

export function parseDuration(input: string): number | null {
  const total = parseChronicDuration(input, WORKING_TIME);
  if (total === null) return null;
  const seconds = Math.round(total);
  return Math.abs(seconds) > 2_147_483_647 ? null : seconds;
}
