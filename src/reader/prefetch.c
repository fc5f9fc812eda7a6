/*
 * prefetch.c — a second process inflates half of the walk's commits
 *
 * Inflating the commit objects is most of the reader's work (three
 * quarters of its instructions in a cold load), and the walk (walk.c) is a
 * chain: a commit's parents are known only once it is inflated.  git's
 * commit-graph file (commit_graph.c), where the repository has one, breaks
 * the chain: it gives every commit's parents and date without inflating
 * it, so the order in which walk_history() will read the commits (its
 * discovery order: the heads, then each commit's parents as it is sent,
 * newest first, ties by discovery) is known ahead.  A worker process,
 * forked when the walk starts, computes that order from the file and
 * inflates every other batch of BATCH commits of it; the walk reads the
 * other batches itself, as before, and takes the worker's from a pipe.
 *
 * Nothing is trusted: the walk still parses every commit and decides the
 * order from what it read, exactly as without a worker, and takes the next
 * object of the pipe only if it is the very commit it is about to read.  A
 * graph that is stale (the heads are not in it: then no worker is started
 * for nothing, or the order ends early), damaged or wrong (dates that
 * differ from the objects', parents that do) only makes a prediction fail:
 * the walk then stops the worker and reads the rest itself.  So the records
 * are byte for byte those of one process, whatever the file says.  An
 * error of the worker (an object it cannot read or that is no commit, its
 * CPU limit) ends it quietly (its standard output is /dev/null); the walk,
 * finding the pipe closed, reads that commit itself and reports what is
 * wrong as it always did.
 *
 * Processes, not threads, for the reasons files_pool.c gives; the worker
 * is a fork of the reader with the repository open (each process then has
 * its own libgit2 handles and pack locks), under the same limits (address
 * space, CPU time: rlimits are inherited), and dies with the reader
 * (PR_SET_PDEATHSIG), so a cancel, which kills the reader, ends it too.
 * Not used with files (walk-files: files_pool.c's workers take the second
 * core), for walk_hidden() (a refresh: the backend is busy then), or in a
 * shallow clone.
 *
 * Off unless FIXES_READER_PREFETCH is 1 (or 2) in the reader's environment,
 * which the backend sets from fixes.reader_prefetch (off by default: on two
 * cores it did not make loads faster, bench/README.md has the figures).
 * The tests turn it on.
 *
 * The stream from the worker: per commit, its id (20 bytes), its size
 * (u32) and the object's bytes, in the walk's order of its batches.  The
 * walk reads the pipe ahead (pump()) while it inflates its own batches, up
 * to AHEAD bytes, so that the worker is never held by a full pipe.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE				/* F_SETPIPE_SZ */
#endif
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "commit_graph.h"

#define BATCH		256			/* FIXES_READER_PREFETCH_BATCH (1 to 65536) for the tests */
#define AHEAD		((size_t) 8 * 1024 * 1024)
#define MSG_HEADER	(GIT_OID_RAWSZ + 4)
#define MIN_BATCHES 2			/* fewer commits in the graph: no worker */

static struct
{
	bool		on;				/* turned on (FIXES_READER_PREFETCH=1, or 2: and
								 * say at the end, in a DEBUG1 message to the
								 * backend, what the worker read) */
	bool		say;
	bool		active;
	bool		hooked;			/* stop_worker() is out.c's hook before an error */
	uint32_t	batch;
	bool		eof;			/* the worker has written all it will */
	pid_t		pid;
	int			fd;				/* the worker's stream */
	uint64_t	next;			/* the reads of the walk so far */
	uint64_t	taken;			/* of them, read by the worker */
	const char *why;			/* why the worker stopped, for the report */
	unsigned char *in;			/* [off, len): read from the stream, not taken */
	size_t		off;
	size_t		len;
	size_t		cap;
}			pf = {.fd = -1};

