"""Pass `mlc-cpu-codegen`: MLC's CPU strategies, in order, on bufferized linalg."""

from __future__ import annotations

from dataclasses import dataclass

from ..transforms.pass_base import Pass, PassPipeline, UpstreamPasses
from .blas import Blas
from .fma import FuseMultiplyAdd
from .math_approx import MathApprox
from .parallel import AsyncParallel
from .vector_math import VectorMath
from .vectorize import Vectorize


# Named ops left after bufferization (linalg.copy, linalg.transpose, ...) become generics,
# so mlc-blas and mlc-vectorize see them too.
_GENERALIZE = "func.func(linalg-generalize-named-ops)"


@dataclass(frozen=True)
class CpuCodegen(PassPipeline):
    """Runs the CPU strategies on bufferized linalg: big matmuls as BLAS calls, vectorized
    innermost loops, then f32
    exp/log/tanh as polynomials (so they vectorize too), sin/cos and f64 exp/log as libmvec
    calls, outer loops of big kernels on all cores (async runtime).

    Expects: the `buffers` stage. Produces: scf loops over vector ops where a strategy
    applied, linalg elsewhere; mlc-buffers-to-llvm lowers both.
    """

    name = "mlc-cpu-codegen"

    def passes(self) -> list[Pass]:
        return [UpstreamPasses(_GENERALIZE), Blas(), Vectorize(), MathApprox(), VectorMath(), FuseMultiplyAdd(),
                AsyncParallel()]
