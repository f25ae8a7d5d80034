"""Build the solver's Cython kernels; everything else is declared in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

KERNELS = ["_klondike", "_spider"]

setup(
    ext_modules=cythonize(
        [
            Extension(f"kabale.solver.{name}", [f"src/kabale/solver/{name}.pyx"],
                      extra_compile_args=["-O3"])
            for name in KERNELS
        ],
        compiler_directives={"language_level": "3"},
    )
)
