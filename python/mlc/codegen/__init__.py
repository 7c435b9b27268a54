"""CPU code generation strategies on bufferized linalg: vectorization, parallel loops,
math approximations and library calls. Each strategy is one pass; `cpu_codegen` orders them."""
