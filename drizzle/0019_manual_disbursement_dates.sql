-- A manual disbursement's date paid, entered without a time, was stored as midnight UTC: the day
-- before in every US time zone. Money pages now show calendar dates of the site's zone
-- (SITE_TIME_ZONE) and such a date is stored as the first moment of that day there. The zone is
-- not known to a migration, so the earlier ones move to noon UTC: the same calendar day in every
-- zone from UTC-12 to UTC+11, which holds all of the United States.
UPDATE `disbursements` SET `finalized_at` = `finalized_at` + 43200000
WHERE `source` = 'MANUAL' AND `finalized_at` % 86400000 = 0;
