// An HTTP integration's rules in GitLab's words (AlertManagement::HttpIntegration 13.6: name present, at most 255
// characters), its secrets (token: SecureRandom.hex, 32 hex characters; endpoint identifier: SecureRandom.hex(8))
// and its `url` (HttpIntegration#url: the project's URL, `alerts/notify`, the name slugified, the identifier, `.json`).
import type { FieldErrors } from '../lib/errors.ts';

export const NAME_MAX = 255;

/** The model's errors for a name (empty when valid). */
export function integrationNameErrors(name: string | null): FieldErrors {
  const messages: string[] = [];
  if (name === null || !name.trim()) messages.push("can't be blank");
  else if (Array.from(name).length > NAME_MAX) messages.push(`is too long (maximum is ${NAME_MAX} characters)`);
  return messages.length ? { name: messages } : {};
}

const randomHex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

/** A new bearer token: shown in the create or reset payload once; only its SHA-256 digest is stored. */
export const newIntegrationToken = () => randomHex(16);

/** The identifier in the integration's URL, fixed at creation. */
export const newEndpointIdentifier = () => randomHex(8);

/** Gitlab::Utils.slugify: lowercase, every other character a dash, 63 at most, no dash at either end. */
const slugify = (s: string) =>
  Array.from(s.toLowerCase(), (c) => (/[a-z0-9]/.test(c) ? c : '-'))
    .slice(0, 63)
    .join('')
    .replace(/^-+|-+$/g, '');

/**
 * HttpIntegration#url. A name that slugs to nothing gives `http-endpoint` (GitLab's slug for a missing name) rather
 * than GitLab's empty path segment.
 */
export function integrationUrl(publicUrl: string, projectPath: string, i: { name: string; endpointIdentifier: string }) {
  return `${publicUrl}/${projectPath}/alerts/notify/${slugify(i.name) || 'http-endpoint'}/${i.endpointIdentifier}.json`;
}
