#!/usr/bin/env python3
"""refs-oracle.py REPO SCOPE SALT -- the refs hash of fixes-reader, from git's command line.

Prints the 40-hex hash that `fixes-reader head REPO HEAD --refs=SCOPE:SALT` must send in its
'R' record (src/reader/refs.c): SHA-1, as git hashes a blob, of

    "fixes refs 1\\n" SALT "\\n" SCOPE "\\n"

followed by every ref the load reads -- refs/tags/..., and with SCOPE "tb" refs/heads/... and
refs/remotes/... -- sorted by name, each as a 4-byte little-endian length and the entry:
    NAME NUL "D" raw-id                      a ref that points at an object
    NAME NUL "S" TARGET NUL raw-id           a symbolic ref, and the id its target resolves to
The refs come from `git for-each-ref` (loose refs and packed-refs alike), independently of
libgit2.  Python 3 standard library only.

refs-oracle.py --record < STREAM prints the state and the hash of the 'R' record of a reader's
stream (src/common/wire.h: a type byte, a 4-byte little-endian length, the payload).
"""
import hashlib
import struct
import subprocess
import sys


def refs(repo, prefixes):
    out = subprocess.run(['git', '-C', repo, 'for-each-ref',
                          '--format=%(refname)%00%(symref)%00%(objectname)'] + prefixes,
                         check=True, stdout=subprocess.PIPE).stdout
    for line in out.split(b'\n'):
        if line:
            name, symref, oid = line.split(b'\0')
            yield name, symref, bytes.fromhex(oid.decode())


def record():
    data = sys.stdin.buffer.read()
    at = 0
    while at + 5 <= len(data):
        kind, n = data[at:at + 1], struct.unpack('<I', data[at + 1:at + 5])[0]
        payload = data[at + 5:at + 5 + n]
        if kind == b'R':
            print(payload[0], payload[1:].hex())
            return
        at += 5 + n
    print('no R record')


def main():
    if sys.argv[1] == '--record':
        record()
        return
    repo, scope, salt = sys.argv[1], sys.argv[2], sys.argv[3]
    prefixes = ['refs/tags/'] + (['refs/heads/', 'refs/remotes/'] if scope == 'tb' else [])
    entries = []
    for name, symref, oid in refs(repo, prefixes):
        if symref:
            entries.append(name + b'\0S' + symref + b'\0' + oid)
        else:
            entries.append(name + b'\0D' + oid)
    entries.sort(key=lambda e: (e.split(b'\0', 1)[0], e))
    buf = b'fixes refs 1\n' + salt.encode() + b'\n' + scope.encode() + b'\n'
    buf += b''.join(struct.pack('<I', len(e)) + e for e in entries)
    print(hashlib.sha1(b'blob %d\0' % len(buf) + buf).hexdigest())


if __name__ == '__main__':
    main()
