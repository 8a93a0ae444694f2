// An environment's name rules and derived fields (GitLab 13.6 app/models/environment.rb, Gitlab::Regex
// environment_name_regex, Gitlab::Slug::Environment): the slug is made once from the name, never regenerated.
import { sha256Hex } from '../lib/crypto.ts';

// Letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces; no '/' at either end.
const NAME = /^[a-zA-Z0-9_${}. -]([a-zA-Z0-9_/${}. -]*[a-zA-Z0-9_${}. -])?$/;
export const NAME_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'";

/** The name's validation messages in Environment's order: presence, uniqueness (`taken`), length, format. */
export function nameErrors(name: string, taken = false): string[] {
  const errors: string[] = [];
  if (name.trim() === '') errors.push("can't be blank");
  if (taken) errors.push('has already been taken');
  if (name.length > 255) errors.push('is too long (maximum is 255 characters)');
  if (!NAME.test(name)) errors.push(NAME_MESSAGE);
  return errors;
}

/** AddressableUrlValidator (http and https): what external_url accepts. */
export function externalUrlErrors(url: string): string[] {
  if (url.length > 255) return ['is too long (maximum is 255 characters)'];
  try {
    const parsed = new URL(url);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname) return [];
  } catch {
    // not a URL: the message below
  }
  return ['must be a valid URL'];
}

/** Environment#set_environment_type: the first segment of a name with a '/' (`review/app` is a `review` app). */
export function environmentType(name: string): string | null {
  const parts = name.split('/');
  return parts.length > 1 ? parts[0]! : null;
}

/**
 * Gitlab::Slug::Environment: lower case, [a-z0-9-] only, starts with a letter, no repeated '-', at most 24
 * characters. A name that is not already its own slug is cut to 17 characters and suffixed with 6 base-36
 * characters of its SHA-256, so different names keep different slugs.
 */
export async function environmentSlug(name: string): Promise<string> {
  let slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-+/g, '-');
  if (slug.length <= 24 && slug === name) return slug.replace(/-$/, '');
  const suffix = BigInt(`0x${await sha256Hex(name)}`)
    .toString(36)
    .slice(-6);
  const short = slug.slice(0, 17);
  return `${short}${short.endsWith('-') ? '' : '-'}${suffix}`;
}
