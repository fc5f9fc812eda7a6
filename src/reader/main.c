/*
 * main.c — fixes-reader MODE PATH [ARG]: one read of a repository
 *
 *   fixes-reader tags PATH        the tags
 *   fixes-reader head PATH REF    the commit REF names, then the tags, then
 *                                 the branches and remote-tracking branches
 *   fixes-reader log PATH REF     the commit REF names, then its history
 *   fixes-reader refresh PATH REF OLD [FILE]   a refresh after the load of
 *                                 commit OLD: what head sends, then with
 *                                 FILE what blob sends for REF's commit and
 *                                 FILE, then a head record for OLD (found:
 *                                 it is in the repository), then if it is,
 *                                 the history of REF's commit without OLD's,
 *                                 as walk sends it when told OLD.  It reads
 *                                 ahead: it goes on while the backend reads
 *                                 the previous load back, without waiting
 *                                 for it to read.
 *   fixes-reader refresh-files PATH REF OLD [FILE]   the same, the walk as
 *                                 walk-files
 *   fixes-reader walk PATH HEX... the history of the commits HEX (one or
 *                                 more), without the commits whose ids
 *                                 come on standard input (a u32 count and
 *                                 the raw ids), nor those reachable from
 *                                 the ones that come next (the same form);
 *                                 with HEX "-", the start points come
 *                                 first on standard input (the same form:
 *                                 any number, where a command line holds
 *                                 about 2 MB); "- --ahead" reads ahead as
 *                                 a refresh does (out_ahead()), keeping up
 *                                 to an eighth of its address space: a
 *                                 load's stable scope is started while the
 *                                 backend still writes the mainline
 *   fixes-reader walk-files PATH HEX...   the same, each commit followed by
 *                                 its changed files ('F')
 *   fixes-reader reach PATH [lenient]   the entry points into a history
 *                                 of heads outside it (reach.c): the heads
 *                                 on standard input, then the ids of the
 *                                 history (each a u32 count and raw ids);
 *                                 lenient: a missing commit has no parents
 *   fixes-reader blob PATH HEX FILE    the file FILE of commit HEX's tree
 *                                 and the tree's directories ('O', 'D')
 *   head and refresh take options after their arguments, in any order:
 *     --list=BYTES (refresh only; walk.c, walk_hidden_list()): before the
 *                                 commits, the 'L' record of what it will
 *                                 send, at most BYTES long
 *     --ask-tags (tags.c): the names of the tags first ('N', 'Q'), then
 *                                 only the tags whose indexes come on
 *                                 standard input are peeled and sent
 *     --refs=SCOPE:SALT[:HASH] (refs.c): the 'R' record after the
 *                                 branches, the hash of the refs read; with
 *                                 HASH, refresh compares it first and, when
 *                                 it is that of the refs and REF names OLD,
 *                                 sends 'R' "unchanged" instead of the tags
 *                                 and branches
 *   fixes-reader blobs PATH FILE HEX...   what blob sends, for each commit
 *                                 HEX in turn (the MAINTAINERS file of
 *                                 each release, load_files.c); a tree or
 *                                 blob missing from a partial clone is
 *                                 sent as no file
 *
 * Output: the records of wire.h on standard output, ending with 'Z' (or
 * 'E' and exit status 1).  Started only by the fixes extension's backend.
 * libgit2's options are process-wide:
 * - no object cache: each commit is read once, a cache would only hold memory;
 * - no strict hash verification: objects are still inflated and checked by
 *   zlib, but not hashed again on every read;
 * - a bounded pack window, so the memory mapped for pack files stays under
 *   MAPPED_LIMIT whatever the size of the repository (walk-files with
 *   FIXES_READER_PACKS=libgit2: half the address space it may use, see
 *   files_mapped_limit(); otherwise pack_read.c maps the trees and blobs
 *   itself, and libgit2 reads the commits);
 * - no owner validation (git's safe.directory): the server's OS user rarely
 *   owns the repositories it reads, and only superusers and members of
 *   pg_read_server_files may name a path at all.
 */
#include "reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MWINDOW_SIZE	((size_t) 32 * 1024 * 1024)
#define MAPPED_LIMIT	((size_t) 256 * 1024 * 1024)

/*
 * What a walk that reads ahead (a load's stable scope) may keep unread: an
 * eighth of the address space, 256 MB at most (the default limit's share).
 * make-history's 6 stable series at 1.3M commits are a stream of about
 * 100 MB.
 */
