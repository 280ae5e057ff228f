import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { donations, fundraisers, givingStatements, purchases } from '../../server/db/schema';
import { STATEMENT_WORDING } from '../../server/features/giving/statement-pdf';
import { serverMessages } from '../../shared/api';
import { type Giving, givingSchema, receiptCopySchema } from '../../shared/answers/giving';
import { DEFAULT_FEE_RATES, feeCoverCents } from '../../shared/fee-cover';
import { formatCents } from '../../shared/money';
import { givingMessages, lastGivingYear } from '../../shared/schemas/giving';
import { siteCalendarDate, startOfSiteDay } from '../../shared/site-dates';
import { runCli } from '../fixtures/cli';
import { journalPaidDonations, payWithTestCard } from '../fixtures/donations';
import { CANCER_SOCIETY_EIN, createFundraiser, RED_CROSS_EIN, uploadMusic } from '../fixtures/fundraisers';
import { useStripeServer } from '../fixtures/stripe-server';
import { fieldErrors, registerUser, type TestClient, type TestServer, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// The giving history and the year-end statement (issue 26; DESIGN.md "Contract details for wave
// 3", giving history), over real HTTP on a real SQLite file: a verified donor's own payments of a
// year in the site's time zone (America/Los_Angeles here), their money from the money journal,
// refunds and disputes through the real stripe SDK against the fake Stripe, the PDF read back
// with pdf-lib and pdf.js (unpdf), and send-statements run as an operator runs it.

const RED_CROSS = RED_CROSS_EIN.replace('-', '');
const CANCER_SOCIETY = CANCER_SOCIETY_EIN.replace('-', '');
const TIME_ZONE = 'America/Los_Angeles';
const MINIMUM = 500;
/** The site's year now: read when it is used, not once for the file (New Year may come while it runs). */
const thisYear = () => Number(siteCalendarDate(Date.now(), TIME_ZONE).slice(0, 4));

const intentAnswer = z.object({ paymentIntentId: z.string(), clientSecret: z.string() });

type Gift = { recipientName: string; recipientEmail: string; message: string };

/** A paid payment through the donate form's calls: its intent id. */
async function give(
  server: TestServer,
  input: {
    email: string;
    fundraiserId: number | null;
    donationCents: number;
    tipCents?: number;
    coverFees?: boolean;
    gift?: Gift;
    name?: string;
  },
) {
  const started = await server.client().post('/api/transactions/create-payment-intent', {
    json: {
      name: input.name ?? 'Giver Person',
      email: input.email,
      donationCents: input.donationCents,
      tipCents: input.tipCents ?? 0,
      projectId: input.fundraiserId,
      ...(input.coverFees ? { coverFees: true } : {}),
      ...(input.gift ? { gift: input.gift } : {}),
    },
  });
  expect(started.status, started.text).toBe(200);
  const intent = intentAnswer.parse(started.json);
  const paid = await payWithTestCard(server, intent.clientSecret);
  expect(paid.status, paid.text).toBe(200);
  return intent.paymentIntentId;
}

/** Moves a payment to another moment (as if made then): the year it counts in is the site's. */
function paidAt(server: TestServer, paymentIntentId: string, at: string) {
  server.db
    .update(donations)
    .set({ succeededAt: new Date(at) })
    .where(eq(donations.paymentIntentId, paymentIntentId))
    .run();
}

async function history(client: TestClient, query = '') {
  const answer = await client.get(`/api/giving${query}`);
  expect(answer.status, answer.text).toBe(200);
  return givingSchema.parse(answer.json);
}

/** A binary answer: TestClient reads answers as text, which a PDF is not. */
async function download(server: TestServer, path: string, client?: TestClient) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    headers: client ? { cookie: client.cookieHeader(), 'x-forwarded-for': client.ip } : {},
  });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The PDF's pages and its text, each page's words on one line. */
async function readPdf(bytes: Uint8Array) {
  const pages = (await PDFDocument.load(bytes)).getPageCount();
  const { text } = await extractText(await getDocumentProxy(bytes.slice()), { mergePages: false });
  return { pages, text: text.map((page) => page.replace(/\s+/g, ' ')) };
}

const byIntent = (giving: Giving, paymentIntentId: string) =>
  giving.donations.find((donation) => donation.paymentIntentId === paymentIntentId);

