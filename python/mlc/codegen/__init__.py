"""CPU code generation strategies on bufferized linalg: vectorization, parallel loops,
math approximations and library calls. Each strategy is one pass;
mlc/pipelines.py orders them (the codegen stage)."""
