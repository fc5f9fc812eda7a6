#!/usr/bin/env python3
"""pack_entry.py — damage one entry of a git pack file in place, for the reader's tests

  pack_entry.py resize PACK OFFSET DELTA   the size in the entry's header (at OFFSET, as
                                           `git verify-pack -v` gives it) + DELTA; the header
                                           keeps its length (else it fails)
  pack_entry.py flip PACK AT               the byte at AT xor 0x5a

Nothing else of the pack changes: its trailing checksum no longer matches, which neither git's
readers of an object nor libgit2 check.
"""
import sys


def resize(path, off, delta):
    with open(path, 'r+b') as f:
        f.seek(off)
        h = bytearray(f.read(16))
        n, size, shift = 1, h[0] & 15, 4
        while h[n - 1] & 0x80:
            size |= (h[n] & 0x7f) << shift
            shift += 7
            n += 1
        size += delta
        out = bytearray([(h[0] & 0x70) | (size & 15)])
        size >>= 4
        while size:
            out[-1] |= 0x80
            out.append(size & 0x7f)
            size >>= 7
        if len(out) != n:
            sys.exit('pack_entry.py: the new size needs another length of header')
        f.seek(off)
        f.write(out)


def flip(path, at):
    with open(path, 'r+b') as f:
        f.seek(at)
        b = f.read(1)
        f.seek(at)
        f.write(bytes([b[0] ^ 0x5a]))


if __name__ == '__main__':
    if len(sys.argv) == 5 and sys.argv[1] == 'resize':
        resize(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 4 and sys.argv[1] == 'flip':
        flip(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(__doc__)
