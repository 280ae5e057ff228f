import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { formatCents } from '../../../shared/money';

// The year-end giving statement as a PDF (issue 26), drawn with pdf-lib in its standard Helvetica:
// nothing to embed, so the file stays a few kilobytes. A US Letter page on its side holds 40
// donations under the table's header; more continue on the next page under the header again.
// Then the totals by charity with their EINs, the tax-deductible total and the wording a US donor
// needs for a contribution they received something for (IRS Publication 1771: a written statement
// saying whether goods or services were given in exchange, and their value).

export type StatementLine = {
  date: string;
  fundraiser: string;
  charity: string;
  ein: string;
  donationCents: number;
  feeCoverCents: number;
  tipCents: number;
  refundedCents: number;
  /** The album's fair market value (the fundraiser's minimum); null where no goods were kept. */
  goodsCents: number | null;
  taxDeductibleCents: number;
};

export type StatementContent = {
  siteName: string;
  contactEmail: string;
  postalAddress: string;
  year: number;
  issuedOn: string;
  donorName: string;
  donorEmail: string;
  lines: StatementLine[];
  byCharity: { charityName: string; ein: string; taxDeductibleCents: number }[];
  taxDeductibleCents: number;
};

export const LINES_PER_PAGE = 40;

export const STATEMENT_WORDING = {
  goods:
    "No goods or services were provided in exchange, other than the albums listed, whose fair market value is the fundraiser's minimum shown for each donation.",
  deductible:
    "The tax-deductible part of each donation is what its charity kept (the donation and any card fee you covered, less the charity's share of any refund or dispute: a refund comes back from the donation and the tip in proportion) above that value.",
  tips: (siteName: string) =>
    `Tips to ${siteName}, and gifts to ${siteName} itself, are not contributions to a charity and are not tax-deductible. Keep this statement with your tax records.`,
};

const WIDTH = 792;
const HEIGHT = 612;
const MARGIN = 36;
/** Lowest baseline for content: the page's footer sits below it. */
const BOTTOM = 44;
const ROW = 10.5;
const SIZE = 8;
const INK = rgb(0.11, 0.08, 0.19);
const MUTED = rgb(0.42, 0.39, 0.5);
const RULE = rgb(0.8, 0.78, 0.86);

type Column = { label: string; width: number; align: 'left' | 'right'; cell: (line: StatementLine) => string };

const money = (cents: number) => formatCents(cents);
const COLUMNS: Column[] = [
  { label: 'Date', width: 60, align: 'left', cell: (line) => line.date },
  { label: 'Fundraiser', width: 158, align: 'left', cell: (line) => line.fundraiser },
  { label: 'Charity', width: 150, align: 'left', cell: (line) => line.charity },
  { label: 'EIN', width: 54, align: 'left', cell: (line) => line.ein },
  { label: 'Donation', width: 50, align: 'right', cell: (line) => money(line.donationCents) },
  { label: 'Fee cover', width: 46, align: 'right', cell: (line) => money(line.feeCoverCents) },
  { label: 'Tip', width: 42, align: 'right', cell: (line) => money(line.tipCents) },
  { label: 'Refunded', width: 48, align: 'right', cell: (line) => money(line.refundedCents) },
  {
    label: 'Album value',
    width: 52,
    align: 'right',
    cell: (line) => (line.goodsCents === null ? '—' : money(line.goodsCents)),
  },
  { label: 'Tax-deductible', width: 60, align: 'right', cell: (line) => money(line.taxDeductibleCents) },
];
const PAD = 4;

/**
 * Text Helvetica can write: a standard font covers WinAnsi only, and pdf-lib throws on anything
 * else, so an emoji or a CJK name in a fundraiser's title would fail the whole statement. A
 * character outside it becomes its unaccented letter when it has one (ő → o), else "?". Line
 * breaks and other controls become spaces.
 */
export function writableText(font: PDFFont, text: string, cache = new Map<string, string>()): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    let written = cache.get(char);
    if (written === undefined) {
      written = /[\p{Cc}\p{Cf}\u2028\u2029]/u.test(char) ? ' ' : encodable(font, char) ? char : fallback(font, char);
      cache.set(char, written);
    }
    out += written;
  }
  return out;
}

function encodable(font: PDFFont, text: string) {
  try {
    font.encodeText(text);
    return true;
  } catch {
    return false;
  }
}

function fallback(font: PDFFont, char: string) {
  const bare = char.normalize('NFD').replace(/\p{M}/gu, '');
  return bare && bare !== char && encodable(font, bare) ? bare : '?';
}

/** The text cut to `width`, with an ellipsis where it was cut. */
function fitted(font: PDFFont, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let end = text.length;
  while (end > 0 && font.widthOfTextAtSize(`${text.slice(0, end).trimEnd()}…`, size) > width) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** The text in lines no wider than `width`, broken at spaces. */
function wrapped(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width || !current) current = candidate;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  return lines.map((line) => fitted(font, line, size, width));
}

