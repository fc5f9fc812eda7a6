/*
 * files_pool.c — the trees of several commits compared at once, records in walk order
 *
 * Comparing a commit's tree with its parent's (files.c) costs about four
 * times as much as reading the commit (walk.c), so walk-files hands the
 * comparisons to worker processes: the walk reads the commits, sends each
 * comparison to a worker and writes every record, strictly in walk order;
 * the output is byte for byte that of one process.  Worker k gets the
 * batches k, k + n, k + 2n... of BATCH consecutive comparisons: consecutive
 * commits share most of their trees and the bases of their deltas, which a
 * worker reads once for a run of them (its delta base cache, the trees
 * files.c keeps); with batches of 8, two workers took a fifth (100k commits)
 * to a third (1.3M) more CPU time than one process.
 *
 * Processes, not threads: libgit2 is thread-safe, but its threads share
 * each pack file's locks and the process-wide lock of the mapped windows,
 * taken several times for every object read.  Two threads took turns on
 * them: more CPU time than one thread alone, and no gain.  A worker is a
 * fork of the reader once the repository is open (its handles, the
 * loose-object set and libgit2's settings come along) and shares nothing
 * with it afterwards.  Each process has the reader's limits
 * (fixes.reader_memory_limit's address space, the CPU time) for itself, and
 * a worker dies with the reader (PR_SET_PDEATHSIG, out_child()), so a cancel, which
 * kills the reader, ends the workers as well.
 *
 * The streams: the reader writes comparisons to a worker's standard input
 * (JOB_SIZE bytes each), without ever waiting for the pipe (a worker may be
 * waiting for the reader to read its answers: the reader polls both while
 * it waits for an answer); the worker answers each with the 'F' record
 * that send_files() makes, on its standard output, written after each read
 * of its input (at most 64 comparisons).  An error of a worker is its
 * 'E' record (out.c), which the reader passes on in its turn, after exactly
 * the records one process would have sent before it; a worker that dies
 * otherwise (a signal: the CPU limit, a crash) takes the reader along with
 * the same signal.
 *
 * The ring: while comparisons are pending, the records the walk sends (the
 * next commit's 'C', through files_pool_record()) are held in the slot of
 * the next comparison and written just before its 'F'; an error record
 * (out.c) comes after every slot is written (out_before_error()).  A full ring (QUEUE comparisons) makes the
 * walk write its older half; so the workers always have comparisons ahead,
 * and the reader holds at most QUEUE commits' records.
 *
 * Workers: WORKERS.  The machine the benchmark runs on has 2 cores, which
 * the reader shares with the backend that stores its records.  The
 * comparisons take several times the CPU time of the walk: with one worker
 * they alone are the read's length; two keep both cores busy; more only
 * take turns, and each worker costs CPU time of its own (its reads of the
 * trees a batch starts with).  A refresh takes one (main.c): the backend is
 * busy meanwhile, reading the previous load back, and a second worker only
 * takes the backend's core (bench/README.md has the figures).  Fewer are started when a process or a pipe cannot be had;
 * with none, the walk compares the trees itself, as before.  The
 * environment variable FIXES_READER_WORKERS (0 to 8) sets the number, for
 * the tests that compare the outputs.
 */
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

#define QUEUE		2048
#define WORKERS		2
#define MAX_WORKERS 8
#define BATCH		512
#define KEEP_BYTES	((size_t) 1024 * 1024)

/* a comparison: tree, parent tree, u32 nparents, u8 flags */
#define JOB_SIZE	(2 * GIT_OID_RAWSZ + 4 + 1)
#define JOB_PARENT	1			/* a parent tree is given */
#define JOB_UNREADABLE 2		/* the parent's commit could not be read */

typedef struct Worker
{
	pid_t		pid;
	int			job_fd;			/* its standard input */
	int			result_fd;		/* its standard output */
	unsigned char jobs[QUEUE * JOB_SIZE];	/* [sent, len): not sent yet */
	size_t		jobs_sent;
	size_t		jobs_len;
	unsigned char *in;			/* what it answered, not written yet */
	size_t		in_off;
	size_t		in_len;
	size_t		in_cap;
} Worker;

