# SPDX-License-Identifier: MIT
# Type stubs of the extension module (what editors complete); the docstrings say more.
from typing import Any, Callable, Literal, Sequence

import numpy as np
import numpy.typing as npt

__version__: str

_Backend = Literal["cpu", "cuda", "auto"]
_Devices = str | Sequence[int]

def ensemble(
    *,
    problem: Literal["henon-heiles", "lorenz", "polynomial", "three-body"] = "henon-heiles",
    integrator: str = "",
    precision: str = "fp64",
    dt: float = 0.01,
    steps: int = 10000,
    t_end: float = 0.0,
    samples: int = 16,
    starts: str = "grid",
    resolution: int = 64,
    n: int = 4096,
    seed: int = 1,
    energy: float = 0.125,
    plane: str = "y:py",
    x_range: tuple[float, float] = ...,
    y_range: tuple[float, float] = ...,
    z_range: tuple[float, float] = ...,
    px_range: tuple[float, float] = ...,
    py_range: tuple[float, float] = ...,
    state: str = "",
    parameters: str = "",
    sweep: str = "",
    backend: _Backend = "auto",
    devices: _Devices = "all",
    cpu_kernel: str = "",
    threads: int = 0,
    out: str = "",
    plot: str = "",
    overwrite: bool = False,
    # <word>_range of any problem's state word: x1_range, vy3_range (three-body), ...
    **ranges: tuple[float, float],
) -> dict[str, Any]: ...

def chaos(
    *,
    indicator: Literal["megno", "lyapunov", "fli", "sali", "spectrum", "gali", "escape"] = "megno",
    gali_k: int = 2,
    every: int = 10,
    threshold: float | None = None,
    exact: bool = False,
    problem: Literal["henon-heiles", "lorenz", "polynomial", "three-body"] = "henon-heiles",
    potential: str = "",
    integrator: Literal["leapfrog", "yoshida4", "yoshida6", "rk4", "dop853", ""] = "",
    dt: float = 0.01,
    steps: int = 10000,
    t_end: float = 0.0,
    samples: int = 16,
    # 'grid', 'random', a CSV/HDF5 file, or an array [N, D] (or [N, D + P]) of starts
    starts: str | npt.ArrayLike = "grid",
    resolution: int = 64,
    n: int = 4096,
    seed: int = 1,
    energy: float = 0.125,
    plane: str = "y:py",
    x_range: tuple[float, float] = ...,
    y_range: tuple[float, float] = ...,
    z_range: tuple[float, float] = ...,
    px_range: tuple[float, float] = ...,
    py_range: tuple[float, float] = ...,
    state: str = "",
    parameters: str = "",
    sweep: str = "",
    backend: _Backend = "auto",
    devices: _Devices = "all",
    cpu_kernel: str = "",
    threads: int = 0,
    out: str = "",
    data: str = "",
    overwrite: bool = False,
    **ranges: tuple[float, float],
) -> dict[str, Any]: ...

def divergence_map(
    *,
    window: tuple[float, float, float, float] = ...,
    resolution: int = ...,
    width: int = 1000,
    height: int = 1000,
    steps: int = 50000,
    dt: float = 0.001,
    integrator: Literal["euler", "midpoint", "rk4", "symplectic-euler", "leapfrog",
                        "yoshida4", "ab2", "ab4"] = "euler",
    shift: float = ...,
    shift_vector: tuple[float, float, float] = (0.001, 0.001, 0.001),
    critical_distance: float = 0.5,
    x_range: tuple[float, float] = (-20.0, 20.0),
    y_range: tuple[float, float] = (-20.0, 20.0),
    plane: Literal["xy", "yz", "xz"] = "xy",
    vary: int = 1,
    masses: Sequence[float] = (10.0, 20.0, 30.0),
    g: float = 9.8,
    positions: Sequence[float] = ...,
    velocities: Sequence[float] = ...,
    backend: _Backend = "auto",
    devices: _Devices = "all",
    cpu_kernel: Literal["avx512", "avx2", "generic"] = ...,
    precision: Literal["fp64", "fp32", "mixed"] = "fp64",
    threads: int = ...,
    exact: bool = False,
    out: str = "",
    data: str = "",
    overwrite: bool = False,
    colormap: Literal["inferno", "magma", "viridis", "gray"] = "inferno",
    origin: Literal["upper", "lower"] = "upper",
) -> npt.NDArray[np.int32]: ...

