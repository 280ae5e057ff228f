import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { givingYearField } from '../shared/schemas/giving';
import { emailField, newPasswordField } from '../shared/schemas/text';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { AppError } from './errors';
import { ensureAdmin } from './features/accounts/service';
import { importIrsBmf } from './features/charities/irs-import';
import { siteYear } from './features/giving/history';
import { sendStatements } from './features/giving/service';
import { pruneInsight } from './features/insight/service';
import { importLegacyCatalogue } from './catalogue/import-legacy';
import { CatalogueFileError } from './catalogue/legacy-csv';
import { seedBundledCharities } from './features/charities/service';
import { BackupError, createBackup, folderTarget, restoreBackup } from './infra/backup';
import { backupToBucket, listBackups, restoreFromBucket } from './infra/backup-offsite';
import { createLogger } from './infra/logger';
import { configuredMediaStore } from './infra/storage/media';
import { BucketClaimedError, claimMediaBucket, takeOverBucket } from './infra/storage/bucket-claim';
import { MigrationError, migrateMediaToBucket } from './infra/storage/media-migrate';
import { parseS3Url, s3Client, s3Objects } from './infra/storage/s3-objects';
import { randomToken } from './infra/security/tokens';

// Operator commands: `npm run cli -- create-admin --email you@example.org [--password '...']`,
// `npm run cli -- backup DIR`, `npm run cli -- restore DIR [--force]`, the IRS import, the
// legacy catalogue import and the year-end giving statements' emails.

