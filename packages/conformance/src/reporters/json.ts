/** The JSON report: the Report object as is (format 'exchange-api-conformance-report', version 1). */
import type { Report } from '../model';

/** The report as indented JSON text; the shape is documented in the package README. */
export function jsonReport(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
