"""Check a built release as an index and its users would see it (twine check covers the
metadata's rendering; this covers the rest):

    python .ci/check_release.py DIST      (DIST holds one sdist and one repaired wheel)

- the wheel is a manylinux one (an index refuses a plain linux_x86_64 tag), carries the three
  compiled kernels without debug info, and none of the Cython sources or the C made from them;
- the sdist carries the Cython sources, the tests and the docs, and no compiled or generated
  file;
- the long description links only to absolute addresses (relative ones break on an index).

Exits 1 with one line per problem, 0 after one line per check passed.
"""

from __future__ import annotations

import re
import struct
import sys
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

KERNELS = ("kabale/solver/_klondike", "kabale/solver/_spider", "kabale/env/_klondike_batch")
SOURCES = (".pyx", ".pxi", ".pxd", ".c")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def elf_sections(data: bytes) -> list[str]:
    """The section names of a 64-bit little-endian ELF file (what the kernels are on Linux)."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    names_at = headers[shstrndx][4]
    return [data[names_at + h[0]:data.index(b"\0", names_at + h[0])].decode()
            for h in headers]


def check_wheel(wheel: Path) -> list[str]:
    problems = []
    if "manylinux" not in wheel.name:
        problems.append(f"{wheel.name}: not a manylinux wheel (auditwheel repair makes one)")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        for kernel in KERNELS:
            built = [n for n in names if n.startswith(kernel + ".") and n.endswith(".so")]
            if len(built) != 1:
                problems.append(f"{wheel.name}: {kernel} compiled {len(built)} times, not once")
                continue
            debug = [s for s in elf_sections(archive.read(built[0]))
                     if s.startswith((".debug_", ".zdebug_"))]
            if debug:
                problems.append(f"{wheel.name}: {built[0]} carries debug info ({debug[0]}...)")
        sources = [n for n in names if n.endswith(SOURCES)]
        if sources:
            problems.append(f"{wheel.name}: ships {len(sources)} Cython sources or generated C, "
                            f"e.g. {sources[0]}")
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        description = Parser().parsestr(archive.read(metadata).decode()).get_payload()
    relative = [t for t in LINK.findall(str(description))
                if not t.startswith(("https://", "http://"))]
    if relative:
        problems.append(f"{wheel.name}: the long description links relative {relative[0]}")
    return problems


def check_sdist(sdist: Path) -> list[str]:
    problems = []
    with tarfile.open(sdist) as archive:
        names = [n.partition("/")[2] for n in archive.getnames()]
    for needed in ("src/kabale/solver/_klondike.pyx", "src/kabale/env/_klondike_batch.pyx",
                   "tests/test_packaging.py", "docs/rules.md", "docs/pypi.md", ".ci/run"):
        if needed not in names:
            problems.append(f"{sdist.name}: lacks {needed}")
    built = [n for n in names if n.endswith((".so", ".pyd", ".pyc", ".o"))
             or (n.startswith("src/") and n.endswith(".c"))]
    if built:
        problems.append(f"{sdist.name}: carries built or generated files, e.g. {built[0]}")
    return problems


def main(folder: str) -> int:
    dist = Path(folder)
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        print(f"check_release: {dist} holds {len(wheels)} wheels and {len(sdists)} sdists, "
              f"not one of each")
        return 1
    problems = check_wheel(wheels[0]) + check_sdist(sdists[0])
    for problem in problems:
        print(f"check_release: {problem}")
    if not problems:
        print(f"check_release: ok: {wheels[0].name} and {sdists[0].name}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
