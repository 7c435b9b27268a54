"""Differential fuzzing of MLC with hypothesis.

- `hlo_programs`: random well-typed hlo functions (every op of the table) with inputs;
  compiled at opt_level=0 without fusion and at the defaults, compared with
  `mlc.reference.run` (compare.py states the tolerances).
- `mutants`: valid programs with one edit; compiling must succeed or fail cleanly.
- `numpy_programs`: `mlc.numpy` programs under `mlc.jit`, compared with numpy eager.
- `sandbox.Worker`: runs the checks in a child process, so crashes and hangs are reported.
- `known.KNOWN_BUGS`: failures of known bugs (each with an xfail regression test), let pass
  by test_fuzz.py and by the long mode with `--skip-known`.
- `python -m mlc.fuzz --minutes N [--seed S] [--out DIR] [--skip-known]`: the long mode
  (runner.py).
"""

# The submodules are imported by name (mlc.fuzz.hlo_programs.hlo_programs...): re-exporting
# the strategies here would shadow the modules of the same name.
