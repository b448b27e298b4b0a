/**
 * One message sent and judged. A request (an operation with a reply) gets its correlation field filled
 * with a value of its own and waits, within the bound, for the frame that carries that value where the
 * reply carries it (without a correlation id: the next frame that fits the reply and is no message of a
 * receive operation there); a frame that fits the reply but carries another value, or none, is kept as
 * evidence. A reply that does not come within the bound fails: the spec declares it.
 */
import { valueAt, withValueAt } from '@exchange-api/types/wire-frame';
import { classify } from './classify';
import { judged } from './rules';
import { toJson } from '../generate/schema-set';
import { addressOfOp } from './addresses';
import type { MsgEnv } from './env';
import type { InFrame, MsgSocket } from './socket';
import type { WireOperationShape } from './wire-shape';
import type { Judgement } from '../model';

export interface Exchanged {
  sent: string;
  received: string[];
  verdict: Judgement;
}

const quote = (t: string) => (t.length > 160 ? `${t.slice(0, 160)}…` : t);

/** The request's payload with its correlation field filled, and the value (null: the spec declares none). */
export function correlated(env: MsgEnv, op: WireOperationShape, payload: unknown) {
  if (op.correlation === null) return { payload, value: null };
  const value = env.nextCorrelation(op.correlationType);
  return { payload: withValueAt(payload, op.correlation, value), value };
}

/** What a reply waiter decides of one frame. */
type Seen = { kind: 'reply'; valid: boolean; why: string } | { kind: 'stray' } | { kind: 'pass' };

function judgeFrame(env: MsgEnv, op: WireOperationShape, value: unknown, f: InFrame): Seen {
  const reply = op.reply!;
  const pointer = reply.correlation ?? op.correlation;
  if (f.value === undefined) return { kind: 'pass' };
  const m = classify(env.spec, env.schemas, reply.messages, f.value);
  const carries = pointer !== null && value !== null && Object.is(valueAt(f.value, pointer), value);
  if (!carries && env.ledger(addressOfOp(env.addresses, op)).isPush(f)) return { kind: 'pass' };
  if (carries || (pointer === null && m)) {
    const why = m ? m.why : `none of ${reply.messages.map((id) => env.spec.message(id).key).join(', ')}`;
    return { kind: 'reply', valid: m?.valid ?? false, why };
  }
  return m ? { kind: 'stray' } : { kind: 'pass' };
}

/**
 * What the bound ending without a reply says: a reply that did not carry the value, or nothing (or a
 * close); a frame that was no JSON is named, since it may have been meant as the reply.
 */
function noReply(sock: MsgSocket, strays: string[], garbage: string[], expected: string): Judgement {
  if (strays.length > 0)
    return judged('reply-correlated', 'fail', expected, `only a reply without that value: ${quote(strays[0]!)}`);
  const got = sock.closed
    ? `the connection closed (code ${sock.closed.code})`
    : garbage.length > 0
      ? `only a frame that is no JSON: ${quote(garbage[0]!)}`
      : 'nothing';
  return judged('reply-within-bound', 'fail', expected, got);
}

const closedBy = (sock: MsgSocket, expected: string): Judgement =>
  judged(
    'connection-kept',
    'fail',
    expected,
    `the connection closed (code ${sock.closed!.code} ${sock.closed!.reason})`,
  );

/** Wait for the reply to a request about to be sent (`send` sends it once the waiter is in place). */
function awaitReply(
  env: MsgEnv,
  op: WireOperationShape,
  sock: MsgSocket,
  r: { value: unknown; expected: string; received: string[]; send: () => boolean },
): Promise<Judgement> {
  const address = addressOfOp(env.addresses, op);
  const strays: string[] = [];
  const garbage: string[] = [];
  return new Promise<Judgement>((resolve) => {
    let done = false;
    const finish = (j: Judgement) => {
      if (done) return;
      done = true;
      off();
      clearTimeout(timer);
      resolve(j);
    };
    const off = sock.offer((f) => {
      if (f.value === undefined) garbage.push(f.text);
      const seen = judgeFrame(env, op, r.value, f);
      if (seen.kind === 'pass') return false;
      env.ledger(address).taken();
      if (seen.kind === 'stray') strays.push(f.text);
      else {
        r.received.push(f.text);
        const text = quote(f.text);
        if (seen.valid) finish(judged('reply-conforms', 'pass', r.expected, text));
        else finish(judged('reply-conforms', 'fail', 'a valid reply message', `${text}: ${seen.why}`));
      }
      return true;
    });
    const timer = setTimeout(
      () => (r.received.push(...strays), finish(noReply(sock, strays, garbage, r.expected))),
      env.o.replyMs,
    );
    void sock.closedWithin(env.o.replyMs).then((closed) => closed && finish(closedBy(sock, r.expected)));
    if (!r.send())
      finish(judged('connection-kept', 'fail', r.expected, 'the connection was closed before the request'));
  });
}

/** Send a request and judge its reply. */
export async function request(env: MsgEnv, op: WireOperationShape, input: unknown): Promise<Exchanged> {
  const sock = await env.socket(addressOfOp(env.addresses, op), 'main');
  const { payload, value } = correlated(env, op, input);
  const sent = toJson(payload);
  const at = op.reply!.correlation ?? op.correlation;
  const bound = `within ${env.o.replyMs} ms`;
  const expected = at && value !== null ? `a reply with ${at} = ${JSON.stringify(value)} ${bound}` : `a reply ${bound}`;
  const received: string[] = [];
  const verdict = await awaitReply(env, op, sock, { value, expected, received, send: () => sock.send(sent) });
  return { sent, received, verdict };
}

/** Send a message no reply is declared for; the connection staying open is judged by the caller. */
export async function post(env: MsgEnv, op: WireOperationShape, input: unknown, kind: 'main' | 'scratch') {
  const sock = await env.socket(addressOfOp(env.addresses, op), kind);
  const sent = toJson(input);
  sock.send(sent);
  return { sock, sent };
}
