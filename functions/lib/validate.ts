// Parameter validation with Grape's (GitLab's) messages. Schemas are built lazily (`schema()` below). Two
// validators, both with the same error hook:
//  - `path(schema)`: @hono/zod-validator on the route's path parameters (ids and references);
//  - `params(schema)`: everything else, from the query string, a form body or a JSON body merged as Grape merges
//    them (body over query), because GitLab clients send the same parameter either way. @hono/zod-validator reads
//    one target only, so this one is a `hono/validator` that reads all of them itself and stores the result under
//    hono's `query` target: routes read every parameter with `c.req.valid('query')`.
import { zValidator } from '@hono/zod-validator';
import type { Context, MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import * as z from 'zod/mini';
import { isRealDate, parseDate } from './dates.ts';
import { malformedRequest, paramErrors, validationFailed } from './errors.ts';
import { MalformedParams, nestPairs } from './rack-params.ts';

/** Separates two Grape messages carried by one zod issue. */
const BOTH = '\u0000';

/** Grape's wording for each kind of zod issue; installed once as zod's global error map. */
function grapeMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is missing' : 'is invalid';
    case 'invalid_value':
      // Grape reports a missing parameter with `values:` twice: "x is missing, x does not have a valid value".
      if (issue.input === undefined) return `is missing${BOTH}does not have a valid value`;
      return 'does not have a valid value';
    case 'too_small':
    case 'too_big':
      if (issue.code === 'too_big' && issue.origin === 'string') return `is too long (maximum is ${issue.maximum} characters)`;
      if (issue.code === 'too_small' && issue.origin === 'string') return 'is empty';
      return 'does not have a valid value';
    case 'invalid_format':
    case 'invalid_union':
    default:
      return 'is invalid';
  }
}
z.config({ customError: grapeMessage });

/** `events.new_note` -> `events[new_note]`, as Grape names nested parameters. */
const grapeName = (path: PropertyKey[]) => path.map((p, i) => (i === 0 ? String(p) : `[${String(p)}]`)).join('');

/**
 * Turns zod issues into GitLab's two 400 shapes: model validation (`{"message":{"name":["is too long ..."]}}`, for
 * string lengths and checks marked `model`) wins over Grape parameter errors (`{"error":"a is missing, b is invalid"}`).
 */
export function toValidationError(issues: readonly z.core.$ZodIssue[]) {
  const model: Record<string, string[]> = {};
  const grape: string[] = [];
  for (const issue of issues) {
    const isModel = (issue.code === 'too_big' && issue.origin === 'string') || (issue.code === 'custom' && issue.params?.model);
    if (isModel) (model[grapeName(issue.path)] ??= []).push(issue.message);
    else for (const message of issue.message.split(BOTH)) grape.push(`${grapeName(issue.path)} ${message}`);
  }
  return grape.length ? paramErrors([...new Set(grape)]) : validationFailed(model);
}

/**
 * A schema built on its first use and kept for the isolate's life. Module top levels build no zod objects: a fresh
 * isolate pays only for the schemas of the route it serves (issue 13, cold start; building every route's schemas at
 * import cost about 15 ms of CPU). Declare `export const XInput = schema(() => z.object({...}))`, pass `XInput` to
 * `params()`/`path()`, call `XInput()` to parse elsewhere, and name its types with `Output<typeof XInput>`.
 */
export type Schema<S extends z.ZodMiniType = z.ZodMiniType> = () => S;
export const schema = <S extends z.ZodMiniType>(build: () => S): Schema<S> => {
  let built: S | undefined;
  return () => (built ??= build());
};
/** The parsed value of a lazily built schema. */
export type Output<L extends Schema> = z.output<ReturnType<L>>;
/** What a lazily built schema accepts. */
export type Input<L extends Schema> = z.input<ReturnType<L>>;

const hook = (result: { success: boolean; error?: { issues: z.core.$ZodIssue[] } }) => {
  if (!result.success) throw toValidationError(result.error!.issues);
};
const paramValidator = <S extends z.ZodMiniType>(built: S) => zValidator('param', built, hook);

