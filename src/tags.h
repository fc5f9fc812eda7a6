/*
 * tags.h — the tags of a repository that peel to a commit
 */
#ifndef FIXES_TAGS_H
#define FIXES_TAGS_H

#include "oid.h"
#include "reader_proc.h"
#include "text_decode.h"

typedef struct FixesTag
{
	char	   *name;			/* without "refs/tags/", in the database encoding */
	FixesOid	commit;			/* the commit it peels to */
	bool		annotated;
	int64		time;			/* tagger time, else the commit's committer time */
	char	   *tagger;			/* "Name <email>", NULL when not annotated */
} FixesTag;

extern FixesTag *fixes_receive_tags(FixesReader *r, FixesDecoder *d, int *ntags);

#endif							/* FIXES_TAGS_H */
