#!/usr/bin/env bash
# Installs Tailcall 1.6.14 from the npm registry (pinned in this folder's
# npm/package-lock.json) into .bench/tailcall/ and makes it run on a glibc older
# than the one it was linked against (Debian 12 has 2.36; it asks for 2.38 and
# 2.39): the version needs are marked weak in a copy of the binary and
# __isoc23_strtol, its one symbol that 2.36 lacks, is preloaded. Prints the
# binary's path and the library to preload, one a line. Needs python3 and gcc.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${TAILCALL_DIR:-$(cd "$HERE/../.." && pwd)/.bench/tailcall}
mkdir -p "$OUT"
if [ ! -x "$OUT/tailcall" ] || [ "$HERE/npm/package-lock.json" -nt "$OUT/tailcall" ]; then
  cp "$HERE/npm/package.json" "$HERE/npm/package-lock.json" "$OUT/"
  (cd "$OUT" && npm ci --ignore-scripts --no-audit --no-fund >&2)
  cp "$OUT/node_modules/@tailcallhq/core-linux-x64-gnu/bin/tailcall" "$OUT/tailcall.part"
  python3 "$HERE/weaken-glibc-versions.py" "$OUT/tailcall.part" GLIBC_2.38 GLIBC_2.39
  mv "$OUT/tailcall.part" "$OUT/tailcall"
fi
if [ ! -f "$OUT/isoc23-strtol.so" ] || [ "$HERE/isoc23-strtol.c" -nt "$OUT/isoc23-strtol.so" ]; then
  gcc -O2 -shared -fPIC -o "$OUT/isoc23-strtol.so" "$HERE/isoc23-strtol.c"
fi
LD_PRELOAD="$OUT/isoc23-strtol.so" "$OUT/tailcall" --version 2>/dev/null | grep -q 'tailcall v1.6.14' ||
  { echo "Tailcall does not start: LD_PRELOAD=$OUT/isoc23-strtol.so $OUT/tailcall --version" >&2; exit 1; }
echo "$OUT/tailcall"
echo "$OUT/isoc23-strtol.so"