def forces(
    position: npt.ArrayLike,
    mass: npt.ArrayLike,
    G: float = 1.0,
    softening: float = 0.0,
    *,
    engine: Literal["direct", "tree"] = "direct",
    theta: float = 0.5,
    multipole: Literal["monopole", "quadrupole"] = "quadrupole",
    precision: Literal["fp32", "fp64", "fp128"] = "fp64",
    threads: int = ...,
    backend: _Backend = "auto",
    devices: _Devices = "all",
    cpu_kernel: str = ...,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...

def load(path: str) -> dict[str, Any] | list[dict[str, Any]]: ...

class Collision(RuntimeError): ...
class Encounter(RuntimeError): ...
class Escape(RuntimeError): ...

class Simulation:
    def __init__(self, G: float = 1.0, softening: float = 0.0, **settings: Any) -> None: ...
    @staticmethod
    def scene(name: str, **parameters: Any) -> Simulation: ...
    @staticmethod
    def load(path: str, **settings: Any) -> Simulation: ...
    def add(
        self,
        mass: npt.ArrayLike | None = None,
        position: npt.ArrayLike | None = None,
        velocity: npt.ArrayLike | None = None,
        softening: npt.ArrayLike | None = None,
        *,
        primary: int | Literal["jacobi", "barycentre", "barycenter", "com"] | None = None,
        a: npt.ArrayLike | None = None,
        P: npt.ArrayLike | None = None,
        e: npt.ArrayLike | None = None,
        inc: npt.ArrayLike | None = None,
        Omega: npt.ArrayLike | None = None,
        omega: npt.ArrayLike | None = None,
        pomega: npt.ArrayLike | None = None,
        f: npt.ArrayLike | None = None,
        M: npt.ArrayLike | None = None,
        E: npt.ArrayLike | None = None,
        l: npt.ArrayLike | None = None,
        theta: npt.ArrayLike | None = None,
        T: npt.ArrayLike | None = None,
        m: npt.ArrayLike | None = None,
        r: npt.ArrayLike | None = None,
        radius: npt.ArrayLike | None = None,
    ) -> None: ...
    def orbits(
        self,
        *,
        primary: int | Literal["jacobi", "barycentre", "barycenter", "com"] | None = None,
    ) -> dict[str, npt.NDArray[np.float64]]: ...
    def step(self, n: int = 1) -> None: ...
    def integrate(self, t: float,
                  heartbeat: Callable[[Simulation], object] | None = None) -> int: ...
    def energy(self) -> float: ...
    def diagnostics(self) -> dict[str, float | tuple[float, ...]]: ...
    def forces(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
    def save(self, path: str, overwrite: bool = False) -> None: ...
    def copy(self) -> Simulation: ...
    def remove(self, index: int) -> None: ...
    def move_to_com(self) -> None: ...
    def __len__(self) -> int: ...
    engine: str
    integrator: str
    corrector: int
    ias15_criterion: Literal["prs24", "global"]
    whfast_safe_mode: bool
    collisions: Literal["none", "merge", "bounce", "stop"]
    collision_search: Literal["direct", "line"]
    exit_min_distance: float
    exit_max_distance: float
    @property
    def radius(self) -> npt.NDArray[np.float64]: ...
    @property
    def merged(self) -> int: ...
    tolerance: float
    backend: str
    precision: str
    dt: float
    @property
    def time(self) -> float: ...
    @property
    def steps(self) -> int: ...
    @property
    def G(self) -> float: ...
    @property
    def softening(self) -> float: ...
    @property
    def units(self) -> str: ...
    @units.setter
    def units(self, value: str | tuple[str, str, str] | list[str]) -> None: ...
    @property
    def t_end(self) -> float: ...
    position: npt.NDArray[np.floating]
    velocity: npt.NDArray[np.floating]
    mass: npt.NDArray[np.floating]

def load_map(path: str) -> npt.NDArray[np.int32]: ...

def zoom_width(from_width: float, to_width: float, frames: int, k: int) -> float: ...
def _zoom_frame(k: int, **parameters: Any) -> tuple[tuple[float, float, float, float],
                                                    npt.NDArray[np.int32]]: ...
_zoom_default_frames: int
