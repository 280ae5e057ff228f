import { sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Why the database cannot answer, or null when it can (GET /api/health). One cheap read of the
 * migrations table, a handful of rows: it fails on a closed, unreadable or corrupt file as on a
 * database the migrations never reached.
 */
export function databaseProblem(db: Db): string | null {
  try {
    db.get(sql`select count(*) from __drizzle_migrations`);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
