/*
 * reader_proc.c — start the reader process and read its stream
 *
 * The child is started with fork/exec, no shell (as COPY ... FROM PROGRAM
 * starts one, but with an argument vector), with the signal handlers reset,
 * the signal mask emptied and every inherited descriptor closed, as the
 * postmaster does for its own children; it dies with the backend
 * (PR_SET_PDEATHSIG).  Its address space and CPU time are limited by
 * fixes.reader_memory_limit and fixes.reader_cpu_limit.  The backend never
 * blocks on it: the pipes are non-blocking and every wait is on the latch
 * as well (contrib's postgres_fdw waits for a remote server the same way),
 * so a cancel, a timeout or the death of the postmaster is honoured at
 * once.  Callers stop the reader in PG_FINALLY; a transaction callback
 * kills any that an unexpected path left behind.
 */
#include "postgres.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "reader_proc.h"

#define READER_NAME "fixes-reader"
#define READER_BUFSIZE ((size_t) 1024 * 1024)
#define MAX_LIVE 8

int			fixes_reader_memory_limit = 2048;
int			fixes_reader_cpu_limit = 3600;
bool		fixes_reader_prefetch = false;

/* children not reaped yet, killed at the end of the transaction */
static int	live[MAX_LIVE];
static bool callback_registered = false;

void
fixes_reader_define_gucs(void)
{
	DefineCustomIntVariable("fixes.reader_memory_limit",
							"Address space limit of the process that reads a repository.",
							"A read that needs more fails with an error; the server is not affected.",
							&fixes_reader_memory_limit,
							2048, 64, INT_MAX / 2,
							PGC_SUSET, GUC_UNIT_MB,
							NULL, NULL, NULL);
	DefineCustomIntVariable("fixes.reader_cpu_limit",
							"CPU time limit of the process that reads a repository.",
							"A read that needs more fails with an error; the server is not affected.",
							&fixes_reader_cpu_limit,
							3600, 1, INT_MAX / 2,
							PGC_SUSET, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomBoolVariable("fixes.reader_prefetch",
							 "Reads a cold load's commits with a second reader process where the repository has git's commit-graph file.",
							 "Off by default: on two cores it did not make loads faster (docs/performance.md).",
							 &fixes_reader_prefetch,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
}

/*
 * The reader's environment: the server's, and with fixes.reader_prefetch
 * on, FIXES_READER_PREFETCH=2 (src/reader/prefetch.c: the second process
 * on, and a DEBUG1 line of what it read).  Off, the server's environment
 * decides (FIXES_READER_PREFETCH=1 there turns it on for every load, as
 * bench/run does).  Built before fork(): the child only execs.
 */
static char **
reader_environment(void)
{
	static const char var[] = "FIXES_READER_PREFETCH=";
	int			n = 0;
	int			k = 0;
	char	  **envp;

	if (!fixes_reader_prefetch)
		return environ;
	while (environ[n] != NULL)
		n++;
	envp = palloc(sizeof(char *) * (n + 2));
	for (int i = 0; i < n; i++)
		if (strncmp(environ[i], var, sizeof(var) - 1) != 0)
			envp[k++] = environ[i];
	envp[k++] = pstrdup("FIXES_READER_PREFETCH=2");
	envp[k] = NULL;
	return envp;
}

/*
 * Only roles that may read server files may read a repository.
 */
void
fixes_check_read_privilege(void)
{
	if (!has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read git repositories on the server"),
				 errdetail("Only superusers and roles with privileges of the \"%s\" role may read repositories.",
						   "pg_read_server_files"),
				 errhint("Query the tables that fixes_load() filled, or ask an administrator to grant \"%s\".",
						 "pg_read_server_files")));
}

static void
kill_and_reap(int pid)
{
	int			status;

	if (pid <= 0)
		return;
	(void) kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

static void
forget_live(int pid)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] == pid)
			live[i] = 0;
}

static void
kill_leftovers(XactEvent event, void *arg)
{
	for (int i = 0; i < MAX_LIVE; i++)
	{
		kill_and_reap(live[i]);
		live[i] = 0;
	}
}

