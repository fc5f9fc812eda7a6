/*
 * maintainers.c — a MAINTAINERS file and the subsystems of a path (see
 * maintainers.h for the rules)
 *
 * Pure C.  The candidates of a path are found without trying every
 * pattern: an F: pattern can only match a path that starts with its literal
 * part, so the patterns are sorted by literal part and each prefix of the
 * path is looked up (the empty prefix gives the patterns that start with a
 * wildcard).  X: patterns are tried only for the sections that matched, N:
 * expressions for every path.
 */
#include "maintainers.h"

#include <stdlib.h>
#include <string.h>

#define RANK_N 1				/* just above an F: with an empty literal part (0) */

/*
 * Called every 65536 steps of the matcher when set: the backend sets
 * CHECK_FOR_INTERRUPTS() (load_files.c), as a match costs up to
 * O(|pattern| |path|) for each pattern tried, whose lengths the repository
 * sets.
 */
void		(*mnt_check_interrupts) (void) = NULL;
static uint32_t mnt_steps;

static inline void
step(void)
{
	if ((++mnt_steps & 0xffff) == 0 && mnt_check_interrupts != NULL)
		mnt_check_interrupts();
}

static void *
grow(Maintainers *m, void *old, size_t elem, int n, int *cap)
{
	void	   *p;

	if (n < *cap)
		return old;
	*cap = *cap ? *cap * 2 : 64;
	p = m->alloc(m->ctx, elem * (size_t) *cap);
	if (n > 0)
		memcpy(p, old, elem * (size_t) n);
	return p;
}

