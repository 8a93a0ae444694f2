// Values every CI face derives from a pipeline's ref, in one place: the runner's variables, the rules' variables and
// environment names read the same slug, and REST, GraphQL and the runner the same before-sha default.

/** CI_COMMIT_REF_SLUG: the ref lower-cased, [a-z0-9] kept, other characters '-', at most 63, no '-' at the ends. */
export const refSlug = (ref: string) =>
  ref
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');

/** Gitlab::Git::BLANK_SHA: Ci::Pipeline#before_sha of pipelines no push made. */
export const BLANK_SHA = '0000000000000000000000000000000000000000';