typedef struct Slot
{
	unsigned char *held;		/* records sent after the previous comparison */
	size_t		held_len;
	size_t		held_cap;
} Slot;

static struct
{
	bool		started;
	int			nworkers;
	Worker		workers[MAX_WORKERS];
	Slot		slots[QUEUE];
	uint64_t	queued;			/* comparisons queued, and answers written */
	uint64_t	written;
	bool		writing;		/* the reader is writing slots */
	const char *path;
} pool;

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* a worker: answer each comparison on standard input until it ends */
static void
__attribute__((noreturn))
worker_main(Repo *r)
{
	unsigned char buf[64 * JOB_SIZE];
	size_t		len = 0;

	for (;;)
	{
		ssize_t		n = read(STDIN_FILENO, buf + len, sizeof(buf) - len);
		size_t		off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
		{
			out_flush();
			pack_report();
			_exit(0);
		}
		len += (size_t) n;
		for (; len - off >= JOB_SIZE; off += JOB_SIZE)
		{
			const unsigned char *job = buf + off;
			git_oid		tree;
			git_oid		ptree;
			unsigned char flags = job[2 * GIT_OID_RAWSZ + 4];

			git_oid_fromraw(&tree, job);
			git_oid_fromraw(&ptree, job + GIT_OID_RAWSZ);
			send_files(r, &tree, (int) wire_get_u32(job + 2 * GIT_OID_RAWSZ),
					   (flags & JOB_PARENT) ? &ptree : NULL, (flags & JOB_UNREADABLE) != 0);
		}
		memmove(buf, buf + off, len - off);
		len -= off;
		out_flush();
	}
}

/* start worker k; false when a pipe or a process cannot be had */
static bool
worker_start(Repo *r, int k)
{
	Worker	   *w = &pool.workers[k];
	int			job[2];
	int			result[2];
	pid_t		parent = getpid();

	if (pipe(job) != 0)
		return false;
	if (pipe(result) != 0)
	{
		close(job[0]);
		close(job[1]);
		return false;
	}
	w->pid = fork();
	if (w->pid < 0)
	{
		close(job[0]);
		close(job[1]);
		close(result[0]);
		close(result[1]);
		return false;
	}
	if (w->pid == 0)
	{
		out_child(parent);
		for (int i = 0; i < k; i++)
		{
			close_fd(&pool.workers[i].job_fd);
			close_fd(&pool.workers[i].result_fd);
		}
		if (dup2(job[0], STDIN_FILENO) < 0 || dup2(result[1], STDOUT_FILENO) < 0)
			_exit(1);
		close(job[0]);
		close(job[1]);
		close(result[0]);
		close(result[1]);
		/* it is a reader without workers now, its output its own */
		pool.nworkers = 0;
		worker_main(r);
	}
	close(job[0]);
	close(result[1]);
	(void) fcntl(job[1], F_SETFL, O_NONBLOCK);
	w->job_fd = job[1];
	w->result_fd = result[0];
	return true;
}

/* the workers of a walk: main.c takes fewer for a refresh */
int			files_pool_workers = WORKERS;

static void
pool_start(Repo *r)
{
	int			want = files_pool_workers;
	const char *env = getenv("FIXES_READER_WORKERS");

	pool.started = true;
	if (env != NULL && env[0] >= '0' && env[0] <= '9' && env[1] == '\0')
		want = env[0] - '0';
	if (want > MAX_WORKERS)
		want = MAX_WORKERS;
	if (want == 0)
		return;
	/* a worker that failed is read from, not written to: no SIGPIPE */
	signal(SIGPIPE, SIG_IGN);
	pool.path = r->path;
	while (pool.nworkers < want && worker_start(r, pool.nworkers))
		pool.nworkers++;
	out_before_error(files_pool_drain);
}

/*
 * Send what the pipe to w takes of the comparisons it has not been sent,
 * without waiting (the pipe is non-blocking): a worker may be waiting to
 * write its answers, which the reader reads only in their turn.  A worker
 * that is gone is sent nothing more: its answers tell why.
 */
