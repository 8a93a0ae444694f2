// Cluster agent names in GitLab's words (Clusters::Agent: presence, at most 63 characters, Gitlab::Regex's
// cluster_agent_name_regex), and the agent token's secret (Devise.friendly_token(50)).
import type { FieldErrors } from '../lib/errors.ts';

export const NAME_MAX = 63;
const NAME_FORMAT = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const NAME_FORMAT_MESSAGE = "can contain only lowercase letters, digits, and '-', but cannot start or end with '-'";

/** The model's errors for a name (empty when valid); Rails runs every validator, so a blank name fails two. */
export function agentNameErrors(name: string): FieldErrors {
  const messages: string[] = [];
  if (!name.trim()) messages.push("can't be blank");
  if (name.length > NAME_MAX) messages.push(`is too long (maximum is ${NAME_MAX} characters)`);
  if (!NAME_FORMAT.test(name)) messages.push(NAME_FORMAT_MESSAGE);
  return messages.length ? { name: messages } : {};
}

/**
 * Devise.friendly_token(50): 50 URL-safe base64 characters with the look-alikes l, I, O and 0 replaced by s, x, y
 * and z. Shown once; only its SHA-256 digest is stored.
 */
export function agentTokenSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(38));
  const base64url = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  return base64url.replace(/[lIO0]/g, (c) => ({ l: 's', I: 'x', O: 'y', '0': 'z' })[c]!).slice(0, 50);
}
