import fs from 'node:fs';
import readline from 'node:readline';
import type { Db } from '../../db/client';
import { type CharityEntry, upsertCharities } from './queries';

// Imports the IRS Exempt Organizations Business Master File extract (the eo_xx.csv files of the
// IRS's public "EO BMF" download: one per state or region, a header line, one organisation per
// line). Only 501(c)(3) organisations (SUBSECTION 03) are kept. Columns are found by their
// header names, so the IRS may reorder them.

/** One CSV line into fields: commas separate, double quotes enclose, "" is a quote. */
export function parseCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

const SMALL_WORDS = new Set(['of', 'and', 'the', 'for', 'in', 'on', 'at', 'to', 'a', 'an', 'by']);

/** "AMERICAN NATIONAL RED CROSS" → "American National Red Cross"; the IRS writes names in capitals. */
export function titleCase(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((word, index) =>
      index > 0 && SMALL_WORDS.has(word) ? word : word.replace(/^(\p{L})/u, (letter) => letter.toUpperCase()),
    )
    .join(' ');
}

type ImportResult = { read: number; imported: number; skipped: number };

const BATCH = 5000;

export async function importIrsBmf(db: Db, file: string): Promise<ImportResult> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let columns: Map<string, number> | undefined;
  const result: ImportResult = { read: 0, imported: 0, skipped: 0 };
  let batch: CharityEntry[] = [];

  // Only what an IRS file put there is refreshed: a bundled entry keeps its curated fields, and
  // one cached from Every.org its display name and place (upsertCharities' trust order).
  const flush = () => {
    upsertCharities(db, batch);
    batch = [];
  };

  for await (const line of lines) {
    if (!line.trim()) continue;
    const fields = parseCsvLine(line);
    if (!columns) {
      columns = new Map(fields.map((name, index) => [name.trim().toUpperCase(), index]));
      for (const required of ['EIN', 'NAME', 'SUBSECTION']) {
        if (!columns.has(required)) throw new Error(`${file} is not an EO BMF extract: no ${required} column.`);
      }
      continue;
    }
    result.read++;
    const value = (name: string) => fields[columns!.get(name) ?? -1]?.trim() ?? '';
    const ein = value('EIN').replace(/-/g, '');
    if (value('SUBSECTION') !== '03' || !/^\d{9}$/.test(ein) || !value('NAME')) {
      result.skipped++;
      continue;
    }
    batch.push({
      ein,
      name: titleCase(value('NAME')),
      city: titleCase(value('CITY')),
      state: value('STATE'),
      source: 'irs',
    });
    result.imported++;
    if (batch.length >= BATCH) flush();
  }
  if (batch.length) flush();
  if (!columns) throw new Error(`${file} is empty.`);
  return result;
}
