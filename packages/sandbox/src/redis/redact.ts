/**
 * A Redis URL as it may be printed: its password replaced by `***`. Every line that names the URL
 * (errors, the command line a process shows in `ps`) goes through this; it loads nothing.
 */
export function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password === '') return url;
    u.password = '***';
    return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    // Not a URL (a socket path, or something unparsable): anything before an @ may be a password.
    return url.replace(/^([a-z]+:\/\/)[^@/]*@/i, '$1***@');
  }
}

/** Where the password may come from when the URL carries none (kept out of every command line). */
export const REDIS_PASSWORD_ENV = 'EXCHANGE_API_REDIS_PASSWORD';