static void
send_jobs(Worker *w)
{
	while (w->jobs_sent < w->jobs_len)
	{
		ssize_t		n = write(w->job_fd, w->jobs + w->jobs_sent, w->jobs_len - w->jobs_sent);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0)
			break;
		w->jobs_sent += (size_t) n;
	}
	w->jobs_sent = w->jobs_len = 0;
}

/* the end of the reader on an error: its workers are stopped and reaped, not left to init */
static void
workers_stop(void)
{
	for (int i = 0; i < pool.nworkers; i++)
		if (pool.workers[i].pid > 0)
			kill(pool.workers[i].pid, SIGKILL);
	for (int i = 0; i < pool.nworkers; i++)
		while (pool.workers[i].pid > 0 && waitpid(pool.workers[i].pid, NULL, 0) < 0 &&
			   errno == EINTR)
			;
}

/* a worker ended before its answer: end as it did */
static void
__attribute__((noreturn))
worker_lost(Worker *w)
{
	int			status;

	if (waitpid(w->pid, &status, 0) == w->pid && WIFSIGNALED(status))
	{
		w->pid = 0;				/* reaped */
		workers_stop();
		signal(WTERMSIG(status), SIG_DFL);
		kill(getpid(), WTERMSIG(status));
	}
	fail("XX000", NULL, NULL, "a worker process of the reader of repository \"%s\" ended unexpectedly",
		 pool.path);
}

