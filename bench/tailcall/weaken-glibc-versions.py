"""Marks an ELF executable's needs of the named glibc symbol versions weak.

Tailcall's release binary is linked against glibc 2.39 but uses only two
symbols newer than Debian 12's glibc 2.36: pidfd_getpid and pidfd_spawnp,
already weak symbols that it never calls here, and __isoc23_strtol, which
isoc23-strtol.c supplies. With the version needs weak, the loader warns
instead of refusing to start the program.

  python3 weaken-glibc-versions.py <elf file> GLIBC_2.38 GLIBC_2.39
"""
import struct
import sys

VER_FLG_WEAK = 0x2
SHT_GNU_VERNEED = 0x6FFFFFFE

path, names = sys.argv[1], set(sys.argv[2:])
data = bytearray(open(path, 'rb').read())
if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
    sys.exit(f'{path}: not a 64-bit little-endian ELF file')
section_offset, = struct.unpack_from('<Q', data, 0x28)
entry_size, count, _ = struct.unpack_from('<HHH', data, 0x3A)
sections = [struct.unpack_from('<IIQQQQIIQQ', data, section_offset + i * entry_size) for i in range(count)]
weakened = set()
for section in sections:
    if section[1] != SHT_GNU_VERNEED:
        continue
    strings = sections[section[6]][4]
    need = section[4]
    while True:
        _, aux_count, _, aux_offset, next_need = struct.unpack_from('<HHIII', data, need)
        aux = need + aux_offset
        for _ in range(aux_count):
            _, flags, _, name, next_aux = struct.unpack_from('<IHHII', data, aux)
            text = data[strings + name:data.index(0, strings + name)].decode()
            if text in names:
                struct.pack_into('<H', data, aux + 4, flags | VER_FLG_WEAK)
                weakened.add(text)
            if not next_aux:
                break
            aux += next_aux
        if not next_need:
            break
        need += next_need
missing = names - weakened
if missing:
    sys.exit(f'{path}: no need of {", ".join(sorted(missing))} found')
open(path, 'wb').write(data)
