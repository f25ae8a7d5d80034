"""Build the Cython kernels (the solver's, and the env's batch of Klondike games); everything
else is declared in pyproject.toml.

The kernels need a C compiler and Python's headers. Where either is missing, kabale is built
without them, after one line saying so: the rules, the web game and the API work, and the
solver, the advisor and the batch env say in one line what to install when they are used.
Where both are present, a kernel that fails to compile fails the build, as it should.
"""

import os
import shutil
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.sdist import sdist

KERNELS = ["solver._klondike", "solver._spider", "env._klondike_batch"]
INSTALL = ("install a C compiler and Python's headers (Debian, Ubuntu: "
           "apt-get install build-essential python3-dev), then install kabale again")


#: The commands that only describe or pack the source, which need no kernel: cythonizing for
#: them would also put the generated C in the sdist (MANIFEST.in names the .pyx sources).
SOURCE_ONLY = {"egg_info", "dist_info", "sdist"}


def missing_build_tools() -> str | None:
    """What the kernels' build lacks (a C compiler, or Python.h), or None when both are there."""
    if not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        return "Python.h (Python's headers)"
    # setuptools provides distutils (Python 3.12 has none of its own)
    from distutils.ccompiler import new_compiler
    from distutils.errors import DistutilsPlatformError
    from distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    if compiler.compiler_type == "msvc":
        try:
            compiler.initialize()
        except DistutilsPlatformError:
            return "a C compiler (Microsoft C++ Build Tools)"
        return None
    customize_compiler(compiler)
    program = compiler.compiler_so[0]
    if shutil.which(program) is None:
        return f"a C compiler ({program!r} is not on PATH)"
    return None


def compile_args() -> list[str]:
    """-O3, and -g0: Python's own CFLAGS ask for debug info (-g), which would triple the
    kernels' size in every wheel and install (the last -g option wins). MSVC takes neither."""
    if sys.platform == "win32":
        return []
    return ["-O3", "-g0"]


def kernels() -> list[Extension]:
    """The kernels as extension modules; none for the source-only commands, and none (after
    one line on stderr, said once, at the build) when they cannot be built here."""
    if SOURCE_ONLY & set(sys.argv):
        return []
    missing = missing_build_tools()
    if missing is not None:
        print(f"kabale: building without the solver's compiled kernels, as {missing} is "
              f"missing: the solver, hints, the bot and the batch env will not work; "
              f"{INSTALL}", file=sys.stderr)
        return []
    from Cython.Build import cythonize

    return cythonize(
        [Extension(f"kabale.{name}", [f"src/kabale/{name.replace('.', '/')}.pyx"],
                   extra_compile_args=compile_args())
         for name in KERNELS],
        compiler_directives={"language_level": "3"},
    )


class SourceSdist(sdist):  # type: ignore[misc]
    """The sdist without the C that Cython makes from the kernels' sources: a tree where the
    kernels were built lists that C in its egg-info's SOURCES.txt, which setuptools reads back
    (an exclude line in MANIFEST.in would warn in a fresh clone, where it matches nothing)."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        generated = {f"src/kabale/{name.replace('.', '/')}.c" for name in KERNELS}
        super().make_release_tree(base_dir, [f for f in files
                                             if f.replace(os.sep, "/") not in generated])


if __name__ == "__main__":
    setup(ext_modules=kernels(), cmdclass={"sdist": SourceSdist})
