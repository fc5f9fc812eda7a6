/*
 * out.c — the reader's output stream (wire.h records on standard output)
 *
 * Buffered writes; an error is sent as an 'E' record and ends the process
 * with status 1.  A write that fails (the backend went away) ends it too.
 * This is the bottom of the reader: every other file calls it, it calls
 * none of them.  What a file above keeps to be written later (files_pool.c:
 * the records of commits whose 'F' record a worker still computes) it
 * writes here in its turn; before an error record, the one function given
 * to out_before_error() writes what it keeps, so that the error comes after
 * every record sent before it.
 *
 * Read ahead (out_ahead()): a refresh's reader walks while the backend is
 * still reading the previous load back from its tables, not reading the
 * pipe.  Then what the pipe does not take at once is kept, in a buffer that
 * grows up to the limit given (a refresh: AHEAD_LIMIT), rather than waited on.
 */
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#define OUT_BUFSIZE (1024 * 1024)
#define AHEAD_LIMIT ((size_t) 64 * 1024 * 1024)
#define PIPE_CHUNK (64 * 1024)	/* reading ahead, write when this much is kept */

static struct
{
	unsigned char *buf;
	size_t		used;
	size_t		start;			/* buf[start .. used) is not written yet */
	size_t		cap;
	bool		ahead;			/* keep what the pipe does not take (out_ahead()) */
	size_t		ahead_limit;	/* up to this many bytes */
	void		(*before_error) (void);	/* out_before_error() */
}			stream;

void
out_init(void)
{
	stream.cap = OUT_BUFSIZE;
	stream.buf = malloc(stream.cap);
	if (stream.buf == NULL)
		_exit(3);
}

/* fn writes (with out_raw()) what its file keeps, before an error record */
void
out_before_error(void (*fn) (void))
{
	stream.before_error = fn;
}

/*
 * Write len bytes of data, or (wait false) what standard output takes
 * without waiting; returns the bytes written.
 */
