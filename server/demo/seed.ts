import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config';
import { ensureAdmin } from '../features/accounts/service';
import { randomToken } from '../infra/security/tokens';
import type { MediaStore } from '../infra/storage/media';
import type { Db } from '../db/client';
import { seedDemoArtists } from './demo-artists';
import { seedDemoFundraisers } from './demo-fundraisers';

const demoAdminFile = z.object({ email: z.string(), password: z.string() });
export type DemoAdmin = z.infer<typeof demoAdminFile>;

export const DEMO_ADMIN_EMAIL = 'admin@soundcause.test';

/**
 * Demo content for a laptop run (never in production). The demo admin's password is random per
 * installation and kept in DATA_DIR/demo-admin.json (mode 600) so it can be printed at every
 * start; a fixed, published password would be a back door on any instance left open by mistake.
 */
export async function seedDemoContent(db: Db, config: Config, media: MediaStore): Promise<DemoAdmin> {
  const file = path.join(config.dataDir, 'demo-admin.json');
  let admin: DemoAdmin;
  if (fs.existsSync(file)) {
    admin = demoAdminFile.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } else {
    admin = { email: DEMO_ADMIN_EMAIL, password: `Demo-${randomToken().slice(0, 12)}-1` };
    fs.writeFileSync(file, JSON.stringify(admin, null, 2), { mode: 0o600 });
  }
  await ensureAdmin({ db }, admin.email, admin.password);
  await seedDemoArtists(db, media, admin.email);
  await seedDemoFundraisers(db, media, admin.email, config.promoProjectId);
  return admin;
}
