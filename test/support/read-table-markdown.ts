/** The read tables as docs/economy.md shows them: one Markdown row per row of the code's table. */
import type { Row } from '../../src/reads/read-table.js';

const HEADER = ['| entry | place | upstream | day | action | why |', '|---|---|---|---|---|---|'];

export function readTableMarkdown(rows: readonly Row[]): string {
  const cell = (values: readonly string[] | '*') =>
    values === '*' ? 'any' : values.map((value) => `\`${value}\``).join(', ');
  return [
    ...HEADER,
    ...rows.map(
      (row) =>
        `| ${cell(row.state)} | ${cell(row.place)} | ${cell(row.condition)} | ${cell(row.allowance)} | \`${row.action}\` | ${row.why} |`,
    ),
  ].join('\n');
}
