import { z } from 'zod';
import { formatEin, type Nonprofit, normaliseEin } from '../../../shared/schemas/charities';
import { notFound } from '../../errors';
import type { Deps } from '../../http/context';
import { BUNDLED_CHARITIES } from './bundled';
import * as queries from './queries';
import type { CharityRow } from './queries';

const tagsSchema = z.array(z.string()).catch([]);

export function toNonprofit(row: CharityRow): Nonprofit {
  const location = [row.city, row.state].filter(Boolean).join(', ');
  const tags = tagsSchema.parse(JSON.parse(row.tags));
  return {
    ein: formatEin(row.ein),
    name: row.name,
    locationAddress: location || undefined,
    tags: tags.length ? tags : undefined,
    logoUrl: row.logoUrl ?? undefined,
    websiteUrl: row.websiteUrl ?? undefined,
  };
}

/** Puts the bundled charities in the directory; run at every start, it refreshes them. */
export function seedBundledCharities(deps: Pick<Deps, 'db'>) {
  queries.upsertCharities(
    deps.db,
    BUNDLED_CHARITIES.map((charity) => ({
      ...charity,
      tags: JSON.stringify(charity.tags),
      source: 'bundled' as const,
    })),
  );
}

/** By EIN (exact, dash optional) or by words of the name or city (prefix match). */
export function searchNonprofits(deps: Deps, query: string): Nonprofit[] {
  const ein = normaliseEin(query);
  if (ein) {
    const row = queries.findCharity(deps.db, ein);
    return row ? [toNonprofit(row)] : [];
  }
  const words =
    query
      .normalize('NFKC')
      .match(/[\p{L}\p{M}\p{N}]+/gu)
      ?.slice(0, 12) ?? [];
  if (words.length === 0) return [];
  return queries.searchCharities(deps.db, words.map((word) => `"${word}"*`).join(' '), 20).map(toNonprofit);
}

export function getNonprofit(deps: Deps, einInput: string) {
  const ein = normaliseEin(einInput);
  const row = ein ? queries.findCharity(deps.db, ein) : undefined;
  if (!row) throw notFound(`No charity found with EIN ${einInput}`);
  const nonprofit = toNonprofit(row);
  return {
    nonprofit,
    nonprofitTags: (nonprofit.tags ?? []).map((tag) => ({ tagName: tag.replace(/\s+/g, '-'), title: tag })),
  };
}