/* the owner of read i: 0 the walk, 1 the worker */
static inline int
owner(uint64_t i)
{
	return (int) ((i / pf.batch) & 1);
}

/*
 * The worker's plan: the order in which walk_history() reads the commits,
 * as the graph tells it, as positions into *plan; stops where the graph
 * does not know a commit's parents (or a head), so the plan is then a
 * prefix of the order.
 */
typedef struct PNode
{
	int64_t		time;
	uint32_t	seq;
	uint32_t	pos;
} PNode;

WALK_HEAP(pheap, PNode)

static void
pheap_push(PNode *h, size_t *len, PNode node)
{
	pheap_place(h, (*len)++, &node);
}

static uint32_t
plan_order(const CommitGraph *g, const git_oid *heads, int nheads, const OidSet *known,
		   uint32_t **plan)
{
	uint8_t    *seen = calloc((size_t) g->n / 8 + 1, 1);
	PNode	   *heap = xmalloc(sizeof(PNode) * ((size_t) g->n + 1));
	size_t		hlen = 0;
	uint32_t	n = 0;
	uint32_t   *pars = NULL;
	uint32_t	pcap = 0;
	bool		check_known = known->n > 0 || known->nbase > 0;

	*plan = xmalloc(sizeof(uint32_t) * ((size_t) g->n + 1));
	if (seen == NULL)
		return 0;
	for (int h = 0; h < nheads; h++)
	{
		uint32_t	pos;

		if (oidset_contains(known, heads[h].id))
			continue;
		if (!cgraph_find(g, heads[h].id, &pos))
			goto done;
		if (seen[pos / 8] & (1 << (pos % 8)))
			continue;
		seen[pos / 8] |= (uint8_t) (1 << (pos % 8));
		(*plan)[n] = pos;
		pheap_push(heap, &hlen, (PNode) {cgraph_time(g, pos), n, pos});
		n++;
	}
	while (hlen > 0)
	{
		PNode		cur = pheap_pop(heap, &hlen);
		int			np = cgraph_parents(g, cur.pos, &pars, &pcap);

		if (np < 0)
			break;
		for (int i = 0; i < np; i++)
		{
			uint32_t	pos = pars[i];

			if (seen[pos / 8] & (1 << (pos % 8)))
				continue;
			if (check_known && oidset_contains(known, cgraph_oid(g, pos)))
				continue;
			seen[pos / 8] |= (uint8_t) (1 << (pos % 8));
			if (n == g->n)
				goto done;		/* cannot be: each position once */
			(*plan)[n] = pos;
			pheap_push(heap, &hlen, (PNode) {cgraph_time(g, pos), n, pos});
			n++;
		}
	}
done:
	free(seen);
	free(heap);
	free(pars);
	return n;
}

/* write all of data to fd, or end the worker */
static void
write_all(int fd, const unsigned char *data, size_t len)
{
	while (len > 0)
	{
		ssize_t		n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);
		data += n;
		len -= (size_t) n;
	}
}

