-- fixes_parse_fixes(): every Fixes: trailer variant, and what must not parse
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS fixes CASCADE;
RESET client_min_messages;
CREATE EXTENSION fixes;
\pset null '(null)'

-- one message with every variant, one per line; line numbers are 1-based
SELECT line, abbrev, quoted_subject, raw
  FROM fixes_parse_fixes(E'net: fix a leak\n'
    '\n'
    'Fixes: 1c441e921201 ("epoll: use freezable blocking call")\n'
    'Fixes: 1c441e9 ("seven hex")\n'
    'Fixes: 1C441E92 ("eight hex, upper case")\n'
    'Fixes: 1c441e9212013c48b7bd7d0a3d5ab6a7f22c4a1b ("forty hex")\n'
    'Fixes: commit 5a9d2c3f0e1b ("the commit keyword")\n'
    'fixes: abcdef123456 ("lower-case key")\n'
    '   Fixes: 0123456789ab ("leading blanks")\n'
    '\tFixes:\tfedcba987654 ("tabs")\n'
    'Fixes: 0a1b2c3d4e5f no quotes at all\n'
    'Fixes: 0a1b2c3d4e5f\n'
    'Fixes:0a1b2c3d4e5f ("no blank after the colon")\n'
    'Fixes: 0123456789ab ("Revert "foo (bar)"")\n'
    'Fixes: 0123456789ab ("")\n'
    'Fixes: 0123456789ab ("opened but never closed\n'
    'Fixes: 0123456789ab ("crlf")\r\n'
    'Fixes: 12345 ("five hex digits do not parse")\n'
    'Fixes: #123\n'
    'Fixes: 0123456789abcdef0123456789abcdef012345678 ("41 hex")\n'
    'Fixes: 123456g ("not a word boundary")\n'
    'Fixes: commitabcdef ("commit needs a blank")\n'
    'Fixes: https://bugzilla.example.org/123\n'
    'Not-Fixes: 0123456789ab ("other key")\n'
    'Signed-off-by: A <a@example.org>\n'
    'Fixes: 0123456789ab ("last line, no newline")');

-- several trailers in one message, counted
SELECT count(*) AS trailers, count(quoted_subject) AS with_subject
  FROM fixes_parse_fixes(E'x\n\nFixes: aaaaaaa ("a")\nFixes: bbbbbbb\nFixes: ccccccc ("c")\n');

-- no trailer, empty message: no rows; NULL: no rows (STRICT)
SELECT count(*) FROM fixes_parse_fixes('just a subject');
SELECT count(*) FROM fixes_parse_fixes('');
SELECT count(*) FROM fixes_parse_fixes(NULL);

-- the declared properties of the function
SELECT provolatile, proisstrict, proparallel
  FROM pg_proc WHERE proname = 'fixes_parse_fixes';
