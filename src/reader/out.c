/*
 * out.c — the reader's output stream (wire.h records on standard output)
 *
 * Buffered writes; an error is sent as an 'E' record and ends the process
 * with status 1.  A write that fails (the backend went away) ends it too.
 * While the worker processes of files_pool.c compare trees, the records
 * sent after their 'F' records are held there and written in order.
 *
 * Read ahead (out_ahead()): a refresh's reader walks while the backend is
 * still reading the previous load back from its tables, not reading the
 * pipe.  Then what the pipe does not take at once is kept, in a buffer that
 * grows up to AHEAD_LIMIT, rather than waited on.
 */
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_BUFSIZE (1024 * 1024)
#define AHEAD_LIMIT ((size_t) 64 * 1024 * 1024)
#define PIPE_CHUNK (64 * 1024)	/* reading ahead, write when this much is kept */

static unsigned char *buf;
static size_t used;
static size_t start;			/* buf[start .. used) is not written yet */
static size_t cap = OUT_BUFSIZE;
static bool ahead = false;

void
out_init(void)
{
	buf = malloc(OUT_BUFSIZE);
	if (buf == NULL)
		_exit(3);
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
 * waiting for the backend to read it (up to AHEAD_LIMIT)
 */
void
out_ahead(void)
{
	int			flags = fcntl(STDOUT_FILENO, F_GETFL);

	if (flags >= 0 && fcntl(STDOUT_FILENO, F_SETFL, flags | O_NONBLOCK) == 0)
		ahead = true;
}

/* reading ahead: write what the pipe takes now of the bytes kept */
static void
write_ahead(void)
{
	start += write_some(buf + start, used - start, false);
	if (start == used)
		start = used = 0;
}

/*
 * Room for len more bytes in the buffer: by writing what the pipe takes,
 * then (reading ahead) by growing the buffer, then by waiting.  False when
 * len does not fit even in an empty buffer.
 */
static bool
room_for(size_t len)
{
	if (used + len <= cap)
		return true;
	if (ahead)
	{
		write_ahead();
		memmove(buf, buf + start, used - start);
		used -= start;
		start = 0;
		if (used + len <= cap)
			return true;
		if (used + len <= AHEAD_LIMIT)
		{
			size_t		bigger = cap;
			unsigned char *p;

			while (used + len > bigger)
				bigger *= 2;
			bigger = bigger < AHEAD_LIMIT ? bigger : AHEAD_LIMIT;
			/* no xrealloc(): its error would come back here */
			p = realloc(buf, bigger);
			if (p != NULL)
			{
				buf = p;
				cap = bigger;
				return true;
			}
		}
	}
	out_flush_buffer();
	return len <= cap;
}

/*
 * Hand the backend what is buffered: reading ahead, what the pipe takes
 * now; else all of it
 */
void
out_push(void)
{
	if (ahead)
		write_ahead();
	else
		out_flush_buffer();
}

/* bytes appended: reading ahead, hand the pipe what it takes */
static void
appended(void)
{
	if (ahead && used - start >= PIPE_CHUNK)
		write_ahead();
}

/* bytes that are records already (held by files_pool.c) */
void
out_raw(const void *data, size_t len)
{
	if (!room_for(len))
	{
		write_all(data, len);
		return;
	}
	memcpy(buf + used, data, len);
	used += len;
	appended();
}

/* what is buffered, without waiting for the workers */
void
out_flush_buffer(void)
{
	write_all(buf + start, used - start);
	start = used = 0;
}

/* a worker of files_pool.c: what the reader buffered before the fork is not its own */
void
out_discard(void)
{
	start = used = 0;
	ahead = false;				/* its standard output is its own pipe, which waits */
}

/* everything sent so far, the 'F' records the workers compute included */
void
out_flush(void)
{
	files_pool_drain();
	out_flush_buffer();
}

void
out_record(char type, const void *payload, size_t len)
{
	unsigned char header[WIRE_HEADER_SIZE];

	if (len > WIRE_MAX_PAYLOAD)
		fail("54000", NULL, NULL, "an object of %zu bytes is too large to read", len);
	header[0] = (unsigned char) type;
	wire_put_u32(header + 1, (uint32_t) len);
	if (files_pool_hold(header, payload, len))
		return;
	if (!room_for(WIRE_HEADER_SIZE + len))
	{
		write_all(header, WIRE_HEADER_SIZE);
		write_all(payload, len);
		return;
	}
	memcpy(buf + used, header, WIRE_HEADER_SIZE);
	memcpy(buf + used + WIRE_HEADER_SIZE, payload, len);
	used += WIRE_HEADER_SIZE + len;
	appended();
}

/* message payload: level, sqlstate, three strings */
static void
send_message(char level, const char *sqlstate, const char *msg, const char *detail,
			 const char *hint)
{
	const char *strs[3] = {msg, detail ? detail : "", hint ? hint : ""};
	size_t		len = 6;
	unsigned char *p;
	size_t		off = 6;

	for (int i = 0; i < 3; i++)
		len += 4 + strlen(strs[i]);
	p = malloc(len);
	if (p == NULL)
		_exit(3);
	p[0] = (unsigned char) level;
	memcpy(p + 1, sqlstate, 5);
	for (int i = 0; i < 3; i++)
	{
		size_t		n = strlen(strs[i]);

		wire_put_u32(p + off, (uint32_t) n);
		memcpy(p + off + 4, strs[i], n);
		off += 4 + n;
	}
	out_record(level == 'E' ? WIRE_ERROR : WIRE_MESSAGE, p, len);
	free(p);
}

/* the 'E' record, after every record sent before it, and the end */
static void
__attribute__((noreturn))
send_error(const char *sqlstate, const char *msg, const char *detail, const char *hint)
{
	files_pool_drain();
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
