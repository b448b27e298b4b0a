/**
 * The judgements of what was pushed, from the addresses' ledgers after the sample window: per receive
 * operation (`messages.receive.<operation>`: every message of it valid; none seen in the whole run is no
 * evidence) and per address (`messages.address.<channel>`: every frame there a message of a receive
 * operation or a reply to an open request).
 */
import { MSG_RULES } from './rules';
import type { Ledger } from './ledger';
import type { WireOperationShape } from './wire-shape';
import type { CheckStatus, Finding, Observation, TargetCounts } from '../model';
import { zeroCounts } from '../generate/counts';

export interface Observed {
  id: string;
  title: string;
  status: CheckStatus;
  reason?: string;
  findings: Finding[];
  counts: TargetCounts;
  observations?: Observation[];
}

export function receiveCheck(ledger: Ledger, op: WireOperationShape): Observed {
  const t = ledger.byOp.get(op.id)!;
  const id = `messages.receive.${op.id}`;
  const counts = { ...zeroCounts(id, op.id, 'channel', 'ws'), valid: t.valid + t.invalidCount };
  counts.pass = t.valid;
  counts.fail = t.invalidCount;
  const title = `the messages of ${op.id} validate against their schema`;
  const findings: Finding[] = t.invalid.map((x) => ({
    pointer: '/',
    ruleId: 'messages.push-conforms',
    rule: MSG_RULES['push-conforms'],
    expected: `a valid ${x.message.split('/').at(-1)}`,
    got: `${x.text.slice(0, 200)}: ${x.why}`,
    message: `${op.id} at ${ledger.address.url}`,
  }));
  if (t.invalidCount > 0)
    return { id, title, status: 'fail', reason: `${t.invalidCount} of ${counts.valid} invalid`, findings, counts };
  if (t.valid === 0)
    return {
      id,
      title,
      status: 'inconclusive',
      reason: `none arrived at ${ledger.address.url} in the run`,
      findings,
      counts,
    };
  return { id, title, status: 'pass', findings, counts };
}

export function addressCheck(ledger: Ledger): Observed {
  const id = `messages.address.${ledger.address.channels[0]}`;
  const counts = { ...zeroCounts(id, ledger.address.url, 'channel', 'ws'), valid: ledger.frames };
  counts.fail = ledger.unknownCount;
  counts.pass = ledger.frames - ledger.unknownCount;
  const title = `every message at ${ledger.address.url} belongs to an operation there`;
  const receives = receiveIds(ledger);
  const findings: Finding[] = ledger.unknown.map(({ text, json }) => ({
    pointer: '/',
    ruleId: 'messages.no-unasked-message',
    rule: MSG_RULES['no-unasked-message'],
    expected: receives
      ? `a message of ${receives}`
      : 'only replies to requests (no receive operation is declared there)',
    got: text.slice(0, 200),
    // A frame that is no JSON is named as such: it cannot be a message of any operation.
    message: json
      ? `a message of no receive operation at ${ledger.address.url}`
      : `a frame that is no JSON at ${ledger.address.url} (the spec's messages are JSON)`,
  }));
  if (ledger.unknownCount > 0)
    return {
      id,
      title,
      status: 'fail',
      reason: `${ledger.unknownCount} message${ledger.unknownCount === 1 ? '' : 's'} of no receive operation there`,
      findings,
      counts,
    };
  if (ledger.frames === 0)
    return { id, title, status: 'inconclusive', reason: 'nothing arrived there in the run', findings, counts };
  return { id, title, status: 'pass', findings, counts };
}

/** The ids of the receive operations at a ledger's address, for a message. */
function receiveIds(ledger: Ledger): string {
  return ledger.address.receives.map((o) => o.id).join(', ');
}
