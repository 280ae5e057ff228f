import { parseArgs } from 'node:util';
import { z } from 'zod';
import { emailField, newPasswordField } from '../shared/schemas/text';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { ensureAdmin } from './features/accounts/service';
import { importIrsBmf } from './features/charities/irs-import';
import { randomToken } from './infra/security/tokens';

// Operator commands: `npm run cli -- create-admin --email you@example.org [--password '...']`.

const usage = `Usage:
  npm run cli -- create-admin --email <email> [--password <password>]
      Creates that admin, or makes the existing account an admin. Without --password a strong
      password is generated and printed (only used when the account is created).
  npm run cli -- import-irs-bmf <eo_xx.csv> [more.csv ...]
      Imports the 501(c)(3) organisations of IRS Exempt Organizations Business Master File
      extract files into the charity directory. Running it again refreshes them.`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean' } },
  });
  const [command, ...files] = positionals;
  if (values.help || (command !== 'create-admin' && command !== 'import-irs-bmf')) {
    console.log(usage);
    process.exit(values.help ? 0 : 1);
  }
  if (command === 'import-irs-bmf') {
    if (files.length === 0) {
      console.error('Name at least one EO BMF .csv file.');
      process.exit(1);
    }
    const { db, sqlite } = openDatabase(loadConfig().databasePath);
    for (const file of files) {
      try {
        const result = await importIrsBmf(db, file);
        console.log(`${file}: ${result.imported} charities imported, ${result.skipped} other organisations skipped.`);
      } catch (error) {
        console.error(error instanceof Error ? error.message : String(error));
        process.exitCode = 1;
      }
    }
    sqlite.close();
    return;
  }
  const input = z
    .object({ email: emailField, password: newPasswordField.optional() })
    .safeParse({ email: values.email, password: values.password });
  if (!input.success) {
    for (const issue of input.error.issues) console.error(`${issue.path.join('.')}: ${issue.message}`);
    process.exit(1);
  }
  const password = input.data.password ?? `Admin-${randomToken().slice(0, 16)}-1`;
  const config = loadConfig();
  const { db, sqlite } = openDatabase(config.databasePath);
  let result: Awaited<ReturnType<typeof ensureAdmin>>;
  try {
    result = await ensureAdmin({ db }, input.data.email, password);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  } finally {
    sqlite.close();
  }
  if (result.created) {
    console.log(`Created admin ${input.data.email}${input.data.password ? '' : ` with password ${password}`}`);
  } else {
    console.log(
      `${input.data.email} ${result.promoted ? 'is now an admin' : 'was already an admin'}${result.passwordSet ? ' (password set)' : ' (password unchanged)'}.`,
    );
  }
}

await main();
