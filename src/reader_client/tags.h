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

/* a branch or remote-tracking branch (fixes-reader head sends them) */
typedef struct FixesBranch
{
	char	   *name;			/* the full ref name, in the database encoding */
	FixesOid	commit;
} FixesBranch;

extern void fixes_answer_tags(FixesReader *r, bool (*wanted) (const char *name, void *arg),
							  void *arg);
extern FixesTag *fixes_receive_tags(FixesReader *r, FixesDecoder *d, int *ntags);
extern FixesTag *fixes_receive_tags_and_branches(FixesReader *r, FixesDecoder *d, int *ntags,
												 FixesBranch **branches, int *nbranches, bool more,
												 WireRefs *refs);

#endif							/* FIXES_TAGS_H */
