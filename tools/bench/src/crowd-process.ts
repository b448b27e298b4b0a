/**
 * A crowd of subscribed connections (ws-load's Crowd) in a child process of its own, so that receiving
 * thousands of pushes a second never delays the benchmark's probe (its event loop) nor caps what one
 * event loop can read. The child is started once and filled, counted and emptied on request, as often
 * as a benchmark likes; it exits on `stop` or when the parent goes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Crowd } from './ws-load';

interface CrowdSpec {
  url: string;
  connections: number;
  channels: string[];
}

/** Frames received and milliseconds elapsed since the previous count. */
export interface Count {
  received: number;
  ms: number;
}

type Ask = { type: 'fill'; spec: CrowdSpec } | { type: 'count' } | { type: 'empty' } | { type: 'stop' };

/** Runs in the child: one crowd at a time, filled and emptied on request; every ask is answered. */
function crowdInChild(): void {
  process.on('disconnect', () => process.exit(0));
  let crowd: Crowd | null = null;
  let since = performance.now();
  const answer = (m: object) => process.send!({ type: 'done', ...m });
  process.on('message', async (m: Ask) => {
    if (m.type === 'stop') return (crowd?.close(), process.exit(0));
    if (m.type === 'empty') return (crowd?.close(), (crowd = null), answer({}));
    if (m.type === 'fill') {
      crowd?.close();
      crowd = null;
      try {
        crowd = await Crowd.open(m.spec.url, m.spec.connections, m.spec.channels);
      } catch (err) {
        return answer({ error: (err as Error).message });
      }
    }
    const now = performance.now();
    answer({ received: crowd?.received ?? 0, ms: now - since });
    if (crowd) crowd.received = 0;
    since = now;
  });
  process.send!({ type: 'done' });
}

if (process.env.EXCHANGE_API_BENCH_CROWD === '1') crowdInChild();

export class CrowdProcess {
  private constructor(private readonly child: ChildProcess) {}

  /** Start the child, with no connection yet. */
  static start(): Promise<CrowdProcess> {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: process.execArgv,
      env: { ...process.env, EXCHANGE_API_BENCH_CROWD: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const crowd = new CrowdProcess(child);
    return crowd.reply().then(() => crowd);
  }

  private reply(): Promise<Count> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the crowd did not answer within 120 s')), 120_000);
      const onExit = (code: number | null) => (clearTimeout(timer), reject(new Error(`the crowd exited ${code}`)));
      this.child.once('exit', onExit);
      this.child.once('message', (m: Count & { error?: string }) => {
        clearTimeout(timer);
        this.child.off('exit', onExit);
        if (m.error) reject(new Error(`the crowd could not open: ${m.error}`));
        else resolve(m);
      });
    });
  }

  private ask(m: Ask): Promise<Count> {
    const replied = this.reply();
    this.child.send(m);
    return replied;
  }

  /** Open `connections` connections to `url`, each subscribed to `channels` (the previous ones closed first). */
  async fill(url: string, connections: number, channels: string[]): Promise<void> {
    await this.ask({ type: 'fill', spec: { url, connections, channels } });
  }

  /** What the crowd received since the last count (or since it was filled). */
  count(): Promise<Count> {
    return this.ask({ type: 'count' });
  }

  /** Close every connection; the child stays for the next fill. */
  async empty(): Promise<void> {
    await this.ask({ type: 'empty' });
  }

  /** Close every connection and wait for the child to exit (killed after 10 s). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    if (this.child.connected) this.child.send({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
