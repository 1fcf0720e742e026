# SPDX-License-Identifier: MIT
# The extension orrery._orrery is the CMake target orrery_py: this builds it with the project's
# own CMake (Release, no CUDA unless nvcc is found, no tests or benchmarks) in build-python/ and
# puts it into the package. ORRERY_CMAKE_ARGS adds arguments; ORRERY_JOBS sets the build's jobs.
import os
import pathlib
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = ROOT / "build-python" / "cmake"
        args = [f"-DPython3_EXECUTABLE={sys.executable}", "-DORRERY_PYTHON=ON",
                "-DORRERY_TESTS=OFF", "-DORRERY_BENCH=OFF", "-DCMAKE_BUILD_TYPE=Release"]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        if shutil.which("ccache"):
            args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache", "-DCMAKE_C_COMPILER_LAUNCHER=ccache"]
        args += shlex.split(os.environ.get("ORRERY_CMAKE_ARGS", ""))
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), *args], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "orrery_py", "-j",
                        os.environ.get("ORRERY_JOBS", str(os.cpu_count() or 1))], check=True)
        built = next((build / "python" / "orrery").glob("_orrery*"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(ext_modules=[Extension("orrery._orrery", sources=[])], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": "build-python"}, "egg_info": {"egg_base": "build-python"}})
