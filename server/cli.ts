import { parseArgs } from 'node:util';
import { z } from 'zod';
import { emailField, newPasswordField } from '../shared/schemas/text';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { ensureAdmin } from './features/accounts/service';
import { randomToken } from './infra/security/tokens';

// Operator commands: `npm run cli -- create-admin --email you@example.org [--password '...']`.

const usage = `Usage:
  npm run cli -- create-admin --email <email> [--password <password>]
      Creates that admin, or makes the existing account an admin. Without --password a strong
      password is generated and printed (only used when the account is created).`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, password: { type: 'string' }, help: { type: 'boolean' } },
  });
  const [command] = positionals;
  if (values.help || command !== 'create-admin') {
    console.log(usage);
    process.exit(values.help ? 0 : 1);
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
  const result = await ensureAdmin({ db }, input.data.email, password);
  sqlite.close();
  if (result.created) {
    console.log(`Created admin ${input.data.email}${input.data.password ? '' : ` with password ${password}`}`);
  } else {
    console.log(
      `${input.data.email} ${result.promoted ? 'is now an admin' : 'was already an admin'} (password unchanged).`,
    );
  }
}

await main();