/* the worker: plan, then inflate its batches onto fd */
static void
__attribute__((noreturn))
worker_main(Repo *r, CommitGraph *g, const git_oid *heads, int nheads, const OidSet *known,
			int fd)
{
	uint32_t   *plan;
	uint32_t	n = plan_order(g, heads, nheads, known, &plan);
	size_t		cap = 256 * 1024;
	unsigned char *buf = xmalloc(cap);
	size_t		len = 0;

	for (uint64_t i = pf.batch; i < n; i += owner(i + 1) == 1 ? 1 : pf.batch + 1)
	{
		git_oid		oid;
		git_odb_object *obj;
		size_t		size;

		memcpy(oid.id, cgraph_oid(g, plan[i]), GIT_OID_RAWSZ);
		loose_check(r, &oid);
		if (git_odb_read(&obj, r->odb, &oid) < 0)
			break;
		if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT ||
			git_odb_object_size(obj) > WIRE_MAX_PAYLOAD)
		{
			git_odb_object_free(obj);
			break;
		}
		size = git_odb_object_size(obj);
		if (len + MSG_HEADER + size > cap)
		{
			write_all(fd, buf, len);
			len = 0;
			if (MSG_HEADER + size > cap)
			{
				cap = MSG_HEADER + size;
				buf = xrealloc(buf, cap);
			}
		}
		memcpy(buf + len, oid.id, GIT_OID_RAWSZ);
		wire_put_u32(buf + len + GIT_OID_RAWSZ, (uint32_t) size);
		memcpy(buf + len + MSG_HEADER, git_odb_object_data(obj), size);
		len += MSG_HEADER + size;
		git_odb_object_free(obj);
		/* the end of a batch, or a buffer's worth: the walk may be waiting */
		if (owner(i + 1) == 0 || len >= 64 * 1024)
		{
			write_all(fd, buf, len);
			len = 0;
		}
	}
	write_all(fd, buf, len);
	_exit(0);
}

static void stop_worker(void);

/*
 * Start the worker for walk_history(heads, known), if the repository has
 * a commit-graph file that knows the heads.  An error of the walk stops
 * and reaps it first (out_before_error(): files_pool.c's hook is not set
 * in a walk without files), rather than leave it to init.
 */
void
prefetch_begin(Repo *r, const git_oid *heads, int nheads, const OidSet *known)
{
	CommitGraph g;
	const char *env = getenv("FIXES_READER_PREFETCH");
	const char *batch = getenv("FIXES_READER_PREFETCH_BATCH");
	int			fds[2];
	pid_t		parent = getpid();
	uint32_t	pos;

	pf.next = 0;
	pf.taken = 0;
	pf.why = "no worker: turned off, or no usable commit-graph file that holds the head";
	pf.active = false;
	pf.on = env != NULL && (strcmp(env, "1") == 0 || strcmp(env, "2") == 0);
	pf.say = pf.on && env[0] == '2';
	if (!pf.on || r->shallow || nheads < 1)
		return;
	if (!cgraph_open(&g, r->objdir))
		return;
	pf.batch = BATCH;
	if (batch != NULL && atoi(batch) >= 1 && atoi(batch) <= 65536)
		pf.batch = (uint32_t) atoi(batch);
	if (g.n < MIN_BATCHES * pf.batch || !cgraph_find(&g, heads[0].id, &pos) || pipe(fds) != 0)
	{
		cgraph_close(&g);
		return;
	}
	pf.eof = false;
	pf.pid = fork();
	if (pf.pid == 0)
	{
		int			null;

		out_child(parent);
		null = open("/dev/null", O_WRONLY);
		close(fds[0]);
		/* errors go nowhere: the walk reads what the worker could not */
		if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
			_exit(1);
		close(null);
		signal(SIGPIPE, SIG_DFL);
		worker_main(r, &g, heads, nheads, known, fds[1]);
	}
	cgraph_close(&g);
	close(fds[1]);
	if (pf.pid < 0)
	{
		pf.pid = 0;
		close(fds[0]);
		return;
	}
	(void) fcntl(fds[0], F_SETPIPE_SZ, 1024 * 1024);
	(void) fcntl(fds[0], F_SETFL, O_NONBLOCK);
	pf.fd = fds[0];
	pf.active = true;
	pf.why = NULL;
	out_before_error(stop_worker);
	pf.hooked = true;
}

