// The Markdown the contract's descriptions use, as HTML: headings, paragraphs, lists, tables,
// `code` and **bold**. Everything else stays text; all of it is escaped, and nothing becomes a link.

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** `headingOffset` moves `#` headings down to fit the page around them (`##` with 1 becomes `<h3>`). */
export function markdownHtml(markdown: string | undefined, headingOffset = 0): string {
  if (!markdown) return '';
  const html: string[] = [];
  const lines = markdown.replace(/\s+$/, '').split('\n');
  let i = 0;
  while (i < lines.length) {
    if (lines[i]!.trim() === '') {
      i++;
      continue;
    }
    const block = blockAt(lines, i, headingOffset);
    html.push(block.html);
    i = block.next;
  }
  return html.join('\n');
}

/** A block's HTML and the index of the line after it. */
interface Block {
  html: string;
  next: number;
}

/** The block that starts at a line that is not blank. */
function blockAt(lines: readonly string[], start: number, headingOffset: number): Block {
  const line = lines[start]!;
  const heading = /^(#{1,6})\s+(.*)$/.exec(line);
  if (heading) {
    const level = Math.min(6, heading[1]!.length + headingOffset);
    return { html: `<h${level}>${inlineHtml(heading[2]!)}</h${level}>`, next: start + 1 };
  }
  if (/^\s*\|/.test(line)) return tableBlock(lines, start);
  if (/^\s*([-*]|\d+\.)\s/.test(line)) return listBlock(lines, start);
  return paragraphBlock(lines, start);
}

function tableBlock(lines: readonly string[], start: number): Block {
  const rows: string[] = [];
  let i = start;
  while (i < lines.length && /^\s*\|/.test(lines[i]!)) rows.push(lines[i++]!);
  return { html: tableHtml(rows), next: i };
}

/** A list runs to the next blank line; a line that starts no item continues the one before. */
function listBlock(lines: readonly string[], start: number): Block {
  const ordered = /^\s*\d+\./.test(lines[start]!);
  const items: string[] = [];
  let i = start;
  while (i < lines.length && lines[i]!.trim() !== '') {
    const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(lines[i]!);
    if (item) items.push(item[1]!);
    else items[items.length - 1] += ` ${lines[i]!.trim()}`;
    i++;
  }
  const tag = ordered ? 'ol' : 'ul';
  return { html: `<${tag}>${items.map((item) => `<li>${inlineHtml(item)}</li>`).join('')}</${tag}>`, next: i };
}

/** A paragraph runs to the next blank line or the start of a heading, table or list. */
function paragraphBlock(lines: readonly string[], start: number): Block {
  const paragraph: string[] = [];
  let i = start;
  while (i < lines.length && lines[i]!.trim() !== '' && !/^(#{1,6}\s|\s*\||\s*([-*]|\d+\.)\s)/.test(lines[i]!)) {
    paragraph.push(lines[i++]!.trim());
  }
  return { html: `<p>${inlineHtml(paragraph.join(' '))}</p>`, next: i };
}

function tableHtml(rows: string[]): string {
  const cells = (row: string) =>
    row
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((cell) => cell.trim());
  const [head, , ...body] = rows;
  const header = `<tr>${cells(head!)
    .map((cell) => `<th>${inlineHtml(cell)}</th>`)
    .join('')}</tr>`;
  const data = body.map(
    (row) =>
      `<tr>${cells(row)
        .map((cell) => `<td>${inlineHtml(cell)}</td>`)
        .join('')}</tr>`,
  );
  return `<table><thead>${header}</thead><tbody>${data.join('')}</tbody></table>`;
}

/** Code spans first, so that `**` inside one stays as written. */
function inlineHtml(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part, index) =>
      index % 2 === 1 ? `<code>${escapeHtml(part.slice(1, -1))}</code>` : escapeHtml(part).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>'),
    )
    .join('');
}
