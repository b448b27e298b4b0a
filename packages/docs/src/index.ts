/**
 * The docs package is data: the generated site (HTML + Markdown) under `site/`. This entry tells a
 * program where that folder is, so a tool can serve or copy it without guessing install paths.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The absolute path of the generated site folder (index.html, md/, assets/). */
export const siteDir: string = join(dirname(fileURLToPath(import.meta.url)), '..', 'site');
