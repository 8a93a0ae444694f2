// The Iteration model's validations (GitLab 13.6, Timebox concern included) that need no database: full messages
// in the order GitLab adds them. The overlap and title-uniqueness rules are checked by the service under its lock.

export interface IterationAttributes {
  title?: string | null | undefined;
  description?: string | null | undefined;
  /** As given (GraphQL takes a String; an unparsable one is blank, as ActiveRecord's date cast leaves it nil). */
  startDate?: string | null | undefined;
  dueDate?: string | null | undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` of a real calendar day, else null. */
export function parseDate(value: string | null | undefined): string | null {
  const m = value ? DATE.exec(value.trim()) : null;
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === `${m[1]}-${m[2]}-${m[3]}` ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

const yearsLater = (day: string, years: number) => `${String(Number(day.slice(0, 4)) + years).padStart(4, '0')}${day.slice(4)}`;

export function iterationErrors(a: IterationAttributes, today: string, parentKind: 'group' | 'project') {
  const errors: string[] = [];
  const title = a.title?.trim() ?? '';
  const start = parseDate(a.startDate);
  const due = parseDate(a.dueDate);
  if (!title) errors.push("Title can't be blank");
  else if (title.length > 255) errors.push('Title is too long (maximum is 255 characters)');
  if (start && due && due <= start) errors.push('Due date must be greater than start date');
  if (!start) errors.push("Start date can't be blank");
  if (!due) errors.push("Due date can't be blank");
  const limit = yearsLater(today, 500);
  if (start && start < today) errors.push('Start date cannot be in the past');
  if (start && start > limit) errors.push('Start date cannot be more than 500 years in the future');
  if (due && due < today) errors.push('Due date cannot be in the past');
  if (due && due > limit) errors.push('Due date cannot be more than 500 years in the future');
  if (parentKind === 'project') errors.push('Project is not allowed. We do not currently support project-level iterations');
  const valid = title && start && due ? { title, description: a.description ?? null, startDate: start, dueDate: due } : null;
  return { errors, valid };
}