/* make w->in hold len unread bytes */
static void
fill(Worker *w, size_t len)
{
	if (w->in_len - w->in_off >= len)
		return;
	if (w->in_off > 0)
	{
		memmove(w->in, w->in + w->in_off, w->in_len - w->in_off);
		w->in_len -= w->in_off;
		w->in_off = 0;
	}
	if (len > w->in_cap)
	{
		w->in_cap = len > 65536 ? len : 65536;
		w->in = xrealloc(w->in, w->in_cap);
	}
	while (w->in_len < len)
	{
		struct pollfd fds[MAX_WORKERS + 1];
		int			nfds = 1;
		ssize_t		n;

		/* w may need comparisons it has not been sent to answer */
		fds[0].fd = w->result_fd;
		fds[0].events = POLLIN;
		for (int i = 0; i < pool.nworkers; i++)
		{
			send_jobs(&pool.workers[i]);
			if (pool.workers[i].jobs_sent < pool.workers[i].jobs_len)
			{
				fds[nfds].fd = pool.workers[i].job_fd;
				fds[nfds].events = POLLOUT;
				nfds++;
			}
		}
		if (poll(fds, (nfds_t) nfds, -1) < 0)
		{
			if (errno == EINTR)
				continue;
			fail("58000", NULL, NULL, "could not wait for a worker process of the reader: %s",
				 strerror(errno));
		}
		if (fds[0].revents == 0)
			continue;
		n = read(w->result_fd, w->in + w->in_len, w->in_cap - w->in_len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			worker_lost(w);
		w->in_len += (size_t) n;
	}
}

/* the held records of the oldest slot, then its worker's answer */
static void
write_slot(void)
{
	Slot	   *s = &pool.slots[pool.written % QUEUE];
	Worker	   *w = &pool.workers[(pool.written / BATCH) % pool.nworkers];

	out_raw(s->held, s->held_len);
	s->held_len = 0;
	if (s->held_cap > KEEP_BYTES)
	{
		free(s->held);
		s->held = NULL;
		s->held_cap = 0;
	}
	for (;;)
	{
		unsigned char type;
		uint32_t	len;

		fill(w, WIRE_HEADER_SIZE);
		type = w->in[w->in_off];
		len = wire_get_u32(w->in + w->in_off + 1);
		if (len > WIRE_MAX_PAYLOAD)
			worker_lost(w);
		fill(w, WIRE_HEADER_SIZE + (size_t) len);
		out_raw(w->in + w->in_off, WIRE_HEADER_SIZE + (size_t) len);
		w->in_off += WIRE_HEADER_SIZE + (size_t) len;
		if (type == WIRE_ERROR)
		{
			out_flush();
			workers_stop();
			_exit(1);
		}
		if (type == WIRE_FILES)
			break;
	}
	if (w->in_cap > KEEP_BYTES && w->in_off == w->in_len)
	{
		free(w->in);
		w->in = NULL;
		w->in_cap = w->in_off = w->in_len = 0;
	}
	pool.written++;
}

/* write the oldest slots until `until` are written */
static void
write_slots(uint64_t until)
{
	pool.writing = true;
	while (pool.written < until)
		write_slot();
	pool.writing = false;
}

/*
 * The 'F' record of send_files() (files.c): queued for a worker, or, when
 * there is none, computed here at once.
 */
void
files_pool_send(Repo *r, const git_oid *tree, int nparents, const git_oid *parent_tree,
				bool parent_unreadable)
{
	Worker	   *w;
	unsigned char *job;

	if (!pool.started)
		pool_start(r);
	if (pool.nworkers == 0)
	{
		send_files(r, tree, nparents, parent_tree, parent_unreadable);
		return;
	}
	w = &pool.workers[(pool.queued / BATCH) % pool.nworkers];
	if (w->jobs_len + JOB_SIZE > sizeof(w->jobs))
	{
		/* at most QUEUE comparisons are pending: moved down, they leave room */
		memmove(w->jobs, w->jobs + w->jobs_sent, w->jobs_len - w->jobs_sent);
		w->jobs_len -= w->jobs_sent;
		w->jobs_sent = 0;
	}
	job = w->jobs + w->jobs_len;
	memcpy(job, tree->id, GIT_OID_RAWSZ);
	memset(job + GIT_OID_RAWSZ, 0, GIT_OID_RAWSZ);
	if (parent_tree != NULL)
		memcpy(job + GIT_OID_RAWSZ, parent_tree->id, GIT_OID_RAWSZ);
	wire_put_u32(job + 2 * GIT_OID_RAWSZ, (uint32_t) nparents);
	job[2 * GIT_OID_RAWSZ + 4] = (parent_tree != NULL ? JOB_PARENT : 0) |
		(parent_unreadable ? JOB_UNREADABLE : 0);
	w->jobs_len += JOB_SIZE;
	if (w->jobs_len - w->jobs_sent >= BATCH * JOB_SIZE)
		send_jobs(w);
	pool.queued++;
	/* the next slot, free now, holds the records sent until the next comparison */
	if (pool.queued - pool.written == QUEUE)
		write_slots(pool.written + QUEUE / 2);
}

/*
 * A record of the walk: held while comparisons are pending, for
 * write_slot(); else written at once.
 */
void
files_pool_record(char type, const void *payload, size_t len)
{
	unsigned char header[WIRE_HEADER_SIZE];
	Slot	   *s;

	if (pool.nworkers == 0 || pool.writing || pool.written == pool.queued)
	{
		out_record(type, payload, len);
		return;
	}
	out_header(header, type, len);
	s = &pool.slots[pool.queued % QUEUE];
	if (s->held_len + WIRE_HEADER_SIZE + len > s->held_cap)
	{
		s->held_cap = (s->held_len + WIRE_HEADER_SIZE + len) * 2;
		s->held = xrealloc(s->held, s->held_cap);
	}
	memcpy(s->held + s->held_len, header, WIRE_HEADER_SIZE);
	memcpy(s->held + s->held_len + WIRE_HEADER_SIZE, payload, len);
	s->held_len += WIRE_HEADER_SIZE + len;
}

/*
 * Write every pending slot and the records held after them (before the end
 * record, and before an error record); then the workers have nothing left to do: they are told so, and waited
 * for (their CPU time and memory count in the reader's).
 */
void
files_pool_drain(void)
{
	Slot	   *s;

	if (pool.nworkers == 0 || pool.writing)
		return;
	write_slots(pool.queued);
	s = &pool.slots[pool.queued % QUEUE];
	out_raw(s->held, s->held_len);
	s->held_len = 0;
	for (int i = 0; i < pool.nworkers; i++)
		close_fd(&pool.workers[i].job_fd);
	for (int i = 0; i < pool.nworkers; i++)
	{
		int			status;

		close_fd(&pool.workers[i].result_fd);
		while (waitpid(pool.workers[i].pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	pool.nworkers = 0;
}