/* the worker is not needed any more: stopped and reaped */
static void
stop_worker(void)
{
	if (pf.fd >= 0)
		close(pf.fd);
	pf.fd = -1;
	if (pf.pid > 0)
	{
		kill(pf.pid, SIGKILL);
		while (waitpid(pf.pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	pf.pid = 0;
	pf.active = false;
	free(pf.in);
	pf.in = NULL;
	pf.off = pf.len = pf.cap = 0;
}

/*
 * The end of a walk.  With FIXES_READER_PREFETCH_REPORT set, it says on
 * standard error how many commits the worker read, and why it stopped (for
 * the tests, which must know that the worker was used).
 */
void
prefetch_end(void)
{
	if (pf.active && pf.why == NULL)
		pf.why = "the walk ended";
	stop_worker();
	if (pf.hooked)
		out_before_error(NULL);
	pf.hooked = false;
	if (pf.say)
		out_message('D', "00000", NULL, NULL,
					"fixes-reader: %llu of %llu commits read by the second process (%s)",
					(unsigned long long) pf.taken, (unsigned long long) pf.next,
					pf.why != NULL ? pf.why : "the walk ended");
	if (getenv("FIXES_READER_PREFETCH_REPORT") != NULL)
		fprintf(stderr, "prefetch: %llu of %llu commits read by the worker (%s)\n",
				(unsigned long long) pf.taken, (unsigned long long) pf.next,
				pf.why != NULL ? pf.why : "the walk ended");
}

/* read what the stream holds (wait: at least one byte, or its end); false at its end */
static bool
read_more(bool wait)
{
	if (pf.off > 0 && (pf.len == pf.cap || pf.off == pf.len))
	{
		memmove(pf.in, pf.in + pf.off, pf.len - pf.off);
		pf.len -= pf.off;
		pf.off = 0;
	}
	if (pf.len == pf.cap)
	{
		pf.cap = pf.cap ? 2 * pf.cap : 1024 * 1024;
		pf.in = xrealloc(pf.in, pf.cap);
	}
	for (;;)
	{
		ssize_t		n = read(pf.fd, pf.in + pf.len, pf.cap - pf.len);

		if (n > 0)
		{
			pf.len += (size_t) n;
			return true;
		}
		if (n == 0)
		{
			pf.eof = true;
			return false;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
		{
			struct pollfd pfd = {pf.fd, POLLIN, 0};

			if (!wait)
				return true;
			(void) poll(&pfd, 1, -1);
			continue;
		}
		pf.eof = true;
		return false;
	}
}

/* make the stream hold need bytes not taken; false at its end */
static bool
fill(size_t need)
{
	while (pf.len - pf.off < need)
		if (pf.eof || !read_more(true))
			return false;
	return true;
}

/* while the walk reads its own batch: what the worker wrote, without waiting */
static void
pump(void)
{
	if (!pf.eof && pf.len - pf.off < AHEAD)
		(void) read_more(false);
}

/*
 * The next commit the walk reads is oid: its object, read by the worker,
 * in a buffer of *size bytes that the caller frees; or NULL, and the walk
 * reads it (its own batch, or the worker's prediction failed).
 */
unsigned char *
prefetch_take(const git_oid *oid, size_t *size)
{
	uint64_t	i = pf.next++;
	unsigned char *obj;
	uint32_t	len;

	if (!pf.active)
		return NULL;
	if (owner(i) == 0)
	{
		if (i % 32 == 0)
			pump();
		return NULL;
	}
	if (!fill(MSG_HEADER) || memcmp(pf.in + pf.off, oid->id, GIT_OID_RAWSZ) != 0)
	{
		pf.why = pf.len - pf.off >= MSG_HEADER ? "a prediction failed" : "the worker ended early";
		stop_worker();
		return NULL;
	}
	len = wire_get_u32(pf.in + pf.off + GIT_OID_RAWSZ);
	if (len > WIRE_MAX_PAYLOAD || !fill(MSG_HEADER + (size_t) len))
	{
		pf.why = "the worker ended early";
		stop_worker();
		return NULL;
	}
	obj = xmalloc(len > 0 ? len : 1);
	memcpy(obj, pf.in + pf.off + MSG_HEADER, len);
	pf.off += MSG_HEADER + (size_t) len;
	pf.taken++;
	*size = len;
	return obj;
}
