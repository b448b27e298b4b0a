/**
 * The rules for changes inside schemas, whose verdict depends on which way the data flows: what
 * clients send (`input`) breaks old clients when it narrows and old servers when it widens; what
 * servers send (`output`) the other way round.
 */
import { v, type Flow, type Verdict } from './severity';

export const FLOW_RULES = {
  'type.shape-stated': {
    input: v(
      'breaking',
      'safe',
      'clients may have sent any shape; the stated one may refuse theirs. An old server took anything.',
    ),
    output: v(
      'safe',
      'breaking',
      'clients read an open value and now get a typed one; an old server may send another shape.',
    ),
  },
  'type.union-narrowed': {
    input: v('breaking', 'safe', 'clients that sent another branch are refused; an old server takes the one kept.'),
    output: v(
      'safe',
      'breaking',
      'clients get one branch of what they handled (code narrowing the union still ' +
        'compiles); an old server may send another.',
    ),
  },
  'field.added-required': {
    input: v('breaking', 'safe', 'clients must send a field old clients do not know; an old server ignores it.'),
    output: v('safe', 'breaking', 'clients get a field more and may ignore it; an old server does not send it.'),
  },
  'field.added-required-closed': {
    input: v(
      'breaking',
      'breaking',
      'clients must send a field old clients do not know; the record was closed, so an old server refuses it.',
    ),
    output: v(
      'dangerous',
      'breaking',
      'the record was closed: old clients validating strictly refuse the field ' +
        'they do not know; an old server does not send it.',
    ),
  },
  'field.added-optional': {
    input: v(
      'safe',
      'dangerous',
      'clients may send it; an old server ignores it (the record is open), so what it asks for does not happen.',
    ),
    output: v('safe', 'safe', 'clients may ignore it; servers need not send it.'),
  },
  'field.added-optional-closed': {
    input: v('safe', 'breaking', 'clients may send it, but the record was closed: an old server refuses it.'),
    output: v(
      'dangerous',
      'safe',
      'the record was closed: old clients validating strictly refuse the field ' +
        'they do not know; servers need not send it.',
    ),
  },
  'field.removed': {
    input: v(
      'breaking',
      'safe',
      'clients that send it are refused by a closed record, and it leaves the type; an old server may still read it.',
    ),
    output: v(
      'breaking',
      'safe',
      'clients that read it get nothing, and it leaves the type; an old server ' +
        'still sends it (extra fields are allowed).',
    ),
  },
  'field.removed-required': {
    input: v(
      'breaking',
      'breaking',
      'the field was required: it leaves the type, and an old server still demands ' +
        'it from clients that no longer send it.',
    ),
    output: v(
      'breaking',
      'safe',
      'clients that read it get nothing, and it leaves the type; an old server ' +
        'still sends it (extra fields are allowed).',
    ),
  },
  'field.made-required': {
    input: v('breaking', 'safe', 'clients that leave it out are refused; an old server accepts it either way.'),
    output: v('safe', 'breaking', 'clients can count on it; an old server may leave it out.'),
  },
  'field.made-optional': {
    input: v('safe', 'breaking', 'clients may leave it out; an old server requires it.'),
    output: v(
      'breaking',
      'safe',
      'clients that count on it may find it missing; the generated property becomes ' +
        'optional, so strict code no longer compiles.',
    ),
  },
  'field.made-nullable': {
    input: v('safe', 'breaking', 'clients may send null; an old server refuses it.'),
    output: v(
      'breaking',
      'safe',
      'clients may get null where they expected a value; the generated type now admits null.',
    ),
  },
  'field.made-non-nullable': {
    input: v('breaking', 'safe', 'clients sending null are refused; the generated type no longer admits null.'),
    output: v('safe', 'breaking', 'clients never get null again; an old server may still send it.'),
  },
  'field.type-changed': {
    input: v(
      'breaking',
      'breaking',
      'the field holds another type: old clients send the old one, old servers expect it.',
    ),
    output: v(
      'breaking',
      'breaking',
      'the field holds another type: old clients read the old one, old servers send it.',
    ),
  },
  'enum.value-added': {
    input: v('safe', 'breaking', 'clients may send a value an old server refuses.'),
    output: v(
      'dangerous',
      'safe',
      'clients that switch over the values exhaustively meet one they do not handle ' +
        '(it compiles; the switch falls through).',
    ),
  },
  'enum.value-removed': {
    input: v('breaking', 'safe', 'clients sending the value are refused, and it leaves the generated union.'),
    output: v(
      'breaking',
      'breaking',
      'the value leaves the generated union, so code that names it (a comparison, ' +
        'a case) no longer compiles after regenerating; an old server may still send it.',
    ),
  },
  'constraint.narrowed': {
    input: v(
      'breaking',
      'safe',
      'values clients sent before (a longer string, more decimals, a bigger number) ' +
        'are refused now; an old server still accepts them.',
    ),
    output: v(
      'safe',
      'breaking',
      'clients get a subset of what they accepted; an old server may send values outside the new bounds.',
    ),
  },
  'constraint.widened': {
    input: v('safe', 'breaking', 'clients may send values an old server refuses.'),
    output: v(
      'dangerous',
      'safe',
      'clients get values their old validators refuse (strict validation drops them; parsing may lose precision).',
    ),
  },
  'constraint.changed': {
    input: v(
      'dangerous',
      'dangerous',
      'the allowed values moved (neither a subset nor a superset is certain): review both ends.',
    ),
    output: v(
      'dangerous',
      'dangerous',
      'the allowed values moved (neither a subset nor a superset is certain): review both ends.',
    ),
  },
  'union.variant-added': {
    input: v('safe', 'breaking', 'clients may send a shape an old server refuses.'),
    output: v(
      'dangerous',
      'safe',
      'clients may get a shape they do not handle (the generated union widens; ' +
        'code that narrows it exhaustively falls through).',
    ),
  },
  'union.variant-removed': {
    input: v('breaking', 'safe', 'clients sending that shape are refused, and it leaves the generated union.'),
    output: v(
      'breaking',
      'breaking',
      'the shape leaves the generated union, so code that builds or names it no ' +
        'longer compiles; an old server may still send it.',
    ),
  },
  'record.closed': {
    input: v('breaking', 'safe', 'fields beyond those listed are refused now: clients sending extras fail.'),
    output: v('safe', 'breaking', 'an old server may send fields the record no longer allows.'),
  },
  'record.opened': {
    input: v('safe', 'breaking', 'clients may send extra fields an old server refuses.'),
    output: v('dangerous', 'safe', 'clients may get fields they do not know (strict validation flags them).'),
  },
  'record.pattern-fields-changed': {
    input: v(
      'breaking',
      'breaking',
      'the fields a closed record takes by name pattern (patternProperties) changed: ' +
        'fields it refused may now be sent, which an old server refuses, and listed ' +
        'fields a pattern matches may be held to more, which refuses values old clients send.',
    ),
    output: v(
      'dangerous',
      'breaking',
      'the fields a closed record takes by name pattern (patternProperties) changed: ' +
        'clients validating strictly may meet fields they do not know; an old server ' +
        'may send fields or values the new patterns do not allow.',
    ),
  },
} satisfies Record<string, Record<Flow, Verdict>>;
