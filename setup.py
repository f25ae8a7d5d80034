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

KERNELS = ["solver._klondike", "solver._spider", "env._klondike_batch"]
INSTALL = ("install a C compiler and Python's headers (Debian, Ubuntu: "
           "apt-get install build-essential python3-dev), then install kabale again")


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


def kernels() -> list[Extension]:
    """The kernels as extension modules, or none (after one line on stderr) when they cannot
    be built here."""
    missing = missing_build_tools()
    if missing is not None:
        if not {"egg_info", "dist_info", "sdist"} & set(sys.argv):  # said once, at the build
            print(f"kabale: building without the solver's compiled kernels, as {missing} is "
                  f"missing: the solver, hints, the bot and the batch env will not work; "
                  f"{INSTALL}", file=sys.stderr)
        return []
    from Cython.Build import cythonize

    return cythonize(
        [Extension(f"kabale.{name}", [f"src/kabale/{name.replace('.', '/')}.pyx"],
                   extra_compile_args=["-O3"])
         for name in KERNELS],
        compiler_directives={"language_level": "3"},
    )


if __name__ == "__main__":
    setup(ext_modules=kernels())