/* in the child, between fork and exec: only system calls */
static void
exec_reader(const char *prog, char *const argv[], char *const envp[], int in_fd, int out_fd,
			rlim_t mem, rlim_t cpu)
{
	sigset_t	none;
	struct rlimit rl;

	for (int sig = 1; sig < NSIG; sig++)
		(void) signal(sig, SIG_DFL);
	sigemptyset(&none);
	(void) sigprocmask(SIG_SETMASK, &none, NULL);
	(void) prctl(PR_SET_PDEATHSIG, SIGKILL);

	rl.rlim_cur = rl.rlim_max = mem;
	(void) setrlimit(RLIMIT_AS, &rl);
	rl.rlim_cur = cpu;
	rl.rlim_max = cpu + 5;		/* SIGXCPU first, SIGKILL if it is ignored */
	(void) setrlimit(RLIMIT_CPU, &rl);
	rl.rlim_cur = rl.rlim_max = 0;
	(void) setrlimit(RLIMIT_CORE, &rl);

	if (in_fd < 0)
		in_fd = open("/dev/null", O_RDONLY);
	if (in_fd < 0 || dup2(in_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0)
		_exit(126);
	closefrom(STDERR_FILENO + 1);
	execve(prog, argv, envp);
	_exit(127);
}

FixesReader *
fixes_reader_start(const char *mode, const char *path, const char *arg, bool input)
{
	return fixes_reader_start_args(mode, path, &arg, arg != NULL ? 1 : 0, input);
}

/*
 * What the reader's command line may hold: execv() fails with
 * E2BIG past the kernel's limits (128 kB for one argument, about 2 MB for
 * all with the environment), and the child could only exit with status 127.
 * A longer path or argument (a ref) is refused here with an ERROR that says
 * so; what can be many (the stable branch heads) goes on the reader's stdin
 * (walk.c).
 */
#define READER_MAX_ARG (64 * 1024)
#define READER_MAX_ARGS_TOTAL (1024 * 1024)

static void
check_arguments(const char *path, const char *const *args, int nargs)
{
	size_t		total = strlen(path) + 1;

	/* past PATH_MAX, the reader says it cannot open the path (42622) */
	if (strlen(path) > READER_MAX_ARG)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("repository path of %zu bytes is too long", strlen(path)),
				 errdetail("A repository path may have at most %d bytes.", READER_MAX_ARG)));
	for (int i = 0; i < nargs; i++)
	{
		size_t		len = strlen(args[i]);

		if ((i & 0xfff) == 0xfff)
			CHECK_FOR_INTERRUPTS();
		if (len > READER_MAX_ARG)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("argument of %zu bytes for the reader of repository \"%s\" is too long",
							len, path),
					 errdetail("A ref may have at most %d bytes.", READER_MAX_ARG)));
		total += len + 1;
	}
	if (total > READER_MAX_ARGS_TOTAL)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%d arguments are too many for the reader of repository \"%s\"",
						nargs, path),
				 errdetail("The arguments of the reader may take at most %d bytes.",
						   READER_MAX_ARGS_TOTAL)));
}

