/*
 * reader_proc.h — the reader process, seen from the backend
 *
 * Every read of a repository runs in a child process, fixes-reader
 * (src/reader/), started without a shell under resource limits.  The
 * backend reads its stream (wire.h) while it waits on its latch, so a
 * cancel or a timeout is noticed at once; on an error, a cancel or the end
 * of the transaction the child is killed and reaped.  A child that fails,
 * crashes or exceeds a limit becomes an ERROR naming the repository.
 */
#ifndef FIXES_READER_PROC_H
#define FIXES_READER_PROC_H

#include "wire.h"

typedef struct FixesReader
{
	const char *path;			/* the repository, for messages */
	int			pid;			/* 0 once reaped */
	int			out_fd;			/* the child's standard output */
	int			in_fd;			/* its standard input, -1 when closed */
	char	   *buf;
	size_t		cap;
	size_t		start;			/* unread bytes are buf[start..end) */
	size_t		end;
	bool		eof;
	bool		ended;			/* the 'Z' record was read */
	/* the record returned last, and whether the next call returns it again */
	bool		again;
	char		last_type;
	const unsigned char *last_payload;
	uint32		last_len;
	/* work the caller does instead of waiting for the child (or NULL) */
	bool		(*idle) (void *arg);
	void	   *idle_arg;
} FixesReader;

extern int	fixes_reader_memory_limit;	/* MB */
extern int	fixes_reader_cpu_limit;	/* seconds */
extern bool fixes_reader_prefetch;	/* fixes.reader_prefetch */

extern void fixes_check_read_privilege(void);
extern void fixes_reader_define_gucs(void);
extern FixesReader *fixes_reader_start(const char *mode, const char *path, const char *arg,
									   bool input);
extern FixesReader *fixes_reader_start_args(const char *mode, const char *path,
											const char *const *args, int nargs, bool input);
extern void fixes_reader_write(FixesReader *r, const void *data, size_t len);
extern void fixes_reader_close_input(FixesReader *r);
extern char fixes_reader_next(FixesReader *r, const unsigned char **payload, uint32 *len);
extern void fixes_reader_unread(FixesReader *r);
extern void fixes_reader_set_idle(FixesReader *r, bool (*idle) (void *arg), void *arg);
extern void fixes_reader_expect(FixesReader *r, char type, const unsigned char **payload,
								uint32 *len);
extern void fixes_reader_finish(FixesReader *r);
extern void fixes_reader_stop(FixesReader *r);
extern void fixes_reader_protocol_error(FixesReader *r, const char *what) pg_attribute_noreturn();

#endif							/* FIXES_READER_PROC_H */