/** Validates path parameters (`:id` and friends); the validator is made on the route's first request. */
export const path = <S extends z.ZodMiniType>(schema: Schema<S>) => {
  let validate: MiddlewareHandler | undefined;
  const middleware: MiddlewareHandler = (c, next) => {
    const nul = nulPaths(c.req.param());
    if (nul.length) throw paramErrors(nul.map((name) => `${name} is invalid`));
    return (validate ??= paramValidator(schema()) as MiddlewareHandler)(c, next);
  };
  return middleware as ReturnType<typeof paramValidator<S>>;
};

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * Grape::Exceptions::InvalidMessageBody as GitLab renders it (`error!(e.message, 400)`): Grape composes the
 * message from the problem and resolution of its locale file, newlines and trailing space included.
 */
export const invalidMessageBody = (format: string) =>
  paramErrors([
    `\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying ${format} as content-type, you must pass valid ${format} in the request's 'body' `,
  ]);

/** A request whose parameters Rack cannot read: 400 `Bad Request` (GitLab's answer before Grape sees it). */
const unreadable = (error: unknown) => {
  if (error instanceof MalformedParams) return malformedRequest();
  return error;
};

/**
 * Query + body, as Grape sees them (Rack::Request#params): each read with Rack's nested names (lib/rack-params.ts:
 * `a[]`, `a[k][j]`, `a[][k]`), then the body's names over the query's (a shallow merge). A JSON body is nested
 * already; its names are taken as they are.
 */
export async function readInput(c: Context): Promise<Record<string, unknown>> {
  let query: Record<string, unknown>;
  try {
    query = nestPairs(new URL(c.req.url).searchParams);
  } catch (error) {
    throw unreadable(error);
  }
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return query;

  const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (JSON_TYPE.test(mediaType)) {
    const text = await c.req.text();
    if (text.trim() === '') return query;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw invalidMessageBody('application/json');
    }
    if (body && typeof body === 'object' && !Array.isArray(body)) return Object.assign(query, body);
  } else if (mediaType === 'application/x-www-form-urlencoded' || mediaType === 'multipart/form-data') {
    const form = await c.req.formData().catch(() => {
      throw invalidMessageBody(mediaType);
    });
    // Later values win, as in Rack. A file part reaches the schema as the File itself (Grape's `type: File`, e.g.
    // `avatar`); under any other parameter's type it is `is invalid`.
    try {
      return Object.assign(query, nestPairs(form.entries()));
    } catch (error) {
      throw unreadable(error);
    }
  }
  return query;
}

/**
 * The Grape names (`a[b][0]`) of the parameters whose name or text holds a NUL byte, which no column can store
 * (PostgreSQL text refuses it). Walks without recursion: a JSON body may nest thousands deep.
 */
export function nulPaths(input: unknown): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, PropertyKey[]]> = [[input, []]];
  while (stack.length) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.push(grapeName(path));
    } else if (Array.isArray(value)) value.forEach((v, i) => stack.push([v, [...path, i]]));
    else if (value && typeof value === 'object' && !(value instanceof Blob)) {
      for (const [k, v] of Object.entries(value)) {
        if (k.includes('\u0000')) found.push(grapeName([...path, k]));
        else stack.push([v, [...path, k]]);
      }
    }
  }
  return found.sort();
}

/**
 * The merged query/body parameters, validated, with Grape's 400s. For routes whose authorization must come first
 * (GitLab's `before { authorize! }` runs ahead of parameter validation); others use `params()`.
 */
export async function parseParams<S extends z.ZodMiniType>(c: Context, schema: S): Promise<z.output<S>> {
  const result = await schema.safeParseAsync(await readInput(c));
  if (!result.success) throw toValidationError(result.error.issues);
  return result.data;
}

/**
 * parseParams for a body the route reads itself (a streamed multipart body): the query, then `fields` in order.
 */
