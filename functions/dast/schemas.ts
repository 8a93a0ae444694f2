// The rules of GitLab 13.6's DAST models: DastSiteProfile and DastScannerProfile (`name` present, at most 255
// characters, unique per project: the unique key), DastSite's `url` (at most 255 characters, PublicUrlValidator:
// http or https, no localhost, no local network), and the scanner's timeouts (the ranges GitLab's profile form
// allows, with ActiveModel's numericality messages). Also the web paths and URLs GitLab derives from them.
import type { FieldErrors } from '../lib/errors.ts';

const NAME_MAX = 255;
const URL_MAX = 255;
export const SPIDER_TIMEOUT_MAX = 2880;
export const TARGET_TIMEOUT_MAX = 3600;

/** GitLab's scan types (DastScannerProfile `enum scan_type: { passive: 1, active: 2 }`). */
export const SCAN_TYPES = { PASSIVE: 1, ACTIVE: 2 } as const;

function nameErrors(name: string): string[] {
  if (!name.trim()) return ["can't be blank"];
  return name.length > NAME_MAX ? [`is too long (maximum is ${NAME_MAX} characters)`] : [];
}

const LOCALHOST = /^(localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|::1?|::ffff:127(?:\.\d{1,3}){3})$/i;
const PRIVATE_V4 = [/^10\./, /^172\.(1[6-9]|2\d|3[01])\./, /^192\.168\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./];
const LINK_LOCAL = /^(169\.254\.|fe80:)/i;
const UNIQUE_LOCAL_V6 = /^f[cd][0-9a-f]{2}:/i;

/**
 * Gitlab::UrlBlocker's refusal of a URL (AddressableUrlValidator words it "is blocked: <reason>"), or null. Host
 * names are not resolved here: only literal local addresses and localhost are refused.
 */
function blockedReason(url: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return 'Only allowed schemes are http, https';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'URI is invalid';
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!host) return 'URI is invalid';
  if (LOCALHOST.test(host)) return 'Requests to localhost are not allowed';
  if (LINK_LOCAL.test(host)) return 'Requests to the link local network are not allowed';
  if (PRIVATE_V4.some((r) => r.test(host)) || UNIQUE_LOCAL_V6.test(host)) return 'Requests to the local network are not allowed';
  return null;
}

/** DastSite's `url` errors (length, then the URL blocker), keyed as ActiveModel names the attribute. */
function urlErrors(url: string): string[] {
  const errors: string[] = [];
  if (url.length > URL_MAX) errors.push(`is too long (maximum is ${URL_MAX} characters)`);
  const blocked = blockedReason(url.trim());
  if (blocked) errors.push(`is blocked: ${blocked}`);
  return errors;
}

const only = (fields: Record<string, string[]>): FieldErrors => Object.fromEntries(Object.entries(fields).filter(([, m]) => m.length > 0));

/**
 * A site profile's errors: its DastSite's url first (DastSites::FindOrCreateService#execute! raises before the profile
 * is built, so a bad URL is the only error), then DastSiteProfile's name.
 */
export function siteProfileErrors(p: { name: string; targetUrl: string }): FieldErrors {
  const url = urlErrors(p.targetUrl);
  return url.length ? { url } : only({ name: nameErrors(p.name) });
}

function rangeErrors(value: number | null | undefined, max: number): string[] {
  if (value === null || value === undefined) return [];
  if (value < 0) return ['must be greater than or equal to 0'];
  return value > max ? [`must be less than or equal to ${max}`] : [];
}

/** A scanner profile's errors: name, spider timeout (minutes, 0..2880), target timeout (seconds, 0..3600). */
export function scannerProfileErrors(p: { name: string; spiderTimeout?: number | null | undefined; targetTimeout?: number | null | undefined }): FieldErrors {
  return only({
    name: nameErrors(p.name),
    spider_timeout: rangeErrors(p.spiderTimeout, SPIDER_TIMEOUT_MAX),
    target_timeout: rangeErrors(p.targetTimeout, TARGET_TIMEOUT_MAX),
  });
}

/** DastSiteValidation.get_normalized_url_base: `scheme://host:port`, the port always written. */
export function normalizedUrlBase(url: string): string | null {
  try {
    const u = new URL(url);
    const scheme = u.protocol.slice(0, -1);
    const port = u.port || (scheme === 'https' ? '443' : scheme === 'http' ? '80' : '');
    return `${scheme}://${u.hostname}:${port}`;
  } catch {
    return null;
  }
}

/** edit_project_security_configuration_dast_profiles_dast_site_profile_path. */
export const siteProfileEditPath = (projectPath: string, id: number) => `/${projectPath}/-/security/configuration/dast_profiles/dast_site_profiles/${id}/edit`;

/** edit_project_security_configuration_dast_profiles_dast_scanner_profile_path. */
export const scannerProfileEditPath = (projectPath: string, id: number) =>
  `/${projectPath}/-/security/configuration/dast_profiles/dast_scanner_profiles/${id}/edit`;