/* Start "fixes-reader MODE PATH ARG..." with nargs arguments after PATH. */
FixesReader *
fixes_reader_start_args(const char *mode, const char *path, const char *const *args,
						int nargs, bool input)
{
	FixesReader *r = palloc0(sizeof(FixesReader));
	char	   *prog = psprintf("%s/%s", pkglib_path, READER_NAME);
	char	  **argv = palloc(sizeof(char *) * (nargs + 4));
	int			outp[2];
	int			inp[2] = {-1, -1};
	int			slot = -1;
	pid_t		pid;
	char	  **envp;
	rlim_t		mem = (rlim_t) fixes_reader_memory_limit * 1024 * 1024;
	rlim_t		cpu = (rlim_t) fixes_reader_cpu_limit;

	if (!callback_registered)
	{
		RegisterXactCallback(kill_leftovers, NULL);
		callback_registered = true;
	}
	for (int i = 0; i < MAX_LIVE && slot < 0; i++)
		if (live[i] == 0)
			slot = i;
	if (slot < 0)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many repository readers in one session")));
	check_arguments(path, args, nargs);
	if (access(prog, X_OK) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("could not execute the repository reader \"%s\": %m", prog),
				 errhint("The fixes extension is not completely installed: run \"make install\" again.")));

	argv[0] = READER_NAME;
	argv[1] = (char *) mode;
	argv[2] = (char *) path;
	for (int i = 0; i < nargs; i++)
		argv[3 + i] = (char *) args[i];
	argv[3 + nargs] = NULL;

	r->path = path;
	r->cap = READER_BUFSIZE;
	r->buf = palloc(r->cap);
	r->in_fd = -1;
	r->out_fd = -1;

	if (pipe2(outp, O_CLOEXEC) != 0 || (input && pipe2(inp, O_CLOEXEC) != 0))
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create a pipe to the repository reader: %m")));
	envp = reader_environment();
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		exec_reader(prog, argv, envp, inp[0], outp[1], mem, cpu);
	if (envp != environ)
		pfree(envp);
	close(outp[1]);
	if (input)
		close(inp[0]);
	if (pid < 0)
	{
		int			save = errno;

		close(outp[0]);
		if (input)
			close(inp[1]);
		errno = save;
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_RESOURCES),
				 errmsg("could not start the repository reader: %m")));
	}
	live[slot] = pid;
	r->pid = pid;
	r->out_fd = outp[0];
	r->in_fd = input ? inp[1] : -1;
	(void) fcntl(r->out_fd, F_SETPIPE_SZ, (int) READER_BUFSIZE);
	(void) fcntl(r->out_fd, F_SETFL, O_NONBLOCK);
	if (input)
		(void) fcntl(r->in_fd, F_SETFL, O_NONBLOCK);
	return r;
}

/* wait until fd is ready, honouring interrupts */
static void
wait_for(int fd, int event)
{
	int			rc;

	rc = WaitLatchOrSocket(MyLatch, WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | event,
						   fd, -1L, PG_WAIT_EXTENSION);
	if (rc & WL_LATCH_SET)
		ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

void
fixes_reader_write(FixesReader *r, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0 && r->in_fd >= 0)
	{
		ssize_t		n = write(r->in_fd, p, len);

		if (n > 0)
		{
			p += n;
			len -= (size_t) n;
		}
		else if (n < 0 && errno == EAGAIN)
			wait_for(r->in_fd, WL_SOCKET_WRITEABLE);
		else if (n < 0 && errno == EINTR)
			CHECK_FOR_INTERRUPTS();
		else
			fixes_reader_close_input(r);	/* it died: its stream says why */
	}
}

void
fixes_reader_close_input(FixesReader *r)
{
	if (r->in_fd >= 0)
		close(r->in_fd);
	r->in_fd = -1;
}

/* text from the stream, made safe to put in a message of the database */
static char *
message_text(const WireStr *s)
{
	char	   *t = pnstrdup(s->s, s->len);

	if (!pg_verifymbstr(t, strlen(t), true))
	{
		for (char *c = t; *c; c++)
			if (IS_HIGHBIT_SET(*c))
				*c = '?';
	}
	return t;
}

void
fixes_reader_protocol_error(FixesReader *r, const char *what)
{
	fixes_reader_stop(r);
	ereport(ERROR,
			(errcode(ERRCODE_PROTOCOL_VIOLATION),
			 errmsg("the reader of repository \"%s\" sent a malformed stream", r->path),
			 errdetail("%s", what)));
}

