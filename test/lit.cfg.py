# lit configuration for MLC's IR tests. Works standalone (`lit test`) and from CMake's
# generated lit.site.cfg.py, which sets config.mlc_python before loading this file.
import os
import subprocess
import sys

import lit.formats

config.name = "MLC"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "pytest", "Inputs"]

python = getattr(config, "mlc_python", None) or sys.executable


def _tool_path(kind, name):
    out = subprocess.run([python, "-c", f"from mlc.runtime.libraries import {kind}; print({kind}('{name}'))"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        lit_config.fatal(f"cannot find {name}: is MLC installed (pip install -e '.[test]')?\n{out.stderr}")
    return out.stdout.strip()


filecheck = _tool_path("llvm_tool", "FileCheck")
config.environment["FILECHECK_OPTS"] = "-enable-var-scope --allow-unused-prefixes=false"
# mlc-run would otherwise fill the user's persistent compilation cache.
config.environment["MLC_CACHE"] = "0"
# Each tool runs in the Python that has MLC installed.
config.substitutions.append(("%PYTHON", f'"{python}"'))
config.substitutions.append(("%mlir_opt", _tool_path("mlir_tool", "mlir-opt")))
config.substitutions.append(("%hlo_irdl", os.path.join(os.path.dirname(config.test_source_root),
                                                       "dialects", "hlo.irdl.mlir")))


def _tool(name, command):
    # A bare tool name on a RUN line (not part of a path or a longer name) becomes `command`.
    config.substitutions.append((rf"(?<![\w/.-]){name}(?![\w.-])", command))


_tool("mlc-opt", f'"{python}" -m mlc.tools.mlc_opt')
_tool("mlc-run", f'"{python}" -m mlc.tools.mlc_run')
_tool("FileCheck", filecheck)
# The JIT needs an x86-64 or AArch64 host; every machine MLC installs on is one.
config.available_features.add("host-supports-jit")
