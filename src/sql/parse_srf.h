/*
 * parse_srf.h — what the SQL wrappers of the pure parsers share
 */
#ifndef FIXES_PARSE_SRF_H
#define FIXES_PARSE_SRF_H

#include "fmgr.h"
#include "funcapi.h"

/* the message a wrapper parses, and the tuplestore its rows go into */
typedef struct FixesParseSrf
{
	const char *msg;
	size_t		len;
	ReturnSetInfo *rsinfo;
} FixesParseSrf;

extern FixesParseSrf fixes_parse_srf_begin(FunctionCallInfo fcinfo);
extern text *fixes_abbrev_text(const char *hex, size_t len);
extern void fixes_parse_srf_row(ReturnSetInfo *rsinfo, int32 line, text *a, text *b);

#endif							/* FIXES_PARSE_SRF_H */
