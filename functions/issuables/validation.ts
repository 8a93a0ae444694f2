// Issuable's validations (app/models/concerns/issuable.rb, 13.6), the one spelling for issues, merge requests and
// test cases: `strip_attributes :title`, `validates :title, presence: true, length: { maximum: 255 }` and
// `validates :description, length: { maximum: 1.megabyte }`. The verbs apply them after deciding who may act, as the
// models do on save, so every transport gets the same words: REST as the model's errors (400
// `{"message":{"title":["can't be blank"]}}`), GraphQL as the payload's full messages (`Title can't be blank`).
// REST's parameter schemas check only the types (Grape's `type: String`).
import type { FieldErrors } from '../lib/errors.ts';

/** Issuable::TITLE_LENGTH_MAX. */
export const TITLE_MAX = 255;
/** Issuable::DESCRIPTION_LENGTH_MAX (1 megabyte). */
export const DESCRIPTION_MAX = 1_048_576;

/** Ruby's String#strip: NUL and ASCII whitespace at either end (not JavaScript's Unicode spaces). */
const RUBY_STRIP = /^[\0\t\n\v\f\r ]+|[\0\t\n\v\f\r ]+$/g;

/** strip_attributes :title: the title as it is saved. */
export const stripTitle = (title: string) => title.replace(RUBY_STRIP, '');

/**
 * The model's errors for the fields given (undefined: not being changed), title already stripped; null when valid.
 * `description` counts characters, as Rails' length validation does.
 */
export function issuableErrors(p: { title?: string | undefined; description?: string | null | undefined }): FieldErrors | null {
  const errors: Record<string, string[]> = {};
  if (p.title !== undefined) {
    if (p.title === '') errors.title = ["can't be blank"];
    else if ([...p.title].length > TITLE_MAX) errors.title = [`is too long (maximum is ${TITLE_MAX} characters)`];
  }
  if (p.description != null && [...p.description].length > DESCRIPTION_MAX) errors.description = [`is too long (maximum is ${DESCRIPTION_MAX} characters)`];
  return Object.keys(errors).length ? errors : null;
}
