/*
 * tags.h — the tags of a repository that peel to a commit
 */
#ifndef FIXES_TAGS_H
#define FIXES_TAGS_H

#include "git_util.h"
#include "text_decode.h"

typedef struct FixesTag
{
	char	   *name;			/* without "refs/tags/", in the database encoding */
	git_oid		commit;			/* the commit it peels to */
	bool		annotated;
	int64		time;			/* tagger time, else the commit's committer time */
	char	   *tagger;			/* "Name <email>", NULL when not annotated */
} FixesTag;

extern FixesTag *fixes_read_tags(FixesGit *git, FixesDecoder *d, int *ntags);

#endif							/* FIXES_TAGS_H */