export async function parseFields<S extends z.ZodMiniType>(c: Context, schema: S, fields: ReadonlyArray<readonly [string, string]>): Promise<z.output<S>> {
  let input: Record<string, unknown>;
  try {
    input = Object.assign(nestPairs(new URL(c.req.url).searchParams), nestPairs(fields));
  } catch (error) {
    throw unreadable(error);
  }
  const result = await schema.safeParseAsync(input);
  if (!result.success) throw toValidationError(result.error.issues);
  return result.data;
}

/** Where params()'s middleware keeps its schema. */
export const DECLARED_PARAMS = Symbol('declared params');

/**
 * Validates the merged query/body parameters; the result is `c.req.valid('query')`. The middleware carries its
 * schema (DECLARED_PARAMS) so that a test over the route manifest can list what every route declares.
 */
export const params = <S extends z.ZodMiniType>(schema: Schema<S>) =>
  Object.assign(
    validator('query', (_value, c): Promise<z.output<S>> => parseParams(c, schema())),
    { [DECLARED_PARAMS]: schema },
  );

// ---- Field types with Grape's coercions (query and form values arrive as strings, JSON as typed values) ----

/**
 * Grape's `type: String` with no rules but one: no NUL byte, which no ref, path or column holds (PostgreSQL text
 * refuses it: a 500 before). JSON numbers and booleans arrive as their text.
 */
export const plainString = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v)),
    z.string().check(z.refine((s) => !s.includes('\u0000'), { message: 'is invalid' })),
  );

const INTEGER = /^[+-]?\d+$/;
const TRUE = new Set(['true', 't', '1', 'yes', 'y', 'on']);
const FALSE = new Set(['false', 'f', '0', 'no', 'n', 'off']);

/** Integer, from a number or a decimal string. */
export const int = () =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' && INTEGER.test(v.trim()) ? Number(v.trim()) : v)),
    z.int(),
  );

/** A database id: a positive integer (zero and negatives are `does not have a valid value`). */
export const id = () => z.pipe(int(), z.int().check(z.minimum(1), z.maximum(2_147_483_647)));

/**
 * A numeric path segment (Grape's `type: Integer`): anything else is 400 `<name> is invalid`; a number no row can
 * have is null, for the caller's 404.
 */
export const pathId = () =>
  z.pipe(
    z.string(),
    z.transform((v, ctx) => {
      if (!/^\d+$/.test(v)) {
        ctx.issues.push({ code: 'invalid_type', expected: 'int', input: v, message: 'is invalid' });
        return z.NEVER;
      }
      const n = Number(v);
      return n >= 1 && n <= 2_147_483_647 ? n : null;
    }),
  );

/**
 * Boolean with Grape's string forms (true/false, 1/0, yes/no, t/f, on/off): the one boolean rule of every parameter,
 * form field included; anything else is `<name> is invalid`.
 */
export const bool = () =>
  z.pipe(
    z.transform((v: unknown) => {
      if (typeof v === 'number') return v === 1 ? true : v === 0 ? false : v;
      if (typeof v !== 'string') return v;
      const s = v.trim().toLowerCase();
      return TRUE.has(s) ? true : FALSE.has(s) ? false : v;
    }),
    z.boolean(),
  );

// Control characters (C0, DEL, C1) never belong in names, paths or search terms.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** String (numbers from JSON are accepted as Grape does), at most `max` characters, no control characters. */
export const str = (max = 255) =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'number' ? String(v) : v)),
    z.string().check(
      z.maxLength(max),
      z.refine((s) => !CONTROL.test(s), { message: 'is invalid' }),
    ),
  );

/** Grape's `type: String` for values JSON may send as numbers or booleans (`true` -> "true"), else as `str()`. */
export const scalarStr = (max = 255) =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'boolean' ? String(v) : v)),
    str(max),
  );

/** Free text (descriptions, bios): newlines and tabs allowed, other control characters refused. */
export const text = (max = 2000) =>
  z.pipe(
    z.transform((v: unknown) => (typeof v === 'number' ? String(v) : v)),
    z.string().check(
      z.maxLength(max),
      z.refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), { message: 'is invalid' }),
    ),
  );

