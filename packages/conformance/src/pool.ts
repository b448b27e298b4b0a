/**
 * The connections of one check: opened within the per-IP budget (the guard), recorded in the check's
 * transcript, closed when the check ends or is stopped. A stopped check can open no connection.
 */
import { WsConn } from './connection';
import { stoppedBy } from './outcome';
import type { ConnectionGuard } from './guard';
import type { Transcript } from './transcript';

/** How long opening one connection may take. */
const OPEN_TIMEOUT_MS = 5000;

/** The WebSockets one check (or probe) opened. */
export class ConnectionPool {
  private readonly conns: WsConn[] = [];
  private count = 0;
  /** Why opening a connection failed, when it did (the runner asks whether the server is still there). */
  connectFailure: string | null = null;

  constructor(
    private readonly url: string,
    private readonly guard: ConnectionGuard,
    private readonly transcript: Transcript,
    private readonly signal: AbortSignal,
    private readonly labelBase: string,
  ) {}

  /**
   * Open a WebSocket within the connection budget (to `url`, default the run's); rejects with the reason when it cannot
   * be opened.
   */
  async open(label?: string, url = this.url): Promise<WsConn> {
    if (this.signal.aborted) throw stoppedBy(this.signal);
    await this.guard.acquire();
    if (this.signal.aborted) {
      this.guard.release();
      throw stoppedBy(this.signal);
    }
    let conn: WsConn;
    try {
      conn = await this.openOne(label ?? `${this.labelBase}#${++this.count}`, url);
    } catch (err) {
      this.guard.release();
      throw err;
    }
    void conn.closed.then(() => this.guard.release());
    return this.keep(conn);
  }

  /** Open a WebSocket outside the budget guard (only the connection-limit check may). */
  async openUnguarded(label: string, url = this.url): Promise<WsConn> {
    if (this.signal.aborted) throw stoppedBy(this.signal);
    return this.keep(await this.openOne(label, url));
  }

  /** Whether a connection of this pool was lost abruptly (closed without a close frame: code 1006). */
  get lostAbruptly(): boolean {
    return this.conns.some((c) => c.closeInfo?.code === 1006);
  }

  /** Close every connection of this pool. */
  async closeAll(): Promise<void> {
    await Promise.all(this.conns.map((c) => c.close()));
  }

  private async openOne(label: string, url: string): Promise<WsConn> {
    try {
      return await WsConn.open(url, this.transcript, label, OPEN_TIMEOUT_MS, this.signal);
    } catch (err) {
      if (this.signal.aborted) throw stoppedBy(this.signal);
      this.connectFailure = (err as Error).message;
      throw err;
    }
  }

  private async keep(conn: WsConn): Promise<WsConn> {
    this.conns.push(conn);
    if (this.signal.aborted) {
      await conn.close();
      throw stoppedBy(this.signal);
    }
    return conn;
  }
}
