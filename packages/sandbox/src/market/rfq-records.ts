/**
 * The RFQ desk's open RFQs and quotes as text, for a fleet's next desk owner (redis/rfq-keep.ts): the
 * records as the desk keeps them, each leg's instrument by name and money as decimal text. Only what
 * is open moves: closed records stay with the reads of the member that served them.
 */
import type { Instruments } from './instruments';
import { isOpen, type QuoteEntry, type RfqBook, type RfqEntry } from './rfq-book';

/** A record's field in the kept hash: `rfq:ID` or `quote:ID`. */
type Kept = [field: string, record: string];

const BIG = '$big';

/** Legs' instruments by name, money as `{ $big: text }`. */
function write(key: string, v: unknown): unknown {
  if (typeof v === 'bigint') return { [BIG]: v.toString() };
  return key === 'inst' ? (v as { cfg: { instrument_name: string } }).cfg.instrument_name : v;
}

/** The open RFQs of the book and their open quotes, as kept. */
export function openRecords(book: RfqBook): Kept[] {
  const rfqs = book.rfqsWhere(isOpen).reverse();
  const quotes = rfqs.flatMap((e) => book.openQuotesOf(e));
  return [
    ...rfqs.map((e): Kept => [`rfq:${e.id}`, JSON.stringify({ ...e, quotes: [] }, write)]),
    ...quotes.map((q): Kept => [`quote:${q.id}`, JSON.stringify(q, write)]),
  ];
}

/** Read a kept record back; null when it names an instrument not listed here (the fleet's config agrees). */
function read<T>(text: string, instruments: Instruments): T | null {
  let unknown = false;
  const value = JSON.parse(text, (key, v: unknown) => {
    if (typeof v === 'object' && v !== null && BIG in v) return BigInt((v as Record<string, string>)[BIG]!);
    if (key !== 'inst') return v;
    const inst = typeof v === 'string' ? instruments.get(v) : undefined;
    if (!inst) unknown = true;
    return inst;
  }) as T;
  return unknown ? null : value;
}

/**
 * Put kept records into the book, oldest first, RFQs before their quotes (nothing is pushed); one it
 * already holds (made here while the records were being read) stays as it is.
 */
export function restoreRecords(book: RfqBook, instruments: Instruments, kept: Record<string, string>): void {
  const rfqs: RfqEntry[] = [];
  const quotes: QuoteEntry[] = [];
  for (const [field, text] of Object.entries(kept)) {
    const rfq = field.startsWith('rfq:') ? read<RfqEntry>(text, instruments) : null;
    const quote = field.startsWith('quote:') ? read<QuoteEntry>(text, instruments) : null;
    if (rfq) rfqs.push(rfq);
    if (quote) quotes.push(quote);
  }
  for (const e of rfqs.sort((a, b) => a.created - b.created)) if (!book.rfq(e.id)) book.addRfq({ ...e, quotes: [] });
  for (const q of quotes.sort((a, b) => a.created - b.created))
    if (book.rfq(q.rfqId) && !book.quote(q.id)) book.addQuote(q);
}