/** Renders the statement; the bytes of a PDF file. */
export async function statementPdf(content: StatementContent): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${content.siteName} year-end giving statement ${content.year}`);
  doc.setAuthor(content.siteName);
  doc.setCreator(content.siteName);
  doc.setProducer(content.siteName);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const seen = new Map<string, string>();
  const safe = (text: string) => writableText(regular, text, seen);

  let page: PDFPage;
  let y = 0;
  const text = (
    value: string,
    x: number,
    at: number,
    options: { font?: PDFFont; size?: number; width?: number; align?: 'left' | 'right'; muted?: boolean } = {},
  ) => {
    const font = options.font ?? regular;
    const size = options.size ?? SIZE;
    const shown = options.width === undefined ? safe(value) : fitted(font, safe(value), size, options.width);
    const left = options.align === 'right' ? x - font.widthOfTextAtSize(shown, size) : x;
    page.drawText(shown, { x: left, y: at, size, font, color: options.muted ? MUTED : INK });
  };
  const rule = (at: number) =>
    page.drawLine({ start: { x: MARGIN, y: at }, end: { x: WIDTH - MARGIN, y: at }, thickness: 0.5, color: RULE });

  const newPage = (first: boolean) => {
    page = doc.addPage([WIDTH, HEIGHT]);
    y = HEIGHT - MARGIN - 14;
    text(content.siteName, MARGIN, y, { font: bold, size: first ? 16 : 12 });
    const title = `Year-end giving statement ${content.year}`;
    if (first) {
      text(`Issued ${content.issuedOn}`, WIDTH - MARGIN, y, { align: 'right' });
      text(content.contactEmail, WIDTH - MARGIN, y - 10, { align: 'right', muted: true });
      text(content.postalAddress, WIDTH - MARGIN, y - 20, { align: 'right', muted: true });
      y -= 20;
      text(title, MARGIN, y, { font: bold, size: 12 });
      y -= 20;
      text(content.donorName, MARGIN, y, { size: 10 });
      y -= 12;
      text(content.donorEmail, MARGIN, y, { size: 9, muted: true });
      y -= 22;
    } else {
      y -= 16;
      text(`${title} (continued) · ${content.donorName}`, MARGIN, y, { size: 10 });
      y -= 22;
    }
  };
  /** Makes room for `height` below the cursor, on the next page when this one is full. */
  const room = (height: number) => {
    if (y - height < BOTTOM) newPage(false);
  };
  const tableHeader = () => {
    let x = MARGIN;
    for (const column of COLUMNS) {
      const at = column.align === 'right' ? x + column.width - PAD : x;
      text(column.label, at, y, { font: bold, size: 7.5, align: column.align, width: column.width - PAD });
      x += column.width;
    }
    rule(y - 4);
    y -= 4 + ROW;
  };
  const cells = (values: string[], font: PDFFont) => {
    let x = MARGIN;
    COLUMNS.forEach((column, index) => {
      const at = column.align === 'right' ? x + column.width - PAD : x;
      text(values[index] ?? '', at, y, { font, align: column.align, width: column.width - PAD });
      x += column.width;
    });
  };

  newPage(true);
  tableHeader();
  if (content.lines.length === 0) {
    text(`No donations in ${content.year}.`, MARGIN, y);
    y -= ROW;
  }
  content.lines.forEach((line, index) => {
    // 40 donations to a page: the table goes on under its header on the next one.
    if (index > 0 && index % LINES_PER_PAGE === 0) {
      newPage(false);
      tableHeader();
    }
    cells(
      COLUMNS.map((column) => column.cell(line)),
      regular,
    );
    y -= ROW;
  });
  const sum = (pick: (line: StatementLine) => number) =>
    money(content.lines.reduce((all, line) => all + pick(line), 0));
  rule(y + ROW - 3);
  cells(
    [
      'Total',
      '',
      '',
      '',
      sum((line) => line.donationCents),
      sum((line) => line.feeCoverCents),
      sum((line) => line.tipCents),
      sum((line) => line.refundedCents),
      '',
      money(content.taxDeductibleCents),
    ],
    bold,
  );
  y -= 26;

  room(40);
  text('Tax-deductible by charity', MARGIN, y, { font: bold, size: 10 });
  y -= 14;
  if (content.byCharity.length === 0) {
    text(`No donations to a charity in ${content.year}.`, MARGIN, y);
    y -= 12;
  }
  for (const charity of content.byCharity) {
    room(12);
    text(charity.charityName, MARGIN, y, { width: 380 });
    text(`EIN ${charity.ein}`, MARGIN + 390, y);
    text(money(charity.taxDeductibleCents), MARGIN + 560, y, { align: 'right' });
    y -= 12;
  }
  room(30);
  text(`Total tax-deductible in ${content.year}`, MARGIN, y - 4, { font: bold, size: 10 });
  text(money(content.taxDeductibleCents), MARGIN + 560, y - 4, { font: bold, size: 10, align: 'right' });
  y -= 26;

  const paragraphs = [
    STATEMENT_WORDING.goods,
    STATEMENT_WORDING.deductible,
    STATEMENT_WORDING.tips(content.siteName),
    `Questions? Write to us at ${content.contactEmail}, or ${content.postalAddress}.`,
  ];
  for (const paragraph of paragraphs) {
    for (const line of wrapped(regular, safe(paragraph), 9, WIDTH - 2 * MARGIN)) {
      room(12);
      text(line, MARGIN, y, { size: 9 });
      y -= 12;
    }
    y -= 4;
  }

  const pages = doc.getPages();
  pages.forEach((each, index) => {
    page = each;
    text(`${content.siteName} · Year-end giving statement ${content.year} · ${content.donorEmail}`, MARGIN, 24, {
      size: 7,
      muted: true,
      width: 560,
    });
    text(`Page ${index + 1} of ${pages.length}`, WIDTH - MARGIN, 24, { size: 7, muted: true, align: 'right' });
  });
  return doc.save();
}
