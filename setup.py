"""Build the Cython kernels (the solver's, and the env's batch of Klondike games); everything
else is declared in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup

KERNELS = ["solver._klondike", "solver._spider", "env._klondike_batch"]

setup(
    ext_modules=cythonize(
        [
            Extension(f"kabale.{name}", [f"src/kabale/{name.replace('.', '/')}.pyx"],
                      extra_compile_args=["-O3"])
            for name in KERNELS
        ],
        compiler_directives={"language_level": "3"},
    )
)
