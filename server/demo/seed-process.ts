import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { configuredMediaStore } from '../infra/storage/media';
import { seedDemoContent } from './seed';

// The demo seeding as a process of its own (main.ts starts it, once per start): generating the
// WAVs and hashing the demo admin's password leave memory with the process that did it, and the
// server that runs afterwards for days should not keep it (issue 13's footprint). The demo
// admin's login goes back to the server over the IPC channel.

const config = loadConfig();
const { db, sqlite } = openDatabase(config.databasePath);
try {
  const admin = await seedDemoContent(db, config, configuredMediaStore(config));
  await new Promise<void>((resolve, reject) =>
    process.send!(admin, (error: Error | null) => (error ? reject(error) : resolve())),
  );
} finally {
  sqlite.close();
}
process.disconnect();