/** Grape's CommaSeparatedToArray: one string becomes its comma-separated items; anything else is left as sent. */
export const splitCommas = (v: unknown) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : v;

/** Grape's Array[String] with CommaSeparatedToArray: a list, or one string of comma-separated items. */
export const commaList = () => z.pipe(z.transform(splitCommas), z.array(z.string()));

/** An integer from a fixed list (access levels): anything else is `does not have a valid value`. */
export const intIn = <const T extends readonly number[]>(values: T) =>
  z.pipe(
    int(),
    z.custom<T[number]>((v) => (values as readonly unknown[]).includes(v), { message: 'does not have a valid value' }),
  );

/** One of a fixed list: anything else is `does not have a valid value`. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

/**
 * A date parameter (Grape's `Date`, and the `String` dates GitLab casts into date columns), read as lib/dates.ts reads
 * Ruby's Date.parse and normalised to `YYYY-MM-DD`: `2020-01-01T00:00:00Z` is `2020-01-01`; what names no day is
 * `<param> is invalid`.
 */
export const dateParam = () =>
  z.pipe(
    z.string(),
    z.transform((s, ctx) => {
      const day = parseDate(s);
      if (day === null) {
        ctx.issues.push({ code: 'invalid_format', format: 'date', input: s, message: 'is invalid' });
        return z.NEVER;
      }
      return day;
    }),
  );

/**
 * An ISO 8601 time (Grape's DateTime). The calendar date must exist (no February 30th) and lie in years 1-9999, the
 * range Postgres timestamps and JavaScript dates share.
 */
export const dateTime = () =>
  z.pipe(
    z.string(),
    z.transform((s, ctx) => {
      const t = s.trim();
      const m = /^(\d{4}-\d{2}-\d{2})([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.exec(t);
      const d = m && isRealDate(m[1]!) ? new Date(t) : new Date(NaN);
      if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) {
        ctx.issues.push({ code: 'invalid_format', format: 'datetime', input: s, message: 'is invalid' });
        return z.NEVER;
      }
      return d;
    }),
  );

/**
 * Grape's `at_least_one_of` on an object's keys: `{"error":"a, b are missing, at least one parameter must be
 * provided"}`. Runs even when a field failed (Grape reports every rule), where the failed field still counts as given.
 */
export const atLeastOneOf = (keys: readonly string[]) =>
  z.superRefine(
    (v: Record<string, unknown>, ctx) => {
      if (keys.every((k) => v?.[k] === undefined)) {
        ctx.issues.push({ code: 'custom', message: 'are missing, at least one parameter must be provided', path: [keys.join(', ')], input: v });
      }
    },
    { when: () => true },
  );

/** Grape's `exactly_one_of`: none given is `a, b are missing, exactly one parameter must be provided`; more than one, `a, b are mutually exclusive` (those given). */
export const exactlyOneOf = (keys: readonly string[]) =>
  z.superRefine(
    (v: Record<string, unknown>, ctx) => {
      const given = keys.filter((k) => v?.[k] !== undefined);
      if (given.length === 1) return;
      const [path, message] = given.length ? [given, 'are mutually exclusive'] : [keys, 'are missing, exactly one parameter must be provided'];
      ctx.issues.push({ code: 'custom', message, path: [path.join(', ')], input: v });
    },
    { when: () => true },
  );

/** Grape's `all_or_none_of`: `{"error":"a, b provide all or none of parameters"}`. */
export const allOrNoneOf = (keys: readonly string[]) =>
  z.superRefine(
    (v: Record<string, unknown>, ctx) => {
      const given = keys.filter((k) => v?.[k] !== undefined).length;
      if (given > 0 && given < keys.length) {
        ctx.issues.push({ code: 'custom', message: 'provide all or none of parameters', path: [keys.join(', ')], input: v });
      }
    },
    { when: () => true },
  );

/** A model-level check (GitLab's ActiveRecord validations): reported as `{"message":{"field":["..."]}}`. */
export const modelRule = <T>(check: (value: T) => boolean, message: string) => z.refine<T>(check, { message, params: { model: true } });