const usage = `Usage:
  npm run cli -- create-admin --email <email> [--password <password>]
      Creates that admin, or makes the existing account an admin. Without --password a strong
      password is generated and printed (only used when the account is created).
  npm run cli -- import-irs-bmf <eo_xx.csv> [more.csv ...]
      Imports the 501(c)(3) organisations of IRS Exempt Organizations Business Master File
      extract files into the charity directory. Running it again refreshes them.
  npm run cli -- import-legacy <catalogue.csv>
      Creates legacy (v1) fundraisers from an old catalogue's CSV (its columns are in the README):
      each row's owner account, artist, charity, album zip, cover and preview track, all checked
      as uploads are. A row with a problem is reported with its line and left out; the others are
      imported. Running it again skips the rows imported before (by external_id).
  npm run cli -- backup <dir | s3://BUCKET/PREFIX>
      Backs the site in DATA_DIR up into <dir> (new or empty) while it runs: the database through
      SQLite's online backup API, the media files it refers to, and manifest.json with their hashes.
      With s3://BUCKET/PREFIX, the same backup goes to PREFIX/<time>/ in that bucket (S3_ENDPOINT,
      S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE), and with BACKUP_KEEP
      set only the newest that many are kept there.
  npm run cli -- backups s3://BUCKET/PREFIX
      Lists the off-site backups there, oldest first, and which are complete.
  npm run cli -- media-migrate --to s3
      Copies the media files the database refers to from DATA_DIR to the bucket of S3_BUCKET
      (S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE), each
      read back and checked against its SHA-256. Safe to run again: what is there and whole is
      skipped. Then set MEDIA_STORE=s3 and restart; the local files stay until you remove them.
      The bucket is claimed for this site's database first; another site's bucket is refused.
  npm run cli -- take-over-bucket
      Hands the bucket of S3_BUCKET to this database on purpose: for a database restored from
      before the bucket was claimed, which the site would otherwise refuse to start with.
  npm run cli -- send-statements --year <YYYY | previous>
      Emails each donor of that year (a payment that stands, made that year in SITE_TIME_ZONE)
      one link to their year-end giving statement (PDF). Once per donor and year, however often
      it runs: donors who had theirs are counted, not sent another. The emails go out from the
      site's job queue (it must be running, or start later). Only for a year that is over;
      previous is last year in SITE_TIME_ZONE.
  npm run cli -- prune-insight
      Folds the insight's daily counts (page views, plays, downloads, where visits came from)
      older than INSIGHT_KEEP_DAYS days (31 to 36500; 730 unless set) into one row per month, whole months
      only: totals stay, the dashboards show those months on their first day. Money is never
      pruned. Safe to run daily (from cron or a systemd timer) and while the site runs.
  npm run cli -- restore <dir | s3://BUCKET/PREFIX/NAME> [--force]
      Checks the backup in <dir> (or fetched from the bucket), then restores it into DATA_DIR and
      checks it again there. Refuses while the site runs on DATA_DIR (stop it first) unless --force.`;

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      force: { type: 'boolean' },
      to: { type: 'string' },
      year: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const [command, ...files] = positionals;
  const commands = [
    'create-admin',
    'import-irs-bmf',
    'import-legacy',
    'backup',
    'backups',
    'restore',
    'media-migrate',
    'take-over-bucket',
    'send-statements',
    'prune-insight',
  ];
  if (values.help || command === undefined || !commands.includes(command)) {
    console.log(usage);
    process.exit(values.help ? 0 : 1);
  }
  if (command === 'backup' || command === 'restore' || command === 'backups') {
    const [where] = files;
    if (!where || files.length > 1) {
      console.error(
        command === 'backups'
          ? 'Name one place: npm run cli -- backups s3://BUCKET/PREFIX'
          : `Name one folder or s3:// URL: npm run cli -- ${command} <dir | s3://BUCKET/PREFIX${command === 'restore' ? '/NAME' : ''}>`,
      );
      process.exit(1);
    }
    await backupCommand(command, where, values.force ?? false);
    return;
  }
  if (command === 'media-migrate' || command === 'take-over-bucket') {
    if (command === 'media-migrate' && (values.to !== 's3' || files.length > 0)) {
      console.error('Say where to: npm run cli -- media-migrate --to s3');
      process.exit(1);
    }
    await bucketCommand(command);
    return;
  }
  if (command === 'send-statements') {
    const year = statementYearArgument(values.year);
    if (typeof year === 'string' || files.length > 0) {
      console.error(
        `Name the year: npm run cli -- send-statements --year YYYY (or --year previous)${typeof year === 'string' && year ? `. ${year}` : ''}`,
      );
      process.exit(1);
    }
    sendStatementsCommand(year);
    return;
  }
  if (command === 'prune-insight') {
    if (files.length > 0) {
      console.error('prune-insight takes no arguments: set INSIGHT_KEEP_DAYS to choose how many days stay.');
      process.exit(1);
    }
    pruneInsightCommand();
    return;
  }
  if (command === 'import-legacy') {
    const [file] = files;
    if (!file || files.length > 1) {
      console.error('Name one catalogue: npm run cli -- import-legacy <catalogue.csv>');
      process.exit(1);
    }
    await importLegacyCommand(file);
    return;
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

async function importLegacyCommand(file: string) {
  const config = loadConfig();
  fs.mkdirSync(config.dataDir, { recursive: true });
  const { db, sqlite } = openDatabase(config.databasePath);
  try {
    // The charities a fresh site knows before it first starts (its start-up seeds them too).
    seedBundledCharities({ db });
    const deps = { db, media: configuredMediaStore(config), logger: createLogger(config.logLevel) };
    const summary = await importLegacyCatalogue(deps, file, { done: console.log, problem: console.error });
    const created = [
      summary.artistsCreated ? `${summary.artistsCreated} new artist${summary.artistsCreated === 1 ? '' : 's'}` : '',
      summary.accountsCreated.length
        ? `${summary.accountsCreated.length} new account${summary.accountsCreated.length === 1 ? '' : 's'}`
        : '',
    ].filter(Boolean);
    console.log(
      `${file}: ${summary.rows} row${summary.rows === 1 ? '' : 's'}: ${summary.imported} imported${created.length ? ` (${created.join(', ')})` : ''}, ${summary.alreadyImported} imported before, ${summary.failed} not imported${summary.failed ? ' (see above)' : ''}.`,
    );
    if (summary.accountsCreated.length) {
      console.log(
        `New accounts have no password yet: their owners choose one with "Forgot password?" on the login page (${summary.accountsCreated.join(', ')}).`,
      );
    }
    if (summary.failed) process.exitCode = 1;
  } catch (error) {
    if (!(error instanceof CatalogueFileError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    sqlite.close();
  }
}

/**
 * `--year YYYY`, or `previous`: the year before this one in the site's zone (what the deploy kit's
 * January timer runs, so the unit needs no date arithmetic). A problem's words otherwise.
 */
function statementYearArgument(value: string | undefined): number | string {
  if (value === undefined) return '';
  if (value === 'previous') return siteYear(new Date(), loadConfig().timeZone) - 1;
  const parsed = givingYearField.safeParse(value);
  return parsed.success ? parsed.data : (parsed.error.issues[0]?.message ?? '');
}

/**
 * The year-end statements' emails, queued for the site's job runner. Their links lead to
 * PUBLIC_URL (production requires it); without it, to this machine, as the site's own emails do.
 */
function sendStatementsCommand(year: number) {
  const config = loadConfig();
  const { db, sqlite } = openDatabase(config.databasePath);
  try {
    const siteUrl = config.publicUrl ?? `http://localhost:${config.port}`;
    const done = sendStatements({ db, config }, year, siteUrl);
    const donors = (count: number) => `${count} donor${count === 1 ? '' : 's'}`;
    console.log(
      `${year}: ${done.queued} statement email${done.queued === 1 ? '' : 's'} sent (queued for the site's job runner); ${donors(done.hadOne)} had theirs already (${donors(done.donors)} in all).`,
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  } finally {
    sqlite.close();
  }
}

function pruneInsightCommand() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    // A wrong INSIGHT_KEEP_DAYS (or any setting) is the operator's to fix: say which, no stack.
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const { db, sqlite } = openDatabase(config.databasePath);
  try {
    const done = pruneInsight({ db, config }, config.insightKeepDays);
    const rows = (count: number) => `${count} day row${count === 1 ? '' : 's'}`;
    const months = `${done.months} month${done.months === 1 ? '' : 's'}`;
    console.log(
      `Counts before ${done.before} are kept by month now: ${months} folded, ${rows(done.fundraiserRows)} of fundraisers and ${rows(done.siteRows)} of the site.`,
    );
  } finally {
    sqlite.close();
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function bucketCommand(command: 'media-migrate' | 'take-over-bucket') {
  const config = loadConfig();
  const bucketName = config.s3.bucket;
  if (!bucketName) {
    console.error('Set S3_BUCKET (and S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) to the media bucket.');
    process.exit(1);
  }
  const { db, sqlite } = openDatabase(config.databasePath);
  const client = s3Client(config.s3);
  const bucket = s3Objects(client, bucketName);
  try {
    if (command === 'take-over-bucket') {
      const claim = await takeOverBucket(db, bucket);
      console.log(
        `The bucket ${bucketName} is now this site's (${claim.now}; it was ${claim.previous ?? 'unclaimed'}). At its next start the site removes the objects its database does not know.`,
      );
      return;
    }
    await claimMediaBucket(db, bucket);
    const done = await migrateMediaToBucket(db, config.dataDir, bucket, {
      copied: (key, bytes) => console.log(`copied ${key} (${megabytes(bytes)}), checked`),
      missing: (key) => console.error(`missing: ${key} is named by the database but is not in ${config.dataDir}/media`),
    });
    console.log(
      `${done.copied} files copied to the bucket ${bucketName} (${megabytes(done.copiedBytes)}), each read back and checked; ${done.alreadyThere} were already there.${done.missing.length ? ` ${done.missing.length} missing from the data folder (see above).` : ''}`,
    );
    if (!config.media.bucket) {
      console.log('Now set MEDIA_STORE=s3 and restart the site (run this again first if it ran meanwhile).');
    }
    if (done.missing.length) process.exitCode = 1;
  } catch (error) {
    if (error instanceof MigrationError || error instanceof BucketClaimedError) console.error(error.message);
    else if (error instanceof Error && '$metadata' in error)
      console.error(`The S3 store answered: ${error.name}: ${error.message}`);
    else throw error;
    process.exitCode = 1;
  } finally {
    client.destroy();
    sqlite.close();
  }
}

async function backupCommand(command: 'backup' | 'restore' | 'backups', where: string, force: boolean) {
  const config = loadConfig();
  const { dataDir, media } = config;
  const location = where.startsWith('s3:') ? parseS3Url(where) : null;
  if (where.startsWith('s3:') && !location) {
    console.error(`${where} is not an s3:// URL this reads: s3://BUCKET/PREFIX (a bucket name, then a key prefix).`);
    process.exit(1);
  }
  if (command === 'backups' && !location) {
    console.error('Name the off-site place: npm run cli -- backups s3://BUCKET/PREFIX');
    process.exit(1);
  }
  const client = location ? s3Client(config.s3) : undefined;
  const bucket = client && location ? s3Objects(client, location.bucket) : undefined;
  const mediaPart = (done: { files: number; mediaBytes: number }) =>
    media.bucket
      ? `no media files (they stay in the bucket ${media.bucket})`
      : `${done.files} media files (${megabytes(done.mediaBytes)})`;
  try {
    if (command === 'backups') {
      const backups = await listBackups(bucket!, location!);
      if (backups.length === 0) console.log(`No backups under ${where}.`);
      for (const backup of backups) {
        console.log(`${backup.name}${backup.complete ? '' : '  (incomplete: no manifest, never restored)'}`);
      }
    } else if (command === 'backup' && bucket && location) {
      const done = await backupToBucket(dataDir, bucket, location, {
        mediaBucket: media.bucket,
        keep: config.backups.keep,
      });
      console.log(
        `Backed up ${dataDir} to ${done.url} in ${(done.ms / 1000).toFixed(1)} s: the database (${megabytes(done.databaseBytes)}, integrity ok) and ${mediaPart(done)}.${done.removed.length ? ` Removed ${done.removed.length} older (BACKUP_KEEP=${config.backups.keep}): ${done.removed.join(', ')}.` : ''}`,
      );
      if (done.pruneFailure) {
        // The backup is whole; the older ones stay until a run can remove them. Failed, so it shows.
        console.error(`The backup was made, but older backups could not be removed: ${done.pruneFailure}`);
        process.exitCode = 1;
      }
    } else if (command === 'backup') {
      const dir = path.resolve(where);
      const done = await createBackup(dataDir, folderTarget(dir), { mediaBucket: media.bucket });
      console.log(
        `Backed up ${dataDir} to ${dir} in ${(done.ms / 1000).toFixed(1)} s: the database (${megabytes(done.databaseBytes)}, integrity ok) and ${mediaPart(done)}.`,
      );
    } else {
      const done =
        bucket && location
          ? await restoreFromBucket(bucket, location, dataDir, { force })
          : await restoreBackup(path.resolve(where), dataDir, { force });
      console.log(
        `Restored the backup of ${done.createdAt} into ${dataDir}${done.running ? ' under the running site' : ''} in ${(done.ms / 1000).toFixed(1)} s: the database (integrity ok) and ${done.files} media files (${megabytes(done.mediaBytes)}), each checked against its hash.`,
      );
      if (done.mediaBucket && !media.bucket) {
        console.warn(
          `This backup holds the database only: its media are in the bucket ${done.mediaBucket}. Set MEDIA_STORE=s3 and S3_BUCKET=${done.mediaBucket} (with the S3_* variables) before starting the site.`,
        );
      } else if (!done.mediaBucket && media.bucket && done.files > 0) {
        console.warn(
          `The media were restored into ${dataDir}/media, but this site serves media from the bucket ${media.bucket}: copy them there (npm run cli -- media-migrate --to s3) before starting it.`,
        );
      }
    }
  } catch (error) {
    if (error instanceof BackupError) console.error(error.message);
    // The store refused or could not be reached (keys, bucket name, network): its own words.
    else if (error instanceof Error && '$metadata' in error)
      console.error(`The S3 store answered: ${error.name}: ${error.message}`);
    else throw error;
    process.exitCode = 1;
  } finally {
    client?.destroy();
  }
}

await main();
