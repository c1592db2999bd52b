// Turns schema issues into the service's error envelopes: 100001 for a field that is missing,
// ill-typed, outside an enum or too long (msg = `<field>: <rule>`), 100002 for a number out of
// bounds, with exactly `<field> should be [<min>,<max>], current: <value>` (section 7).
import { ERROR_CODES } from '../../src/api/errors';

export interface SchemaIssue {
  code: string;
  path: PropertyKey[];
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  values?: readonly unknown[];
  /** A rule of the schema's own (code `custom`) words its message as `<rule>`, without the field. */
  message?: string;
}

export interface ValidationRules {
  /** Numeric fields and their documented range, used in 100002 messages. */
  bounds?: Record<string, { min: number; max: number }>;
  /** Fields whose limit the interface words as "fewer than N characters". */
  fewerThan?: readonly string[];
  /** Field order of the request, so the first field of the body is reported first. */
  fieldOrder?: readonly string[];
}

interface ValidationFailure {
  code: number;
  msg: string;
}

export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index ? '.' : ''}${String(part)}`))
    .join('');
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

function show(value: unknown): string {
  const text =
    typeof value === 'string' || typeof value === 'number'
      ? String(value)
      : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function isBoundsIssue(issue: SchemaIssue, value: unknown): boolean {
  return (
    (issue.code === 'too_big' || issue.code === 'too_small') &&
    typeof value === 'number' &&
    Number.isInteger(value)
  );
}

function boundsMessage(issue: SchemaIssue, field: string, value: unknown, rules: ValidationRules): string {
  const range = rules.bounds?.[field];
  const min = range?.min ?? (issue.code === 'too_small' ? Number(issue.minimum) : '');
  const max = range?.max ?? (issue.code === 'too_big' ? Number(issue.maximum) : '');
  return `${field} should be [${min},${max}], current: ${show(value)}`;
}

function ruleMessage(issue: SchemaIssue, field: string, value: unknown, rules: ValidationRules): string {
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return `${field}: is required`;
      if (issue.expected === 'int' || (issue.expected === 'number' && typeof value === 'number')) {
        return `${field}: must be an integer, current: ${show(value)}`;
      }
      return `${field}: must be ${article(issue.expected ?? 'valid value')}, current: ${show(value)}`;
    case 'invalid_value':
      return `${field}: must be one of ${(issue.values ?? []).map(String).join(', ')}, current: ${show(value)}`;
    case 'invalid_format':
      return `${field}: must be an http:// or https:// URL, current: ${show(value)}`;
    case 'too_big':
      if (typeof value === 'string') {
        const max = Number(issue.maximum);
        return rules.fewerThan?.includes(field)
          ? `${field}: must be fewer than ${max + 1} characters, current length: ${value.length}`
          : `${field}: must be at most ${max} characters, current length: ${value.length}`;
      }
      if (Array.isArray(value))
        return `${field}: must have at most ${Number(issue.maximum)} items, current: ${value.length}`;
      return `${field}: is too large, current: ${show(value)}`;
    case 'too_small':
      if (typeof value === 'string') return `${field}: must not be empty`;
      if (Array.isArray(value)) {
        return `${field}: must have at least ${Number(issue.minimum)} item${Number(issue.minimum) === 1 ? '' : 's'}, current: ${value.length}`;
      }
      return `${field}: is too small, current: ${show(value)}`;
    case 'custom':
      if (issue.message) return `${field}: ${issue.message}`;
      return `${field}: is invalid, current: ${show(value)}`;
    default:
      return `${field}: is invalid, current: ${show(value)}`;
  }
}

/**
 * One envelope for all issues of a request. Field errors (100001) come before bounds errors
 * (100002): a request with a missing prompt is not "out of bounds". Several field errors are
 * joined with "; " so the caller sees them all, with the first field of the body leading.
 */
export function validationFailure(
  body: unknown,
  issues: readonly SchemaIssue[],
  rules: ValidationRules = {},
): ValidationFailure {
  const order = rules.fieldOrder ?? [];
  const rank = (issue: SchemaIssue) => {
    const index = order.indexOf(String(issue.path[0]));
    return index === -1 ? order.length : index;
  };
  const sorted = [...issues].sort((a, b) => rank(a) - rank(b));
  const fieldErrors: string[] = [];
  const boundsErrors: string[] = [];
  const seen = new Set<string>();
  for (const issue of sorted) {
    const field = fieldPath(issue.path) || 'body';
    // zod may report one value twice (e.g. 1e20: unsafe integer and above the maximum).
    if (seen.has(field)) continue;
    seen.add(field);
    const value = valueAt(body, issue.path);
    if (isBoundsIssue(issue, value)) boundsErrors.push(boundsMessage(issue, field, value, rules));
    else fieldErrors.push(ruleMessage(issue, field, value, rules));
  }
  if (fieldErrors.length) return { code: ERROR_CODES.validation, msg: fieldErrors.join('; ') };
  if (boundsErrors.length) return { code: ERROR_CODES.bounds, msg: boundsErrors[0]! };
  return { code: ERROR_CODES.validation, msg: 'body: is invalid' };
}
