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
    const line = lines[i]!;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (line.trim() === '') {
      i++;
    } else if (heading) {
      const level = Math.min(6, heading[1]!.length + headingOffset);
      html.push(`<h${level}>${inlineHtml(heading[2]!)}</h${level}>`);
      i++;
    } else if (/^\s*\|/.test(line)) {
      const rows: string[] = [];
      while (i < lines.length && /^\s*\|/.test(lines[i]!)) rows.push(lines[i++]!);
      html.push(tableHtml(rows));
    } else if (/^\s*([-*]|\d+\.)\s/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: string[] = [];
      while (i < lines.length && lines[i]!.trim() !== '') {
        const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(lines[i]!);
        if (item) items.push(item[1]!);
        else items[items.length - 1] += ` ${lines[i]!.trim()}`;
        i++;
      }
      const tag = ordered ? 'ol' : 'ul';
      html.push(`<${tag}>${items.map((item) => `<li>${inlineHtml(item)}</li>`).join('')}</${tag}>`);
    } else {
      const paragraph: string[] = [];
      while (i < lines.length && lines[i]!.trim() !== '' && !/^(#{1,6}\s|\s*\||\s*([-*]|\d+\.)\s)/.test(lines[i]!)) {
        paragraph.push(lines[i++]!.trim());
      }
      html.push(`<p>${inlineHtml(paragraph.join(' '))}</p>`);
    }
  }
  return html.join('\n');
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