/* an 'M' or 'E' record: raise it */
static void
raise_message(FixesReader *r, char type, const unsigned char *payload, uint32 len)
{
	WireMessage m;
	char	   *detail;
	char	   *hint;

	if (wire_decode_message(payload, len, &m) != 0 || (type == WIRE_ERROR) != (m.level == 'E'))
		fixes_reader_protocol_error(r, "A message record is malformed.");
	detail = message_text(&m.detail);
	hint = message_text(&m.hint);
	if (type == WIRE_ERROR)
		fixes_reader_stop(r);
	ereport(m.level == 'E' ? ERROR : m.level == 'W' ? WARNING : m.level == 'D' ? DEBUG1 : NOTICE,
			(errcode(MAKE_SQLSTATE(m.sqlstate[0], m.sqlstate[1], m.sqlstate[2],
								   m.sqlstate[3], m.sqlstate[4])),
			 errmsg_internal("%s", message_text(&m.message)),
			 detail[0] ? errdetail_internal("%s", detail) : 0,
			 hint[0] ? errhint("%s", hint) : 0));
}

/* the child is gone without a last record: say how it ended */
static void
report_death(FixesReader *r)
{
	int			status = 0;
	int			pid = r->pid;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	forget_live(pid);
	r->pid = 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("the reader of repository \"%s\" exceeded its CPU time limit of %d s",
						r->path, fixes_reader_cpu_limit),
				 errhint("Raise fixes.reader_cpu_limit if the repository really needs more.")));
	if (WIFSIGNALED(status))
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("the reader of repository \"%s\" was terminated by signal %d: %s",
						r->path, WTERMSIG(status), pg_strsignal(WTERMSIG(status))),
				 errdetail("The repository may be damaged, or the reader ran out of memory (fixes.reader_memory_limit is %d MB).",
						   fixes_reader_memory_limit),
				 errhint("Run \"git fsck\" in the repository.")));
	ereport(ERROR,
			(errcode(ERRCODE_SYSTEM_ERROR),
			 errmsg("the reader of repository \"%s\" exited with status %d without an answer",
					r->path, WIFEXITED(status) ? WEXITSTATUS(status) : -1)));
}

/* make at least need bytes readable in buf[start..end), or hit the end */
static bool
fill(FixesReader *r, size_t need)
{
	while (r->end - r->start < need)
	{
		ssize_t		n;

		if (r->eof)
			return false;
		if (r->start > 0 && r->start + need > r->cap)
		{
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (need > r->cap)
		{
			r->cap = Max(need, r->cap * 2);
			r->buf = repalloc_huge(r->buf, r->cap);
		}
		n = read(r->out_fd, r->buf + r->end, r->cap - r->end);
		if (n > 0)
			r->end += (size_t) n;
		else if (n == 0)
			r->eof = true;
		else if (errno == EAGAIN)
		{
			/* nothing to read yet: the caller's idle work, else wait */
			if (r->idle != NULL && r->idle(r->idle_arg))
				CHECK_FOR_INTERRUPTS();
			else
				wait_for(r->out_fd, WL_SOCKET_READABLE);
		}
		else if (errno == EINTR)
			CHECK_FOR_INTERRUPTS();
		else
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not read from the reader of repository \"%s\": %m", r->path)));
	}
	return true;
}

/*
 * While the child has sent nothing new, call idle(arg) instead of waiting,
 * until it returns false (nothing left to do); each call must be short, a
 * few milliseconds at most, since the child's output waits meanwhile.
 */
void
fixes_reader_set_idle(FixesReader *r, bool (*idle) (void *arg), void *arg)
{
	r->idle = idle;
	r->idle_arg = arg;
}

/*
 * The next record: its type and payload (valid until the next call).
 * Messages are raised here; an error record or the death of the child is
 * an ERROR.  After the 'Z' record, returns WIRE_END.
 */
