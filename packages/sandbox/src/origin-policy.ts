/**
 * Which web pages may open the WebSocket. A browser lets any page open a WebSocket to any address,
 * `127.0.0.1` included, and sends its own Origin; a page the user happens to visit could otherwise
 * hold the four per-IP connection slots of the user's sandbox, or drive its API. Programs (Node, the
 * public clients, curl) send no Origin and are always admitted. By default the pages admitted are the
 * machine's own: an Origin whose host is loopback (`localhost`, 127.0.0.0/8, `[::1]`) and local files
 * (`file://`). `allowedOrigins` replaces that default: exact origins (`https://app.example`), or `*`
 * for every page. A sandboxed frame's `null` Origin is admitted only when listed or with `*`: any page
 * can make one.
 */

/** The Origins admitted: undefined for the default (loopback pages and local files), else exact origins or `*`. */
export type AllowedOrigins = readonly string[] | undefined;

const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127(?:\.[0-9]{1,3}){3}|\[::1\])(:[0-9]{1,5})?$/;

/** Why a WebSocket upgrade with this Origin is refused, or null when it is admitted. */
export function refuseOrigin(origin: string | undefined, allowed: AllowedOrigins): string | null {
  if (origin === undefined) return null;
  const o = origin.trim().toLowerCase();
  if (allowed === undefined) {
    if (LOOPBACK_ORIGIN.test(o) || o === 'file://') return null;
    return (
      `the WebSocket admits pages of this machine only (loopback origins, local files); ` +
      `Origin ${JSON.stringify(origin.slice(0, 120))} is not one: list it in allowedOrigins (--allow-origin)`
    );
  }
  if (allowed.includes('*') || allowed.some((a) => a.toLowerCase() === o)) return null;
  return `Origin ${JSON.stringify(origin.slice(0, 120))} is not in allowedOrigins (${allowed.join(', ')})`;
}
