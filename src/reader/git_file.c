/*
 * git_file.c — what git's binary files share (git_file.h)
 */
#include "git_file.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

bool
git_file_map(const char *path, uint64_t max, const unsigned char **data, size_t *size)
{
	int			fd = open(path, O_RDONLY | O_NONBLOCK);
	struct stat st;
	void	   *p;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
		(uint64_t) st.st_size > max)
	{
		close(fd);
		return false;
	}
	p = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return false;
	*data = p;
	*size = (size_t) st.st_size;
	return true;
}

bool
git_file_fanout_find(const unsigned char *fanout, const unsigned char *ids, uint32_t n,
					 const unsigned char *id, uint32_t *pos)
{
	uint32_t	lo = id[0] == 0 ? 0 : git_file_be32(fanout + (size_t) (id[0] - 1) * 4);
	uint32_t	hi = git_file_be32(fanout + (size_t) id[0] * 4);

	if (hi > n)
		hi = n;
	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;
		int			c = memcmp(ids + (size_t) mid * GIT_FILE_ID, id, GIT_FILE_ID);

		if (c == 0)
		{
			*pos = mid;
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}