static size_t
write_some(const void *data, size_t len, bool wait)
{
	const unsigned char *p = data;
	size_t		done = 0;

	while (done < len)
	{
		ssize_t		n = write(STDOUT_FILENO, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		{
			struct pollfd pfd = {STDOUT_FILENO, POLLOUT, 0};

			if (!wait)
				break;
			(void) poll(&pfd, 1, -1);
			continue;
		}
		if (n <= 0)
			_exit(2);			/* the backend is gone: nobody to tell */
		done += (size_t) n;
	}
	return done;
}

static void
write_all(const void *data, size_t len)
{
	(void) write_some(data, len, true);
}

/*
 * From now on, keep what standard output does not take at once instead of
 * waiting for the backend to read it (up to limit bytes; 0: AHEAD_LIMIT)
 */
void
out_ahead(size_t limit)
{
	int			flags = fcntl(STDOUT_FILENO, F_GETFL);

	stream.ahead_limit = limit > 0 ? limit : AHEAD_LIMIT;

	if (flags >= 0 && fcntl(STDOUT_FILENO, F_SETFL, flags | O_NONBLOCK) == 0)
		stream.ahead = true;
}

/* reading ahead: write what the pipe takes now of the bytes kept */
static void
write_ahead(void)
{
	stream.start += write_some(stream.buf + stream.start, stream.used - stream.start, false);
	if (stream.start == stream.used)
		stream.start = stream.used = 0;
}

/*
 * Room for len more bytes in the buffer: by writing what the pipe takes,
 * then (reading ahead) by growing the buffer, then by waiting.  False when
 * len does not fit even in an empty buffer.
 */
static bool
room_for(size_t len)
{
	if (stream.used + len <= stream.cap)
		return true;
	if (stream.ahead)
	{
		write_ahead();
		memmove(stream.buf, stream.buf + stream.start, stream.used - stream.start);
		stream.used -= stream.start;
		stream.start = 0;
		if (stream.used + len <= stream.cap)
			return true;
		if (stream.used + len <= stream.ahead_limit)
		{
			size_t		bigger = stream.cap;
			unsigned char *p;

			while (stream.used + len > bigger)
				bigger *= 2;
			bigger = bigger < stream.ahead_limit ? bigger : stream.ahead_limit;
			/* no xrealloc(): its error would come back here */
			p = realloc(stream.buf, bigger);
			if (p != NULL)
			{
				stream.buf = p;
				stream.cap = bigger;
				return true;
			}
		}
	}
	out_flush();
	return len <= stream.cap;
}

/*
 * Hand the backend what is buffered: reading ahead, what the pipe takes
 * now; else all of it
 */
void
out_push(void)
{
	if (stream.ahead)
		write_ahead();
	else
		out_flush();
}

/* bytes appended: reading ahead, hand the pipe what it takes */
static void
appended(void)
{
	if (stream.ahead && stream.used - stream.start >= PIPE_CHUNK)
		write_ahead();
}

/* bytes that are records already (those files_pool.c held) */
void
out_raw(const void *data, size_t len)
{
	if (!room_for(len))
	{
		write_all(data, len);
		return;
	}
	memcpy(stream.buf + stream.used, data, len);
	stream.used += len;
	appended();
}

/* everything buffered */
void
out_flush(void)
{
	write_all(stream.buf + stream.start, stream.used - stream.start);
	stream.start = stream.used = 0;
}

/*
 * In a worker the reader just forked (files_pool.c, prefetch.c): it dies
 * with the reader, which a cancel kills (and it exits now if the reader is
 * gone already); what the reader buffered before the fork is not its own.
 */
void
out_child(pid_t parent)
{
	(void) prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	stream.start = stream.used = 0;
	stream.ahead = false;		/* its standard output is its own pipe, which waits */
}

/* the header of a record of type and len bytes of payload */
void
out_header(unsigned char *header, char type, size_t len)
{
	if (len > WIRE_MAX_PAYLOAD)
		fail("54000", NULL, NULL, "an object of %zu bytes is too large to read", len);
	header[0] = (unsigned char) type;
	wire_put_u32(header + 1, (uint32_t) len);
}

void
out_record(char type, const void *payload, size_t len)
{
	unsigned char header[WIRE_HEADER_SIZE];

	out_header(header, type, len);
	if (!room_for(WIRE_HEADER_SIZE + len))
	{
		write_all(header, WIRE_HEADER_SIZE);
		write_all(payload, len);
		return;
	}
	memcpy(stream.buf + stream.used, header, WIRE_HEADER_SIZE);
	memcpy(stream.buf + stream.used + WIRE_HEADER_SIZE, payload, len);
	stream.used += WIRE_HEADER_SIZE + len;
	appended();
}

/* message payload: level, sqlstate, three strings */
static void
send_message(char level, const char *sqlstate, const char *msg, const char *detail,
			 const char *hint)
{
	WireMessage m;
	unsigned char *p;

	m.level = level;
	memcpy(m.sqlstate, sqlstate, 5);
	m.sqlstate[5] = '\0';
	m.message.s = msg;
	m.message.len = (uint32_t) strlen(msg);
	m.detail.s = detail ? detail : "";
	m.detail.len = (uint32_t) strlen(m.detail.s);
	m.hint.s = hint ? hint : "";
	m.hint.len = (uint32_t) strlen(m.hint.s);
	p = malloc(wire_size_message(&m));
	if (p == NULL)
		_exit(3);
	out_record(level == 'E' ? WIRE_ERROR : WIRE_MESSAGE, p, wire_encode_message(p, &m));
	free(p);
}

/* the 'E' record, after every record sent before it, and the end */
static void
__attribute__((noreturn))
send_error(const char *sqlstate, const char *msg, const char *detail, const char *hint)
{
	if (stream.before_error != NULL)
		stream.before_error();
	send_message('E', sqlstate, msg, detail, hint);
	out_flush();
	_exit(1);
}

void
out_message(char level, const char *sqlstate, const char *detail, const char *hint,
			const char *fmt,...)
{
	char		msg[2048];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	send_message(level, sqlstate, msg, detail, hint);
}

/* a WARNING (01000) whose detail is libgit2's last error message */
void
warn_git(const char *fmt,...)
{
	char		msg[2048];
	char		detail[2048];
	const char *m = git_message();
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(detail, sizeof(detail), "libgit2: %s", m ? m : "unknown error");
	send_message('W', "01000", msg, detail, NULL);
}

void
fail(const char *sqlstate, const char *detail, const char *hint, const char *fmt,...)
{
	char		msg[2048];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	send_error(sqlstate, msg, detail, hint);
}

/* libgit2's last error message, for a detail */
const char *
git_message(void)
{
	const git_error *e = git_error_last();

	return e != NULL && e->message != NULL && e->message[0] != '\0' ? e->message : NULL;
}

void
fail_git(int rc, const char *sqlstate, const char *fmt,...)
{
	char		msg[2048];
	char		detail[2048];
	const char *m = git_message();
	va_list		ap;
	const git_error *e = git_error_last();
	const char *hint = NULL;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (m != NULL)
		snprintf(detail, sizeof(detail), "libgit2: %s", m);
	else
		snprintf(detail, sizeof(detail), "libgit2 returned error code %d.", rc);
	if (e != NULL && e->klass == GIT_ERROR_NOMEMORY)
	{
		/* a damaged pack (a delta cycle) asks for memory without end */
		sqlstate = "53200";
		hint = "The repository may be damaged (run \"git fsck\"), or it needs more than fixes.reader_memory_limit.";
	}
	send_error(sqlstate, msg, detail, hint);
}

static void
out_of_memory(size_t n)
{
	fail("53200", NULL,
		 "Raise fixes.reader_memory_limit if the repository needs more.",
		 "out of memory in the reader process (a request for %zu bytes failed)", n);
}

void *
xmalloc(size_t n)
{
	void	   *p = malloc(n ? n : 1);

	if (p == NULL)
		out_of_memory(n);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void	   *q = realloc(p, n ? n : 1);

	if (q == NULL)
		out_of_memory(n);
	return q;
}

/*
 * The address space the reader may use (RLIMIT_AS, which the backend sets
 * from fixes.reader_memory_limit), or unlimited when there is no limit:
 * what the budgets of the walk's replay, the read-ahead, the pack windows
 * and caches are shares of.
 */
size_t
reader_address_space(size_t unlimited)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		return (size_t) rl.rlim_cur;
	return unlimited;
}