static size_t
walk_ahead_limit(void)
{
	size_t		limit = (size_t) 256 * 1024 * 1024;
	size_t		share = reader_address_space(SIZE_MAX) / 8;

	return share < limit ? share : limit;
}

/*
 * Comparing trees and files reads objects from all over the pack files, not
 * the runs of commits a walk reads: with windows of 256 MB mapped at most,
 * a pack larger than that is mapped and unmapped again and again (seven
 * times slower on a pack of 1 GB).  walk-files may map half of the address
 * space the backend allows it (fixes.reader_memory_limit), 8 GB without a
 * limit.
 */
static size_t
files_mapped_limit(void)
{
	size_t		limit = (size_t) 8 * 1024 * 1024 * 1024;
	size_t		share = reader_address_space(SIZE_MAX) / 2;

	if (share < limit)
		limit = share;
	return limit > MAPPED_LIMIT ? limit : MAPPED_LIMIT;
}

static void
send_head(Repo *r, bool found, const git_oid *oid)
{
	unsigned char rec[WIRE_HEAD_SIZE];
	WireHead	h;

	memset(&h, 0, sizeof(h));
	h.found = found;
	h.shallow = r->shallow;
	if (found)
		memcpy(h.oid.id, oid->id, FIXES_OID_RAWSZ);
	out_record(WIRE_HEAD, rec, wire_encode_head(rec, &h));
}

/*
 * The tags and the branches (both, whatever the scope: the backend matches
 * the branches against stable_branches), peeled and sent, then the 'R'
 * record with the hash of the refs as they were read: the very refs that
 * were peeled, so that the hash and the tags the load stores agree even
 * when a ref moves meanwhile.
 */
static void
send_tags_and_refs(Repo *r, const RefsOption *o, bool ask_tags)
{
	RefList		tags = {0};
	RefList		branches = {0};
	git_oid		h;

	send_tags(r, &tags, ask_tags);
	send_branches(r, &branches);
	if (tags.unreadable || (o->branches && branches.unreadable))
	{
		send_refs(REFS_UNREADABLE, NULL);
		refs_free(&tags);
		refs_free(&branches);
		return;
	}
	/* the branches' entries are part of the hash only with scope "tb" */
	if (o->branches)
		refs_append(&tags, &branches);
	refs_hash(&tags, o->salt, o->branches, &h);
	send_refs(REFS_READ, &h);
	refs_free(&tags);
	refs_free(&branches);
}

