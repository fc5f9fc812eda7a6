/*
 * parse_srf.h — what the SQL wrappers of the pure parsers share
 */
#ifndef FIXES_PARSE_SRF_H
#define FIXES_PARSE_SRF_H

#include "fmgr.h"
#include "funcapi.h"

extern ReturnSetInfo *fixes_parse_srf_begin(FunctionCallInfo fcinfo, const char **msg, size_t *len);
extern text *fixes_abbrev_text(const char *hex, size_t len);

#endif							/* FIXES_PARSE_SRF_H */
