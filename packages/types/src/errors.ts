/**
 * Typed reads of this interface's generated error table (error-codes.ts applied to it), shared by the
 * sandbox that writes errors and the runner that checks them, so the rate-limit hint's wording and the
 * entries each of them relies on are read in one way.
 */
import { errorTable, type ErrorEntry } from './generated/tables.gen';
import { errorCodes, RETRY_PLACEHOLDER } from './error-codes';

/** The kind of an error entry (rate-limit, connection-limit, auth, request, …). */
export type ErrorKind = ErrorEntry['kind'];

/** The stable name of an error entry (RATE_LIMITED, AUTH_REQUIRED, …). */
export type ErrorName = ErrorEntry['name'];

/** The error codes of the table. */
export type ErrorCode = ErrorEntry['code'];

/** The first entry of a kind. Throws when the table has none, so a module that needs it fails as it is imported. */
export function errorOfKind<K extends ErrorKind>(kind: K): Extract<ErrorEntry, { kind: K }> {
  const e = errorTable.codes.find((c): c is Extract<ErrorEntry, { kind: K }> => c.kind === kind);
  if (!e)
    throw new Error(
      `errorTable has no entry of kind '${kind}' (fix x-errors in spec/asyncapi.yaml and run npm run generate)`,
    );
  return e;
}

/** The entry with this name. Throws when the table has none, so a module that needs it fails as it is imported. */
export function errorByName<N extends ErrorName>(name: N): Extract<ErrorEntry, { name: N }> {
  const e = errorTable.codes.find((c): c is Extract<ErrorEntry, { name: N }> => c.name === name);
  if (!e)
    throw new Error(
      `errorTable has no entry named '${name}' (fix x-errors in spec/asyncapi.yaml and run npm run generate)`,
    );
  return e;
}

/** The entry with this code, or undefined for a code the table does not list. */
export function errorByCode(code: number): ErrorEntry | undefined {
  return errorTable.codes.find((c) => c.code === code);
}

const codes = errorCodes(errorTable);
const rateLimit = errorOfKind('rate-limit');

/** Whether a code is a rate-limit error: the reserved range holding the rate-limit entry, or that entry's own code. */
export function isRateLimitCode(code: number): boolean {
  return codes.rateLimitEntry(code) !== undefined;
}

const template: string = rateLimit.data;
if (!template.includes(RETRY_PLACEHOLDER))
  throw new Error(
    `errorTable's rate-limit data ${JSON.stringify(template)} has no ${RETRY_PLACEHOLDER}` +
      ` placeholder for the retry hint`,
  );

/** The rate-limit error's retry hint for a wait of `ms` (whole milliseconds, rounded up, never negative). */
export function formatRetryHint(ms: number): string {
  return template.replace(RETRY_PLACEHOLDER, String(Math.max(0, Math.ceil(ms))));
}

/** The wait in milliseconds a rate-limit error's `data` asks for, or null when it is not of the documented form. */
export function parseRetryHint(data: string | null | undefined): number | null {
  return codes.retryAfterMs(rateLimit.code, data);
}
