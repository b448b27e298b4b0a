/**
 * Who may drive the control plane. It lists every connection, pushes whatever data to subscribers and
 * drops clients, so a web page the user happens to open must not reach it. Browsers let any page send
 * "simple" requests to any address (text/plain, form or empty POST bodies, no preflight) and, through
 * DNS rebinding, even read the answers under the page's own host name. So a control request is refused
 * unless all of these hold, and its answers carry no CORS header:
 *
 * - it comes from a loopback peer: started with `--host 0.0.0.0`, the sandbox serves the network, but
 *   its control plane does not, whatever Host header a remote caller writes;
 * - its Host names a loopback address (`localhost`, 127.0.0.0/8, ::1) or the address it reached the
 *   server on: a rebound page sends its own host name;
 * - its Origin, when it has one, is the sandbox's own (`http://` + Host), and `Sec-Fetch-Site`, when
 *   sent, says same-origin or none: browsers send these on every cross-origin request;
 * - a POST says `Content-Type: application/json`, which no page can send to another origin without a
 *   preflight, and the control plane answers no preflight.
 *
 * No token: what a token adds is protection from other processes on this machine, which reach the
 * sandbox's WebSocket and HTTP API as it is; every caller would have to carry it for that.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { stripV6 } from './accounts';
import type { ControlReply } from './control';

/** The host part of a Host header: lower-cased, without its port or an IPv6 literal's brackets; null when malformed. */
export function hostOf(header: string): string | null {
  const h = header.trim().toLowerCase();
  const m = /^\[([0-9a-f:.]+)\](?::[0-9]{1,5})?$/.exec(h) ?? /^([^:[\]\s/@]+)(?::[0-9]{1,5})?$/.exec(h);
  return m ? m[1]! : null;
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

const text = (v: string | string[] | undefined) => JSON.stringify(Array.isArray(v) ? v.join(', ') : (v ?? null));

const refuse = (status: number, error: string): ControlReply => ({ status, body: { error } });

/**
 * Why this control request is refused (403 or 415 with the reason), or null when it may be served.
 * `listenHost` is the host the sandbox was started on (a name, when it was given one).
 */
export function refuseControl(req: IncomingMessage, listenHost: string): ControlReply | null {
  const peer = stripV6(req.socket.remoteAddress ?? '');
  if (!isLoopback(peer))
    return refuse(
      403,
      `the control plane answers only this machine (a loopback peer); this request ` +
        `came from ${text(peer).slice(0, 60)}`,
    );
  const header = req.headers.host;
  // HTTP/1.0 may omit Host; no browser does, and Node refuses an HTTP/1.1 request without one.
  if (header !== undefined) {
    const host = hostOf(header);
    const own = new Set([listenHost.toLowerCase(), stripV6(req.socket.localAddress ?? '').toLowerCase()]);
    if (host === null || !(isLoopback(host) || own.has(host)))
      return refuse(
        403,
        `the control plane answers only requests addressed to a loopback host or ` +
          `to its own address (Host ${text(header).slice(0, 120)})`,
      );
  }
  const origin = req.headers.origin;
  if (origin !== undefined && (header === undefined || origin.toLowerCase() !== `http://${header.toLowerCase()}`))
    return refuse(
      403,
      `the control plane refuses cross-origin requests (Origin ${text(origin).slice(0, 120)}` +
        ` is not this sandbox's own, http://${header ?? '<its host>'})`,
    );
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return refuse(403, `the control plane refuses cross-site requests (Sec-Fetch-Site ${text(site).slice(0, 60)})`);
  const type = req.headers['content-type'];
  if (req.method === 'POST' && (type ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/json')
    return refuse(415, `control requests must be Content-Type application/json (got ${text(type).slice(0, 80)})`);
  return null;
}