describe('giving history (test provider)', () => {
  const server = useTestServer();
  const GIVER = 'giver@example.org';
  let giver: TestClient;
  let redCross = 0;
  let cancerSociety = 0;
  let emojiFundraiser = 0;
  const paid = {} as Record<
    'first' | 'covered' | 'gift' | 'platform' | 'newYearsEve' | 'newYear' | 'older' | 'stranger',
    string
  >;
  const cover = feeCoverCents(1500, 0, DEFAULT_FEE_RATES);
  const gift: Gift = { recipientName: 'Robin Gift', recipientEmail: 'robin@example.org', message: 'Happy birthday!' };

  beforeAll(async () => {
    const owner = await verifiedUser(server, 'giving-owner@example.org');
    const uploads = await uploadMusic(owner, 1);
    redCross = (await createFundraiser(owner, { publish: true, uploads, details: { name: 'Relief Songs' } })).id;
    cancerSociety = (
      await createFundraiser(owner, {
        publish: true,
        uploads,
        charityEin: CANCER_SOCIETY_EIN,
        details: { name: 'Hope Songs' },
      })
    ).id;
    emojiFundraiser = (await createFundraiser(owner, { publish: true, uploads, details: { name: 'Night Songs' } })).id;
    giver = await verifiedUser(server, GIVER);

    // 2025 in Portland: four payments, one of them on New Year's Eve there (07:00 UTC on Jan 1).
    paid.first = await give(server, { email: GIVER, fundraiserId: redCross, donationCents: 2500, tipCents: 250 });
    paidAt(server, paid.first, '2025-03-10T18:00:00Z');
    paid.covered = await give(server, { email: GIVER, fundraiserId: redCross, donationCents: 1500, coverFees: true });
    paidAt(server, paid.covered, '2025-06-01T18:00:00Z');
    paid.gift = await give(server, { email: GIVER, fundraiserId: cancerSociety, donationCents: 1000, gift });
    paidAt(server, paid.gift, '2025-12-31T20:00:00Z');
    paid.platform = await give(server, { email: GIVER, fundraiserId: null, donationCents: 0, tipCents: 1500 });
    paidAt(server, paid.platform, '2025-08-01T18:00:00Z');
    paid.newYearsEve = await give(server, { email: GIVER, fundraiserId: redCross, donationCents: 700 });
    paidAt(server, paid.newYearsEve, '2026-01-01T07:00:00Z');
    paid.newYear = await give(server, { email: GIVER, fundraiserId: redCross, donationCents: 900 });
    paidAt(server, paid.newYear, '2026-01-01T08:00:00Z');
    paid.older = await give(server, { email: GIVER, fundraiserId: cancerSociety, donationCents: 600 });
    paidAt(server, paid.older, '2024-05-05T18:00:00Z');
    // A row from before addresses were lower-cased (a legacy import): the same donor.
    server.db
      .update(donations)
      .set({ email: 'GIVER@Example.ORG' })
      .where(eq(donations.paymentIntentId, paid.first))
      .run();
    // Someone else's payment, the same year.
    paid.stranger = await give(server, { email: 'stranger@example.org', fundraiserId: redCross, donationCents: 5000 });
    paidAt(server, paid.stranger, '2025-04-04T18:00:00Z');
    await server.jobs.drain();
  }, 120_000);

  it('is for a signed-in donor whose email is verified: 401 for guests, 403 until verified', async () => {
    const guest = server.client();
    for (const [method, path] of [
      ['GET', '/api/giving'],
      ['POST', `/api/giving/receipts/${paid.first}`],
      ['GET', '/api/giving/statement/2025.pdf'],
    ] as const) {
      const answer = await guest.request(method, path);
      expect(answer.status, path).toBe(401);
      expect(answer.json).toMatchObject({ message: serverMessages.loginRequired });
    }
    const unverified = server.client();
    await registerUser(unverified, 'unverified-giver@example.org');
    for (const [method, path] of [
      ['GET', '/api/giving'],
      ['POST', `/api/giving/receipts/${paid.first}`],
      ['GET', '/api/giving/statement/2025.pdf'],
    ] as const) {
      const answer = await unverified.request(method, path);
      expect(answer.status, path).toBe(403);
      expect(answer.json).toMatchObject({ message: serverMessages.verifiedEmailRequired });
    }
  });

  it("lists the donor's own payments of the year, newest first, matching the address without case", async () => {
    const year = await history(giver, '?year=2025');
    expect(year.year).toBe(2025);
    expect(year.donations.map((donation) => donation.paymentIntentId)).toEqual([
      paid.newYearsEve,
      paid.gift,
      paid.platform,
      paid.covered,
      paid.first,
    ]);
    // The answer is the contract's, field for field (the client's schema would drop extra ones).
    const raw = (await giver.get('/api/giving?year=2025')).json as Record<string, unknown[]>;
    expect(Object.keys(raw).sort()).toEqual(['byCharity', 'donations', 'taxDeductibleCents', 'year', 'years']);
    expect(Object.keys(raw.donations![0]!).sort()).toEqual(
      [
        'paymentIntentId',
        'date',
        'fundraiserName',
        'charityName',
        'ein',
        'donationCents',
        'tipCents',
        'feeCoverCents',
        'refundedCents',
        'taxDeductibleCents',
        'gift',
      ].sort(),
    );
    // Someone else's payment of that year is not theirs to see.
    expect(byIntent(year, paid.stranger)).toBeUndefined();
    expect(byIntent(year, paid.first)).toEqual({
      paymentIntentId: paid.first,
      date: '2025-03-10T18:00:00.000Z',
      fundraiserName: 'Relief Songs',
      charityName: expect.any(String),
      ein: RED_CROSS,
      donationCents: 2500,
      tipCents: 250,
      feeCoverCents: 0,
      refundedCents: 0,
      taxDeductibleCents: 2500 - MINIMUM,
      gift: null,
    });
  });

  it('counts a covered card fee to the charity and to the deductible part, apart from the donation', async () => {
    expect(cover).toBeGreaterThan(0);
    expect(byIntent(await history(giver, '?year=2025'), paid.covered)).toMatchObject({
      donationCents: 1500,
      feeCoverCents: cover,
      tipCents: 0,
      taxDeductibleCents: 1500 + cover - MINIMUM,
    });
  });

  it('shows a gift given with its recipient, its deduction the giver’s, and a gift to the platform with none', async () => {
    const year = await history(giver, '?year=2025');
    expect(byIntent(year, paid.gift)).toMatchObject({
      fundraiserName: 'Hope Songs',
      ein: CANCER_SOCIETY,
      gift: { recipientName: gift.recipientName, recipientEmail: gift.recipientEmail },
      taxDeductibleCents: 1000 - MINIMUM,
    });
    expect(byIntent(year, paid.platform)).toMatchObject({
      fundraiserName: null,
      charityName: null,
      ein: null,
      donationCents: 0,
      tipCents: 1500,
      taxDeductibleCents: 0,
      gift: null,
    });
  });

  it('sums the deductible part per charity (by EIN) and in all', async () => {
    const year = await history(giver, '?year=2025');
    const redCrossDeductible = 700 - MINIMUM + (1500 + cover - MINIMUM) + (2500 - MINIMUM);
    const cancerDeductible = 1000 - MINIMUM;
    expect(Object.fromEntries(year.byCharity.map((charity) => [charity.ein, charity.taxDeductibleCents]))).toEqual({
      [RED_CROSS]: redCrossDeductible,
      [CANCER_SOCIETY]: cancerDeductible,
    });
    expect(year.byCharity.every((charity) => charity.charityName.length > 0)).toBe(true);
    expect(year.taxDeductibleCents).toBe(redCrossDeductible + cancerDeductible);
    expect(year.taxDeductibleCents).toBe(
      year.donations.reduce((sum, donation) => sum + donation.taxDeductibleCents, 0),
    );
  });

  it("counts each payment in its year in the site's time zone: 07:00 UTC on January 1 is New Year's Eve in Portland", async () => {
    const newYear = await history(giver, '?year=2026');
    expect(newYear.donations.map((donation) => donation.paymentIntentId)).toEqual([paid.newYear]);
    expect((await history(giver, '?year=2025')).donations[0]!.paymentIntentId).toBe(paid.newYearsEve);
    expect((await history(giver, '?year=2024')).donations.map((donation) => donation.paymentIntentId)).toEqual([
      paid.older,
    ]);
  });

  it('offers every year given in, and this year, newest first; and opens on the newest year with a payment', async () => {
    const expectedYears = [...new Set([thisYear(), 2026, 2025, 2024])].sort((a, b) => b - a);
    const opened = await history(giver);
    expect(opened.years).toEqual(expectedYears);
    expect(opened.year).toBe(2026);
    // A donor with nothing yet: this year, empty.
    const newcomer = await verifiedUser(server, 'newcomer@example.org');
    const year = thisYear();
    expect(await history(newcomer)).toEqual({
      year,
      years: [year],
      donations: [],
      byCharity: [],
      taxDeductibleCents: 0,
    });
    expect((await history(giver, '?year=2019')).donations).toEqual([]);
  });

  it('refuses a year that is not one with a clear 400', async () => {
    for (const year of ['1999', 'abcd', '25', '20255', String(lastGivingYear() + 1), '']) {
      const answer = await giver.get(`/api/giving?year=${year}`);
      expect(answer.status, year).toBe(400);
      expect(fieldErrors(answer.json)).toEqual({ year: givingMessages.year() });
    }
    const statement = await giver.get('/api/giving/statement/1999.pdf');
    expect(statement.status).toBe(400);
    expect(fieldErrors(statement.json)).toEqual({ year: givingMessages.year() });
    const notAStatement = await giver.get('/api/giving/statement/2025.txt');
    expect(notAStatement.status).toBe(404);
    expect(notAStatement.json).toMatchObject({ message: givingMessages.statementNotFound });
  });

  describe('receipts again', () => {
    it("queues a copy of the donor's own receipt, without a new download link, once per 10 minutes", async () => {
      const before = server.outbox.messages(GIVER).length;
      const answer = await giver.post(`/api/giving/receipts/${paid.covered}`);
      expect(answer.status, answer.text).toBe(202);
      expect(receiptCopySchema.parse(answer.json)).toEqual({ sentTo: GIVER });
      await server.jobs.drain();
      const copies = server.outbox.messages(GIVER).slice(before);
      expect(copies).toHaveLength(1);
      const copy = copies[0]!.replace(/=\r?\n/g, '');
      expect(copy).toMatch(/Subject: Copy of your receipt: /);
      expect(copy).toContain('you asked for it from your giving history');
      expect(copy).toContain('Your music has the album');
      expect(copy).not.toMatch(/\/purchases\//);

      const again = await giver.post(`/api/giving/receipts/${paid.covered}`);
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(590);
      expect(again.json).toMatchObject({
        code: 'RATE_LIMITED',
        message: givingMessages.receiptCopyTooSoon(600_000),
      });
      await server.jobs.drain();
      expect(server.outbox.messages(GIVER).length).toBe(before + 1);
    });

    it("sends a gift's copy to the giver, who does not have its album", async () => {
      const before = server.outbox.messages(GIVER).length;
      expect((await giver.post(`/api/giving/receipts/${paid.gift}`)).status).toBe(202);
      await server.jobs.drain();
      const copy = server.outbox
        .messages(GIVER)
        .slice(before)[0]!
        .replace(/=\r?\n/g, '');
      expect(copy).toContain('Copy of your receipt');
      expect(copy).not.toContain('Your music has the album');
    });

    it("answers 404 for someone else's payment and for one that does not exist", async () => {
      for (const id of [paid.stranger, 'tpi_does_not_exist', '%20']) {
        const answer = await giver.post(`/api/giving/receipts/${id}`);
        expect(answer.status, id).toBe(404);
        expect(answer.json).toMatchObject({ message: givingMessages.donationNotFound });
      }
      // The stranger's own copy still goes, to the stranger.
      const stranger = await verifiedUser(server, 'stranger@example.org');
      expect((await stranger.post(`/api/giving/receipts/${paid.stranger}`)).json).toEqual({
        sentTo: 'stranger@example.org',
      });
    });
  });

  describe('the year-end statement', () => {
    it("is a PDF of the year's payments, charities with their EINs, totals and the wording a US donor needs", async () => {
      const { response, bytes } = await download(server, '/api/giving/statement/2025.pdf', giver);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="giving-statement-2025.pdf"');
      const pdf = await readPdf(bytes);
      expect(pdf.pages).toBe(1);
      const text = pdf.text.join(' ');
      const year = await history(giver, '?year=2025');
      for (const expected of [
        'Soundcause',
        'Year-end giving statement 2025',
        'Test User',
        GIVER,
        'Relief Songs',
        'Hope Songs (gift for Robin Gift)',
        'Gift to Soundcause',
        'EIN 53-0196605',
        'EIN 13-1788491',
        // Dates are the site's: the payment at 07:00 UTC on January 1 shows on December 31.
        'Dec 31, 2025',
        formatCents(year.taxDeductibleCents),
        ...year.byCharity.map((charity) => formatCents(charity.taxDeductibleCents)),
        STATEMENT_WORDING.goods,
        'hello@soundcause.org',
      ]) {
        expect(text, expected).toContain(expected);
      }
      expect(text).not.toContain('Jan 1, 2026');
    });

    it('has one page per 40 donations, the table going on under its header; and writes what Helvetica cannot as it can', async () => {
      const MANY = 'many@example.org';
      server.db
        .update(fundraisers)
        .set({ name: 'Night Songs 🎸 夜 Őrült' })
        .where(eq(fundraisers.id, emojiFundraiser))
        .run();
      const start = Date.parse('2025-02-01T20:00:00Z');
      server.sqlite
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 41)
           INSERT INTO donations (fundraiser_id, payment_intent_id, provider, email, name, amount_cents, tip_cents,
             minimum_cents, charity_ein, charity_name, status, succeeded_at)
           SELECT ?, 'many_' || i, 'test', ?, 'Many Gifts', 1000 + i, 100, ?, ?, 'American National Red Cross',
             'succeeded', ? + i * 86400000
           FROM n`,
        )
        .run(emojiFundraiser, MANY, MINIMUM, RED_CROSS, start);
      journalPaidDonations(server, 'many_%', 52);
      const many = await verifiedUser(server, MANY);
      const year = await history(many, '?year=2025');
      expect(year.donations).toHaveLength(41);
      // Each gave 1000 + i above a minimum of 500: 41 × 500 + (1 + … + 41).
      expect(year.taxDeductibleCents).toBe(41 * 500 + 861);

      const { response, bytes } = await download(server, '/api/giving/statement/2025.pdf', many);
      expect(response.status).toBe(200);
      const pdf = await readPdf(bytes);
      expect(pdf.pages).toBe(2);
      expect(pdf.text[0]).toContain('Night Songs ? ? Orült');
      expect(pdf.text[1]).toContain('(continued)');
      expect(pdf.text[1]).toContain('Tax-deductible');
      expect(pdf.text[1]).toContain(formatCents(41 * 500 + 861));
      expect(pdf.text[1]).toContain('Page 2 of 2');
    });

    it('says so for a year without donations', async () => {
      const { response, bytes } = await download(server, '/api/giving/statement/2019.pdf', giver);
      expect(response.status).toBe(200);
      const pdf = await readPdf(bytes);
      expect(pdf.pages).toBe(1);
      expect(pdf.text[0]).toContain('No donations in 2019.');
      // An empty token= is no token: the signed-in donor's own statement still.
      const emptyToken = await download(server, '/api/giving/statement/2019.pdf?token=', giver);
      expect(emptyToken.response.status).toBe(200);
    });
  });

  describe('send-statements', () => {
    const STATEMENT_LINK = /\/api\/giving\/statement\/(\d{4})\.pdf\?token=([\w.-]+)/;

    function donorsOf2025() {
      const from = startOfSiteDay('2025-01-01', TIME_ZONE);
      const to = startOfSiteDay('2026-01-01', TIME_ZONE);
      return server.db
        .select({ email: sql<string>`lower(${donations.email})` })
        .from(donations)
        .where(and(eq(donations.status, 'succeeded'), gte(donations.succeededAt, from), lt(donations.succeededAt, to)))
        .groupBy(sql`lower(${donations.email})`)
        .all()
        .map((row) => row.email);
    }
    const statementEmails = (email: string) =>
      server.outbox.messages(email).filter((message) => message.includes('giving statement from'));
    /**
     * The CLI run within one year of the site's: again if New Year came while it started, as its
     * this year could then be either.
     */
    async function cliWithinYear(args: (year: number) => string[]) {
      for (;;) {
        const year = thisYear();
        const run = await runCli(args(year), server.dataDir);
        if (thisYear() === year) return { year, run };
      }
    }

    it('emails each donor of the year one link, however often and however many at once it runs', async () => {
      const donors = donorsOf2025();
      expect(donors).toEqual(expect.arrayContaining([GIVER, 'many@example.org', 'stranger@example.org']));
      const runs = await Promise.all([
        runCli(['send-statements', '--year', '2025'], server.dataDir),
        runCli(['send-statements', '--year', '2025'], server.dataDir),
      ]);
      const counts = runs.map((run) => {
        expect(run.code, run.stderr).toBe(0);
        const found = /: (\d+) statement emails? sent .*; (\d+) donors? had theirs already/.exec(run.stdout);
        expect(found, run.stdout).not.toBeNull();
        return { sent: Number(found![1]), hadOne: Number(found![2]) };
      });
      expect(counts[0]!.sent + counts[1]!.sent).toBe(donors.length);
      expect(counts.every((count) => count.sent + count.hadOne === donors.length)).toBe(true);
      await server.jobs.drain();
      const again = await runCli(['send-statements', '--year', '2025'], server.dataDir);
      expect(again.stdout).toContain(
        `2025: 0 statement emails sent (queued for the site's job runner); ${donors.length} donors had theirs already`,
      );
      await server.jobs.drain();
      for (const donor of donors) expect(statementEmails(donor), donor).toHaveLength(1);
      expect(
        server.db
          .select()
          .from(givingStatements)
          .all()
          .every((row) => row.sentAt !== null),
      ).toBe(true);
    }, 60_000);

    it('refuses a year that is not over, and a run that names none', async () => {
      const { year, run: current } = await cliWithinYear((year) => ['send-statements', '--year', String(year)]);
      expect(current.code).toBe(1);
      expect(current.stderr).toContain(`${year} is not over yet`);
      const none = await runCli(['send-statements'], server.dataDir);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('Name the year: npm run cli -- send-statements --year YYYY');
      const wrong = await runCli(['send-statements', '--year', '1999'], server.dataDir);
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toContain(givingMessages.year());
    }, 30_000);

    it("takes `--year previous` for the year before this one, as the deploy kit's January timer runs it", async () => {
      const { year, run: previous } = await cliWithinYear(() => ['send-statements', '--year', 'previous']);
      expect(previous.code, previous.stderr).toBe(0);
      expect(previous.stdout).toMatch(new RegExp(`^${year - 1}: \\d+ statement emails? sent`));
    }, 30_000);

    it("opens the donor's statement from the email's link without a session, and nothing else with it", async () => {
      // Quoted-printable: soft line breaks undone, and "=" written as "=3D".
      const email = statementEmails(GIVER)[0]!
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      expect(email).toContain('Subject: Your 2025 giving statement from Soundcause');
      const [, year, token] = STATEMENT_LINK.exec(email)!;
      expect(year).toBe('2025');
      const { response, bytes } = await download(server, `/api/giving/statement/2025.pdf?token=${token}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const pdf = await readPdf(bytes);
      expect(pdf.text[0]).toContain('Test User');
      expect(pdf.text[0]).toContain('Relief Songs');

      const refused = async (path: string, message: string) => {
        const answer = await server.client().get(path);
        expect(answer.status, path).toBe(403);
        expect(answer.json).toMatchObject({ message });
      };
      // Another year, a token altered, one cut short: refused alike.
      await refused(`/api/giving/statement/2024.pdf?token=${token}`, givingMessages.statementLinkInvalid);
      // A character of the signature's middle: its last carries two bits of padding besides, and
      // A, B, C and D there are the same bytes (1 signature in 16, as its expiry falls).
      const middle = token!.length - 20;
      const altered = `${token!.slice(0, middle)}${token![middle] === 'A' ? 'B' : 'A'}${token!.slice(middle + 1)}`;
      await refused(`/api/giving/statement/2025.pdf?token=${altered}`, givingMessages.statementLinkInvalid);
      await refused(`/api/giving/statement/2025.pdf?token=${token!.slice(0, -5)}`, givingMessages.statementLinkInvalid);
      // Another statement's id with this one's signature.
      const [id, ...rest] = token!.split('.');
      await refused(
        `/api/giving/statement/2025.pdf?token=${Number(id) + 1}.${rest.join('.')}`,
        givingMessages.statementLinkInvalid,
      );
      // One signed here whose time is up says so.
      const row = server.db
        .select()
        .from(givingStatements)
        .where(eq(givingStatements.id, Number(id)))
        .get()!;
      const expired = server.deps.urlGrants.signStatement(row, new Date(Date.now() - 1000));
      await refused(`/api/giving/statement/2025.pdf?token=${expired}`, givingMessages.statementLinkExpired);
    });
  });

  it('keeps the album of a gift with its recipient', () => {
    const donation = server.db.select().from(donations).where(eq(donations.paymentIntentId, paid.gift)).get()!;
    const purchase = server.db.select().from(purchases).where(eq(purchases.donationId, donation.id)).get();
    expect(purchase?.email).toBe(gift.recipientEmail);
  });
});

describe('giving history after refunds and disputes (Stripe path)', () => {
  const stripe = useStripeServer('giving-refunds-owner@example.org');
  const DONOR = 'refunded@example.org';
  let donor: TestClient;

  beforeAll(async () => {
    donor = await verifiedUser(stripe.server, DONOR);
  });

  async function refund(paymentIntentId: string, cents?: number) {
    stripe.fake.refund(paymentIntentId, cents);
    expect((await stripe.deliver(stripe.fake.event('charge.refunded', paymentIntentId))).status).toBe(200);
  }

  it('shows what went back and leaves only what the charity kept above the minimum deductible', async () => {
    // $25.00 and a $5.00 tip, $15.00 refunded: the charity gives back 25/30 of it, $12.50.
    const partly = await stripe.pay({ email: DONOR, donationCents: 2500, tipCents: 500, feeCents: 96 });
    await refund(partly, 1500);
    // $30.00 refunded in full: nothing is left to deduct.
    const fully = await stripe.pay({ email: DONOR, donationCents: 3000, tipCents: 0, feeCents: 96 });
    await refund(fully);
    // $40.00 and a $10.00 tip; the bank takes $20.00 back and the dispute is lost: 4/5 of it the charity's.
    const lost = await stripe.pay({ email: DONOR, donationCents: 4000, tipCents: 1000, feeCents: 175 });
    const lostDispute = stripe.fake.dispute(lost, 2000);
    await stripe.deliver(stripe.fake.event('charge.dispute.created', lostDispute.id));
    stripe.fake.closeDispute(lostDispute.id, 'lost');
    expect((await stripe.deliver(stripe.fake.event('charge.dispute.closed', lostDispute.id))).status).toBe(200);
    // $20.00, half of it disputed and the dispute still open: nothing went back yet, but the charity
    // does not hold that half, so it is not deducted.
    const open = await stripe.pay({ email: DONOR, donationCents: 2000, tipCents: 0, feeCents: 74 });
    const openDispute = stripe.fake.dispute(open, 1000);
    expect((await stripe.deliver(stripe.fake.event('charge.dispute.created', openDispute.id))).status).toBe(200);

    const year = await history(donor);
    const line = (id: string) => byIntent(year, id)!;
    expect(line(partly)).toMatchObject({ donationCents: 2500, tipCents: 500, refundedCents: 1500 });
    expect(line(partly).taxDeductibleCents).toBe(2500 - 1250 - MINIMUM);
    expect(line(fully)).toMatchObject({ donationCents: 3000, refundedCents: 3000, taxDeductibleCents: 0 });
    expect(line(lost)).toMatchObject({ refundedCents: 2000, taxDeductibleCents: 4000 - 1600 - MINIMUM });
    expect(line(open)).toMatchObject({ refundedCents: 0, taxDeductibleCents: 2000 - 1000 - MINIMUM });
    expect(year.taxDeductibleCents).toBe(750 + 0 + 1900 + 500);
    expect(year.byCharity).toEqual([
      { ein: RED_CROSS, charityName: expect.any(String), taxDeductibleCents: year.taxDeductibleCents },
    ]);

    // The statement says the same.
    const { bytes } = await download(stripe.server, `/api/giving/statement/${year.year}.pdf`, donor);
    const text = (await readPdf(bytes)).text.join(' ');
    expect(text).toContain(formatCents(year.taxDeductibleCents));
    expect(text).toContain(formatCents(3000));

    // A copy of a receipt asked for after a refund says what went back since (the journal's sums).
    expect((await donor.post(`/api/giving/receipts/${partly}`)).status).toBe(202);
    expect((await donor.post(`/api/giving/receipts/${open}`)).status).toBe(202);
    await stripe.server.jobs.drain();
    const copies = stripe.server.outbox
      .messages(DONOR)
      .filter((message) => /Subject: Copy of your receipt: /.test(message))
      .map((message) => message.replace(/=\r?\n/g, ''));
    expect(copies).toHaveLength(2);
    expect(copies.filter((copy) => copy.includes('Since then $15.00 of this payment went back to you'))).toHaveLength(
      1,
    );
    // An open dispute is not money back yet: that copy says nothing went back.
    expect(copies.filter((copy) => copy.includes('went back to you'))).toHaveLength(1);
  });
});