static char *
copy(Maintainers *m, const char *s, size_t len, size_t extra)
{
	char	   *p = m->alloc(m->ctx, len + extra + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static bool
is_metachar(char c)
{
	return strchr("+()[]{}|^$\\", c) != NULL;
}

/* drop section cur, the last one, and its patterns: it has no F: or N: */
static void
end_section(Maintainers *m, int cur)
{
	m->npatterns = m->sections[cur].first;
	m->nsections--;
}

void
mnt_parse(Maintainers *m, const char *buf, size_t len, mnt_alloc_fn alloc, void *ctx)
{
	size_t		pos = 0;
	int			cap_s = 0,
				cap_p = 0;
	bool		in_block = false;
	int			cur = -1;		/* the section of the current block, -1: none */
	bool		has_fn = false; /* it has an F: or N: field */

	memset(m, 0, sizeof(*m));
	m->alloc = alloc;
	m->ctx = ctx;
	while (pos <= len)
	{
		const char *line = buf + pos;
		const char *nl = pos < len ? memchr(line, '\n', len - pos) : NULL;
		size_t		ll = nl ? (size_t) (nl - line) : len - pos;
		bool		field;

		pos += ll + 1;
		while (ll > 0 && is_blank(line[ll - 1]))
			ll--;
		if (ll == 0)
		{
			/* a blank line ends the block */
			if (cur >= 0 && !has_fn)
				end_section(m, cur);
			in_block = false;
			cur = -1;
			if (nl == NULL)
				break;
			continue;
		}
		field = ll >= 2 && line[0] >= 'A' && line[0] <= 'Z' && line[1] == ':';
		if (!in_block)
		{
			in_block = true;
			has_fn = false;
			if (!field)
			{
				m->sections = grow(m, m->sections, sizeof(MntSection), m->nsections, &cap_s);
				cur = m->nsections++;
				m->sections[cur].name = copy(m, line, ll, 0);
				m->sections[cur].first = m->npatterns;
				m->sections[cur].n = 0;
				if (nl == NULL)
					break;
				continue;
			}
		}
		if (field && cur >= 0 && (line[0] == 'F' || line[0] == 'X' || line[0] == 'N'))
		{
			size_t		v = 2;
			MntPattern *p;

			while (v < ll && is_blank(line[v]))
				v++;
			m->patterns = grow(m, m->patterns, sizeof(MntPattern), m->npatterns, &cap_p);
			p = &m->patterns[m->npatterns++];
			memset(p, 0, sizeof(*p));
			p->kind = line[0];
			p->section = cur;
			/* room for a directory's '/' */
			p->text = copy(m, line + v, ll - v, 1);
			p->len = ll - v;
			m->sections[cur].n++;
			has_fn |= p->kind != 'X';
		}
		if (nl == NULL)
			break;
	}
	if (cur >= 0 && !has_fn)
		end_section(m, cur);
}

static int
utf8_len(const char *s, size_t left)
{
	unsigned char c = (unsigned char) s[0];
	int			n = c < 0x80 ? 1 : c >= 0xF0 && c <= 0xF7 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;

	return (size_t) n > left ? (int) left : n;
}

/*
 * A prefix of s matches p exactly when s matches p followed by '*': the
 * classic matcher with one backtracking point (the last '*'), in O(|p||s|).
 */
bool
mnt_glob_prefix(const char *p, size_t plen, const char *s, size_t slen)
{
	size_t		pi = 0,
				si = 0,
				star_p = (size_t) -1,
				star_s = 0;

	for (;;)
	{
		step();
		if (pi == plen)
			return true;
		if (p[pi] == '*')
		{
			star_p = ++pi;
			star_s = si;
			continue;
		}
		if (si < slen && (p[pi] == '?' || p[pi] == s[si]))
		{
			si += p[pi] == '?' ? (size_t) utf8_len(s + si, slen - si) : 1;
			pi++;
			continue;
		}
		if (star_p != (size_t) -1 && star_s < slen)
		{
			star_s += (size_t) utf8_len(s + star_s, slen - star_s);
			si = star_s;
			pi = star_p;
			continue;
		}
		return false;
	}
}

static int
count_slashes(const char *s, size_t len)
{
	int			n = 0;

	for (size_t i = 0; i < len; i++)
		n += s[i] == '/';
	return n;
}

bool
mnt_pattern_matches(const MntPattern *pat, const char *path, size_t len)
{
	size_t		plen = pat->len + (pat->dir && (pat->len == 0 || pat->text[pat->len - 1] != '/'));

	if (!mnt_glob_prefix(pat->text, plen, path, len))
		return false;
	return pat->dir || count_slashes(path, len) == pat->slashes;
}

static const Maintainers *sort_m;

static int
literal_cmp(const void *a, const void *b)
{
	const MntPattern *x = &sort_m->patterns[*(const int *) a];
	const MntPattern *y = &sort_m->patterns[*(const int *) b];
	size_t		n = x->literal < y->literal ? x->literal : y->literal;
	int			c = memcmp(x->text, y->text, n);

	if (c != 0)
		return c;
	if (x->literal != y->literal)
		return x->literal < y->literal ? -1 : 1;
	return *(const int *) a - *(const int *) b;
}

void
mnt_set_dirs(Maintainers *m, bool (*is_dir) (const char *path, size_t len, void *arg), void *arg)
{
	m->by_literal = m->alloc(m->ctx, sizeof(int) * (size_t) (m->npatterns + 1));
	m->npats = m->alloc(m->ctx, sizeof(int) * (size_t) (m->npatterns + 1));
	for (int i = 0; i < m->npatterns; i++)
	{
		MntPattern *p = &m->patterns[i];
		char	   *t = (char *) p->text;
		size_t		lit;

		if (p->kind == 'N')
		{
			p->rank = RANK_N;
			m->npats[m->nn++] = i;
			continue;
		}
		lit = strcspn(t, "*?");
		for (size_t k = 0; k < p->len; k++)
			if (is_metachar(t[k]))
				p->metachar = true;
		if (p->len > 0 && t[p->len - 1] == '/')
			p->dir = true;
		else if (lit == p->len && p->len > 0 && is_dir != NULL && is_dir(t, p->len, arg))
		{
			p->dir = true;
			t[p->len] = '/';	/* copy() left room; text stays NUL-terminated at len */
			t[p->len + 1] = '\0';
			lit = p->len + 1;
		}
		p->literal = lit;
		p->slashes = count_slashes(t, p->len + (t[p->len] == '/'));
		p->rank = ((int64_t) count_slashes(t, lit) << 33) + (int64_t) lit * 2;
		if (p->kind == 'F')
			m->by_literal[m->nby_literal++] = i;
	}
	sort_m = m;
	qsort(m->by_literal, (size_t) m->nby_literal, sizeof(int), literal_cmp);
	sort_m = NULL;
	m->best = m->alloc(m->ctx, sizeof(int64_t) * (size_t) (m->nsections + 1));
	m->excluded = m->alloc(m->ctx, sizeof(bool) * (size_t) (m->nsections + 1));
	m->touched = m->alloc(m->ctx, sizeof(int) * (size_t) (m->nsections + 1));
	for (int s = 0; s < m->nsections; s++)
	{
		m->best[s] = -1;
		m->excluded[s] = false;
	}
}

/* the first index in by_literal whose literal part is >= path[0..k) */
static int
lower_bound(const Maintainers *m, const char *path, size_t k)
{
	int			lo = 0,
				hi = m->nby_literal;

	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;
		const MntPattern *p = &m->patterns[m->by_literal[mid]];
		size_t		n = p->literal < k ? p->literal : k;
		int			c = memcmp(p->text, path, n);

		if (c == 0)
			c = p->literal < k ? -1 : p->literal > k;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
consider(Maintainers *m, int section, int64_t rank)
{
	if (m->best[section] < 0)
		m->touched[m->ntouched++] = section;
	if (rank > m->best[section])
		m->best[section] = rank;
}

static int
int_cmp(const void *a, const void *b)
{
	int			x = *(const int *) a,
				y = *(const int *) b;

	return x < y ? -1 : x > y;
}

int
mnt_match(Maintainers *m, const char *path, size_t len,
		  bool (*search) (void *regex, const char *path, size_t len, void *arg),
		  void *arg, int *out)
{
	int64_t		top = -1;
	int			n = 0;

	m->ntouched = 0;
	for (size_t k = 0; k <= len; k++)
	{
		int			i = lower_bound(m, path, k);

		step();
		for (; i < m->nby_literal; i++)
		{
			const MntPattern *p = &m->patterns[m->by_literal[i]];

			step();
			if (p->literal != k || memcmp(p->text, path, k) != 0)
				break;
			if (m->best[p->section] < p->rank && mnt_pattern_matches(p, path, len))
				consider(m, p->section, p->rank);
		}
	}
	for (int i = 0; i < m->nn; i++)
	{
		const MntPattern *p = &m->patterns[m->npats[i]];

		step();
		if (m->best[p->section] < RANK_N && p->regex != NULL && search != NULL &&
			search(p->regex, path, len, arg))
			consider(m, p->section, RANK_N);
	}
	for (int t = 0; t < m->ntouched; t++)
	{
		int			s = m->touched[t];
		const MntSection *sec = &m->sections[s];

		for (int i = sec->first; i < sec->first + sec->n; i++)
			if (m->patterns[i].kind == 'X' && mnt_pattern_matches(&m->patterns[i], path, len))
			{
				m->excluded[s] = true;
				break;
			}
		if (!m->excluded[s] && m->best[s] > top)
			top = m->best[s];
	}
	for (int t = 0; t < m->ntouched; t++)
	{
		int			s = m->touched[t];

		if (!m->excluded[s] && m->best[s] == top)
			out[n++] = s;
		m->best[s] = -1;
		m->excluded[s] = false;
	}
	qsort(out, (size_t) n, sizeof(int), int_cmp);
	return n;
}
