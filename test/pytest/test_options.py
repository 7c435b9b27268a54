"""CompileOptions: one object through the API, the pipelines and both CLIs; the staged
jit API runs the pipeline once however many stages are asked for."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc import config
from mlc.options import CompileOptions, field_docs
from mlc.pipelines import STAGE_NAMES

X = np.random.default_rng(0).standard_normal((64, 128)).astype(np.float32)
MODEL = """
func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "hlo.multiply"(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "hlo.exponential"(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
"""


def test_every_field_has_a_docstring_and_a_flag():
    docs = field_docs()
    assert set(docs) == {f.name for f in dataclasses.fields(CompileOptions)}
    assert all(len(text) > 20 for text in docs.values())
    flags = [f.metadata["flag"] for f in dataclasses.fields(CompileOptions)]
    assert len(set(flags)) == len(flags)


@pytest.mark.parametrize("changes, message", [
    (dict(opt_level=7), "opt_level must be 0..3"), (dict(threads=0), "threads must be a positive"),
    (dict(vector_bits=300), "vector_bits must be one of"), (dict(fusion="no"), "fusion must be a bool"),
    (dict(jit="mcjit"), "jit must be one of 'orc', 'execution-engine'")])
def test_bad_values_are_clear_errors(changes, message):
    with pytest.raises(ValueError, match=message):
        CompileOptions(**changes)


def test_defaults_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("MLC_NUM_THREADS", "1")
    monkeypatch.setenv("MLC_VECTOR_BITS", "512")
    monkeypatch.setenv("MLC_BLAS", "0")
    monkeypatch.setenv("MLC_JIT", "execution-engine")
    assert config.default_options() == CompileOptions(threads=1, vector_bits=512, blas=False,
                                                      jit="execution-engine")
    monkeypatch.setenv("MLC_JIT", "lli")
    with pytest.raises(ValueError, match="MLC_JIT must be one of orc, execution-engine, got 'lli'"):
        config.default_options()


def test_settings_answer_from_the_running_compile(monkeypatch):
    monkeypatch.setenv("MLC_NUM_THREADS", "3")
    with config.compiling_with(CompileOptions(threads=1, vector_bits=128, blas=False)):
        assert (config.num_threads(), config.vector_bits(), config.blas_enabled()) == (1, 128, False)
    assert config.num_threads() == 3


def _widest_f32_vector(text: str) -> int:
    return max(int(n) for n in re.findall(r"vector<(\d+)xf32>", text))


def test_options_reach_the_codegen_passes():
    x = np.ones((1024, 512), np.float32)
    narrow, wide = (mlc.jit(lambda a: mnp.exp(a), options=CompileOptions(threads=1, vector_bits=bits)).lower(x).compile()
                    for bits in (128, 512))
    assert narrow.options.threads == 1 and wide.options.vector_bits == 512
    assert "mlc_parallel_for" not in narrow.as_text("codegen")
    assert _widest_f32_vector(wide.as_text("codegen")) == 4 * _widest_f32_vector(narrow.as_text("codegen"))
    np.testing.assert_allclose(wide(x), np.exp(x), rtol=1e-6)


def test_keywords_still_override_fields():
    f = mlc.jit(lambda a: a * 1.0, opt_level=0, options=CompileOptions(fusion=False))
    assert f.options == config.default_options().replace(opt_level=0, fusion=False)
    assert f.lower(X).as_text("hlo-optimized").count("hlo.multiply") == 1
    executable = mlc.compile(MODEL, options=CompileOptions(opt_level=0))
    np.testing.assert_allclose(executable(np.ones(8, np.float32), np.ones(8, np.float32)), np.full(8, np.e), rtol=1e-6)
    with pytest.raises(ValueError, match="opt_level must be 0..3"):
        mlc.jit(lambda a: a, opt_level=9)


def test_stages_run_once_for_every_as_text(monkeypatch):
    import mlc.frontend.stages as stages
    runs = []
    real = stages.compile_module
    monkeypatch.setattr(stages, "compile_module", lambda *a, **k: runs.append(1) or real(*a, **k))
    lowered = mlc.jit(lambda a: mnp.tanh(a) * 2.0).trace(X).lower()
    texts = [lowered.as_text(stage) for stage in STAGE_NAMES]
    compiled = lowered.compile()
    assert compiled.as_text("linalg") == texts[STAGE_NAMES.index("linalg")]
    assert "llvm.func" in compiled.as_text("llvm") and "linalg.generic" in texts[STAGE_NAMES.index("linalg")]
    assert len(runs) == 1
    np.testing.assert_allclose(compiled(X), np.tanh(X) * 2, rtol=1e-5, atol=1e-6)


def test_traced_lowered_compiled_hold_their_own_artifacts():
    traced = mlc.jit(lambda a: a + 1.0).trace(X)
    assert isinstance(traced, mlc.Traced) and '"hlo.add"' in traced.as_text()
    first, second = traced.lower(), traced.lower(CompileOptions(opt_level=0))
    assert first.module is not second.module and second.options.opt_level == 0
    assert first.compile() is first.compile()  # compiled once per Lowered


def test_dump_dir_gets_every_stage_of_mlc_compile(tmp_path, monkeypatch):
    monkeypatch.setenv("MLC_DUMP_DIR", str(tmp_path))
    mlc.compile(MODEL)
    names = {p.name.split(".", 2)[2] for p in tmp_path.iterdir()}
    assert names == {f"{stage}.mlir" for stage in STAGE_NAMES}


def test_both_clis_have_a_flag_per_field():
    from mlc.tools import mlc_opt, mlc_run
    for tool in (mlc_opt, mlc_run):
        help_text = tool._argument_parser().format_help()
        for flag in ("-O", "--no-fusion", "--threads", "--vector-bits", "--no-blas"):
            assert flag in help_text, (tool.__name__, flag)


def test_cli_flags_change_the_compile(tmp_path, capsys):
    from mlc.tools import mlc_opt, mlc_run
    path = tmp_path / "m.mlir"
    path.write_text(MODEL.replace("8xf32", "4096xf32"))  # long enough for 512-bit vectors
    texts = {}
    for bits in (128, 512):
        assert mlc_opt.main([str(path), "--emit=codegen", f"--vector-bits={bits}", "--threads=1"]) == 0
        texts[bits] = capsys.readouterr().out
    assert _widest_f32_vector(texts[512]) > _widest_f32_vector(texts[128])
    assert mlc_run.main([str(path), "--random-inputs", "0", "-O", "0", "--no-fusion", "--no-blas"]) == 0
    with pytest.raises(SystemExit):
        mlc_run.main([str(path), "--random-inputs", "0", "--vector-bits", "100"])
    assert "invalid choice" in capsys.readouterr().err
