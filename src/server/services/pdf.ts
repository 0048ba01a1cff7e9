/**
 * A small PDF writer for plain text documents (the demo's and the tests' attachments): A4 pages of Helvetica in the
 * WinAnsi encoding, which covers Spanish. Headings are lines that start with '# '.
 */
export function textPdf(title: string, lines: string[]): Buffer {
  const pageHeight = 842;
  const top = 790;
  const bottom = 60;
  const pages: string[][] = [[]];
  let y = top;
  const pdfString = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const wrap = (text: string, width: number) => {
    const out: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      if ((line + word).length > width) {
        out.push(line.trimEnd());
        line = '';
      }
      line += `${word} `;
    }
    out.push(line.trimEnd());
    return out;
  };
  const emit = (text: string, size: number, gap: number) => {
    if (y - gap < bottom) {
      pages.push([]);
      y = top;
    }
    y -= gap;
    pages[pages.length - 1].push(
      `BT /F${size > 12 ? 2 : 1} ${size} Tf 56 ${y} Td (${pdfString(text)}) Tj ET`,
    );
  };
  emit(title, 18, 0);
  y -= 10;
  for (const line of lines) {
    if (line.startsWith('# ')) emit(line.slice(2), 13, 26);
    else if (!line) y -= 8;
    else for (const part of wrap(line, 92)) emit(part, 10, 14);
  }

  const objects: string[] = [];
  const add = (body: string) => objects.push(body) && objects.length;
  const catalog = add('');
  const pagesRoot = add('');
  const regular = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const kids: number[] = [];
  for (const content of pages) {
    const stream = content.join('\n');
    const contents = add(
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    );
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesRoot} 0 R /MediaBox [0 0 595 ${pageHeight}] /Resources << /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >> >> /Contents ${contents} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesRoot} 0 R >>`;
  objects[pagesRoot - 1] =
    `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
