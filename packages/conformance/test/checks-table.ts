/** The README's table of checks, generated from the registry (the README test keeps them equal). */
import { registry } from '../src/checks';

export function checksTable(): string {
  const rows = registry.map(
    (c) =>
      `| \`${c.id}\` | ${c.level} | ${c.needs.length ? c.needs.join(', ') : '–'}` +
      ` | ${c.section.replace(/\|/g, '\\|')} | ${c.title.replace(/\|/g, '\\|')} |`,
  );
  return ['| id | level | needs | section | rule |', '|---|---|---|---|---|', ...rows].join('\n');
}