int
main(int argc, char **argv)
{
	const char *mode;
	Repo		r;
	git_oid		head;
	bool		found;
	bool		is_walk;
	bool		is_refresh;
	RefsOption	refs = {0};
	bool		has_refs = false;
	bool		has_list = false;
	size_t		list_max = 0;
	bool		ask_tags = false;
	bool		head_or_refresh;
	bool		walk_ahead = false;

	out_init();
	/*
	 * head and refresh: the options after the arguments, in any order:
	 * --refs (refs.c), --ask-tags (tags.c), and refresh's --list (walk.c)
	 */
	head_or_refresh = argc >= 4 &&
		(strcmp(argv[1], "head") == 0 || strcmp(argv[1], "refresh") == 0 ||
		 strcmp(argv[1], "refresh-files") == 0);
	/* never REF, nor refresh's OLD */
	while (head_or_refresh && argc > (strcmp(argv[1], "head") == 0 ? 4 : 5) &&
		   strncmp(argv[argc - 1], "--", 2) == 0)
	{
		const char *opt = argv[argc - 1];

		if (strncmp(opt, "--refs=", 7) == 0 && !has_refs)
		{
			if (!refs_parse_option(opt, &refs))
				fail("22023", NULL, NULL, "\"%s\" is not a refs option", opt);
			has_refs = true;
		}
		else if (strcmp(opt, "--ask-tags") == 0 && !ask_tags)
			ask_tags = true;
		else if (strncmp(opt, "--list=", 7) == 0 && !has_list && strcmp(argv[1], "head") != 0)
		{
			char	   *end;
			unsigned long long v = strtoull(opt + 7, &end, 10);

			if (*end != '\0' || end == opt + 7)
				fail("22023", NULL, NULL, "\"%s\" is not a list option", opt);
			list_max = (size_t) v;
			has_list = true;
		}
		else
			break;
		argv[--argc] = NULL;
	}
	is_walk = argc >= 2 &&
		(strcmp(argv[1], "walk") == 0 || strcmp(argv[1], "walk-files") == 0);
	if (is_walk && argc == 5 && strcmp(argv[3], "-") == 0 && strcmp(argv[4], "--ahead") == 0)
	{
		walk_ahead = true;
		argv[--argc] = NULL;
	}
	is_refresh = argc >= 2 &&
		(strcmp(argv[1], "refresh") == 0 || strcmp(argv[1], "refresh-files") == 0);
	if (argc < 3 ||
		(strcmp(argv[1], "tags") != 0 && strcmp(argv[1], "blob") != 0 &&
		 strcmp(argv[1], "blobs") != 0 && strcmp(argv[1], "reach") != 0 && !is_walk &&
		 !is_refresh && argc != 4) ||
		(is_walk && argc < 4) ||
		(strcmp(argv[1], "blob") == 0 && argc != 5) ||
		(strcmp(argv[1], "blobs") == 0 && argc < 5) ||
		(strcmp(argv[1], "reach") == 0 && argc != 3 &&
		 (argc != 4 || strcmp(argv[3], "lenient") != 0)) ||
		(is_refresh && argc != 5 && argc != 6))
		fail("22023", NULL, NULL, "usage: fixes-reader tags|head|log PATH [REF], fixes-reader walk|walk-files PATH HEX... (or - [--ahead]), fixes-reader refresh|refresh-files PATH REF HEX [FILE], fixes-reader blob PATH HEX FILE, fixes-reader blobs PATH FILE HEX..., fixes-reader reach PATH [lenient]");
	mode = argv[1];
	if (git_libgit2_init() < 0)
		fail("38000", NULL, NULL, "could not initialize libgit2");
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, MWINDOW_SIZE);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT,
					 (strcmp(argv[1], "walk-files") == 0 || strcmp(argv[1], "refresh-files") == 0) &&
					 !pack_read_enabled() ? files_mapped_limit() : MAPPED_LIMIT);
	git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, 0);

	/*
	 * Only the repository's own config is read: not the server
	 * OS user's ~/.gitconfig, nor $XDG_CONFIG_HOME/git/config, nor the
	 * system's /etc/gitconfig, whose contents would change what a load
	 * answers and, when broken, make every load fail.  An empty search
	 * path finds no file; what libgit2 reads of a config (core.* of the
	 * repository, extensions) stays the repository's.
	 */
	{
		const int	levels[] = {GIT_CONFIG_LEVEL_GLOBAL, GIT_CONFIG_LEVEL_XDG,
		GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_PROGRAMDATA};

		for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
			if (git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, levels[i], "") < 0)
				fail("38000", NULL, NULL, "could not set the config search path of libgit2");
	}
	{
		/*
		 * A partial clone (extensions.partialclone) is read as it is: an
		 * object that is not there is missing.  libgit2 has no promisor
		 * remotes, so nothing is ever fetched.
		 */
		const char *ext[] = {"partialclone"};

		git_libgit2_opts(GIT_OPT_SET_EXTENSIONS, ext, (size_t) 1);
	}

	if (strcmp(mode, "walk") == 0 || strcmp(mode, "walk-files") == 0)
	{
		/*
		 * The start points: the arguments, or with the one argument "-"
		 * the ids first on stdin (any number: a command line holds about
		 * 2 MB); then the ids the backend holds, then those whose history
		 * it holds.
		 */
		bool		heads_in = argc == 4 && strcmp(argv[3], "-") == 0;
		uint32_t	nheads_in = 0;
		FixesOid   *heads_ids = heads_in ? in_ids(&nheads_in) : NULL;
		uint32_t	nknown;
		FixesOid   *known_ids = in_ids(&nknown);
		uint32_t	nhide;
		FixesOid   *hide = in_ids(&nhide);
		OidSet	   *known;
		int			nheads = heads_in ? (int) nheads_in : argc - 3;
		git_oid    *heads = xmalloc(sizeof(git_oid) * (nheads > 0 ? nheads : 1));

		repo_open(&r, argv[2]);
		if (walk_ahead)
			out_ahead(walk_ahead_limit());
		if (heads_in)
			for (int h = 0; h < nheads; h++)
				memcpy(heads[h].id, heads_ids[h].id, GIT_OID_RAWSZ);
		for (int h = 0; !heads_in && h < nheads; h++)
			if (strlen(argv[3 + h]) != GIT_OID_HEXSZ || git_oid_fromstr(&heads[h], argv[3 + h]) < 0)
				fail("22023", NULL, NULL, "\"%s\" is not a commit id", argv[3 + h]);
		if (nhide > 0 && nknown == 0)
			walk_hidden(&r, heads, nheads, hide, nhide, strcmp(mode, "walk-files") == 0);
		else
		{
			if (nhide > 0)
				fail("08P01", NULL, NULL, "a walk was sent both the commits to skip and heads to hide");
			/* a base set is sorted rather than hashed: see oidset.c */
			known = oidset_with_base(known_ids, nknown);
			walk_history(&r, heads, nheads, known, strcmp(mode, "walk-files") == 0);
		}
	}
	else if (is_refresh)
	{
		git_oid		old;
		bool		old_found;
		FixesOid	hide;

		repo_open(&r, argv[2]);
		if (strlen(argv[4]) != GIT_OID_HEXSZ || git_oid_fromstr(&old, argv[4]) < 0)
			fail("22023", NULL, NULL, "\"%s\" is not a commit id", argv[4]);
		/*
		 * Each part as soon as it is read, without waiting for the backend
		 * to read it: it may be reading the previous load back first.
		 */
		found = repo_resolve(&r, argv[3], &head);
		send_head(&r, found, &head);
		out_ahead(0);
		out_push();
		/* the head and the refs of the previous load: no tag peeled */
		if (has_refs && found && git_oid_equal(&head, &old) && refs_unchanged(&r, &refs))
			send_refs(REFS_UNCHANGED, &refs.previous);
		else if (has_refs)
			send_tags_and_refs(&r, &refs, ask_tags);
		else
		{
			send_tags(&r, NULL, ask_tags);
			send_branches(&r, NULL);
		}
		out_push();
		if (found && argc == 6)
		{
			send_blob(&r, &head, argv[5], false);
			out_push();
		}
		old_found = git_odb_exists(r.odb, &old) != 0;
		send_head(&r, old_found, &old);
		out_push();
		if (found && old_found)
		{
			memcpy(hide.id, old.id, FIXES_OID_RAWSZ);
			files_pool_workers = 1;
			if (has_list)
			{
				walk_hidden_list(&r, &head, 1, &hide, 1, list_max);
				out_push();
			}
			walk_hidden(&r, &head, 1, &hide, 1, strcmp(mode, "refresh-files") == 0);
		}
	}
	else if (strcmp(mode, "reach") == 0)
	{
		uint32_t	nheads;
		FixesOid   *heads = in_ids(&nheads);
		uint32_t	nknown;
		FixesOid   *known_ids = in_ids(&nknown);

		repo_open(&r, argv[2]);
		reach_entries(&r, heads, nheads, oidset_with_base(known_ids, nknown), argc == 4);
	}
	else if (strcmp(mode, "blob") == 0)
	{
		repo_open(&r, argv[2]);
		if (strlen(argv[3]) != GIT_OID_HEXSZ || git_oid_fromstr(&head, argv[3]) < 0)
			fail("22023", NULL, NULL, "\"%s\" is not a commit id", argv[3]);
		send_blob(&r, &head, argv[4], false);
	}
	else if (strcmp(mode, "blobs") == 0)
	{
		repo_open(&r, argv[2]);
		for (int k = 4; k < argc; k++)
		{
			if (strlen(argv[k]) != GIT_OID_HEXSZ || git_oid_fromstr(&head, argv[k]) < 0)
				fail("22023", NULL, NULL, "\"%s\" is not a commit id", argv[k]);
			send_blob(&r, &head, argv[3], true);
		}
	}
	else
	{
		repo_open(&r, argv[2]);
		if (strcmp(mode, "tags") == 0)
			send_tags(&r, NULL, false);
		else if (strcmp(mode, "head") == 0 || strcmp(mode, "log") == 0)
		{
			found = repo_resolve(&r, argv[3], &head);
			send_head(&r, found, &head);
			if (strcmp(mode, "head") == 0 && has_refs)
				send_tags_and_refs(&r, &refs, ask_tags);
			else if (strcmp(mode, "head") == 0)
			{
				send_tags(&r, NULL, ask_tags);
				send_branches(&r, NULL);
			}
			else if (found)
				walk_history(&r, &head, 1, oidset_new(0), false);
		}
		else
			fail("22023", NULL, NULL, "unknown mode \"%s\"", mode);
	}
	files_pool_drain();
	out_record(WIRE_END, NULL, 0);
	out_flush();
	return 0;
}