char
fixes_reader_next(FixesReader *r, const unsigned char **payload, uint32 *len)
{
	if (r->again)
	{
		r->again = false;
		*payload = r->last_payload;
		*len = r->last_len;
		return r->last_type;
	}
	for (;;)
	{
		const unsigned char *h;
		char		type;

		if (r->ended)
			return WIRE_END;
		if (!fill(r, WIRE_HEADER_SIZE))
		{
			/*
			 * A statement timeout signals the backend's whole process group
			 * (StatementTimeoutHandler), the reader too, which dies of it:
			 * the cancel is the cause, not the stream nor the reader.
			 */
			CHECK_FOR_INTERRUPTS();
			if (r->end > r->start)
				fixes_reader_protocol_error(r, "The stream ends inside a record.");
			report_death(r);
		}
		h = (const unsigned char *) r->buf + r->start;
		type = (char) h[0];
		*len = wire_get_u32(h + 1);
		if (*len > WIRE_MAX_PAYLOAD)
			fixes_reader_protocol_error(r, "A record is too large.");
		if (!fill(r, WIRE_HEADER_SIZE + (size_t) *len))
		{
			CHECK_FOR_INTERRUPTS();	/* as above */
			fixes_reader_protocol_error(r, "The stream ends inside a record.");
		}
		*payload = (const unsigned char *) r->buf + r->start + WIRE_HEADER_SIZE;
		r->start += WIRE_HEADER_SIZE + (size_t) *len;
		if (r->start == r->end)
			r->start = r->end = 0;	/* payload stays valid: nothing is read before the next call */
		switch (type)
		{
			case WIRE_MESSAGE:
			case WIRE_ERROR:
				raise_message(r, type, *payload, *len);
				continue;
			case WIRE_END:
				if (*len != 0)
					fixes_reader_protocol_error(r, "The end record has a payload.");
				r->ended = true;
				return WIRE_END;
			case WIRE_HEAD:
			case WIRE_TAG:
			case WIRE_BRANCH:
			case WIRE_REFS:
			case WIRE_TAG_NAME:
			case WIRE_ASK:
			case WIRE_COMMIT:
			case WIRE_LIST:
			case WIRE_FILES:
			case WIRE_BLOB:
			case WIRE_DIR:
			case WIRE_REACH:
				r->last_type = type;
				r->last_payload = *payload;
				r->last_len = *len;
				return type;
			default:
				fixes_reader_protocol_error(r, "A record has an unknown type.");
		}
	}
}

/*
 * The record fixes_reader_next() returned last (not the end) comes again
 * from its next call: for a reader of several parts, whose reader of one
 * part stops at the first record of the next
 */
void
fixes_reader_unread(FixesReader *r)
{
	Assert(!r->again && !r->ended);
	r->again = true;
}

/* the next record must be of this type */
void
fixes_reader_expect(FixesReader *r, char type, const unsigned char **payload, uint32 *len)
{
	if (fixes_reader_next(r, payload, len) != type)
		fixes_reader_protocol_error(r, "A record is missing.");
}

/*
 * After the 'Z' record: wait for the child to exit (it does at once).
 */
void
fixes_reader_finish(FixesReader *r)
{
	const unsigned char *payload;
	uint32		len;
	int			status;

	if (fixes_reader_next(r, &payload, &len) != WIRE_END)
		fixes_reader_protocol_error(r, "The stream goes on after its end.");
	fixes_reader_close_input(r);
	if (r->pid > 0)
	{
		struct rusage ru;

		while (wait4(r->pid, &status, 0, &ru) < 0 && errno == EINTR)
			;
		forget_live(r->pid);
		r->pid = 0;
		elog(DEBUG1, "the reader of repository \"%s\" used %ld kB at most (ru_maxrss), %.3f s CPU",
			 r->path, ru.ru_maxrss,
			 ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	}
	if (r->out_fd >= 0)
		close(r->out_fd);
	r->out_fd = -1;
}

/*
 * Kill and reap the child, close the pipes.  Safe to call twice, and with
 * NULL; call it in PG_FINALLY.
 */
void
fixes_reader_stop(FixesReader *r)
{
	if (r == NULL)
		return;
	fixes_reader_close_input(r);
	if (r->out_fd >= 0)
		close(r->out_fd);
	r->out_fd = -1;
	if (r->pid > 0)
	{
		kill_and_reap(r->pid);
		forget_live(r->pid);
		r->pid = 0;
	}
}
