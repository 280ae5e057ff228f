-- Full-text search over fundraisers (issue 4): name, description, the artist's name and the
-- charity's name. Contentless (the text already lives in fundraisers and artists) with
-- contentless_delete so rows can be removed by id. Like artists_fts it holds only what the public
-- search may return, published and not deleted; triggers keep it in step, including when an
-- artist is renamed. bm25 weighs name 10, artist 5, charity 3, description 1.
CREATE VIRTUAL TABLE `fundraisers_fts` USING fts5(
	name,
	description,
	artist_name,
	charity_name,
	content='',
	contentless_delete=1,
	tokenize='unicode61 remove_diacritics 2',
	prefix='2 3'
);
--> statement-breakpoint
INSERT INTO `fundraisers_fts`(`fundraisers_fts`, rank) VALUES ('rank', 'bm25(10.0, 1.0, 5.0, 3.0)');
--> statement-breakpoint
CREATE TRIGGER `fundraisers_fts_insert` AFTER INSERT ON `fundraisers`
	WHEN new.status = 'PUBLISHED' AND new.deleted_at IS NULL
BEGIN
	INSERT INTO `fundraisers_fts`(rowid, name, description, artist_name, charity_name)
		SELECT new.id, new.name, new.description, a.name, new.charity_name FROM `artists` a WHERE a.id = new.artist_id;
END;
--> statement-breakpoint
CREATE TRIGGER `fundraisers_fts_delete` AFTER DELETE ON `fundraisers`
BEGIN
	DELETE FROM `fundraisers_fts` WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `fundraisers_fts_update` AFTER UPDATE OF name, description, charity_name, artist_id, status, deleted_at ON `fundraisers`
BEGIN
	DELETE FROM `fundraisers_fts` WHERE rowid = old.id;
	INSERT INTO `fundraisers_fts`(rowid, name, description, artist_name, charity_name)
		SELECT new.id, new.name, new.description, a.name, new.charity_name FROM `artists` a
		WHERE a.id = new.artist_id AND new.status = 'PUBLISHED' AND new.deleted_at IS NULL;
END;
--> statement-breakpoint
CREATE TRIGGER `fundraisers_fts_artist_rename` AFTER UPDATE OF name ON `artists`
	WHEN old.name IS NOT new.name
BEGIN
	DELETE FROM `fundraisers_fts` WHERE rowid IN (SELECT id FROM `fundraisers` WHERE artist_id = new.id);
	INSERT INTO `fundraisers_fts`(rowid, name, description, artist_name, charity_name)
		SELECT f.id, f.name, f.description, new.name, f.charity_name FROM `fundraisers` f
		WHERE f.artist_id = new.id AND f.status = 'PUBLISHED' AND f.deleted_at IS NULL;
END;
