# Makefile — builds the fixes extension with PGXS; libgit2 comes from pkg-config.
#
#   make && make install          build and install into the server of $(PG_CONFIG)
#   make installcheck             regression tests against a running server (PGHOST/PGPORT)
#                                 on the fixture repositories that test/fixtures/build DIR
#                                 made: FIXES_FIXTURES=DIR make installcheck (default
#                                 /tmp/fixes-fixtures); test/lib/regress-launcher keeps DIR
#                                 out of the test output
#   make demo [REPO=/path.git]    scripts/demo: install deps, build, sandbox server, show results
#   make test                     scripts/test: the whole test suite (what CI runs)
#   make dist                     fixes-$(DISTVERSION).tar.gz of HEAD (git archive), for PGXN

EXTENSION  = fixes
MODULE_big = fixes
# src/ by concern (src/README.md has the map): common/ is what the backend and
# fixes-reader share (no postgres.h); reader/ is fixes-reader, the only code that
# links libgit2; every other folder is the backend's
BACKEND_DIRS = common parse db reader_client util load load/refresh sql
OBJS       = $(patsubst %.c,%.o,$(sort $(foreach d,$(BACKEND_DIRS),$(wildcard src/$(d)/*.c))))
# No install script per version: CREATE EXTENSION fixes runs fixes--1.0.sql and
# the update scripts after it (1.0 -> 1.1 -> 1.2 -> 1.3, fixes.control's
# default_version), so no line of SQL is written twice; CREATE EXTENSION fixes
# VERSION '1.0' or '1.1' stops on the way, and ALTER EXTENSION UPDATE goes on.
DATA       = fixes--1.0.sql fixes--1.0--1.1.sql fixes--1.1--1.2.sql fixes--1.2--1.3.sql
PGFILEDESC = "fixes - Fixes: trailers of git histories as tables and views"

REGRESS      = readers parse_fixes errors privileges load bad_input lookups unload stable files article trailers overrides article_compat stable_cc backports cve
ISOLATION    = load_concurrency load_cic
FIXES_FIXTURES ?= /tmp/fixes-fixtures
export FIXES_FIXTURES := $(abspath $(FIXES_FIXTURES))
# the tests are test/sql/*.sql and test/specs/*.spec against test/expected/*.out; their
# output stays where PGXS puts it and cleans it (results/, output_iso/, regression.diffs)
REGRESS_OPTS   = --inputdir=$(srcdir)/test --launcher=$(CURDIR)/test/lib/regress-launcher
ISOLATION_OPTS = --inputdir=$(srcdir)/test --launcher=$(CURDIR)/test/lib/regress-launcher

PG_CONFIG   ?= pg_config
LIBGIT2_CFLAGS := $(shell pkg-config --cflags libgit2)
LIBGIT2_LIBS   := $(shell pkg-config --libs libgit2)
# ISA-L's inflate (src/reader/inflate.c): Debian's libisal-dev has a .pc; plain -lisal without it
ISAL_LIBS      := $(shell pkg-config --libs libisal 2>/dev/null || echo -lisal)
PG_CPPFLAGS  = $(foreach d,$(BACKEND_DIRS),-I$(srcdir)/src/$(d))

# the reader process: every libgit2 call runs there, never in the backend
READER       = fixes-reader
READER_SRCS  = $(sort $(wildcard $(srcdir)/src/reader/*.c) $(wildcard $(srcdir)/src/common/*.c))
READER_CFLAGS = -std=gnu99 -O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -I$(srcdir)/src/common $(COPT) $(LIBGIT2_CFLAGS)
EXTRA_CLEAN  = $(READER)

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# every object depends on every header (PGXS tracks no header dependencies)
$(OBJS): $(foreach d,$(BACKEND_DIRS),$(wildcard $(srcdir)/src/$(d)/*.h))

all: $(READER)
$(READER): $(READER_SRCS) $(wildcard $(srcdir)/src/reader/*.h $(srcdir)/src/common/*.h)
	$(CC) $(READER_CFLAGS) -o $@ $(READER_SRCS) $(LIBGIT2_LIBS) $(ISAL_LIBS) $(shell pkg-config --libs zlib)

install: install-reader
.PHONY: install-reader uninstall-reader
# fixes--1.1.sql was the install script of 1.1: a copy that an older make install
# left would be where CREATE EXTENSION starts (the shortest path), not the chain
install-reader: $(READER) installdirs
	$(INSTALL_PROGRAM) $(READER) '$(DESTDIR)$(pkglibdir)/$(READER)'
	rm -f '$(DESTDIR)$(datadir)/$(datamoduledir)/fixes--1.1.sql'
uninstall: uninstall-reader
uninstall-reader:
	rm -f '$(DESTDIR)$(pkglibdir)/$(READER)'

.PHONY: demo test dist
demo:
	scripts/demo $(REPO)
test:
	scripts/test

# The PGXN distribution: the committed tree at HEAD (uncommitted changes are
# not in it), under the directory fixes-X.Y.Z/.  The version is META.json's,
# which must be fixes.control's default_version with a patch number.
EXTVERSION  = $(shell sed -n "s/^default_version *= *'\(.*\)'.*/\1/p" $(srcdir)/fixes.control)
DISTVERSION = $(shell sed -n 's/^    "version": "\(.*\)",$$/\1/p' $(srcdir)/META.json)
dist:
	@case "$(DISTVERSION)" in \
	    $(EXTVERSION).[0-9]*) ;; \
	    *) echo "META.json's version \"$(DISTVERSION)\" is not default_version $(EXTVERSION) of fixes.control with a patch number" >&2; exit 1 ;; \
	esac
	git -C $(srcdir) archive --format=tar.gz --prefix=fixes-$(DISTVERSION)/ \
	    -o $(abspath fixes-$(DISTVERSION).tar.gz) HEAD
	@echo "fixes-$(DISTVERSION).tar.gz: fixes $(DISTVERSION) at $$(git -C $(srcdir) rev-parse --short HEAD)"
