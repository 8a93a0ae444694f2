// Small output formats every serializer and resolver shares: ISO 8601 times, and the plain-text stand-ins for
// GitLab's rendered Markdown (`*_html` fields).

/** ISO 8601 with milliseconds (`2020-01-02T03:04:05.000Z`), as GitLab's entities; null stays null. */
export function iso(d: Date | string): string;
export function iso(d: Date | string | null | undefined): string | null;
export function iso(d: Date | string | null | undefined): string | null {
  return d == null ? null : new Date(d).toISOString();
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A single-line field's rendering (GitLab's titleHtml): the escaped text, no paragraph. */
export const renderPlainLine = (s: string | null) => (s == null ? null : escapeHtml(s));

/**
 * description_html and friends: GitLab renders Markdown. Kept simple here: the escaped text as one paragraph, as
 * GitLab renders plain one-line text (`<p dir="auto">...</p>`), newlines as `<br>`; empty when there is no text.
 */
export const renderPlainText = (s: string | null) => (s ? `<p dir="auto">${escapeHtml(s).replace(/\r?\n/g, '<br>\n')}</p>` : '');

/** Ruby's Array#to_sentence (how ActiveModel joins full messages): "a", "a and b", "a, b, and c". */
export function toSentence(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items.at(-1)}`;
}
